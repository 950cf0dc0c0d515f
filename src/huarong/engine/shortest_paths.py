"""Every shortest path at once: the shortest-path graph between a start and its targets,
layer by layer, with the exact number of distinct shortest paths; and one shortest path to
each of many targets (every solution, every farthest layout).

Built on the layer model (:mod:`huarong.engine.analysis`, docs §5): a layout lies on a shortest
path from the start to a target set at distance ``d`` exactly when it is in layer ``k`` and
reaches a target in ``d - k`` steps, i.e. when walking parents back from the targets finds
it.  The number of shortest paths from the start to a layout is the sum over its parents
(Python integers: the counts are exact however large).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from huarong.engine.analysis import Analysis, analyze
from huarong.engine.layout import Layout, layouts_of_codes


class NoTargetError(ValueError):
    """No target to find paths to: the start's group holds no goal layout, or a target is
    not in the start's group."""


@dataclass(frozen=True)
class GraphNode:
    """A layout on some shortest path: how many distinct shortest paths reach it from the
    start, and the layouts one step farther on a shortest path to a target."""

    layout: Layout
    paths: int
    next: tuple[Layout, ...]


@dataclass(frozen=True)
class ShortestPathGraph:
    """Every shortest path from ``start`` to ``targets`` (all at ``steps`` steps):
    ``layers[k]`` holds the graph's layouts at ``k`` steps from the start, by code."""

    start: Layout
    targets: tuple[Layout, ...]
    steps: int
    layers: tuple[tuple[GraphNode, ...], ...]

    @property
    def path_count(self) -> int:
        """The number of distinct shortest paths from the start to any target."""
        return sum(node.paths for node in self.layers[-1])


def shortest_path_graph(start: Layout, targets: Sequence[Layout] | None = None,
                        analysis: Analysis | None = None) -> ShortestPathGraph:
    """The graph of every shortest path from ``start`` to ``targets`` (default: its
    min-step solutions, the goal layouts nearest to it).  Targets at different distances
    keep only the nearest.  :class:`NoTargetError` when there is none."""
    analysis = analysis or analyze(start)
    if targets is None:
        targets = analysis.min_step_solutions
        if not targets:
            raise NoTargetError(f"{start.code} has no solution: its group of "
                                f"{analysis.size:,} layouts holds no goal layout")
    positions = _positions(analysis, start, targets)
    steps = min(analysis.layer_of_position(p) for p in positions)
    ends = sorted({p for p in positions if analysis.layer_of_position(p) == steps})

    # Walk back from the targets: each layer of the graph is the parents of the next one.
    layers = [np.array(ends, dtype=np.int64)]
    for layer in range(steps, 0, -1):
        layers.append(np.unique(np.concatenate(
            [_adjacent_in_layer(analysis, int(p), layer - 1) for p in layers[-1]])))
    layers.reverse()

    paths: dict[int, int] = {int(layers[0][0]): 1}
    for layer in range(1, steps + 1):
        for position in layers[layer].tolist():
            paths[position] = sum(paths[int(p)] for p in
                                  _adjacent_in_layer(analysis, position, layer - 1))
    on_graph = {int(p) for layer in layers for p in layer.tolist()}
    nodes = []
    for layer, members in enumerate(layers):
        order = np.argsort(analysis.codes[members], kind="stable")
        row = []
        for position in members[order].tolist():
            following = [int(p) for p in _adjacent_in_layer(analysis, position, layer + 1)
                         if int(p) in on_graph] if layer < steps else []
            row.append(GraphNode(_layout(analysis, position), paths[position],
                                 tuple(sorted(_layout(analysis, p) for p in following))))
        nodes.append(tuple(row))
    return ShortestPathGraph(start, tuple(_layout(analysis, p) for p in ends), steps,
                             tuple(nodes))


def paths_to_each(start: Layout, targets: Sequence[Layout],
                  analysis: Analysis | None = None) -> list[tuple[Layout, ...]]:
    """One shortest path from ``start`` to each target (at each step back the parent with
    the smallest code), in the targets' order."""
    analysis = analysis or analyze(start)
    found = []
    for position in _positions(analysis, start, targets):
        path = [position]
        for layer in range(analysis.layer_of_position(position), 0, -1):
            parents = _adjacent_in_layer(analysis, path[-1], layer - 1)
            path.append(int(parents[np.argmin(analysis.codes[parents])]))
        found.append(tuple(_layout(analysis, p) for p in reversed(path)))
    return found


def _positions(analysis: Analysis, start: Layout, targets: Sequence[Layout]) -> list[int]:
    positions = []
    for target in targets:
        try:
            positions.append(analysis.position(target))
        except ValueError:
            raise NoTargetError(f"{target.code} is not in the group of {start.code}: "
                                "no sequence of steps joins them") from None
    return positions


def _adjacent_in_layer(analysis: Analysis, position: int, layer: int) -> np.ndarray:
    first, stop = analysis.layer_offsets[layer:layer + 2]
    adjacent: np.ndarray = analysis.edge_targets[
        analysis.edge_offsets[position]:analysis.edge_offsets[position + 1]]
    inside: np.ndarray = adjacent[(adjacent >= first) & (adjacent < stop)]
    return inside


def _layout(analysis: Analysis, position: int) -> Layout:
    return layouts_of_codes([analysis.codes[position]])[0]
