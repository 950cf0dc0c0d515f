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

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from huarong.puzzles.model import (
    EMPTY,
    MAX_CELLS,
    WALL,
    Board,
    Grid,
    Metric,
    PieceClass,
    Puzzle,
    PuzzleError,
    Rules,
    Shape,
    Tables,
    check_metric,
    check_rules,
    tables_of,
)

if TYPE_CHECKING:
    import pyarrow as pa

Progress = Callable[[str, int, int], None]
"""``progress(phase, done, total)``: codes walked out of the code space."""

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
"""The letters of the pieces in grid text, class by class."""

DEFAULT_MEMORY = 8 << 30
"""Bytes the search may take for its bitset of the code space (8 GiB)."""

COLUMNS = ("states", "solved", "length", "start")
"""The columns of a search's table, one row per cluster."""

METADATA_KEY = "huarong.search"
"""The key of a result file's metadata: JSON of ``{"puzzle": SearchSpace.spec(), "totals":
SearchResult.totals()}``, what it takes to play its starts (Parquet key-value metadata; in
DuckDB a row of the table ``metadata(key, value)``)."""

ROW_GROUP = 1 << 16
"""Rows per row group of a Parquet result file: a page of rows reads one group, not a
million rows (pyarrow's default)."""

CHECKPOINT_SECONDS = 60.0
"""How often a search with a checkpoint saves it."""

_BUDGET = 1 << 18
"""States expanded between two progress reports (and chances for Ctrl-C), a cluster's
search going on across calls."""
_RECORDS = 1 << 16
_QUEUE = 1 << 16
_PIECE = re.compile(r"\s*(\d+)\s*x\s*(\d+)\s*(?:\*\s*(\d+))?\s*")
_GOAL = re.compile(r"\s*(\d+)\s*x\s*(\d+)\s*@\s*(\d+)\s*,\s*(\d+)\s*")
_SIZE = re.compile(r"\s*(\d+)\s*x\s*(\d+)\s*")


# ----- the specification ----------------------------------------------------------------
def rectangle(rows: int, columns: int) -> Shape:
    """The shape of a ``rows`` x ``columns`` rectangle."""
    return tuple((r, c) for r in range(rows) for c in range(columns))


def parse_board(text: str) -> tuple[int, int, frozenset[int]]:
    """``RxC`` (an empty board) or grid text (``.`` cells, ``#`` walls): (rows, columns,
    walls)."""
    size = _SIZE.fullmatch(text)
    if size:
        rows, columns = int(size[1]), int(size[2])
        if rows < 1 or columns < 1:
            raise PuzzleError(text, "a board has at least one row and one column")
        if rows * columns > MAX_CELLS:
            raise PuzzleError(text, f"a board of {rows * columns} cells; boards have at most "
                                    f"{MAX_CELLS}")
        return rows, columns, frozenset()
    grid = Grid.read(text)
    if set(grid.cells) - {EMPTY, WALL}:
        raise PuzzleError(text, "a search board holds only '.' (a cell) and '#' (a wall)")
    return grid.rows, grid.columns, grid.walls


def parse_pieces(text: str) -> list[tuple[Shape, int]]:
    """``2x2,1x2,2x1*2,1x1*4`` (rows x columns, ``*N`` for N alike): each shape and how many,
    in the order given."""
    pieces: dict[Shape, int] = {}
    for part in text.split(","):
        found = _PIECE.fullmatch(part)
        if not found or min(int(found[1]), int(found[2])) < 1 or found[3] == "0":
            raise PuzzleError(text, f"{part.strip()!r} is not a piece: RxC (rows x columns) "
                                    "or RxC*N for N alike, as 2x2,1x2,2x1*2,1x1*4")
        shape = rectangle(int(found[1]), int(found[2]))
        pieces[shape] = pieces.get(shape, 0) + int(found[3] or 1)
    return list(pieces.items())


def parse_goal(text: str) -> tuple[Shape, int, int]:
    """``2x2@3,1``: a piece of that shape with its top-left cell at row 3, column 1 (from 0):
    (shape, row, column)."""
    found = _GOAL.fullmatch(text)
    if not found or min(int(found[1]), int(found[2])) < 1:
        raise PuzzleError(text, "not a goal: RxC@ROW,COLUMN, a piece of that shape with its "
                                "top-left cell there (from 0), as 2x2@3,1")
    return rectangle(int(found[1]), int(found[2])), int(found[3]), int(found[4])


def _shape_name(shape: Shape) -> str:
    rows = 1 + max(r for r, _ in shape)
    columns = 1 + max(c for _, c in shape)
    return f"{rows}x{columns}" if len(shape) == rows * columns else str(list(shape))


@dataclass(frozen=True)
class SearchSpace:
    """What a search walks: the board (``rows`` x ``columns``, ``walls``), the piece
    ``classes`` (lettered in order), the ``goal`` (grid text naming the cells a piece of the
    goal's class must cover), the ``rules`` and the ``metric``."""

    rows: int
    columns: int
    walls: frozenset[int]
    classes: tuple[PieceClass, ...]
    goal: str
    rules: Rules
    metric: Metric
    tables: Tables = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", tables_of(Board(
            self.rows, self.columns, self.walls, self.classes, self.goal, self.rules,
            self.metric)))

    @property
    def codes(self) -> int:
        """The size of the code space (every placement of each class, overlapping or not)."""
        return int(self.tables.space)

    def spec(self) -> dict[str, Any]:
        """The space as JSON: ``rows``, ``columns``, the empty ``board`` (grid text, ``#``
        walls), the ``pieces`` (each class's ``shape`` as (row, column) cells, its
        ``letters`` in grid text and whether it is ``distinct``), the ``goal``, ``rules`` and
        ``metric``: what :func:`huarong.puzzles.load_puzzle` takes besides a start's grid
        text (``distinct``: the letters of the distinct classes) to play that start."""
        board = "/".join("".join(WALL if r * self.columns + c in self.walls else EMPTY
                                 for c in range(self.columns)) for r in range(self.rows))
        return {"rows": self.rows, "columns": self.columns, "board": board,
                "pieces": [{"shape": [list(cell) for cell in k.shape],
                            "letters": "".join(k.letters), "distinct": k.distinct}
                           for k in self.classes],
                "goal": self.goal, "rules": self.rules, "metric": self.metric}

    def grids(self, codes: np.ndarray) -> list[str]:
        """Grid text of each state code (``/``-joined rows; pieces lettered by
        :data:`LETTERS` class by class, a class's pieces in placement order)."""
        from huarong._kernels import cluster as kernels

        tables = self.tables
        cells = kernels.boards(np.ascontiguousarray(codes, dtype=np.int64),
                               tables.masks, tables.classes, tables.binom, tables.lookup,
                               tables.info, self.rows * self.columns)
        glyphs = np.frombuffer((EMPTY + LETTERS).encode().ljust(255, b"?") + WALL.encode(),
                               dtype=np.uint8)
        text = glyphs[cells].reshape(-1, self.rows, self.columns)
        slash = np.full((text.shape[0], self.rows, 1), ord("/"), dtype=np.uint8)
        joined = np.concatenate([text, slash], axis=2).reshape(text.shape[0], -1)[:, :-1]
        width = joined.shape[1]
        return [row.decode() for row in np.ascontiguousarray(joined).view(f"S{width}").ravel()]


def search_space(board: str, pieces: str | Sequence[tuple[Shape, int]], goal: str, *,
                 metric: str = "step", rules: str = "free",
                 distinct_goal: bool = False) -> SearchSpace:
    """The space of ``pieces`` (a spec, see :func:`parse_pieces`, or (shape, count) pairs)
    on ``board`` (see :func:`parse_board`) with the ``goal`` (see :func:`parse_goal`).
    With ``distinct_goal`` the goal is one piece of its shape, told apart from the others of
    that shape (a class of its own)."""
    rows, columns, walls = parse_board(board)
    wanted = parse_pieces(pieces) if isinstance(pieces, str) else list(pieces)
    shown = pieces if isinstance(pieces, str) else ",".join(
        f"{_shape_name(shape)}*{count}" for shape, count in wanted)
    shape, goal_row, goal_column = parse_goal(goal)
    free = rows * columns - len(walls)
    used = sum(len(s) * count for s, count in wanted)
    if used > free:
        raise PuzzleError(shown, f"the pieces cover {used} cells, the board has {free} free")
    counts = dict(wanted)
    if shape not in counts:
        raise PuzzleError(goal, f"the goal's shape {_shape_name(shape)} is none of the "
                                f"pieces' ({shown})")
    groups: list[tuple[Shape, int, bool]] = []
    if distinct_goal:
        groups.append((shape, 1, True))
        counts[shape] -= 1
    groups.extend((s, n, False) for s, n in sorted(
        counts.items(), key=lambda item: (-len(item[0]), item[0])) if n)
    if sum(n for _, n, _ in groups) > len(LETTERS):
        raise PuzzleError(shown, f"more than {len(LETTERS)} pieces")
    classes = []
    used_letters = 0
    for s, n, distinct in groups:
        classes.append(PieceClass(s, tuple(LETTERS[used_letters:used_letters + n]), distinct))
        used_letters += n
    goal_class = next(k for k in classes if k.shape == shape)
    cells = [WALL if cell in walls else EMPTY for cell in range(rows * columns)]
    for r, c in shape:
        row, column = goal_row + r, goal_column + c
        if not (row < rows and column < columns) or row * columns + column in walls:
            raise PuzzleError(goal, f"the goal's piece leaves the {rows}x{columns} board or "
                                    "covers a wall")
        cells[row * columns + column] = goal_class.letters[0]
    goal_text = "/".join("".join(cells[r * columns:(r + 1) * columns]) for r in range(rows))
    return SearchSpace(rows, columns, walls, tuple(classes), goal_text,
                       check_rules(rules), check_metric(metric))


def puzzle_space(puzzle: Puzzle) -> SearchSpace:
    """The space of every placement of a puzzle's pieces (any shapes, as its TOML file gives
    them) on its board, with its goal, rules and metric."""
    if puzzle.goal is None:
        raise PuzzleError(puzzle.board, "the puzzle has no goal: give one")
    return SearchSpace(puzzle.rows, puzzle.columns, puzzle.walls, puzzle.classes, puzzle.goal,
                       puzzle.rules, puzzle.metric)


# ----- the search -----------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class SearchResult:
    """One row per cluster: its ``states``, how many are ``solved``, the ``length`` of its
    hardest start (the largest distance from the nearest solved state; -1 when none is
    solved) and the code of that ``start`` (the smallest code of those; without a solved
    state, the cluster's smallest code).  Clusters in the order the walk found them."""

    space: SearchSpace
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
        hardest = None if row is None else {
            "length": int(self.length[row]),
            "start": self.space.grids(self.start[row:row + 1])[0]}
        return {"clusters": len(self), "states": self.total_states, "hardest": hardest}

    def table(self) -> pa.Table:
        """The clusters as an Arrow table (:data:`COLUMNS`; ``length`` null when the cluster
        holds no solved state), hardest first, then larger first; the space and the totals
        in its schema's metadata (:data:`METADATA_KEY`)."""
        import pyarrow as pa

        order = np.lexsort((np.arange(len(self)), -self.states, -self.length))
        length = self.length[order]
        about = {"puzzle": self.space.spec(), "totals": self.totals()}
        return pa.table({
            "states": pa.array(self.states[order]),
            "solved": pa.array(self.solved[order]),
            "length": pa.array(length, mask=length < 0),
            "start": pa.array(self.space.grids(self.start[order]), type=pa.string())},
            metadata={METADATA_KEY: json.dumps(about, ensure_ascii=False)})

    def write(self, path: str | Path) -> None:
        """Write the table to ``path``: Parquet (``.parquet``) or DuckDB (``.duckdb``, table
        ``clusters``), replacing the file only once it is whole."""
        write_table(self.table(), path)


def write_table(table: pa.Table, path: str | Path, name: str = "clusters") -> None:
    """``table`` to a ``.parquet`` file or to the table ``name`` of a new ``.duckdb`` file,
    atomically; :class:`PuzzleError` for another suffix.  The schema's metadata goes into
    the Parquet file's key-value metadata, or the DuckDB table ``metadata(key, value)``."""
    from huarong.fileio import atomic_writer, real_target, temporary_beside

    target = Path(path)
    if target.suffix == ".parquet":
        import pyarrow.parquet as pq

        with atomic_writer(target, "wb") as stream:
            pq.write_table(table, stream, row_group_size=ROW_GROUP)
        return
    if target.suffix != ".duckdb":
        raise PuzzleError(str(path), "write the clusters to a .parquet or .duckdb file")
    import duckdb

    real = real_target(target) or target
    with temporary_beside(real) as temporary:
        connection = duckdb.connect(str(temporary))
        try:
            connection.register("found", table)
            connection.execute(f"CREATE TABLE {name} AS SELECT * FROM found")
            if table.schema.metadata:
                connection.execute("CREATE TABLE metadata (key VARCHAR, value VARCHAR)")
                connection.executemany("INSERT INTO metadata VALUES (?, ?)", [
                    [key.decode(), value.decode()]
                    for key, value in table.schema.metadata.items()])
        finally:
            connection.close()
        temporary.replace(real)


def code_bitset(space: SearchSpace, memory: int = DEFAULT_MEMORY) -> np.ndarray:
    """A zeroed bitset of the space's codes; :class:`PuzzleError` when it needs more than
    ``memory`` bytes."""
    from huarong._kernels import exhaustive as kernels

    size = space.codes
    if size // 8 > memory:
        raise PuzzleError(f"{space.rows}x{space.columns} board",
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


def search(board: str, pieces: str | Sequence[tuple[Shape, int]], goal: str,
           metric: str = "step", rules: str = "free", *, progress: Progress | None = None,
           memory: int = DEFAULT_MEMORY) -> SearchResult:
    """Every placement of ``pieces`` on ``board``, split into clusters, with each cluster's
    states, solved states and hardest start (see :func:`search_space` for the arguments and
    :class:`SearchResult` for the answer).  :class:`PuzzleError` for a bad specification or
    a code space whose bitset needs more than ``memory`` bytes."""
    return run(search_space(board, pieces, goal, metric=metric, rules=rules),
               progress=progress, memory=memory)


def run(space: SearchSpace, *, progress: Progress | None = None,
        memory: int = DEFAULT_MEMORY, distances: bool = True,
        seen: np.ndarray | None = None, checkpoint: Path | None = None,
        every: float = CHECKPOINT_SECONDS) -> SearchResult:
    """The search of a :class:`SearchSpace` (see :func:`search`).  Without ``distances``
    the clusters are only
    counted (no solved states, no lengths).  ``seen``: the bitset of found codes to fill
    (:func:`code_bitset`; codes already in it are skipped), by default a new one.

    With a ``checkpoint`` path the search saves where it stands there every ``every``
    seconds and when interrupted (Ctrl-C, SIGTERM), resumes from it when it holds this same search
    (:class:`PuzzleError` when it holds another), and removes it when done."""
    import time

    from huarong._kernels import exhaustive as kernels

    tables = space.tables
    size = space.codes
    if seen is None:
        seen = code_bitset(space, memory)
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
    key = repr((space.rows, space.columns, sorted(space.walls), space.classes, space.goal,
                space.rules, space.metric, walk, distances))
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
    return SearchResult(space, found[:, 0].copy(), found[:, 1].copy(),
                        found[:, 2].astype(np.int32), found[:, 3].copy())
