"""Klotski's builder of :class:`~huarong.graph.StateGraph`: the group of a layout, searched by
the group kernels, its states as common codes."""

from __future__ import annotations

from typing import Literal

import numpy as np

from huarong.engine.layout import Layout
from huarong.graph import KLOTSKI, StateGraph

NodeOrder = Literal["code", "search"]


def klotski_graph(layout: Layout | int, *, order: NodeOrder = "code",
                  with_mirror: bool = False) -> StateGraph:
    """The step graph of the group of ``layout`` (a legal layout or its common code).

    Nodes are numbered by ascending code (``order="code"``) or in breadth-first order from
    ``layout`` (``"search"``).  With ``with_mirror``, a group that is its own mirror image
    carries each node's mirror node (:attr:`StateGraph.mirror`)."""
    from huarong._kernels import group_analysis, group_search, klotski

    boards, _, _, _ = group_search.bfs(np.int64(int(layout)), group_search.EXPLORE_ALL,
                                       np.int64(0), np.int64(1 << 12))
    codes = group_search.boards_to_codes(boards)
    if order == "code":
        by_code = np.argsort(codes)
        boards, codes = boards[by_code], codes[by_code]
    offsets, targets = group_search.adjacency(boards)
    mirror = None
    if with_mirror:
        mirrors = klotski.mirror_codes(codes)
        sorter = np.argsort(codes)
        at = np.minimum(np.searchsorted(codes, mirrors, sorter=sorter), codes.shape[0] - 1)
        partner = sorter[at]
        if bool(np.all(codes[partner] == mirrors)):
            mirror = partner.astype(np.int32)
    return StateGraph(codes, offsets, targets.astype(np.int32, copy=False),
                      group_analysis.goal_flags(boards), KLOTSKI, mirror)


class KlotskiBuilder:
    """The :class:`~huarong.graph.GraphBuilder` of Klotski: groups in code order."""

    def state_graph(self, start: int) -> StateGraph:
        return klotski_graph(start)
