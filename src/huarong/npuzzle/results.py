"""What the searches answer: the algorithms, their outcomes, a solve's result, the progress a
long search reports, and the state space's figures."""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from huarong.npuzzle.board import Board


class Algorithm(enum.Enum):
    """The search algorithms; the value is the command-line spelling."""

    BFS = "bfs"
    DFS = "dfs"
    IDDFS = "iddfs"
    ASTAR_MISPLACED = "astar-misplaced"
    ASTAR_MANHATTAN = "astar-manhattan"
    ASTAR_LINEAR = "astar-linear"
    IDASTAR = "idastar"
    BIBFS = "bibfs"
    PDB = "pdb"
    PDB78 = "pdb-7-8"
    REDUCTION = "reduction"

    @property
    def optimal(self) -> bool:
        """Whether a solution found is a shortest one (all but the bounded DFS and the
        line-by-line reduction)."""
        return self not in (Algorithm.DFS, Algorithm.REDUCTION)

    @property
    def title(self) -> str:
        return _TITLES[self]


_TITLES = {
    Algorithm.BFS: "BFS",
    Algorithm.DFS: "DFS (bounded, as in the seed; not optimal)",
    Algorithm.IDDFS: "Iterative-deepening DFS",
    Algorithm.ASTAR_MISPLACED: "A* (misplaced tiles)",
    Algorithm.ASTAR_MANHATTAN: "A* (Manhattan)",
    Algorithm.ASTAR_LINEAR: "A* (Manhattan + linear conflict)",
    Algorithm.IDASTAR: "IDA* (Manhattan + linear conflict)",
    Algorithm.BIBFS: "Bidirectional BFS",
    Algorithm.PDB: "IDA* (additive pattern database)",
    Algorithm.PDB78: "IDA* (7-8 pattern databases + reflection)",
    Algorithm.REDUCTION: "Line-by-line reduction (fast, not optimal)",
}


class Outcome(enum.Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    NOT_FOUND = "not found within the depth bound"
    LIMIT_REACHED = "node limit reached"
    TIME_LIMIT = "time limit reached"


@dataclass(frozen=True)
class SolveResult:
    """What a search found and what it cost.

    ``path`` runs from the start to the goal inclusive (empty unless solved);
    ``nodes_expanded`` counts states whose successors were generated; ``peak_frontier`` is the
    largest open list (BFS queue, A* open entries, both BFS layers, DFS/IDA* stack depth);
    ``seconds`` is the search's wall time, compilation excluded.  ``lower_bound`` is what an
    optimal search proved: no solution is shorter (the length found when solved; when stopped
    at a limit, how far it got; ``None`` for the DFS and the reduction, or when a graph search
    stopped before its first report).  ``fell_back_from`` names the optimal search that ran
    out of time before the line-by-line reduction gave this answer (``solve`` with ``auto``
    and a time limit); ``nodes_expanded`` and ``seconds`` then count both.
    """

    algorithm: Algorithm
    outcome: Outcome
    start: Board
    goal: Board
    path: tuple[Board, ...]
    nodes_expanded: int
    peak_frontier: int
    seconds: float
    lower_bound: int | None = None
    fell_back_from: Algorithm | None = None

    @property
    def solved(self) -> bool:
        return self.outcome is Outcome.SOLVED

    @property
    def optimal(self) -> bool:
        """Whether the path is known to be a shortest one."""
        return self.solved and self.algorithm.optimal

    @property
    def steps(self) -> int | None:
        return len(self.path) - 1 if self.solved else None

    @property
    def moves(self) -> str:
        """The blank's moves as letters ``L U R D``."""
        return moves_along(self.path)


def moves_along(path: Sequence[Board]) -> str:
    """The blank's moves, as letters ``L U R D``, from each board of ``path`` to the next."""
    letters = []
    for before, after in itertools.pairwise(path):
        delta = after.blank - before.blank
        letters.append({-1: "L", -before.cols: "U", 1: "R", before.cols: "D"}[delta])
    return "".join(letters)


@dataclass(frozen=True)
class SearchProgress:
    """How far a running search has got: every solution shorter than ``bound`` has been
    ruled out (0 for the DFS, which rules nothing out); ``nodes`` expanded in ``seconds``."""

    algorithm: Algorithm
    bound: int
    nodes: int
    seconds: float

    @property
    def rate(self) -> float:
        """Nodes expanded a second."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


Watch = Callable[[SearchProgress], None]
"""Called with a :class:`SearchProgress` a few times a second while a search runs."""


@dataclass(frozen=True)
class StateSpace:
    """Every position reachable from ``goal``, counted by distance to it."""

    goal: Board
    reachable: int
    histogram: tuple[int, ...]
    farthest: tuple[Board, ...]

    @property
    def max_distance(self) -> int:
        return len(self.histogram) - 1
