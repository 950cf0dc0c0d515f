"""The state graph (huarong.graph.StateGraph) against a plain-Python breadth-first search
written here, on random graphs (hypothesis) and on Klotski groups built by
:func:`klotski_graph`, whose moves the reference engine checks; bad input refused; and the
puzzle-neutral binary form and picture of a graph that is no Klotski group."""

from __future__ import annotations

import io
import itertools
import struct
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from huarong.engine.layout import Layout
from huarong.engine.state_graph import KLOTSKI, KlotskiBuilder, klotski_graph, layered_graph
from huarong.graph import NO_SOLUTION, Geometry, GraphBuilder, StateGraph
from huarong.graph.binary import graph_binary
from huarong.graph.picture import draw_state_graph
from huarong.graph.placement import place
from tests import klotski_reference as reference

HENG_DAO_LI_MA = "1A9BF0C00"  # docs §3: 25,955 layouts, 81 minimum steps
SMALL_SYMMETRIC = "10000003C"
"""Its own mirror image, in a solvable group of 1,440 layouts (counted by the reference)."""


def reference_distances(adjacent: list[set[int]], sources: list[int]) -> list[int]:
    """Moves from the nearest source to every node, -1 where none reaches."""
    found = dict.fromkeys(sources, 0)
    queue = deque(found)
    while queue:
        node = queue.popleft()
        for other in sorted(adjacent[node]):
            if other not in found:
                found[other] = found[node] + 1
                queue.append(other)
    return [found.get(node, -1) for node in range(len(adjacent))]


def csr_graph(size: int, edges: set[tuple[int, int]], goals: list[bool], codes: list[int],
              geometry: Geometry = KLOTSKI) -> tuple[StateGraph, list[set[int]]]:
    """The graph of undirected ``edges`` in CSR form (each node's neighbours in a shuffled but
    fixed order), and the adjacency sets of the reference."""
    adjacent: list[set[int]] = [set() for _ in range(size)]
    for a, b in edges:
        adjacent[a].add(b)
        adjacent[b].add(a)
    rows = [sorted(row, reverse=node % 2 == 1) for node, row in enumerate(adjacent)]
    offsets = np.zeros(size + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(row) for row in rows])
    targets = np.array([t for row in rows for t in row], dtype=np.int32)
    return StateGraph(np.array(codes, dtype=np.int64), offsets, targets,
                      np.array(goals, dtype=bool), geometry), adjacent


@st.composite
def random_graphs(draw: st.DrawFn) -> tuple[StateGraph, list[set[int]]]:
    size = draw(st.integers(1, 24))
    pairs = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1)).filter(
        lambda pair: pair[0] != pair[1])
    edges = {tuple(sorted(pair)) for pair in draw(st.lists(pairs, max_size=3 * size))}
    goals = draw(st.lists(st.booleans(), min_size=size, max_size=size))
    codes = draw(st.lists(st.integers(-(1 << 63), (1 << 63) - 1), min_size=size,
                          max_size=size, unique=True))
    return csr_graph(size, edges, goals, codes)  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(random_graphs(), st.data())
def test_every_method_agrees_with_a_plain_breadth_first_search(
        built: tuple[StateGraph, list[set[int]]], data: st.DataObject) -> None:
    graph, adjacent = built
    size = len(adjacent)
    assert graph.size == size
    assert graph.edge_count == sum(len(row) for row in adjacent) // 2
    assert graph.degrees().tolist() == [len(row) for row in adjacent]
    assert [set(graph.neighbours(node).tolist()) for node in range(size)] == adjacent
    pairs = graph.edge_pairs()
    assert pairs.dtype == np.uint32 and (pairs[:, 0] < pairs[:, 1]).all()
    assert {tuple(pair) for pair in pairs.tolist()} == {
        (a, b) for a in range(size) for b in adjacent[a] if a < b}
    assert all(graph.index_of(int(code)) == node for node, code in enumerate(graph.codes))
    sources = data.draw(st.lists(st.integers(0, size - 1), max_size=3))
    assert graph.distances(sources).tolist() == reference_distances(adjacent, sources)
    goals = [node for node in range(size) if graph.goal[node]]
    expected = reference_distances(adjacent, goals)
    assert graph.min_steps.tolist() == expected and graph.solvable == bool(goals)
    start, end = data.draw(st.integers(0, size - 1)), data.draw(st.integers(0, size - 1))
    path = graph.shortest_path(start)
    if expected[start] == NO_SOLUTION:
        assert path == []
    else:
        assert len(path) == expected[start] + 1 and path[0] == start and graph.goal[path[-1]]
        # Each move to the smallest-numbered neighbour one move nearer a goal.
        assert all(b == min(n for n in adjacent[a] if expected[n] == expected[a] - 1)
                   for a, b in itertools.pairwise(path))
    between = graph.path_between(start, end)
    apart = reference_distances(adjacent, [end])[start]
    if apart == -1:
        assert between == []
    else:
        assert len(between) == apart + 1 and between[0] == start and between[-1] == end
        assert all(b in adjacent[a] for a, b in itertools.pairwise(between))


def test_a_graph_without_goals_has_no_minimum_steps_and_no_paths() -> None:
    graph, _ = csr_graph(3, {(0, 1), (1, 2)}, [False] * 3, [5, 7, 9])
    assert not graph.solvable and graph.min_steps.tolist() == [NO_SOLUTION] * 3
    assert graph.shortest_path(2) == []
    assert not graph.min_steps.flags.writeable


def test_bad_input_is_refused_with_the_values_named() -> None:
    graph, _ = csr_graph(3, {(0, 1)}, [True, False, False], [5, 7, 9])
    with pytest.raises(ValueError, match="state 8 is not in this graph of 3 states"):
        graph.index_of(8)
    with pytest.raises(ValueError, match=r"node 3 is not in 0\.\.2"):
        graph.neighbours(3)
    with pytest.raises(ValueError, match=r"node -1 is not in 0\.\.2"):
        graph.shortest_path(-1)
    with pytest.raises(ValueError, match=r"node 4 is not in 0\.\.2"):
        graph.path_between(0, 4)
    with pytest.raises(ValueError, match=r"source nodes must lie in 0\.\.2"):
        graph.distances([0, 3])
    with pytest.raises(ValueError, match="3 codes needs 4 offsets and 3 goal flags, not 3"):
        StateGraph(graph.codes, graph.offsets[:3], graph.targets, graph.goal, graph.geometry)
    with pytest.raises(ValueError, match="offsets must run from 0 to the 2 targets"):
        StateGraph(graph.codes, graph.offsets + 1, graph.targets, graph.goal, graph.geometry)
    with pytest.raises(ValueError, match="2 mirror nodes for 3 states"):
        StateGraph(graph.codes, graph.offsets, graph.targets, graph.goal, graph.geometry,
                   mirror=np.zeros(2, dtype=np.int32))
    with pytest.raises(ValueError, match="a board of 9x8 cells"):
        Geometry("big", 9, 8)


def test_klotski_groups_in_every_order_are_one_graph() -> None:
    heng_dao_li_ma = klotski_graph(Layout.parse(HENG_DAO_LI_MA))
    assert heng_dao_li_ma.size == 25_955 and heng_dao_li_ma.geometry == KLOTSKI
    assert int(heng_dao_li_ma.min_steps[heng_dao_li_ma.index_of(
        int(Layout.parse(HENG_DAO_LI_MA)))]) == 81
    start = int(Layout.parse(SMALL_SYMMETRIC))
    graph = klotski_graph(start)
    assert graph.size == 1440 and (np.diff(graph.codes) > 0).all() and graph.mirror is None

    def moves(other: StateGraph) -> set[tuple[int, int]]:
        pairs = {(int(other.codes[a]), int(other.codes[b])) for a, b in other.edge_pairs()}
        return pairs | {(b, a) for a, b in pairs}

    expected = reference.distances(reference.from_grid(Layout(start).grid()))
    steps = {int(Layout.from_grid(reference.to_grid(s))): n for s, n in expected.items()}
    reference_moves = {(int(Layout.from_grid(reference.to_grid(s))),
                        int(Layout.from_grid(reference.to_grid(t))))
                       for s in expected for t in reference.steps_from(s)}
    searched = klotski_graph(start, order="search")
    layered, depth = layered_graph(start)
    assert int(searched.codes[0]) == int(layered.codes[0]) == start
    assert [steps[int(code)] for code in layered.codes] == depth.tolist()
    assert (np.diff(depth) >= 0).all()
    for other in (graph, searched, layered):
        assert sorted(other.codes.tolist()) == sorted(steps)
        assert moves(other) == reference_moves
        assert (other.goal == ((other.codes >> 32) == 0xD)).all()


def test_a_symmetric_group_carries_its_mirror() -> None:
    layout = Layout.parse(SMALL_SYMMETRIC)
    assert layout.mirror() == layout
    graph = klotski_graph(layout, with_mirror=True)
    assert graph.mirror is not None
    mirrored = [int(Layout(int(code)).mirror()) for code in graph.codes]
    assert graph.codes[graph.mirror].tolist() == mirrored
    builder: GraphBuilder = KlotskiBuilder()
    assert builder.state_graph(int(layout)).codes.tolist() == graph.codes.tolist()


def toy_geometry() -> Geometry:
    """A 2x3 board whose code holds its six cells, one byte each."""
    def cells(codes: np.ndarray) -> np.ndarray:
        return np.stack([(codes >> (8 * i)) & 0xFF for i in range(6)], axis=1).astype(np.uint8)
    return Geometry("toy", 2, 3, cells)


def test_the_binary_form_carries_any_puzzle() -> None:
    # A path of three boards: a piece (1) and a wall (255) on a 2x3 board.
    codes = [0xFF << 40 | 1, 0xFF << 40 | 1 << 8, 0xFF << 40 | 1 << 16]
    graph, _ = csr_graph(3, {(0, 1), (1, 2)}, [False, False, True], codes, toy_geometry())
    positions = place(graph)
    data = graph_binary(graph, positions, 0)
    assert data[:4] == b"HRG2"
    header = struct.unpack_from("<7I", data, 4)
    assert header == (3, 2, 0, 2, 2, 3, 3)  # flags: cells, no farthest; name "toy"
    assert data[32:35] == b"toy" and data[35:40] == bytes(5)
    at = 40
    assert list(struct.unpack_from("<3q", data, at)) == codes
    at += 24
    assert np.allclose(struct.unpack_from("<6f", data, at), positions.ravel())
    at += 24
    assert struct.unpack_from("<4I", data, at) == (0, 1, 1, 2)
    at += 16
    figures = [struct.unpack_from("<3i", data, at + 16 * k) for k in range(3)]
    assert figures == [(2, 1, 0), (-1, -1, -1), (0, 1, 2)]  # min steps, farthest, distance
    at += 48
    cells = data[at:at + 18]
    assert list(cells[:6]) == [1, 0, 0, 0, 0, 255] and list(cells[12:]) == [0, 0, 1, 0, 0, 255]
    assert len(data) == at + 24
    with pytest.raises(ValueError, match="needs"):
        graph_binary(graph, positions, 3)


def test_any_puzzle_graph_is_drawn_in_png_and_svg() -> None:
    codes = list(range(10, 16))
    graph, _ = csr_graph(6, {(i, i + 1) for i in range(5)}, [i == 5 for i in range(6)],
                         codes, toy_geometry())
    png = draw_state_graph(graph, "png", 300, 200, start=0)
    image = Image.open(io.BytesIO(png))
    assert image.size == (300, 200)
    red = (np.asarray(image.convert("RGB")) == (228, 0, 43)).all(axis=2)
    assert red.any()  # the start's shortest path
    svg = draw_state_graph(graph, "svg", 300, 200).decode("utf-8")
    assert svg.count("<circle") == 6 and "toy (3x2): 6 states, 5 moves" in svg
    with pytest.raises(ValueError, match="'gif' is not png or svg"):
        draw_state_graph(graph, "gif")  # type: ignore[arg-type]
