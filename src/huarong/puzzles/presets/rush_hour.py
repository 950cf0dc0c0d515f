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

import hashlib
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from huarong._kernels.rush_hour_board import PRIMARY_ROW, SIDE
from huarong.puzzles.grid import Grid, PuzzleError, join_rows
from huarong.puzzles.jobs import Columns
from huarong.puzzles.presets import PresetOption, Progress, Settings, run_preset
from huarong.puzzles.presets._rush_rows import (
    RushRows,
    collect,
    compare,
    read_rows,
)
from huarong.puzzles.presets.fogleman_minimality import fogleman_lanes_minimal, lane_masks

if TYPE_CHECKING:
    import pyarrow as pa

    from huarong.puzzles.design import DesignSpace

MAX_WALLS = 2
"""Walls on a board of the database (Fogleman's ``MaxWalls``); fewer give a part of it."""
ROW_CELLS = SIDE - 1
"""The most cells a row's vehicles and walls (or a column's vehicles) may cover."""

FOGLEMAN_ROWS = 2_577_412
FOGLEMAN_STATES = 9_698_093_879
FOGLEMAN_HARDEST = (60, "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM", 2332)
"""His published figures: rows, states in them, and the hardest row (moves, board, size)."""
COMPARE_EXAMPLES = 5
"""Rows of each kind (missing, extra, different) a comparison with a rush.txt shows."""
NO_WALLS_HARDEST = (51, 4780)
"""The hardest start without walls, as Fogleman's code gives it (a comment in
``cpp/src/main.cpp``; his README's picture ``puzzle51.png``): 51 moves, a cluster of 4,780
states."""

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


def read_board(board: str) -> Grid:
    """A board in Fogleman's notation (36 characters, row by row: ``o`` or ``.`` empty,
    ``x`` a wall, a letter per vehicle) as a grid; :class:`PuzzleError` naming it."""
    if len(board) != SIDE * SIDE:
        raise PuzzleError(board, f"a Rush Hour board has {SIDE * SIDE} cells, not "
                                 f"{len(board)}")
    try:
        return Grid.read(join_rows(board, SIDE), empty="o.", wall="x")
    except PuzzleError as error:
        raise PuzzleError(board, error.problem) from None


def _runs(line: str) -> list[tuple[int, int]]:
    """(first cell, length) of each vehicle along a row or column of grid cells: runs of one
    letter of at least two cells."""
    found = []
    x = 0
    while x < len(line):
        run = 1
        while x + run < len(line) and line[x + run] == line[x]:
            run += 1
        if line[x].isalpha() and run > 1:
            found.append((x, run))
        x += run
    return found


def unit_of(board: str) -> RushUnit:
    """The unit of a board in Fogleman's notation, with its one column arrangement."""
    from huarong._kernels.rush_hour_board import COLUMN_OPTIONS

    cells = read_board(board).cells
    rows: list[tuple[Token, ...]] = []
    for r in range(SIDE):
        line = cells[r * SIDE:(r + 1) * SIDE]
        tokens = [(x, WALL + x) for x, glyph in enumerate(line) if glyph == "#"]
        tokens += [(x, length) for x, length in _runs(line)]
        rows.append(tuple(token for _, token in sorted(tokens)))
    columns = []
    for c in range(SIDE):
        lengths = tuple(length for _, length in _runs(cells[c::SIDE]))
        if lengths not in COLUMN_OPTIONS:
            raise PuzzleError(board, f"column {c} holds {list(lengths)}: not a Rush Hour "
                                     "column")
        columns.append((COLUMN_OPTIONS.index(lengths),))
    return RushUnit(tuple(rows), tuple(columns))


def _row_pieces(rows: tuple[Row, ...]) -> tuple[np.ndarray, np.ndarray, int]:
    """The kernel's view of the rows: (row, length, lowest, highest, letter) per movable
    piece, the red car first; the walls' cells; the first column piece's letter.  Letters
    follow Fogleman's piece numbering, walls numbered too."""
    from huarong._kernels.rush_hour_board import TARGET

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
    from huarong._kernels.rush_hour_board import COLUMN_OPTIONS
    from huarong._kernels.rush_hour_sweep import sweep

    allowed = np.ones((SIDE, len(COLUMN_OPTIONS)), dtype=np.bool_)
    if unit.columns is not None:
        allowed[:] = False
        for c, column in enumerate(unit.columns):
            allowed[c, list(column)] = True
    counts = np.zeros(4, dtype=np.int64) if tallies is None else tallies
    parts: list[tuple[np.ndarray, ...]] = []
    for rows in unit.arrangements():
        pieces, walls, column_letter = _row_pieces(rows)
        *columns, written = sweep(
            pieces, walls, column_letter, allowed,
            kernels.FOGLEMAN if mode is None else mode, lane_masks(), counts)
        if written:
            parts.append(tuple(column[:written] for column in columns))
    names = ("moves", "states", "solved", "board")
    if not parts:
        empty = (np.zeros(0, dtype=np.int16), np.zeros(0, dtype=np.int64),
                 np.zeros(0, dtype=np.int64), np.zeros((0, SIDE * SIDE), dtype=np.uint8))
        return dict(zip(names, empty, strict=True))
    return {name: np.concatenate([p[k] for p in parts]) for k, name in enumerate(names)}


def fogleman_minimal(board: str, moves: int) -> bool:
    """Whether a start in Fogleman's notation, solved in ``moves`` moves, passes his
    minimality test (the preset's ``FOGLEMAN``): no piece that his solver's solution leaves
    unmoved, wall or vehicle, can go with the start still needing ``moves``."""
    cells = read_board(board).cells
    if cells[PRIMARY_ROW * SIDE:(PRIMARY_ROW + 1) * SIDE].count("A") != 2:
        raise PuzzleError(board, f"the red car A is not a car on row {PRIMARY_ROW}")
    lanes = [(0, PRIMARY_ROW, x, length) for x, length in _runs(
        cells[PRIMARY_ROW * SIDE:(PRIMARY_ROW + 1) * SIDE])]
    lanes += [(0, r, x, length) for r in range(SIDE) if r != PRIMARY_ROW
              for x, length in _runs(cells[r * SIDE:(r + 1) * SIDE])]
    lanes += [(1, c, y, length) for c in range(SIDE) for y, length in _runs(cells[c::SIDE])]
    return fogleman_lanes_minimal(lanes, [cell for cell, glyph in enumerate(cells)
                                          if glyph == "#"], moves)


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
              progress: Progress | None = None) -> RushRows:
    """Fogleman's database (see the module): every unit with at most ``max_walls`` walls
    (:data:`MAX_WALLS`: the whole database; 0: the boards without walls, his first run) or
    those of ``selection``, on ``threads`` threads or the Dask scheduler at ``cluster``,
    saving each finished unit in the checkpoint ``directory`` (resumed when run again; the
    caller removes it, :func:`huarong.puzzles.jobs.finish`)."""
    rows: RushRows = run_preset(PRESET, {"max_walls": max_walls, "selection": selection},
                                threads=threads, directory=directory, cluster=cluster,
                                progress=progress)
    return rows


def _published(max_walls: int) -> dict[str, Any]:
    """The published figures for boards of at most ``max_walls`` walls, as JSON."""
    if max_walls == MAX_WALLS:
        return {"fogleman": {"rows": FOGLEMAN_ROWS, "states": FOGLEMAN_STATES,
                             "hardest": _named(FOGLEMAN_HARDEST)}}
    if max_walls == 0:
        return {"published": dict(zip(("moves", "cluster_size"), NO_WALLS_HARDEST,
                                      strict=True))}
    return {}


def _named(row: tuple[int, str, int]) -> dict[str, Any]:
    """A row (Fogleman's three columns) as JSON."""
    return dict(zip(("moves", "board", "cluster_size"), row, strict=True))


def _shown(row: Mapping[str, Any] | None) -> str:
    return "none" if row is None else f"{row['moves']} {row['board']} {row['cluster_size']}"


class _RushHourPreset:
    """``--preset rush-hour``: Fogleman's database (see the module)."""

    name = "rush-hour"
    summary = ("M. Fogleman's database of every interesting Rush Hour start (-o FILE.txt "
               "writes his rush.txt format)")
    options: tuple[PresetOption, ...] = (
        PresetOption("compare", "--compare", str, "RUSH.TXT",
                     "compare the rows with Fogleman's rush.txt and print the rows missing, "
                     "extra or different (exit status 1 if any)."),
        PresetOption("max_walls", "--max-walls", int, "N",
                     f"at most N walls on a board (default {MAX_WALLS}, the whole database; "
                     "0 is the part without walls)."))
    outputs: tuple[str, ...] = (".parquet", ".duckdb", ".txt")
    unit_name = "units"
    design_help = ("M. Fogleman's definitions (cars and trucks in his lanes, the red car on "
                   "the middle row to the right edge, 0-2 walls, every piece important)")

    def design_space(self, rows: int | None, columns: int | None,
                     walls: tuple[int, int] | None) -> DesignSpace:
        from huarong.puzzles.presets.rush_hour_design import RUSH_HOUR_WALLS, rush_hour_space

        return rush_hour_space(rows or SIDE, columns or SIDE, walls=walls or RUSH_HOUR_WALLS)

    def check(self, settings: Settings) -> None:
        max_walls = settings.get("max_walls", MAX_WALLS)
        if not 0 <= max_walls <= MAX_WALLS:
            raise PuzzleError(f"--max-walls {max_walls}",
                              f"a Rush Hour board has 0 to {MAX_WALLS} walls")
        if settings.get("compare") is not None:
            for _ in read_rows(settings["compare"]):
                pass  # a bad file is refused before the long search, not after it

    def units(self, settings: Settings) -> list[RushUnit]:
        selection = settings.get("selection")
        return (units(settings.get("max_walls", MAX_WALLS)) if selection is None
                else list(selection))

    def job_key(self, settings: Settings, units: Sequence[Any]) -> str:
        return "rush-hour 2 " + hashlib.sha256(repr(list(units)).encode()).hexdigest()

    def sizes(self, units: Sequence[Any]) -> None:
        return None

    def worker(self, settings: Settings) -> Callable[[RushUnit], Columns]:
        return search_unit

    def combine(self, units: Sequence[Any], answers: Iterable[tuple[int, Columns]],
                settings: Settings) -> RushRows:
        return collect(columns for _, columns in answers)

    def table(self, found: Any) -> pa.Table:
        return found.table()

    def write(self, found: Any, path: Path) -> int:
        found.write(path)
        return len(found)

    def totals(self, found: Any, settings: Settings) -> dict[str, Any]:
        max_walls = settings.get("max_walls", MAX_WALLS)
        hardest = found.hardest()
        totals: dict[str, Any] = {
            "max_walls": max_walls, "rows": len(found), "states": found.total_states,
            "hardest": None if hardest is None else _named(hardest), **_published(max_walls)}
        if settings.get("compare") is not None:
            comparison = compare(found, settings["compare"], COMPARE_EXAMPLES)
            totals["compare"] = {"file": settings["compare"], "rows": comparison.theirs,
                                 "missing": comparison.missing, "extra": comparison.extra,
                                 "different": comparison.different,
                                 "examples": comparison.examples}
        return totals

    def report(self, found: Any, totals: Any) -> list[str]:
        shown = _shown(totals["hardest"])
        if "fogleman" in totals:
            his = totals["fogleman"]
            lines = [f"rows: {totals['rows']:,} (Fogleman: {his['rows']:,})",
                     f"states in them: {totals['states']:,} (Fogleman: {his['states']:,})",
                     f"hardest: {shown} (Fogleman: {_shown(his['hardest'])})"]
        else:
            lines = [f"rows with at most {totals['max_walls']} walls: {totals['rows']:,}",
                     f"states in them: {totals['states']:,}"]
            published = totals.get("published")
            lines.append(f"hardest: {shown}" if published is None else
                         f"hardest: {shown} (published: {published['moves']} moves, "
                         f"{published['cluster_size']} states)")
        if "compare" in totals:
            seen = totals["compare"]
            lines.append(f"{seen['file']}: {seen['rows']:,} rows; missing {seen['missing']:,}, "
                         f"extra {seen['extra']:,}, different {seen['different']:,}")
            lines.extend(f"  {kind}: {line}" for kind in ("missing", "extra", "different")
                         for line in seen["examples"][kind])
        return lines

    def failed(self, totals: Any) -> bool:
        seen = totals.get("compare")
        return seen is not None and bool(seen["missing"] or seen["extra"]
                                         or seen["different"])


PRESET = _RushHourPreset()
