"""``huarong stats`` and ``huarong serve`` through click's CliRunner."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from huarong.cli import main
from tests.patient_client import PatientClient as TestClient


def test_stats_standard_json_reproduces_klotski_online(tmp_path: Path) -> None:
    target = tmp_path / "stats.json"
    result = CliRunner().invoke(main, ["stats", "standard", "--json", "-o", str(target)])
    assert result.exit_code == 0, result.output
    figures = json.loads(target.read_text("utf-8"))
    assert (figures["layouts"], figures["not_solved"], figures["mirror_distinct"],
            figures["solvable"]) == (363_480, 338_700, 169_515, 121_285)  # docs §7
    assert [figures["by_horizontal"][s] for s in "123450"] == [
        23_623, 37_861, 38_467, 14_594, 3_999, 2_741]
    assert "4FEA13400" in {layout["code"] for layout in figures["hardest"]}  # 峰回路转


def test_stats_standard_prints_tables() -> None:
    result = CliRunner().invoke(main, ["stats", "standard"], terminal_width=160)
    assert result.exit_code == 0, result.output
    for figure in ("363,480", "338,700", "169,515", "121,285", "23,623", "2,741", "4FEA13400"):
        assert figure in result.output


def test_stats_of_something_else_is_refused() -> None:
    result = CliRunner().invoke(main, ["stats", "everything"], standalone_mode=True)
    assert result.exit_code == 2
    assert "'everything'" in result.output


def test_serve_help() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--port" in result.output and "--host" in result.output


@pytest.mark.parametrize("port", ["0", "65536", "http"])
def test_serve_refuses_bad_ports(port: str) -> None:
    result = CliRunner().invoke(main, ["serve", "--port", port])
    assert result.exit_code == 2
    assert port in result.output


def test_serve_refuses_a_port_in_use() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert f"127.0.0.1:{port}" in result.output and "in use" in result.output


def test_serve_runs_the_app_on_the_given_address(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(
        app=app, **options))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert (started["host"], started["port"]) == ("127.0.0.1", port)
    assert "/solution" in started["app"].openapi()["paths"]


def test_serve_passes_the_limits_and_database_to_the_app(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    missing = tmp_path / "none.duckdb"
    result = CliRunner().invoke(main, ["serve", "--port", str(port), "--workers", "3",
                                       "--answer-seconds", "2.5", "--cache-size", "64",
                                       "--max-group-size", "1000", "--db", str(missing)])
    assert result.exit_code == 0, result.output
    answers = started["app"].state.answers
    assert (answers.workers, answers.answer_seconds, answers.cache_bytes) == (3, 2.5, 64 << 20)
    for held in ("no database", "answer cache", "3 worker processes"):
        assert held in result.output
    big = TestClient(started["app"]).get("/api/analysis", params={"code": "1A9BF0C00"})
    assert big.status_code == 422 and "1,000" in big.json()["error"]
    answer = TestClient(started["app"]).get("/api/levels")
    assert answer.status_code == 404 and str(missing) in answer.json()["error"]


@pytest.mark.parametrize("option", ["--workers", "--max-group-size"])
def test_serve_refuses_limits_below_one(option: str) -> None:
    result = CliRunner().invoke(main, ["serve", option, "0"])
    assert result.exit_code == 2 and option in result.output
