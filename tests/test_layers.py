"""Counts-only layer sweeps (``huarong.space.layers``) against a slow per-source search.

The reference shares nothing with huarong's kernels: groups and steps come from
``klotski_reference`` (frozensets), every source gets its own plain breadth-first search over
dicts, and a goal S counts as a solution from A exactly when no other goal G lies on a
shortest path, i.e. no G with dist(A, G) + dist(G, S) == dist(A, S) (docs §5, the definition
itself rather than the propagation the kernel uses).
"""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from huarong.engine.layout import Layout
from huarong.graph.sweeps import sweep_graphs
from huarong.space import cases, layers
from huarong.space.database import Database
from huarong.space.group_analysis import analyze_group
from huarong.space.layers import graph as layer_graph

from . import klotski_reference as ref

pytestmark = pytest.mark.big_memory

# Groups of several classes, self-mirror and not, with one goal, many, or none: 1,799 layouts.
GROUP_SEEDS = ["000599000", "000555000", "655283000", "97A7A0000", "636F53400", "C18AEB000",
               "8A53A3000"]


def _bfs(graph: dict[int, list[int]], source: int) -> dict[int, int]:
    dist = {source: 0}
    queue = deque([source])
    while queue:
        node = queue.popleft()
        for child in graph[node]:
            if child not in dist:
                dist[child] = dist[node] + 1
                queue.append(child)
    return dist


def reference_figures(seed: str) -> dict[int, tuple[int, int, int, int, int]]:
    """code -> (farthest steps, farthest count, min solution steps or -1, solutions at that
    distance, solutions) for every layout of the seed's group, one search per layout."""
    start = ref.from_grid(Layout.from_code(seed).grid())
    states = list(ref.distances(start))
    code = {state: int(Layout.from_grid(ref.to_grid(state))) for state in states}
    graph = {code[state]: [code[child] for child in ref.steps_from(state)] for state in states}
    goals = [code[state] for state in states if ref.is_goal(state)]
    from_goal = {goal: _bfs(graph, goal) for goal in goals}  # steps are reversible
    figures = {}
    for source in graph:
        dist = _bfs(graph, source)
        farthest = max(dist.values())
        solutions = [s for s in goals if not any(
            g != s and dist[g] + from_goal[g][s] == dist[s] for g in goals)]
        nearest = min((dist[s] for s in solutions), default=-1)
        figures[source] = (farthest, sum(1 for d in dist.values() if d == farthest), nearest,
                           sum(1 for s in solutions if dist[s] == nearest), len(solutions))
    return figures


@pytest.mark.parametrize("seed", GROUP_SEEDS)
def test_group_figures_match_one_search_per_layout(seed: str) -> None:
    expected = reference_figures(seed)
    codes, figures = layers.group_figures(int(Layout.from_code(seed)), threads=2)
    assert sorted(expected) == codes.tolist()
    assert {c: tuple(f) for c, f in zip(codes.tolist(), figures.T.tolist(), strict=True)} \
        == expected


@pytest.mark.parametrize("batch", [64, 100, 193])
def test_partly_filled_sweeps_match_one_search_per_layout(batch: int) -> None:
    """Sweeps of fewer sources than the 256 lanes (one word a node in use, a word filled in
    part, a lone source in the last word), several a group."""
    for seed in GROUP_SEEDS[:4]:
        expected = reference_figures(seed)
        graph, sources = layers.group_graph(int(Layout.from_code(seed)))
        [figures] = sweep_graphs([(graph, sources)], threads=2, batch=batch)
        for code, row in zip(graph.codes[sources].tolist(), figures.T.tolist(), strict=True):
            assert tuple(row) == expected[code]


def test_pieces_of_many_groups_share_one_queue() -> None:
    """Whole groups and source ranges of groups, their sweeps (37 sources each, so several a
    group, the last part-filled) taken from one queue by two threads: each piece gets its
    sources' figures and their mirror images', and progress ends at the pieces' sources and
    pairs."""
    pieces = []
    for index, seed in enumerate(GROUP_SEEDS):
        graph, sources = layers.group_graph(int(Layout.from_code(seed)))
        stop = sources.shape[0] // (1 + index % 2)  # every other piece: half the sources
        pieces.append(layers.Piece(int(Layout.from_code(seed)), graph.size, 0, stop))
    reports: list[tuple[int, int]] = []
    parts = layers.sweep_pieces(pieces, 2, lambda sources, pairs: reports.append(
        (sources, pairs)), batch=37)
    for piece, seed, (codes, figures) in zip(pieces, GROUP_SEEDS, parts, strict=True):
        expected = reference_figures(seed)
        graph, sources = piece.job()
        searched = graph.codes[sources].tolist()
        mirrors = {int(Layout(code).mirror()): code for code in searched}
        assert sorted(set(searched) | set(mirrors)) == codes.tolist()
        assert [expected[code if code in expected else mirrors[code]]
                for code in codes.tolist()] == [tuple(row) for row in figures.T.tolist()]
    assert reports[-1] == (sum(p.sources for p in pieces), sum(p.pairs for p in pieces))
    assert reports == sorted(reports)


def test_code_order_numbering_gives_the_same_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Big groups number their nodes in code order: here every group does."""
    monkeypatch.setattr(layer_graph, "CODE_ORDER_ABOVE", 0)
    layer_graph._group_graph.cache_clear()
    try:
        for seed in GROUP_SEEDS[:4]:
            graph, _ = layers.group_graph(int(Layout.from_code(seed)))
            assert (np.diff(graph.codes) > 0).all()
            codes, figures = layers.group_figures(int(Layout.from_code(seed)), threads=2)
            assert {c: tuple(f) for c, f in zip(codes.tolist(), figures.T.tolist(),
                                                strict=True)} == reference_figures(seed)
    finally:
        layer_graph._group_graph.cache_clear()


def test_sources_cover_each_mirror_pair_once() -> None:
    for seed in GROUP_SEEDS:
        graph, nodes = layers.group_graph(int(Layout.from_code(seed)))
        sources = graph.codes[nodes].tolist()

        def pair(code: int) -> int:
            return min(code, int(Layout(code).mirror()))

        if graph.mirror is not None:
            assert sorted({pair(c) for c in sources}) == sorted(map(pair, sources))
            assert {pair(c) for c in sources} == {pair(c) for c in graph.codes.tolist()}
        else:
            assert sorted(sources) == sorted(graph.codes.tolist())


def test_mirror_group_gets_the_mirrored_figures() -> None:
    seed = Layout.from_code("655283000")  # its mirror image lies in another group
    codes, figures = layers.group_figures(int(seed))
    mirror_codes, mirror_figures = layers.group_figures(int(seed.mirror()))
    mirrored = np.array([int(Layout(code).mirror()) for code in codes.tolist()])
    order = np.argsort(mirrored)
    assert (mirrored[order] == mirror_codes).all()
    assert (figures[:, order] == mirror_figures).all()


@pytest.mark.parametrize("code", ["1A9BF0C00",
                                  pytest.param("4FEA13400", marks=pytest.mark.slow)])
def test_agrees_with_the_group_analysis(code: str) -> None:
    """The group of 横刀立马 and the sparse group of 4FEA13400 (81,340 layouts), against the
    recording sweep of ``group_analysis``."""
    analysis = analyze_group(Layout.from_code(code))
    codes, figures = layers.group_figures(int(Layout.from_code(code)))
    solutions = np.diff(analysis.solution_offsets)
    source = np.repeat(np.arange(analysis.size), solutions)
    nearest = analysis.solution_steps == analysis.min_steps[source]
    expected = np.stack([analysis.farthest_steps, np.diff(analysis.farthest_offsets),
                         analysis.min_steps, np.bincount(source[nearest],
                                                         minlength=analysis.size),
                         solutions])
    assert (codes == analysis.codes).all()
    assert (figures == expected).all()


def test_mirror_ids_against_layout_mirror() -> None:
    codes = cases.all_codes()
    sample = np.array(random.Random(9).sample(range(cases.LAYOUT_COUNT), 2000))
    ids = layers.mirror_ids(codes[sample])
    expected = [cases.layout_id(Layout(int(code)).mirror()) for code in codes[sample]]
    assert ids.tolist() == expected
    hengdao = cases.layout_id("1A9BF0C00")
    assert layers.mirror_ids(codes[[hengdao]]).tolist() == [hengdao]  # symmetric


def test_class_columns_cover_the_class_and_nothing_else() -> None:
    codes = cases.all_codes()
    ids, figures = layers.class_figures(7, 0, layers.mirror_ids(codes))
    cls = cases.classes()
    in_class = (cls.jiang == 7) & (cls.bing == 0)
    # The existing minimum-steps pass (a backward search from every goal) agrees.
    class_codes, steps, nearest = cases.min_steps_of_class(7, 0)
    assert (codes[in_class] == class_codes).all()
    samples = [(cases.layout_ids(group), group_figures) for group, group_figures in (
        layers.group_figures(code)
        for code in random.Random(3).sample(codes[in_class].tolist(), 3))]
    # One column over every layout at a time: five at once would take half a gigabyte.
    for row, name in enumerate(layers.FIGURE_COLUMNS):
        column = layers.figure_column(name, ids, figures, codes.shape[0])
        assert ((column != layers.NOT_COMPUTED) <= in_class).all()
        if name == "farthest_steps":
            assert (column[in_class] >= 0).all()
        if name in ("min_steps", "min_step_solutions"):
            assert (column[in_class] == (steps if name == "min_steps" else nearest)).all()
        for at, group_figures in samples:
            assert (column[at] == group_figures[row]).all()
        del column


# ----- the built database (slow) --------------------------------------------------------------
@pytest.mark.slow
def test_database_mirror_links(database_path: Path) -> None:
    with Database.open(database_path) as db:
        rows = db.query('SELECT code, mirror_id, "symmetric" FROM layouts USING SAMPLE '
                        "reservoir(3000 ROWS) REPEATABLE (5)").rows
        assert db.query('SELECT count(*) FROM layouts a JOIN layouts b ON b.id = a.mirror_id '
                        'WHERE b.mirror_id <> a.id OR a."symmetric" <> (a.id = a.mirror_id)'
                        ).rows == [(0,)]
    for code, mirror_id, symmetric in rows:
        mirror = Layout(code).mirror()
        assert mirror_id == cases.layout_id(mirror)
        assert symmetric == (mirror == Layout(code))


@pytest.mark.slow
def test_database_figures_of_standard_layouts(database_path: Path) -> None:
    """Figures NULL outside the standard classes; inside, those of ``analyze_group`` for the
    groups of a sample of standard layouts (their mirror groups included)."""
    with Database.open(database_path) as db:
        assert db.query("SELECT jiang = 5 AND bing = 4, count(*) = count(farthest_steps), "
                        "count(farthest_steps) = count(farthest_count), "
                        "count(farthest_count) = count(solution_count) FROM layouts "
                        "GROUP BY ALL ORDER BY 1").rows == [(False, False, True, True),
                                                            (True, True, True, True)]
        seeds = [int(code) for (code,) in db.query(
            "SELECT code FROM layouts WHERE jiang = 5 AND bing = 4 AND group_size < 30000 "
            "USING SAMPLE reservoir(6 ROWS) REPEATABLE (2)").rows]
        for seed in [*seeds, int(Layout.from_code("1A9BF0C00"))]:
            for layout in (Layout(seed), Layout(seed).mirror()):
                analysis = analyze_group(layout)
                stored = db.query(
                    "SELECT farthest_steps, farthest_count, min_steps, min_step_solutions, "
                    "solution_count FROM layouts WHERE code IN "
                    f"({', '.join(map(str, analysis.codes.tolist()))}) ORDER BY code").rows
                nearest = [len(f.min_step_solutions) for f in analysis]
                expected = list(zip(analysis.farthest_steps.tolist(),
                                    np.diff(analysis.farthest_offsets).tolist(),
                                    [None if s < 0 else s for s in analysis.min_steps.tolist()],
                                    nearest, np.diff(analysis.solution_offsets).tolist(),
                                    strict=True))
                assert stored == expected


def test_api_layout_without_a_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from huarong.web.app import create_app

    monkeypatch.setenv("HUARONG_DB", str(tmp_path / "absent.duckdb"))
    answer = TestClient(create_app()).get("/api/layout", params={"code": "1A9BF0C00"}).json()
    assert answer["database"] is None and answer["code"] == "1A9BF0C00"


@pytest.mark.slow
def test_info_export_and_api_show_the_figures(database_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    """横刀立马 (standard: figures computed) against the one-layout analysis; a layout of
    class 4-3-0 has them NULL until ``db layers`` runs."""
    import json

    import pyarrow.parquet as pq
    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from huarong.cli import main
    from huarong.engine.analysis import analyze
    from huarong.web.app import create_app

    analysis = analyze(Layout.from_code("1A9BF0C00"))
    expected = {"farthest_steps": analysis.farthest_steps,
                "farthest_count": len(analysis.farthest_layouts),
                "solution_count": len(analysis.solutions), "symmetric": True,
                "mirror_id": cases.layout_id("1A9BF0C00")}
    result = CliRunner().invoke(main, ["db", "info", "1A9BF0C00", "--json", "--db",
                                       str(database_path)])
    fields = json.loads(result.stdout)
    assert {name: fields[name] for name in expected} == expected
    result = CliRunner().invoke(main, ["db", "info", "0002ABF00", "--db", str(database_path)])
    assert "not computed" in result.stdout

    monkeypatch.setenv("HUARONG_DB", str(database_path))
    answer = TestClient(create_app()).get("/api/layout", params={"code": "1A9BF0C00"}).json()
    assert {name: answer["database"][name] for name in expected} == expected

    with Database.open(database_path) as db:
        db.export(tmp_path / "layouts.parquet", "parquet")
    names = pq.read_schema(tmp_path / "layouts.parquet").names
    assert {"farthest_steps", "farthest_count", "solution_count", "symmetric",
            "mirror_id"} <= set(names)


def test_layer_figures_of_a_state_graph_with_and_without_its_mirror() -> None:
    """The sweeps take any StateGraph: with mirror nodes (one node of each pair searched,
    the figures copied) or without, the figures of every node are the one-search-per-layout
    ones, for any order of the sources, repeats included."""
    from huarong.engine.state_graph import klotski_graph
    from huarong.graph.sweeps import layer_figures

    seed = "C58763000"  # a self-mirror group
    expected = reference_figures(seed)
    graph = klotski_graph(Layout.from_code(seed), order="search", with_mirror=True)
    assert graph.mirror is not None
    plain = dataclasses.replace(graph, mirror=None)
    sources = np.random.default_rng(4).permutation(np.repeat(np.arange(graph.size), 2))
    for chosen in (graph, plain):
        figures = layer_figures(chosen, sources, threads=2)
        assert [tuple(row) for row in figures.T.tolist()] == [
            expected[int(code)] for code in graph.codes[sources]]
    assert [tuple(row) for row in layer_figures(graph).T.tolist()] == [
        expected[int(code)] for code in graph.codes]
