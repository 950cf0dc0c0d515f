"""The kernels' view of a board (:mod:`huarong._kernels.cluster`): every placement of each
piece class, its moves, the radices of the state codes and the goal's placements.

A state's code is a perfect rank of where each class's pieces stand, unique within the board:
the classes' placement sets ranked by the combinatorial number system, mixed-radix.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from typing import Protocol

import numpy as np

from huarong.puzzles.grid import (
    EMPTY,
    MAX_CELLS,
    STEPS,
    WALL,
    Grid,
    PieceClass,
    PuzzleError,
    Rules,
    Shape,
)


class Board(Protocol):
    """What the tables read of a board (:class:`huarong.puzzles.board.Board`, which holds
    its tables: named here by what it has, so that neither module imports the other)."""

    @property
    def rows(self) -> int: ...
    @property
    def columns(self) -> int: ...
    @property
    def walls(self) -> frozenset[int]: ...
    @property
    def classes(self) -> tuple[PieceClass, ...]: ...
    @property
    def goal(self) -> str | None: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def metric(self) -> str: ...


_METRIC_NUMBER = {"unit": 0, "slide": 1, "step": 2}
_RANK_LIMIT = 1 << 63


class TooManyPlacements(PuzzleError):
    """A board whose placements of the pieces are too many for the general engine's state
    codes (63 bits); Rush Hour boards have lane codes (:mod:`huarong.puzzles.lanes`)."""


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


@functools.lru_cache(maxsize=32)
def tables_of(board: Board) -> Tables:
    """The tables of a board, shared by the puzzles that differ only in start or names."""
    return Tables(board)


class Tables:
    """The kernels' view of a board (see :mod:`huarong._kernels.cluster`): placements, moves,
    code radices and the goal."""

    def __init__(self, board: Board) -> None:
        rows, columns, walls = board.rows, board.columns, board.walls
        count = len(board.classes)
        self.placements = [_placements(k.shape, rows, columns, walls) for k in board.classes]
        self.index = [{cells: p for p, cells in enumerate(places)}
                      for places in self.placements]
        radices = [math.comb(len(places), k.size)
                   for places, k in zip(self.placements, board.classes, strict=True)]
        self.space = math.prod(radices)
        if self.space >= _RANK_LIMIT:
            letters = "".join(sorted(letter for k in board.classes for letter in k.letters))
            raise TooManyPlacements(f"{rows}x{columns} board of pieces {letters}",
                                    f"its {self.space:,} placements of the pieces cannot be "
                                    "ranked in 63 bits")
        self.masks = np.zeros((count, 2 * MAX_CELLS), dtype=np.int64)
        self.moves = np.full((count, MAX_CELLS, 4), -1, dtype=np.int64)
        self.classes = np.zeros((count, 5), dtype=np.int64)
        multiplier = 1
        for c in range(count - 1, -1, -1):
            self.classes[c] = (board.classes[c].size, len(self.placements[c]), multiplier, 0,
                               -1)
            multiplier *= radices[c]
        for c, piece in enumerate(board.classes):
            allowed = _allowed_directions(piece, board.rules)
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
                              _METRIC_NUMBER[board.metric], board.goal is not None],
                             dtype=np.int64)
        if board.goal is not None:
            for c, places in _goal_placements(board, self, board.goal).items():
                self.classes[c, 3] = _bits(places)
        self.most = max(1, sum(k.size * len(places) for k, places in
                               zip(board.classes, self.placements, strict=True)))

    @functools.cached_property
    def lookup(self) -> np.ndarray:
        """The decoding lists of the small classes (see :mod:`huarong._kernels.cluster`);
        built on first use, so reading a board costs no kernel call."""
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
    dr, dc = STEPS[direction]
    moved = []
    for cell in cells:
        row, column = divmod(cell, columns)
        if not (0 <= row + dr < rows and 0 <= column + dc < columns):
            return None
        moved.append((row + dr) * columns + column + dc)
    return tuple(moved)


def _goal_placements(board: Board, tables: Tables, text: str) -> dict[int, list[int]]:
    """The placements the goal asks each class to fill."""
    grid = Grid.read(text)
    if (grid.rows, grid.columns) != (board.rows, board.columns):
        raise PuzzleError(text, f"a goal of {grid.rows}x{grid.columns} cells for a board of "
                                f"{board.rows}x{board.columns}")
    walls = [cell for cell, glyph in enumerate(grid.cells) if glyph == WALL
             and cell not in board.walls]
    if walls:
        row, column = divmod(walls[0], board.columns)
        raise PuzzleError(text, f"a wall in the goal at row {row + 1}, column {column + 1}, "
                                "where the board has none")
    class_of = {letter: c for c, k in enumerate(board.classes) for letter in k.letters}
    wanted: dict[int, list[int]] = {}
    letters: dict[int, list[str]] = {}
    for letter in sorted(set(grid.cells) - {EMPTY, WALL}):
        if letter not in class_of:
            raise PuzzleError(text, f"the goal names {letter!r}, a letter the start lacks")
        c = class_of[letter]
        cells = {cell for cell, glyph in enumerate(grid.cells) if glyph == letter}
        shape = board.classes[c].shape
        while cells:
            # The first remaining cell in reading order must be its piece's first cell.
            first = min(cells)
            row, column = divmod(first, board.columns)
            top, left = row - shape[0][0], column - shape[0][1]
            placed = tuple((top + r) * board.columns + left + k for r, k in shape)
            width = 1 + max(k for _, k in shape)
            p = tables.index[c].get(placed) if 0 <= left <= board.columns - width else None
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
        if len(places) > board.classes[c].size:
            named = "".join(sorted(set(letters[c])))
            raise PuzzleError(text, f"an overlapping target: the goal asks for {len(places)} "
                                    f"pieces of the shape of {named!r}, the start has "
                                    f"{board.classes[c].size}")
    return wanted


