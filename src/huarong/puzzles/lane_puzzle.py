"""Rush Hour puzzles beyond the general engine's codes: boards of straight vehicles (rules
``length``), one of them the goal, with more placements than the general engine ranks in 63
bits (:class:`~huarong.puzzles.tables.TooManyPlacements`), as the full 7x7 and 8x8 boards
of the design records.

:func:`lane_puzzle` reads one into a :class:`LanePuzzle`, whose cluster and optimal
solution come from the lane engine (:mod:`huarong.puzzles.lanes`): the general functions
(:func:`~huarong.puzzles.cluster.cluster_summary`, :func:`~huarong.puzzles.cluster.solve`,
:func:`~huarong.puzzles.cluster.solution_length`) hand such a puzzle to it, with the same
answers the general engine gives where both can search.  Every other tool reads the
general engine's codes through the board's tables, which refuse the board with
:class:`~huarong.puzzles.tables.TooManyPlacements`: one line, naming the board.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from huarong.puzzles.answers import ClusterSummary, Move, PuzzleSolution
from huarong.puzzles.board import Board
from huarong.puzzles.grid import EMPTY, WALL, Grid, join_rows, shape_of
from huarong.puzzles.lanes import LaneBoard, LaneSearch, lane_solution, vehicle_cells
from huarong.puzzles.puzzle import Puzzle, puzzle_of
from huarong.puzzles.tables import TooManyPlacements

POSITION_BITS = 3
"""The bits of one vehicle's position in a :class:`LanePuzzle`'s state: a lane has at most
8 cells."""
_NO_LIMIT = 1 << 40


@dataclass(frozen=True)
class Lanes:
    """Where a lane puzzle's vehicles move: their ``letters`` (the goal vehicle's first, then
    each class's in the board's class order), each one's ``lane`` (whether vertical, its
    row or column, its length) and ``piece_class`` (its class on the board), the goal
    vehicle's ``target`` position and whether a move is one cell (``unit``)."""

    letters: tuple[str, ...]
    lane: tuple[tuple[bool, int, int], ...]
    piece_class: tuple[int, ...]
    target: int
    unit: bool


@dataclass(frozen=True)
class LanePuzzle(Puzzle):
    """A puzzle the lane engine searches for the general engine (see the module).  Its
    states (the ``start`` too) are its vehicles' positions along their lanes,
    :data:`POSITION_BITS` bits each, the first vehicle of :attr:`lanes` lowest."""

    lanes: Lanes = field(kw_only=True)

    def positions_of(self, state: int) -> tuple[int, ...]:
        """The vehicles' positions in the state ``state``."""
        mask = (1 << POSITION_BITS) - 1
        return tuple((state >> (POSITION_BITS * v)) & mask
                     for v in range(len(self.lanes.letters)))

    @staticmethod
    def state_of(positions: Sequence[int]) -> int:
        """The state of the vehicles at ``positions``."""
        return sum(p << (POSITION_BITS * v) for v, p in enumerate(positions))

    def lane_board(self, state: int | None = None) -> LaneBoard:
        """The lane engine's board at the state ``state`` (None: the start)."""
        positions = self.positions_of(self.start if state is None else state)
        vehicles = tuple((vertical, lane, length, position) for (vertical, lane, length),
                         position in zip(self.lanes.lane, positions, strict=True))
        ranked = sorted(range(len(vehicles)), key=lambda v: self.lanes.piece_class[v])
        class_end = tuple(end + 1 for end, (here, after) in enumerate(
            itertools.pairwise([self.lanes.piece_class[v] for v in ranked] + [-1]))
            if here != after)
        return LaneBoard(self.rows, self.columns, self.walls, vehicles, class_end,
                         self.lanes.target, self.lanes.unit, tuple(ranked))

    def _cells(self, vehicle: int, position: int) -> list[int]:
        return vehicle_cells(self.columns, *self.lanes.lane[vehicle], position)

    def _render(self, positions: Sequence[int], letters: Sequence[str]) -> str:
        cells = [WALL if cell in self.walls else EMPTY for cell in range(self.cells)]
        for vehicle, (position, letter) in enumerate(zip(positions, letters, strict=True)):
            for cell in self._cells(vehicle, position):
                cells[cell] = letter
        return join_rows(cells, self.columns)

    def grid_of(self, state: int) -> str:
        """Grid text of ``state``, each class's vehicles lettered in the order of their
        anchor cells, as the general engine letters its states."""
        positions = self.positions_of(state)
        letters = list(self.lanes.letters)
        for c, piece in enumerate(self.classes):
            members = [v for v in range(len(letters)) if self.lanes.piece_class[v] == c]
            members.sort(key=lambda v: self._cells(v, positions[v])[0])
            for v, letter in zip(members, piece.letters, strict=True):
                letters[v] = letter
        return self._render(positions, letters)

    def with_options(self, *, goal: str | None = None, metric: str | None = None,
                     rules: str | None = None) -> Puzzle:
        board = self.board.with_options(goal=goal, metric=metric, rules=rules)
        positions = self.positions_of(self.start)
        pieces = {letter: tuple(self._cells(v, positions[v]))
                  for v, letter in enumerate(self.lanes.letters)}
        found = lane_puzzle(board, pieces)
        if found is None:  # no longer Rush Hour's: the general engine's refusal
            return puzzle_of(board, pieces, self.grid)
        return dataclasses.replace(found, name=self.name, title=self.title,
                                   source=self.source)

    def summary(self, *, limit: int | None = None) -> ClusterSummary:
        """The start's cluster, as :func:`~huarong.puzzles.cluster.cluster_summary` gives it
        (``smallest``: the lane engine's canonical state, its smallest key);
        :class:`~huarong.puzzles.cluster.ClusterTooLarge` past ``limit`` states."""
        profile = LaneSearch().profile(self.lane_board(),
                                       limit=_NO_LIMIT if limit is None else limit)
        solved = profile.hardest_length >= 0
        return ClusterSummary(self, profile.states, profile.solved,
                              self.state_of(profile.smallest),
                              profile.hardest_length if solved else None,
                              self.state_of(profile.hardest))

    def solution(self, *, limit: int | None = None) -> PuzzleSolution | None:
        """An optimal solution, as :func:`~huarong.puzzles.cluster.solve` gives it (each
        vehicle keeps its letter along the path); None when the cluster holds no solved
        state; :class:`~huarong.puzzles.cluster.ClusterTooLarge` when more than ``limit``
        states are met first."""
        path = lane_solution(self.lane_board(), limit=_NO_LIMIT if limit is None else limit)
        if path is None:
            return None
        letters = self.lanes.letters
        moves = []
        for before, after in itertools.pairwise(path):
            v = next(v for v in range(len(letters)) if before[v] != after[v])
            step = after[v] - before[v]
            vertical = self.lanes.lane[v][0]
            direction = ("down" if step > 0 else "up") if vertical else (
                "right" if step > 0 else "left")
            moves.append(Move(letters[v], direction, abs(step), self._render(after, letters)))
        return PuzzleSolution(len(moves), [self._render(path[0], letters)] +
                              [move.grid for move in moves], moves)


def lane_puzzle(board: Board, pieces: dict[str, tuple[int, ...]]) -> LanePuzzle | None:
    """The lane puzzle of ``board`` whose start has these ``pieces`` (letter -> cells); None
    when it is not a board of straight vehicles moving along their length of at most 8x8
    cells.  :class:`~huarong.puzzles.tables.TooManyPlacements` naming the goal when it is
    not one vehicle, alone of its class, on its own lane (what the lane engine takes)."""
    if board.rules != "length" or max(board.rows, board.columns) > 8 or any(
            piece.straight is None for piece in board.classes):
        return None
    class_of = {letter: c for c, piece in enumerate(board.classes) for letter in piece.letters}
    goal_letter, target = _goal_of(board, class_of, pieces)
    letters = (goal_letter, *(letter for piece in board.classes for letter in piece.letters
                              if letter != goal_letter))
    lanes, positions = [], []
    for letter in letters:
        vertical = board.classes[class_of[letter]].straight == "column"
        row, column = divmod(min(pieces[letter]), board.columns)
        lanes.append((vertical, column if vertical else row, len(pieces[letter])))
        positions.append(row if vertical else column)
    found = LanePuzzle(board, LanePuzzle.state_of(positions), lanes=Lanes(
        letters, tuple(lanes), tuple(class_of[letter] for letter in letters), target,
        board.metric == "unit"))
    found.lane_board()  # the lane engine's own checks of the board
    return found


def _goal_of(board: Board, class_of: dict[str, int], pieces: dict[str, tuple[int, ...]]
             ) -> tuple[str, int]:
    """The goal vehicle's letter and its target position along its lane."""
    refused = TooManyPlacements(str(board.goal), "the board's placements cannot be ranked in "
                                                 "63 bits, and the lane engine (Rush Hour) "
                                                 "takes a goal of one vehicle, alone of its "
                                                 "class (mark it distinct), on its own lane")
    if board.goal is None:
        raise refused
    goal = Grid.read(board.goal)
    named = set(goal.cells) - {EMPTY, WALL}
    if (goal.rows, goal.columns) != (board.rows, board.columns) or len(named) != 1:
        raise refused
    letter = named.pop()
    if letter not in class_of or board.classes[class_of[letter]].size != 1:
        raise refused
    cells = [cell for cell, glyph in enumerate(goal.cells) if glyph == letter]
    shape, anchor = shape_of(cells, board.columns)
    start_shape, start_anchor = shape_of(pieces[letter], board.columns)
    row, column = divmod(anchor, board.columns)
    start_row, start_column = divmod(start_anchor, board.columns)
    vertical = board.classes[class_of[letter]].straight == "column"
    if shape != start_shape or (column != start_column if vertical else row != start_row):
        raise refused
    return letter, row if vertical else column
