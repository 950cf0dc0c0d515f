"""Parsing sliding-tile boards: strict ASCII numbers, and nothing but the module's own
ValueError subclass ever escapes, whatever the text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huarong import npuzzle
from huarong.npuzzle import Board, BoardFormatError


@pytest.mark.parametrize("text,fragment", [
    ("3,1,²,0", "'²' is not a whole number"),
    ("0 1 2 --1", "'--1' is not a whole number"),
    ("+1 0 2 3", "'+1' is not a whole number"),
    ("1_0 1 2 3", "'1_0' is not a whole number"),
    ("１ 0 2 3", "'１' is not a whole number"),
    ("٣ 0 2 1", "'٣' is not a whole number"),
    ("-1 0 2 3", "'-1' is not a whole number"),
    ("0 1 2 " + "9" * 5000, "too long to be a tile number"),
    ("0 1 2 1e3", "'1e3' is not a whole number"),
    ("0 1 2 3.0", "'3.0' is not a whole number"),
])
def test_only_ascii_whole_numbers_are_tiles(text: str, fragment: str) -> None:
    with pytest.raises(BoardFormatError, match=re.escape(fragment)):
        Board.parse(text)


def test_errors_about_a_huge_input_stay_short() -> None:
    text = " ".join(["1"] * 10_000) + " x"
    with pytest.raises(BoardFormatError) as error:
        Board.parse(text)
    assert len(str(error.value)) < 200
    assert "20,001 characters" in str(error.value)


def test_ascii_boards_still_parse_in_every_notation() -> None:
    expected = Board(3, 3, (2, 8, 3, 1, 0, 4, 7, 6, 5))
    for text in ("2 8 3 1 0 4 7 6 5", "2,8,3,1,0,4,7,6,5", "2 8 3 / 1 0 4 / 7 6 5",
                 "2 8 3\r\n1 0 4\r\n7 6 5\r\n", "02 08 03 01 00 04 07 06 05"):
        assert Board.parse(text) == expected


def test_sizes_take_ascii_digits_only() -> None:
    assert npuzzle.parse_size("3x4") == (3, 4)
    for text in ("３x3", "3x99999", "+3x3"):
        with pytest.raises(BoardFormatError, match="ROWSxCOLS"):
            npuzzle.parse_size(text)


_board_alphabet = st.sampled_from([*"0123456789 ,;/\n\t-+_.x²١３", "10", "15", "99999"])


@settings(max_examples=400)
@given(st.one_of(st.text(max_size=60), st.lists(_board_alphabet, max_size=40).map("".join)),
       st.one_of(st.none(), st.integers(-3, 6)), st.one_of(st.none(), st.integers(-3, 6)))
def test_parse_raises_nothing_but_its_own_error(text: str, rows: int | None,
                                                cols: int | None) -> None:
    try:
        board = Board.parse(text, rows=rows, cols=cols)
    except BoardFormatError:
        return
    assert Board.parse(board.grid()) == board
    assert sorted(board.tiles) == list(range(board.cells))
