"""A group seen from one of its layouts: the placed graph, its figures, the distance of every
node from the chosen layout and the chosen layout's shortest path to a goal; and the
:class:`Explorer` that finds, places and caches groups."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from huarong.engine.layout import Layout
from huarong.engine.state_graph import klotski_graph
from huarong.graph import NO_SOLUTION, StateGraph
from huarong.graph.binary import graph_binary
from huarong.graph.placement import place
from huarong.space.explorer.cache import PlacedGroup, PlacementCache, default_directory
from huarong.space.explorer.catalog import Catalog, GroupRef

MEMORY_GROUPS = 2
"""Placed groups kept in memory (the largest takes about 200 MB there)."""


@dataclass(frozen=True, eq=False)
class GroupView:
    """The group of ``start`` (a node) as the explorer shows it."""

    group: GroupRef
    placed: PlacedGroup
    start: int
    farthest: np.ndarray | None
    """Farthest steps of every node (int16) when the database holds them all."""

    @property
    def graph(self) -> StateGraph:
        """The group's step graph, nodes in code order."""
        return self.placed.graph

    @cached_property
    def distance(self) -> np.ndarray:
        """Steps from the chosen layout to every node (int32)."""
        return self.graph.distances([self.start])

    @cached_property
    def shortest_path(self) -> list[int]:
        """The chosen layout's shortest path to a goal (nodes; empty without a goal)."""
        return self.graph.shortest_path(self.start)

    def summary(self) -> dict[str, Any]:
        """The group's figures as the explorer's API gives them."""
        graph = self.graph
        key = self.group.key
        solvable = graph.solvable
        return {
            "class": key.name, "jiang": key.jiang, "bing": key.bing, "style": key.style,
            "group_num": self.group.group_num, "size": graph.size, "edges": graph.edge_count,
            "seed": f"{self.placed.seed:09X}", "start": f"{int(graph.codes[self.start]):09X}",
            "start_index": self.start,
            "start_min_steps": int(graph.min_steps[self.start]) if solvable else None,
            "shortest_path": self.shortest_path,
            "goals": int(np.count_nonzero(graph.goal)),
            "min_steps_max": int(graph.min_steps.max()) if solvable else None,
            "distance_max": int(self.distance.max()),
            "farthest_present": self.farthest is not None,
            "farthest_steps_max": int(self.farthest.max()) if self.farthest is not None
            else None,
        }

    def farthest_or_unknown(self) -> np.ndarray:
        """Farthest steps of every node, -1 where the database lacks them."""
        if self.farthest is not None:
            return self.farthest
        return np.full(self.graph.size, NO_SOLUTION, dtype=np.int16)

    def to_binary(self) -> bytes:
        """The compact form: :func:`huarong.graph.binary.graph_binary` (``HRG2``)."""
        return graph_binary(self.graph, self.placed.positions, self.start,
                            farthest=self.farthest, distance=self.distance)

    def to_json(self) -> dict[str, Any]:
        """The same figures as :meth:`to_binary`, in JSON."""
        graph = self.graph
        return {
            "nodes": graph.size, "edges": graph.edge_count, "start": self.start,
            "positions": self.placed.positions.astype(np.float64).round(6).tolist(),
            "edge_pairs": graph.edge_pairs().tolist(),
            "codes": [f"{code:09X}" for code in graph.codes.tolist()],
            "min_steps": graph.min_steps.tolist(),
            "farthest_steps": self.farthest_or_unknown().tolist(),
            "distance": self.distance.tolist(),
        }


class Explorer:
    """Finds a layout's group (:class:`Catalog`), builds and places it once (kept on disk in
    a :class:`PlacementCache` and the last few in memory)."""

    def __init__(self, database: Path | None = None, cache_directory: Path | None = None
                 ) -> None:
        self.catalog = Catalog(database)
        self.cache = PlacementCache(cache_directory or default_directory(self.catalog.path))
        self._recent: OrderedDict[int, PlacedGroup] = OrderedDict()
        self._lock = threading.Lock()
        self._building = threading.Lock()
        self.placements = 0
        """Placements computed (not read from a cache)."""

    def placed(self, seed: int) -> PlacedGroup:
        """The placed group whose smallest code is ``seed``."""
        with self._lock:
            if seed in self._recent:
                self._recent.move_to_end(seed)
                return self._recent[seed]
        # One build at a time: two requests for one big group must not both place it.
        with self._building:
            with self._lock:
                if seed in self._recent:
                    return self._recent[seed]
            found = self.cache.load(seed)
            if found is None:
                graph = klotski_graph(seed)
                found = PlacedGroup(graph, place(graph))
                self.placements += 1
                self.cache.store(found)
        with self._lock:
            self._recent[seed] = found
            while len(self._recent) > MEMORY_GROUPS:
                self._recent.popitem(last=False)
        return found

    def summary(self, layout: Layout) -> dict[str, Any]:
        """:meth:`GroupView.summary` of the group of ``layout``, from the database without
        searching or placing the group when it holds the figures, unless the group is
        placed already."""
        from huarong.space.explorer.summary import database_summary

        group = self.catalog.locate(layout)
        with self._lock:
            placed = group.seed in self._recent
        if not placed and self.catalog.has_database:
            found = database_summary(self.catalog, group, layout)
            if found is not None:
                return found
        return self.view(layout).summary()

    def view(self, layout: Layout) -> GroupView:
        """The group of ``layout`` seen from it."""
        group = self.catalog.locate(layout)
        placed = self.placed(group.seed)
        return GroupView(group, placed, placed.graph.index_of(int(layout)),
                         self.catalog.farthest_steps(group, placed.graph.codes))
