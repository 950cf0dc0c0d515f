"""A blocking walk whose linear solve does not settle (``WalkDidNotSettle``, forced here by
a tolerance no solve reaches in one round): the command says it in one line with exit
status 1, the API's job answers 500 with the one error body, and the tools that show many
difficulties (a result file's column, the ladder, the design objective) leave that one out
and go on."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from huarong.cli import main
from huarong.puzzles import catalogue, load_puzzle
from huarong.puzzles.difficulty import walk
from huarong.puzzles.difficulty.column import row_difficulty
from huarong.puzzles.difficulty.ladder import family_ladder
from huarong.puzzles.difficulty.model import difficulty
from huarong.puzzles.difficulty.walk import WalkDidNotSettle

FOGLEMAN = "rush:IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM"
"""Fogleman's hardest start (60 moves, 2,332 states): a walk of many rounds."""


@pytest.fixture
def unsettled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walk, "TOLERANCE", 1e-300)
    monkeypatch.setattr(walk, "MAX_ROUNDS", 1)


def test_the_walk_settles_unless_forced_and_then_says_by_how_much(
        monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = load_puzzle(FOGLEMAN)
    assert difficulty(puzzle).features.log_walk_moves is not None
    monkeypatch.setattr(walk, "TOLERANCE", 1e-300)
    monkeypatch.setattr(walk, "MAX_ROUNDS", 1)
    with pytest.raises(WalkDidNotSettle, match=r"did not settle \(a residual of .* after 1 "
                                               r"rounds, 1e-300 needed\)"):
        difficulty(puzzle)


@pytest.mark.usefixtures("unsettled")
@pytest.mark.parametrize("command", [["puzzle", "difficulty", FOGLEMAN],
                                     ["puzzle", "difficulty", FOGLEMAN, "--json", "-q"]])
def test_the_command_says_it_in_one_line_with_exit_status_1(command: list[str]) -> None:
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[-1].startswith(f"huarong: error: {FOGLEMAN}: no difficulty: the blocking "
                                "walk's expected moves did not settle")
    assert not any("Traceback" in line or "internal error" in line for line in lines)


@pytest.mark.usefixtures("unsettled")
def test_the_api_job_answers_500_with_the_reason() -> None:
    from huarong.web.errors import BadQuery
    from huarong.web.puzzle_jobs import cluster_job
    from huarong.web.puzzle_queries import PuzzleQuery

    with pytest.raises(BadQuery, match="no difficulty: the blocking walk") as raised:
        cluster_job("difficulty", PuzzleQuery(FOGLEMAN, None, None, None), 100_000)
    assert raised.value.status == 500 and raised.value.value == FOGLEMAN


def test_the_api_documents_the_500() -> None:
    from huarong.web.app import create_app

    schema = create_app().openapi()
    responses = schema["paths"]["/api/puzzles/difficulty"]["get"]["responses"]
    assert "did not settle" in responses["500"]["description"]


def test_a_result_file_row_and_a_ladder_rung_are_left_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = load_puzzle(FOGLEMAN)
    spec = puzzle.board.spec()
    assert row_difficulty(puzzle.grid, spec, puzzle.goal) is not None
    family = [entry for entry in catalogue() if entry.family == "rush-hour"]
    walked = {entry.name for entry in family
              if difficulty(entry.puzzle).features.log_walk_moves is not None}
    assert walked and {rung.name for rung in family_ladder("rush-hour")} >= walked
    monkeypatch.setattr(walk, "TOLERANCE", 1e-300)
    monkeypatch.setattr(walk, "MAX_ROUNDS", 1)
    assert row_difficulty(puzzle.grid, spec, puzzle.goal) is None
    assert {rung.name for rung in family_ladder("rush-hour")} == {
        entry.name for entry in family} - walked


def test_the_design_objective_scores_such_clusters_0_and_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Rush Hour board: its clusters have a walk (a Klotski-type board's have none).  A
    start one move from the goal may settle in the one round allowed; the longer do not."""
    from huarong.puzzles.design_search import Budget, design
    from huarong.puzzles.presets.rush_hour_design import rush_hour_space

    def longer(budget: int) -> list[int | None]:
        found = design(rush_hour_space(4, 4), Budget(evaluations=budget), minimal=False,
                       method="climb", objective="difficulty")
        return [row.value.score for row in found.rows if row.value.length >= 2]

    settled = longer(40)
    assert settled and all(score is not None and score > 0 for score in settled)
    monkeypatch.setattr(walk, "TOLERANCE", 1e-300)
    monkeypatch.setattr(walk, "MAX_ROUNDS", 1)
    unsettled = longer(40)
    assert unsettled and all(score == 0 for score in unsettled)
