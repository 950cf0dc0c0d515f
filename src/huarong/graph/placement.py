"""Where each state of a graph is drawn: pivot MDS (Brandes and Pich, "Eigensolver methods
for progressive multidimensional scaling of large data", 2006).

Moves between states are the distances to preserve: breadth-first distances from a few
pivots spread over the graph (each the node farthest from the pivots so far, the first a
goal) give every node a vector, and the two main axes of those vectors, double-centred as
classical scaling does, are its x and y.  States a few moves apart land close together, so a
move is a short line (software renderers spend their time on line length: measured on
横刀立马's Klotski group, lines average a fifth of the length a layered drawing by minimum
steps gives), and the big shapes of the graph (its arms, its dense cores) show.  Everything
is a fixed computation on the graph in its node order, each axis's sign fixed by the first
pivot: the same graph always gets the same picture.
"""

from __future__ import annotations

import numpy as np

from huarong.graph.state_graph import StateGraph

PIVOTS = 32
"""Breadth-first searches per group; more barely change the picture of a big group."""
MARGIN = 0.02
"""Blank border, as a share of the picture, so dots on the edge are drawn whole."""


def pivot_distances(graph: StateGraph, count: int = PIVOTS) -> np.ndarray:
    """Squared distances (float32 (n, count)) from ``count`` pivots chosen max-min: the
    first is the smallest goal node (node 0 without a goal), each next the node farthest from
    all chosen so far (the smallest such)."""
    count = min(count, graph.size)
    squared = np.empty((graph.size, count), dtype=np.float32)
    pivot = _first_pivot(graph)
    nearest = np.full(graph.size, np.iinfo(np.int32).max, dtype=np.int32)
    for column in range(count):
        distance = graph.distances(np.array([pivot]))
        squared[:, column] = distance
        np.minimum(nearest, distance, out=nearest)
        pivot = int(np.argmax(nearest))
    squared *= squared
    return squared


def place(graph: StateGraph) -> np.ndarray:
    """The position of every node: float32 (n, 2), x and y in [0, 1]."""
    if graph.size < 3:
        return np.linspace(MARGIN, 1 - MARGIN, 2 * graph.size, dtype=np.float32).reshape(-1, 2)
    centred = pivot_distances(graph)
    centred -= centred.mean(axis=0)
    centred -= centred.mean(axis=1, keepdims=True)
    centred *= -0.5
    covariance = centred.T.astype(np.float64) @ centred.astype(np.float64)
    _, vectors = np.linalg.eigh(covariance)  # ascending eigenvalues: the last two are wanted
    axes = vectors[:, [-1, -2]].astype(np.float32)
    coordinates = centred @ axes
    # The first pivot (a goal) is to the left of and above the middle, on every machine.
    coordinates *= np.where(coordinates[_first_pivot(graph)] > 0, -1, 1).astype(np.float32)
    low, high = coordinates.min(axis=0), coordinates.max(axis=0)
    spread = np.where(high > low, high - low, 1)
    placed: np.ndarray = ((coordinates - low) / spread * (1 - 2 * MARGIN) + MARGIN)
    return placed.astype(np.float32)


def _first_pivot(graph: StateGraph) -> int:
    goals = np.flatnonzero(graph.goal)
    return int(goals[0]) if goals.size else 0
