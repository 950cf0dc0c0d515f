"""The explorer's endpoints: the binary graph form read back independently with struct and
numpy, the JSON form, class and group listings from a small database, 4xx answers, and the
OpenAPI schema."""

from __future__ import annotations

import itertools
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from huarong.engine.layout import Layout
from huarong.space import cases
from huarong.web import explorer_jobs
from huarong.web.app import create_app
from tests import klotski_reference as reference
from tests.patient_client import PatientClient as TestClient
from tests.test_explorer_data import make_small_database, solvable_small_group

pytestmark = pytest.mark.big_memory


@pytest.fixture(scope="module")
def small_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_database(tmp_path_factory.mktemp("explorer-api") / "small.duckdb")


@pytest.fixture(scope="module")
def client(small_database: Path) -> Iterator[TestClient]:
    """An app over the small database, caching placements beside it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("HUARONG_EXPLORER_CACHE", raising=False)
        with TestClient(create_app(small_database)) as test_client:
            yield test_client


@pytest.fixture
def bare_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """An app without a database, caching placements under tmp_path."""
    monkeypatch.setenv("HUARONG_EXPLORER_CACHE", str(tmp_path / "cache"))
    with TestClient(create_app(tmp_path / "absent.duckdb")) as test_client:
        yield test_client


def parse_binary(data: bytes) -> dict[str, Any]:
    """The HRG2 form read by the contract alone (docs/explorer.md)."""
    assert data[:4] == b"HRG2"
    nodes, edges, start, flags, rows, columns, name_length = struct.unpack_from("<7I", data, 4)
    at = 32

    def take(dtype: str, count: int) -> np.ndarray:
        nonlocal at
        assert at % 8 == 0
        array = np.frombuffer(data, dtype=dtype, count=count, offset=at)
        at += array.nbytes
        at += -at % 8
        return array

    parsed = {"nodes": nodes, "edges": edges, "start": start, "flags": flags,
              "rows": rows, "columns": columns,
              "puzzle": take("u1", name_length).tobytes().decode("utf-8"),
              "codes": take("<i8", nodes),
              "positions": take("<f4", 2 * nodes).reshape(-1, 2),
              "pairs": take("<u4", 2 * edges).reshape(-1, 2),
              "min_steps": take("<i4", nodes), "farthest": take("<i4", nodes),
              "distance": take("<i4", nodes)}
    if flags & 2:
        parsed["cells"] = take("u1", nodes * rows * columns).reshape(nodes, rows * columns)
    assert at == len(data)
    return parsed


def test_binary_graph_round_trips_against_the_reference(bare_client: TestClient) -> None:
    seed = solvable_small_group()
    states = reference.distances(reference.from_grid(Layout(seed).grid()))
    chosen = sorted(states, key=lambda s: int(Layout.from_grid(reference.to_grid(s))))[5]
    code = Layout.from_grid(reference.to_grid(chosen)).code
    response = bare_client.get(f"/api/groups/{code}/graph")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/octet-stream"
    graph = parse_binary(response.content)
    assert graph["nodes"] == len(states)
    assert graph["edges"] == sum(len(reference.steps_from(s)) for s in states) // 2
    assert (graph["puzzle"], graph["rows"], graph["columns"]) == ("klotski", 5, 4)
    codes = graph["codes"]
    by_code = {int(Layout.from_grid(reference.to_grid(s))): s for s in states}
    assert sorted(by_code) == codes.tolist()
    assert codes[graph["start"]] == int(code, 16) and graph["flags"] == 0
    assert (graph["farthest"] == -1).all()
    # Every edge a step, each once.
    pairs = {tuple(sorted(pair)) for pair in graph["pairs"].tolist()}
    assert len(pairs) == graph["edges"]
    for a, b in list(pairs)[:200]:
        assert reference.is_one_step(by_code[int(codes[a])], by_code[int(codes[b])])
    distance = reference.distances(chosen)
    assert graph["distance"].tolist() == [distance[by_code[int(c)]] for c in codes]
    assert graph["positions"].min() >= 0 and graph["positions"].max() <= 1
    assert graph["min_steps"].min() == 0
    # The JSON form says the same.
    same = bare_client.get(f"/api/groups/{code}/graph", params={"format": "json"}).json()
    assert same["nodes"] == graph["nodes"] and same["edges"] == graph["edges"]
    assert same["codes"] == [f"{c:09X}" for c in codes.tolist()]
    assert same["edge_pairs"] == graph["pairs"].tolist()
    assert same["distance"] == graph["distance"].tolist()
    assert np.allclose(same["positions"], graph["positions"], atol=1e-6)


def test_group_summary_names_its_shortest_path(bare_client: TestClient) -> None:
    seed = solvable_small_group()
    summary = bare_client.get(f"/api/groups/{seed:09X}").json()
    path = summary["shortest_path"]
    assert path[0] == summary["start_index"] == 0 and len(path) == summary["start_min_steps"] + 1
    codes = sorted(int(Layout.from_grid(reference.to_grid(s))) for s in reference.distances(
        reference.from_grid(Layout(seed).grid())))
    states = [reference.from_grid(Layout(codes[node]).grid()) for node in path]
    assert reference.is_goal(states[-1])
    assert all(reference.is_one_step(a, b) for a, b in itertools.pairwise(states))
    assert summary["size"] == len(codes) and summary["seed"] == f"{seed:09X}"
    assert summary["class"] == f"{Layout(seed).jiang_num}-{Layout(seed).bing_num}-" \
                               f"{Layout(seed).style_num}"


def test_json_graph_of_a_too_big_group_is_413(bare_client: TestClient,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(explorer_jobs, "JSON_GRAPH_LIMIT", 10)
    response = bare_client.get(f"/api/groups/{solvable_small_group():09X}/graph",
                               params={"format": "json"})
    assert response.status_code == 413 and "format=binary" in response.json()["error"]


def test_classes_without_a_database(bare_client: TestClient) -> None:
    answer = bare_client.get("/api/classes").json()
    assert answer["database"] is False and len(answer["classes"]) == 203
    assert sum(row["layouts"] for row in answer["classes"]) == cases.LAYOUT_COUNT
    assert answer["fill_command"] == "huarong db layers --all"
    records = bare_client.get("/api/records").json()
    assert records["database"] is False and records["records"] == []
    assert "huarong db build" in records["message"]


def test_classes_and_groups_from_the_database(client: TestClient) -> None:
    answer = client.get("/api/classes").json()
    assert answer["database"] is True
    rows = {row["name"]: row for row in answer["classes"]}
    codes, steps, _ = cases.min_steps_of_class(7, 0)
    style = cases.classes_of(codes).style
    assert rows["7-0-3"]["layouts"] == int(np.count_nonzero(style == 3))
    summary = client.get("/api/classes/7-0-3").json()
    assert sum(n for _, n in summary["min_steps_histogram"]) == rows["7-0-3"]["layouts"]
    assert summary["groups_total"] == rows["7-0-3"]["groups"]
    page = client.get("/api/classes/7-0-3/groups", params={"per_page": 1000}).json()
    assert sum(g["size"] for g in page["groups"]) == rows["7-0-3"]["layouts"]
    assert len(page["groups"]) == page["groups_total"] == rows["7-0-3"]["groups"]
    records = client.get("/api/records").json()
    longest = [row["code"] for row in records["records"][0]["rows"]]
    assert longest == [f"{c:09X}" for c in codes[steps == steps.max()]]


def test_farthest_flag_in_the_binary_form(client: TestClient) -> None:
    group = client.get("/api/classes/7-0-1/groups", params={"per_page": 1}).json()["groups"][0]
    graph = parse_binary(client.get(f"/api/groups/{group['seed']}/graph").content)
    assert graph["flags"] & 1 and (graph["farthest"] >= graph["min_steps"]).all()
    other = client.get("/api/classes/7-0-2/groups", params={"per_page": 1}).json()["groups"][0]
    assert parse_binary(client.get(f"/api/groups/{other['seed']}/graph").content)["flags"] == 0


@pytest.mark.parametrize(("url", "status"), [
    ("/api/classes/9-9-9", 400), ("/api/classes/5-4", 400), ("/api/classes/7-0-0", 404),
    ("/api/classes/6-5-0", 404), ("/api/classes/7-0-3/groups?page=-1", 400),
    ("/api/classes/7-0-3/groups?per_page=1001", 400),
    ("/api/classes/7-0-3/groups?per_page=0", 400),
    ("/api/classes/7-0-3/groups?page=999", 404), ("/api/classes/7-0-3/groups?page=x", 400),
    ("/api/groups/XYZ", 400), ("/api/groups/1A9BF0C01", 400),
    ("/api/groups/1A9BF0C01/graph", 400), ("/api/groups/1A9BF0C00/graph?format=xml", 400),
])
def test_bad_requests_answer_4xx_with_one_line(client: TestClient, url: str,
                                               status: int) -> None:
    response = client.get(url)
    assert response.status_code == status
    body = response.json()
    assert set(body) == {"error", "input"} and "\n" not in body["error"]


def test_endpoints_are_in_the_openapi_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/classes", "/api/classes/{name}", "/api/classes/{name}/groups",
                 "/api/groups/{code}", "/api/groups/{code}/graph", "/api/records"):
        assert "get" in paths[path], path
    groups = paths["/api/classes/{name}/groups"]["get"]
    parameters = {p["name"]: p for p in groups["parameters"]}
    assert parameters["name"]["schema"]["pattern"].startswith("^[0-7]")
    assert parameters["per_page"]["schema"]["maximum"] == 1000
    assert {"400", "404"} <= set(groups["responses"])
    graph = paths["/api/groups/{code}/graph"]["get"]
    assert "413" in graph["responses"]
    assert "application/octet-stream" in graph["responses"]["200"]["content"]


def test_explore_page_is_served(client: TestClient) -> None:
    response = client.get("/explore")
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]
    assert "/explore" not in client.get("/openapi.json").json()["paths"]


def test_a_group_is_found_by_any_notation_of_its_layout(bare_client: TestClient) -> None:
    # 横刀立马 by its short code (docs §4) and by its klotski.online id (docs §7).
    for code in ("4WVE1", "24422442233221121001"):
        summary = bare_client.get(f"/api/groups/{code}").json()
        assert summary["start"] == "1A9BF0C00" and summary["size"] == 25_955
        assert summary["class"] == "5-4-1"


def test_a_layout_the_database_lacks_answers_404(standard_database: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The standard-class database of the fixtures has no groups table rows and no other
    class: a group it cannot place is a 404 with one line, not a server error."""
    monkeypatch.setenv("HUARONG_EXPLORER_CACHE", str(tmp_path / "cache"))
    with TestClient(create_app(standard_database)) as test_client:
        for code in ("1A9BF0C00", "000000000"):  # standard (no group row); another class
            answer = test_client.get(f"/api/groups/{code}")
            assert answer.status_code == 404, answer.text
            body = answer.json()
            assert body["input"] == code and "huarong db build --force" in body["error"]
            assert "\n" not in body["error"]


def test_a_database_that_cannot_answer_is_a_404_not_a_server_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HUARONG_EXPLORER_CACHE", str(tmp_path / "cache"))
    garbage = tmp_path / "garbage.duckdb"
    garbage.write_bytes(b"not a database" * 100)
    with TestClient(create_app(garbage), raise_server_exceptions=False) as test_client:
        for url in ("/api/classes", "/api/classes/5-4-1", "/api/classes/5-4-1/groups",
                    "/api/groups/4WVE1", "/api/groups/4WVE1/graph", "/api/records"):
            answer = test_client.get(url)
            assert answer.status_code == 404, (url, answer.text)
            assert str(garbage) in answer.json()["error"], url


def test_a_short_code_that_reads_both_ways_is_taken_with_its_at_sign(
        bare_client: TestClient) -> None:
    """``1A9BF`` is a legal short code (id 303,438) and a legal abbreviated common code: the
    answer to the bare form names both readings, ``@1A9BF`` is the short code."""
    code = Layout.from_id(303_438).code
    assert bare_client.get("/api/groups/1A9BF").status_code == 400
    answer = bare_client.get("/api/groups/@1A9BF")
    assert answer.status_code == 200, answer.text
    assert bare_client.get("/api/layout", params={"code": "@1A9BF"}).json()["code"] == code


def test_bottlenecks_of_a_group(bare_client: TestClient, client: TestClient,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    seed = solvable_small_group()
    answer = bare_client.get(f"/api/groups/{seed:09X}/bottlenecks", params={"nodes": 1}).json()
    states = reference.distances(reference.from_grid(Layout(seed).grid()))
    assert answer["states"] == len(states) == len(answer["basin"])
    for key in ("articulation_points", "bridges", "dead_ends", "basins"):
        assert answer[key]["count"] == len(answer[key]["list"])
    dead = {Layout.from_grid(reference.to_grid(state)).code for state in states
            if len(reference.steps_from(state)) == 1}
    assert set(answer["dead_ends"]["list"]) == dead
    assert sum(basin["size"] for basin in answer["basins"]["list"]) == sum(
        number >= 0 for number in answer["basin"])
    assert "basin" not in bare_client.get(f"/api/groups/{seed:09X}/bottlenecks").json()
    monkeypatch.setattr(explorer_jobs, "JSON_GRAPH_LIMIT", 10)
    too_big = bare_client.get(f"/api/groups/{seed:09X}/bottlenecks", params={"nodes": 1})
    assert too_big.status_code == 413
    missing = client.get("/api/groups/1A9BF0C00/bottlenecks")
    assert missing.status_code == 404 and "missing from the database" in missing.json()["error"]


@pytest.mark.parametrize("suffix", ["graphml", "gexf", "json", "parquet"])
def test_a_group_as_a_file_streamed(bare_client: TestClient, suffix: str) -> None:
    import io

    import networkx as nx
    import pyarrow.parquet as pq

    seed = solvable_small_group()
    response = bare_client.get(f"/api/groups/{seed:09X}/graph.{suffix}",
                          headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers.get("content-encoding") == (None if suffix == "parquet"
                                                        else "gzip")
    summary = bare_client.get(f"/api/groups/{seed:09X}").json()
    if suffix == "parquet":
        edges = pq.read_table(io.BytesIO(response.content))
        nodes = pq.read_table(io.BytesIO(bare_client.get(
            f"/api/groups/{seed:09X}/graph.parquet", params={"part": "nodes"}).content))
        assert (nodes.num_rows, edges.num_rows) == (summary["size"], summary["edges"])
        return
    graph = (nx.parse_graphml(response.text) if suffix == "graphml"
             else nx.read_gexf(io.BytesIO(response.content)) if suffix == "gexf"
             else nx.node_link_graph(response.json(), edges="links"))
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (summary["size"],
                                                                  summary["edges"])


def test_graph_tools_are_in_the_openapi_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    bottlenecks = paths["/api/groups/{code}/bottlenecks"]["get"]
    assert {"400", "404", "413", "503"} <= set(bottlenecks["responses"])
    files = paths["/api/groups/{code}/graph.{suffix}"]["get"]
    assert {"400", "404"} <= set(files["responses"])
    assert "application/graphml+xml" in files["responses"]["200"]["content"]


def test_a_summary_from_the_database_places_nothing(small_database: Path,
                                                   tmp_path: Path) -> None:
    from huarong.space.database import Database
    from huarong.space.explorer import Explorer
    from tests.test_explorer_data import FIGURES_STYLE

    with Database.open(small_database) as database:
        code = database.query(f"SELECT code FROM layouts WHERE style = {FIGURES_STYLE} AND "
                              "min_steps >= 0 ORDER BY group_size DESC, code LIMIT 1").rows[0][0]
    layout = Layout(code)
    explorer = Explorer(small_database, tmp_path / "cache")
    fast = explorer.summary(layout)
    assert explorer.placements == 0
    view = explorer.view(layout)
    slow = view.summary()
    path = fast.pop("shortest_path")
    assert fast == {key: value for key, value in slow.items() if key != "shortest_path"}
    steps = view.graph.min_steps
    assert path[0] == slow["start_index"] and len(path) == slow["start_min_steps"] + 1
    assert [int(steps[node]) for node in path] == list(range(len(path) - 1, -1, -1))
    for before, after in itertools.pairwise(path):
        around = view.graph.targets[view.graph.offsets[before]:view.graph.offsets[before + 1]]
        assert after in around.tolist()
    # Without the farthest steps of the layout one search from it gives the farthest
    # distance: still nothing placed, and the same figures as the placed group's.
    with Database.open(small_database) as database:
        other = database.query("SELECT code FROM layouts WHERE farthest_steps IS NULL AND "
                               "min_steps > 2 ORDER BY code LIMIT 1").rows[0][0]
    fresh = Explorer(small_database, tmp_path / "cache")
    summary = fresh.summary(Layout(other))
    assert fresh.placements == 0
    placed = fresh.view(Layout(other)).summary()
    assert summary["start_min_steps"] == len(summary.pop("shortest_path")) - 1
    assert summary == {key: value for key, value in placed.items() if key != "shortest_path"}
