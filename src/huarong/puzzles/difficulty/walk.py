"""A player who fiddles with the pieces in the way: a random walk on the start's cluster that
prefers moving the goal piece and the pieces of its blocking graph (:mod:`.blocking`) in the
state it stands in, ``PREFERRED`` times over any other piece's move, until it reaches a solved
state.  Three figures of its moves to a solved state (:class:`WalkFigures`): their expected
number from the start, their spread (standard deviation) from the start, and the median of
their expected number over the states near the start.

People in the Rush Hour study mostly move the cars in the red car's way (four moves in five,
where those cars make two in three of the moves there are), and how many moves they make
orders the puzzles as their times do: the walk is a plain model of that play, with no
parameter fitted to people.  Only puzzles whose every piece is straight and moves along its
length have a blocking graph, so only they have the figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from huarong.graph import StateGraph
from huarong.puzzles.grid import Grid
from huarong.puzzles.puzzle import Puzzle

PREFERRED = 10.0
"""How many times likelier the walk moves a piece of the blocking graph (or the goal piece)
than any other piece."""
TOLERANCE = 1e-6
"""The relative residual at which the linear solves of the walk's moments stop."""
MAX_ROUNDS = 20_000
"""The most rounds of each linear solve."""


class WalkDidNotSettle(ArithmeticError):
    """The linear solve of the walk's expected moves did not reach :data:`TOLERANCE` within
    :data:`MAX_ROUNDS` rounds: a fault of the computation, not of the input, so every tool
    says it in one line (or leaves the one start's difficulty out) rather than guess."""

    def __init__(self, residual: float) -> None:
        self.residual = residual
        super().__init__(f"the blocking walk's expected moves did not settle (a residual of "
                         f"{residual:.3g} after {MAX_ROUNDS:,} rounds, {TOLERANCE:g} needed)")


def blocking_members(puzzle: Puzzle, cells: np.ndarray) -> np.ndarray | None:
    """Whether each piece number (``cells``' numbering, :meth:`~huarong.puzzles.board.
    Board.cell_pieces`) lies in the goal piece's blocking graph in each state: bool (states,
    pieces + 1); None where the puzzle has no blocking graph (its rules do not move pieces
    along their length, a piece is not straight, or the goal names more than one piece)."""
    from huarong._kernels import walk as kernels

    lines = _lines(puzzle)
    if lines is None:
        return None
    members: np.ndarray = kernels.blocking_members(
        np.ascontiguousarray(cells, dtype=np.uint8), *lines, puzzle.rows, puzzle.columns)
    return members


def _lines(puzzle: Puzzle) -> tuple[np.ndarray, int, int, int] | None:
    """(the stride of each piece number's line: 1 along a row, the columns along a column;
    the goal piece's number; its first and last goal cell), None where the puzzle has no
    blocking graph."""
    if puzzle.rules != "length" or puzzle.goal is None:
        return None
    if any(k.straight is None for k in puzzle.classes):
        return None
    goal = Grid.read(puzzle.goal).pieces(puzzle.goal)
    if len(goal) != 1:
        return None
    (letter, targets), = goal.items()
    goal_class = puzzle.board.lettered(puzzle.start)[letter][0]
    if puzzle.classes[goal_class].size != 1:
        return None
    strides = [0]
    for number, piece_class in enumerate(puzzle.classes):
        if number == goal_class:
            goal_piece = len(strides)
        strides += [1 if piece_class.straight == "row" else puzzle.columns] * piece_class.size
    return np.array(strides, dtype=np.int64), goal_piece, min(targets), max(targets)


@dataclass(frozen=True)
class WalkFigures:
    """The blocking walk's moves to a solved state, each as its natural log: ``moves``, the
    expected moves from the start; ``spread``, their standard deviation from the start (at
    least one move); ``nearby``, the median of the expected moves over the unsolved states at
    most the optimal length from the start (where a player who strays a little may stand)."""

    moves: float
    spread: float
    nearby: float


def walk_figures(puzzle: Puzzle, graph: StateGraph, cells: np.ndarray, start: int,
                 from_start: np.ndarray) -> WalkFigures | None:
    """The walk's figures from the node ``start`` of ``graph`` (the puzzle's cluster,
    ``cells`` its states' cells, ``from_start`` each state's moves from the start); None
    where the puzzle has no blocking graph; :class:`WalkDidNotSettle` if a linear solve
    fails to converge."""
    from huarong._kernels import walk as kernels

    lines = _lines(puzzle)
    if lines is None:
        return None
    offsets = np.ascontiguousarray(graph.offsets, dtype=np.int64)
    targets = np.ascontiguousarray(graph.targets, dtype=np.int32)
    solved = np.ascontiguousarray(graph.goal, dtype=np.bool_)
    weights = kernels.walk_weights(np.ascontiguousarray(cells, dtype=np.uint8), offsets,
                                   targets, solved, *lines, puzzle.rows, puzzle.columns,
                                   PREFERRED)
    moves, squares, residual = kernels.walk_moments(offsets, targets, weights, solved,
                                                    TOLERANCE, MAX_ROUNDS)
    if not residual <= TOLERANCE:
        raise WalkDidNotSettle(residual)
    if solved[start]:  # no moves to make
        return WalkFigures(0.0, 0.0, 0.0)
    expected = float(moves[start])
    variance = float(squares[start]) - expected * expected
    near = (from_start >= 0) & (from_start <= int(graph.min_steps[start])) & ~solved
    return WalkFigures(math.log(expected), 0.5 * math.log(max(variance, 1.0)),
                       math.log(float(np.median(moves[near]))))
