"""The 8-puzzle (重排九宫) and N x M sliding-tile puzzles: boards, solvability, Cantor ranks,
nine search algorithms, additive pattern databases (6-6-3 and 7-8 with reflection for the
15-puzzle), state-space facts.

A :class:`Board` is an immutable value: ``rows x cols`` cells in row order, ``0`` the blank
(:mod:`huarong.npuzzle.board`).  Every search goes through :func:`solve`
(:mod:`huarong.npuzzle.search`); the pattern databases live in :mod:`huarong.npuzzle.patterns`.
Importing this package does not load numba.
"""

from huarong.npuzzle.board import (
    DIRECTIONS,
    MAX_RANKED_CELLS,
    Board,
    BoardFormatError,
    GoalMismatchError,
    NPuzzleError,
    UnsupportedBoardError,
    inversions,
    is_solvable,
    parse_goal,
    parse_size,
    rank,
    unrank,
)
from huarong.npuzzle.patterns import (
    MAX_PATTERN_CELLS,
    PatternDatabase,
    Progress,
    cache_directory,
    pattern_database,
    pattern_groups,
)
from huarong.npuzzle.search import (
    DEFAULT_DEPTH_BOUND,
    MAX_SPACE_CELLS,
    MEMORY_NODE_LIMIT,
    TIME_NODE_LIMIT,
    Algorithm,
    Outcome,
    SolveResult,
    StateSpace,
    compare,
    solve,
    state_space,
)

__all__ = [
    "DEFAULT_DEPTH_BOUND", "DIRECTIONS", "MAX_PATTERN_CELLS", "MAX_RANKED_CELLS",
    "MAX_SPACE_CELLS", "MEMORY_NODE_LIMIT", "TIME_NODE_LIMIT", "Algorithm", "Board",
    "BoardFormatError", "GoalMismatchError", "NPuzzleError", "Outcome", "PatternDatabase",
    "Progress", "SolveResult", "StateSpace", "UnsupportedBoardError", "cache_directory",
    "compare", "inversions", "is_solvable", "parse_goal", "parse_size", "pattern_database",
    "pattern_groups", "rank", "solve", "state_space", "unrank",
]
