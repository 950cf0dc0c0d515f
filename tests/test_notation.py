"""klotski.online's solution notation, against the seed (003), the recorded klotski.online
responses and the pure-Python reference engine (tests/klotski_reference.py)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from huarong.engine.ids import LAYOUT_COUNT
from huarong.engine.layout import Layout, Piece, PieceKind
from huarong.engine.notation import (
    NotAStepError,
    NotationError,
    child_moves,
    encode_path,
    encode_step,
    parse_pairs,
    replay,
)
from huarong.engine.solver import solve

from . import klotski_reference as ref

# Real klotski.online answers, as recorded from klotski.online.
RESPONSES = json.loads(
    (Path(__file__).parent / "data" / "klotski_online_responses.json").read_text("utf-8"))

# Seed 003's example response for 横刀立马 (24422442233221121001).
SEED_HENGDAO_SOLUTION = (
    "u3w2o3p0r0z1y2q3o6tax5u0v9q3p6o6s1t1y4z4u3qfp2o2g7h0j0r5v5q2i7g2o5p0x5wcy4r3q3p6h3j4nar5"
    "v5u2tdl3hfg2o5p0m3i3j0n1v1y2q7o2g7h0i0m0j0r5p2l7h7g2o5t8w1y4z4q3p6o6s1xau0")

# docs §7: the unit moves of each move digit, as (rows down, columns right).
UNIT = {"left": (0, -1), "up": (-1, 0), "right": (0, 1), "down": (1, 0)}
DIGIT_MOVES = ["left", "up", "right", "down", "left left", "up up", "right right",
               "down down", "left up", "left down", "up left", "up right", "right up",
               "right down", "down left", "down right"]


def state_of(layout: Layout) -> ref.State:
    return ref.from_grid(layout.grid())


def test_seed_example_solves_hengdao_in_81_steps() -> None:
    path = replay(Layout.from_online_id("24422442233221121001"), SEED_HENGDAO_SOLUTION)
    assert len(path) - 1 == 81 == len(SEED_HENGDAO_SOLUTION) // 2
    assert path[-1].is_solved
    for before, after in itertools.pairwise(path):
        assert ref.is_one_step(state_of(before), state_of(after))


@pytest.mark.parametrize("response", RESPONSES, ids=lambda r: r["name"])
def test_klotski_online_responses_replay_to_a_goal_in_minimum_steps(
        response: dict[str, str]) -> None:
    start = Layout.from_online_id(response["id"])
    path = replay(start, response["solution"], mirror=response["mirror"] == "1")
    pairs = len(response["solution"]) // 2
    assert path[0] == start
    assert path[-1].is_solved
    assert len(path) - 1 == pairs == solve(start).steps


def test_mirrored_response_is_read_on_the_mirror_image() -> None:
    # 比翼横空 is not symmetric and klotski.online answers it with mirror "1".
    response = next(r for r in RESPONSES if r["mirror"] == "1")
    start = Layout.from_online_id(response["id"])
    assert start.mirror() != start
    try:
        path = replay(start, response["solution"])
    except NotationError:
        return
    assert not path[-1].is_solved


@pytest.mark.parametrize("digit", range(16))
def test_each_move_digit_moves_a_soldier_as_the_spec_lists(digit: int) -> None:
    # A lone soldier beside the 2x2 (bottom right) on an otherwise empty board.
    cao_cells = {(3, 2), (3, 3), (4, 2), (4, 3)}
    units = [UNIT[unit] for unit in DIGIT_MOVES[digit].split()]

    def route(row: int, col: int) -> list[tuple[int, int]]:
        cells = [(row, col)]
        for d_row, d_col in units:
            cells.append((cells[-1][0] + d_row, cells[-1][1] + d_col))
        return cells

    row, col = next((r, c) for r in range(5) for c in range(4)
                    if all(0 <= rr < 5 and 0 <= cc < 4 and (rr, cc) not in cao_cells
                           for rr, cc in route(r, c)))
    end_row, end_col = route(row, col)[-1]
    start = Layout.from_pieces([Piece(14, PieceKind.CAO), Piece(4 * row + col,
                                                                PieceKind.SOLDIER)])
    path = replay(start, "ghijklmnopqrstuvwxyz"[4 * row + col] + "0123456789abcdef"[digit])
    assert path[1] == Layout.from_pieces([Piece(14, PieceKind.CAO),
                                          Piece(4 * end_row + end_col, PieceKind.SOLDIER)])


def test_turning_moves_need_the_corner_they_turn_through() -> None:
    # The soldier at 13 goes right then up ("c") through 14; blocking 14 forbids it even
    # though the target 10 is free, while "b" (up then right) through 9 still works.
    start = Layout.from_grid("CC../CC../..../.SS./....")
    with pytest.raises(NotationError, match="blocked at address 14"):
        replay(start, "tc")
    assert replay(start, "tb")[-1] == Layout.from_grid("CC../CC../..S./..S./....")


@pytest.mark.parametrize(("solution", "pair", "reason"), [
    ("u3w", None, "odd length 3"),
    ("u3a2", 2, "'a' is not a cell letter"),
    ("u3wg", 2, "'g' is not a move digit"),
    ("u3k0", 2, "no piece has its top-left cell at k"),
    ("h3", 1, "blocked"),
    ("g0", 1, "leaves the board"),
])
def test_bad_strings_name_the_pair_and_the_reason(solution: str, pair: int | None,
                                                   reason: str) -> None:
    with pytest.raises(NotationError, match=reason) as caught:
        replay(Layout.from_code("1A9BF0C"), solution)
    message = str(caught.value)
    assert "\n" not in message and repr(solution) in message
    if pair is not None:
        assert f"pair {pair} {solution[2 * pair - 2:2 * pair]!r}" in message


def test_pairs_are_cell_addresses_and_hex_digits() -> None:
    assert parse_pairs("g0zfqa") == [(0, 0), (19, 15), (10, 10)]


def _random_solvable(rng: random.Random, empties: int) -> tuple[Layout, ...]:
    while True:
        layout = Layout.from_grid(ref.to_grid(ref.random_state(rng, empties)))
        path = solve(layout).path
        if len(path) > 1:
            return path


@pytest.mark.parametrize("empties", [2, 3, 5, 8])
def test_encoded_solutions_replay_to_the_same_path(empties: int) -> None:
    rng = random.Random(4000 + empties)
    for _ in range(5):
        path = _random_solvable(rng, empties)
        assert replay(path[0], encode_path(path)) == path


def test_standard_layouts_need_one_pair_per_step() -> None:
    rng = random.Random(7)
    for _ in range(10):
        path = _random_solvable(rng, 2)
        assert len(encode_path(path)) == 2 * (len(path) - 1)


def test_a_long_slide_is_several_pairs_of_one_piece_and_one_step() -> None:
    # The soldier slides from address 0 down the empty left column to address 16: four
    # unit moves, so two "down down" pairs, the second naming where the first left it.
    before = Layout.from_grid("S.../.CC./.CC./..../....")
    after = Layout.from_grid("..../.CC./.CC./..../S...")
    assert ref.is_one_step(state_of(before), state_of(after))
    assert encode_step(before, after) == "g7o7"
    assert replay(before, "g7o7") == (before, after)


def test_pairs_that_bring_a_piece_back_make_no_step() -> None:
    start = Layout.from_code("1A9BF0C")
    assert replay(start, "t3x1") == (start,)


def test_layouts_more_than_one_step_apart_are_refused() -> None:
    start = Layout.from_code("1A9BF0C")
    two_away = solve(start).path[2]
    with pytest.raises(NotAStepError, match="not one step"):
        encode_step(start, two_away)


def test_the_moves_to_a_layouts_children_are_the_pieces_that_differ() -> None:
    """The kernel's move to each child against the pieces that differ (step_move's sets),
    on random layouts of every class."""
    rng = random.Random(41)
    for _ in range(200):
        layout = Layout.from_id(rng.randrange(LAYOUT_COUNT))
        found = child_moves(layout)
        assert [child for child, _ in found] == layout.children()
        for child, move in found:
            gone = set(layout.pieces) - set(child.pieces)
            came = set(child.pieces) - set(layout.pieces)
            assert (len(gone), len(came)) == (1, 1)
            (source,), (target,) = gone, came
            assert (move.kind, move.source, move.target) == (source.kind, source.address,
                                                             target.address), child.code
