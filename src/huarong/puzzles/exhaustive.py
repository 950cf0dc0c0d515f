"""The exhaustive search: every placement of a set of pieces on a board, split into clusters
(the connected parts of the state graph), with each cluster's hardest start.

Designers ask "what is the hardest start these pieces allow on this board": :func:`search`
answers by visiting every placement of the pieces (walls included), finding the cluster of
each placement not yet seen, and in each cluster the distance of every state from its
nearest solved state (a breadth-first search from all the solved states at once).  The
hardest start of a cluster is its state farthest from any solved state.

States are the perfect ranks of :mod:`huarong._kernels.cluster`; the walk over the placements
and the searches are the numba kernels of :mod:`huarong._kernels.exhaustive`.  A bitset
over the whole code space records the states found, so memory is one bit per code plus two
queues of the largest cluster's size.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from huarong.puzzles.board import Board
from huarong.puzzles.grid import PuzzleError, Shape
from huarong.puzzles.results import results_table, totals_of, write_results
from huarong.puzzles.specs import board_of

if TYPE_CHECKING:
    import pyarrow as pa

Progress = Callable[[str, int, int], None]
"""``progress(phase, done, total)``: codes walked out of the code space."""

DEFAULT_MEMORY = 8 << 30
"""Bytes the search may take for its bitset of the code space (8 GiB)."""

CHECKPOINT_SECONDS = 60.0
"""How often a search with a checkpoint saves it."""

_BUDGET = 1 << 18
"""States expanded between two progress reports (and chances for Ctrl-C), a cluster's
search going on across calls."""
_RECORDS = 1 << 16
_QUEUE = 1 << 16


@dataclass(frozen=True, eq=False)
class SearchResult:
    """One row per cluster: its ``states``, how many are ``solved``, the ``length`` of its
    hardest start (the largest distance from the nearest solved state; -1 when none is
    solved) and the code of that ``start`` (the smallest code of those; without a solved
    state, the cluster's smallest code).  Clusters in the order the walk found them."""

    board: Board
    states: np.ndarray
    solved: np.ndarray
    length: np.ndarray
    start: np.ndarray

    def __len__(self) -> int:
        return int(self.states.shape[0])

    @cached_property
    def total_states(self) -> int:
        """Every valid placement of the pieces."""
        return int(self.states.sum())

    def hardest(self) -> int | None:
        """The row of the hardest cluster (largest length; of those, the most states, then
        the first found); None when no cluster holds a solved state."""
        if not len(self) or int(self.length.max()) < 0:
            return None
        order = np.lexsort((np.arange(len(self)), -self.states, -self.length))
        return int(order[0])

    def totals(self) -> dict[str, Any]:
        """``{"clusters", "states", "hardest": {"length", "start"}}``; ``hardest`` is null
        when no cluster holds a solved state."""
        row = self.hardest()
        return totals_of(len(self), self.total_states, None if row is None else (
            int(self.length[row]), self.board.grids(self.start[row:row + 1])[0]))

    def table(self) -> pa.Table:
        """The clusters as a result file's table (:func:`~huarong.puzzles.results.
        results_table`), hardest first, then larger first."""
        order = np.lexsort((np.arange(len(self)), -self.states, -self.length))
        return results_table({"states": self.states[order], "solved": self.solved[order],
                              "length": self.length[order],
                              "start": self.board.grids(self.start[order])},
                             self.board.spec(), self.totals())

    def write(self, path: str | Path) -> None:
        """Write the table to ``path``: Parquet (``.parquet``) or DuckDB (``.duckdb``, table
        ``clusters``), replacing the file only once it is whole."""
        write_results(self.table(), path)


def code_bitset(board: Board, memory: int = DEFAULT_MEMORY) -> np.ndarray:
    """A zeroed bitset of the board's codes; :class:`PuzzleError` when it needs more than
    ``memory`` bytes."""
    from huarong._kernels import exhaustive as kernels

    size = board.code_space
    if size // 8 > memory:
        raise PuzzleError(f"{board.rows}x{board.columns} board",
                          f"its {size:,} codes need a bitset of {math.ceil(size / 8 / 2**30)} "
                          f"GiB, more than the {memory / 2**30:g} GiB allowed")
    return kernels.bitset(size)


def _grown(queue: np.ndarray) -> np.ndarray:
    """``queue`` twice as long, holding what it held."""
    bigger = np.empty(2 * queue.shape[0], dtype=queue.dtype)
    bigger[:queue.shape[0]] = queue
    return bigger


def _save(path: Path, key: str, position: int, seen: np.ndarray, parts: list[np.ndarray]
          ) -> None:
    """Where a search stands: its key, the walk's position, the bitset and the rows."""
    from huarong.fileio import atomic_writer

    found = np.concatenate(parts) if parts else np.zeros((0, 4), dtype=np.int64)
    parts[:] = [found]
    with atomic_writer(path, "wb") as stream:
        np.savez(stream, key=np.array(key), position=np.array(position), seen=seen,
                 found=found)


def _resume(path: Path, key: str, seen: np.ndarray) -> tuple[int, np.ndarray]:
    """The position and rows of a checkpoint of this search (its bitset read into
    ``seen``)."""
    try:
        with np.load(path) as saved:
            if str(saved["key"]) != key or saved["seen"].shape != seen.shape:
                raise PuzzleError(str(path), "a checkpoint of another search: remove it or "
                                             "run that search")
            seen[:] = saved["seen"]
            return int(saved["position"]), saved["found"].copy()
    except (OSError, ValueError, KeyError) as error:
        if isinstance(error, PuzzleError):
            raise
        raise PuzzleError(str(path), f"not a search checkpoint: {error}") from None


def search(cells: str, pieces: str | Sequence[tuple[Shape, int]], goal: str,
           metric: str = "step", rules: str = "free", *, progress: Progress | None = None,
           memory: int = DEFAULT_MEMORY) -> SearchResult:
    """Every placement of ``pieces`` on the ``cells`` of a board, split into clusters, with
    each cluster's states, solved states and hardest start (see
    :func:`~huarong.puzzles.specs.board_of` for the arguments and :class:`SearchResult` for
    the answer).  :class:`PuzzleError` for a bad specification or a code space whose bitset
    needs more than ``memory`` bytes."""
    return run(board_of(cells, pieces, goal, metric=metric, rules=rules),
               progress=progress, memory=memory)


def run(board: Board, *, progress: Progress | None = None,
        memory: int = DEFAULT_MEMORY, distances: bool = True,
        seen: np.ndarray | None = None, checkpoint: Path | None = None,
        every: float = CHECKPOINT_SECONDS) -> SearchResult:
    """The search of every placement of a board's pieces (see :func:`search`): the board
    needs a goal.  Without ``distances`` the clusters are only counted (no solved states, no
    lengths).  ``seen``: the bitset of found codes to fill
    (:func:`code_bitset`; codes already in it are skipped), by default a new one.

    With a ``checkpoint`` path the search saves where it stands there every ``every``
    seconds and when interrupted (Ctrl-C, SIGTERM), resumes from it when it holds this same search
    (:class:`PuzzleError` when it holds another), and removes it when done."""
    import time

    from huarong._kernels import exhaustive as kernels

    if board.goal is None:
        raise PuzzleError(board.empty_grid, "a search needs a goal")
    tables = board.tables
    size = board.code_space
    if seen is None:
        seen = code_bitset(board, memory)
    walk = range(size)
    masks, moves, classes, binom, lookup, info = tables.kernel_args()
    if not distances:
        info = info.copy()
        info[kernels.HAS_GOAL] = 0
    queue = np.empty(_QUEUE, dtype=np.int64)
    order = np.empty(_QUEUE, dtype=np.int64)
    cursor = np.zeros(kernels.CURSOR, dtype=np.int64)
    records = np.empty((_RECORDS, 4), dtype=np.int64)
    parts: list[np.ndarray] = []
    position = walk.start if walk.start < walk.stop else kernels.DONE
    key = repr((board.rows, board.columns, sorted(board.walls), board.classes, board.goal,
                board.rules, board.metric, walk, distances))
    if checkpoint is not None and checkpoint.is_file():
        position, found_so_far = _resume(checkpoint, key, seen)
        parts.append(found_so_far)
    saved = time.monotonic()
    try:
        while position != kernels.DONE:
            position, written, _, why = (int(x) for x in kernels.sweep(
                position, walk.stop, _BUDGET, cursor, seen, queue, order, records,
                masks, moves, classes, binom, lookup, info, tables.most))
            parts.append(records[:written].copy())
            if why == kernels.QUEUE:
                queue, order = _grown(queue), _grown(order)
            if progress is not None:
                done = walk.stop if position == kernels.DONE else position
                progress("search", done - walk.start, len(walk))
                if cursor[kernels.ACTIVE]:
                    phase = int(cursor[kernels.PHASE])
                    progress("cluster" if phase == 1 else "distances",
                             int(cursor[kernels.HEAD]),
                             int(cursor[kernels.TAIL if phase == 1 else kernels.END]))
            if (checkpoint is not None and time.monotonic() - saved > every
                    and not cursor[kernels.ACTIVE]):
                _save(checkpoint, key, position, seen, parts)
                saved = time.monotonic()
    except BaseException as stop:
        # Ctrl-C and SIGTERM (BaseExceptions, not errors) keep the work done so far, less
        # the cluster in progress (found again from its first state).
        if checkpoint is not None and not isinstance(stop, Exception):
            kernels.forget(cursor, seen, queue)
            _save(checkpoint, key, position, seen, parts)
        raise
    if checkpoint is not None:
        checkpoint.unlink(missing_ok=True)
    found = np.concatenate(parts) if parts else np.zeros((0, 4), dtype=np.int64)
    return SearchResult(board, found[:, 0].copy(), found[:, 1].copy(),
                        found[:, 2].astype(np.int32), found[:, 3].copy())
