"""Graph files (huarong.graph.files, huarong graph): every format written and read back with
networkx and with python-igraph, the counts and attributes compared with the plain-Python
reference group of tests/graph_reference.py."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import igraph
import networkx as nx
import numpy as np
import pyarrow.csv
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from huarong.cli import main
from huarong.engine.layout import Layout
from huarong.engine.state_graph import KLOTSKI
from huarong.graph import StateGraph
from huarong.graph.files import (
    Categories,
    GraphTable,
    UnknownFormatError,
    format_of,
    graphml_chunks,
    nodes_path,
    write_graph_file,
)
from huarong.space.graph_files import STEP_RULE, group_table

from . import graph_reference as ref

CODE = "C8726B000"
"""A group of 81 layouts with cut vertices, bridges and basins."""
NODE_ATTRIBUTES = {"code", "short_code", "min_steps", "goal", "distance", "degree",
                   "cut_vertex", "basin"}


@pytest.fixture(scope="module")
def reference() -> ref.Adjacency:
    return ref.group(CODE)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("graphs")
    table = group_table(Layout.parse(CODE), folder / "no-database.duckdb")
    return {suffix: write_graph_file(folder / f"group.{suffix}", table)[0]
            for suffix in ("graphml", "gexf", "json", "parquet", "csv")}


def _networkx(suffix: str, path: Path) -> Any:
    if suffix == "graphml":
        return nx.read_graphml(path)
    if suffix == "gexf":
        return nx.read_gexf(path)
    if suffix == "json":
        return nx.node_link_graph(json.loads(path.read_text()), edges="links")
    read = pq.read_table if suffix == "parquet" else pyarrow.csv.read_csv
    nodes, edges = read(nodes_path(path)).to_pylist(), read(path).to_pylist()
    graph = nx.Graph()
    graph.add_nodes_from((row.pop("id"), row) for row in nodes)
    graph.add_edges_from((row.pop("source"), row.pop("target"), row) for row in edges)
    return graph


@pytest.mark.parametrize("suffix", ["graphml", "gexf", "json", "parquet", "csv"])
def test_every_format_reads_back_as_the_reference_group(
        written: dict[str, Path], reference: ref.Adjacency, suffix: str) -> None:
    graph = _networkx(suffix, written[suffix])
    attributes = dict(graph.nodes(data=True))
    code_of = {node: str(values["code"]) for node, values in attributes.items()}
    assert sorted(code_of.values()) == sorted(reference)
    assert {frozenset((code_of[a], code_of[b])) for a, b in graph.edges()} == {
        frozenset((node, other)) for node, around in reference.items() for other in around}
    assert set(next(iter(attributes.values()))) >= NODE_ATTRIBUTES
    goals = ref.goals(reference)
    steps = ref.reachable(reference, goals)
    points = ref.articulation_points(reference)
    for node, values in attributes.items():
        code = code_of[node]
        assert int(values["min_steps"]) == steps[code]
        assert str(values["goal"]).lower() == str(code in goals).lower()
        assert int(values["degree"]) == len(reference[code])
        assert str(values["cut_vertex"]).lower() == str(code in points).lower()
        assert str(values["short_code"]) == Layout.parse(code).short_code
    start = ref.reachable(reference, [Layout.parse(CODE).code])
    assert {code_of[node]: int(values["distance"]) for node, values in attributes.items()
            } == start
    for a, b, values in graph.edges(data=True):
        before, after = sorted((code_of[a], code_of[b]))
        assert (values["piece"], values["direction"]) == ref.step_words(before, after)


def test_graphml_and_json_read_with_igraph(written: dict[str, Path],
                                           reference: ref.Adjacency) -> None:
    edges = sum(map(len, reference.values())) // 2
    graphml = igraph.Graph.Read_GraphML(str(written["graphml"]))
    assert (graphml.vcount(), graphml.ecount()) == (len(reference), edges)
    assert sorted(graphml.vs["code"]) == sorted(reference)
    assert set(graphml.es["piece"]) <= {"cao", "vertical", "horizontal", "soldier"}
    data = json.loads(written["json"].read_text())
    listed = igraph.Graph.DictList(data["nodes"], data["links"], vertex_name_attr="id")
    assert (listed.vcount(), listed.ecount()) == (len(reference), edges)
    rows = pq.read_table(written["parquet"])
    table = igraph.Graph(n=len(reference), edges=list(zip(
        rows.column("source").to_pylist(), rows.column("target").to_pylist(), strict=True)))
    assert table.ecount() == edges and table.is_connected()
    assert sorted(table.articulation_points()) == sorted(
        node for node, flag in enumerate(graphml.vs["cut_vertex"]) if flag)


def test_metadata_names_the_step_rule(written: dict[str, Path]) -> None:
    assert nx.read_graphml(written["graphml"]).graph["step_rule"] == STEP_RULE
    assert json.loads(written["json"].read_text())["graph"]["step_rule"] == STEP_RULE
    assert STEP_RULE in written["gexf"].read_text()
    assert pq.read_schema(written["parquet"]).metadata[b"step_rule"].decode() == STEP_RULE


def test_any_graph_with_any_columns() -> None:
    # A triangle of some other puzzle: strings that need escaping, floats, categories.
    offsets = np.array([0, 2, 4, 6])
    targets = np.array([1, 2, 0, 2, 0, 1], dtype=np.int32)
    graph = StateGraph(np.array([5, 6, 7]), offsets, targets, np.array([True, False, False]),
                       KLOTSKI)
    table = GraphTable(graph, {"name": np.array(['a<b', 'c&d', 'e"f']),
                               "weight": np.array([0.5, 1.0, 2.5])},
                       {"kind": Categories(np.array([0, 1, 0]), ("x&y", "z"))},
                       {"puzzle": "triangle <3>"})
    read = nx.parse_graphml(b"".join(graphml_chunks(table)).decode())
    assert sorted(values["name"] for _, values in read.nodes(data=True)) == ['a<b', 'c&d',
                                                                               'e"f']
    assert sorted(values["kind"] for _, _, values in read.edges(data=True)) == ["x&y", "x&y",
                                                                               "z"]
    assert read.graph["puzzle"] == "triangle <3>"
    with pytest.raises(ValueError, match="2 values for 3 nodes"):
        GraphTable(graph, {"short": np.array([1, 2])})


def test_the_command_writes_the_file_its_name_asks_for(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HUARONG_DB", str(tmp_path / "none.duckdb"))
    target = tmp_path / "g.csv"
    result = CliRunner().invoke(main, ["graph", CODE, "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.exists() and (tmp_path / "g.nodes.csv").exists()
    bad = CliRunner().invoke(main, ["graph", CODE, "-o", str(tmp_path / "g.txt")])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and "g.txt" in bad.output
    with pytest.raises(UnknownFormatError, match=r"g\.dot"):
        format_of("g.dot")
    assert not list(tmp_path.glob("*.tmp*"))


def test_gzip_stream_is_the_file() -> None:
    from huarong.web.graph_api import _gzipped

    chunks = [b"<graphml>", b"x" * 100_000, b"</graphml>"]
    assert gzip.decompress(b"".join(_gzipped(iter(chunks)))) == b"".join(chunks)


@pytest.mark.slow
def test_the_largest_group_streams_every_layout_and_step() -> None:
    # 964,656 layouts and 7,749,758 steps: the spec's figures for group 00006FFF0.
    table = group_table(Layout.parse("00006FFF0"))
    nodes = edges = 0
    for chunk in graphml_chunks(table):
        nodes += chunk.count(b"<node ")
        edges += chunk.count(b"<edge ")
    assert (nodes, edges) == (964_656, 7_749_758)
