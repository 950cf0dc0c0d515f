"""``huarong npuzzle`` through click's runner: the seed's examples, tables, JSON, errors."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from huarong.cli.npuzzle import npuzzle_group


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory,
                  monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("HUARONG_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    yield


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(npuzzle_group, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_solve_prints_the_seeds_four_step_path() -> None:
    code, out, _ = run("solve", "2 8 3 1 0 4 7 6 5", "--algo", "bfs", "--show-path")
    assert code == 0
    assert "4 step(s)" in out
    # The seed's BFS output: each board after the start, preceded by a rule.
    assert "------\n2 0 3\n1 8 4\n7 6 5\n------\n0 2 3\n1 8 4\n7 6 5\n" in out
    assert out.rstrip().endswith("------\n1 2 3\n8 0 4\n7 6 5")


def test_unsolvable_board_says_no_solution() -> None:
    code, out, _ = run("solve", "3 1 5 4 0 8 2 6 7", "--algo", "all")
    assert code == 1 and "No solution!" in out  # exit status 1: no solution


def test_all_compares_every_algorithm_in_a_table() -> None:
    code, out, _ = run("solve", "2 1 6 4 0 8 7 5 3", "--algo", "all", "--depth-bound", "100")
    assert code == 0
    assert out.count(" 18 ") >= 8 and " 100 " in out


def test_json_reports_steps_nodes_and_time() -> None:
    code, out, _ = run("solve", "2,1,6,4,0,8,7,5,3", "--algo", "idastar", "--json")
    assert code == 0
    data = json.loads(out)
    (result,) = data["results"]
    assert result["steps"] == 18 and result["outcome"] == "solved"
    assert result["nodes_expanded"] > 0 and result["seconds"] >= 0
    assert data["goal"] == [1, 2, 3, 8, 0, 4, 7, 6, 5]
    assert len(result["path"]) == 19 and len(result["moves"]) == 18


def test_standard_goal_and_grid_input() -> None:
    code, out, _ = run("solve", "1 2 3\n4 5 6\n0 7 8", "--goal", "standard", "--json")
    assert code == 0 and json.loads(out)["results"][0]["steps"] == 2


def test_space_command_facts() -> None:
    code, out, _ = run("space", "--goal", "standard", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["reachable"] == 181_440
    assert data["max_distance"] == 31 and len(data["farthest"]) == 2
    assert sum(data["histogram"]) == 181_440
    code, out, _ = run("space", "--goal", "standard")
    assert code == 0 and "181,440" in out and "maximum distance: 31" in out


def test_info_command() -> None:
    code, out, _ = run("info", "2 8 3 1 0 4 7 6 5", "--json")
    assert code == 0
    assert json.loads(out)["solvable"] is True


@pytest.mark.parametrize("args,fragment", [
    (("solve", "2 8 3 1 0 4 7 6"), "'2 8 3 1 0 4 7 6'"),
    (("solve", "2 8 x 1 0 4 7 6 5"), "'x' is not a whole number"),
    (("solve", "2 8 3 1 0 4 7 6 5", "--goal", "1 2 3 4"), "'1 2 3 4'"),
    (("solve", "1 1 2 3"), "1 appears twice"),
    (("space", "--size", "3x4"), "3x4"),
    (("space", "--size", "big"), "'big'"),
    (("solve", "2 8 3 1 0 4 7 6 5", "--algo", "fast"), "'fast'"),
])
def test_bad_input_is_one_line_on_stderr_with_status_2(args: tuple[str, ...],
                                                        fragment: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert fragment in err
    assert "Traceback" not in err and out == ""
    assert len(err.strip().splitlines()) == 1 or "Usage:" in err


def test_pdb_build_then_info_for_a_small_goal() -> None:
    code, out, _ = run("pdb", "info", "--size", "3x4", "--goal", "standard", "--json")
    assert code == 0
    before = json.loads(out)["databases"]
    assert [d["entries"] for d in before] == [95_040, 665_280]
    code, out, _ = run("pdb", "build", "--size", "3x4", "--goal", "standard", "--kind", "all")
    assert code == 0 and "pdb-7-8 databases (5 + 6 tiles, 760,320 bytes)" in out
    code, out, _ = run("pdb", "info", "--size", "3x4", "--goal", "standard")
    assert code == 0 and out.count(", ok, ") == 2
    code, out, _ = run("solve", "1 2 3 4 5 6 7 8 9 10 0 11", "--size", "3x4", "--goal", "standard",
                       "--json")
    (result,) = json.loads(out)["results"]
    assert result["algorithm"] == "pdb-7-8" and result["steps"] == 1
    assert result["nodes_expanded"] >= 1


def test_bare_pdb_prints_its_usage() -> None:
    code, out, _ = run("pdb")
    assert code == 0 and "build" in out and "info" in out


def test_auto_is_the_default_algorithm() -> None:
    code, out, _ = run("solve", "2 8 3 1 0 4 7 6 5", "--json")
    assert code == 0
    assert json.loads(out)["results"][0]["algorithm"] == "astar-linear"
