"""Every shortest path (``shortest-paths``, the original ``--group-path``) and one path to
each solution or farthest layout (``paths``, ``--cal-solution-path``, ``--cal-farthest-path``),
against the pure-Python reference engine: its own depth-limited search, its own path count."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

import pytest
from click.testing import CliRunner

from huarong.cli import main
from huarong.engine.analysis import analyze
from huarong.engine.layout import Layout
from huarong.engine.shortest_paths import NoTargetError, paths_to_each, shortest_path_graph
from huarong.engine.solver import solve

from . import klotski_reference as reference


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def state(layout: Layout) -> reference.State:
    return reference.from_grid(layout.grid())


def reference_graph(start: Layout) -> tuple[int, int, list[set[str]]]:
    """(steps, number of shortest paths, grids of each layer of the graph) from ``start`` to
    its nearest goals, by the reference engine alone: a breadth-first search that stops at
    the first layer holding a goal, then a count of the paths reaching back to the start."""
    layers = [{state(start)}]
    seen = set(layers[0])
    while not any(reference.is_goal(s) for s in layers[-1]):
        following = {child for s in layers[-1] for child in reference.steps_from(s)} - seen
        seen |= following
        layers.append(following)
    steps = len(layers) - 1

    @functools.cache
    def paths_to_goal(s: reference.State, depth: int) -> int:
        if depth == steps:
            return int(reference.is_goal(s))
        return sum(paths_to_goal(child, depth + 1) for child in reference.steps_from(s)
                   if child in layers[depth + 1])

    total = paths_to_goal(state(start), 0)
    on_graph = [{reference.to_grid(s) for s in layer if paths_to_goal(s, depth)}
                for depth, layer in enumerate(layers)]
    return steps, total, on_graph


def near_goal(steps_left: int) -> Layout:
    path = solve(Layout.from_code("1A9BF0C00")).path
    return path[len(path) - 1 - steps_left]


@pytest.mark.parametrize("start", [Layout.from_code("5DC02F800"), near_goal(20), near_goal(29)],
                         ids=["5DC02F800", "20 from goal", "29 from goal"])
def test_graph_and_count_match_the_reference(start: Layout) -> None:
    steps, total, on_graph = reference_graph(start)
    graph = shortest_path_graph(start)
    assert graph.steps == steps and graph.path_count == total and total > 1
    assert [{reference.to_grid(state(node.layout)) for node in layer}
            for layer in graph.layers] == on_graph
    # Path counts add up: each layout's count is the sum over the graph's edges into it.
    for before, after in itertools.pairwise(graph.layers):
        into = {node.layout: 0 for node in after}
        for node in before:
            for following in node.next:
                into[following] += node.paths
        assert into == {node.layout: node.paths for node in after}


@pytest.mark.slow
def test_the_hardest_layout_matches_the_reference() -> None:
    start = Layout.from_code("4FEA13400")
    steps, total, _ = reference_graph(start)
    graph = shortest_path_graph(start)
    assert graph.steps == steps == 138 and graph.path_count == total


def test_no_solution_and_foreign_target() -> None:
    with pytest.raises(NoTargetError, match="no solution"):
        shortest_path_graph(Layout.parse("VCCV/VCCV/VVSV/VVSV/S..S"))
    with pytest.raises(NoTargetError, match="not in the group"):
        shortest_path_graph(Layout.from_code("1A9BF0C00"), [Layout.from_code("4FEA13400")])


def test_one_path_to_each_solution_and_farthest_layout() -> None:
    start = Layout.from_code("1A9BF0C00")
    analysis = analyze(start)
    for targets, expected_steps in (
            ([s for s, _ in analysis.solutions], [steps for _, steps in analysis.solutions]),
            (analysis.farthest_layouts,
             [analysis.farthest_steps] * len(analysis.farthest_layouts))):
        found = paths_to_each(start, targets, analysis)
        assert [p[-1] for p in found] == list(targets)
        assert [len(p) - 1 for p in found] == expected_steps
        for path in found:
            assert path[0] == start
            assert all(reference.is_one_step(state(a), state(b))
                       for a, b in itertools.pairwise(path))


# ----- the original spellings --------------------------------------------------------------
def test_group_path_writes_the_graph(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, _ = run("--group-path", "5DC02F8", "%")
    lines = (tmp_path / "5DC02F800.txt").read_text().splitlines()
    steps, total, on_graph = reference_graph(Layout.from_code("5DC02F800"))
    assert code == 0 and lines[:4] == [
        "start 5DC02F800", lines[1], f"steps {steps}", f"paths {total}"]
    headers = [line for line in lines if line.startswith("[layer ")]
    assert headers == [f"[layer {k}] {len(layer)} layouts" for k, layer in enumerate(on_graph)]
    assert lines[5].startswith("5DC02F800 1 -> ")


def test_cal_path_and_cal_target_path_are_compact_solve_and_path() -> None:
    assert run("--cal-path", "1A9BF0C00")[1] == run("solve", "1A9BF0C00", "-c")[1]
    assert run("--cal-target-path", "4FEA13400", "43EA73400")[1] == run(
        "path", "4FEA13400", "43EA73400", "-c")[1]


@pytest.mark.parametrize(("spelling", "ends"), [("--cal-solution-path", "solutions"),
                                                ("--cal-farthest-path", "farthest")])
def test_cal_solution_and_farthest_path(spelling: str, ends: str) -> None:
    code, out, _ = run(spelling, "1A9BF0C00")
    assert code == 0 and out == run("paths", "1A9BF0C00", "--to", ends)[1]
    analysis = analyze(Layout.from_code("1A9BF0C00"))
    expected = (analysis.solutions if ends == "solutions"
                else [(layout, analysis.farthest_steps) for layout in analysis.farthest_layouts])
    assert [line.split(":")[0] for line in out.splitlines()] == [
        f"{layout.code} {steps}" for layout, steps in expected]
    for line in out.splitlines():
        codes = line.split(": ")[1].split()
        assert codes[0] == "1A9BF0C00" and len(codes) - 1 == int(line.split()[1][:-1])
