"""The rows of the Rush Hour preset (:mod:`huarong.puzzles.presets.rush_hour`) and their
files: Fogleman's ``rush.txt`` (one row a line: moves, the 36-character board, cluster size,
separated by one space), written, read in chunks and compared by board (``--compare``), and
the result file ``huarong serve --search`` browses."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from huarong._kernels.rush_hour_board import CELLS, PRIMARY_ROW, RED_CAR, SIDE
from huarong.puzzles.board import board_spec
from huarong.puzzles.grid import EMPTY, PieceClass, PuzzleError, join_rows, rectangle
from huarong.puzzles.jobs import Columns
from huarong.puzzles.results import results_table, totals_of, write_results

if TYPE_CHECKING:
    import pyarrow as pa

PUZZLE: dict[str, Any] = board_spec(
    SIDE, SIDE, frozenset(), [PieceClass(shape, ()) for shape in (
        rectangle(1, 2), rectangle(1, 3), rectangle(2, 1), rectangle(3, 1))],
    join_rows([RED_CAR if r == PRIMARY_ROW and c >= SIDE - 2 else EMPTY
               for r in range(SIDE) for c in range(SIDE)], SIDE),
    "length", "slide")
"""The puzzle a row's start (grid text) plays, as a search result file gives it: a 6x6
board, cars and trucks (the letters of each row its own), the red car ``A`` at the right
edge of its row, each vehicle moved along its length any distance."""

@dataclass(frozen=True, eq=False)
class RushRows:
    """The database: one row per interesting cluster, hardest first (then by board):
    ``moves``, ``boards`` (36-character strings as bytes, ``S36``), ``states`` and
    ``solved`` (the cluster's solved states, not in Fogleman's file)."""

    moves: np.ndarray
    boards: np.ndarray
    states: np.ndarray
    solved: np.ndarray

    def __len__(self) -> int:
        return int(self.moves.shape[0])

    @property
    def total_states(self) -> int:
        """The states of every row's cluster (Fogleman: 9,698,093,879)."""
        return int(self.states.sum())

    def hardest(self) -> tuple[int, str, int] | None:
        """The first row (moves, board, cluster size); None when there is none."""
        if not len(self):
            return None
        return int(self.moves[0]), self.boards[0].decode(), int(self.states[0])

    def lines(self) -> Iterator[str]:
        """The rows as lines of Fogleman's ``rush.txt`` (moves as two digits, as his
        program prints them)."""
        for moves, board, states in zip(self.moves, self.boards, self.states, strict=True):
            yield f"{int(moves):02d} {board.decode()} {int(states)}\n"

    def grids(self) -> list[str]:
        """The boards as grid text (rows joined by ``/``, ``.`` empty, ``#`` walls)."""
        cells = self.boards.view(np.uint8).reshape(-1, CELLS)
        cells = np.where(cells == ord("x"), ord("#"), np.where(cells == ord("o"), ord("."),
                                                               cells)).astype(np.uint8)
        text = np.full((cells.shape[0], SIDE, SIDE + 1), ord("/"), dtype=np.uint8)
        text[:, :, :SIDE] = cells.reshape(-1, SIDE, SIDE)
        joined = text.reshape(cells.shape[0], -1)[:, :-1].copy()
        return joined.view(f"S{joined.shape[1]}").ravel().astype(str).tolist()

    def table(self) -> pa.Table:
        """Fogleman's three columns (moves, board, cluster_size) and those of every result
        file (:data:`~huarong.puzzles.results.COLUMNS`: states, solved, length, start as
        grid text), with the puzzle that plays the starts (:data:`PUZZLE`) and the totals in
        the metadata, as ``huarong serve --search`` browses them."""
        starts = self.grids()
        hardest = self.hardest()
        totals = totals_of(len(self), self.total_states,
                           None if hardest is None else (hardest[0], starts[0]))
        return results_table({
            "moves": self.moves.astype(np.int32), "board": self.boards.astype(str).tolist(),
            "cluster_size": self.states, "states": self.states, "solved": self.solved,
            "length": self.moves.astype(np.int32), "start": starts}, PUZZLE, totals)

    def write(self, path: str | Path) -> None:
        """To ``path``: ``.txt`` Fogleman's format, ``.parquet`` or ``.duckdb`` (table
        ``clusters``) :meth:`table`; atomically."""
        target = Path(path)
        if target.suffix == ".txt":
            from huarong.fileio import atomic_writer

            with atomic_writer(target, "w") as stream:
                stream.writelines(self.lines())
            return
        if target.suffix not in (".parquet", ".duckdb"):
            raise PuzzleError(str(path), "write the rows to a .txt, .parquet or .duckdb file")
        write_results(self.table(), target)


def collect(parts: Iterable[Columns]) -> RushRows:
    found = list(parts)
    if not found:
        empty = np.zeros(0, dtype=np.int64)
        return RushRows(empty.astype(np.int16), np.zeros(0, dtype="S36"), empty, empty)
    moves = np.concatenate([p["moves"] for p in found])
    boards = np.concatenate([p["board"] for p in found]).view("S36").ravel()
    states = np.concatenate([p["states"] for p in found])
    solved = np.concatenate([p["solved"] for p in found])
    order = np.lexsort((boards, -moves.astype(np.int64)))
    return RushRows(moves[order], boards[order], states[order], solved[order])




@dataclass(frozen=True)
class Comparison:
    """Rows of a ``rush.txt`` against ours, matched by board: ``missing`` (his, not ours),
    ``extra`` (ours, not his), ``different`` (same board, other moves or size; his row
    then ours), the counts and the first few of each."""

    theirs: int
    ours: int
    missing: int
    extra: int
    different: int
    examples: dict[str, list[str]]

    @property
    def same(self) -> bool:
        """No row missing, extra or different."""
        return not (self.missing or self.extra or self.different)


def read_rows(path: str | Path, chunk: int = 1 << 16) -> Iterator[tuple[np.ndarray, ...]]:
    """A ``rush.txt`` in chunks of (moves int64, boards S36, states int64);
    :class:`PuzzleError` naming the file and line for a line that is not a row."""
    target = Path(path)
    try:
        stream = target.open("rb")
    except OSError as error:
        raise PuzzleError(str(path), f"cannot read it: {error.strerror}") from None
    with stream:
        moves: list[int] = []
        boards: list[bytes] = []
        states: list[int] = []
        for number, raw in enumerate(stream, start=1):
            fields = raw.split()
            if not fields:
                continue
            try:
                if len(fields) != 3 or len(fields[1]) != CELLS:
                    raise ValueError
                row = int(fields[0]), fields[1], int(fields[2])
            except ValueError:
                shown = raw.decode("utf-8", "backslashreplace").rstrip("\r\n")
                raise PuzzleError(f"{path}:{number}", "not a rush.txt row (moves, a "
                                  f"36-character board, cluster size): {shown[:80]!r}") from None
            moves.append(row[0])
            boards.append(row[1])
            states.append(row[2])
            if len(moves) == chunk:
                yield (np.array(moves, dtype=np.int64), np.array(boards, dtype="S36"),
                       np.array(states, dtype=np.int64))
                moves, boards, states = [], [], []
        if moves:
            yield (np.array(moves, dtype=np.int64), np.array(boards, dtype="S36"),
                   np.array(states, dtype=np.int64))


def compare(rows: RushRows, path: str | Path, examples: int = 5) -> Comparison:
    """``rows`` against the ``rush.txt`` at ``path`` (read in chunks), by board."""
    order = np.argsort(rows.boards)
    boards = rows.boards[order]
    seen = np.zeros(len(rows), dtype=bool)
    shown: dict[str, list[str]] = {"missing": [], "extra": [], "different": []}
    theirs = missing = different = 0

    def line(moves: int, board: bytes, states: int) -> str:
        return f"{moves:02d} {board.decode()} {states}"

    for their_moves, their_boards, their_states in read_rows(path):
        theirs += their_moves.shape[0]
        at = np.searchsorted(boards, their_boards)
        found = (at < len(boards)) & (boards[np.minimum(at, len(boards) - 1)]
                                      == their_boards) if len(boards) else np.zeros(
            their_moves.shape[0], dtype=bool)
        for k in np.flatnonzero(~found)[:max(0, examples - len(shown["missing"]))]:
            shown["missing"].append(line(int(their_moves[k]), their_boards[k],
                                         int(their_states[k])))
        missing += int((~found).sum())
        ours = order[at[found]]
        seen[ours] = True
        unequal = ((rows.moves[ours] != their_moves[found])
                   | (rows.states[ours] != their_states[found]))
        for k in np.flatnonzero(unequal)[:max(0, examples - len(shown["different"]))]:
            mine = int(ours[k])
            index = np.flatnonzero(found)[k]
            shown["different"].append(
                line(int(their_moves[index]), their_boards[index], int(their_states[index]))
                + " | ours: " + line(int(rows.moves[mine]), rows.boards[mine],
                                     int(rows.states[mine])))
        different += int(unequal.sum())
    extra_rows = np.flatnonzero(~seen)
    shown["extra"] = [line(int(rows.moves[k]), rows.boards[k], int(rows.states[k]))
                      for k in extra_rows[:examples]]
    return Comparison(theirs, len(rows), missing, int(extra_rows.shape[0]), different, shown)
