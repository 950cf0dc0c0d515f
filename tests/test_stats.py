"""Statistics of the standard layouts against docs §7 (klotski.online's figures, seed 003),
and the per-group minimum steps against the solver and the reference engine."""

from __future__ import annotations

import random

import numpy as np
import pytest

from huarong.engine.layout import Layout
from huarong.engine.solver import group_codes, solve
from huarong.space.stats import StandardStats, group_min_steps, horizontal_counts, standard_stats

from . import klotski_reference as ref

pytestmark = pytest.mark.big_memory


@pytest.fixture(scope="module")
def stats() -> StandardStats:
    return standard_stats()


def test_the_funnel_matches_klotski_online(stats: StandardStats) -> None:
    assert (stats.layouts, stats.not_solved, stats.mirror_distinct, stats.solvable) == (
        363_480, 338_700, 169_515, 121_285)


def test_the_breakdown_by_horizontal_pieces_matches_klotski_online(
        stats: StandardStats) -> None:
    assert list(stats.by_horizontal.items()) == [
        (1, 23_623), (2, 37_861), (3, 38_467), (4, 14_594), (5, 3_999), (0, 2_741)]


def test_the_distribution_covers_every_solvable_layout(stats: StandardStats) -> None:
    assert sum(stats.min_steps_distribution.values()) == 121_285
    assert min(stats.min_steps_distribution) == 1


def test_the_hardest_layouts_include_fenghui_lu_zhuan(stats: StandardStats) -> None:
    # 峰回路转 (4FEA13400) is known as the hardest classic layout, 138 steps.
    assert Layout.from_code("4FEA134") in stats.hardest
    for layout in stats.hardest:
        assert layout.is_standard and layout <= layout.mirror()
        assert solve(layout).steps == stats.hardest_steps == 138


def test_horizontal_counts_match_the_layouts() -> None:
    rng = random.Random(11)
    layouts = [Layout.from_grid(ref.to_grid(ref.random_state(rng, 2 + n % 5)))
               for n in range(200)]
    counts = horizontal_counts(np.array([int(layout) for layout in layouts], dtype=np.int64))
    assert counts.tolist() == [ref.to_grid(ref.from_grid(layout.grid())).count("H") // 2
                               for layout in layouts]


def test_mirror_codes_match_the_mirror_images() -> None:
    from huarong._kernels.klotski import mirror_codes

    codes = group_codes(Layout.from_code("1A9BF0C"))
    mirrored = mirror_codes(codes)
    rng = random.Random(3)
    for index in rng.sample(range(codes.shape[0]), 300):
        grid = Layout(int(codes[index])).grid().splitlines()
        flipped = "\n".join(" ".join(reversed(row.split())) for row in grid)
        assert Layout(int(mirrored[index])) == Layout.from_grid(flipped)


@pytest.mark.parametrize("grid", [
    "V C C V\nV C C V\nV H H V\nV S S V\nS . . S",   # 横刀立马, 81 steps
    "S C C S\nS C C S\n. H H .\nV V V V\nV V V V",   # 捷足先登, 32 steps
    "V C C V\nV C C V\nV V S V\nV V S V\nS . . S",   # 走投无路, no solution
])
def test_group_min_steps_agree_with_a_search_from_each_layout(grid: str) -> None:
    start = Layout.from_grid(grid)
    table = group_min_steps(start)
    assert table.codes.tolist() == group_codes(start).tolist()
    rng = random.Random(5)
    for code in [*rng.sample(table.codes.tolist(), 25), int(start)]:
        layout = Layout(code)
        assert table.of(layout) == solve(layout).steps


def test_group_min_steps_refuse_layouts_of_other_groups() -> None:
    table = group_min_steps(Layout.from_code("1A9BF0C"))
    stranger = Layout.from_code("4FEA134")
    assert stranger not in table
    with pytest.raises(ValueError, match="4FEA13400 is not in this group"):
        table.of(stranger)
