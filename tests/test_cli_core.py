"""The engine's commands on one layout, in subcommand form and the original spellings."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from huarong.cli import main, translate_legacy
from huarong.engine.layout import Layout

from . import klotski_reference as ref


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_help_lists_commands_and_the_original_spellings(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--help"])
    assert result.exit_code == 0
    for word in ("solve", "analyze", "--cal CODE [FILE]", "--analy-quiet CODE FILE"):
        assert word in result.output


def test_show_draws_the_seed_example_at_the_given_width(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--show", "1A9BF0C00", "4"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "1A9BF0C00"
    assert {len(line) for line in lines[1:]} == {4 * 4 + 5}


def test_show_svg(runner: CliRunner) -> None:
    result = runner.invoke(main, ["show", "4FEA134", "--svg"])
    assert result.exit_code == 0 and result.output.startswith("<svg")


def test_cal_prints_81_numbered_boards(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--cal", "1A9BF0C00"])
    assert result.exit_code == 0
    assert "minimum 81 steps" in result.output
    assert "step 81/81: D" in result.output
    assert result.output.count("step ") == 82


def test_solve_compact_and_json_agree(runner: CliRunner) -> None:
    compact = runner.invoke(main, ["solve", "1a9bf0c", "--compact"]).output.splitlines()
    codes = [line.split(": ")[1] for line in compact[2:]]
    data = json.loads(runner.invoke(main, ["solve", "1A9BF0C00", "--json"]).output)
    assert data["steps"] == 81 == len(codes) - 1
    assert data["path"][0] == "1A9BF0C00" and data["path"][-1].startswith("D")
    for before, after in itertools.pairwise(data["path"]):
        assert ref.is_one_step(ref.from_grid(Layout.from_code(before).grid()),
                               ref.from_grid(Layout.from_code(after).grid()))


def test_cal_writes_the_file_named_by_the_seeds_second_argument(
        runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "demo.txt"
    result = runner.invoke(main, ["--cal", "1A9BF0C00", str(target)])
    assert result.exit_code == 0
    assert target.read_text().startswith("1A9BF0C00: minimum 81 steps")
    assert not [p for p in tmp_path.iterdir() if p.name != "demo.txt"]  # no temp file left


def test_cal_target_seed_example(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--cal-target", "4FEA13400", "43EA73400", "--json"])
    data = json.loads(result.output)
    start, target = (ref.from_grid(Layout.from_code(c).grid())
                     for c in ("4FEA13400", "43EA73400"))
    assert data["steps"] == ref.distances(start, until=target)[target]


def test_group_lists_every_code_sorted(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "group.txt"
    result = runner.invoke(main, ["--group", "1A9BF0C00", str(out)])
    assert result.exit_code == 0
    codes = out.read_text().split()
    assert len(codes) == 25955 and codes == sorted(codes) and "1A9BF0C00" in codes


def test_analy_quiet_writes_layers_with_links(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "analysis.txt"
    result = runner.invoke(main, ["--analy-quiet", "1A9BF0C00", str(out)])
    assert result.exit_code == 0
    text = out.read_text()
    assert "minimum steps     81" in text
    assert "[layer 0] 1 layouts" in text
    assert "-> (0,0)1A9BF0C00 ->" in text
    # Every layout of the group appears exactly once as the middle of a line.
    middles = [line.split("-> ")[1].split(" ->")[0]
               for line in text.splitlines() if "-> " in line]
    assert len(middles) == len(set(middles)) == 25955


def test_analyze_json_summary(runner: CliRunner) -> None:
    data = json.loads(runner.invoke(main, ["analyze", "1A9BF0C00", "--json", "-q"]).output)
    assert data["group_size"] == 25955 == sum(data["layer_sizes"])
    assert data["min_steps"] == 81
    assert all(code.startswith("D") for code in data["min_step_solutions"])


@pytest.mark.parametrize(
    "args, words",
    [
        (["solve", "1A9BF0C0G"], ["1A9BF0C0G", "hex digit"]),
        (["--show", "123456789"], ["123456789"]),
        (["--cal", "1A9BF0C00", "/nonexistent/dir/x.txt"], ["/nonexistent/dir/x.txt"]),
        (["--show", "1A9BF0C00", "0"], ["0"]),
        (["--cal", "1", "2", "3"], ["at most 2 arguments"]),
        (["frobnicate"], ["frobnicate"]),
        (["solve"], ["Missing argument"]),
    ],
)
def test_bad_input_is_one_line_and_exit_2(runner: CliRunner, args: list[str],
                                          words: list[str]) -> None:
    result = runner.invoke(main, args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("huarong: error:")
    assert all(word in lines[0] for word in words)
    assert "Traceback" not in result.output


def test_legacy_translation() -> None:
    assert translate_legacy(["--analy-quiet", "1A9BF0C00", "f.txt"]) == [
        "analyze", "--quiet", "1A9BF0C00", "--output", "f.txt"]
    assert translate_legacy(["--cal", "1A9BF0C00"]) == ["solve", "1A9BF0C00"]
    assert translate_legacy(["--show", "1A9BF0C00", "4"]) == ["show", "1A9BF0C00",
                                                              "--width", "4"]
    assert translate_legacy(["solve", "x"]) == ["solve", "x"]


def test_python_dash_m_and_exit_status_of_a_real_process() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    ok = subprocess.run([sys.executable, "-m", "huarong", "solve", "1A9BF0C00", "-c"],
                        capture_output=True, text=True, env=env, check=False)
    assert ok.returncode == 0 and ok.stdout.splitlines()[-1].startswith("81: D")
    bad = subprocess.run([sys.executable, "-m", "huarong", "--cal", "XYZ"],
                         capture_output=True, text=True, env=env, check=False)
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "XYZ" in bad.stderr
