"""What the searches of a puzzle answer, whichever engine searched it: an optimal solution
and its moves, and the summary of the start's cluster."""

from __future__ import annotations

from dataclasses import dataclass, field

from huarong.puzzles.puzzle import Puzzle, format_state


@dataclass(frozen=True)
class Move:
    """One move: the ``piece`` (its letter in the grid before the move), its ``direction``
    (up, down, left, right; for a step that turns, the unit moves joined by commas, as
    ``right,down``), ``distance`` in cells and the ``grid`` after it."""

    piece: str
    direction: str
    distance: int
    grid: str


@dataclass(frozen=True)
class PuzzleSolution:
    """An optimal solution: ``length`` moves, the ``path`` of grids (start first, goal last)
    and the ``moves``; a piece keeps its letter along the path."""

    length: int
    path: list[str]
    moves: list[Move]


@dataclass(frozen=True)
class ClusterSummary:
    """What a search of the start's whole cluster tells: its ``states``, ``solved`` states,
    ``smallest`` code (the cluster's canonical state), the ``hardest_length`` (None: no goal
    in the cluster) and ``hardest`` code (the smallest code of the states farthest from any
    goal; without a goal, the smallest code)."""

    puzzle: Puzzle = field(repr=False, compare=False)
    states: int
    solved: int
    smallest: int
    hardest_length: int | None
    hardest: int

    @property
    def hardest_start(self) -> str | None:
        """The hardest state's grid; None when the cluster holds no goal."""
        return None if self.hardest_length is None else format_state(self.puzzle, self.hardest)
