"""Searches over a puzzle's states: its cluster's state graph, an optimal solution, the
cluster's summary, the verdict of each move from the start and the layer figures."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from huarong.graph import NO_SOLUTION, StateGraph
from huarong.graph.sweeps import FIGURE_COLUMNS
from huarong.graph.verdicts import Verdict, move_verdicts
from huarong.puzzles.answers import ClusterSummary as ClusterSummary
from huarong.puzzles.answers import Move as Move
from huarong.puzzles.answers import PuzzleSolution as PuzzleSolution
from huarong.puzzles.board import Pieces
from huarong.puzzles.grid import DIRECTIONS, PuzzleError
from huarong.puzzles.grid import ClusterTooLarge as ClusterTooLarge
from huarong.puzzles.lane_puzzle import LanePuzzle
from huarong.puzzles.puzzle import Puzzle

Progress = Callable[[str, int, int], None]
"""``progress(phase, done, total)``: states expanded out of states found so far."""

_CHUNK = 1 << 16
"""States expanded between two progress reports (and chances for Ctrl-C)."""

FIGURE_NAMES = FIGURE_COLUMNS
"""The rows of :attr:`PuzzleAnalysis.figures`."""


@dataclass(frozen=True)
class MoveVerdict:
    """A move from the start: the grid it leads ``to``, the ``piece`` and ``direction`` (as in
    :class:`Move`), whether it brings the goal nearer (``verdict``) and the moves left from
    there (``min_steps``); both None when the cluster has no goal.  ``distance`` in cells."""

    to: str
    piece: str
    direction: str
    verdict: Verdict | None
    min_steps: int | None
    distance: int


@dataclass(frozen=True, eq=False)
class PuzzleAnalysis:
    """The layer figures of every state of the start's cluster: ``figures`` (5, states) int64,
    rows named by :data:`FIGURE_NAMES`, columns the nodes of ``graph``."""

    graph: StateGraph
    figures: np.ndarray
    start: int

    def start_figures(self) -> dict[str, int]:
        """The five figures of the start."""
        return {name: int(value) for name, value in
                zip(FIGURE_NAMES, self.figures[:, self.start], strict=True)}


# ----- the breadth-first search -------------------------------------------------------------
_DENSE_SPACE = 1 << 34
"""Puzzles with at most this many codes may keep a big search's found states in a bitset over
all codes (2 GiB at most) instead of the hash table: a perfect index, 12 bytes a state less
and one memory access a look-up."""
_KEPT = 1 << 22
"""The most codes a thread's arrays keep for the next search (32 MiB, and a table of twice
as many slots): a larger search's arrays go with it."""
_SMALLEST_TABLE = 10
"""The bits of a search's first table: a small cluster's stays in cache."""
_DENSE_AFTER = 1 << 20
"""States found before a search moves to the bitset: below it the hash table is small and in
cache, and a small cluster in a large space would pay for a large bitset."""


@dataclass(frozen=True, eq=False)
class _Found:
    codes: np.ndarray
    parents: np.ndarray
    offsets: np.ndarray
    targets: np.ndarray
    goal: int
    layers: list[int]


def _grown(array: np.ndarray, length: int) -> np.ndarray:
    if array.shape[0] == 0 or length <= array.shape[0]:
        return array
    bigger = np.empty(max(length, 2 * array.shape[0]), dtype=array.dtype)
    bigger[:array.shape[0]] = array
    return bigger


class _Arrays(threading.local):
    """A thread's search arrays, kept from one search to the next (a design search makes
    thousands of small ones): the found codes and the hash table, every slot free between
    searches."""

    def __init__(self) -> None:
        self.codes = np.empty(1 << 15, dtype=np.int64)
        self.keys = np.full(1 << 16, -1, dtype=np.int64)  # the kernels' free slot
        self.values = np.empty(1 << 16, dtype=np.int32)


_arrays = _Arrays()


def _search(puzzle: Puzzle, sources: np.ndarray | None = None, *, edges: bool = False,
            parents: bool = False, stop_at_goal: bool = False, limit: int | None = None,
            progress: Progress | None = None, phase: str = "search") -> _Found:
    """Breadth-first from the start (or from the codes ``sources``) over its cluster, or to
    the first goal; :class:`ClusterTooLarge` as soon as it finds more than ``limit`` states.
    ``layers`` of the result: where each distance's states end in ``codes``."""
    from huarong._kernels import cluster as kernels

    tables = puzzle.tables
    most = tables.most
    starts = np.unique(np.array([puzzle.start] if sources is None else sources,
                                dtype=np.int64))
    codes = _grown(_arrays.codes, max(4 * most, 2 * starts.shape[0]))
    codes[:starts.shape[0]] = starts
    bits = max(_SMALLEST_TABLE, (2 * (starts.shape[0] + most)).bit_length())
    keys, values = kernels.table_into(_arrays.keys, _arrays.values, codes, starts.shape[0],
                                      bits)
    dense = np.zeros(0, dtype=np.int64)
    may_go_dense = not (edges or parents) and tables.space <= _DENSE_SPACE
    capacity = codes.shape[0]
    links = np.full(capacity if parents else 0, -1, dtype=np.int32)
    offsets = np.zeros(capacity + 1 if edges else 0, dtype=np.int64)
    targets = np.empty(4 * capacity if edges else 0, dtype=np.int32)
    head, size, count, found = 0, starts.shape[0], 0, -1
    layers: list[int] = []
    layer_end = size
    stop = (1 << 62) if limit is None else limit
    if stop_at_goal and bool(tables.goal_flags(codes[:1])[0]):
        found = 0
    try:
        while found < 0 and head < size:
            head, size, count, found = (int(x) for x in kernels.explore(
                codes, keys, values, bits, dense, head, size, min(head + _CHUNK, layer_end),
                links, offsets, targets, count, *tables.kernel_args(), most, stop_at_goal,
                stop))
            if head == layer_end:
                layers.append(layer_end)
                layer_end = size
            if size > stop:
                raise ClusterTooLarge(puzzle.grid, f"its cluster has more than {stop:,} "
                                                   "states")
            if progress is not None:
                progress(phase, head, size)
            if size + most > codes.shape[0]:
                codes = _grown(codes, size + most)
                links = _grown(links, codes.shape[0])
                offsets = _grown(offsets, codes.shape[0] + 1)
            if may_go_dense and dense.shape[0] == 0 and size >= _DENSE_AFTER:
                dense = kernels.bitset_of(codes, size, (tables.space + 63) // 64)
                kernels.table_free(keys, bits, codes, size)
            elif dense.shape[0] == 0 and size + most > (1 << bits) // 2:
                kernels.table_free(keys, bits, codes, size)
                bits = (2 * (size + most)).bit_length()
                keys, values = kernels.table_into(keys, values, codes, size, bits)
            targets = _grown(targets, count + most)
    finally:
        if dense.shape[0] == 0:
            kernels.table_free(keys, bits, codes, size)
        if codes.shape[0] <= _KEPT:
            _arrays.codes = codes
        if keys.shape[0] <= 2 * _KEPT:
            _arrays.keys, _arrays.values = keys, values
    return _Found(codes[:size].copy(), links[:size], offsets[:head + 1], targets[:count],
                  found, layers)


def cluster_codes(puzzle: Puzzle, *, limit: int | None = None,
            progress: Progress | None = None) -> np.ndarray:
    """The codes of every state reachable from the start (int64, breadth-first order, the
    start first), without the graph's edges: the cheapest search of a whole cluster;
    :class:`ClusterTooLarge` past ``limit`` states."""
    return _search(puzzle, limit=limit, progress=progress).codes


def state_graph(puzzle: Puzzle, *, limit: int | None = None,
                progress: Progress | None = None) -> StateGraph:
    """The state graph of the start's cluster (every state reachable from the start), nodes
    in breadth-first order from the start; :class:`ClusterTooLarge` past ``limit`` states."""
    found = _search(puzzle, edges=True, limit=limit, progress=progress)
    # The offsets and targets are views of the search's larger buffers: copies let those go.
    return StateGraph(found.codes, found.offsets.copy(), found.targets.copy(),
                      puzzle.tables.goal_flags(found.codes), puzzle.geometry)


def puzzle_start_node(puzzle: Puzzle, graph: StateGraph) -> int:
    """The node of the puzzle's start in ``graph``."""
    return graph.index_of(puzzle.start)


def _require_goal(puzzle: Puzzle) -> None:
    if puzzle.goal is None:
        raise PuzzleError(puzzle.grid, "the puzzle has no goal: give one")


# ----- moves between states -----------------------------------------------------------------
def _moves_along(puzzle: Puzzle, codes: list[int]) -> list[tuple[Pieces, Move | None]]:
    """The pieces after each state of a path and the move into it (None for the first); a
    piece keeps its letter along the path."""

    tables = puzzle.tables
    sets = tables.decode(np.array(codes, dtype=np.int64)).tolist()
    pieces = puzzle.board.lettered(codes[0])
    at = {place: letter for letter, place in pieces.items()}
    walked: list[tuple[Pieces, Move | None]] = [(pieces, None)]
    for before, after in itertools.pairwise(sets):
        c = next(c for c in range(len(before)) if before[c] != after[c])
        left = _place(before[c] & ~after[c])
        arrived = _place(after[c] & ~before[c])
        letter = at.pop((c, left))
        at[(c, arrived)] = letter
        pieces = {name: place for place, name in at.items()}
        direction, distance = _direction(puzzle, pieces, c, left, arrived)
        walked.append((pieces, Move(letter, direction, distance, puzzle.board.render(pieces))))
    return walked


def _place(word: int) -> int:
    return (word & -word).bit_length() - 1


def _direction(puzzle: Puzzle, pieces: Pieces, c: int, left: int, arrived: int
               ) -> tuple[str, int]:
    """How a piece went from placement ``left`` to ``arrived`` of class ``c``; for a step,
    the shortest unit moves through the cells the other pieces leave free."""
    tables = puzzle.tables
    first_row, first_column = divmod(tables.placements[c][left][0], puzzle.columns)
    last_row, last_column = divmod(tables.placements[c][arrived][0], puzzle.columns)
    rows, columns = last_row - first_row, last_column - first_column
    if puzzle.metric != "step":
        straight = (("down" if rows > 0 else "up") if rows else
                    ("right" if columns > 0 else "left"))
        return straight, abs(rows) + abs(columns)
    blocked = set(puzzle.walls)
    for k, p in pieces.values():
        if (k, p) != (c, arrived):
            blocked.update(tables.placements[k][p])
    ways: dict[int, list[str]] = {left: []}
    todo = [left]
    for here in todo:
        for d, name in enumerate(DIRECTIONS):
            there = int(tables.moves[c, here, d])
            if there >= 0 and there not in ways and not blocked.intersection(
                    tables.placements[c][there]):
                ways[there] = [*ways[here], name]
                todo.append(there)
    way = ways[arrived]
    return (way[0] if len(set(way)) == 1 else ",".join(way)), len(way)


# ----- answers ------------------------------------------------------------------------------
def solve(puzzle: Puzzle, *, progress: Progress | None = None) -> PuzzleSolution | None:
    """An optimal solution (breadth-first to the nearest goal); None when the start's cluster
    holds no goal; :class:`PuzzleError` when the puzzle has no goal at all.  A Rush Hour
    board beyond the general engine's codes is solved by the lane engine."""
    _require_goal(puzzle)
    if isinstance(puzzle, LanePuzzle):
        return puzzle.solution()
    found = _search(puzzle, parents=True, stop_at_goal=True, progress=progress)
    if found.goal < 0:
        return None
    path = [found.goal]
    while path[-1] != 0:
        path.append(int(found.parents[path[-1]]))
    return _solution_along(puzzle, [int(found.codes[node]) for node in reversed(path)])


def solution_of_graph(puzzle: Puzzle, graph: StateGraph) -> PuzzleSolution | None:
    """An optimal solution read from ``graph``, a state graph of the start's cluster, without
    a search (the path of :meth:`StateGraph.shortest_path`); None when the cluster holds no
    goal.  From :func:`state_graph`'s graph of this puzzle it is :func:`solve`'s solution:
    both number the states in one breadth-first order from the start."""
    _require_goal(puzzle)
    path = graph.shortest_path(puzzle_start_node(puzzle, graph))
    if not path:
        return None
    return _solution_along(puzzle, [int(code) for code in graph.codes[path]])


def _solution_along(puzzle: Puzzle, codes: list[int]) -> PuzzleSolution:
    walked = _moves_along(puzzle, codes)
    moves = [move for _, move in walked if move is not None]
    return PuzzleSolution(len(moves), [puzzle.board.render(walked[0][0])] +
                          [move.grid for move in moves], moves)


def cluster_summary(puzzle: Puzzle, *, limit: int | None = None,
                    progress: Progress | None = None, graph: StateGraph | None = None
                    ) -> ClusterSummary:
    """The start's cluster by two breadth-first searches: the cluster from the start, then
    the distances from all its goals at once (read from ``graph``, the cluster's state graph,
    when it is given); :class:`ClusterTooLarge` past ``limit`` states.  A Rush Hour board
    beyond the general engine's codes is searched by the lane engine."""
    if isinstance(puzzle, LanePuzzle):
        return puzzle.summary(limit=limit)
    if graph is not None:
        return _summary_of_graph(puzzle, graph)
    codes = _search(puzzle, limit=limit, progress=progress).codes
    states, smallest = int(codes.shape[0]), int(codes.min())
    goals = codes[puzzle.tables.goal_flags(codes)]
    del codes
    if not goals.shape[0]:
        return ClusterSummary(puzzle, states, 0, smallest, None, smallest)
    layers = _search(puzzle, goals, progress=progress, phase="distances to the goals")
    farthest = layers.codes[(layers.layers[-2] if len(layers.layers) > 1 else 0):
                            layers.layers[-1]]
    return ClusterSummary(puzzle, states, int(goals.shape[0]), smallest,
                          len(layers.layers) - 1, int(farthest.min()))


def _summary_of_graph(puzzle: Puzzle, graph: StateGraph) -> ClusterSummary:
    smallest = int(graph.codes.min())
    solved = int(np.count_nonzero(graph.goal))
    if not solved:
        return ClusterSummary(puzzle, graph.size, 0, smallest, None, smallest)
    steps = graph.min_steps
    hardest = int(steps.max())
    return ClusterSummary(puzzle, graph.size, solved, smallest, hardest,
                          int(graph.codes[steps == hardest].min()))


def solution_length(puzzle: Puzzle, *, limit: int | None = None) -> int | None:
    """The moves of an optimal solution (breadth-first to the nearest goal), without the
    moves themselves; None when the start's cluster holds no goal; :class:`ClusterTooLarge`
    when more than ``limit`` states are met first."""
    _require_goal(puzzle)
    if isinstance(puzzle, LanePuzzle):
        solution = puzzle.solution(limit=limit)
        return None if solution is None else solution.length
    found = _search(puzzle, stop_at_goal=True, limit=limit)
    if found.goal <= 0:
        return None if found.goal < 0 else 0
    # The goal is found while its parents' layer is expanded, so that layer's end is not
    # listed yet: the goal lies one layer past the last one listed below it.
    return 1 + int(np.searchsorted(np.array(found.layers, dtype=np.int64), found.goal,
                                   side="right"))


def next_moves(puzzle: Puzzle, graph: StateGraph | None = None) -> list[MoveVerdict]:
    """Every move from the start, with its verdict when the cluster holds a goal
    (``graph``: the start's cluster's state graph, searched when not given)."""
    if graph is None:
        graph = state_graph(puzzle)
    verdicts = []
    for node, verdict, left in move_verdicts(graph, puzzle_start_node(puzzle, graph)):
        _, move = _moves_along(puzzle, [puzzle.start, int(graph.codes[node])])[1]
        assert move is not None
        verdicts.append(MoveVerdict(move.grid, move.piece, move.direction, verdict,
                                    None if left == NO_SOLUTION else left, move.distance))
    return verdicts


def analyze(puzzle: Puzzle, *, threads: int | None = None, limit: int | None = None,
            progress: Progress | None = None) -> PuzzleAnalysis:
    """The five layer figures of every state of the start's cluster, by the counts-only
    sweeps of :func:`huarong.graph.sweeps.layer_figures` (CPU); :class:`ClusterTooLarge`
    past ``limit`` states."""
    from huarong.graph.sweeps import layer_figures

    graph = state_graph(puzzle, limit=limit, progress=progress)

    def swept(sources: int, pairs: int) -> None:
        if progress is not None:
            progress("sweeps", sources, graph.size)

    figures = layer_figures(graph, threads=threads, progress=swept)
    return PuzzleAnalysis(graph, figures, puzzle_start_node(puzzle, graph))
