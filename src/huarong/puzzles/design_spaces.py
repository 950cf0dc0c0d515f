"""The design spaces ``huarong puzzle design`` is given: the command's specifications
(``--board``, ``--pieces`` with ranges, ``--goal``, ``--walls``), a puzzle's board and pieces,
or M. Fogleman's Rush Hour definitions on a board of any size."""

from __future__ import annotations

import dataclasses
import re

from huarong._kernels.rush_hour_board import SIDE
from huarong.puzzles.design import DesignSpace, Evaluator, PieceKind
from huarong.puzzles.grid import (
    EMPTY,
    WALL,
    Grid,
    PuzzleError,
    check_metric,
    check_rules,
    rectangle,
    shape_name,
)
from huarong.puzzles.puzzle import Puzzle
from huarong.puzzles.specs import parse_cells, parse_design_pieces, parse_goal

_RANGE = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?")

RUSH_HOUR_WALLS = (0, 2)
"""Fogleman's walls on a board: none to two (his ``MaxWalls``)."""


def parse_range(text: str, what: str = "walls") -> tuple[int, int]:
    """``MIN-MAX`` (or ``N``): how many walls a design may add, or cells it leaves empty."""
    found = _RANGE.fullmatch(text)
    if not found or int(found[2] or found[1]) < int(found[1]):
        raise PuzzleError(text, f"not a number of {what}: MIN-MAX or N, as 0-2")
    return int(found[1]), int(found[2] or found[1])


def space_of(cells: str, pieces: str, goal: str, *, metric: str = "step",
             rules: str = "free", walls: tuple[int, int] = (0, 0)) -> DesignSpace:
    """The space of ``pieces`` (ranges: ``2x2,1x2*0-4,1x1*2-6``; free shapes: ``any1-3``,
    :func:`~huarong.puzzles.specs.parse_design_pieces`) on ``cells`` (``RxC`` or grid text
    with ``#`` walls) with the ``goal`` (``2x2@3,1``): the goal piece is any piece of the
    goal's shape."""
    rows, columns, fixed = parse_cells(cells)
    ranges, groups = parse_design_pieces(pieces, rows, columns, rows * columns - len(fixed))
    shape, goal_row, goal_column = parse_goal(goal)
    kinds = [PieceKind(s, low, high) for s, low, high in ranges]
    goal_kind = next((k for k in kinds if k.shape == shape), None)
    if goal_kind is None:
        raise PuzzleError(goal, f"the goal's shape {shape_name(shape)} is none of the "
                                f"pieces' ({pieces})")
    goal_cells = tuple(sorted((goal_row + r) * columns + goal_column + c for r, c in shape))
    if goal_row + 1 + max(r for r, _ in shape) > rows or goal_column + 1 + max(
            c for _, c in shape) > columns or fixed.intersection(goal_cells):
        raise PuzzleError(goal, f"the goal's piece leaves the {rows}x{columns} board or "
                                "covers a wall")
    first = PieceKind(goal_kind.shape, max(1, goal_kind.low), goal_kind.high)
    ordered = (first, *(k for k in kinds if k is not goal_kind))
    kind_of = {kind.shape: number for number, kind in enumerate(ordered)}
    return DesignSpace(rows, columns, fixed, ordered, goal_cells, check_rules(rules),
                       check_metric(metric), walls,
                       groups=tuple((tuple(kind_of[shape] for shape in shapes), low, high)
                                    for shapes, low, high in groups))


def space_of_puzzle(puzzle: Puzzle, *, walls: tuple[int, int] = (0, 0)) -> DesignSpace:
    """The space of a puzzle's pieces (any shapes, as many as it has) on its board, with its
    goal (one piece's cells), rules and metric."""
    if puzzle.goal is None:
        raise PuzzleError(puzzle.grid, "the puzzle has no goal: give one")
    goal = Grid.read(puzzle.goal)
    letters = sorted(set(goal.cells) - {EMPTY, WALL})
    cells = tuple(cell for cell, glyph in enumerate(goal.cells) if glyph in letters)
    owner = next(c for c, k in enumerate(puzzle.classes) if letters[0] in k.letters)
    if len(letters) != 1 or len(cells) != len(puzzle.classes[owner].shape):
        raise PuzzleError(puzzle.goal, "a design takes a goal of one piece")
    kinds = [PieceKind(k.shape, k.size, k.size, k.distinct) for k in puzzle.classes]
    space = DesignSpace(puzzle.rows, puzzle.columns, puzzle.walls,
                        (kinds[owner], *kinds[:owner], *kinds[owner + 1:]), cells,
                        puzzle.rules, puzzle.metric, walls)
    example = Evaluator(space).design_of(puzzle.board, frozenset(), puzzle.start)
    return dataclasses.replace(space, example=example)


def rush_hour_space(rows: int = 6, columns: int = 6, *,
                    walls: tuple[int, int] = RUSH_HOUR_WALLS) -> DesignSpace:
    """Fogleman's Rush Hour on a ``rows`` x ``columns`` board: the red car (a distinct 1x2)
    on row ``(rows - 1) // 2`` to the right edge, any number of cars (1x2, 2x1) and trucks
    (1x3, 3x1) that fit his lanes, each moved along its length any distance, and ``walls``
    walls (fixed cells; 0-2 in his database).  On his 6x6 board a start is minimal by his
    program's test, on any other by the engine's every-piece test."""
    if min(rows, columns) < 3 or rows * columns > 64:
        raise PuzzleError(f"{rows}x{columns}", "a Rush Hour board has 3 to 8 rows and "
                                               "columns, at most 64 cells")
    red_row = (rows - 1) // 2
    vehicles = [PieceKind(rectangle(1, 2), 1, 1, distinct=True)]
    vehicles += [PieceKind(rectangle(1, length), 0, (rows - 1) * (columns - 1) // length)
                 for length in (2, 3)]
    vehicles += [PieceKind(rectangle(length, 1), 0, (columns) * (rows - 1) // length)
                 for length in (2, 3)]
    return DesignSpace(rows, columns, frozenset(), tuple(vehicles),
                       (red_row * columns + columns - 2, red_row * columns + columns - 1),
                       "length", "slide", walls, lanes=True,
                       minimality="fogleman" if rows == columns == SIDE else "every")
