"""A Klotski group as a graph file and its bottlenecks: the node and edge attributes of a
group (common and short codes, minimum steps, goals, distance from the chosen layout,
degree, cut vertices, basins, the layer figures the database holds; the piece and direction
of every step) for :mod:`huarong.graph.files`, and the bottlenecks of
:mod:`huarong.graph.bottlenecks` seen from the goals (or, in a group without one, from the
chosen layout) as JSON."""

from __future__ import annotations

import os
from typing import Any, Final

import numpy as np

from huarong.engine.board import CELLS
from huarong.engine.hints import direction_of
from huarong.engine.layout import Layout, PieceKind
from huarong.graph import StateGraph
from huarong.graph.bottlenecks import Bottlenecks, bottlenecks
from huarong.graph.files import Categories, Column, GraphTable

STEP_RULE: Final = ("a step slides one piece any distance through empty cells, turning "
                    "corners if it likes (huarong docs, definitions §2); one undirected edge "
                    "joins two layouts one step apart")
"""What joins two nodes, as the files' metadata says it."""
LAYER_FIGURES: Final = ("farthest_steps", "farthest_count", "solution_count",
                        "min_step_solutions")
"""The database's figures of each layout that the files carry when it holds them all."""
_HEX: Final = np.frombuffer(b"0123456789ABCDEF", dtype=np.uint8)
_SHORT: Final = np.frombuffer(b"123456789ABCDEFGHJKMNPQRSTUVWXYZ", dtype=np.uint8)


def _digits(values: np.ndarray, base: int, width: int, alphabet: np.ndarray) -> np.ndarray:
    """``values`` written in ``base`` with ``width`` digits of ``alphabet`` (a str array)."""
    places = base ** np.arange(width - 1, -1, -1, dtype=np.int64)
    digits = (values.astype(np.int64)[:, None] // places) % base
    text: np.ndarray = np.ascontiguousarray(alphabet[digits]).view(f"S{width}")[:, 0]
    return text.astype(f"U{width}")


def code_strings(codes: np.ndarray) -> np.ndarray:
    """The 9-hex-digit common code of each code."""
    return _digits(codes, 16, 9, _HEX)


def short_code_strings(codes: np.ndarray) -> np.ndarray:
    """The short code of each (legal) code."""
    from huarong.space.cases import layout_ids

    return _digits(layout_ids(codes), 32, 5, _SHORT)


def group_bottlenecks(layout: Layout) -> tuple[StateGraph, Bottlenecks]:
    """The group of ``layout`` (nodes in code order) and its bottlenecks, basins seen from
    its goals, or from ``layout`` in a group without one."""
    from huarong.engine.state_graph import klotski_graph

    graph = klotski_graph(layout)
    home = None if graph.solvable else [graph.index_of(int(layout))]
    return graph, bottlenecks(graph, home)


def bottlenecks_json(layout: Layout, graph: StateGraph, found: Bottlenecks,
                     with_nodes: bool = False) -> dict[str, Any]:
    """The bottlenecks as the API and ``huarong bottlenecks --json`` answer them, codes as
    common codes; ``with_nodes``: ``basin`` of every node in code order too."""
    codes = code_strings(graph.codes)

    def listed(nodes: np.ndarray) -> dict[str, Any]:
        return {"count": int(nodes.shape[0]), "list": codes[nodes].tolist()}

    answer: dict[str, Any] = {
        "code": layout.code, "states": graph.size, "moves": graph.edge_count,
        "seen_from": "goals" if graph.solvable else "this layout",
        "articulation_points": listed(found.articulation_points),
        "bridges": listed(found.bridges),
        "dead_ends": listed(found.dead_ends),
        "basins": {"count": len(found.basins), "list": [
            {"id": number, "entrance": str(codes[basin.entrance]),
             "bridge": codes[list(basin.bridge)].tolist() if basin.bridge else None,
             "size": basin.size, "depth": basin.depth}
            for number, basin in enumerate(found.basins)]},
    }
    if with_nodes:
        answer["basin"] = found.basin.tolist()
    return answer


def _edge_columns(graph: StateGraph, pairs: np.ndarray) -> dict[str, Column]:
    from huarong._kernels import moves

    kinds, sources, targets = moves.step_moves(graph.codes[pairs[:, 0]],
                                               graph.codes[pairs[:, 1]])
    kind_names = tuple(kind.name.lower() for kind in
                       sorted(PieceKind, key=lambda kind: _KERNEL_KIND[kind]))
    # A step is a displacement of its piece: name each distinct one once.
    slides = sources.astype(np.int64) * CELLS + targets
    present, which = np.unique(slides, return_inverse=True)
    words = [direction_of(*divmod(slide, CELLS)) for slide in present.tolist()]
    names = tuple(sorted(set(words)))
    word_of = np.array([names.index(word) for word in words], dtype=np.int16)
    return {"piece": Categories(kinds, kind_names),
            "direction": Categories(word_of[which], names)}


_KERNEL_KIND: Final = {PieceKind.CAO: 0, PieceKind.HORIZONTAL: 1, PieceKind.VERTICAL: 2,
                       PieceKind.SOLDIER: 3}


def _layer_figures(layout: Layout, codes: np.ndarray,
                   database: str | os.PathLike[str] | None) -> dict[str, Column]:
    """The layer figures of every node from the database, or none unless it holds them all."""
    from huarong.space.cases import layout_ids
    from huarong.space.database import Database, DatabaseError

    try:
        with Database.open(database) as opened:
            row = opened.info(layout)
            ids = layout_ids(codes)
            found = opened.query(
                f"SELECT id, {', '.join(LAYER_FIGURES)} FROM layouts WHERE id BETWEEN "
                f"{int(ids.min())} AND {int(ids.max())} AND jiang = {row.jiang} AND bing = "
                f"{row.bing} AND style = {row.style} AND group_num = {row.group_num} "
                "ORDER BY id").rows
    except (DatabaseError, KeyError, LookupError):
        return {}
    if len(found) != codes.shape[0] or any(value is None for line in found for value in line):
        return {}
    table = np.asarray(found, dtype=np.int64)
    order = np.argsort(ids)
    columns: dict[str, Column] = {}
    for index, name in enumerate(LAYER_FIGURES, start=1):
        values = np.empty(codes.shape[0], dtype=np.int64)
        values[order] = table[:, index]
        columns[name] = values
    return columns


def group_table(layout: Layout, database: str | os.PathLike[str] | None = None
                ) -> GraphTable:
    """The group of ``layout`` with every attribute the files carry (layer figures from
    ``database``, default ``$HUARONG_DB``, when it holds them all)."""
    graph, found = group_bottlenecks(layout)
    start = graph.index_of(int(layout))
    nodes: dict[str, Column] = {
        "code": code_strings(graph.codes), "short_code": short_code_strings(graph.codes),
        "min_steps": graph.min_steps, "goal": graph.goal,
        "distance": graph.distances([start]), "degree": graph.degrees(),
        "cut_vertex": found.cut_vertex, "basin": found.basin,
        **_layer_figures(layout, graph.codes, database),
    }
    metadata = {"puzzle": "klotski", "step_rule": STEP_RULE, "layout": layout.code,
                "states": str(graph.size), "moves": str(graph.edge_count),
                "node_order": "ascending common code",
                "basins_seen_from": "goals" if graph.solvable else "layout"}
    return GraphTable(graph, nodes, _edge_columns(graph, graph.edge_pairs()), metadata)
