"""The search algorithms: BFS, the seed's bounded DFS, IDDFS, A* with three heuristics, IDA*
with linear conflicts or additive pattern databases, bidirectional BFS; and the state space.

Every search goes through :func:`solve`, which checks solvability by inversion parity first
(an unsolvable board is answered at once, never searched) and returns a frozen
:class:`SolveResult`.  The hot loops live in :mod:`huarong._kernels.npuzzle_search` and are
imported only when a search runs, so importing this module does not load numba.
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from huarong.npuzzle.board import (
    DIRECTIONS,
    MAX_RANKED_CELLS,
    Board,
    NPuzzleError,
    UnsupportedBoardError,
    _check_same_size,
    is_solvable,
    parse_goal,
    rank,
    unrank,
)
from huarong.npuzzle.patterns import (
    MAX_PATTERN_CELLS,
    CompactPatternDatabase,
    IntArray,
    PatternDatabase,
    Progress,
    _Geometry,
    _geometry,
    compact_groups,
    compact_pattern_database,
    compact_pattern_files,
    pattern_database,
)

DEFAULT_DEPTH_BOUND = 10
"""The seed program's depth bound for DFS."""

MEMORY_NODE_LIMIT = 10_000_000
"""Default cap on stored states for the searches that keep every state (about 400 MB)."""

TIME_NODE_LIMIT = 1_000_000_000
"""Default cap on expansions for IDDFS and IDA* without a pattern database."""

MAX_SPACE_CELLS = 10
"""Boards up to this many cells (10!/2 = 1,814,400 states) can be enumerated."""


# ---------------------------------------------------------------- results


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

    @property
    def optimal(self) -> bool:
        """Whether a solution found is a shortest one (all but the bounded DFS)."""
        return self is not Algorithm.DFS

    @property
    def title(self) -> str:
        return _TITLES[self]


_TITLES = {
    Algorithm.BFS: "BFS",
    Algorithm.DFS: "DFS (bounded, as in the seed)",
    Algorithm.IDDFS: "Iterative-deepening DFS",
    Algorithm.ASTAR_MISPLACED: "A* (misplaced tiles)",
    Algorithm.ASTAR_MANHATTAN: "A* (Manhattan)",
    Algorithm.ASTAR_LINEAR: "A* (Manhattan + linear conflict)",
    Algorithm.IDASTAR: "IDA* (Manhattan + linear conflict)",
    Algorithm.BIBFS: "Bidirectional BFS",
    Algorithm.PDB: "IDA* (additive pattern database)",
    Algorithm.PDB78: "IDA* (7-8 pattern databases + reflection)",
}


class Outcome(enum.Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    NOT_FOUND = "not found within the depth bound"
    LIMIT_REACHED = "node limit reached"


@dataclass(frozen=True)
class SolveResult:
    """What a search found and what it cost.

    ``path`` runs from the start to the goal inclusive (empty unless solved);
    ``nodes_expanded`` counts states whose successors were generated; ``peak_frontier`` is the
    largest open list (BFS queue, A* open entries, both BFS layers, DFS/IDA* stack depth);
    ``seconds`` is the search's wall time, compilation excluded.
    """

    algorithm: Algorithm
    outcome: Outcome
    start: Board
    goal: Board
    path: tuple[Board, ...]
    nodes_expanded: int
    peak_frontier: int
    seconds: float

    @property
    def solved(self) -> bool:
        return self.outcome is Outcome.SOLVED

    @property
    def steps(self) -> int | None:
        return len(self.path) - 1 if self.solved else None

    @property
    def moves(self) -> str:
        """The blank's moves as letters ``L U R D``."""
        letters = []
        for before, after in zip(self.path, self.path[1:], strict=False):
            delta = after.blank - before.blank
            letters.append({-1: "L", -before.cols: "U", 1: "R", before.cols: "D"}[delta])
        return "".join(letters)


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



def _kernels() -> ModuleType:
    from huarong._kernels import npuzzle_search as kernels

    return kernels


def _board_array(board: Board) -> IntArray:
    return np.array(board.tiles, dtype=np.int64)


def _require_ranked(board: Board, algorithm: Algorithm) -> None:
    if board.cells > MAX_RANKED_CELLS:
        raise UnsupportedBoardError(
            f"board {board.size}: {algorithm.value} keys states by Cantor rank, which fits 64 "
            f"bits only up to {MAX_RANKED_CELLS} cells; use idastar")


def _path_from_keys(keys: IntArray, rows: int, cols: int) -> tuple[Board, ...]:
    return tuple(unrank(int(key), rows, cols) for key in keys)


def _path_from_moves(start: Board, directions: Iterable[int]) -> tuple[Board, ...]:
    path = [start]
    for direction in directions:
        path.append(path[-1].moved(DIRECTIONS[int(direction)]))
    return tuple(path)


_OUTCOME_OF_STATUS = {0: Outcome.SOLVED, 1: Outcome.NOT_FOUND, 2: Outcome.LIMIT_REACHED}
_HEURISTIC_OF = {
    Algorithm.ASTAR_MISPLACED: 1, Algorithm.ASTAR_MANHATTAN: 2, Algorithm.ASTAR_LINEAR: 3,
    Algorithm.IDDFS: 0, Algorithm.IDASTAR: 3, Algorithm.PDB: 4,
}


@dataclass(frozen=True)
class _Search:
    outcome: Outcome
    path: tuple[Board, ...]
    expanded: int
    peak: int


def _run_bfs(start: Board, goal: Board, geometry: _Geometry, max_nodes: int) -> _Search:
    status, keys, parents, _, _, expanded, peak, goal_node = _kernels().breadth_first(
        rank(start), rank(goal), start.cells, geometry.neighbours, geometry.factorials,
        max_nodes)
    if status != 0:
        return _Search(_OUTCOME_OF_STATUS[status], (), int(expanded), int(peak))
    chain = []
    node = int(goal_node)
    while node != -1:
        chain.append(int(keys[node]))
        node = int(parents[node])
    path = _path_from_keys(np.array(chain[::-1], dtype=np.int64), start.rows, start.cols)
    return _Search(Outcome.SOLVED, path, int(expanded), int(peak))


def _run_keyed(kernel_name: str, start: Board, goal: Board, geometry: _Geometry,
               *extra: Any) -> _Search:
    status, keys, expanded, peak = getattr(_kernels(), kernel_name)(
        rank(start), rank(goal), start.cells, geometry.neighbours, geometry.factorials, *extra)
    path = _path_from_keys(keys, start.rows, start.cols) if status == 0 else ()
    return _Search(_OUTCOME_OF_STATUS[int(status)], path, int(expanded), int(peak))


_Iteration = Callable[[IntArray, int, int, IntArray], Any]
"""One bounded pass of IDA*: (board, bound, node budget, moves out) -> the kernel's tuple."""


def _run_iterative_deepening(start: Board, first_bound: int, iteration: _Iteration,
                             max_nodes: int) -> _Search:
    expanded = 0
    deepest = 0
    bound = first_bound
    while True:
        moves = np.zeros(bound + 2, np.int64)
        status, length, next_bound, done, depth = iteration(
            _board_array(start), bound, max_nodes - expanded, moves)
        expanded += int(done)
        deepest = max(deepest, int(depth))
        if status == 0:
            return _Search(Outcome.SOLVED, _path_from_moves(start, moves[:length]), expanded,
                           deepest + 1)
        if status == 2 or next_bound < 0:
            return _Search(Outcome.LIMIT_REACHED if status == 2 else Outcome.NOT_FOUND, (),
                           expanded, deepest + 1)
        bound = int(next_bound)


def _run_ida_star(start: Board, heuristic_kind: int, geometry: _Geometry,
                  tables: tuple[Any, ...], max_nodes: int) -> _Search:
    kernels = _kernels()

    def iteration(board: IntArray, bound: int, budget: int, moves: IntArray) -> Any:
        return kernels.ida_star_iteration(board, geometry.neighbours, heuristic_kind, tables,
                                          geometry.rows, geometry.cols, bound, budget, moves)

    first = int(kernels.heuristic(_board_array(start), heuristic_kind, tables, geometry.rows,
                                  geometry.cols))
    return _run_iterative_deepening(start, first, iteration, max_nodes)


def _run_compact_ida_star(start: Board, geometry: _Geometry,
                          database: CompactPatternDatabase, max_nodes: int) -> _Search:
    kernels = _kernels()
    tables = database.kernel_tables

    def iteration(board: IntArray, bound: int, budget: int, moves: IntArray) -> Any:
        return kernels.compact_ida_star_iteration(board, geometry.neighbours, tables, bound,
                                                  budget, moves)

    first = int(kernels.compact_heuristic(_board_array(start), tables))
    return _run_iterative_deepening(start, first, iteration, max_nodes)


def _search(algorithm: Algorithm, start: Board, goal: Board, depth_bound: int,
            max_nodes: int, progress: Progress | None) -> _Search:
    geometry = _geometry(goal)
    if algorithm is Algorithm.BFS:
        return _run_bfs(start, goal, geometry, max_nodes)
    if algorithm is Algorithm.BIBFS:
        return _run_keyed("bidirectional_breadth_first", start, goal, geometry, max_nodes)
    if algorithm is Algorithm.DFS:
        return _run_keyed("bounded_depth_first", start, goal, geometry, depth_bound, max_nodes)
    if algorithm is Algorithm.PDB78:
        return _run_compact_ida_star(start, geometry,
                                     compact_pattern_database(goal, progress=progress), max_nodes)
    kind = _HEURISTIC_OF[algorithm]
    if algorithm in (Algorithm.ASTAR_MISPLACED, Algorithm.ASTAR_MANHATTAN,
                     Algorithm.ASTAR_LINEAR):
        return _run_keyed("a_star", start, goal, geometry, kind, geometry.tables(),
                          start.rows, start.cols, max_nodes)
    patterns = pattern_database(goal, progress=progress) if algorithm is Algorithm.PDB else None
    return _run_ida_star(start, kind, geometry, geometry.tables(patterns), max_nodes)


_warmed: set[Algorithm] = set()


def _warm_up(algorithm: Algorithm) -> None:
    # Compile (or load from numba's cache) on a one-move 2x2 puzzle so that the timing of the
    # real search measures searching only.  Every kernel is compiled for one signature.
    if algorithm in _warmed:
        return
    goal = Board.solved(2, 2)
    start = goal.moved("L")
    if algorithm is Algorithm.PDB:
        uninformed = PatternDatabase(goal, ((1, 2, 3),), np.array([-1, 0, 0, 0], np.int64),
                                     np.array([0, 0, 1, 2], np.int64),
                                     np.zeros(16**3, np.uint8), np.zeros(1, np.int64))
        _run_ida_star(start, 4, _geometry(goal), _geometry(goal).tables(uninformed), 10)
    elif algorithm is Algorithm.PDB78:
        tiny = compact_pattern_database(goal, ((1, 2, 3),), cache=False)
        _run_compact_ida_star(start, _geometry(goal), tiny, 10)
    else:
        _search(algorithm, start, goal, 1, 10, None)
    _warmed.add(algorithm)


def _default_limit(algorithm: Algorithm) -> int:
    if algorithm in (Algorithm.PDB, Algorithm.PDB78):
        return 2**62
    if algorithm in (Algorithm.IDDFS, Algorithm.IDASTAR):
        return TIME_NODE_LIMIT
    return MEMORY_NODE_LIMIT


AUTO = "auto"
"""Let :func:`solve` choose: see :func:`best_algorithm`."""


def _compact_ready(goal: Board) -> bool:
    try:
        files = compact_pattern_files(goal)
    except UnsupportedBoardError:
        return False
    return all(path.is_file() for _, path in files)


def best_algorithm(board: Board, goal: Board | None = None) -> Algorithm:
    """The fastest optimal search for the board's size: A* with linear conflicts up to 3 x 3,
    IDA* on the 7-8 pattern databases for the 15-puzzle once they are built (``huarong
    npuzzle pdb build``; else the 6-6-3 databases, built in seconds), pattern databases up
    to 16 cells and IDA* with linear conflicts beyond."""
    goal = goal if goal is not None else parse_goal(None, board.rows, board.cols)
    if board.cells <= 9:
        return Algorithm.ASTAR_LINEAR
    if board.cells > MAX_PATTERN_CELLS:
        return Algorithm.IDASTAR
    return Algorithm.PDB78 if _compact_ready(goal) else Algorithm.PDB


def solve(
    board: Board,
    goal: Board | None = None,
    algorithm: Algorithm | str = AUTO,
    *,
    depth_bound: int = DEFAULT_DEPTH_BOUND,
    max_nodes: int | None = None,
    progress: Progress | None = None,
) -> SolveResult:
    """Search a path from ``board`` to ``goal`` (default: :func:`parse_goal`'s default).

    ``depth_bound`` applies to the bounded DFS only; ``max_nodes`` caps stored states (BFS,
    bidirectional BFS, A*, DFS) or expansions (IDDFS, IDA*), with defaults that keep memory
    and time reasonable; ``progress`` follows a first-use pattern-database build.  An
    unsolvable board returns at once with :attr:`Outcome.UNSOLVABLE`.
    """
    goal = goal if goal is not None else parse_goal(None, board.rows, board.cols)
    _check_same_size(goal, board.rows, board.cols)
    try:
        chosen = best_algorithm(board, goal) if algorithm == AUTO else Algorithm(algorithm)
    except ValueError:
        names = ", ".join([AUTO] + [a.value for a in Algorithm])
        raise NPuzzleError(f"algorithm {algorithm!r}: must be one of {names}") from None
    if depth_bound < 0:
        raise NPuzzleError(f"depth bound {depth_bound}: must not be negative")
    if max_nodes is not None and max_nodes < 1:
        raise NPuzzleError(f"node limit {max_nodes}: must be at least 1")
    if chosen in (Algorithm.BFS, Algorithm.BIBFS, Algorithm.DFS, Algorithm.ASTAR_MISPLACED,
                  Algorithm.ASTAR_MANHATTAN, Algorithm.ASTAR_LINEAR):
        _require_ranked(board, chosen)
    if chosen is Algorithm.PDB and board.cells > MAX_PATTERN_CELLS:
        raise UnsupportedBoardError(
            f"board {board.size}: pattern databases cover boards of up to "
            f"{MAX_PATTERN_CELLS} cells; use idastar")
    if chosen is Algorithm.PDB78:
        compact_groups(goal)
    if not is_solvable(board, goal):
        return SolveResult(chosen, Outcome.UNSOLVABLE, board, goal, (), 0, 0, 0.0)
    if board == goal:
        return SolveResult(chosen, Outcome.SOLVED, board, goal, (board,), 0, 1, 0.0)
    if chosen is Algorithm.PDB:
        pattern_database(goal, progress=progress)
    if chosen is Algorithm.PDB78:
        compact_pattern_database(goal, progress=progress)
    _warm_up(chosen)
    began = time.perf_counter()
    found = _search(chosen, board, goal, depth_bound,
                    max_nodes if max_nodes is not None else _default_limit(chosen), progress)
    seconds = time.perf_counter() - began
    return SolveResult(chosen, found.outcome, board, goal, found.path, found.expanded,
                       found.peak, seconds)


def compare(
    board: Board,
    goal: Board | None = None,
    algorithms: Sequence[Algorithm] | None = None,
    *,
    depth_bound: int = DEFAULT_DEPTH_BOUND,
    max_nodes: int | None = None,
    progress: Progress | None = None,
) -> list[SolveResult]:
    """:func:`solve` with each algorithm in turn (default: all that suit the board's size, the
    7-8 databases once built), for the seed's side-by-side comparison."""
    if algorithms is None:
        target = goal if goal is not None else parse_goal(None, board.rows, board.cols)
        algorithms = [a for a in Algorithm
                      if (a is not Algorithm.PDB or board.cells <= MAX_PATTERN_CELLS)
                      and (a is not Algorithm.PDB78 or _compact_ready(target))
                      and (a in (Algorithm.IDDFS, Algorithm.IDASTAR, Algorithm.PDB)
                           or board.cells <= MAX_RANKED_CELLS)]
    return [solve(board, goal, a, depth_bound=depth_bound, max_nodes=max_nodes,
                  progress=progress) for a in algorithms]


# ---------------------------------------------------------------- state space


def state_space(rows: int = 3, cols: int = 3, goal: Board | None = None) -> StateSpace:
    """Breadth-first enumeration of every position that can reach ``goal`` (default
    :func:`parse_goal`'s default for the size), with the count at each distance."""
    goal = goal if goal is not None else parse_goal(None, rows, cols)
    _check_same_size(goal, rows, cols)
    if goal.cells > MAX_SPACE_CELLS:
        raise UnsupportedBoardError(
            f"board {goal.size}: its {math.factorial(goal.cells) // 2:,} reachable states are "
            f"too many to enumerate here (at most {MAX_SPACE_CELLS} cells)")
    geometry = _geometry(goal)
    status, keys, _, depths, count, _, _, _ = _kernels().breadth_first(
        rank(goal), -1, goal.cells, geometry.neighbours, geometry.factorials, 2**62)
    assert status == 1
    depths = depths[:count]
    histogram = np.bincount(depths)
    farthest_keys = keys[:count][depths == histogram.size - 1]
    farthest = tuple(sorted((unrank(int(k), rows, cols) for k in farthest_keys),
                            key=lambda b: b.tiles))
    return StateSpace(goal, int(count), tuple(int(n) for n in histogram), farthest)

