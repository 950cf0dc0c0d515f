"""The Layout value type: every notation, validation, mirror, rendering (docs §1, §3, §7)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huarong.engine.layout import (
    InvalidCodeError,
    InvalidGridError,
    InvalidOnlineIdError,
    Layout,
    LayoutError,
    PieceKind,
)

from . import klotski_reference as ref

# docs §3's worked examples, verbatim.
WORKED_EXAMPLES = {
    "1A9BF0C00": "V C C V\nV C C V\nV H H V\nV S S V\nS . . S",
    "4FEA13400": "S S S V\nC C V V\nC C V V\n. H H V\n. S H H",
    "5DC02F800": "S H H S\n. C C .\n. C C .\nV S S V\nV . . V",
}


@pytest.mark.parametrize("code, grid", WORKED_EXAMPLES.items())
def test_worked_examples_decode_to_the_spec_grids_and_back(code: str, grid: str) -> None:
    layout = Layout.from_code(code)
    assert layout.grid() == grid
    assert Layout.from_grid(grid).code == code
    assert Layout.from_grid(grid) == layout


def test_trailing_zeros_may_be_omitted_and_case_is_free() -> None:
    assert Layout.from_code("1a9bf0c").code == "1A9BF0C00"
    assert Layout.from_code("4FEA134") == Layout.from_code("4fea13400")


def test_online_id_of_hengdaolima_is_the_seeds() -> None:
    layout = Layout.from_code("1A9BF0C00")
    assert layout.online_id == "24422442233221121001"
    assert Layout.from_online_id("24422442233221121001") == layout


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "empty code"),
        ("1A9BF0C000", "10 digits"),
        ("1A9BF0CG0", "'G' is not a hex digit"),
        ("3A9BF0C00", "not a possible 2x2 address"),
        ("FA9BF0C00", "not a possible 2x2 address"),
        ("1A9BF0C01", "padding"),
        ("1A9BF0C40", "padding"),
        ("0E4000000", "overlap"),
        ("0D0000000", "sticks out of the board"),
        ("0AAAAAAAA", "sticks out of the board"),
        ("0FFFFFFFC", "at least 2 empty cells"),
    ],
)
def test_bad_codes_name_the_input_and_the_reason(text: str, reason: str) -> None:
    with pytest.raises(InvalidCodeError) as caught:
        Layout.from_code(text)
    assert reason in str(caught.value)
    assert repr(text) in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert not Layout.is_valid_code(text)


def test_is_valid_code_accepts_the_worked_examples() -> None:
    assert all(Layout.is_valid_code(code) for code in WORKED_EXAMPLES)


@pytest.mark.parametrize(
    "grid, reason",
    [
        ("V C C V\nV C C V\nV H H V\nV S S V", "4 rows"),
        ("V C C V\nV C C V\nV H H V\nV S S V\nS . S", "has 3 cells"),
        ("V C C V\nV C C V\nV H H V\nV S S V\nS S . S", "at least 2 empty"),
        ("V . . V\nV . . V\nV H H V\nV S S V\nS . . S", "exactly one 2x2"),
        ("C C . .\nC C . .\n. . C C\n. . C C\n. . . .", "exactly one 2x2"),
        ("V C C V\nV C C V\nV H H H\nV S S V\nS . . S", "does not form a whole"),
    ],
)
def test_bad_grids_are_rejected_with_the_reason(grid: str, reason: str) -> None:
    with pytest.raises(InvalidGridError, match=reason):
        Layout.from_grid(grid)


def test_grid_accepts_other_glyphs_slashes_and_no_spaces() -> None:
    drawn = "abbc/abbc/deef/dghf/i..j"  # every piece its own letter, as many apps draw it
    assert Layout.from_grid(drawn).code == "1A9BF0C00"
    assert Layout.from_grid("VCCV/VCCV/VHHV/VSSV/S..S").code == "1A9BF0C00"


@pytest.mark.parametrize("text, reason", [("2442244223322112100", "exactly 20 digits"),
                                          ("24422442233221121005", "not one of 0-4"),
                                          ("24422442233221121111", "at least 2 empty"),
                                          ("24422442233321121001", "does not form")])
def test_bad_online_ids(text: str, reason: str) -> None:
    with pytest.raises(InvalidOnlineIdError, match=reason):
        Layout.from_online_id(text)


def test_parse_detects_each_notation() -> None:
    expected = Layout.from_code("1A9BF0C00")
    for text in ("1A9BF0C00", "1a9bf0c", "24422442233221121001", WORKED_EXAMPLES["1A9BF0C00"],
                 "VCCV/VCCV/VHHV/VSSV/S..S"):
        assert Layout.parse(text) == expected


def test_piece_counts_of_hengdaolima() -> None:
    layout = Layout.from_code("1A9BF0C00")
    assert (layout.jiang_num, layout.bing_num, layout.style_num) == (5, 4, 1)
    assert layout.count(PieceKind.VERTICAL) == 4
    assert layout.is_standard and not layout.is_solved
    assert layout.empty_cells == 2


def test_is_solved_means_the_code_starts_with_d() -> None:
    assert Layout.from_code("DAAF4CC00").is_solved


def test_value_semantics() -> None:
    a, b = Layout.from_code("1A9BF0C00"), Layout.from_code("1a9bf0c")
    assert a == b and hash(a) == hash(b) and a is not b
    assert eval(repr(a), {"Layout": Layout}) == a
    assert sorted([Layout.from_code("4FEA13400"), a]) == [a, Layout.from_code("4FEA13400")]
    assert int(a) == 0x1A9BF0C00
    with pytest.raises(AttributeError):
        a._code = 5  # type: ignore[misc]


def test_mirror_swaps_columns() -> None:
    layout = Layout.from_code("4FEA13400")
    mirrored = layout.mirror()
    rows = [row.split() for row in layout.grid().splitlines()]
    assert mirrored.grid() == "\n".join(" ".join(reversed(row)) for row in rows)
    assert mirrored.mirror() == layout
    assert Layout.from_code("1A9BF0C00").mirror() == Layout.from_code("1A9BF0C00")


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_legal_layouts_round_trip_every_notation(seed: int) -> None:
    rng = random.Random(seed)
    state = ref.random_state(rng, empties=rng.randint(2, 8))
    layout = Layout.from_grid(ref.to_grid(state))
    assert ref.from_grid(layout.grid()) == state
    assert Layout.from_code(layout.code) == layout
    assert Layout.from_code(int(layout)) == layout
    assert Layout.from_online_id(layout.online_id) == layout
    assert Layout.parse(layout.online_id) == layout
    assert layout.mirror().mirror() == layout


@settings(max_examples=500, deadline=None)
@given(st.integers(min_value=0, max_value=2**36 - 1))
def test_any_36_bit_number_is_a_layout_exactly_when_its_code_round_trips(value: int) -> None:
    try:
        layout = Layout.from_code(value)
    except LayoutError:
        return
    assert int(Layout.from_grid(layout.grid())) == value


def test_render_text_draws_each_cell_square_width_wide() -> None:
    for width in (1, 2, 4):
        lines = Layout.from_code("1A9BF0C00").render_text(width).splitlines()
        assert {len(line) for line in lines} == {4 * width + 5}
        assert lines[0][0] == "┌" and lines[-1][-1] == "┘"


def test_render_svg_has_one_shape_per_piece() -> None:
    svg = Layout.from_code("1A9BF0C00").render_svg()
    assert svg.startswith("<svg") and svg.count('class="piece') == 10
    assert svg.count('class="piece cao"') == 1
