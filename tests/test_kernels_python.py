"""The klotski kernels on small inputs, cheap enough to run as plain Python too.

CI runs this file a second time with NUMBA_DISABLE_JIT=1, so the kernel lines execute as
Python (visible to coverage, bounds-checked by Python itself)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from huarong._kernels import group_search, klotski
from huarong.engine.layout import Layout

from . import klotski_reference as ref

# The hash wraps its int64 product on purpose; as plain numpy scalars that warns.
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")


def random_layouts(count: int, seed: int) -> list[Layout]:
    rng = random.Random(seed)
    return [Layout.from_grid(ref.to_grid(ref.random_state(rng, rng.randint(2, 10))))
            for _ in range(count)]


def test_board_encoding_round_trips() -> None:
    for layout in random_layouts(100, 1):
        board = klotski.code_to_board(np.int64(int(layout)))
        assert klotski.board_to_code(board) == int(layout)
        assert klotski.is_goal_board(board) == layout.is_solved


def test_neighbours_are_the_reference_steps() -> None:
    out = np.empty(80, dtype=np.int64)
    scratch = np.empty(20, dtype=np.int64)
    for layout in random_layouts(60, 2):
        count = klotski.neighbours(np.int64(int(layout)), out, scratch)
        state = ref.from_grid(layout.grid())
        expected = {int(Layout.from_grid(ref.to_grid(s))) for s in ref.steps_from(state)}
        assert sorted(out[:count].tolist()) == sorted(expected)


def test_mirror_codes_are_the_mirror_images() -> None:
    layouts = random_layouts(60, 3)
    mirrored = klotski.mirror_codes(np.array([int(x) for x in layouts], dtype=np.int64))
    assert mirrored.tolist() == [int(layout.mirror()) for layout in layouts]


def test_mirror_board_is_the_mirror_image() -> None:
    for layout in random_layouts(60, 4):
        board = klotski.code_to_board(np.int64(int(layout)))
        mirrored = group_search.mirror_board(board)
        assert klotski.board_to_code(mirrored) == int(layout.mirror())
        assert group_search.canonical_board(board) == min(board, mirrored)


def test_small_group_search_and_links() -> None:
    # 五将逼宫-like crowded layouts have small groups: check the whole pipeline on one.
    start = Layout.from_grid("H H H H\nH H C C\nV V C C\nV V H H\n. H H .")
    dist = ref.distances(ref.from_grid(start.grid()))
    boards, parents, depth, found = group_search.bfs(
        np.int64(int(start)), group_search.EXPLORE_ALL, np.int64(0), np.int64(16))
    codes = group_search.boards_to_codes(boards)
    expected = {int(Layout.from_grid(ref.to_grid(s))): d for s, d in dist.items()}
    assert dict(zip(codes.tolist(), depth.tolist(), strict=True)) == expected
    assert found == -1
    offsets, targets = group_search.adjacency(boards)
    assert offsets[-1] == targets.shape[0]
    for index in range(len(codes)):
        assert int(parents[index]) == -1 or depth[parents[index]] == depth[index] - 1
        neighbour_codes = {int(codes[t]) for t in targets[offsets[index]:offsets[index + 1]]}
        state = next(s for s in dist if int(Layout.from_grid(ref.to_grid(s))) == codes[index])
        assert neighbour_codes == {int(Layout.from_grid(ref.to_grid(s)))
                                   for s in ref.steps_from(state)}
    assert group_search.group_size_within(np.int64(int(start)), np.int64(len(codes))) == len(codes)
    assert group_search.group_size_within(np.int64(int(start)), np.int64(len(codes) - 1)) == -1


@pytest.mark.parametrize("seed", ["C18AEB000", "97A7A0000"])
def test_layer_sweep_against_one_search_per_layout(seed: str) -> None:
    """The counts-only sweep (bit tricks, the pure-Python lowest-bit fallback) on a group
    whose mirror image is another group, and on a self-mirror one full of goals."""
    from huarong.space import layers

    from .test_layers import reference_figures

    codes, figures = layers.group_figures(int(Layout.from_code(seed)), threads=1)
    assert {c: tuple(f) for c, f in zip(codes.tolist(), figures.T.tolist(), strict=True)} \
        == reference_figures(seed)
