"""The design spaces ``huarong puzzle design`` is given: the command's specifications
(``--board``, ``--pieces`` with ranges, ``--goal``, ``--walls``), a puzzle's board and pieces,
or M. Fogleman's Rush Hour definitions on a board of any size (the Rush Hour preset's
space, :mod:`huarong.puzzles.presets.rush_hour_design`)."""

from __future__ import annotations

import dataclasses
import re

from huarong.puzzles.design import DesignSpace, PieceKind
from huarong.puzzles.grid import (
    EMPTY,
    WALL,
    Grid,
    PuzzleError,
    check_metric,
    check_rules,
    shape_name,
)
from huarong.puzzles.presets.rush_hour_design import RUSH_HOUR_WALLS, rush_hour_space
from huarong.puzzles.puzzle import Puzzle
from huarong.puzzles.specs import parse_cells, parse_design_pieces, parse_goal

_RANGE = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?")

__all__ = ["RUSH_HOUR_WALLS", "parse_range", "rush_hour_space", "space_of", "space_of_puzzle"]


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
    example = space.design_of(puzzle.board, frozenset(), puzzle.start)
    return dataclasses.replace(space, example=example)
