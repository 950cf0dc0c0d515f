"""Bottlenecks and basins (huarong.graph.bottlenecks, huarong bottlenecks) against the
plain-Python reference of tests/graph_reference.py: cut vertices and bridges by taking each
away, basins by asking which nodes a single node cuts off from the goals."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from huarong.cli import main
from huarong.engine.layout import Layout
from huarong.engine.state_graph import KLOTSKI, klotski_graph
from huarong.graph import StateGraph
from huarong.graph.bottlenecks import bottlenecks
from huarong.space.graph_files import bottlenecks_json, group_bottlenecks

from . import graph_reference as ref

SOLVABLE = ["C8726B000", "A9963C000"]
"""Groups of 81 and 105 layouts with cut vertices, bridges and basins, and goals."""
UNSOLVABLE = "552AA0000"
"""A group of 24 layouts without a goal: basins are seen from the layout itself."""


@pytest.mark.parametrize("code", [*SOLVABLE, UNSOLVABLE])
def test_narrow_places_match_the_reference(code: str) -> None:
    adjacency = ref.group(code)
    graph, found = group_bottlenecks(Layout.parse(code))
    codes = [f"{value:09X}" for value in graph.codes.tolist()]
    assert set(codes) == set(adjacency) and graph.edge_count == sum(
        map(len, adjacency.values())) // 2
    assert {codes[node] for node in found.articulation_points} == ref.articulation_points(
        adjacency)
    assert {frozenset((codes[a], codes[b])) for a, b in found.bridges.tolist()} == ref.bridges(
        adjacency)
    assert {codes[node] for node in found.dead_ends} == {
        node for node, around in adjacency.items() if len(around) == 1}
    home = ref.goals(adjacency) or {Layout.parse(code).code}
    inside = ref.basin_nodes(adjacency, home)
    assert {codes[node] for node in np.flatnonzero(found.basin >= 0)} == set(inside)
    expected = ref.parts(adjacency, set(inside))
    assert sorted(map(len, expected), reverse=True) == [basin.size for basin in found.basins]
    for number, basin in enumerate(found.basins):
        members = {codes[node] for node in np.flatnonzero(found.basin == number)}
        assert members in expected and len(members) == basin.size
        entrance = codes[basin.entrance]
        assert set().union(*(adjacency[node] for node in members)) - members == {entrance}
        distance = ref.reachable(adjacency, home)
        assert basin.depth == max(distance[node] for node in members) - distance[entrance]
        if basin.bridge is not None:
            assert frozenset(codes[node] for node in basin.bridge) in ref.bridges(adjacency)


def test_a_path_seen_from_its_middle_has_two_basins() -> None:
    # 0 - 1 - 2 - 3 - 4, home 2: the two ends beyond 1 and 3, each behind a bridge.
    offsets = np.array([0, 1, 3, 5, 7, 8])
    targets = np.array([1, 0, 2, 1, 3, 2, 4, 3], dtype=np.int32)
    path = StateGraph(np.arange(5), offsets, targets, np.zeros(5, dtype=bool), KLOTSKI)
    found = bottlenecks(path, [2])
    assert found.articulation_points.tolist() == [1, 2, 3]
    assert found.dead_ends.tolist() == [0, 4]
    assert [(basin.entrance, basin.bridge, basin.size, basin.depth) for basin in found.basins
            ] == [(1, (1, 0), 1, 1), (3, (3, 4), 1, 1)]
    assert found.basin.tolist() == [0, -1, -1, -1, 1]
    with pytest.raises(ValueError, match="no home"):
        bottlenecks(path)


def test_the_json_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    code = SOLVABLE[0]
    layout = Layout.parse(code)
    answer = bottlenecks_json(layout, *group_bottlenecks(layout), with_nodes=True)
    graph = klotski_graph(layout)
    assert answer["states"] == graph.size and len(answer["basin"]) == graph.size
    for key in ("articulation_points", "bridges", "dead_ends", "basins"):
        assert answer[key]["count"] == len(answer[key]["list"])
    monkeypatch.setenv("HUARONG_DB", "no-such-database.duckdb")
    result = CliRunner().invoke(main, ["bottlenecks", code, "--json"])
    assert result.exit_code == 0
    printed = json.loads(result.output)
    assert {key: printed[key] for key in ("articulation_points", "bridges", "dead_ends",
                                          "basins")} == {
        key: answer[key] for key in ("articulation_points", "bridges", "dead_ends", "basins")}
    text = CliRunner().invoke(main, ["bottlenecks", code])
    assert text.exit_code == 0 and "articulation points" in text.output
