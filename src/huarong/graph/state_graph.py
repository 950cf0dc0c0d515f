"""The state-graph type and the builder interface every puzzle engine implements."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

NO_SOLUTION = -1
"""``min_steps`` of a state from which no goal can be reached."""


@dataclass(frozen=True)
class Geometry:
    """What a reader of a graph needs to draw its states: the puzzle's name (how its codes
    decode, as ``"klotski"`` for Klotski's common codes), the board's size and, for puzzles
    whose codes a reader cannot decode by the name alone, ``cells``: codes (int64 array) to
    their boards, a uint8 array (states, rows x columns) of piece numbers (0 empty, 255
    wall), each piece a number of its own."""

    puzzle: str
    rows: int
    columns: int
    cells: Callable[[np.ndarray], np.ndarray] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not (self.rows > 0 and self.columns > 0 and self.rows * self.columns <= 64):
            raise ValueError(f"a board of {self.rows}x{self.columns} cells: boards have 1 to "
                             "64 cells")


@dataclass(frozen=True, eq=False)
class StateGraph:
    """One connected part of a puzzle's state graph.

    ``codes`` (int64): node ``i`` is the state with code ``codes[i]``, in any order (an
    engine may number nodes in code order or breadth-first).  The neighbours of node ``i``
    are ``targets[offsets[i]:offsets[i + 1]]`` (int64 offsets, int32 targets; every move in
    both directions: moves are reversible in every puzzle here).  ``goal`` (bool) flags the
    solved states.  ``mirror``, when the puzzle has a mirror symmetry that maps this graph
    onto itself, is the node of each node's mirror image (int32); None otherwise: symmetry is
    a puzzle's option, never required by what reads the graph.
    """

    codes: np.ndarray
    offsets: np.ndarray
    targets: np.ndarray
    goal: np.ndarray
    geometry: Geometry
    mirror: np.ndarray | None = field(default=None)

    def __post_init__(self) -> None:
        size = self.codes.shape[0]
        if self.offsets.shape[0] != size + 1 or self.goal.shape[0] != size:
            raise ValueError(f"a state graph of {size} codes needs {size + 1} offsets and "
                             f"{size} goal flags, not {self.offsets.shape[0]} and "
                             f"{self.goal.shape[0]}")
        if int(self.offsets[0]) != 0 or int(self.offsets[-1]) != self.targets.shape[0]:
            raise ValueError(f"offsets must run from 0 to the {self.targets.shape[0]} targets, "
                             f"not from {int(self.offsets[0])} to {int(self.offsets[-1])}")
        if self.mirror is not None and self.mirror.shape[0] != size:
            raise ValueError(f"{self.mirror.shape[0]} mirror nodes for {size} states")

    def _node(self, node: int) -> int:
        if not 0 <= node < self.size:
            raise ValueError(f"node {node} is not in 0..{self.size - 1}")
        return int(node)

    @property
    def size(self) -> int:
        """The number of states."""
        return int(self.codes.shape[0])

    @property
    def edge_count(self) -> int:
        """Moves, each counted once."""
        return int(self.targets.shape[0]) // 2

    def degrees(self) -> np.ndarray:
        """The number of neighbours of every node (int64)."""
        degrees: np.ndarray = np.diff(self.offsets)
        return degrees

    def neighbours(self, node: int) -> np.ndarray:
        """The nodes one move from ``node``."""
        node = self._node(node)
        found: np.ndarray = self.targets[self.offsets[node]:self.offsets[node + 1]]
        return found

    @functools.cached_property
    def _code_order(self) -> np.ndarray:
        return np.argsort(self.codes, kind="stable")

    def index_of(self, code: int) -> int:
        """The node of the state ``code``; ValueError when it is not in this graph."""
        order = self._code_order
        at = int(np.searchsorted(self.codes, code, sorter=order))
        if at == self.size or int(self.codes[order[at]]) != int(code):
            raise ValueError(f"state {int(code):X} is not in this graph of {self.size} states")
        return int(order[at])

    def edge_pairs(self) -> np.ndarray:
        """Every move once, as (smaller node, larger node) rows (uint32, smaller ascending)."""
        sources = np.repeat(np.arange(self.size, dtype=np.uint32), np.diff(self.offsets))
        forward = sources < self.targets
        pairs: np.ndarray = np.stack([sources[forward],
                                      self.targets[forward].astype(np.uint32)], axis=1)
        return pairs

    def distances(self, sources: np.ndarray | list[int]) -> np.ndarray:
        """Moves from the nearest of the ``sources`` nodes to every node (int32,
        :data:`NO_SOLUTION` where none is reachable)."""
        from huarong._kernels import placement

        chosen = np.ascontiguousarray(sources, dtype=np.int64)
        if chosen.size and not (chosen.min() >= 0 and chosen.max() < self.size):
            raise ValueError(f"source nodes must lie in 0..{self.size - 1}")
        result: np.ndarray = placement.bfs_distances(
            np.ascontiguousarray(self.offsets, dtype=np.int64),
            np.ascontiguousarray(self.targets, dtype=np.int32), chosen)
        return result

    @functools.cached_property
    def min_steps(self) -> np.ndarray:
        """Moves from every node to the nearest goal (int32, :data:`NO_SOLUTION` when the
        graph holds no goal)."""
        steps = self.distances(np.flatnonzero(self.goal))
        steps.flags.writeable = False
        return steps

    @property
    def solvable(self) -> bool:
        """Whether the graph holds a goal state."""
        return bool(self.goal.any())

    def shortest_path(self, start: int) -> list[int]:
        """Nodes of a minimum-move path from node ``start`` to a nearest goal (start first;
        at each move the smallest-numbered neighbour one move closer); empty when the graph
        holds no goal."""
        return self._descend(self._node(start), self.min_steps)

    def path_between(self, start: int, end: int) -> list[int]:
        """Nodes of a minimum-move path from node ``start`` to node ``end`` (both included; at
        each move the smallest-numbered neighbour one move closer); empty when ``end`` cannot
        be reached from ``start``."""
        return self._descend(self._node(start), self.distances([self._node(end)]))

    def _descend(self, start: int, distance: np.ndarray) -> list[int]:
        """From ``start`` down ``distance`` (moves to the chosen ends) to a node at 0."""
        steps = int(distance[start])
        if steps == NO_SOLUTION:
            return []
        path = [start]
        node = start
        while steps > 0:
            around = self.targets[self.offsets[node]:self.offsets[node + 1]]
            node = int(around[distance[around] == steps - 1].min())
            path.append(node)
            steps -= 1
        return path


class GraphBuilder(Protocol):
    """What a puzzle engine offers: the state graph of the part of its space that holds the
    state ``start`` (a code of that puzzle)."""

    def state_graph(self, start: int) -> StateGraph:
        """The connected part of the state graph around ``start``."""
        ...
