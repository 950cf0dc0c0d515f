"""The 8-puzzle (重排九宫) and N x M sliding-tile puzzles: boards, solvability, Cantor ranks,
ten optimal searches and the fast, not optimal, line-by-line reduction, additive pattern
databases (6-6-3 and 7-8 with reflection for the 15-puzzle), state-space facts.

A :class:`Board` is an immutable value: ``rows x cols`` cells in row order, ``0`` the blank
(:mod:`huarong.npuzzle.board`).  Every search goes through :func:`solve`
(:mod:`huarong.npuzzle.search`), which answers a :class:`SolveResult`
(:mod:`huarong.npuzzle.results`); long searches report progress and keep a time limit
(:mod:`huarong.npuzzle.deepening`); the reduction is :mod:`huarong.npuzzle.reduction`;
the pattern databases live in :mod:`huarong.npuzzle.patterns`.
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
    MAX_COMPACT_TILES,
    MAX_PATTERN_CELLS,
    CompactPatternDatabase,
    PatternDatabase,
    Progress,
    cache_directory,
    compact_entries,
    compact_file_status,
    compact_groups,
    compact_pattern_database,
    compact_pattern_files,
    pattern_database,
    pattern_groups,
)
from huarong.npuzzle.reduction import MAX_REDUCTION_CELLS
from huarong.npuzzle.results import (
    Algorithm,
    Outcome,
    SearchProgress,
    SolveResult,
    StateSpace,
    Watch,
)
from huarong.npuzzle.search import (
    AUTO,
    DEFAULT_DEPTH_BOUND,
    MAX_SPACE_CELLS,
    MEMORY_NODE_LIMIT,
    TIME_NODE_LIMIT,
    best_algorithm,
    compare,
    solve,
    state_space,
)

__all__ = [
    "AUTO",
    "DEFAULT_DEPTH_BOUND",
    "DIRECTIONS",
    "MAX_COMPACT_TILES",
    "MAX_PATTERN_CELLS",
    "MAX_RANKED_CELLS",
    "MAX_REDUCTION_CELLS",
    "MAX_SPACE_CELLS",
    "MEMORY_NODE_LIMIT",
    "TIME_NODE_LIMIT",
    "Algorithm",
    "Board",
    "BoardFormatError",
    "CompactPatternDatabase",
    "GoalMismatchError",
    "NPuzzleError",
    "Outcome",
    "PatternDatabase",
    "Progress",
    "SearchProgress",
    "SolveResult",
    "StateSpace",
    "UnsupportedBoardError",
    "Watch",
    "best_algorithm",
    "cache_directory",
    "compact_entries",
    "compact_file_status",
    "compact_groups",
    "compact_pattern_database",
    "compact_pattern_files",
    "compare",
    "inversions",
    "is_solvable",
    "parse_goal",
    "parse_size",
    "pattern_database",
    "pattern_groups",
    "rank",
    "solve",
    "state_space",
    "unrank",
]
