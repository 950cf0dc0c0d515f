"""Klotski's builder of :class:`~huarong.graph.StateGraph`: the group of a layout, searched by
the group kernels, its states as common codes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np

from huarong.engine.layout import Layout
from huarong.graph import Geometry, StateGraph

KLOTSKI = Geometry("klotski", 5, 4)
"""The 4x5 Klotski board, states as common codes: the geometry of every Klotski graph."""

NodeOrder = Literal["code", "search"]
Progress = Callable[[int, int], None]
"""``progress(rows linked, rows)``: called as the neighbours are linked."""

_ROWS_PER_CHUNK = 1 << 15
_FIRST_CAPACITY = 1 << 16
"""Layouts the search makes room for at first: most groups fit, so few grow their arrays."""


def klotski_graph(layout: Layout | int, *, order: NodeOrder = "code",
                  with_mirror: bool = False, progress: Progress | None = None) -> StateGraph:
    """The step graph of the group of ``layout`` (a legal layout or its common code).

    Nodes are numbered by ascending code (``order="code"``) or in breadth-first order from
    ``layout`` (``"search"``: ``layout`` is node 0).  With ``with_mirror``, a group that is
    its own mirror image carries each node's mirror node (:attr:`StateGraph.mirror`).
    ``progress`` hears of the linking of neighbours, the long part of a big group."""
    from huarong._kernels import klotski

    boards, codes, _ = _searched(layout)
    if order == "code":
        by_code = np.argsort(codes)
        boards, codes = boards[by_code], codes[by_code]
    graph = _graph(boards, codes, progress)
    if not with_mirror:
        return graph
    mirrors = klotski.mirror_codes(codes)
    sorter = np.argsort(codes)
    at = np.minimum(np.searchsorted(codes, mirrors, sorter=sorter), codes.shape[0] - 1)
    partner = sorter[at]
    if not bool(np.all(codes[partner] == mirrors)):
        return graph
    return StateGraph(graph.codes, graph.offsets, graph.targets, graph.goal, KLOTSKI,
                      partner.astype(np.int32))


def layered_graph(layout: Layout | int, progress: Progress | None = None
                  ) -> tuple[StateGraph, np.ndarray]:
    """The step graph of the group of ``layout`` with nodes by steps from ``layout`` then by
    code (``layout`` is node 0), and those steps of every node (int32, ascending): the
    layers of docs §5 without a second search."""
    boards, codes, depth = _searched(layout)
    by_layer = np.lexsort((codes, depth))
    return _graph(boards[by_layer], codes[by_layer], progress), depth[by_layer]


def _searched(layout: Layout | int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The boards, codes and steps from ``layout`` of its group, in breadth-first order."""
    from huarong._kernels import group_search

    boards, _, depth, _ = group_search.bfs(np.int64(int(layout)), group_search.EXPLORE_ALL,
                                           np.int64(0), np.int64(_FIRST_CAPACITY))
    return boards, group_search.boards_to_codes(boards), depth


def _graph(boards: np.ndarray, codes: np.ndarray, progress: Progress | None) -> StateGraph:
    from huarong._kernels import group_analysis

    offsets, targets = _linked(boards, progress)
    return StateGraph(codes, offsets, targets, group_analysis.goal_flags(boards), KLOTSKI)


def _linked(boards: np.ndarray, progress: Progress | None) -> tuple[np.ndarray, np.ndarray]:
    """The CSR neighbours of ``boards`` (int64 offsets, int32 targets), a chunk of rows at a
    time so that ``progress`` hears of a big group."""
    from huarong._kernels import group_search

    size = int(boards.shape[0])
    keys, values, bits = group_search.index_table(boards)
    counts: list[np.ndarray] = []
    targets: list[np.ndarray] = []
    for first in range(0, size, _ROWS_PER_CHUNK):
        if progress is not None:
            progress(first, size)
        stop = min(size, first + _ROWS_PER_CHUNK)
        chunk_counts, chunk_targets = group_search.adjacency_rows(
            boards, keys, values, bits, np.int64(first), np.int64(stop))
        counts.append(chunk_counts)
        targets.append(chunk_targets.astype(np.int32))
    if progress is not None:
        progress(size, size)
    offsets = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.concatenate(counts), out=offsets[1:])
    return offsets, np.concatenate(targets)


class KlotskiBuilder:
    """The :class:`~huarong.graph.GraphBuilder` of Klotski: groups in code order."""

    def state_graph(self, start: int) -> StateGraph:
        """The group of the layout with common code ``start``."""
        return klotski_graph(start)
