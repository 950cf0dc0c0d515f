"""The model of a sliding-block puzzle: board, pieces, goal, rule and metric; its grid text and
the codes of its states.

Cells are numbered ``row * columns + column``, row 0 at the top.  Pieces fall into classes:
all the pieces of one shape, interchangeable, or a piece the puzzle marks distinct, alone.
A state's code is a perfect rank of where each class's pieces stand (see
:mod:`huarong._kernels.cluster`), unique within the puzzle.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, get_args

import numpy as np

from huarong.graph import Geometry

Metric = Literal["unit", "slide", "step"]
"""How far one move goes: one cell, any distance in one direction, or anywhere the piece can
reach alone by unit moves (Klotski's step)."""

Rules = Literal["free", "length"]
"""How pieces move: in four directions, or (``length``) a 1xk or kx1 piece with k >= 2 only
along its length."""

Shape = tuple[tuple[int, int], ...]
"""A piece's cells as (row, column) offsets from its bounding box's top-left, sorted."""

EMPTY, WALL = ".", "#"
MAX_CELLS = 64
DIRECTIONS = ("up", "down", "left", "right")
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
_METRIC_NUMBER = {"unit": 0, "slide": 1, "step": 2}
_RANK_LIMIT = 1 << 63


class PuzzleError(ValueError):
    """Bad puzzle text or spec: one line that repeats the bad input and says what is wrong."""

    def __init__(self, text: str, problem: str) -> None:
        shown = text if len(text) <= 120 else text[:117] + "..."
        super().__init__(f"{shown!r}: {problem}")
        self.text = text
        self.problem = problem


def check_metric(text: str) -> Metric:
    """``text`` as a :data:`Metric`, or :class:`PuzzleError`."""
    if text not in get_args(Metric):
        raise PuzzleError(text, "unknown metric: one of unit, slide, step")
    return text  # type: ignore[return-value]


def check_rules(text: str) -> Rules:
    """``text`` as :data:`Rules`, or :class:`PuzzleError`."""
    if text not in get_args(Rules):
        raise PuzzleError(text, "unknown rules: one of free, length")
    return text  # type: ignore[return-value]


# ----- grid text ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Grid:
    """Grid text read into rows of cells: ``.`` empty, ``#`` wall, a letter per piece."""

    rows: int
    columns: int
    cells: str

    @classmethod
    def read(cls, text: str, *, empty: str = EMPTY, wall: str = WALL) -> Grid:
        """Rows on lines or joined by ``/``; spaces between cells are allowed."""
        lines = [re.sub(r"[ \t\r]", "", line) for line in re.split(r"[\n/]", text)]
        lines = [line for line in lines if line]
        if not lines:
            raise PuzzleError(text, "an empty grid")
        for number, line in enumerate(lines):
            if len(line) != len(lines[0]):
                raise PuzzleError(text, f"a ragged grid: row {number + 1} has {len(line)} "
                                        f"cells, row 1 has {len(lines[0])}")
        rows, columns = len(lines), len(lines[0])
        if rows * columns > MAX_CELLS:
            raise PuzzleError(text, f"a board of {rows}x{columns} = {rows * columns} cells; "
                                    f"boards have at most {MAX_CELLS}")
        cells = []
        for address, glyph in enumerate("".join(lines)):
            if glyph in empty:
                cells.append(EMPTY)
            elif glyph in wall:
                cells.append(WALL)
            elif glyph.isascii() and glyph.isalpha():
                cells.append(glyph)
            else:
                row, column = divmod(address, columns)
                raise PuzzleError(text, f"{glyph!r} at row {row + 1}, column {column + 1} is "
                                        f"not a letter, {empty[0]} (empty) or {wall[0]} (wall)")
        return cls(rows, columns, "".join(cells))

    def pieces(self, text: str) -> dict[str, tuple[int, ...]]:
        """Each letter's cells; :class:`PuzzleError` when a letter's cells are not one
        4-connected piece."""
        found: dict[str, list[int]] = {}
        for cell, glyph in enumerate(self.cells):
            if glyph.isalpha():
                found.setdefault(glyph, []).append(cell)
        for letter, cells in found.items():
            if len(_component(cells[0], set(cells), self.columns)) != len(cells):
                raise PuzzleError(text, f"piece {letter!r} is in two parts: the cells of a "
                                        "letter must touch side by side")
        return {letter: tuple(cells) for letter, cells in found.items()}

    @property
    def walls(self) -> frozenset[int]:
        return frozenset(cell for cell, glyph in enumerate(self.cells) if glyph == WALL)


def _component(first: int, cells: set[int], columns: int) -> set[int]:
    seen = {first}
    todo = [first]
    while todo:
        cell = todo.pop()
        row, column = divmod(cell, columns)
        for dr, dc in _STEPS:
            other = (row + dr) * columns + column + dc
            if 0 <= column + dc < columns and other in cells and other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def shape_of(cells: Iterable[int], columns: int) -> tuple[Shape, int]:
    """The shape of a piece on these cells and its anchor (the top-left of its bounding
    box)."""
    places = [divmod(cell, columns) for cell in cells]
    top = min(row for row, _ in places)
    left = min(column for _, column in places)
    return tuple(sorted((row - top, column - left) for row, column in places)), top * columns + left


# ----- pieces and placements --------------------------------------------------------------------
@dataclass(frozen=True)
class PieceClass:
    """Pieces that are interchangeable: all the pieces of one ``shape``, or (``distinct``) one
    piece alone.  ``letters`` name the pieces in the start's grid, in placement order."""

    shape: Shape
    letters: tuple[str, ...]
    distinct: bool = False

    @property
    def size(self) -> int:
        return len(self.letters)

    @property
    def straight(self) -> Literal["row", "column", None]:
        """``"row"`` for a 1xk piece (k >= 2), ``"column"`` for kx1, else None."""
        if len(self.shape) < 2:
            return None
        if all(row == 0 for row, _ in self.shape) and len(self.shape) == self.shape[-1][1] + 1:
            return "row"
        if all(col == 0 for _, col in self.shape) and len(self.shape) == self.shape[-1][0] + 1:
            return "column"
        return None


def _placements(shape: Shape, rows: int, columns: int, walls: frozenset[int]
                ) -> list[tuple[int, ...]]:
    """Every position of ``shape`` on the board clear of walls, by anchor cell."""
    height = 1 + max(row for row, _ in shape)
    width = 1 + max(column for _, column in shape)
    found = []
    for top in range(rows - height + 1):
        for left in range(columns - width + 1):
            cells = tuple((top + row) * columns + left + column for row, column in shape)
            if not walls.intersection(cells):
                found.append(cells)
    return found


class Board(NamedTuple):
    """What the tables of a puzzle depend on: all of it but the start and the names."""

    rows: int
    columns: int
    walls: frozenset[int]
    classes: tuple[PieceClass, ...]
    goal: str | None
    rules: Rules
    metric: Metric


@functools.lru_cache(maxsize=32)
def tables_of(board: Board) -> Tables:
    """The tables of a board, shared by the puzzles that differ only in start or names."""
    return Tables(board)


class Tables:
    """The kernels' view of a puzzle (see :mod:`huarong._kernels.cluster`): placements, moves,
    code radices and the goal."""

    def __init__(self, puzzle: Board) -> None:
        rows, columns, walls = puzzle.rows, puzzle.columns, puzzle.walls
        count = len(puzzle.classes)
        self.placements = [_placements(k.shape, rows, columns, walls) for k in puzzle.classes]
        self.index = [{cells: p for p, cells in enumerate(places)}
                      for places in self.placements]
        radices = [math.comb(len(places), k.size)
                   for places, k in zip(self.placements, puzzle.classes, strict=True)]
        self.space = math.prod(radices)
        if self.space >= _RANK_LIMIT:
            letters = "".join(sorted(letter for k in puzzle.classes for letter in k.letters))
            raise PuzzleError(f"{rows}x{columns} board of pieces {letters}",
                              f"its {self.space:,} placements of the pieces cannot be "
                              "ranked in 63 bits")
        self.masks = np.zeros((count, 2 * MAX_CELLS), dtype=np.int64)
        self.moves = np.full((count, MAX_CELLS, 4), -1, dtype=np.int64)
        self.classes = np.zeros((count, 5), dtype=np.int64)
        multiplier = 1
        for c in range(count - 1, -1, -1):
            self.classes[c] = (puzzle.classes[c].size, len(self.placements[c]), multiplier, 0,
                               -1)
            multiplier *= radices[c]
        for c, piece in enumerate(puzzle.classes):
            allowed = _allowed_directions(piece, puzzle.rules)
            for p, cells in enumerate(self.placements[c]):
                self.masks[c, p] = _bits(cells)
                halo: set[int] = set()
                for d in allowed:
                    moved = _moved(cells, d, rows, columns)
                    self.moves[c, p, d] = self.index[c].get(moved, -1) if moved else -1
                    if self.moves[c, p, d] >= 0 and moved:
                        halo.update(moved)
                self.masks[c, MAX_CELLS + p] = _bits(halo.difference(cells))
        self.binom = _binomials()
        self.info = np.array([_bits(walls),
                              _METRIC_NUMBER[puzzle.metric], puzzle.goal is not None],
                             dtype=np.int64)
        if puzzle.goal is not None:
            for c, places in _goal_placements(puzzle, self, puzzle.goal).items():
                self.classes[c, 3] = _bits(places)
        self.most = max(1, sum(k.size * len(places) for k, places in
                               zip(puzzle.classes, self.placements, strict=True)))

    @functools.cached_property
    def lookup(self) -> np.ndarray:
        """The decoding lists of the small classes (see :mod:`huarong._kernels.cluster`);
        built on first use, so reading a puzzle costs no kernel call."""
        return _lookup(self.classes, self.binom)

    def kernel_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                   np.ndarray]:
        """(masks, moves, classes, binom, lookup, info), as the kernels take them."""
        return self.masks, self.moves, self.classes, self.binom, self.lookup, self.info

    def decode(self, codes: np.ndarray) -> np.ndarray:
        """The placement set of each class of each code: (codes, classes) int64."""
        from huarong._kernels import cluster as kernels

        sets: np.ndarray = kernels.unrank_many(np.ascontiguousarray(codes, dtype=np.int64),
                                               self.classes, self.binom, self.lookup)
        return sets

    def goal_flags(self, codes: np.ndarray) -> np.ndarray:
        """Which of ``codes`` are solved."""
        from huarong._kernels import cluster as kernels

        flags: np.ndarray = kernels.goal_flags(codes, self.classes, self.binom, self.lookup,
                                               self.info)
        return flags


@functools.cache
def _binomials() -> np.ndarray:
    table = np.array([[math.comb(n, k) for k in range(MAX_CELLS + 1)]
                      for n in range(MAX_CELLS + 1)], dtype=np.int64)
    table.flags.writeable = False
    return table


_LOOKUP_ENTRIES = 1 << 15
"""At most this many class sets are listed for decoding (256 KiB, cache-sized, quick to
build); larger classes decode with the combinatorial number system's search."""


def _lookup(classes: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """The placement sets of the small classes by rank, their start in column 4."""
    from huarong._kernels import cluster as kernels

    parts = []
    used = 0
    counts = [int(binom[places, pieces]) for pieces, places in classes[:, :2].tolist()]
    for c in sorted(range(classes.shape[0]), key=counts.__getitem__):
        count = counts[c]
        if used + count > _LOOKUP_ENTRIES:
            break
        classes[c, 4] = used
        parts.append(kernels.class_sets(classes[c, 0], classes[c, 1], binom))
        used += count
    return np.concatenate(parts) if parts else np.zeros(1, dtype=np.int64)


def _bits(places: Iterable[int]) -> int:
    """A set of numbers below 64 as an int64 word's bits."""
    word = sum(1 << p for p in places)
    return word - (1 << 64) if word >> 63 else word


def _allowed_directions(piece: PieceClass, rules: Rules) -> tuple[int, ...]:
    if rules == "length" and piece.straight == "row":
        return (2, 3)
    if rules == "length" and piece.straight == "column":
        return (0, 1)
    return (0, 1, 2, 3)


def _moved(cells: tuple[int, ...], direction: int, rows: int, columns: int
           ) -> tuple[int, ...] | None:
    dr, dc = _STEPS[direction]
    moved = []
    for cell in cells:
        row, column = divmod(cell, columns)
        if not (0 <= row + dr < rows and 0 <= column + dc < columns):
            return None
        moved.append((row + dr) * columns + column + dc)
    return tuple(moved)


def _goal_placements(puzzle: Board, tables: Tables, text: str) -> dict[int, list[int]]:
    """The placements the goal asks each class to fill."""
    grid = Grid.read(text)
    if (grid.rows, grid.columns) != (puzzle.rows, puzzle.columns):
        raise PuzzleError(text, f"a goal of {grid.rows}x{grid.columns} cells for a board of "
                                f"{puzzle.rows}x{puzzle.columns}")
    walls = [cell for cell, glyph in enumerate(grid.cells) if glyph == WALL
             and cell not in puzzle.walls]
    if walls:
        row, column = divmod(walls[0], puzzle.columns)
        raise PuzzleError(text, f"a wall in the goal at row {row + 1}, column {column + 1}, "
                                "where the board has none")
    class_of = {letter: c for c, k in enumerate(puzzle.classes) for letter in k.letters}
    wanted: dict[int, list[int]] = {}
    letters: dict[int, list[str]] = {}
    for letter in sorted(set(grid.cells) - {EMPTY, WALL}):
        if letter not in class_of:
            raise PuzzleError(text, f"the goal names {letter!r}, a letter the start lacks")
        c = class_of[letter]
        cells = {cell for cell, glyph in enumerate(grid.cells) if glyph == letter}
        shape = puzzle.classes[c].shape
        while cells:
            # The first remaining cell in reading order must be its piece's first cell.
            first = min(cells)
            row, column = divmod(first, puzzle.columns)
            top, left = row - shape[0][0], column - shape[0][1]
            placed = tuple((top + r) * puzzle.columns + left + k for r, k in shape)
            width = 1 + max(k for _, k in shape)
            p = tables.index[c].get(placed) if 0 <= left <= puzzle.columns - width else None
            if p is None or not cells.issuperset(placed):
                raise PuzzleError(text, f"the goal cells of {letter!r} are not whole pieces "
                                        f"of its shape on free cells")
            cells.difference_update(placed)
            wanted.setdefault(c, []).append(p)
            letters.setdefault(c, []).append(letter)
    if not wanted:
        raise PuzzleError(text, "the goal names no piece: mark the cells a piece must cover "
                                "with its letter")
    for c, places in wanted.items():
        if len(places) > puzzle.classes[c].size:
            named = "".join(sorted(set(letters[c])))
            raise PuzzleError(text, f"an overlapping target: the goal asks for {len(places)} "
                                    f"pieces of the shape of {named!r}, the start has "
                                    f"{puzzle.classes[c].size}")
    return wanted


# ----- the puzzle ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Puzzle:
    """A sliding-block puzzle: the board (``rows`` x ``columns``, ``walls`` cells), the
    pieces (``classes``), the ``start`` state (its code), the ``goal`` (grid text naming the
    cells some pieces must cover, a letter standing for its piece's class; None: no goal),
    the ``rules`` and ``metric``; ``name``, ``title`` and ``source`` for catalogue entries.

    Build one with :func:`huarong.puzzles.load_puzzle`."""

    rows: int
    columns: int
    walls: frozenset[int]
    classes: tuple[PieceClass, ...]
    start: int
    goal: str | None = None
    rules: Rules = "free"
    metric: Metric = "step"
    name: str | None = None
    title: str | None = None
    source: str | None = None
    tables: Tables = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", tables_of(Board(
            self.rows, self.columns, self.walls, self.classes, self.goal, self.rules,
            self.metric)))

    @property
    def cells(self) -> int:
        return self.rows * self.columns

    @property
    def board(self) -> str:
        """The start's grid text."""
        return format_state(self, self.start)

    @functools.cached_property
    def geometry(self) -> Geometry:
        """The board for readers of this puzzle's graphs, with a decoder of its codes."""
        return Geometry(self.name or "puzzle", self.rows, self.columns, _Decoder(self))

    def with_options(self, *, goal: str | None = None, metric: str | None = None,
                     rules: str | None = None) -> Puzzle:
        """This puzzle with another goal, metric or rules (None keeps the puzzle's)."""
        return dataclasses.replace(
            self, goal=self.goal if goal is None else _goal_text(goal),
            metric=self.metric if metric is None else check_metric(metric),
            rules=self.rules if rules is None else check_rules(rules))


class _Decoder:
    """Codes to boards (:attr:`Geometry.cells`)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle

    def __call__(self, codes: np.ndarray) -> np.ndarray:
        from huarong._kernels import cluster as kernels

        tables = self.puzzle.tables
        result: np.ndarray = kernels.boards(
            np.ascontiguousarray(codes, dtype=np.int64), tables.masks, tables.classes,
            tables.binom, tables.lookup, tables.info, self.puzzle.cells)
        return result


def _goal_text(text: str) -> str:
    grid = Grid.read(text)
    return "/".join(grid.cells[r * grid.columns:(r + 1) * grid.columns]
                    for r in range(grid.rows))


def build_puzzle(text: str, *, goal: str | None, rules: Rules, metric: Metric,
                 distinct: Iterable[str] = (), empty: str = EMPTY, wall: str = WALL
                 ) -> Puzzle:
    """The puzzle whose start is the grid ``text`` (see :class:`Grid`)."""
    grid = Grid.read(text, empty=empty, wall=wall)
    pieces = grid.pieces(text)
    if not pieces:
        raise PuzzleError(text, "a board without pieces")
    marked = set(distinct)
    unknown = sorted(marked - set(pieces))
    if unknown:
        raise PuzzleError(text, f"{unknown[0]!r} is marked distinct but is no piece")
    groups: dict[tuple[Shape, str], list[tuple[int, str]]] = {}
    for letter, cells in pieces.items():
        shape, anchor = shape_of(cells, grid.columns)
        key = (shape, letter if letter in marked else "")
        groups.setdefault(key, []).append((anchor, letter))
    classes = tuple(PieceClass(shape, tuple(letter for _, letter in sorted(members)),
                               bool(mark))
                    for (shape, mark), members in sorted(groups.items()))
    goal_text = None if goal is None else _goal_text(goal)
    puzzle = Puzzle(grid.rows, grid.columns, grid.walls, classes, 0, goal_text, rules, metric)
    start = code_of_pieces(puzzle, [(c, cells) for c, k in enumerate(classes)
                                    for cells in (pieces[letter] for letter in k.letters)],
                           text)
    return dataclasses.replace(puzzle, start=start)


def code_of_pieces(puzzle: Puzzle, pieces: Sequence[tuple[int, Sequence[int]]], text: str
                   ) -> int:
    """The code of the state with these (class, cells) pieces."""
    from huarong._kernels import cluster as kernels

    tables = puzzle.tables
    sets = [0] * len(puzzle.classes)
    for c, cells in pieces:
        p = tables.index[c].get(tuple(sorted(cells)))
        if p is None:
            raise PuzzleError(text, "a piece stands on a wall")
        sets[c] |= 1 << p
    words = np.array([s - (1 << 64) if s >> 63 else s for s in sets], dtype=np.int64)
    return int(kernels.rank(words, tables.classes, tables.binom))


def class_placements(puzzle: Puzzle, code: int) -> list[list[int]]:
    """The placements of each class's pieces in the state ``code``, ascending."""

    tables = puzzle.tables
    if not 0 <= code < tables.space:
        raise PuzzleError(str(code), f"not a state code of this puzzle (0..{tables.space - 1})")
    words = tables.decode(np.array([code], dtype=np.int64))[0]
    return [[p for p in range(MAX_CELLS) if (int(word) >> p) & 1] for word in words]


Pieces = dict[str, tuple[int, int]]
"""Where each letter stands: letter -> (class, placement)."""


def lettered(puzzle: Puzzle, code: int) -> Pieces:
    """The pieces of the state ``code``, each class's letters given in placement order."""
    return {letter: (c, p)
            for c, (k, places) in enumerate(zip(puzzle.classes, class_placements(puzzle, code),
                                                strict=True))
            for letter, p in zip(k.letters, places, strict=True)}


def render(puzzle: Puzzle, pieces: Pieces) -> str:
    """Grid text of lettered pieces."""
    cells = [WALL if cell in puzzle.walls else EMPTY for cell in range(puzzle.cells)]
    for letter, (c, p) in pieces.items():
        for cell in puzzle.tables.placements[c][p]:
            cells[cell] = letter
    return "/".join("".join(cells[r * puzzle.columns:(r + 1) * puzzle.columns])
                    for r in range(puzzle.rows))


def format_state(puzzle: Puzzle, state: int) -> str:
    """Grid text (rows joined by ``/``) of the state with code ``state``: ``.`` empty, ``#``
    wall, the pieces of each class lettered in placement order with the start's letters."""
    return render(puzzle, lettered(puzzle, state))


def parse_state(puzzle: Puzzle, text: str) -> int:
    """The code of a state of ``puzzle`` given as grid text (the same board and pieces; any
    letters for interchangeable pieces, a distinct piece by its own letter)."""
    grid = Grid.read(text)
    if (grid.rows, grid.columns) != (puzzle.rows, puzzle.columns) or grid.walls != puzzle.walls:
        raise PuzzleError(text, f"not a state of this {puzzle.rows}x{puzzle.columns} board "
                                "and its walls")
    own = {letter: c for c, k in enumerate(puzzle.classes) if k.distinct for letter in k.letters}
    by_shape = {k.shape: c for c, k in enumerate(puzzle.classes) if not k.distinct}
    found: list[tuple[int, Sequence[int]]] = []
    for letter, cells in grid.pieces(text).items():
        shape, _ = shape_of(cells, grid.columns)
        c = own.get(letter, by_shape.get(shape, -1))
        if c < 0 or puzzle.classes[c].shape != shape:
            raise PuzzleError(text, f"piece {letter!r} has a shape no piece of the puzzle has")
        found.append((c, cells))
    counts = [sum(1 for c, _ in found if c == number) for number in range(len(puzzle.classes))]
    if counts != [k.size for k in puzzle.classes]:
        raise PuzzleError(text, "not the puzzle's pieces: "
                                f"{len(found)} pieces where the puzzle has "
                                f"{sum(k.size for k in puzzle.classes)}, or other shapes")
    return code_of_pieces(puzzle, found, text)
