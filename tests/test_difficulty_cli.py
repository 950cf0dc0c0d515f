"""``huarong puzzle difficulty`` and ``huarong difficulty``: the answer in text and JSON, the
same difficulty for a relettered board, extrapolation said, bad input in one line."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from click.testing import CliRunner, Result

from huarong.cli import main
from huarong.puzzles.difficulty.model import GRADE_NAMES
from huarong.puzzles.difficulty.study import study_puzzles

LONGEST_STUDY = "prb10166"
"""A 15-move puzzle of the study."""


def run(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == code, result.output
    return result


def answer(*args: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(run(*args, "--json", "-q").stdout)
    return found


def _study_board(instance: str) -> str:
    return next(p.board for p in study_puzzles() if p.instance == instance)


def _relettered(board: str) -> str:
    """The board with its cars other than the red one lettered in the reverse order."""
    others = sorted({glyph for glyph in board if glyph not in "oA"})
    swap = dict(zip(others, reversed(others), strict=True))
    return "".join(swap.get(glyph, glyph) for glyph in board)


def test_relettered_board_gets_the_same_difficulty() -> None:
    board = _study_board(LONGEST_STUDY)
    relettered = _relettered(board)
    assert relettered != board
    first = answer("puzzle", "difficulty", "rush:" + board)
    second = answer("puzzle", "difficulty", "rush:" + relettered)
    assert first["features"] == second["features"]
    assert first["median_seconds"] == second["median_seconds"]
    assert (first["grade"], first["grade_name"]) == (second["grade"], second["grade_name"])
    # A study board: the engine's optimum is the study's label less one, no extrapolation.
    assert first["features"]["optimal_length"] == 15
    assert first["extrapolates"] is False and first["note"] is None
    assert 0 < first["solved_share"] < 1
    assert GRADE_NAMES[first["grade"] - 1] == first["grade_name"]


def test_text_answer_names_grade_time_share_and_features() -> None:
    board = _study_board(LONGEST_STUDY)
    found = answer("puzzle", "difficulty", "rush:" + board)
    text = run("puzzle", "difficulty", "rush:" + board, "-q").stdout
    assert f"grade: {found['grade']} of 10, {found['grade_name']}" in text
    assert f"predicted share who solve it: {found['solved_share']:.0%}" in text
    for name in found["features"]:
        assert f"  {name}: " in text
    assert "extrapolates" not in text


def test_klotski_layout_extrapolates_and_says_so() -> None:
    found = answer("difficulty", "1A9BF0C00")
    assert found["features"]["optimal_length"] == 81  # 横刀立马's minimum steps
    assert found["features"]["cluster_size"] == 25955  # its group
    assert found["extrapolates"] is True and "extrapolates" in found["note"]
    assert found["features"]["blocking_size"] is None
    assert math.isfinite(found["median_seconds"])
    same = answer("puzzle", "difficulty", "1A9BF0C00")
    assert same["features"] == found["features"]
    assert "extrapolates" in run("difficulty", "横刀立马", "-q").stdout


def test_start_without_a_solution_exits_1() -> None:
    result = run("puzzle", "difficulty", "...C/.AAC/...D/...D", "--goal", "..../..AA/..../....",
                 "--rules", "length", "--metric", "slide", code=1)
    assert "no solution" in result.stderr and result.stdout == ""


@pytest.mark.parametrize("bad", [["puzzle", "difficulty", "rush:AAoo"],
                                 ["puzzle", "difficulty", "AAB./AAC./DEE."],  # no goal
                                 ["puzzle", "difficulty", "no-such-puzzle-name"],
                                 ["difficulty", "ZZZ"],
                                 ["difficulty", "1A9BF0C00", "--max-states", "0"]])
def test_bad_input_is_one_line_and_exit_status_2(bad: list[str]) -> None:
    result = run(*bad, code=2)
    assert result.stderr.startswith("huarong: error: ") and len(result.stderr.splitlines()) == 1
    assert result.stdout == ""


def test_relettered_grid_gets_the_same_difficulty() -> None:
    first = answer("puzzle", "difficulty", "AA.B/AAC./D..E", "--goal", "..AA/..AA/....")
    second = answer("puzzle", "difficulty", "EE.D/EEC./B..A", "--goal", "..EE/..EE/....")
    assert first["features"] == second["features"]
    assert first["features"]["optimal_length"] == 3
    assert (first["grade"], first["median_seconds"]) == (second["grade"],
                                                         second["median_seconds"])
    assert first["extrapolates"] is True  # a 3x4 board of free pieces: not the study's
