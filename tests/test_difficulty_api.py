"""``/api/puzzles/difficulty`` and the ladder by difficulty (``/api/puzzles/ladder?order=
difficulty``): the answer is the model's for the position, the study's label gives the
length, a relettered board the same grade, and a ladder's rungs are the family's neighbours
by the predicted times computed here one puzzle at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from huarong.puzzles import catalogue
from huarong.puzzles.difficulty.model import GRADE_NAMES, difficulty
from huarong.puzzles.difficulty.study import study_puzzles
from huarong.web.app import create_app
from tests.patient_client import PatientClient as TestClient

from .test_difficulty_cli import LONGEST_STUDY, _relettered, _study_board
from .test_puzzles_api import get

NO_DATABASE = Path(__file__).parent / "no-such-database.duckdb"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(NO_DATABASE, max_group_size=30_000))


def test_a_study_board_s_difficulty_is_the_model_s_with_the_study_s_length(
        client: TestClient) -> None:
    board = _study_board(LONGEST_STUDY)
    label = next(p.label for p in study_puzzles() if p.instance == LONGEST_STUDY)
    found = get(client, "/api/puzzles/difficulty", start="rush:" + board)
    assert found["features"]["optimal_length"] == label - 1
    assert found["extrapolates"] is False and 0 < found["solved_share"] < 1
    assert GRADE_NAMES[found["grade"] - 1] == found["grade_name"]
    relettered = get(client, "/api/puzzles/difficulty", start="rush:" + _relettered(board))
    assert relettered == found


def test_a_position_is_read_as_a_start_and_a_dead_end_is_refused(client: TestClient) -> None:
    """Klotski's 横刀立马 by its code: 81 steps, an extrapolation; a start that reaches no
    goal answers 409, a malformed one 400."""
    found = get(client, "/api/puzzles/difficulty", start="1A9BF0C00")
    assert found["features"]["optimal_length"] == 81 and found["extrapolates"] is True
    refused = get(client, "/api/puzzles/difficulty", 409, start="AB/CC", goal="CC/..")
    assert "no goal can be reached" in refused["error"]
    get(client, "/api/puzzles/difficulty", 400, start="A#/")


def test_a_ladder_by_difficulty_offers_the_neighbours_by_predicted_time(
        client: TestClient) -> None:
    """Bickford's 4x4 records ordered by the model's predicted median time, each computed
    here from its catalogue puzzle alone."""
    found = {entry.name: difficulty(entry.puzzle) for entry in catalogue()
             if entry.family == "bickford-4x4"}
    family = sorted((one.median_seconds, one.features.optimal_length, name)
                    for name, one in found.items())
    names = [name for _, _, name in family]
    for place, name in enumerate(names):
        rungs = get(client, "/api/puzzles/ladder", name=name, order="difficulty")
        assert rungs["order"] == "difficulty"
        below = rungs["easier"] and rungs["easier"]["name"]
        above = rungs["harder"] and rungs["harder"]["name"]
        assert below == (names[place - 1] if place else None)
        assert above == (names[place + 1] if place + 1 < len(names) else None)
        if rungs["harder"]:
            assert rungs["harder"]["median_seconds"] >= family[place][0]
            assert 1 <= rungs["harder"]["grade"] <= 10
    by_length = get(client, "/api/puzzles/ladder", name=names[0])
    assert by_length["order"] == "length"
    assert by_length["harder"] is None or by_length["harder"]["grade"] is None
    get(client, "/api/puzzles/ladder", 400, name=names[0], order="fun")
