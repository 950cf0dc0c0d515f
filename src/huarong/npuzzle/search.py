"""The search algorithms: BFS, the seed's bounded DFS, IDDFS, A* with three heuristics, IDA*
with linear conflicts or additive pattern databases, bidirectional BFS, the fast but not
optimal line-by-line reduction; and the state space.

Every search goes through :func:`solve`, which checks solvability by inversion parity first
(an unsolvable board is answered at once, never searched) and returns a frozen
:class:`SolveResult`.  The hot loops live in the ``huarong._kernels.npuzzle_*`` modules and
are imported only when a search runs, so importing this module does not load numba.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np

from huarong.npuzzle import reduction
from huarong.npuzzle.board import (
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
from huarong.npuzzle.deepening import Found, Limits, compact_ida_star, ida_star, watched
from huarong.npuzzle.patterns import (
    MAX_PATTERN_CELLS,
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
from huarong.npuzzle.results import (
    Algorithm,
    Outcome,
    SolveResult,
    StateSpace,
    Watch,
    moves_along,
)

DEFAULT_DEPTH_BOUND = 10
"""The seed program's depth bound for DFS."""

MEMORY_NODE_LIMIT = 10_000_000
"""Default cap on stored states for the searches that keep every state (about 400 MB)."""

TIME_NODE_LIMIT = 1_000_000_000
"""Default cap on expansions for IDDFS and IDA* without a pattern database (a minute or
so; pass ``max_nodes`` or a ``time_limit`` instead for a longer search)."""

MAX_SPACE_CELLS = 10
"""Boards up to this many cells (10!/2 = 1,814,400 states) can be enumerated."""


def _graph_kernels() -> ModuleType:
    from huarong._kernels import npuzzle_graph as kernels

    return kernels


def _require_ranked(board: Board, algorithm: Algorithm) -> None:
    if board.cells > MAX_RANKED_CELLS:
        raise UnsupportedBoardError(
            f"board {board.size}: {algorithm.value} keys states by Cantor rank, which fits 64 "
            f"bits only up to {MAX_RANKED_CELLS} cells; use idastar or reduction")


def _path_from_keys(keys: IntArray, rows: int, cols: int) -> tuple[Board, ...]:
    return tuple(unrank(int(key), rows, cols) for key in keys)


_OUTCOME_OF_STATUS = {0: Outcome.SOLVED, 1: Outcome.NOT_FOUND, 2: Outcome.LIMIT_REACHED,
                      4: Outcome.TIME_LIMIT}
_HEURISTIC_OF = {
    Algorithm.ASTAR_MISPLACED: 1, Algorithm.ASTAR_MANHATTAN: 2, Algorithm.ASTAR_LINEAR: 3,
    Algorithm.IDDFS: 0, Algorithm.IDASTAR: 3, Algorithm.PDB: 4,
}


def _run_bfs(start: Board, goal: Board, geometry: _Geometry, limits: Limits) -> Found:
    (status, keys, parents, _, _, expanded, peak, goal_node), bound = watched(
        lambda control: _graph_kernels().breadth_first(
            rank(start), rank(goal), start.cells, geometry.neighbours, geometry.factorials,
            limits.max_nodes, control), limits)
    if status != 0:
        return Found(_OUTCOME_OF_STATUS[status], (), int(expanded), int(peak), bound)
    chain = []
    node = int(goal_node)
    while node != -1:
        chain.append(int(keys[node]))
        node = int(parents[node])
    path = _path_from_keys(np.array(chain[::-1], dtype=np.int64), start.rows, start.cols)
    return Found(Outcome.SOLVED, path, int(expanded), int(peak), len(path) - 1)


def _run_keyed(kernel_name: str, start: Board, goal: Board, geometry: _Geometry,
               limits: Limits, *extra: Any) -> Found:
    kernel = getattr(_graph_kernels(), kernel_name)
    (status, keys, expanded, peak), bound = watched(
        lambda control: kernel(rank(start), rank(goal), start.cells, geometry.neighbours,
                               geometry.factorials, *extra, limits.max_nodes, control), limits)
    path = _path_from_keys(keys, start.rows, start.cols) if status == 0 else ()
    if not limits.algorithm.optimal:
        bound = None
    elif status == 0:
        bound = len(path) - 1
    return Found(_OUTCOME_OF_STATUS[int(status)], path, int(expanded), int(peak), bound)


def _run_reduction(start: Board, goal: Board) -> Found:
    reduced = reduction.reduce_lines(start, goal)
    region_start, region_goal = reduction.region_boards(reduced, goal)
    finish = _search(Algorithm.ASTAR_LINEAR, region_start, region_goal, 0,
                     Limits(Algorithm.ASTAR_LINEAR, MEMORY_NODE_LIMIT, time.perf_counter()),
                     None)
    assert finish.outcome is Outcome.SOLVED, "a solvable board leaves a solvable rectangle"
    moves = reduced.moves + moves_along(finish.path)
    return Found(Outcome.SOLVED, reduction.without_loops(start, moves),
                 reduced.expanded + finish.expanded, max(reduced.peak, finish.peak))


def _search(algorithm: Algorithm, start: Board, goal: Board, depth_bound: int,
            limits: Limits, progress: Progress | None) -> Found:
    geometry = _geometry(goal)
    if algorithm is Algorithm.REDUCTION:
        return _run_reduction(start, goal)
    if algorithm is Algorithm.BFS:
        return _run_bfs(start, goal, geometry, limits)
    if algorithm is Algorithm.BIBFS:
        return _run_keyed("bidirectional_breadth_first", start, goal, geometry, limits)
    if algorithm is Algorithm.DFS:
        return _run_keyed("bounded_depth_first", start, goal, geometry, limits, depth_bound)
    if algorithm is Algorithm.PDB78:
        return compact_ida_star(start, geometry,
                                compact_pattern_database(goal, progress=progress), limits)
    kind = _HEURISTIC_OF[algorithm]
    if algorithm in (Algorithm.ASTAR_MISPLACED, Algorithm.ASTAR_MANHATTAN,
                     Algorithm.ASTAR_LINEAR):
        return _run_keyed("a_star", start, goal, geometry, limits, kind, geometry.tables(),
                          start.rows, start.cols)
    patterns = pattern_database(goal, progress=progress) if algorithm is Algorithm.PDB else None
    return ida_star(start, kind, geometry, geometry.tables(patterns), limits)


_warmed: set[Algorithm] = set()


def _warm_up(algorithm: Algorithm) -> None:
    # Compile (or load from numba's cache) on a small puzzle so that the timing of the real
    # search measures searching only.  Every kernel is compiled for one signature.
    if algorithm in _warmed:
        return
    goal = Board.solved(2, 2)
    start = goal.moved("L")
    limits = Limits(algorithm, 10, time.perf_counter())
    if algorithm is Algorithm.PDB:
        uninformed = PatternDatabase(goal, ((1, 2, 3),), np.array([-1, 0, 0, 0], np.int64),
                                     np.array([0, 0, 1, 2], np.int64),
                                     np.zeros(16**3, np.uint8), np.zeros(1, np.int64))
        ida_star(start, 4, _geometry(goal), _geometry(goal).tables(uninformed), limits)
    elif algorithm is Algorithm.PDB78:
        tiny = compact_pattern_database(goal, ((1, 2, 3),), cache=False)
        compact_ida_star(start, _geometry(goal), tiny, limits)
    elif algorithm is Algorithm.REDUCTION:
        # 2 x 2 leaves nothing to reduce: a 4 x 2 board peels one row.
        _search(algorithm, Board.solved(4, 2).moved("U"), Board.solved(4, 2), 1, limits, None)
    else:
        _search(algorithm, start, goal, 1, limits, None)
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
    """The fastest search for the board's size: optimal ones up to 4 x 4 (A* with linear
    conflicts up to 3 x 3, IDA* on the 7-8 pattern databases for the 15-puzzle once they are
    built with ``huarong npuzzle pdb build``, else on the 6-6-3 databases, built in seconds),
    and beyond 16 cells, where an optimal search can take hours, the line-by-line reduction,
    which is fast but not optimal."""
    goal = goal if goal is not None else parse_goal(None, board.rows, board.cols)
    if board.cells <= 9:
        return Algorithm.ASTAR_LINEAR
    if board.cells > MAX_PATTERN_CELLS:
        return Algorithm.REDUCTION
    return Algorithm.PDB78 if _compact_ready(goal) else Algorithm.PDB


def _chosen(board: Board, goal: Board, algorithm: Algorithm | str) -> Algorithm:
    """The algorithm ``solve`` runs, once its input is known to suit it."""
    try:
        chosen = best_algorithm(board, goal) if algorithm == AUTO else Algorithm(algorithm)
    except ValueError:
        names = ", ".join([AUTO] + [a.value for a in Algorithm])
        raise NPuzzleError(f"algorithm {algorithm!r}: must be one of {names}") from None
    if chosen in (Algorithm.BFS, Algorithm.BIBFS, Algorithm.DFS, Algorithm.ASTAR_MISPLACED,
                  Algorithm.ASTAR_MANHATTAN, Algorithm.ASTAR_LINEAR):
        _require_ranked(board, chosen)
    if chosen is Algorithm.PDB and board.cells > MAX_PATTERN_CELLS:
        raise UnsupportedBoardError(
            f"board {board.size}: pattern databases cover boards of up to "
            f"{MAX_PATTERN_CELLS} cells; use idastar or reduction")
    if chosen is Algorithm.PDB78:
        compact_groups(goal)
    if chosen is Algorithm.REDUCTION or algorithm == AUTO:
        reduction.check_size(board)
    return chosen


def solve(
    board: Board,
    goal: Board | None = None,
    algorithm: Algorithm | str = AUTO,
    *,
    depth_bound: int = DEFAULT_DEPTH_BOUND,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
    watch: Watch | None = None,
) -> SolveResult:
    """Search a path from ``board`` to ``goal`` (default: :func:`parse_goal`'s default).

    ``depth_bound`` applies to the bounded DFS only; ``max_nodes`` caps stored states (BFS,
    bidirectional BFS, A*, DFS) or expansions (IDDFS, IDA*), with defaults that keep memory
    and time reasonable; ``progress`` follows a first-use pattern-database build.  An
    unsolvable board returns at once with :attr:`Outcome.UNSOLVABLE`.

    Every search but the reduction (which takes well under a second up to 11 x 11) calls
    ``watch`` about five times a second with its progress (from the first 4,096 expansions
    on, for the graph searches) and stops with :attr:`Outcome.TIME_LIMIT` after
    ``time_limit`` seconds of searching (within about a fifth of a second; loading pattern
    databases and a first compilation come before and are not counted), what it ruled out in
    :attr:`SolveResult.lower_bound`.  With ``auto`` a search that runs out of time gives way
    to the line-by-line reduction, whose answer is not optimal (see
    :attr:`SolveResult.fell_back_from`).  Ctrl-C (``KeyboardInterrupt``) stops a search as
    quickly.
    """
    goal = goal if goal is not None else parse_goal(None, board.rows, board.cols)
    _check_same_size(goal, board.rows, board.cols)
    chosen = _chosen(board, goal, algorithm)
    if depth_bound < 0:
        raise NPuzzleError(f"depth bound {depth_bound}: must not be negative")
    if max_nodes is not None and max_nodes < 1:
        raise NPuzzleError(f"node limit {max_nodes}: must be at least 1")
    if time_limit is not None and not time_limit > 0:
        raise NPuzzleError(f"time limit {time_limit}: must be a positive number of seconds")
    if not is_solvable(board, goal):
        return SolveResult(chosen, Outcome.UNSOLVABLE, board, goal, (), 0, 0, 0.0)
    if board == goal:
        return SolveResult(chosen, Outcome.SOLVED, board, goal, (board,), 0, 1, 0.0, 0)
    if chosen is Algorithm.PDB:
        pattern_database(goal, progress=progress)
    if chosen is Algorithm.PDB78:
        compact_pattern_database(goal, progress=progress)
    _warm_up(chosen)
    searching = time.perf_counter()
    limits = Limits(chosen, max_nodes if max_nodes is not None else _default_limit(chosen),
                    searching, None if time_limit is None else searching + time_limit, watch)
    found = _search(chosen, board, goal, depth_bound, limits, progress)
    if found.outcome is Outcome.TIME_LIMIT and algorithm == AUTO:
        _warm_up(Algorithm.REDUCTION)
        fallback = _run_reduction(board, goal)
        return SolveResult(Algorithm.REDUCTION, fallback.outcome, board, goal, fallback.path,
                           found.expanded + fallback.expanded, max(found.peak, fallback.peak),
                           time.perf_counter() - searching, found.bound, chosen)
    return SolveResult(chosen, found.outcome, board, goal, found.path, found.expanded,
                       found.peak, time.perf_counter() - searching, found.bound)


def compare(
    board: Board,
    goal: Board | None = None,
    algorithms: Sequence[Algorithm] | None = None,
    *,
    depth_bound: int = DEFAULT_DEPTH_BOUND,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
    watch: Watch | None = None,
) -> list[SolveResult]:
    """:func:`solve` with each algorithm in turn (default: all that suit the board's size, the
    7-8 databases once built), for the seed's side-by-side comparison; ``time_limit`` holds
    for each search."""
    if algorithms is None:
        target = goal if goal is not None else parse_goal(None, board.rows, board.cols)
        algorithms = [a for a in Algorithm
                      if (a is not Algorithm.PDB or board.cells <= MAX_PATTERN_CELLS)
                      and (a is not Algorithm.PDB78 or _compact_ready(target))
                      and (a is not Algorithm.REDUCTION
                           or board.cells <= reduction.MAX_REDUCTION_CELLS)
                      and (a in (Algorithm.IDDFS, Algorithm.IDASTAR, Algorithm.PDB,
                                 Algorithm.REDUCTION)
                           or board.cells <= MAX_RANKED_CELLS)]
    return [solve(board, goal, a, depth_bound=depth_bound, max_nodes=max_nodes,
                  time_limit=time_limit, progress=progress, watch=watch) for a in algorithms]


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
    status, keys, _, depths, count, _, _, _ = _graph_kernels().breadth_first(
        rank(goal), -1, goal.cells, geometry.neighbours, geometry.factorials, 2**62,
        np.zeros(3, np.int64))
    assert status == 1
    depths = depths[:count]
    histogram = np.bincount(depths)
    farthest_keys = keys[:count][depths == histogram.size - 1]
    farthest = tuple(sorted((unrank(int(k), rows, cols) for k in farthest_keys),
                            key=lambda b: b.tiles))
    return StateSpace(goal, int(count), tuple(int(n) for n in histogram), farthest)

