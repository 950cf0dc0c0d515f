"""A sliding-block puzzle: a :class:`~huarong.puzzles.board.Board` and a start, with the
names a catalogue gives it; read from grid text by :func:`build_puzzle`."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar, overload

from huarong.graph import Geometry
from huarong.puzzles.board import Board
from huarong.puzzles.grid import (
    EMPTY,
    WALL,
    Grid,
    Metric,
    PieceClass,
    PuzzleError,
    Rules,
    Shape,
    shape_of,
)
from huarong.puzzles.tables import Tables

Fact = TypeVar("Fact")


class _OfBoard(Generic[Fact]):
    """A fact of the puzzle's board read through the puzzle (``puzzle.rows`` is
    ``puzzle.board.rows``): a puzzle is its board and a start."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, puzzle: None, owner: type) -> _OfBoard[Fact]: ...
    @overload
    def __get__(self, puzzle: Puzzle, owner: type) -> Fact: ...

    def __get__(self, puzzle: Puzzle | None, owner: type) -> _OfBoard[Fact] | Fact:
        if puzzle is None:
            return self
        fact: Fact = getattr(puzzle.board, self._name)
        return fact


@dataclass(frozen=True)
class Puzzle:
    """A sliding-block puzzle: its ``board`` (cells, walls, pieces, goal, rules, metric), the
    ``start`` state (its code) and, for catalogue entries, its ``name``, ``title`` and
    ``source``.

    Build one with :func:`huarong.puzzles.load_puzzle`."""

    board: Board
    start: int
    name: str | None = None
    title: str | None = None
    source: str | None = None

    rows = _OfBoard[int]()
    columns = _OfBoard[int]()
    cells = _OfBoard[int]()
    walls = _OfBoard[frozenset[int]]()
    classes = _OfBoard[tuple[PieceClass, ...]]()
    goal = _OfBoard[str | None]()
    rules = _OfBoard[Rules]()
    metric = _OfBoard[Metric]()
    tables = _OfBoard[Tables]()

    @property
    def grid(self) -> str:
        """The start's grid text."""
        return self.grid_of(self.start)

    def grid_of(self, state: int) -> str:
        """Grid text of the state ``state`` (see :func:`format_state`)."""
        return self.board.format(state)

    @functools.cached_property
    def geometry(self) -> Geometry:
        """The board for readers of this puzzle's graphs, with a decoder of its codes."""
        return self.board.geometry(self.name or "puzzle")

    def with_options(self, *, goal: str | None = None, metric: str | None = None,
                     rules: str | None = None) -> Puzzle:
        """This puzzle with another goal, metric or rules (None keeps the puzzle's)."""
        return dataclasses.replace(self, board=self.board.with_options(
            goal=goal, metric=metric, rules=rules))


def build_puzzle(text: str, *, goal: str | None, rules: Rules, metric: Metric,
                 distinct: Iterable[str] = (), empty: str = EMPTY, wall: str = WALL
                 ) -> Puzzle:
    """The puzzle whose start is the grid ``text`` (see :class:`~huarong.puzzles.grid.Grid`):
    pieces of one shape are one class, but for the ``distinct`` letters, each a class of its
    own."""
    board, pieces = read_board(text, goal=goal, rules=rules, metric=metric, distinct=distinct,
                               empty=empty, wall=wall)
    return puzzle_of(board, pieces, text)


def puzzle_of(board: Board, pieces: dict[str, tuple[int, ...]], text: str) -> Puzzle:
    """The puzzle of ``board`` whose start has these ``pieces`` (letter -> cells), read
    from the grid ``text``."""
    return Puzzle(board, board.code_of([(c, pieces[letter]) for c, k in enumerate(board.classes)
                                        for letter in k.letters], text))


def read_board(text: str, *, goal: str | None, rules: Rules, metric: Metric,
               distinct: Iterable[str] = (), empty: str = EMPTY, wall: str = WALL
               ) -> tuple[Board, dict[str, tuple[int, ...]]]:
    """The board of the grid ``text`` (as :func:`build_puzzle` reads it) and each letter's
    cells, without the start's code."""
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
    board = Board(grid.rows, grid.columns, grid.walls, classes,
                  None if goal is None else Grid.read(goal).text, rules, metric)
    return board, pieces


def format_state(puzzle: Puzzle, state: int) -> str:
    """Grid text (rows joined by ``/``) of the state with code ``state``: ``.`` empty, ``#``
    wall, the pieces of each class lettered in placement order with the start's letters."""
    return puzzle.grid_of(state)


def parse_state(puzzle: Puzzle, text: str) -> int:
    """The code of a state of ``puzzle`` given as grid text (the same board and pieces; any
    letters for interchangeable pieces, a distinct piece by its own letter)."""
    return puzzle.board.parse(text)
