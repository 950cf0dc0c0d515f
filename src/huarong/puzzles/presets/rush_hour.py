"""M. Fogleman's Rush Hour database, regenerated: every "interesting" 6x6 start.

Definitions (M. Fogleman, "Solving Rush Hour, the Puzzle", July 2018,
https://www.michaelfogleman.com/rush/, and the C++ program that made the database,
https://github.com/fogleman/rush, ``cpp/src``):

- the board is 6x6; vehicles are 1x2 and 1x3, horizontal (moving along their row) or
  vertical (along their column); walls are fixed 1x1 cells, only in rows, at most two on
  the board (the database holds boards with two);
- a row's vehicles and walls cover at most 5 of its cells, a column's vehicles at most 5;
- the red car (``A``) is a horizontal 1x2 on row 2 (the third from the top), the only vehicle
  of its row; walls of that row stand left of it; a state is solved when the red car is at
  the right edge (columns 4-5);
- a move slides one vehicle any distance (``cpp/src/board.cpp`` ``Moves``);
- a cluster is the set of states reachable from each other; a row of the database is a
  cluster holding a solved state (*solvable*), written as its *unsolved* state: the state
  farthest from the nearest solved state, the one with the smallest pair (horizontal cells,
  vertical cells) as 36-bit numbers (cell ``row * 6 + column``) when several are
  (``cpp/src/cluster.cpp``), and only when *minimal*: without any one other vehicle or wall
  the start is solved in fewer moves ("each piece is important");
- a board is 36 characters, row by row: ``o`` empty, ``x`` a wall, ``A`` the red car, the
  other vehicles lettered in the order the program numbers its pieces, walls included
  (a wall takes its letter though it shows ``x``): the red car, the walls of its row, then
  rows 0, 1, 3, 4, 5 left to right, then columns 0 to 5 top to bottom;
- a line of ``rush.txt``: moves, board, cluster size, separated by one space.

Fogleman's program calls a piece unimportant only when it did not move in the one solution
its solver found and his solver counts as many moves for the start without it; the preset
does the same with a replica of his solver (``FOGLEMAN``), or tests every piece by
breadth-first search (``MINIMAL``, the article's words: "each piece is important").

The search goes arrangement by arrangement (:mod:`huarong._kernels.rush_hour`): a unit is
one choice of what each row holds, run against every choice of the columns.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from huarong.puzzles.jobs import Columns, UnitProgress, run_job
from huarong.puzzles.model import PuzzleError

if TYPE_CHECKING:
    import pyarrow as pa

SIDE = 6
PRIMARY_ROW = 2
MAX_WALLS = 2
"""Walls on a board of the database (Fogleman's ``MaxWalls``); fewer give a part of it."""
ROW_CELLS = SIDE - 1
"""The most cells a row's vehicles and walls (or a column's vehicles) may cover."""

FOGLEMAN_ROWS = 2_577_412
FOGLEMAN_STATES = 9_698_093_879
FOGLEMAN_HARDEST = (60, "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM", 2332)
"""His published figures: rows, states in them, and the hardest row (moves, board, size)."""
NO_WALLS_HARDEST = (51, 4780)
"""The hardest start without walls, as Fogleman's code gives it (a comment in
``cpp/src/main.cpp``; his README's picture ``puzzle51.png``): 51 moves, a cluster of 4,780
states."""

PUZZLE: dict[str, Any] = {
    "rows": SIDE, "columns": SIDE, "board": "/".join(["." * SIDE] * SIDE),
    "pieces": [{"shape": [[0, k] for k in range(size)], "letters": "", "distinct": False}
               for size in (2, 3)] + [
        {"shape": [[k, 0] for k in range(size)], "letters": "", "distinct": False}
        for size in (2, 3)],
    "goal": "/".join("." * (SIDE - 2) + "AA" if r == PRIMARY_ROW else "." * SIDE
                     for r in range(SIDE)),
    "rules": "length", "metric": "slide"}
"""The puzzle a row's start (grid text) plays, as a search result file gives it: a 6x6
board, cars and trucks (the letters of each row its own), the red car ``A`` at the right
edge of its row, each vehicle moved along its length any distance."""

Token = int
"""What a row holds, in order: a vehicle's length (2 or 3), or ``WALL + column``."""
WALL = 10


Row = tuple[Token, ...]


@dataclass(frozen=True)
class RushUnit:
    """One unit of the search: what each row holds (``rows[r]``: tokens, left to right; None:
    every content the walls left allow), what each column may hold (``columns[c]``:
    indices in :data:`huarong._kernels.rush_hour.COLUMN_OPTIONS`; None: any) and the most
    walls on a board."""

    rows: tuple[Row | None, ...]
    columns: tuple[tuple[int, ...], ...] | None = None
    max_walls: int = MAX_WALLS

    def arrangements(self) -> Iterator[tuple[Row, ...]]:
        """Every choice of the rows' contents in the unit, at most ``max_walls`` walls."""
        contents = [[row] if row is not None else _row_contents(r == PRIMARY_ROW)
                    for r, row in enumerate(self.rows)]

        def walk(rows: tuple[Row, ...], budget: int) -> Iterator[tuple[Row, ...]]:
            if len(rows) == SIDE:
                yield rows
                return
            for row in contents[len(rows)]:
                walls = _walls(row)
                if walls <= budget:
                    yield from walk((*rows, row), budget - walls)

        yield from walk((), self.max_walls)


def _walls(row: Row) -> int:
    return sum(t >= WALL for t in row)


@cache
def _row_contents(primary: bool) -> list[tuple[Token, ...]]:
    """Every content of a row: the primary row holds the red car and walls left of it."""
    found: set[tuple[Token, ...]] = set()

    def walk(x: int, tokens: tuple[Token, ...], cells: int) -> None:
        if cells > ROW_CELLS or sum(t >= WALL for t in tokens) > MAX_WALLS:
            return
        if x >= SIDE:
            found.add(tokens)
            return
        walk(x + 1, tokens, cells)
        walk(x + 1, (*tokens, WALL + x), cells + 1)
        for length in (2, 3):
            if x + length <= SIDE:
                walk(x + length, (*tokens, length), cells + length)

    walk(0, (), 0)
    if primary:
        return sorted(t for t in found if t and t[-1] == 2 and all(x >= WALL for x in t[:-1]))
    return sorted(found)


UNIT_ROW_CHOICES = 1000
"""A unit holding more choices of the rows' contents is split by the next free row."""


@cache
def _completions(rows: tuple[int, ...], budget: int) -> int:
    """How many ways the rows ``rows`` (indices) can be filled with at most ``budget``
    walls."""
    if not rows:
        return 1
    return sum(_completions(rows[1:], budget - _walls(row))
               for row in _row_contents(rows[0] == PRIMARY_ROW) if _walls(row) <= budget)


def _choices(unit: RushUnit) -> int:
    fixed = [row for row in unit.rows if row is not None]
    left = unit.max_walls - sum(_walls(row) for row in fixed)
    return _completions(tuple(r for r, row in enumerate(unit.rows) if row is None), left)


def units(max_walls: int = MAX_WALLS) -> list[RushUnit]:
    """Every unit of the whole search with at most ``max_walls`` walls on a board: a
    content for each of rows 0, 1 and 2, then, while a unit holds more than
    :data:`UNIT_ROW_CHOICES` choices of the other rows, one for row 3, then row 4; the
    columns any."""
    if not 0 <= max_walls <= MAX_WALLS:
        raise PuzzleError(str(max_walls), f"a Rush Hour board has 0 to {MAX_WALLS} walls")
    def split(unit: RushUnit) -> Iterator[RushUnit]:
        free = [r for r, row in enumerate(unit.rows) if row is None]
        if _choices(unit) <= UNIT_ROW_CHOICES or len(free) == 1:
            yield unit
            return
        r = free[0]
        for row in _row_contents(r == PRIMARY_ROW):
            part = RushUnit((*unit.rows[:r], row, *unit.rows[r + 1:]), max_walls=max_walls)
            if _choices(part):
                yield from split(part)

    return [part for top in itertools.product(_row_contents(False), _row_contents(False),
                                              _row_contents(True))
            if sum(_walls(row) for row in top) <= max_walls
            for part in split(RushUnit((*top, None, None, None), max_walls=max_walls))]


def unit_of(board: str) -> RushUnit:
    """The unit of a board in Fogleman's notation, with its one column arrangement."""
    from huarong._kernels.rush_hour import COLUMN_OPTIONS

    if len(board) != SIDE * SIDE:
        raise PuzzleError(board, f"a Rush Hour board has {SIDE * SIDE} cells")
    rows: list[tuple[Token, ...]] = []
    for r in range(SIDE):
        tokens: list[Token] = []
        x = 0
        while x < SIDE:
            cell = board[r * SIDE + x]
            if cell == "x":
                tokens.append(WALL + x)
            elif cell not in "o." and (x + 1 < SIDE and board[r * SIDE + x + 1] == cell):
                run = 1
                while x + run < SIDE and board[r * SIDE + x + run] == cell:
                    run += 1
                tokens.append(run)
                x += run
                continue
            x += 1
        rows.append(tuple(tokens))
    columns = []
    for c in range(SIDE):
        lengths: list[int] = []
        y = 0
        while y < SIDE:
            cell = board[y * SIDE + c]
            if cell not in "ox." and y + 1 < SIDE and board[(y + 1) * SIDE + c] == cell:
                run = 1
                while y + run < SIDE and board[(y + run) * SIDE + c] == cell:
                    run += 1
                lengths.append(run)
                y += run
                continue
            y += 1
        if tuple(lengths) not in COLUMN_OPTIONS:
            raise PuzzleError(board, f"column {c} holds {lengths}: not a Rush Hour column")
        columns.append((COLUMN_OPTIONS.index(tuple(lengths)),))
    return RushUnit(tuple(rows), tuple(columns))


def _row_pieces(rows: tuple[Row, ...]) -> tuple[np.ndarray, np.ndarray, int]:
    """The kernel's view of the rows: (row, length, lowest, highest, letter) per movable
    piece, the red car first; the walls' cells; the first column piece's letter.  Letters
    follow Fogleman's piece numbering, walls numbered too."""
    from huarong._kernels.rush_hour import TARGET

    pieces = []
    index = 0
    red_row = rows[PRIMARY_ROW]
    pieces.append((PRIMARY_ROW, 2, TARGET, TARGET, ord("A")))
    index = 1 + sum(t >= WALL for t in red_row)
    for r in (0, 1, 3, 4, 5):
        row = rows[r]
        for k, token in enumerate(row):
            if token < WALL:
                left = max([t - WALL + 1 for t in row[:k] if t >= WALL], default=0)
                right = min([t - WALL for t in row[k + 1:] if t >= WALL], default=SIDE)
                pieces.append((r, token, left, right - token, ord("A") + index))
            index += 1
    return (np.array(pieces, dtype=np.int64).reshape(-1, 5),
            np.array([r * SIDE + t - WALL for r, row in enumerate(rows) for t in row
                      if t >= WALL], dtype=np.int64), ord("A") + index)


def search_unit(unit: RushUnit, mode: int | None = None,
                tallies: np.ndarray | None = None) -> Columns:
    """The rows of one unit: ``moves`` (int16), ``board`` (36 bytes of ASCII per row),
    ``states`` and ``solved`` (int64: the cluster's states, its solved states).  ``mode``:
    how far to go (the kernel's ``ENUMERATE`` .. ``MINIMAL``, or ``FOGLEMAN``, the default:
    his minimality test); ``tallies``: four int64 counts to add to (seeds, clusters, their
    states, rows)."""
    from huarong._kernels import rush_hour as kernels

    allowed = np.ones((SIDE, len(kernels.COLUMN_OPTIONS)), dtype=np.bool_)
    if unit.columns is not None:
        allowed[:] = False
        for c, column in enumerate(unit.columns):
            allowed[c, list(column)] = True
    counts = np.zeros(4, dtype=np.int64) if tallies is None else tallies
    parts: list[tuple[np.ndarray, ...]] = []
    for rows in unit.arrangements():
        pieces, walls, column_letter = _row_pieces(rows)
        *columns, written = kernels.sweep(
            pieces, walls, column_letter, allowed,
            kernels.FOGLEMAN if mode is None else mode, _masks(), counts)
        if written:
            parts.append(tuple(column[:written] for column in columns))
    names = ("moves", "states", "solved", "board")
    if not parts:
        empty = (np.zeros(0, dtype=np.int16), np.zeros(0, dtype=np.int64),
                 np.zeros(0, dtype=np.int64), np.zeros((0, SIDE * SIDE), dtype=np.uint8))
        return dict(zip(names, empty, strict=True))
    return {name: np.concatenate([p[k] for p in parts]) for k, name in enumerate(names)}


@cache
def _masks() -> np.ndarray:
    from huarong._kernels.rush_hour import lane_masks

    return lane_masks()


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
        cells = self.boards.view(np.uint8).reshape(-1, SIDE * SIDE)
        cells = np.where(cells == ord("x"), ord("#"), np.where(cells == ord("o"), ord("."),
                                                               cells)).astype(np.uint8)
        text = np.full((cells.shape[0], SIDE, SIDE + 1), ord("/"), dtype=np.uint8)
        text[:, :, :SIDE] = cells.reshape(-1, SIDE, SIDE)
        joined = text.reshape(cells.shape[0], -1)[:, :-1].copy()
        return joined.view(f"S{joined.shape[1]}").ravel().astype(str).tolist()

    def table(self) -> pa.Table:
        """Fogleman's three columns (moves, board, cluster_size) and those of every search
        result (:data:`~huarong.puzzles.exhaustive.COLUMNS`: states, solved, length, start
        as grid text), with the puzzle that plays the starts (:data:`PUZZLE`) and the
        totals in the metadata, as ``huarong serve --search`` browses them."""
        import pyarrow as pa

        from huarong.puzzles.exhaustive import METADATA_KEY

        starts = self.grids()
        hardest = self.hardest()
        totals = {"clusters": len(self), "states": self.total_states,
                  "hardest": None if hardest is None else {"length": hardest[0],
                                                            "start": starts[0]}}
        about = {"puzzle": PUZZLE, "totals": totals}
        return pa.table({
            "moves": self.moves.astype(np.int32),
            "board": pa.array(self.boards.astype(str), type=pa.string()),
            "cluster_size": self.states, "states": self.states, "solved": self.solved,
            "length": self.moves.astype(np.int32), "start": pa.array(starts, type=pa.string())},
            metadata={METADATA_KEY: json.dumps(about)})

    def write(self, path: str | Path) -> None:
        """To ``path``: ``.txt`` Fogleman's format, ``.parquet`` or ``.duckdb`` (table
        ``clusters``) :meth:`table`; atomically."""
        target = Path(path)
        if target.suffix == ".txt":
            from huarong.fileio import atomic_writer

            with atomic_writer(target, "w") as stream:
                stream.writelines(self.lines())
            return
        from huarong.puzzles.exhaustive import write_table

        if target.suffix not in (".parquet", ".duckdb"):
            raise PuzzleError(str(path), "write the rows to a .txt, .parquet or .duckdb file")
        write_table(self.table(), target)


def _collect(parts: Iterable[Columns]) -> RushRows:
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


def sample(fraction: float) -> list[RushUnit]:
    """Every k-th choice of the six rows' contents, k = round(1 / ``fraction``), each a unit
    (any columns): a share of the whole search, spread over it, to time."""
    if not 0 < fraction <= 1:
        raise PuzzleError(str(fraction), "a fraction of the search is > 0 and <= 1")
    every = itertools.chain.from_iterable(unit.arrangements() for unit in units())
    return [RushUnit(rows) for rows in itertools.islice(every, 0, None,
                                                         max(1, round(1 / fraction)))]


def rush_hour(*, selection: Sequence[RushUnit] | None = None, max_walls: int = MAX_WALLS,
              threads: int = 1, directory: Path | None = None, cluster: str | None = None,
              progress: UnitProgress | None = None) -> RushRows:
    """Fogleman's database (see the module): every unit with at most ``max_walls`` walls
    (:data:`MAX_WALLS`: the whole database; 0: the boards without walls, his first run) or
    those of ``selection``,
    on ``threads`` threads or the Dask scheduler at ``cluster``, saving each finished
    unit in the checkpoint ``directory`` (resumed when run again; the caller removes it,
    :func:`huarong.puzzles.jobs.finish`)."""
    chosen = units(max_walls) if selection is None else list(selection)
    import hashlib

    key = "rush-hour 2 " + hashlib.sha256(repr(chosen).encode()).hexdigest()
    parts = (columns for _, columns in run_job(
        chosen, search_unit, threads=threads, directory=directory, key=key, cluster=cluster,
        progress=progress))
    return _collect(parts)


# ----- comparing with a rush.txt ---------------------------------------------------------
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
                if len(fields) != 3 or len(fields[1]) != SIDE * SIDE:
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
