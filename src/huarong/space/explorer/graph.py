"""One group's step graph for pictures: nodes in code order (node ``i`` is the layout with
``group_index`` ``i``, docs §4), neighbours in CSR form, the minimum steps of every node, and
breadth-first distances and shortest paths over it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from huarong.engine.layout import Layout

NO_SOLUTION = -1
"""``min_steps`` of a node whose group holds no goal layout."""


@dataclass(frozen=True, eq=False)
class StepGraph:
    """A group's step graph: ``codes`` ascending (int64), the neighbours of node ``i`` are
    ``targets[offsets[i]:offsets[i + 1]]`` (int64 offsets, int32 targets, every step in both
    directions), and ``min_steps`` (int16, :data:`NO_SOLUTION` when the group holds no
    goal)."""

    codes: np.ndarray
    offsets: np.ndarray
    targets: np.ndarray
    min_steps: np.ndarray

    @property
    def size(self) -> int:
        return int(self.codes.shape[0])

    @property
    def seed(self) -> int:
        """The group's smallest code."""
        return int(self.codes[0])

    @property
    def edge_count(self) -> int:
        """Steps, each counted once."""
        return int(self.targets.shape[0]) // 2

    @property
    def solvable(self) -> bool:
        return bool(self.min_steps[0] != NO_SOLUTION)

    def index_of(self, layout: Layout | int) -> int:
        """The node of ``layout``; ValueError when it is not in this group."""
        code = int(layout)
        at = int(np.searchsorted(self.codes, code))
        if at == self.size or int(self.codes[at]) != code:
            raise ValueError(f"layout {code:09X} is not in the group of {self.seed:09X}")
        return at

    def edge_pairs(self) -> np.ndarray:
        """Every step once, as (smaller node, larger node) rows (uint32, ascending)."""
        sources = np.repeat(np.arange(self.size, dtype=np.uint32), np.diff(self.offsets))
        forward = sources < self.targets
        pairs: np.ndarray = np.stack([sources[forward],
                                      self.targets[forward].astype(np.uint32)], axis=1)
        return pairs

    def distances(self, sources: np.ndarray) -> np.ndarray:
        """Steps from the nearest of the ``sources`` nodes to every node (int32, -1 when
        unreachable: never inside one group)."""
        from huarong._kernels import placement

        chosen = np.ascontiguousarray(sources, dtype=np.int64)
        if chosen.size and not (chosen.min() >= 0 and chosen.max() < self.size):
            raise ValueError(f"source nodes must lie in 0..{self.size - 1}")
        result: np.ndarray = placement.bfs_distances(self.offsets, self.targets, chosen)
        return result

    def shortest_path(self, start: int) -> list[int]:
        """Nodes of a minimum-step path from node ``start`` to a nearest goal (start first,
        at each step the smallest-numbered neighbour one step closer); empty when the group
        holds no goal."""
        steps = int(self.min_steps[start])
        if steps == NO_SOLUTION:
            return []
        path = [start]
        node = start
        while steps > 0:
            neighbours = self.targets[self.offsets[node]:self.offsets[node + 1]]
            closer = neighbours[self.min_steps[neighbours] == steps - 1]
            node = int(closer.min())
            path.append(node)
            steps -= 1
        return path


def step_graph(code: int) -> StepGraph:
    """The step graph of the group of the legal layout ``code``."""
    from huarong._kernels import group_analysis, group_search

    boards, _, _, _ = group_search.bfs(np.int64(code), group_search.EXPLORE_ALL, np.int64(0),
                                  np.int64(1 << 12))
    codes = group_search.boards_to_codes(boards)
    order = np.argsort(codes)
    boards, codes = boards[order], codes[order]
    offsets, targets = group_search.adjacency(boards)
    graph = StepGraph(codes, offsets, targets.astype(np.int32), np.empty(0, dtype=np.int16))
    goals = np.flatnonzero(group_analysis.goal_flags(boards))
    min_steps = (graph.distances(goals) if goals.size
                 else np.full(graph.size, NO_SOLUTION)).astype(np.int16)
    return StepGraph(codes, offsets, graph.targets, min_steps)
