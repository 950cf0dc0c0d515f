"""Long searches: IDA* paused and resumed in shares finds what it finds in one go, reports its
progress, stops at a time limit with the bound it proved, falls back to the reduction under
``auto``, and stops on Ctrl-C."""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from huarong import npuzzle
from huarong.cli import npuzzle as cli
from huarong.npuzzle import Algorithm, Board, Outcome, SearchProgress, deepening

from .test_npuzzle import reference_distances

# A shuffled 5x5: no optimal search here finishes in a test's time.
HARD_5X5 = Board.parse("5 10 2 17 3 15 19 12 11 6 4 9 22 16 20 8 23 14 7 13 24 18 21 0 1")
GOAL_5X5 = Board.solved(5, 5)
# One of the 15-puzzle's 80-move positions, for the standard goal.
HARD_4X4 = Board.parse("0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1")
GOAL_4X4 = Board.solved(4, 4)


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory,
                  monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("HUARONG_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    yield


@pytest.fixture
def tiny_shares(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kernel call expands a single node before it pauses."""
    monkeypatch.setattr(deepening, "_FIRST_SHARE", 1)
    monkeypatch.setattr(deepening, "_next_share", lambda done, seconds: 1)


def manhattan(board: Board, goal: Board) -> int:
    where = {tile: divmod(cell, goal.cols) for cell, tile in enumerate(goal.tiles)}
    return sum(abs(cell // board.cols - where[tile][0]) + abs(cell % board.cols - where[tile][1])
               for cell, tile in enumerate(board.tiles) if tile)


def walked(rng: random.Random, goal: Board, steps: int) -> Board:
    board = goal
    for _ in range(steps):
        board = rng.choice(board.successors())
    return board


@pytest.mark.parametrize("algorithm,rows,cols", [
    ("idastar", 3, 3), ("iddfs", 2, 3), ("pdb", 3, 3), ("pdb-7-8", 3, 4), ("idastar", 2, 5),
])
def test_a_search_resumed_after_every_node_finds_the_same_path(
        algorithm: str, rows: int, cols: int, monkeypatch: pytest.MonkeyPatch) -> None:
    goal = Board.solved(rows, cols)
    rng = random.Random(algorithm)
    boards = [walked(rng, goal, rng.randint(6, 30)) for _ in range(4)]
    whole = [npuzzle.solve(board, goal, algorithm) for board in boards]
    monkeypatch.setattr(deepening, "_FIRST_SHARE", 1)
    monkeypatch.setattr(deepening, "_next_share", lambda done, seconds: 1)
    for board, once in zip(boards, whole, strict=True):
        reports: list[SearchProgress] = []
        shared = npuzzle.solve(board, goal, algorithm, watch=reports.append)
        assert shared.path == once.path and shared.nodes_expanded == once.nodes_expanded
        assert shared.peak_frontier == once.peak_frontier
        assert [r.nodes for r in reports] == sorted(r.nodes for r in reports)
    if rows * cols <= 9:
        distances = reference_distances(goal.tiles, rows, cols)
        assert [r.steps for r in whole] == [distances[b.tiles] for b in boards]


def test_a_time_limit_stops_ida_star_with_a_proved_bound() -> None:
    reports: list[SearchProgress] = []
    result = npuzzle.solve(HARD_5X5, GOAL_5X5, "idastar", time_limit=0.5,
                           watch=reports.append)
    assert result.outcome is Outcome.TIME_LIMIT and not result.solved and not result.optimal
    assert result.path == () and result.steps is None and result.fell_back_from is None
    answer = npuzzle.solve(HARD_5X5, GOAL_5X5, "reduction")
    assert result.lower_bound is not None and answer.steps is not None
    start = manhattan(HARD_5X5, GOAL_5X5)
    # Manhattan distance and linear conflicts move by one and by twos: the bound keeps parity.
    assert start <= result.lower_bound <= answer.steps
    assert (result.lower_bound - start) % 2 == 0
    assert reports and reports[-1].nodes == result.nodes_expanded > 0
    assert all(r.algorithm is Algorithm.IDASTAR for r in reports)
    assert [r.bound for r in reports] == sorted(r.bound for r in reports)
    assert all(a.nodes < b.nodes for a, b in itertools.pairwise(reports))
    assert reports[-1].bound == result.lower_bound
    assert all((r.bound - start) % 2 == 0 for r in reports)


def test_a_node_limit_reports_the_bound_too() -> None:
    result = npuzzle.solve(HARD_5X5, GOAL_5X5, "idastar", max_nodes=5000)
    assert result.outcome is Outcome.LIMIT_REACHED
    assert result.lower_bound is not None
    assert result.lower_bound >= manhattan(HARD_5X5, GOAL_5X5)


def test_auto_falls_back_to_the_reduction_when_time_runs_out(tiny_shares: None) -> None:
    goal = Board.solved(3, 4)
    board = walked(random.Random(34), goal, 40)
    optimum = npuzzle.solve(board, goal, "bibfs").steps
    assert optimum is not None and optimum > 2
    result = npuzzle.solve(board, goal, time_limit=1e-9)
    # pdb or pdb-7-8, as the session's cache holds the 3x4 databases of the latter or not.
    assert result.fell_back_from in (Algorithm.PDB, Algorithm.PDB78)
    assert result.fell_back_from is npuzzle.best_algorithm(board, goal)
    assert result.algorithm is Algorithm.REDUCTION and result.solved and not result.optimal
    assert result.path[0] == board and result.path[-1] == goal
    assert result.lower_bound is not None
    assert manhattan(board, goal) <= result.lower_bound <= optimum
    assert result.steps is not None and result.steps >= optimum


@pytest.mark.parametrize("algorithm", ["astar-linear", "astar-misplaced", "bfs", "bibfs"])
def test_a_time_limit_stops_a_graph_search_with_a_proved_bound(algorithm: str) -> None:
    reports: list[SearchProgress] = []
    result = npuzzle.solve(HARD_4X4, GOAL_4X4, algorithm, time_limit=0.5, watch=reports.append)
    assert result.outcome is Outcome.TIME_LIMIT and result.path == ()
    assert reports and all(r.algorithm.value == algorithm for r in reports)
    assert all(a.nodes < b.nodes for a, b in itertools.pairwise(reports))
    assert [r.bound for r in reports] == sorted(r.bound for r in reports)
    assert result.nodes_expanded >= reports[-1].nodes
    # The board is 80 moves from the goal (Brüngger et al. 1999): what was ruled out is less.
    assert result.lower_bound is not None and result.lower_bound <= 80
    if algorithm == "astar-linear":
        assert result.lower_bound >= manhattan(HARD_4X4, GOAL_4X4)


def test_graph_searches_report_the_length_they_prove() -> None:
    board, goal = Board.parse("8 6 7 2 5 4 3 0 1"), Board.solved(3, 3)
    for algorithm in ("bfs", "bibfs", "astar-linear"):
        result = npuzzle.solve(board, goal, algorithm)
        assert result.steps == result.lower_bound == 31
    assert npuzzle.solve(board, goal, "dfs", depth_bound=40).lower_bound is None


def test_time_limit_must_be_positive() -> None:
    with pytest.raises(npuzzle.NPuzzleError, match="time limit 0"):
        npuzzle.solve(Board.solved(3, 3).moved("U"), algorithm="idastar", time_limit=0)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.npuzzle_group, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_cli_time_limit_ends_with_status_1_and_the_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "PROGRESS_INTERVAL", 0.0)
    code, out, err = run("solve", HARD_5X5.line(), "--algo", "idastar", "--time-limit", "0.5")
    assert code == 1
    stopped = [line for line in err.splitlines() if line.startswith("huarong npuzzle:")]
    assert len(stopped) == 1
    assert "idastar: time limit of 0.5 s reached at bound" in stopped[0]
    progress = [line for line in err.splitlines() if line.startswith("huarong: idastar: bound")]
    assert progress and all("nodes/s" in line for line in progress)
    code, out, err = run("solve", HARD_5X5.line(), "--algo", "idastar", "--time-limit", "0.5",
                         "--json", "-q")
    assert code == 1 and err == ""
    (result,) = json.loads(out)["results"]
    assert result["outcome"] == "time limit reached" and result["steps"] is None
    assert result["lower_bound"] >= manhattan(HARD_5X5, GOAL_5X5)
    assert result["optimal"] is False


def test_cli_auto_falls_back_and_says_so(tiny_shares: None) -> None:
    goal = Board.solved(3, 4)
    board = walked(random.Random(43), goal, 40)
    code, out, _ = run("solve", board.line(), "--size", "3x4", "--goal", "standard",
                       "--time-limit", "0.000001")
    assert code == 0
    assert "time limit reached at bound" in out and "answered by reduction instead" in out
    assert "NOT optimal" in out


@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_cli_rejects_a_bad_time_limit(value: str) -> None:
    code, out, err = run("solve", "1 2 3 4 5 6 7 0 8", "--time-limit", value)
    assert code == 2 and out == "" and "--time-limit" in err


@pytest.mark.parametrize("algorithm,board", [("idastar", HARD_5X5), ("astar-linear", HARD_4X4)])
def test_ctrl_c_stops_a_long_search(algorithm: str, board: Board) -> None:
    # Waits for the first progress line (the search is running), then interrupts.  A job
    # started in the background inherits an ignored SIGINT: the child gets the default
    # disposition back, as a terminal would give it.
    process = subprocess.Popen(
        [sys.executable, "-m", "huarong", "npuzzle", "solve", board.line(), "--goal",
         "standard", "--algo", algorithm], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
        text=True, env={**os.environ, "HUARONG_PROGRESS": ""},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert process.stderr is not None
    try:
        for line in process.stderr:
            if line.startswith(f"huarong: {algorithm}: bound"):
                break
        process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=120)  # a guard against a hang, not a measure
        assert process.returncode == 128 + signal.SIGINT
        assert "interrupted" in rest
    finally:
        process.kill()
        process.wait()
