"""Short codes and ids (docs: the short code; issue 21 §3): every pair the klotski C++ engine
wrote, an independent base-32 conversion and the sorted array of every code, random ids both
ways, and how five characters that read two ways are told apart."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import huarong
from huarong.cli import main
from huarong.engine import ids
from huarong.engine import layout as layout_module
from huarong.engine.layout import (
    AmbiguousLayoutError,
    InvalidShortCodeError,
    Layout,
    LayoutError,
)
from huarong.space import cases
from huarong.web.app import create_app
from tests.patient_client import PatientClient as TestClient

# Written by the klotski C++ engine (py-klotski 0.0.2): a copy of shared/fixtures/short_codes.tsv.
FIXTURE = Path(__file__).parent / "data" / "short_codes.tsv"
# The issue's words: 1A9BF0C00 is id 4,091,296, short code 4WVE1; id 0 is 11111.
DIGITS = "123456789ABCDEFGHJKMNPQRSTUVWXYZ"
DIGITS_32 = "0123456789ABCDEFGHIJKLMNOPQRSTUV"  # Python's int(text, 32)
LAYOUT_COUNT = 29_334_498


def fixture_pairs() -> list[tuple[int, str, str]]:
    rows = [line.split("\t") for line in FIXTURE.read_text().splitlines()
            if line and not line.startswith("#")]
    return [(int(rank), code, short) for rank, code, short in rows]


def base32(number: int) -> str:
    """The short code spelled by hand: repeated division, most significant digit first."""
    digits = ""
    for _ in range(5):
        number, digit = divmod(number, 32)
        digits = DIGITS[digit] + digits
    return digits


@pytest.fixture(scope="module")
def all_codes() -> np.ndarray:
    return cases.all_codes()


def test_the_issues_examples() -> None:
    hengdao = Layout.from_code("1A9BF0C00")
    assert (hengdao.id, hengdao.short_code) == (4_091_296, "4WVE1")
    assert Layout.from_short_code("11111").id == 0
    assert Layout.from_id(0).short_code == "11111"


@pytest.mark.parametrize(("rank", "code", "short"), fixture_pairs(), ids=lambda v: str(v))
def test_every_pair_of_the_cpp_engine(rank: int, code: str, short: str) -> None:
    layout = Layout.from_code(code)
    assert (layout.id, layout.short_code) == (rank, short)
    assert Layout.from_short_code(short).code == code
    assert Layout.from_id(rank).code == code
    assert Layout.parse(f"@{short}").code == code
    assert base32(rank) == short


def test_the_fixture_covers_both_ends_and_many_pairs() -> None:
    pairs = fixture_pairs()
    assert len(pairs) >= 40 and pairs[0][0] == 0


def test_ids_are_positions_in_the_sorted_codes(all_codes: np.ndarray) -> None:
    assert all_codes.shape == (LAYOUT_COUNT,)
    for rank in (0, 1, 4_091_296, LAYOUT_COUNT - 2, LAYOUT_COUNT - 1):
        layout = Layout.from_id(rank)
        assert int(layout) == int(all_codes[rank])
        assert int(np.searchsorted(all_codes, int(layout))) == rank == layout.id


@settings(max_examples=300, deadline=None)
@given(rank=st.integers(0, LAYOUT_COUNT - 1))
def test_random_ids_both_ways(rank: int) -> None:
    codes = cases.all_codes()
    layout = Layout.from_id(rank)
    assert int(layout) == int(codes[rank])
    assert Layout.from_code(f"{int(codes[rank]):09X}").id == rank
    assert layout.short_code == base32(rank)
    assert Layout.from_short_code(base32(rank).lower()) == layout


def test_the_short_code_kernel_spells_like_the_hand_conversion() -> None:
    """The kernel (rank and base-32 digits in one call) against repeated division in Python,
    at both ends of the ids and at random ids between; codes of no layout are refused."""
    rng = np.random.default_rng(41)
    ranks = [0, 1, 31, 32, 4_091_296, LAYOUT_COUNT - 1,
             *rng.integers(0, LAYOUT_COUNT, 1000).tolist()]
    for rank in ranks:
        layout = Layout.from_id(rank)
        assert ids.short_code_of_code(int(layout)) == ids.short_code_of_id(rank) == base32(rank)
        assert layout.short_code == base32(rank)
    for code in (0x1A9BF0C01, 0xF00000000, -1, 1 << 36):
        with pytest.raises(ValueError):
            ids.short_code_of_code(code)


@settings(max_examples=100, deadline=None)
@given(number=st.integers(0, 32 ** 5 - 1))
def test_any_five_digits_name_a_layout_or_say_they_are_past_the_end(number: int) -> None:
    spelled = base32(number)
    if number < LAYOUT_COUNT:
        assert Layout.from_short_code(spelled).id == number
    else:
        with pytest.raises(InvalidShortCodeError, match="past the last layout"):
            Layout.from_short_code(spelled)


def test_five_characters_legal_both_ways_name_both_readings(all_codes: np.ndarray) -> None:
    # 1A9BF as a short code: 1=0, A=9, 9=8, B=10, F=14 in base 32.
    as_short = f"{int(all_codes[((9 * 32 + 8) * 32 + 10) * 32 + 14]):09X}"
    with pytest.raises(AmbiguousLayoutError) as caught:
        Layout.parse("1A9BF")
    message = str(caught.value)
    assert as_short in message and "1A9BF0000" in message and "@1A9BF" in message
    assert "\n" not in message
    assert Layout.parse("@1A9BF").code == as_short
    assert Layout.parse("1A9BF0000").code == "1A9BF0000"
    assert Layout.parse(" 0x1A9BF ").code == "1A9BF0000"


def test_five_characters_legal_one_way_are_read_that_way() -> None:
    with pytest.raises(LayoutError):
        Layout.from_code("11111")
    assert Layout.parse("11111") == Layout.from_id(0)
    assert Layout.parse("4wve1").code == "1A9BF0C00"  # not hex: a short code only
    assert Layout.parse("1A9B0").code == "1A9B00000"  # 0 is no short-code digit


@pytest.mark.parametrize(("text", "reason"), [
    ("@4WVE", "4 characters"),
    ("@4WVEI", "'I' is not a short-code digit"),
    ("VZ7Z3", "past the last layout"),
    ("@", "0 characters"),
])
def test_bad_short_codes_say_why_in_one_line(text: str, reason: str) -> None:
    with pytest.raises(LayoutError) as caught:
        Layout.parse(text)
    assert reason in str(caught.value) and repr(text) in str(caught.value)
    assert "\n" not in str(caught.value)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="123456789ABCDEF", min_size=5, max_size=5))
def test_five_hex_short_digits_are_the_short_code_unless_also_a_common_code(text: str) -> None:
    short = Layout.from_id(int(text.translate(str.maketrans(DIGITS, DIGITS_32)), 32))
    try:
        common: Layout | None = Layout.from_code(text)
    except LayoutError:
        common = None
    if common is None:
        assert Layout.parse(text) == short
    else:
        with pytest.raises(AmbiguousLayoutError):
            Layout.parse(text)


def test_public_names_import_from_both_places() -> None:
    for name in ("AmbiguousLayoutError", "InvalidShortCodeError", "Layout", "LayoutError",
                 "Piece", "PieceKind", "InvalidCodeError", "InvalidGridError",
                 "InvalidOnlineIdError"):
        assert getattr(huarong, name) is getattr(layout_module, name)
    for name in ("COLS", "ROWS", "GOAL_ADDRESS", "layouts_of_codes", "children_codes"):
        assert hasattr(layout_module, name)


def test_cli_takes_and_shows_short_codes() -> None:
    runner = CliRunner()
    shown = runner.invoke(main, ["show", "4WVE1", "--json"])
    assert shown.exit_code == 0
    facts = json.loads(shown.output)
    assert (facts["code"], facts["short_code"]) == ("1A9BF0C00", "4WVE1")
    solved = runner.invoke(main, ["solve", "@4wve1", "-c"])
    assert solved.exit_code == 0 and "1A9BF0C00: minimum 81 steps" in solved.output
    ambiguous = runner.invoke(main, ["show", "1A9BF"])
    assert ambiguous.exit_code == 2
    assert "1A9BF0000" in ambiguous.output and "@1A9BF" in ambiguous.output


def test_api_takes_and_shows_short_codes() -> None:
    client = TestClient(create_app(Path(__file__).parent / "no-such-database.duckdb"))
    answer = client.get("/api/layout", params={"code": "4WVE1"})
    assert answer.status_code == 200
    assert (answer.json()["code"], answer.json()["short_code"]) == ("1A9BF0C00", "4WVE1")
    assert client.get("/api/solve", params={"code": "4WVE1"}).json()["steps"] == 81
    ambiguous = client.get("/api/layout", params={"code": "1A9BF"})
    assert ambiguous.status_code == 400 and "1A9BF0000" in ambiguous.json()["error"]
    # /api/next names the layout and each child by short code too (the viewer shows it after
    # every move): checked against the hand conversion of the position among all codes.
    next_steps = client.get("/api/next", params={"code": "4WVE1"}).json()
    codes = cases.all_codes()
    for layout in [next_steps, *next_steps["children"]]:
        position = int(np.searchsorted(codes, int(layout["code"], 16)))
        assert layout["short_code"] == base32(position)
