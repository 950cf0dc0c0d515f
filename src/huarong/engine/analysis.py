"""The layer model of one layout (docs §5): layers, links, farthest layouts, solutions.

:func:`analyze` runs a breadth-first search over the start's whole group and links every
layout to its parents (adjacent layouts one layer nearer the start) and children (one layer
farther).  Within a layer, layouts are ordered by common code.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from huarong.engine.layout import GOAL_ADDRESS, Layout, layouts_of_codes

Progress = Callable[[str, int, int], None]
"""``progress(phase, done, total)``: called as a long analysis advances."""


@dataclass(frozen=True, eq=False)
class Analysis:
    """Everything :func:`analyze` learns about one start layout's group.

    Arrays are indexed by *position*: layouts sorted by (layer, code)."""

    start: Layout
    codes: np.ndarray
    """Common code of each position."""
    layer_offsets: np.ndarray
    """Layer ``k`` is positions ``layer_offsets[k]`` to ``layer_offsets[k + 1] - 1``."""
    edge_offsets: np.ndarray
    edge_targets: np.ndarray
    """Adjacent positions of position ``i``: ``edge_targets[edge_offsets[i]:edge_offsets[i+1]]``."""
    solution_mask: np.ndarray
    """Whether each position is a solution (docs §5)."""

    # ----- sizes and layers ---------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of layouts in the group."""
        return int(self.codes.shape[0])

    @property
    def layer_count(self) -> int:
        return int(self.layer_offsets.shape[0] - 1)

    @property
    def layer_sizes(self) -> list[int]:
        return [int(n) for n in np.diff(self.layer_offsets)]

    def layer(self, number: int) -> list[Layout]:
        """The layouts at exactly ``number`` steps from the start, by code."""
        if not 0 <= number < self.layer_count:
            raise IndexError(f"layer {number} does not exist: layers are 0..{self.layer_count - 1}")
        first, stop = self.layer_offsets[number:number + 2]
        return layouts_of_codes(self.codes[first:stop])

    @property
    def farthest_steps(self) -> int:
        """The largest minimum step count from the start to any layout of its group."""
        return self.layer_count - 1

    @property
    def farthest_layouts(self) -> list[Layout]:
        return self.layer(self.farthest_steps)

    # ----- solutions ----------------------------------------------------------------------
    @functools.cached_property
    def _solution_positions(self) -> np.ndarray:
        return np.flatnonzero(self.solution_mask)

    @property
    def solutions(self) -> list[tuple[Layout, int]]:
        """Every solution (docs §5) with its step count, nearest first."""
        layouts = layouts_of_codes(self.codes[self._solution_positions])
        return [(layout, self.layer_of_position(int(p)))
                for layout, p in zip(layouts, self._solution_positions, strict=True)]

    @property
    def min_steps(self) -> int | None:
        """Steps to the nearest goal layout, or None when the group holds none."""
        positions = self._solution_positions
        return self.layer_of_position(int(positions[0])) if positions.size else None

    @property
    def min_step_solutions(self) -> list[Layout]:
        """Every goal layout at the minimum step count."""
        steps = self.min_steps
        if steps is None:
            return []
        return [layout for layout in self.layer(steps) if layout.cao_address == GOAL_ADDRESS]

    # ----- one layout's place -------------------------------------------------------------
    @functools.cached_property
    def _sorted_positions(self) -> np.ndarray:
        return np.argsort(self.codes, kind="stable")

    def position(self, layout: Layout) -> int:
        """The position of ``layout``; ValueError when it is not in the group."""
        code = int(layout)
        order = self._sorted_positions
        at = int(np.searchsorted(self.codes, code, sorter=order))
        if at == order.shape[0] or int(self.codes[order[at]]) != code:
            raise ValueError(f"layout {layout.code} is not in the group of {self.start.code}")
        return int(order[at])

    def layer_of_position(self, position: int) -> int:
        return int(np.searchsorted(self.layer_offsets, position, side="right") - 1)

    def steps_to(self, layout: Layout) -> int:
        """Minimum steps from the start to ``layout``."""
        return self.layer_of_position(self.position(layout))

    def _links(self, layout: Layout, layer_delta: int) -> list[Layout]:
        position = self.position(layout)
        layer = self.layer_of_position(position)
        linked_layer = layer + layer_delta
        if not 0 <= linked_layer < self.layer_count:
            return []
        first, stop = self.layer_offsets[linked_layer:linked_layer + 2]
        adjacent = self.edge_targets[self.edge_offsets[position]:self.edge_offsets[position + 1]]
        linked = np.sort(adjacent[(adjacent >= first) & (adjacent < stop)])
        return layouts_of_codes(self.codes[linked])

    def parents(self, layout: Layout) -> list[Layout]:
        """Adjacent layouts one layer nearer the start."""
        return self._links(layout, -1)

    def children(self, layout: Layout) -> list[Layout]:
        """Adjacent layouts one layer farther from the start."""
        return self._links(layout, +1)

    def links(self) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
        """For every position in order: (layer, index in layer, parent positions, child
        positions) — the whole layer model without building Layout objects."""
        for layer in range(self.layer_count):
            first, stop = int(self.layer_offsets[layer]), int(self.layer_offsets[layer + 1])
            previous = int(self.layer_offsets[layer - 1]) if layer else first
            following = int(self.layer_offsets[min(layer + 2, self.layer_count)])
            for position in range(first, stop):
                adjacent = np.sort(self.edge_targets[
                    self.edge_offsets[position]:self.edge_offsets[position + 1]])
                yield (layer, position - first,
                       adjacent[(adjacent >= previous) & (adjacent < first)],
                       adjacent[(adjacent >= stop) & (adjacent < following)])


def analyze(layout: Layout, progress: Progress | None = None) -> Analysis:
    """Build the layer model of ``layout``'s group (docs §5) on its
    :class:`~huarong.graph.StateGraph`, nodes by layer then code."""
    from huarong._kernels import group_search
    from huarong.engine.state_graph import layered_graph

    report = progress or (lambda phase, done, total: None)

    def linking(done: int, total: int) -> None:
        if done == 0:  # the search is over when the linking starts
            report("searching the group", 1, 1)
        report("linking layers", done, total)

    report("searching the group", 0, 1)
    graph, depth = layered_graph(layout, linking)
    solution_mask = group_search.solution_flags(graph.goal, depth, graph.offsets,
                                                graph.targets)
    layer_offsets = np.searchsorted(depth, np.arange(int(depth[-1]) + 2), side="left")
    return Analysis(start=layout, codes=graph.codes,
                    layer_offsets=layer_offsets.astype(np.int64), edge_offsets=graph.offsets,
                    edge_targets=graph.targets, solution_mask=solution_mask)
