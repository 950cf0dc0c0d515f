"""Grid text, the words of the puzzle model (metric, rules, shapes, piece classes) and its one
error type.

Grid text is rows of cells, on lines or joined by ``/``: ``.`` empty, ``#`` wall, a letter
per piece (the cells of one letter are one piece).  Cells are numbered
``row * columns + column``, row 0 at the top.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

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
"""The most cells of a board: a state's placements are bits of int64 words."""
DIRECTIONS = ("up", "down", "left", "right")
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
"""(row, column) offsets of the :data:`DIRECTIONS`."""
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
"""The letters of pieces in grid text a program writes, class by class."""


class PuzzleError(ValueError):
    """Bad puzzle text or spec: one line that repeats the bad input and says what is wrong."""

    def __init__(self, text: str, problem: str) -> None:
        shown = text if len(text) <= 120 else text[:117] + "..."
        super().__init__(f"{shown!r}: {problem}")
        self.text = text
        self.problem = problem

    def __reduce__(self) -> tuple[type[PuzzleError], tuple[str, str]]:
        # Pickled by its two parts (a worker process's refusal reaches the server whole).
        return type(self), (self.text, self.problem)


class ClusterTooLarge(PuzzleError):
    """The start's cluster has more states than the caller allowed."""


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


def join_rows(cells: Sequence[str], columns: int) -> str:
    """Cells (one character each, row by row) as grid text, rows joined by ``/``."""
    return "/".join("".join(cells[start:start + columns])
                    for start in range(0, len(cells), columns))


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

    @property
    def text(self) -> str:
        """The grid as ``/``-joined rows."""
        return join_rows(self.cells, self.columns)

    def pieces(self, text: str) -> dict[str, tuple[int, ...]]:
        """Each letter's cells; :class:`PuzzleError` (naming ``text``) when a letter's cells
        are not one 4-connected piece."""
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
        for dr, dc in STEPS:
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


def rectangle(rows: int, columns: int) -> Shape:
    """The shape of a ``rows`` x ``columns`` rectangle."""
    return tuple((r, c) for r in range(rows) for c in range(columns))


def shape_name(shape: Shape) -> str:
    """``RxC`` for a rectangle, else the list of its cells."""
    rows = 1 + max(r for r, _ in shape)
    columns = 1 + max(c for _, c in shape)
    return f"{rows}x{columns}" if len(shape) == rows * columns else str(list(shape))


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
