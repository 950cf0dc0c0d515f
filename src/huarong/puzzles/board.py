"""The board of a sliding-block puzzle: its cells and walls, the piece classes, the goal, the
rules and the metric; everything but a start.

A :class:`~huarong.puzzles.Puzzle` is a board and a start; the exhaustive search walks every
placement of a board's pieces.  A state of a board is a code (see
:mod:`huarong.puzzles.tables`); this module turns codes into pieces and grid text and back.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from huarong.graph import Geometry
from huarong.puzzles.grid import (
    EMPTY,
    LETTERS,
    MAX_CELLS,
    WALL,
    Grid,
    Metric,
    PieceClass,
    PuzzleError,
    Rules,
    check_metric,
    check_rules,
    join_rows,
    shape_of,
)
from huarong.puzzles.tables import Tables, tables_of

Pieces = dict[str, tuple[int, int]]
"""Where each letter stands: letter -> (class, placement)."""


@dataclass(frozen=True)
class Board:
    """A board of ``rows`` x ``columns`` cells with ``walls`` (cell numbers), the piece
    ``classes``, the ``goal`` (grid text naming the cells some pieces must cover, a letter
    standing for its piece's class; None: no goal), the ``rules`` and the ``metric``.

    Its :attr:`tables` are built on first use (a bad goal is refused then: loading a puzzle
    uses them at once) and shared by equal boards."""

    rows: int
    columns: int
    walls: frozenset[int]
    classes: tuple[PieceClass, ...]
    goal: str | None = None
    rules: Rules = "free"
    metric: Metric = "step"

    @functools.cached_property
    def tables(self) -> Tables:
        """The kernels' view of the board (:mod:`huarong.puzzles.tables`)."""
        return tables_of(self)

    @property
    def cells(self) -> int:
        return self.rows * self.columns

    @property
    def code_space(self) -> int:
        """How many codes the board's states are ranked into (every placement of each class,
        overlapping or not)."""
        return int(self.tables.space)

    @property
    def empty_grid(self) -> str:
        """The board without pieces as grid text (``#`` walls)."""
        return _empty_grid(self.rows, self.columns, self.walls)

    def with_options(self, *, goal: str | None = None, metric: str | None = None,
                     rules: str | None = None) -> Board:
        """This board with another goal (grid text), metric or rules (None keeps the
        board's)."""
        return dataclasses.replace(
            self, goal=self.goal if goal is None else Grid.read(goal).text,
            metric=self.metric if metric is None else check_metric(metric),
            rules=self.rules if rules is None else check_rules(rules))

    def spec(self) -> dict[str, Any]:
        """The board as JSON: ``rows``, ``columns``, the empty ``board`` (grid text, ``#``
        walls), the ``pieces`` (each class's ``shape`` as (row, column) cells, its
        ``letters`` in grid text and whether it is ``distinct``), the ``goal``, ``rules`` and
        ``metric``: what :func:`huarong.puzzles.load_puzzle` takes besides a start's grid
        text (``distinct``: the letters of the distinct classes) to play a start."""
        return board_spec(self.rows, self.columns, self.walls, self.classes, self.goal,
                          self.rules, self.metric)

    def geometry(self, name: str) -> Geometry:
        """The board for readers of its graphs (named ``name``), with a decoder of its
        codes."""
        return Geometry(name, self.rows, self.columns, _Decoder(self))

    # ----- states ---------------------------------------------------------------------------
    def code_of(self, pieces: Sequence[tuple[int, Sequence[int]]], text: str) -> int:
        """The code of the state with these (class, cells) pieces; :class:`PuzzleError`
        naming ``text`` when a piece stands on a wall."""
        from huarong._kernels import cluster as kernels

        sets = [0] * len(self.classes)
        for c, cells in pieces:
            p = self.tables.index[c].get(tuple(sorted(cells)))
            if p is None:
                raise PuzzleError(text, "a piece stands on a wall")
            sets[c] |= 1 << p
        words = np.array([s - (1 << 64) if s >> 63 else s for s in sets], dtype=np.int64)
        return int(kernels.rank(words, self.tables.classes, self.tables.binom))

    def placements_of(self, code: int) -> list[list[int]]:
        """The placements of each class's pieces in the state ``code``, ascending."""
        if not 0 <= code < self.tables.space:
            raise PuzzleError(str(code), "not a state code of this puzzle "
                                         f"(0..{self.tables.space - 1})")
        words = self.tables.decode(np.array([code], dtype=np.int64))[0]
        return [[p for p in range(MAX_CELLS) if (int(word) >> p) & 1] for word in words]

    def lettered(self, code: int) -> Pieces:
        """The pieces of the state ``code``, each class's letters given in placement
        order."""
        return {letter: (c, p)
                for c, (k, places) in enumerate(zip(self.classes, self.placements_of(code),
                                                    strict=True))
                for letter, p in zip(k.letters, places, strict=True)}

    def render(self, pieces: Pieces) -> str:
        """Grid text of lettered pieces."""
        cells = [WALL if cell in self.walls else EMPTY for cell in range(self.cells)]
        for letter, (c, p) in pieces.items():
            for cell in self.tables.placements[c][p]:
                cells[cell] = letter
        return join_rows(cells, self.columns)

    def format(self, code: int) -> str:
        """Grid text of the state ``code``: ``.`` empty, ``#`` wall, the pieces of each
        class lettered in placement order with the classes' letters."""
        return self.render(self.lettered(code))

    def parse(self, text: str) -> int:
        """The code of a state given as grid text (the same board and pieces; any letters
        for interchangeable pieces, a distinct piece by its own letter)."""
        grid = Grid.read(text)
        if (grid.rows, grid.columns) != (self.rows, self.columns) or grid.walls != self.walls:
            raise PuzzleError(text, f"not a state of this {self.rows}x{self.columns} board "
                                    "and its walls")
        own = {letter: c for c, k in enumerate(self.classes) if k.distinct
               for letter in k.letters}
        by_shape = {k.shape: c for c, k in enumerate(self.classes) if not k.distinct}
        found: list[tuple[int, Sequence[int]]] = []
        for letter, cells in grid.pieces(text).items():
            shape, _ = shape_of(cells, grid.columns)
            c = own.get(letter, by_shape.get(shape, -1))
            if c < 0 or self.classes[c].shape != shape:
                raise PuzzleError(text, f"piece {letter!r} has a shape no piece of the "
                                        "puzzle has")
            found.append((c, cells))
        counts = [sum(1 for c, _ in found if c == number) for number in range(len(self.classes))]
        if counts != [k.size for k in self.classes]:
            raise PuzzleError(text, "not the puzzle's pieces: "
                                    f"{len(found)} pieces where the puzzle has "
                                    f"{sum(k.size for k in self.classes)}, or other shapes")
        return self.code_of(found, text)

    def cell_pieces(self, codes: np.ndarray) -> np.ndarray:
        """Each state's cells as piece numbers: uint8 (states, cells), 0 empty, 255 wall,
        the pieces numbered 1, 2, ... class by class."""
        from huarong._kernels import cluster as kernels

        tables = self.tables
        cells: np.ndarray = kernels.boards(
            np.ascontiguousarray(codes, dtype=np.int64), tables.masks, tables.classes,
            tables.binom, tables.lookup, tables.info, self.cells)
        return cells

    def grids(self, codes: np.ndarray) -> list[str]:
        """Grid text of each state code (``/``-joined rows; pieces lettered by
        :data:`~huarong.puzzles.grid.LETTERS` class by class, a class's pieces in placement
        order): many states at once, for result tables."""
        cells = self.cell_pieces(codes)
        glyphs = np.frombuffer((EMPTY + LETTERS).encode().ljust(255, b"?") + WALL.encode(),
                               dtype=np.uint8)
        text = glyphs[cells].reshape(-1, self.rows, self.columns)
        slash = np.full((text.shape[0], self.rows, 1), ord("/"), dtype=np.uint8)
        joined = np.concatenate([text, slash], axis=2).reshape(text.shape[0], -1)[:, :-1]
        width = joined.shape[1]
        return [row.decode() for row in np.ascontiguousarray(joined).view(f"S{width}").ravel()]


def board_spec(rows: int, columns: int, walls: frozenset[int],
               classes: Sequence[PieceClass], goal: str | None, rules: Rules, metric: Metric
               ) -> dict[str, Any]:
    """:meth:`Board.spec` of these fields, for a file whose rows each hold their own pieces
    (classes without letters) where no one board has them all."""
    return {"rows": rows, "columns": columns,
            "board": _empty_grid(rows, columns, walls),
            "pieces": [{"shape": [list(cell) for cell in k.shape],
                        "letters": "".join(k.letters), "distinct": k.distinct}
                       for k in classes],
            "goal": goal, "rules": rules, "metric": metric}


def _empty_grid(rows: int, columns: int, walls: frozenset[int]) -> str:
    return join_rows([WALL if cell in walls else EMPTY for cell in range(rows * columns)],
                     columns)


class _Decoder:
    """Codes to boards (:attr:`Geometry.cells`)."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def __call__(self, codes: np.ndarray) -> np.ndarray:
        return self.board.cell_pieces(codes)
