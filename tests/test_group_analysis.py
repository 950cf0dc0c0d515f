"""The bit-parallel batch analysis against docs §5 written out directly.

The reference below shares nothing with huarong: groups, steps and goals come from
``klotski_reference`` (dicts and frozensets), every layout gets its own breadth-first search,
and a goal S is a solution from A exactly when no other goal G lies on a shortest path from A
to S, i.e. when no G has dist(A, G) + dist(G, S) == dist(A, S) — the definition itself, not
the propagation the kernel uses.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from huarong.engine.layout import Layout
from huarong.space.group_analysis import (
    GroupAnalysis,
    SeedFileError,
    analyze_group,
    analyze_groups,
    read_seeds,
)
from huarong.space.group_tables import write_group_tables

from . import klotski_reference as ref

# Small groups found by sampling random layouts with two or three empty cells: sizes 20 to
# 244, with many goal layouts, one, none, and a group made only of goal layouts; and a group
# that is its own mirror image (C58763000: 72 layouts, 4 of them symmetric), whose sweeps
# take one layout of each mirror pair.
GROUP_SEEDS = ["8A53A3000", "A553A3000", "85DD23C00", "636F53400", "D35A3EC00", "C18AEB000",
               "C58763000"]


@dataclass
class Expected:
    farthest_steps: int
    farthest: list[int]
    min_steps: int | None
    min_step_solutions: list[int]
    solutions: dict[int, int]


def _code(state: ref.State) -> int:
    return int(Layout.from_grid(ref.to_grid(state)))


def reference(seed: str) -> dict[int, Expected]:
    """Every layout of the seed's group with its docs §5 figures, by brute force."""
    start = ref.from_grid(Layout.from_code(seed).grid())
    states = list(ref.distances(start))
    code = {state: _code(state) for state in states}
    steps = {state: ref.steps_from(state) for state in states}
    dist: dict[ref.State, dict[ref.State, int]] = {}
    for source in states:
        seen = {source: 0}
        queue = deque([source])
        while queue:
            state = queue.popleft()
            for child in steps[state]:
                if child not in seen:
                    seen[child] = seen[state] + 1
                    queue.append(child)
        dist[source] = seen
    goals = [state for state in states if ref.is_goal(state)]
    expected = {}
    for a in states:
        far = max(dist[a].values())
        solutions = {code[s]: dist[a][s] for s in goals
                     if not any(g != s and dist[a][g] + dist[g][s] == dist[a][s]
                                for g in goals)}
        nearest = min(solutions.values(), default=None)
        expected[code[a]] = Expected(
            farthest_steps=far,
            farthest=sorted(code[s] for s, d in dist[a].items() if d == far),
            min_steps=nearest,
            min_step_solutions=sorted(c for c, d in solutions.items() if d == nearest),
            solutions=solutions)
    return expected


@pytest.fixture(scope="module", params=GROUP_SEEDS)
def group(request: pytest.FixtureRequest) -> tuple[GroupAnalysis, dict[int, Expected]]:
    seed = request.param
    return analyze_group(Layout.from_code(seed)), reference(seed)


def test_every_layout_of_the_group_is_listed_once_by_code(group):
    analysis, expected = group
    assert analysis.codes.tolist() == sorted(expected)


def test_farthest_steps_and_layouts_match_a_search_per_layout(group):
    analysis, expected = group
    for figures in analysis:
        want = expected[int(figures.layout)]
        assert figures.farthest_steps == want.farthest_steps, figures.layout
        assert [int(x) for x in figures.farthest_layouts] == want.farthest, figures.layout


def test_solutions_match_the_spec_definition(group):
    analysis, expected = group
    for figures in analysis:
        want = expected[int(figures.layout)]
        assert figures.min_steps == want.min_steps, figures.layout
        assert [int(x) for x in figures.min_step_solutions] == want.min_step_solutions
        assert {int(x): steps for x, steps in figures.solutions} == want.solutions
        assert [steps for _, steps in figures.solutions] == sorted(want.solutions.values())


def test_a_goal_layout_is_its_own_only_solution(group):
    analysis, _ = group
    for figures in analysis:
        if figures.layout.is_solved:
            assert figures.solutions == ((figures.layout, 0),)


def test_more_sources_than_one_sweep_holds():
    """The 1A9BF0C00 group needs hundreds of sweeps: sample layouts against one search."""
    from huarong.engine.analysis import analyze

    analysis = analyze_group(Layout.from_code("1A9BF0C00"), threads=2)
    assert analysis.size == 25955  # the 横刀立马 group size quoted in the task
    for code in analysis.codes[:: analysis.size // 5].tolist():
        single = analyze(Layout(code))
        figures = analysis.figures(Layout(code))
        assert figures.farthest_steps == single.farthest_steps
        assert list(figures.farthest_layouts) == sorted(single.farthest_layouts)
        assert figures.min_steps == single.min_steps
        assert set(figures.solutions) == set(single.solutions)


def test_figures_of_a_layout_outside_the_group_is_an_error():
    analysis = analyze_group(Layout.from_code(GROUP_SEEDS[3]))
    with pytest.raises(ValueError, match="not in the group"):
        analysis.figures(Layout.from_code("1A9BF0C00"))


def test_progress_reaches_the_group_size():
    calls: list[tuple[str, int, int]] = []
    analysis = analyze_group(Layout.from_code(GROUP_SEEDS[0]),
                             progress=lambda *call: calls.append(call))
    assert ("analysing layouts", analysis.size, analysis.size) in calls


def _rows(path: Path) -> list[list[str]]:
    return [line.split(",") for line in path.read_text().splitlines()]


def test_csv_tables_hold_the_reference_figures(tmp_path):
    seed = GROUP_SEEDS[0]
    want = reference(seed)
    farthest, solution = tmp_path / "farthest.csv", tmp_path / "solution.csv"
    write_group_tables([Layout.from_code(seed)], farthest, solution, integral=True)

    header, *rows = _rows(farthest)
    assert header == ["code", "farthest_steps", "farthest_count", "farthest_layouts"]
    assert [int(row[0], 16) for row in rows] == sorted(want)
    for code, steps, count, layouts in rows:
        expected = want[int(code, 16)]
        assert int(steps) == expected.farthest_steps
        assert int(count) == len(expected.farthest)
        assert [int(c, 16) for c in layouts.split("-")] == expected.farthest

    header, *rows = _rows(solution)
    assert header == ["code", "min_steps", "min_step_solutions", "solution_count", "solutions"]
    for code, steps, nearest, count, every in rows:
        expected = want[int(code, 16)]
        assert int(steps) == (-1 if expected.min_steps is None else expected.min_steps)
        assert [int(c, 16) for c in nearest.split("-") if c] == (
            expected.min_step_solutions)
        assert int(count) == len(expected.solutions)
        listed = [entry.rstrip(")").split("(") for entry in every.split("-") if entry]
        assert {int(c, 16): int(s) for c, s in listed} == expected.solutions


def test_plain_solution_table_has_no_solution_list(tmp_path):
    path = tmp_path / "solution.csv"
    size = write_group_tables([Layout.from_code(GROUP_SEEDS[1])], tmp_path / "far.csv", path)
    header, *rows = _rows(path)
    assert header == ["code", "min_steps", "min_step_solutions", "solution_count"]
    assert len(rows) == size == len(reference(GROUP_SEEDS[1]))
    assert all(len(row) == 4 for row in rows)


def test_a_group_without_goals_has_no_solutions(tmp_path):
    path = tmp_path / "solution.csv"
    seed = GROUP_SEEDS[3]
    assert not any(e.solutions for e in reference(seed).values())
    write_group_tables([Layout.from_code(seed)], tmp_path / "far.csv", path)
    assert {tuple(row[1:]) for row in _rows(path)[1:]} == {("-1", "", "0")}


def test_multi_group_keeps_seed_order_and_skips_repeated_groups(tmp_path):
    seeds = [Layout.from_code(code) for code in (GROUP_SEEDS[1], GROUP_SEEDS[4])]
    repeated = Layout(int(analyze_group(seeds[0]).codes[-1]))  # another layout of group 1
    analyses = list(analyze_groups([*seeds, repeated]))
    assert [a.seed for a in analyses] == seeds
    path = tmp_path / "farthest.csv"
    write_group_tables([*seeds, repeated], path, tmp_path / "solution.csv")
    codes = [int(row[0], 16) for row in _rows(path)[1:]]
    first = sorted(reference(GROUP_SEEDS[1]))
    assert codes == first + sorted(reference(GROUP_SEEDS[4]))
    # The original format lists every seed's group, as the original engine did.
    write_group_tables([*seeds, repeated], path, tmp_path / "solution.csv",
                       table_format="original")
    codes = [int(row[0], 16) for row in _rows(path)]
    assert codes == first + sorted(reference(GROUP_SEEDS[4])) + first


def test_seeds_file_skips_blank_lines_and_comments(tmp_path):
    path = tmp_path / "5-4-0.txt"
    path.write_text("# seeds\n1A9BF0C00\n\n  4fea134  # trailing zeros omitted\n")
    assert read_seeds(path) == [Layout.from_code("1A9BF0C00"), Layout.from_code("4FEA13400")]


def test_seeds_file_errors_name_file_line_and_code(tmp_path):
    path = tmp_path / "seeds.txt"
    path.write_text("1A9BF0C00\nnot-a-code\n")
    with pytest.raises(SeedFileError, match=r"seeds\.txt.*line 2.*not-a-code"):
        read_seeds(path)
    with pytest.raises(SeedFileError, match=r"missing\.txt"):
        read_seeds(tmp_path / "missing.txt")


def test_a_sweep_that_runs_out_of_room_for_rows_retries_with_more():
    from huarong._kernels import group_analysis as sweep
    from huarong._kernels import group_search

    boards, _, _, _ = group_search.bfs(int(Layout.from_code(GROUP_SEEDS[2])),
                                       group_search.EXPLORE_ALL, 0, 1024)
    offsets, targets = group_search.adjacency(boards)
    goal = sweep.goal_flags(boards)
    sources = np.arange(min(64, boards.shape[0]), dtype=np.int64)
    roomy = sweep.sweep_batch(offsets, targets, goal, sources)
    cramped = sweep.sweep_batch(offsets, targets, goal, sources, 1)
    assert len(roomy[3]) > 8  # several solution rows, so room for 1 overflows repeatedly
    for plenty, retried in zip(roomy, cramped, strict=True):
        assert np.array_equal(plenty, retried)
