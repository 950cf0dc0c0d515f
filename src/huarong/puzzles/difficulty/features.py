"""What makes a start hard for a person, measured on its cluster's state graph: the features
of :class:`DifficultyFeatures`, each defined in ``docs/difficulty.md``.

Every figure but the blocking graph and the walk that prefers its pieces is read from the graph
alone (distances from the start and from the goals, and each state's moves), so it means the
same for any puzzle; the blocking graph needs straight pieces that move along their length
(Rush Hour's rules).  The *optimal
region* is the set of states on at least one shortest solution from the start: a state ``v``
with ``from_start[v] + to_goal[v] == optimal_length``; its *optimal moves* take one move off
the distance to the goal and stay in it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from huarong.graph import NO_SOLUTION, StateGraph
from huarong.puzzles.cluster import puzzle_start_node, solution_of_graph, state_graph
from huarong.puzzles.difficulty.blocking import blocking_graph
from huarong.puzzles.difficulty.progress import progress_scores
from huarong.puzzles.difficulty.walk import walk_figures
from huarong.puzzles.grid import PuzzleError
from huarong.puzzles.puzzle import Puzzle


class UnsolvableStart(PuzzleError):
    """The start's cluster holds no goal, so no difficulty can be told."""


@dataclass(frozen=True)
class DifficultyFeatures:
    """The features of one start (definitions in ``docs/difficulty.md``); the blocking
    graph's two and the blocking walk's three (``log_walk_*``) are None for puzzles without
    straight pieces moving along their length."""

    optimal_length: int
    cluster_size: int
    optimal_solutions: float
    optimal_region: int
    mean_moves: float
    mean_optimal_moves: float
    forced_share: float
    narrow_share: float
    blind_bits: float
    trap_share: float
    mean_loss: float
    away_share: float
    away_nearby: float
    max_detour: int
    dead_end_share: float
    tempting_share: float
    mean_blockers: float
    pieces_moved: int
    blocking_size: int | None
    blocking_depth: int | None
    log_walk_moves: float | None
    log_walk_spread: float | None
    log_walk_nearby: float | None

    def as_dict(self) -> dict[str, float | int | None]:
        return asdict(self)


@dataclass(frozen=True, eq=False)
class _Region:
    """The distances that place every state, whether it lies in the optimal region
    (``inside``), and the moves out of the optimal region's states as (source, target)
    arrays: every other move is out of reach of the features that read moves."""

    sources: np.ndarray
    targets: np.ndarray
    to_goal: np.ndarray
    from_start: np.ndarray
    inside: np.ndarray
    length: int

    def optimal_moves(self) -> np.ndarray:
        """Whether each move is an optimal move of the optimal region."""
        chosen: np.ndarray = self.inside[self.targets] & (
            self.to_goal[self.targets] == self.to_goal[self.sources] - 1)
        return chosen


def _region(graph: StateGraph, start: int, from_start: np.ndarray) -> _Region:
    to_goal = graph.min_steps.astype(np.int64)
    from_start = from_start.astype(np.int64)
    length = int(to_goal[start])
    inside = (from_start + to_goal == length) & (from_start >= 0)
    nodes = np.flatnonzero(inside)
    counts = graph.degrees()[nodes]
    # Each chosen node's slice of the targets, gathered by one index array.
    first = np.repeat(graph.offsets[nodes] - np.cumsum(counts) + counts, counts)
    edges = first + np.arange(int(counts.sum()), dtype=np.int64)
    return _Region(np.repeat(nodes, counts), graph.targets[edges].astype(np.int64), to_goal,
                   from_start, inside, length)


def _counted_solutions(region: _Region, optimal: np.ndarray, size: int) -> float:
    """The number of shortest solutions: paths counted layer by layer from the start along
    the optimal moves (a float: they outgrow 64 bits on long puzzles)."""
    paths = np.zeros(size, dtype=np.float64)
    paths[region.from_start == 0] = 1.0
    sources, targets = region.sources[optimal], region.targets[optimal]
    order = np.argsort(region.from_start[sources], kind="stable")
    sources, targets = sources[order], targets[order]
    bounds = np.searchsorted(region.from_start[sources], np.arange(region.length + 1))
    for layer in range(region.length):
        chunk = slice(bounds[layer], bounds[layer + 1])
        np.add.at(paths, targets[chunk], paths[sources[chunk]])
    return float(paths[region.inside & (region.to_goal == 0)].sum())


def _blind_bits(region: _Region, optimal: np.ndarray, degrees: np.ndarray, start: int
                ) -> float:
    """Bits of luck a player needs who picks each move at random among those available:
    ``-log2`` of the chance that such a player follows a shortest solution to its end."""
    chance = np.zeros(degrees.shape[0], dtype=np.float64)
    inside = region.inside
    chance[inside & (region.to_goal == 0)] = 1.0
    sources, targets = region.sources[optimal], region.targets[optimal]
    order = np.argsort(region.to_goal[sources], kind="stable")
    sources, targets = sources[order], targets[order]
    bounds = np.searchsorted(region.to_goal[sources], np.arange(region.length + 2))
    for steps in range(1, region.length + 1):
        chunk = slice(bounds[steps], bounds[steps + 1])
        np.add.at(chance, sources[chunk], chance[targets[chunk]] / degrees[sources[chunk]])
    return -math.log2(chance[start]) if chance[start] > 0 else 0.0


def graph_features(graph: StateGraph, start: int, from_start: np.ndarray, blockers: np.ndarray,
                   score: np.ndarray) -> dict[str, float | int]:
    """The features of the node ``start`` that the state graph gives, with each node's
    moves ``from_start`` (``graph.distances([start])``), ``blockers`` and progress
    ``score`` (:func:`~huarong.puzzles.difficulty.progress.progress_scores`);
    :class:`ValueError` when no goal can be reached from it."""
    if int(graph.min_steps[start]) == NO_SOLUTION:
        raise ValueError(f"node {start}: no goal can be reached from it")
    region = _region(graph, start, from_start)
    degrees = graph.degrees()
    optimal = region.optimal_moves()
    inside = region.inside
    deciding = inside & (region.to_goal > 0)
    optimal_counts = np.bincount(region.sources[optimal], minlength=graph.size)[deciding]
    available = degrees[deciding]
    leaving = deciding[region.sources]
    loss = (region.to_goal[region.targets] - region.to_goal[region.sources] + 1)[leaving]
    looks_good = (score[region.targets] < score[region.sources])[leaving]
    nearby = (region.from_start >= 0) & (region.from_start <= region.length)
    empty = region.length == 0
    return {
        "optimal_length": region.length,
        "cluster_size": graph.size,
        "optimal_solutions": _counted_solutions(region, optimal, graph.size),
        "optimal_region": int(inside.sum()),
        "mean_moves": 0.0 if empty else float(available.mean()),
        "mean_optimal_moves": 0.0 if empty else float(optimal_counts.mean()),
        "forced_share": 0.0 if empty else float((optimal_counts == 1).mean()),
        "narrow_share": 0.0 if empty else float((optimal_counts <= 2).mean()),
        "blind_bits": _blind_bits(region, optimal, degrees, start),
        "trap_share": 0.0 if empty else float((loss > 0).mean()),
        "mean_loss": 0.0 if empty else float(loss.mean()),
        "away_share": float((region.to_goal > region.length).mean()),
        "away_nearby": float((region.to_goal[nearby] > region.length).mean()),
        "max_detour": int(region.to_goal.max()) - region.length,
        "dead_end_share": float((degrees == 1).mean()),
        "tempting_share": (float((loss[looks_good] > 0).mean()) if looks_good.any()
                           else 0.0),
        "mean_blockers": 0.0 if empty else float(blockers[deciding].mean()),
    }


def difficulty_features(puzzle: Puzzle, graph: StateGraph | None = None, *,
                        limit: int | None = None) -> DifficultyFeatures:
    """The features of the puzzle's start, from ``graph`` (its cluster's state graph, searched
    when not given, :class:`~huarong.puzzles.cluster.ClusterTooLarge` past ``limit``
    states); :class:`UnsolvableStart` when its cluster holds no goal."""
    if puzzle.goal is None:
        raise PuzzleError(puzzle.grid, "the puzzle has no goal: give one")
    if graph is None:
        graph = state_graph(puzzle, limit=limit)
    start = puzzle_start_node(puzzle, graph)
    if not graph.solvable:
        raise UnsolvableStart(puzzle.grid, "no goal can be reached from it")
    solution = solution_of_graph(puzzle, graph)
    assert solution is not None
    blocking = blocking_graph(puzzle)
    cells = puzzle.board.cell_pieces(graph.codes)
    blockers, score = progress_scores(puzzle, cells)
    from_start = graph.distances([start])
    walk = walk_figures(puzzle, graph, cells, start, from_start)
    return DifficultyFeatures(
        **graph_features(graph, start, from_start, blockers, score),  # type: ignore[arg-type]
        pieces_moved=len({move.piece for move in solution.moves}),
        blocking_size=None if blocking is None else blocking.size,
        blocking_depth=None if blocking is None else blocking.depth,
        log_walk_moves=None if walk is None else walk.moves,
        log_walk_spread=None if walk is None else walk.spread,
        log_walk_nearby=None if walk is None else walk.nearby)
