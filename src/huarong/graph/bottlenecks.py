"""Where a state graph narrows: its cut vertices (articulation points), its bridges, its
dead ends and its basins, for any puzzle.

The graph algorithms are python-igraph's (its C core): articulation points, bridges and
biconnected components of a million states and eight million moves take seconds there and
tens of seconds and gigabytes in networkx (``benchmarks/bench_graph_export.py``).

A *basin* is a part of the graph that one cut vertex (its *entrance*, not a home state)
separates from the *home* states, by default the goals: every way from a basin to a goal
passes through its entrance.  Seen from the goals, the graph is its *home region* (every
biconnected block that holds a home state, once a virtual root is joined to all of them)
and the basins hanging off it: each basin is one connected part of what is left when the
home region is taken away.  A basin
joined to its entrance by a single move has that move, a bridge, as its ``bridge``; its
``depth`` is how many moves one can stray into it, past the entrance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from huarong.graph.state_graph import StateGraph


@dataclass(frozen=True)
class Basin:
    """One basin: its ``entrance`` node, the bridge (entrance, first node inside) when one
    move joins them (else None), its number of nodes and its depth in moves."""

    entrance: int
    bridge: tuple[int, int] | None
    size: int
    depth: int


@dataclass(frozen=True, eq=False)
class Bottlenecks:
    """The narrow places of one graph, as node numbers: ``articulation_points`` and
    ``dead_ends`` ascending (int64), ``bridges`` (k, 2) rows (smaller node first,
    ascending), ``basins`` largest first and ``basin``, for every node, the basin it lies in
    (int32, -1 in the home region)."""

    articulation_points: np.ndarray
    bridges: np.ndarray
    dead_ends: np.ndarray
    basins: tuple[Basin, ...]
    basin: np.ndarray

    @property
    def cut_vertex(self) -> np.ndarray:
        """Whether each node is an articulation point (bool)."""
        flags = np.zeros(self.basin.shape[0], dtype=bool)
        flags[self.articulation_points] = True
        return flags


IGRAPH_CHUNK = 1 << 17
"""Moves handed to igraph at once: it turns the array into Python numbers on the way in
(about 110 bytes a move), so the whole of a large graph at once would cost a gigabyte for a
moment, and 2^20 moves still over 100 MB."""


def igraph_of(graph: StateGraph) -> Any:
    """The graph as an undirected ``igraph.Graph`` (node ``i`` is vertex ``i``, edge ``k``
    the ``k``-th row of :meth:`StateGraph.edge_pairs`)."""
    import igraph  # type: ignore[import-untyped]  # igraph ships no type stubs

    pairs = np.ascontiguousarray(graph.edge_pairs(), dtype=np.int64)
    linked = igraph.Graph(n=graph.size)
    for first in range(0, pairs.shape[0], IGRAPH_CHUNK):
        linked.add_edges(pairs[first:first + IGRAPH_CHUNK])
    return linked


def bottlenecks(graph: StateGraph, home: np.ndarray | list[int] | None = None
                ) -> Bottlenecks:
    """The cut vertices, bridges, dead ends and basins of ``graph``; basins are seen from the
    ``home`` nodes (default: the goals); ValueError when there are none (a graph without a
    goal needs a home: the state one starts from, say)."""
    homes = (np.flatnonzero(graph.goal) if home is None
             else np.unique(np.asarray(home, dtype=np.int64)))
    if homes.size == 0:
        raise ValueError("no home nodes to see basins from: the graph holds no goal, name a "
                         "node to start from")
    if not (homes.min() >= 0 and homes.max() < graph.size):
        raise ValueError(f"home nodes must lie in 0..{graph.size - 1}")
    linked = igraph_of(graph)
    articulation = np.sort(np.asarray(linked.articulation_points(), dtype=np.int64))
    bridges = _bridges(graph, linked)
    dead_ends = np.flatnonzero(graph.degrees() == 1).astype(np.int64)
    basin = np.full(graph.size, -1, dtype=np.int32)
    basins: tuple[Basin, ...] = ()
    if articulation.size:
        basin = _basin_labels(graph, linked, homes)
        basins, basin = _describe(graph, basin, graph.distances(homes))
    return Bottlenecks(articulation, bridges, dead_ends, basins, basin)


def _bridges(graph: StateGraph, linked: Any) -> np.ndarray:
    # igraph numbers edges in the order they were given: edge_pairs' order.
    found = np.asarray(linked.bridges(), dtype=np.int64)
    pairs: np.ndarray = graph.edge_pairs()[found].astype(np.int64)
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]


def _basin_labels(graph: StateGraph, linked: Any, homes: np.ndarray) -> np.ndarray:
    """For every node, a label of the part of the graph outside the home region it lies in
    (-1 in the home region)."""
    root = graph.size
    linked.add_vertices(1)
    linked.add_edges([(root, int(node)) for node in homes])
    homeward = np.zeros(root + 1, dtype=bool)
    homeward[homes] = homeward[root] = True
    at_home = np.zeros(root + 1, dtype=bool)
    for block in linked.biconnected_components():
        members = np.asarray(block, dtype=np.int64)
        if bool(homeward[members].any()):
            at_home[members] = True
    linked.delete_vertices([root])
    outside = np.flatnonzero(~at_home[:root])
    labels = np.full(root, -1, dtype=np.int32)
    if outside.size:
        parts = linked.induced_subgraph(outside.tolist()).connected_components().membership
        labels[outside] = np.asarray(parts, dtype=np.int32)
    return labels


def _describe(graph: StateGraph, labels: np.ndarray, distance: np.ndarray
              ) -> tuple[tuple[Basin, ...], np.ndarray]:
    """The basins of the labelled parts, largest first (then by entrance), and the labels
    renumbered in that order."""
    count = int(labels.max()) + 1
    if count == 0:
        return (), labels
    pairs = graph.edge_pairs().astype(np.int64)
    # The moves from a basin to the home region: each basin has one entrance node there.
    inside = labels[pairs]
    crossing = (inside[:, 0] < 0) != (inside[:, 1] < 0)
    ends = pairs[crossing]
    which = np.where(inside[crossing, 0] >= 0, 0, 1)
    owner = labels[ends[np.arange(ends.shape[0]), which]]
    entrance_of = np.empty(count, dtype=np.int64)
    entrance_of[owner] = ends[np.arange(ends.shape[0]), 1 - which]
    inner_of = np.empty(count, dtype=np.int64)
    inner_of[owner] = ends[np.arange(ends.shape[0]), which]
    moves_in = np.bincount(owner, minlength=count)
    sizes = np.bincount(labels[labels >= 0], minlength=count)
    deepest = np.zeros(count, dtype=np.int64)
    np.maximum.at(deepest, labels[labels >= 0], distance[labels >= 0])
    order = np.lexsort((entrance_of, -sizes))
    basins = tuple(
        Basin(int(entrance_of[part]),
              (int(entrance_of[part]), int(inner_of[part])) if moves_in[part] == 1 else None,
              int(sizes[part]), int(deepest[part] - distance[entrance_of[part]]))
        for part in order.tolist())
    renumber = np.empty(count, dtype=np.int32)
    renumber[order] = np.arange(count, dtype=np.int32)
    return basins, np.where(labels >= 0, renumber[np.maximum(labels, 0)], -1).astype(np.int32)
