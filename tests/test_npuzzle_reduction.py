"""The line-by-line reduction: every answer replayed move by move on its board must reach the
goal, and on boards small enough for an optimal search (the slow pure-Python BFS of
test_npuzzle up to 3 x 3, bidirectional BFS and IDA* beyond) it may not be shorter than the
optimum and must share its parity."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from huarong import npuzzle
from huarong.cli.npuzzle import npuzzle_group
from huarong.npuzzle import Algorithm, Board, Outcome, UnsupportedBoardError

from .test_npuzzle import reference_distances


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory,
                  monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("HUARONG_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    yield


def shuffled(rng: random.Random, goal: Board) -> Board:
    """A uniformly random board that can reach ``goal``."""
    while True:
        tiles = list(goal.tiles)
        rng.shuffle(tiles)
        board = Board(goal.rows, goal.cols, tuple(tiles))
        if npuzzle.is_solvable(board, goal):
            return board


def any_goal(rng: random.Random, rows: int, cols: int) -> Board:
    """The standard goal, or one with the tiles and the blank anywhere."""
    if rng.random() < 0.5:
        return Board.solved(rows, cols)
    tiles = list(range(rows * cols))
    rng.shuffle(tiles)
    return Board(rows, cols, tuple(tiles))


def replayed(board: Board, moves: str) -> Board:
    for move in moves:
        board = board.moved(move)
    return board


def check_answer(result: npuzzle.SolveResult, board: Board, goal: Board) -> int:
    """The answer's length, once it is known to lead from ``board`` to ``goal``."""
    assert result.algorithm is Algorithm.REDUCTION and result.outcome is Outcome.SOLVED
    assert not result.optimal and not result.algorithm.optimal
    assert replayed(board, result.moves) == goal
    assert result.path[0] == board and result.path[-1] == goal
    assert len({b.tiles for b in result.path}) == len(result.path)
    assert result.steps == len(result.moves)
    return len(result.moves)


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)])
def test_never_shorter_than_the_reference_bfs(rows: int, cols: int) -> None:
    rng = random.Random(rows * 10 + cols)
    for _ in range(2 if rows * cols == 9 else 4):
        goal = any_goal(rng, rows, cols)
        distances = reference_distances(goal.tiles, rows, cols)
        for board in rng.sample(sorted(distances), min(15, len(distances))):
            start = Board(rows, cols, board)
            length = check_answer(npuzzle.solve(start, goal, "reduction"), start, goal)
            assert length >= distances[board]
            assert length % 2 == distances[board] % 2


@pytest.mark.parametrize("rows,cols", [(2, 5), (5, 2), (3, 4), (4, 3), (2, 7), (4, 4)])
def test_never_shorter_than_an_optimal_search(rows: int, cols: int) -> None:
    rng = random.Random(rows * 100 + cols)
    for index in range(5):
        goal = any_goal(rng, rows, cols)
        board = goal
        # Walked from the goal, so that the optimal search stays short on 4x4 too.
        for _ in range(rng.randint(10, 40) if rows * cols > 12 else 200):
            board = rng.choice(board.successors())
        optimum = npuzzle.solve(board, goal, "bibfs" if rows * cols <= 12 else "idastar")
        assert optimum.steps is not None
        length = check_answer(npuzzle.solve(board, goal, "reduction"), board, goal)
        assert length >= optimum.steps and (length - optimum.steps) % 2 == 0, index


@pytest.mark.parametrize("rows,cols", [(5, 5), (6, 4), (3, 9), (9, 3), (7, 7), (6, 8)])
def test_shuffled_larger_boards_reach_the_goal(rows: int, cols: int) -> None:
    rng = random.Random(rows * cols)
    for _ in range(6):
        goal = any_goal(rng, rows, cols)
        board = shuffled(rng, goal)
        result = npuzzle.solve(board, goal, "reduction")
        check_answer(result, board, goal)
        assert result.nodes_expanded > 0


def test_auto_answers_an_11x11_shuffled_board_and_says_it_is_not_optimal() -> None:
    goal = Board.solved(11, 11)
    board = shuffled(random.Random(11), goal)
    result = npuzzle.solve(board, goal)
    check_answer(result, board, goal)
    manhattan = sum(abs(cell // 11 - (tile - 1) // 11) + abs(cell % 11 - (tile - 1) % 11)
                    for cell, tile in enumerate(board.tiles) if tile)
    assert result.steps is not None and result.steps >= manhattan


def test_an_unsolvable_large_board_is_answered_at_once() -> None:
    goal = Board.solved(7, 7)
    tiles = list(goal.tiles)
    tiles[0], tiles[1] = tiles[1], tiles[0]
    result = npuzzle.solve(Board(7, 7, tuple(tiles)), goal)
    assert result.algorithm is Algorithm.REDUCTION
    assert result.outcome is Outcome.UNSOLVABLE and result.path == ()


def test_boards_beyond_its_limit_are_refused() -> None:
    side = 21
    assert side * side > npuzzle.MAX_REDUCTION_CELLS
    with pytest.raises(UnsupportedBoardError, match="400 cells"):
        npuzzle.solve(Board.solved(side, side), algorithm="reduction")
    with pytest.raises(UnsupportedBoardError, match="400 cells"):
        npuzzle.solve(Board.solved(side, side).moved("U"))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(npuzzle_group, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_cli_labels_the_answer_as_not_optimal() -> None:
    goal = Board.solved(11, 11)
    board = shuffled(random.Random(1111), goal)
    code, out, _ = run("solve", board.line(), "--json")
    assert code == 0
    (answer,) = json.loads(out)["results"]
    assert answer["algorithm"] == "reduction" and answer["optimal"] is False
    assert replayed(board, answer["moves"]) == goal
    assert answer["steps"] == len(answer["moves"])
    code, out, _ = run("solve", board.line())
    assert code == 0 and "NOT optimal" in out and "Line-by-line reduction" in out
    code, out, _ = run("solve", "1 2 3 4 5 6 7 0 8", "--goal", "standard")
    assert code == 0 and "1 step(s) (optimal)" in out
