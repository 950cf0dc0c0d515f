"""Input and messages: grid text errors, exit statuses, bare commands, conveniences (hint,
move descriptions, classic names, stdin, show --json, __version__), progress lines, and the
layout module standing on its own."""

from __future__ import annotations

import ast
import collections
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import huarong
from huarong.cli import _common, main
from huarong.engine import hints
from huarong.engine.layout import InvalidGridError, Layout
from huarong.engine.solver import solve

from . import klotski_reference as reference

HENGDAOLIMA = "VCCV/VCCV/VHHV/VSSV/S..S"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False,
                                prog_name="huarong")
    return result.exit_code, result.stdout, result.stderr


# ----- grid text --------------------------------------------------------------------------
def test_a_stray_character_names_its_row_and_column() -> None:
    with pytest.raises(InvalidGridError, match="'x' at row 5, column 3"):
        Layout.from_grid("VCCV/VCCV/VHHV/VSSV/S.xS")
    with pytest.raises(InvalidGridError, match=re.escape("'?' at row 2, column 1")):
        Layout.parse("VCCV\n?CCV\nVHHV\nVSSV\nS..S")


def test_letters_still_name_pieces_by_shape() -> None:
    assert Layout.from_grid("abbc/abbc/deef/dghf/i..j") == Layout.from_grid(HENGDAOLIMA)


def test_crlf_line_ends_are_accepted() -> None:
    assert Layout.parse("VCCV\r\nVCCV\r\nVHHV\r\nVSSV\r\nS..S\r\n").code == "1A9BF0C00"


def test_errors_quote_at_most_about_60_characters() -> None:
    for huge in ("Z" * 100_000, "V" * 100_000, "\n".join(["VCCV"] * 4 + ["S" * 50_000])):
        with pytest.raises(ValueError) as error:
            Layout.parse(huge)
        assert len(str(error.value)) < 200, str(error.value)[:300]
    code, _, err = run("show", "Q" * 100_000)
    assert code == 2 and len(err) < 300


# ----- exit statuses and bare commands ------------------------------------------------------
def test_no_solution_exits_1() -> None:
    nowhere = "VCCV/VCCV/VVSV/VVSV/S..S"  # 走投无路
    code, out, _ = run("solve", nowhere)
    assert code == 1 and "no solution" in out
    code, out, _ = run("solve", nowhere, "--json")
    assert code == 1 and json.loads(out)["solvable"] is False
    assert run("hint", nowhere)[0] == 1
    assert run("npuzzle", "solve", "3 1 5 4 0 8 2 6 7")[0] == 1


@pytest.mark.parametrize("words", [["path"], ["--cal-target"]])
def test_no_path_exits_1(words: list[str]) -> None:
    code, _, err = run(*words, "1A9BF0C00", "4FEA13400")
    assert code == 1 and err.count("\n") == 1 and "no path" in err
    assert "not in the group" in err


def test_success_exits_0_and_bad_input_2() -> None:
    assert run("solve", "1A9BF0C00", "-c")[0] == 0
    assert run("solve", "1A9BF0C01")[0] == 2
    assert run("solve")[0] == 2


@pytest.mark.parametrize("words", [[], ["db"], ["npuzzle"]])
def test_bare_commands_print_their_usage(words: list[str]) -> None:
    code, out, err = run(*words)
    text = out + err
    assert code == 2 and text.startswith(f"Usage: {' '.join(['huarong', *words])} ")
    assert "Commands:" in text and "huarong: error" not in text


# ----- conveniences -------------------------------------------------------------------------
def test_describe_step_names_the_piece_and_its_slide() -> None:
    start = Layout.from_grid(HENGDAOLIMA)
    assert hints.describe_step(start, Layout.from_grid("VCCV/VCCV/VHHV/V.SV/SS.S")) == (
        "卒 (row 4, col 2) down")
    # A soldier turning a corner (up is the only way out), a general sliding two cells.
    assert hints.describe_step(Layout.from_grid("CC../CCVS/HHVV/VVSV/VVSS"),
                               Layout.from_grid("CCS./CCV./HHVV/VVSV/VVSS")) == (
        "卒 (row 2, col 4) up, left")
    assert hints.describe_step(Layout.from_grid("CC.V/CC.V/HHVV/VSVV/VSSS"),
                               Layout.from_grid("CCVV/CCVV/HH.V/VS.V/VSSS")) == (
        "竖将 (row 3, col 3) up 2")
    solved = Layout.from_grid("VSSV/VHHV/V..V/VCCV/SCCS")
    assert hints.describe_step(Layout.from_grid("VSSV/VHHV/VCCV/VCCV/S..S"), solved) == (
        "曹操 down")


def _reference_goal_distances(code: str) -> dict[reference.State, int]:
    """Minimum steps to a goal of every layout of ``code``'s group, by the pure-Python
    reference engine: the whole group, then a breadth-first search from all its goals."""
    group = reference.distances(reference.from_grid(Layout.from_code(code).grid()))
    goals = [state for state in group if reference.is_goal(state)]
    steps = dict.fromkeys(goals, 0)
    queue = collections.deque(goals)
    while queue:
        state = queue.popleft()
        for child in reference.steps_from(state):
            if child not in steps:
                steps[child] = steps[state] + 1
                queue.append(child)
    return steps


def test_hint_lists_exactly_the_steps_one_closer() -> None:
    """A layout of 54 steps in a group of 1,398, two of whose three children are one step
    closer: the hints are exactly those two, by the reference engine."""
    code = "04991F000"
    steps = _reference_goal_distances(code)
    start = reference.from_grid(Layout.from_code(code).grid())
    expected = sorted(Layout.from_grid(reference.to_grid(child)).code
                      for child in reference.steps_from(start)
                      if steps[child] == steps[start] - 1)
    assert steps[start] == 54 and len(expected) == 2
    best = hints.best_next_steps(Layout.from_code(code))
    assert sorted(h.layout.code for h in best) == expected
    result, out, _ = run("hint", code, "--json")
    data = json.loads(out)
    assert result == 0 and data["min_steps"] == 54
    assert sorted(item["code"] for item in data["best"]) == expected
    assert {item["steps_left"] for item in data["best"]} == {53}
    result, out, _ = run("hint", code)
    assert result == 0 and all(h.description in out for h in best)


def test_solve_describes_every_move() -> None:
    code, out, _ = run("solve", "1A9BF0C00")
    headers = [line for line in out.splitlines() if line.startswith("step ")]
    assert code == 0 and len(headers) == 82
    assert headers[0] == "step 0/81: 1A9BF0C00  (start)"
    path = solve(Layout.from_code("1A9BF0C00")).path
    for header, (before, after) in zip(headers[1:], itertools.pairwise(path), strict=True):
        assert header.endswith(f"({hints.describe_step(before, after)})")
    assert headers[-1] == "step 81/81: DAAF4CC00  (曹操 right)"


@pytest.mark.parametrize("name", ["横刀立马", "Sword on Horseback", "sword on horseback"])
def test_a_classic_name_works_as_a_layout(name: str) -> None:
    code, out, _ = run("solve", name, "-c")
    assert code == 0 and out.startswith("1A9BF0C00: minimum 81 steps")


def test_dash_reads_the_layout_from_stdin() -> None:
    code, out, _ = run("solve", "-", "-c", stdin="VCCV\r\nVCCV\r\nVHHV\r\nVSSV\r\nS..S\r\n")
    assert code == 0 and out.startswith("1A9BF0C00: minimum 81 steps")


def test_dash_reads_a_seeds_file_from_stdin(tmp_path: Path) -> None:
    seed = Layout.parse("VCCV/VCCV/VVSV/VVSV/S..S").code  # 走投无路: a group of 7,462
    farthest, solution = tmp_path / "f.csv", tmp_path / "s.csv"
    done = subprocess.run([sys.executable, "-m", "huarong", "analyze-multi-group", "-q", "-",
                           str(farthest), str(solution)], input=f"{seed}\n", text=True,
                          capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert farthest.read_text().startswith("code,farthest_steps")
    assert len(solution.read_text().splitlines()) > 1


def test_show_json() -> None:
    code, out, _ = run("show", "1a9bf0c", "--json")
    data = json.loads(out)
    assert code == 0 and data["code"] == "1A9BF0C00" and data["grid"] == HENGDAOLIMA
    assert data["online_id"] == "24422442233221121001" and len(data["pieces"]) == 10
    assert (data["jiang"], data["bing"], data["style"]) == (5, 4, 1)


def test_version() -> None:
    from importlib.metadata import version

    assert huarong.__version__ == version("huarong")
    assert run("--version")[1].strip().endswith(huarong.__version__)


# ----- progress -----------------------------------------------------------------------------
def test_progress_lines_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_common, "PROGRESS_INTERVAL", 0.0)
    code, _, err = run("analyze", "1A9BF0C00")
    assert code == 0 and err.startswith("huarong: ") and "/" in err.splitlines()[0]
    code, _, err = run("analyze", "1A9BF0C00", "-q")
    assert code == 0 and err == ""


def test_progress_lines_go_on_while_the_count_stands_still(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """One long unit of work: the same count again, with the time elapsed, every interval;
    nothing after the job."""
    import time

    monkeypatch.setattr(_common, "PROGRESS_INTERVAL", 0.1)
    with _common.progress_bar() as update:
        update("units", 0, 3)
        time.sleep(0.45)
        update("units", 1, 3)
        time.sleep(0.25)
    lines = capsys.readouterr().err.splitlines()
    waiting = [line for line in lines if line.startswith("huarong: units: 0/3 (0%), ")]
    assert len(waiting) >= 2 and waiting[-1].endswith(" s")
    assert lines[-1].startswith("huarong: units: 1/3 (33%), ")
    time.sleep(0.3)
    assert capsys.readouterr().err == ""


# ----- the value type does not depend on the search ------------------------------------------
def _huarong_imports(module: str) -> set[str]:
    """The huarong modules that ``module``'s source imports, at any depth of its code."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    names = {node.module for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.module}
    names |= {alias.name for node in ast.walk(tree)
              if isinstance(node, ast.Import) for alias in node.names}
    return {name for name in names if name.startswith("huarong")}


def test_layout_imports_no_search_module() -> None:
    """The Layout type and everything it imports, followed to the end, stay clear of the
    searches (solver, analysis, hints), the space, the web and the command line."""
    reached, waiting = set(), ["huarong.engine.layout"]
    while waiting:
        module = waiting.pop()
        if module not in reached:
            reached.add(module)
            waiting += _huarong_imports(module) - reached
    allowed = {"huarong.engine.layout", "huarong.engine.board", "huarong.engine.drawing",
               "huarong.engine.ids", "huarong.engine.palette"}
    assert {m for m in reached if not m.startswith("huarong._kernels")} <= allowed, reached


# ----- the first-compile notice -------------------------------------------------------------
def test_compile_notice_only_when_compiling_and_once(tmp_path: Path) -> None:
    import os

    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}

    def notices() -> int:
        done = subprocess.run([sys.executable, "-m", "huarong", "solve", "1A9BF0C00", "-c"],
                              capture_output=True, text=True, env=environment, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stderr.count("compiling the numba kernels")

    assert notices() == 1  # several kernels compile: one notice
    assert notices() == 0  # all of them come from the cache


def test_shell_completion_lists_subcommands() -> None:
    result = CliRunner().invoke(main, [], prog_name="huarong", env={
        "_HUARONG_COMPLETE": "bash_complete", "COMP_WORDS": "huarong db q", "COMP_CWORD": "2"})
    assert result.exit_code == 0 and result.output.split() == ["plain,query"]
