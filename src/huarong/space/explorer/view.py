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
from huarong.space.explorer.cache import PlacedGroup, PlacementCache, default_directory
from huarong.space.explorer.catalog import Catalog, GroupRef
from huarong.space.explorer.graph import StepGraph, step_graph
from huarong.space.explorer.placement import place

MAGIC = b"HRG1"
FLAG_FARTHEST = 1
"""Bit 0 of the binary form's flags: farthest steps are present."""
UNKNOWN = -1
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
    def graph(self) -> StepGraph:
        return self.placed.graph

    @cached_property
    def distance(self) -> np.ndarray:
        """Steps from the chosen layout to every node (int16)."""
        distance: np.ndarray = self.graph.distances(np.array([self.start])).astype(np.int16)
        return distance

    @cached_property
    def shortest_path(self) -> list[int]:
        path: list[int] = self.graph.shortest_path(self.start)
        return path

    def summary(self) -> dict[str, Any]:
        graph = self.graph
        key = self.group.key
        solvable = graph.solvable
        return {
            "class": key.name, "jiang": key.jiang, "bing": key.bing, "style": key.style,
            "group_num": self.group.group_num, "size": graph.size, "edges": graph.edge_count,
            "seed": f"{graph.seed:09X}", "start": f"{int(graph.codes[self.start]):09X}",
            "start_index": self.start,
            "start_min_steps": int(graph.min_steps[self.start]) if solvable else None,
            "shortest_path": self.shortest_path,
            "goals": int(np.count_nonzero(graph.min_steps == 0)),
            "min_steps_max": int(graph.min_steps.max()) if solvable else None,
            "distance_max": int(self.distance.max()),
            "farthest_present": self.farthest is not None,
            "farthest_steps_max": int(self.farthest.max()) if self.farthest is not None
            else None,
        }

    def farthest_or_unknown(self) -> np.ndarray:
        if self.farthest is not None:
            return self.farthest
        return np.full(self.graph.size, UNKNOWN, dtype=np.int16)

    def to_binary(self) -> bytes:
        """The compact form (little-endian): ``HRG1``, node count, edge count, start index,
        flags (uint32 each); float32 positions (x, y); uint32 edge pairs; uint32 codes as
        (low 32 bits, high 4 bits); int16 minimum steps, farthest steps and distance from
        the start; each section padded to 4 bytes."""
        graph = self.graph
        codes = graph.codes.astype(np.uint64)
        header = np.array([graph.size, graph.edge_count, self.start,
                           FLAG_FARTHEST if self.farthest is not None else 0], dtype="<u4")
        sections = [
            self.placed.positions.astype("<f4"), graph.edge_pairs().astype("<u4"),
            np.stack([codes & 0xFFFFFFFF, codes >> 32], axis=1).astype("<u4"),
            graph.min_steps.astype("<i2"), self.farthest_or_unknown().astype("<i2"),
            self.distance.astype("<i2"),
        ]
        parts = [MAGIC, header.tobytes()]
        for section in sections:
            data = section.tobytes()
            parts += [data, bytes(-len(data) % 4)]
        return b"".join(parts)

    def to_json(self) -> dict[str, Any]:
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
                graph = step_graph(seed)
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
        return GroupView(group, placed, placed.graph.index_of(layout),
                         self.catalog.farthest_steps(group, placed.graph.codes))
