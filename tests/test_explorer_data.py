"""The explorer's data (huarong.space.explorer): group graphs against the plain-Python
reference engine and the enumeration's group sizes, the placement and its cache on disk, and
the classes, groups and records from a small database in the real schema."""

from __future__ import annotations

import functools
import itertools
from collections import deque
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pytest

from huarong.engine.layout import Layout
from huarong.engine.state_graph import klotski_graph
from huarong.graph.placement import place
from huarong.space import cases, database, layers
from huarong.space.explorer import (
    Catalog,
    ClassKey,
    Explorer,
    PageError,
    PlacementCache,
    UnknownClassError,
    all_classes,
    default_directory,
    parse_class,
)
from tests import klotski_reference as reference

pytestmark = pytest.mark.big_memory

SMALL_CLASS = (7, 0)
"""jiang-bing of the test database: 3,508 layouts in small groups, some with goals."""
FIGURES_STYLE = 1
"""The one style of SMALL_CLASS whose farthest steps the test database holds."""


def _state(code: int) -> reference.State:
    return reference.from_grid(Layout(code).grid())


def _code(state: reference.State) -> int:
    return int(Layout.from_grid(reference.to_grid(state)))


@functools.cache
def small_groups(count: int, low: int = 40, high: int = 400) -> list[tuple[int, int]]:
    """(seed, size) of the first ``count`` groups of the standard class (5-4) whose size the
    enumeration gives as low..high."""
    labels = cases.label_groups()
    codes = cases.all_codes()
    cls = cases.classes()
    firsts = labels.first_ids
    chosen = np.flatnonzero((cls.jiang[firsts] == 5) & (cls.bing[firsts] == 4)
                            & (labels.sizes >= low) & (labels.sizes <= high))[:count]
    return [(int(codes[firsts[g]]), int(labels.sizes[g])) for g in chosen]


@functools.cache
def solvable_small_group() -> int:
    """The seed of the first of :func:`small_groups` that holds a goal, by the enumeration's
    minimum steps."""
    codes, steps, _ = cases.min_steps_of_class(5, 4)
    solvable = set(codes[steps >= 0].tolist())
    return next(seed for seed, _ in small_groups(10_000) if seed in solvable)


def reference_min_steps(states: dict[reference.State, int]) -> dict[int, int]:
    """The minimum steps of every layout of a group (by code, -1 without a goal): one
    breadth-first search of the reference engine from all the goals at once."""
    found = {state: 0 for state in states if reference.is_goal(state)}
    queue = deque(found)
    while queue:
        state = queue.popleft()
        for child in reference.steps_from(state):
            if child not in found:
                found[child] = found[state] + 1
                queue.append(child)
    return {_code(state): found.get(state, -1) for state in states}


def test_the_203_classes_are_those_the_enumeration_finds() -> None:
    found = {ClassKey(*key) for key in cases.classes().style_counts()}
    assert set(all_classes()) == found
    assert len(all_classes()) == 203


@pytest.mark.parametrize("name", ["5-4", "5-4-1-0", "8-0-0", "a-b-c", "5-15-0", ""])
def test_a_malformed_class_name_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="jiang-bing-style"):
        parse_class(name)


@pytest.mark.parametrize("name", ["7-0-0", "6-5-0", "2-3-4"])
def test_a_class_that_does_not_exist_is_refused(name: str) -> None:
    with pytest.raises(UnknownClassError, match="does not exist"):
        parse_class(name)


@pytest.mark.parametrize("index", range(3))
def test_group_graph_matches_the_reference_engine(index: int) -> None:
    seed, size = [*small_groups(2), (solvable_small_group(), 0)][index]
    graph = klotski_graph(seed)
    states = reference.distances(_state(seed))
    assert graph.size == len(states) == (size or len(states))
    assert graph.codes.tolist() == sorted(_code(state) for state in states)
    assert graph.edge_count == sum(len(reference.steps_from(s)) for s in states) // 2
    pairs = graph.edge_pairs()
    assert pairs.shape == (graph.edge_count, 2) and (pairs[:, 0] < pairs[:, 1]).all()
    expected = reference_min_steps(states)
    assert graph.min_steps.tolist() == [expected[code] for code in graph.codes.tolist()]


def test_shortest_path_steps_to_a_goal_in_min_steps() -> None:
    graph = klotski_graph(solvable_small_group())
    assert graph.solvable
    start = int(np.argmax(graph.min_steps))
    path = graph.shortest_path(start)
    states = [_state(int(graph.codes[node])) for node in path]
    assert len(path) == graph.min_steps[start] + 1 and path[0] == start
    assert reference.is_goal(states[-1])
    assert all(reference.is_one_step(a, b) for a, b in itertools.pairwise(states))


def test_distances_from_a_node_match_the_reference() -> None:
    seed, _ = small_groups(2)[1]
    graph = klotski_graph(seed)
    start = graph.size // 2
    found = graph.distances(np.array([start]))
    expected = reference.distances(_state(int(graph.codes[start])))
    assert {int(graph.codes[i]): int(found[i]) for i in range(graph.size)} == {
        _code(state): steps for state, steps in expected.items()}


def test_a_group_without_goals_has_no_minimum_steps() -> None:
    # 7-0 has groups with no goal layout: pick one from the enumeration's minimum steps.
    codes, steps, _ = cases.min_steps_of_class(*SMALL_CLASS)
    code = int(codes[np.flatnonzero(steps == -1)[0]])
    graph = klotski_graph(code)
    assert not graph.solvable and (graph.min_steps == -1).all()
    assert graph.shortest_path(0) == []
    assert np.isfinite(place(graph)).all()


def test_placement_is_deterministic_inside_the_unit_square() -> None:
    seed, _ = small_groups(1, 300, 2000)[0]
    first, second = place(klotski_graph(seed)), place(klotski_graph(seed))
    assert first.dtype == np.float32 and first.shape == (klotski_graph(seed).size, 2)
    assert np.array_equal(first, second)
    assert first.min() >= 0 and first.max() <= 1
    assert len({tuple(point) for point in first.tolist()}) > first.shape[0] // 4


def test_placement_keeps_steps_shorter_than_random_pairs() -> None:
    graph = klotski_graph(int(Layout.parse("1A9BF0C00")))  # 横刀立马: 25,955 layouts
    positions = place(graph)
    pairs = graph.edge_pairs()
    step = np.linalg.norm(positions[pairs[:, 0]] - positions[pairs[:, 1]], axis=1).mean()
    rng = np.random.default_rng(0)
    random_pairs = rng.integers(0, graph.size, size=(5000, 2))
    spread = np.linalg.norm(positions[random_pairs[:, 0]] - positions[random_pairs[:, 1]],
                            axis=1).mean()
    assert step < spread / 5


def test_placement_is_cached_on_disk_and_read_back(tmp_path: Path) -> None:
    seed, _ = small_groups(1)[0]
    missing = tmp_path / "no.duckdb"
    first = Explorer(missing, tmp_path / "cache")
    view = first.view(Layout(seed))
    assert (first.placements, first.cache.writes, first.cache.reads) == (1, 1, 0)
    assert first.cache.path(seed).is_file()
    second = Explorer(missing, tmp_path / "cache")
    again = second.view(Layout(int(view.graph.codes[-1])))
    assert (second.placements, second.cache.reads) == (0, 1)
    assert np.array_equal(again.placed.positions, view.placed.positions)
    assert again.start == view.graph.size - 1


def test_a_damaged_cache_file_is_placed_again(tmp_path: Path) -> None:
    seed, _ = small_groups(1)[0]
    cache = PlacementCache(tmp_path)
    cache.directory.mkdir(exist_ok=True)
    cache.path(seed).write_bytes(b"not a zip file")
    assert cache.load(seed) is None and not cache.path(seed).exists()
    explorer = Explorer(tmp_path / "no.duckdb", tmp_path)
    explorer.view(Layout(seed))
    assert explorer.placements == 1 and cache.load(seed) is not None


def test_the_cache_keeps_to_its_budget(tmp_path: Path) -> None:
    groups = small_groups(3)
    older_format = tmp_path / f"group-{groups[0][0]:09X}.v1.npz"
    older_format.write_bytes(b"a placement in a format no longer read")
    explorer = Explorer(tmp_path / "no.duckdb", tmp_path)
    explorer.cache.max_bytes = 1  # every new file pushes the older ones out
    for seed, _ in groups:
        explorer.view(Layout(seed))
    assert [path.name for path in tmp_path.glob("group-*.npz")] == [
        explorer.cache.path(groups[-1][0]).name]


def test_the_cache_directory_is_chosen_by_setting_then_database_then_user(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    database_file = tmp_path / "huarong.duckdb"
    database_file.write_bytes(b"")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user"))
    monkeypatch.setenv("HUARONG_EXPLORER_CACHE", str(tmp_path / "chosen"))
    assert default_directory(database_file) == tmp_path / "chosen"
    monkeypatch.delenv("HUARONG_EXPLORER_CACHE")
    assert default_directory(database_file) == tmp_path / "huarong.duckdb.explorer"
    assert default_directory(tmp_path / "absent.duckdb") == tmp_path / "user" / "huarong" / \
        "explorer"


def test_catalog_without_a_database_answers_from_the_enumeration(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "absent.duckdb")
    answer = catalog.classes()
    assert answer["database"] is False
    by_name = {row["name"]: row for row in answer["classes"]}
    labels = cases.label_groups()
    assert sum(row["layouts"] for row in by_name.values()) == cases.LAYOUT_COUNT
    assert sum(row["groups"] for row in by_name.values()) == labels.count == 25_422
    assert by_name["5-4-1"]["layouts"] == int(np.count_nonzero(
        cases.classes().key() == (5 << 8 | 4 << 4 | 1)))
    assert by_name["5-4-1"]["longest_farthest_steps"] is None
    assert catalog.records()["records"] == []
    assert "huarong db build" in catalog.records()["message"]


def test_class_summary_without_a_database_has_the_histogram(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "absent.duckdb")
    summary = catalog.class_summary(parse_class("7-0-3"))
    codes, steps, _ = cases.min_steps_of_class(*SMALL_CLASS)
    mine = steps[cases.classes_of(codes).style == 3]
    assert summary["min_steps_histogram"] == [
        [int(v), int(np.count_nonzero(mine == v))] for v in np.unique(mine)]
    assert summary["layouts"] == mine.size
    page = catalog.groups(parse_class("7-0-3"), 0, 1000)
    assert sum(group["size"] for group in page["groups"]) == mine.size
    sizes = [group["size"] for group in page["groups"]]
    assert sizes == sorted(sizes, reverse=True)
    for group in page["groups"][:3]:
        graph = klotski_graph(int(group["seed"], 16))
        assert graph.size == group["size"] and f"{int(graph.codes[0]):09X}" == group["seed"]
        assert group["min_steps"] == (int(graph.min_steps.min()) if graph.solvable else None)


def make_small_database(path: Path) -> Path:
    """A database in the real schema holding class 7-0 with its labels and minimum steps
    (from the enumeration) and the farthest steps of style 1 only (by the layer sweeps)."""
    codes, steps, solutions = cases.min_steps_of_class(*SMALL_CLASS)
    ids = cases.layout_ids(codes)
    labels = cases.label_groups()
    cls = cases.classes_of(codes)
    group = labels.group[ids]
    farthest = np.full(codes.size, -1, dtype=np.int64)
    for g in np.unique(group[cls.style == FIGURES_STYLE]).tolist():
        seed = int(cases.all_codes()[labels.first_ids[g]])
        found, figures = layers.group_figures(seed, threads=1)
        farthest[np.searchsorted(codes, found)] = figures[0]
    rows = pa.table({
        "id": ids.astype(np.int32), "code": codes, "jiang": cls.jiang, "bing": cls.bing,
        "style": cls.style, "group_num": labels.group_nums[group],
        "group_index": labels.group_index[ids], "group_size": labels.sizes[group],
        "min_steps": steps, "min_step_solutions": solutions, "farthest_steps": farthest,
        "farthest_count": np.where(farthest >= 0, 1, -1), "solution_count":
            np.where(farthest >= 0, np.maximum(solutions, 0) + 1, -1),
    })
    firsts = labels.first_ids[np.unique(group)]
    seeds = cases.all_codes()[firsts]
    seed_cls = cases.classes_of(seeds)
    group_rows = pa.table({
        "jiang": seed_cls.jiang, "bing": seed_cls.bing, "style": seed_cls.style,
        "group_num": labels.group_nums[np.unique(group)],
        "size": labels.sizes[np.unique(group)], "seed": seeds,
        "has_solution": steps[np.searchsorted(codes, seeds)] >= 0})
    with duckdb.connect(str(path)) as connection:
        database.create_tables(connection)
        connection.register("rows", rows)
        connection.register("group_rows", group_rows)
        connection.execute(
            "INSERT INTO layouts (id, code, jiang, bing, style, group_num, group_index, "
            "group_size, min_steps, min_step_solutions, farthest_steps, farthest_count, "
            "solution_count, \"symmetric\", mirror_id) SELECT id, code, jiang, bing, style, "
            "group_num, group_index, group_size, NULLIF(min_steps, -1), min_step_solutions, "
            "NULLIF(farthest_steps, -1), NULLIF(farthest_count, -1), "
            "NULLIF(solution_count, -1), false, 0 FROM rows ORDER BY id")
        connection.execute("INSERT INTO groups SELECT * FROM group_rows")
    return path


@pytest.fixture(scope="module")
def small_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_database(tmp_path_factory.mktemp("explorer") / "small.duckdb")


def test_catalog_classes_from_the_database(small_database: Path) -> None:
    answer = Catalog(small_database).classes()
    assert answer["database"] is True
    by_name = {row["name"]: row for row in answer["classes"]}
    codes, steps, _ = cases.min_steps_of_class(*SMALL_CLASS)
    style = cases.classes_of(codes).style
    for s in range(1, 8):
        row = by_name[f"7-0-{s}"]
        mine = steps[style == s]
        assert row["layouts"] == mine.size
        assert row["solvable_layouts"] == int(np.count_nonzero(mine >= 0))
        assert row["longest_min_steps"] == (int(mine.max()) if (mine >= 0).any() else None)
    assert by_name[f"7-0-{FIGURES_STYLE}"]["longest_farthest_steps"] is not None
    assert f"7-0-{FIGURES_STYLE}" not in answer["figures_missing"]
    assert "7-0-2" in answer["figures_missing"]


def test_catalog_groups_and_locate_from_the_database(small_database: Path) -> None:
    catalog = Catalog(small_database)
    key = parse_class("7-0-2")
    page = catalog.groups(key, 0, 2)
    assert page["groups_total"] == catalog.class_summary(key)["groups_total"]
    second = catalog.groups(key, 1, 2)["groups"]
    sizes = [g["size"] for g in page["groups"] + second]
    assert sizes == sorted(sizes, reverse=True)
    assert [g["group_num"] for g in page["groups"] + second] == [0, 1, 2, 3][:len(sizes)]
    with pytest.raises(PageError):
        catalog.groups(key, 10_000, 2)
    for group in page["groups"]:
        graph = klotski_graph(int(group["seed"], 16))
        located = catalog.locate(Layout(int(graph.codes[-1])))
        assert (located.seed, located.size, located.key) == (int(graph.codes[0]), graph.size, key)
        assert group["min_steps"] == (int(graph.min_steps.min()) if graph.solvable else None)
        assert group["longest_min_steps"] == (int(graph.min_steps.max()) if graph.solvable
                                              else None)


def test_farthest_steps_come_from_the_database_when_complete(small_database: Path,
                                                             tmp_path: Path) -> None:
    explorer = Explorer(small_database, tmp_path)
    key = parse_class(f"7-0-{FIGURES_STYLE}")
    seed = int(explorer.catalog.groups(key, 0, 1)["groups"][0]["seed"], 16)
    view = explorer.view(Layout(seed))
    codes, figures = layers.group_figures(seed, threads=1)
    assert codes.tolist() == view.graph.codes.tolist()
    assert view.farthest is not None and view.farthest.tolist() == figures[0].tolist()
    other = int(explorer.catalog.groups(parse_class("7-0-2"), 0, 1)["groups"][0]["seed"], 16)
    assert explorer.view(Layout(other)).farthest is None


def test_records_from_the_database(small_database: Path) -> None:
    answer = Catalog(small_database).records()
    assert answer["database"] is True
    records = {record["id"]: record["rows"] for record in answer["records"]}
    assert set(records) == {"longest-min", "longest-farthest", "most-solutions",
                            "largest-groups", "class-longest"}
    codes, steps, _ = cases.min_steps_of_class(*SMALL_CLASS)
    longest = codes[steps == steps.max()]
    assert [row["code"] for row in records["longest-min"]] == [f"{c:09X}" for c in longest]
    style = cases.classes_of(codes).style
    expected = {}
    for s in range(1, 8):
        mine = steps[style == s]
        if (mine >= 0).any():
            expected[f"7-0-{s}"] = (int(codes[style == s][mine == mine.max()].min()),
                                    int(mine.max()))
    assert {row["class"]: (int(row["code"], 16), row["min_steps"])
            for row in records["class-longest"]} == expected
    sizes = [row["group_size"] for row in records["largest-groups"]]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[0] == int(cases.label_groups().sizes[
        cases.label_groups().group[cases.layout_ids(codes)]].max())
