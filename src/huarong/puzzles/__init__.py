"""Any sliding-block puzzle: board, pieces, goal, rule and metric, and its state graph.

One engine for every puzzle of the model (see the Puzzles page of the docs): read a puzzle
(a :class:`Board` and a start) with :func:`load_puzzle`, search its start's cluster with
:func:`solve`, :func:`cluster_summary`, :func:`cluster_codes`, :func:`state_graph`,
:func:`next_moves` and :func:`analyze`.  :mod:`~huarong.puzzles.exhaustive` searches every
placement of a board's pieces, :mod:`~huarong.puzzles.presets` other authors' searches, and
:mod:`~huarong.puzzles.results` their result files.  The numba kernels are in
:mod:`huarong._kernels.cluster`.
"""

from huarong.puzzles.board import Board
from huarong.puzzles.cluster import (
    FIGURE_NAMES,
    ClusterSummary,
    ClusterTooLarge,
    Move,
    MoveVerdict,
    PuzzleAnalysis,
    PuzzleSolution,
    analyze,
    cluster_codes,
    cluster_summary,
    next_moves,
    puzzle_start_node,
    solution_of_graph,
    solve,
    state_graph,
)
from huarong.puzzles.grid import Metric, PieceClass, PuzzleError, Rules
from huarong.puzzles.notation import (
    CatalogueEntry,
    catalogue,
    catalogue_entry,
    load_puzzle,
)
from huarong.puzzles.puzzle import Puzzle, format_state, parse_state

__all__ = [
    "FIGURE_NAMES",
    "Board",
    "CatalogueEntry",
    "ClusterSummary",
    "ClusterTooLarge",
    "Metric",
    "Move",
    "MoveVerdict",
    "PieceClass",
    "Puzzle",
    "PuzzleAnalysis",
    "PuzzleError",
    "PuzzleSolution",
    "Rules",
    "analyze",
    "catalogue",
    "catalogue_entry",
    "cluster_codes",
    "cluster_summary",
    "format_state",
    "load_puzzle",
    "next_moves",
    "parse_state",
    "puzzle_start_node",
    "solution_of_graph",
    "solve",
    "state_graph",
]
