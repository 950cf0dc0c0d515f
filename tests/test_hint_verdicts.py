"""Every move judged: huarong.graph.verdicts, ``huarong hint --all`` and ``/api/next``'s
``verdict``, against minimum steps found by the solver's own search of each child."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from huarong.cli import main
from huarong.engine.layout import Layout
from huarong.engine.solver import solve
from huarong.graph.verdicts import NO_VERDICT, verdict
from huarong.web.app import create_app
from tests.patient_client import PatientClient as TestClient

from . import klotski_reference as ref

HENGDAO = "1A9BF0C00"
NO_GOAL = "552AA0000"
"""A layout whose group of 24 holds no goal."""
WORDS = {-1: "better", 0: "same", 1: "worse"}


@pytest.fixture(autouse=True)
def _no_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HUARONG_DB", str(tmp_path / "none.duckdb"))


def test_a_verdict_is_the_change_of_the_steps_left() -> None:
    assert [verdict(10, 9), verdict(10, 10), verdict(10, 11)] == ["better", "same", "worse"]
    assert verdict(None, None) is None and verdict(-1, -1) is None
    with pytest.raises(ValueError, match="12"):
        verdict(10, 12)


def test_hint_all_judges_every_legal_step() -> None:
    result = CliRunner().invoke(main, ["hint", HENGDAO, "--all", "--json"])
    assert result.exit_code == 0
    answer = json.loads(result.output)
    here = solve(Layout.parse(HENGDAO)).steps
    assert answer["code"] == HENGDAO and answer["min_steps"] == here
    children = {Layout.from_grid(ref.to_grid(state)).code
                for state in ref.steps_from(ref.from_grid(Layout.parse(HENGDAO).grid(" ")))}
    assert {step["to"] for step in answer["steps"]} == children
    for step in answer["steps"]:
        after = solve(Layout.parse(step["to"])).steps
        assert step["min_steps"] == after and step["verdict"] == WORDS[after - here]
        assert step["piece"] in {"cao", "vertical", "horizontal", "soldier"}
        assert step["direction"].split()[0] in {"up", "down", "left", "right"}
    text = CliRunner().invoke(main, ["hint", HENGDAO, "--all"])
    assert text.exit_code == 0 and text.output.count("better") == sum(
        step["verdict"] == "better" for step in answer["steps"])


def test_in_a_group_without_a_goal_no_verdict_and_why() -> None:
    result = CliRunner().invoke(main, ["hint", NO_GOAL, "--all", "--json"])
    assert result.exit_code == 1
    answer = json.loads(result.output)
    assert answer["min_steps"] is None and answer["why"] == NO_VERDICT
    assert answer["steps"] and all(step["verdict"] is None for step in answer["steps"])
    text = CliRunner().invoke(main, ["hint", NO_GOAL, "--all"])
    assert NO_VERDICT in text.output


def test_next_steps_give_each_child_its_verdict(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "none.duckdb"))
    answer = client.get("/api/next", params={"code": HENGDAO}).json()
    for child in answer["children"]:
        assert child["verdict"] == WORDS[child["min_steps"] - answer["min_steps"]]
    assert answer["best"] == [child["code"] for child in answer["children"]
                              if child["verdict"] == "better"]
    lost = client.get("/api/next", params={"code": NO_GOAL}).json()
    assert all(child["verdict"] is None for child in lost["children"])
    schema = client.get("/openapi.json").json()["components"]["schemas"]["Child"]
    assert set(schema["properties"]["verdict"]["anyOf"][0]["enum"]) == {"better", "same",
                                                                         "worse"}
