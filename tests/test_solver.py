"""Steps, solving, paths, groups and the layer model, against docs facts and a slow
pure-Python reference engine (tests/klotski_reference.py)."""

from __future__ import annotations

import itertools
import random

import pytest

from huarong.engine.analysis import analyze
from huarong.engine.layout import Layout
from huarong.engine.solver import NotInGroupError, children, group, group_size, shortest_path, solve

from . import klotski_reference as ref

HENGDAO = Layout.from_code("1A9BF0C00")


def state_of(layout: Layout) -> ref.State:
    return ref.from_grid(layout.grid())


def layout_of(state: ref.State) -> Layout:
    return Layout.from_grid(ref.to_grid(state))


def assert_valid_path(path: tuple[Layout, ...]) -> None:
    """Every consecutive pair differs by exactly one legal step (checked by the reference)."""
    for before, after in itertools.pairwise(path):
        assert ref.is_one_step(state_of(before), state_of(after)), (before, after)


def test_hengdaolima_needs_81_steps_along_a_legal_path() -> None:
    solution = solve(HENGDAO)
    assert solution.steps == 81
    assert solution.path[0] == HENGDAO and solution.path[-1].is_solved
    assert not any(layout.is_solved for layout in solution.path[:-1])
    assert_valid_path(solution.path)


def test_hengdaolima_group_has_25955_layouts_sorted_by_code() -> None:
    layouts = group(HENGDAO)
    assert len(layouts) == 25955 == group_size(HENGDAO)
    assert group_size(HENGDAO, limit=25955) == 25955
    assert group_size(HENGDAO, limit=25954) is None
    assert layouts == sorted(set(layouts))
    assert HENGDAO in layouts


def test_children_match_the_reference_steps() -> None:
    rng = random.Random(7)
    for _ in range(300):
        state = ref.random_state(rng, empties=rng.randint(2, 12))
        expected = sorted(layout_of(child) for child in ref.steps_from(state))
        assert children(layout_of(state)) == expected


def test_shortest_path_between_the_seed_example() -> None:
    start, target = Layout.from_code("4FEA13400"), Layout.from_code("43EA73400")
    path = shortest_path(start, target)
    assert path[0] == start and path[-1] == target
    assert len(path) - 1 == ref.distances(state_of(start), until=state_of(target))[
        state_of(target)]
    assert_valid_path(path)


def test_shortest_path_to_itself_is_empty_of_steps() -> None:
    assert shortest_path(HENGDAO, HENGDAO) == (HENGDAO,)


def test_shortest_path_out_of_the_group_is_a_clear_error() -> None:
    with pytest.raises(NotInGroupError, match="4FEA13400 is not in the group of 1A9BF0C00"):
        shortest_path(HENGDAO, Layout.from_code("4FEA13400"))


def test_a_solved_layout_solves_in_zero_steps() -> None:
    solved = Layout.from_code("DAAF4CC00")
    assert solve(solved).steps == 0 and solve(solved).path == (solved,)


def test_a_group_without_a_goal_has_no_solution() -> None:
    # 走投无路 ("nowhere to go"), known from the literature to have no solution.
    stuck = Layout.from_grid("VCCV/VCCV/VVSV/VVSV/S..S")
    assert not any(ref.is_goal(state) for state in ref.distances(state_of(stuck)))
    solution = solve(stuck)
    assert not solution.solvable and solution.steps is None and solution.path == ()
    assert analyze(stuck).min_steps is None and analyze(stuck).solutions == []


def test_analysis_of_hengdaolima_agrees_with_the_reference() -> None:
    analysis = analyze(HENGDAO)
    dist = ref.distances(state_of(HENGDAO))
    assert analysis.size == len(dist) == 25955
    assert analysis.farthest_steps == max(dist.values())
    assert analysis.min_steps == 81
    expected_solutions = ref.solutions(state_of(HENGDAO), dist)
    assert {(layout_of(s), steps) for s, steps in expected_solutions.items()} == set(
        analysis.solutions)
    farthest = {layout_of(s) for s, d in dist.items() if d == analysis.farthest_steps}
    assert set(analysis.farthest_layouts) == farthest
    # Links: parents one layer nearer, children one layer farther, as the reference says.
    sample = analysis.layer(29)[:20] + analysis.layer(analysis.farthest_steps)
    for layout in sample:
        steps = dist[state_of(layout)]
        neighbours = ref.steps_from(state_of(layout))
        assert set(analysis.parents(layout)) == {
            layout_of(n) for n in neighbours if dist[n] == steps - 1}
        assert set(analysis.children(layout)) == {
            layout_of(n) for n in neighbours if dist[n] == steps + 1}
        assert analysis.steps_to(layout) == steps


def test_layers_partition_the_group() -> None:
    analysis = analyze(Layout.from_code("4FEA13400"))
    assert sum(analysis.layer_sizes) == analysis.size == 81340
    assert analysis.layer(0) == [Layout.from_code("4FEA13400")]
    with pytest.raises(IndexError):
        analysis.layer(analysis.layer_count)


def _random_small_group_layouts(count: int, limit: int) -> list[Layout]:
    """Random legal layouts of mixed piece sets whose group is small enough for the slow
    reference (the fast engine only picks them; it decides nothing the test checks)."""
    rng = random.Random(2024)
    picked: list[Layout] = []
    while len(picked) < count:
        state = ref.random_state(rng, empties=rng.choice((2, 2, 3, 3, 4)),
                                 kinds=rng.choice(("HHHHVS", "HHVVSS", "HHHVVS")))
        if group_size(layout_of(state), limit) is not None:
            picked.append(layout_of(state))
    return picked


@pytest.mark.parametrize("layout", _random_small_group_layouts(200, 1500),
                         ids=lambda layout: layout.code)
def test_fast_engine_agrees_with_the_reference_on_random_layouts(layout: Layout) -> None:
    start = state_of(layout)
    dist = ref.distances(start)
    goals = {state: d for state, d in dist.items() if ref.is_goal(state)}
    analysis = analyze(layout)
    solution = solve(layout)

    assert analysis.size == len(dist)
    assert analysis.farthest_steps == max(dist.values())
    expected_min = min(goals.values()) if goals else None
    assert solution.steps == expected_min == analysis.min_steps
    if solution.solvable:
        assert_valid_path(solution.path)
    assert set(analysis.solutions) == {
        (layout_of(s), d) for s, d in ref.solutions(start, dist).items()}
    assert set(analysis.min_step_solutions) == {
        layout_of(s) for s, d in goals.items() if d == expected_min}
