"""Every layout at once: enumeration, perfect index, classes, groups, minimum steps.

Expected figures come from docs §1/§4 and seed 000 (counts, the 64-row table), the issue
(MD5, group figures), a pure-Python enumeration and BFS written here from docs §1-§3, and the
one-layout solver."""

from __future__ import annotations

import functools
import hashlib
import random
from collections import deque

import numpy as np
import pytest

from huarong.engine.analysis import analyze
from huarong.engine.layout import Layout, LayoutError
from huarong.engine.solver import group_codes, solve
from huarong.space import cases

from . import klotski_reference as ref

pytestmark = pytest.mark.big_memory

# Seed 000, "摆列方式分类": (jiang_num, bing_num) -> number of layouts.
SEED_JIANG_BING = {
    (0, 0): 12, (0, 1): 192, (0, 2): 1440, (0, 3): 6720, (0, 4): 21840, (0, 5): 52416,
    (0, 6): 96096, (0, 7): 137280, (0, 8): 154440, (0, 9): 137280, (0, 10): 96096,
    (0, 11): 52416, (0, 12): 21840, (0, 13): 6720, (0, 14): 1440,
    (1, 0): 256, (1, 1): 3584, (1, 2): 23296, (1, 3): 93184, (1, 4): 256256, (1, 5): 512512,
    (1, 6): 768768, (1, 7): 878592, (1, 8): 768768, (1, 9): 512512, (1, 10): 256256,
    (1, 11): 93184, (1, 12): 23296,
    (2, 0): 2138, (2, 1): 25656, (2, 2): 141108, (2, 3): 470360, (2, 4): 1058310,
    (2, 5): 1693296, (2, 6): 1975512, (2, 7): 1693296, (2, 8): 1058310, (2, 9): 470360,
    (2, 10): 141108,
    (3, 0): 8974, (3, 1): 89740, (3, 2): 403830, (3, 3): 1076880, (3, 4): 1884540,
    (3, 5): 2261448, (3, 6): 1884540, (3, 7): 1076880, (3, 8): 403830,
    (4, 0): 20224, (4, 1): 161792, (4, 2): 566272, (4, 3): 1132544, (4, 4): 1415680,
    (4, 5): 1132544, (4, 6): 566272,
    (5, 0): 24232, (5, 1): 145392, (5, 2): 363480, (5, 3): 484640, (5, 4): 363480,
    (6, 0): 14330, (6, 1): 57320, (6, 2): 85980,
    (7, 0): 3508,
}
ALL_CODES_MD5 = "3888e9fab8d3cbb50908b12b147cfb23"


# ----- a pure-Python reference, from docs §1 and §3 ---------------------------------------
def reference_code(state: ref.State) -> int:
    """docs §3: the 2x2's address, then 2 bits per uncovered cell in address order."""
    starts = {(row, col): kind for kind, row, col in state}
    cao = next((row, col) for (row, col), kind in starts.items() if kind == "C")
    covered = set(ref.cells(("C", *cao)))
    items = []
    for row in range(ref.ROWS):
        for col in range(ref.COLS):
            if (row, col) in covered:
                continue
            kind = starts.get((row, col))
            items.append({None: 0, "H": 1, "V": 2, "S": 3}[kind])
            if kind is not None:
                covered.update(ref.cells((kind, row, col)))
    items += [0] * (16 - len(items))
    code = cao[0] * ref.COLS + cao[1]
    for item in items:
        code = code << 2 | item
    return code


def reference_layouts(twos: int, ones: int) -> list[ref.State]:
    """Every legal layout with one 2x2, ``twos`` two-cell pieces (either way) and ``ones``
    1x1 pieces, by placing pieces on the first free cell until all are placed."""
    found: list[ref.State] = []

    def place(pieces: list[ref.Piece], taken: set[tuple[int, int]], twos: int, ones: int,
              cao: int, empties: int) -> None:
        free = [(r, c) for r in range(ref.ROWS) for c in range(ref.COLS) if (r, c) not in taken]
        if twos == ones == cao == 0:
            if empties + len(free) >= 2:
                found.append(frozenset(pieces))
            return
        row, col = free[0]
        for kind, left in (("C", cao), ("H", twos), ("V", twos), ("S", ones)):
            piece = (kind, row, col)
            if left and ref.fits(piece, taken):
                place([*pieces, piece], taken | set(ref.cells(piece)), twos - (kind in "HV"),
                      ones - (kind == "S"), cao - (kind == "C"), empties)
        if len(free) - 1 >= 4 * cao + 2 * twos + ones:
            place(pieces, taken | {(row, col)}, twos, ones, cao, empties + 1)

    place([], set(), twos, ones, 1, 0)
    return found


def reference_groups(states: list[ref.State]) -> list[list[int]]:
    """Groups of a class closed under steps, as sorted code lists, by plain BFS."""
    unseen = set(states)
    groups = []
    while unseen:
        start = unseen.pop()
        members, queue = {start}, deque([start])
        while queue:
            for child in ref.steps_from(queue.popleft()):
                if child not in members:
                    members.add(child)
                    unseen.discard(child)
                    queue.append(child)
        groups.append(sorted(reference_code(s) for s in members))
    return groups


def hex_lines(codes: np.ndarray) -> bytes:
    return "".join(f"{code:09X}\n" for code in codes.tolist()).encode()


# ----- enumeration and the perfect index ------------------------------------------------
def test_enumeration_matches_spec_count_and_md5() -> None:
    codes = cases.all_codes()
    assert codes.shape == (29_334_498,)
    assert bool(np.all(codes[1:] > codes[:-1]))
    digest = hashlib.md5()
    for chunk in np.array_split(codes, 64):
        digest.update(hex_lines(chunk))
    assert digest.hexdigest() == ALL_CODES_MD5


@pytest.mark.parametrize(("twos", "ones"), [(0, 0), (7, 0), (1, 1), (6, 0)])
def test_small_classes_match_a_pure_python_enumeration(twos: int, ones: int) -> None:
    expected = sorted(reference_code(s) for s in reference_layouts(twos, ones))
    assert len(expected) == SEED_JIANG_BING[twos, ones]
    assert cases.class_codes(twos, ones).tolist() == expected


def test_layout_id_is_the_position_in_the_sorted_codes() -> None:
    codes = cases.all_codes()
    rng = np.random.default_rng(7)
    picked = rng.integers(0, codes.shape[0], 2000)
    assert cases.layout_ids(codes[picked]).tolist() == picked.tolist()
    for rank in picked[:50].tolist():
        assert cases.layout_id(Layout.from_code(int(codes[rank]))) == rank
    assert cases.layout_id("1A9BF0C") == int(np.searchsorted(codes, 0x1A9BF0C00))
    assert cases.layout_at(int(picked[0])).code == f"{codes[picked[0]]:09X}"


def test_layout_ids_reject_every_illegal_code() -> None:
    rng = random.Random(3)
    candidates = [rng.getrandbits(36) for _ in range(3000)]
    legal = set(cases.all_codes()[np.searchsorted(cases.all_codes(), candidates)
                                  .clip(0, cases.LAYOUT_COUNT - 1)].tolist())
    ids = cases.layout_ids(np.array(candidates, dtype=np.int64)).tolist()
    for code, rank in zip(candidates, ids, strict=True):
        assert (rank >= 0) == Layout.is_valid_code(code) == (code in legal)
    with pytest.raises(LayoutError, match="3A9BF0C00"):
        cases.layout_id("3A9BF0C00")


# ----- classes ---------------------------------------------------------------------------
def test_jiang_bing_table_is_seed_000s() -> None:
    assert cases.classes().jiang_bing_counts() == SEED_JIANG_BING


def test_203_style_classes_without_7_0_0() -> None:
    counts = cases.classes().style_counts()
    assert len(counts) == 203
    assert (7, 0, 0) not in counts
    for (jiang, bing), total in SEED_JIANG_BING.items():
        assert sum(counts.get((jiang, bing, s), 0) for s in range(jiang + 1)) == total


def test_classes_of_agree_with_layout_properties() -> None:
    codes = cases.all_codes()[::100_003]
    found = cases.classes_of(codes)
    for i, code in enumerate(codes.tolist()):
        layout = Layout.from_code(code)
        assert (found.jiang[i], found.bing[i], found.style[i]) == (
            layout.jiang_num, layout.bing_num, layout.style_num)


def test_unknown_class_is_refused() -> None:
    with pytest.raises(ValueError, match="7-1"):
        cases.class_codes(7, 1)


# ----- minimum steps of one class --------------------------------------------------------
@functools.cache
def class_min_steps(jiang: int, bing: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return cases.min_steps_of_class(jiang, bing)


def test_min_steps_of_a_small_class_match_a_pure_python_bfs() -> None:
    codes, steps, solutions = class_min_steps(7, 0)
    states = reference_layouts(7, 0)
    by_code = {reference_code(s): s for s in states}
    assert codes.tolist() == sorted(by_code)
    for i in random.Random(5).sample(range(len(codes)), 25):
        dist = ref.distances(by_code[int(codes[i])])
        goals = [d for s, d in dist.items() if ref.is_goal(s)]
        expected = min(goals) if goals else cases.NO_SOLUTION
        assert steps[i] == expected
        assert solutions[i] == sum(d == expected for d in goals)


def test_min_steps_of_standard_layouts_match_the_solver_and_analysis() -> None:
    codes, steps, solutions = class_min_steps(5, 4)
    assert codes.shape == (363_480,)
    for i in [int(np.searchsorted(codes, 0x1A9BF0C00)),
              *random.Random(11).sample(range(len(codes)), 12)]:
        layout = Layout.from_code(int(codes[i]))
        solution = solve(layout)
        assert steps[i] == (solution.steps if solution.solvable else cases.NO_SOLUTION)
        assert solutions[i] == len(analyze(layout).min_step_solutions)


def test_searched_members_group_ranks_by_class_ascending() -> None:
    from huarong._kernels import space_graph as kernels

    # Classes 0-0-0 .. 0-0-4 (keys 0..4) of seven layouts; 0-0-1 and 0-0-3 searched.
    style = np.array([3, 1, 3, 2, 1, 3, 0], dtype=np.int8)
    zeros = np.zeros_like(style)
    searched = np.array([False, True, False, True, False], dtype=np.bool_)
    ranks, starts = kernels.searched_members(zeros, zeros, style, searched)
    assert starts.tolist() == [0, 0, 2, 2, 5, 5]
    assert ranks.tolist() == [1, 4, 0, 2, 5]
    shares, bounds = cases._thread_shares(starts, 2)
    assert sorted(shares.tolist()) == [1, 3] and bounds.tolist() == [0, 1, 2]
    assert shares[0] == 3  # the largest class first


# ----- every layout (slow) ---------------------------------------------------------------
@pytest.fixture(scope="module")
def groups() -> cases.Groups:
    return cases.label_groups()


@pytest.mark.slow
def test_group_figures(groups: cases.Groups) -> None:
    assert groups.count == 25_422
    assert int(groups.sizes.max()) == 964_656
    assert int(groups.sizes.sum()) == cases.LAYOUT_COUNT
    class_key = cases.classes().key()[groups.first_ids]
    _, groups_per_class = np.unique(class_key, return_counts=True)
    assert int((groups_per_class == 1).sum()) == 122


@pytest.mark.slow
def test_searched_classes_are_those_with_more_than_one_group(groups: cases.Groups) -> None:
    # The 122 classes left out of the search are labelled as one group each; a class with
    # several groups left out would merge them and miss the count of 25,422 checked above.
    key = cases.classes().key()[groups.first_ids]
    keys, groups_per_class = np.unique(key, return_counts=True)
    several = {(k >> 8, (k >> 4) & 15, k & 15) for k in keys[groups_per_class > 1].tolist()}
    assert several == {(j, b, s) for (j, b), styles in cases.SEARCHED_CLASSES.items()
                       for s in styles}


@pytest.mark.slow
def test_groups_of_random_layouts_match_the_solver(groups: cases.Groups) -> None:
    codes = cases.all_codes()
    for rank in random.Random(2).sample(range(cases.LAYOUT_COUNT), 12):
        members = group_codes(Layout.from_code(int(codes[rank])))
        member_codes = [int(m) for m in members]
        assert groups.group_size()[rank] == len(member_codes)
        assert groups.group_index[rank] == member_codes.index(int(codes[rank]))
        assert codes[groups.first_ids[groups.group[rank]]] == member_codes[0]


@pytest.mark.slow
@pytest.mark.parametrize(("twos", "ones"), [(7, 0), (6, 0), (1, 1), (0, 3)])
def test_labels_of_small_classes_match_a_pure_python_grouping(
        groups: cases.Groups, twos: int, ones: int) -> None:
    per_style: dict[int, list[list[int]]] = {}
    for members in reference_groups(reference_layouts(twos, ones)):
        style = Layout.from_code(members[0]).style_num
        per_style.setdefault(style, []).append(members)
    ids = cases.layout_ids(cases.class_codes(twos, ones))
    group_num, group_index = groups.group_num()[ids], groups.group_index[ids]
    position = {int(code): i for i, code in enumerate(cases.class_codes(twos, ones))}
    for members_list in per_style.values():
        members_list.sort(key=lambda members: (-len(members), members[0]))
        for number, members in enumerate(members_list):
            for index, code in enumerate(members):
                assert (group_num[position[code]], group_index[position[code]]) == (
                    number, index)


@pytest.mark.slow
def test_min_steps_of_every_layout_agree_with_the_solver() -> None:
    steps, solutions = cases.min_steps_all()
    codes = cases.all_codes()
    assert steps.shape == solutions.shape == (cases.LAYOUT_COUNT,)
    goals = (codes >> 32) == 13
    assert bool(np.all(steps[goals] == 0)) and bool(np.all(solutions[goals] == 1))
    assert int(steps[cases.layout_id("1A9BF0C")]) == 81
    for rank in random.Random(9).sample(range(cases.LAYOUT_COUNT), 10):
        layout = Layout.from_code(int(codes[rank]))
        solution = solve(layout)
        assert steps[rank] == (solution.steps if solution.solvable else cases.NO_SOLUTION)
        assert solutions[rank] == len(analyze(layout).min_step_solutions)
