"""The 8-puzzle and N x M sliding-tile puzzles, checked against the seed (004), published
facts, and a slow pure-Python breadth-first search written here as the reference."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huarong import npuzzle
from huarong._kernels import npuzzle_store as kernels
from huarong.npuzzle import (
    Algorithm,
    Board,
    BoardFormatError,
    GoalMismatchError,
    Outcome,
    UnsupportedBoardError,
)

SEED_GOAL = (1, 2, 3, 8, 0, 4, 7, 6, 5)

# The seed's printed BFS path for its first example (every board after the start).
SEED_BFS_PATH_4 = ["2 0 3 1 8 4 7 6 5", "0 2 3 1 8 4 7 6 5", "1 2 3 0 8 4 7 6 5",
                   "1 2 3 8 0 4 7 6 5"]
# The seed's printed DFS path with depth bound 10 for the same board.
SEED_DFS_PATH_8 = ["2 8 3 0 1 4 7 6 5", "0 8 3 2 1 4 7 6 5", "8 0 3 2 1 4 7 6 5",
                   "8 1 3 2 0 4 7 6 5", "8 1 3 0 2 4 7 6 5", "0 1 3 8 2 4 7 6 5",
                   "1 0 3 8 2 4 7 6 5", "1 2 3 8 0 4 7 6 5"]
# The seed's printed BFS (and A*) path for its third example.
SEED_BFS_PATH_18 = [
    "2 0 6 4 1 8 7 5 3", "0 2 6 4 1 8 7 5 3", "4 2 6 0 1 8 7 5 3", "4 2 6 1 0 8 7 5 3",
    "4 2 6 1 8 0 7 5 3", "4 2 0 1 8 6 7 5 3", "4 0 2 1 8 6 7 5 3", "0 4 2 1 8 6 7 5 3",
    "1 4 2 0 8 6 7 5 3", "1 4 2 8 0 6 7 5 3", "1 4 2 8 6 0 7 5 3", "1 4 2 8 6 3 7 5 0",
    "1 4 2 8 6 3 7 0 5", "1 4 2 8 0 3 7 6 5", "1 0 2 8 4 3 7 6 5", "1 2 0 8 4 3 7 6 5",
    "1 2 3 8 4 0 7 6 5", "1 2 3 8 0 4 7 6 5"]
# The first and last boards of the seed's 100-step DFS (depth bound 100) for that example.
SEED_DFS_100_FIRST = ["2 1 6 0 4 8 7 5 3", "0 1 6 2 4 8 7 5 3", "1 0 6 2 4 8 7 5 3"]
SEED_DFS_100_LAST = ["1 3 0 8 2 4 7 6 5", "1 0 3 8 2 4 7 6 5", "1 2 3 8 0 4 7 6 5"]

# OEIS A089473: 8-puzzle positions at each distance from 1 2 3 / 4 5 6 / 7 8 0.
A089473 = (1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638,
           9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221,
           2)
# The two 8-puzzle positions 31 moves from the standard goal (Reinefeld 1993).
HARDEST_EIGHT = {(8, 6, 7, 2, 5, 4, 3, 0, 1), (6, 4, 7, 8, 5, 0, 3, 2, 1)}

FIFTEEN_45 = "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15"
FIFTEEN_GOAL = " ".join(str(n) for n in range(16))


def seed_cantor(board: list[int]) -> int:
    """The seed's own 康托展开 (section 4.3), generalised from 9 to n cells."""
    n = len(board)
    fact = [math.factorial(i) for i in range(n)]
    ans = 0
    for i in range(n):
        a = sum(1 for j in range(i + 1, n) if board[i] > board[j])
        ans += a * fact[n - 1 - i]
    return ans


def reference_distances(goal: tuple[int, ...], rows: int, cols: int) -> dict[tuple[int, ...], int]:
    """Obviously-correct BFS over tuples from the goal: every reachable board's distance."""
    distances = {goal: 0}
    queue = deque([goal])
    while queue:
        board = queue.popleft()
        blank = board.index(0)
        r, c = divmod(blank, cols)
        for dr, dc in ((0, -1), (-1, 0), (0, 1), (1, 0)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                other = (r + dr) * cols + c + dc
                cells = list(board)
                cells[blank], cells[other] = cells[other], 0
                child = tuple(cells)
                if child not in distances:
                    distances[child] = distances[board] + 1
                    queue.append(child)
    return distances


@pytest.fixture(scope="module")
def standard_distances() -> dict[tuple[int, ...], int]:
    return reference_distances((1, 2, 3, 4, 5, 6, 7, 8, 0), 3, 3)


@pytest.fixture(scope="module")
def seed_distances() -> dict[tuple[int, ...], int]:
    return reference_distances(SEED_GOAL, 3, 3)


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory,
                  monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pattern databases go to a directory of this test session, shared by its tests."""
    monkeypatch.setenv("HUARONG_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    yield


def lines(boards: tuple[Board, ...]) -> list[str]:
    return [b.line() for b in boards]


# ---------------------------------------------------------------- the seed's examples


def test_seed_example_one_takes_four_steps_along_the_seeds_path() -> None:
    board = Board.parse("2 8 3\n1 0 4\n7 6 5")
    for algorithm in Algorithm:
        result = npuzzle.solve(board, algorithm=algorithm)
        expected = 8 if algorithm is Algorithm.DFS else 4
        assert result.steps == expected, algorithm
    assert lines(npuzzle.solve(board, algorithm="bfs").path[1:]) == SEED_BFS_PATH_4
    assert lines(npuzzle.solve(board, algorithm="astar-manhattan").path[1:]) == SEED_BFS_PATH_4


def test_seed_bounded_dfs_reproduces_the_seeds_paths() -> None:
    short = npuzzle.solve(Board.parse("2 8 3 1 0 4 7 6 5"), algorithm="dfs", depth_bound=10)
    assert lines(short.path[1:]) == SEED_DFS_PATH_8
    long = npuzzle.solve(Board.parse("2 1 6 4 0 8 7 5 3"), algorithm="dfs", depth_bound=100)
    assert long.steps == 100
    assert lines(long.path[1:4]) == SEED_DFS_100_FIRST
    assert lines(long.path[-3:]) == SEED_DFS_100_LAST
    assert not long.algorithm.optimal


def test_seed_example_three_takes_eighteen_steps() -> None:
    board = Board.parse("2,1,6,4,0,8,7,5,3")
    for algorithm in Algorithm:
        if algorithm is Algorithm.DFS:
            continue
        assert npuzzle.solve(board, algorithm=algorithm).steps == 18, algorithm
    assert lines(npuzzle.solve(board, algorithm="bfs").path[1:]) == SEED_BFS_PATH_18


def test_seed_example_two_has_no_solution_and_is_not_searched() -> None:
    board = Board.parse("3 1 5 / 4 0 8 / 2 6 7")
    assert not npuzzle.is_solvable(board)
    for algorithm in Algorithm:
        result = npuzzle.solve(board, algorithm=algorithm)
        assert result.outcome is Outcome.UNSOLVABLE
        assert result.nodes_expanded == 0 and result.path == () and result.steps is None


def test_an_unsolvable_huge_board_is_answered_at_once() -> None:
    tiles = [*range(1, 36), 0]
    tiles[0], tiles[1] = tiles[1], tiles[0]
    board = Board(6, 6, tuple(tiles))
    result = npuzzle.solve(board, Board.solved(6, 6), "idastar")
    assert result.outcome is Outcome.UNSOLVABLE


def test_dfs_reports_a_bound_too_small() -> None:
    result = npuzzle.solve(Board.parse("2 1 6 4 0 8 7 5 3"), algorithm="dfs", depth_bound=5)
    assert result.outcome is Outcome.NOT_FOUND and result.steps is None


# ---------------------------------------------------------------- against the reference


def random_solvable(rng: random.Random, goal: Board, count: int) -> list[Board]:
    boards: list[Board] = []
    while len(boards) < count:
        tiles = list(goal.tiles)
        rng.shuffle(tiles)
        board = Board(goal.rows, goal.cols, tuple(tiles))
        if npuzzle.is_solvable(board, goal):
            boards.append(board)
    return boards


@pytest.mark.parametrize("goal_name", ["standard", "seed"])
def test_optimal_algorithms_match_reference_bfs_on_150_random_boards(
        goal_name: str, standard_distances: dict[tuple[int, ...], int],
        seed_distances: dict[tuple[int, ...], int]) -> None:
    goal = npuzzle.parse_goal(goal_name)
    reference = standard_distances if goal_name == "standard" else seed_distances
    always = [Algorithm.BIBFS, Algorithm.ASTAR_MANHATTAN, Algorithm.ASTAR_LINEAR,
              Algorithm.IDASTAR, Algorithm.PDB]
    for index, board in enumerate(random_solvable(random.Random(goal_name), goal, 150)):
        expected = reference[board.tiles]
        chosen = list(always)
        if index % 10 == 0:
            chosen += [Algorithm.BFS, Algorithm.ASTAR_MISPLACED]
        if expected <= 16:
            chosen.append(Algorithm.IDDFS)
        for algorithm in chosen:
            result = npuzzle.solve(board, goal, algorithm)
            assert result.steps == expected, (board, algorithm)
            assert result.path[0] == board and result.path[-1] == goal
            for before, after in zip(result.path, result.path[1:], strict=False):
                assert after in before.successors()


def test_state_space_facts_of_the_standard_goal(
        standard_distances: dict[tuple[int, ...], int]) -> None:
    space = npuzzle.state_space(3, 3, Board.solved(3, 3))
    assert space.reachable == 181_440 == math.factorial(9) // 2 == len(standard_distances)
    assert space.max_distance == 31
    assert {b.tiles for b in space.farthest} == HARDEST_EIGHT
    assert space.histogram == A089473
    counted = [0] * 32
    for distance in standard_distances.values():
        counted[distance] += 1
    assert tuple(counted) == space.histogram


def test_state_space_of_the_seed_goal(seed_distances: dict[tuple[int, ...], int]) -> None:
    space = npuzzle.state_space()
    assert space.goal.tiles == SEED_GOAL
    assert space.reachable == len(seed_distances)
    assert space.max_distance == max(seed_distances.values())
    assert {b.tiles for b in space.farthest} == {
        b for b, d in seed_distances.items() if d == space.max_distance}


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)])
def test_other_sizes_match_the_reference(rows: int, cols: int) -> None:
    goal = Board.solved(rows, cols)
    reference = reference_distances(goal.tiles, rows, cols)
    space = npuzzle.state_space(rows, cols, goal)
    assert space.reachable == len(reference) == math.factorial(rows * cols) // 2
    assert space.max_distance == max(reference.values())
    algorithms = [Algorithm.BIBFS, Algorithm.ASTAR_LINEAR, Algorithm.IDASTAR, Algorithm.PDB]
    if rows * cols <= 8:
        algorithms.append(Algorithm.BFS)
    for board in random_solvable(random.Random(rows * 10 + cols), goal, 6):
        for algorithm in algorithms:
            assert npuzzle.solve(board, goal, algorithm).steps == reference[board.tiles]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)]), st.randoms())
def test_parity_decides_solvability_for_odd_and_even_widths(
        size: tuple[int, int], rng: random.Random) -> None:
    rows, cols = size
    goal_tiles = list(range(rows * cols))
    rng.shuffle(goal_tiles)
    goal = Board(rows, cols, tuple(goal_tiles))
    reachable = reference_distances(goal.tiles, rows, cols)
    board_tiles = list(goal_tiles)
    rng.shuffle(board_tiles)
    board = Board(rows, cols, tuple(board_tiles))
    assert npuzzle.is_solvable(board, goal) == (board.tiles in reachable)


def test_parity_on_three_by_three_against_the_reference(
        seed_distances: dict[tuple[int, ...], int]) -> None:
    rng = random.Random(4)
    for _ in range(500):
        tiles = list(SEED_GOAL)
        rng.shuffle(tiles)
        board = Board(3, 3, tuple(tiles))
        assert npuzzle.is_solvable(board) == (board.tiles in seed_distances)


# ---------------------------------------------------------------- the 15-puzzle


@pytest.mark.slow
def test_fifteen_puzzle_needing_45_moves_is_solved_in_45() -> None:
    goal = Board.parse(FIFTEEN_GOAL)
    board = Board.parse(FIFTEEN_45)
    result = npuzzle.solve(board, goal, "pdb")
    assert result.steps == 45
    assert result.path[-1] == goal
    assert npuzzle.solve(board, goal, "idastar").steps == 45
    cached = list((Path(os.environ["HUARONG_CACHE_DIR"]) / "npuzzle").iterdir())
    assert len([p for p in cached if p.name.startswith("pdb-4x4-")]) == 3
    assert not [p for p in cached if p.suffix == ".tmp"]


def test_pattern_database_cache_is_checked_and_rebuilt_when_corrupt(tmp_path: Path) -> None:
    goal = Board.solved(3, 3)
    first = npuzzle.pattern_database(goal, directory=tmp_path)
    files = sorted((tmp_path / "npuzzle").iterdir())
    assert files and all(f.suffix == ".bin" for f in files)
    npuzzle.patterns._loaded_patterns.clear()
    data = bytearray(files[0].read_bytes())
    data[-1] ^= 0xFF
    files[0].write_bytes(bytes(data))
    size = files[1].stat().st_size
    files[1].write_bytes(files[1].read_bytes()[:-7])
    reported: list[tuple[int, int]] = []
    second = npuzzle.pattern_database(goal, directory=tmp_path,
                                      progress=lambda d, t: reported.append((d, t)))
    assert reported and reported[-1][0] == reported[-1][1]
    assert (second.values == first.values).all()
    assert [f.stat().st_size for f in files] == [size, size]
    npuzzle.patterns._loaded_patterns.clear()
    silent: list[tuple[int, int]] = []
    npuzzle.pattern_database(goal, directory=tmp_path,
                             progress=lambda d, t: silent.append((d, t)))
    assert silent == []


def test_a_single_pattern_is_the_exact_distance(tmp_path: Path) -> None:
    # On 2x3 the five tiles form one pattern and fix the blank, so every entry reachable from
    # the goal must be the true distance.
    goal = Board.solved(2, 3)
    database = npuzzle.pattern_database(goal, directory=tmp_path)
    assert database.groups == ((1, 2, 3, 4, 5),)
    reference = reference_distances(goal.tiles, 2, 3)
    for tiles, distance in reference.items():
        index = sum(tiles.index(tile) << (4 * slot) for slot, tile in enumerate(range(1, 6)))
        assert database.values[index] == distance


# ---------------------------------------------------------------- boards, ranks, errors


boards_3x3 = st.permutations(list(range(9))).map(lambda t: Board(3, 3, tuple(t)))
boards_any = st.tuples(st.integers(2, 5), st.integers(2, 5)).flatmap(
    lambda rc: st.permutations(list(range(rc[0] * rc[1]))).map(
        lambda t: Board(rc[0], rc[1], tuple(t))))


@given(boards_any)
def test_board_text_round_trips(board: Board) -> None:
    assert Board.parse(board.grid()) == board
    assert Board.parse(board.grid().replace("\n", " / ")) == board
    assert Board.parse(board.line(), rows=board.rows, cols=board.cols) == board
    assert Board.parse(board.line().replace(" ", ","), rows=board.rows) == board
    assert eval(repr(board), {"Board": Board}) == board


@given(boards_any)
def test_rank_follows_the_seeds_cantor_expansion(board: Board) -> None:
    number = npuzzle.rank(board)
    assert number == seed_cantor(list(board.tiles))
    assert npuzzle.unrank(number, board.rows, board.cols) == board


def test_rank_extremes_and_the_fifteen_puzzle_fits_64_bits() -> None:
    assert npuzzle.rank(Board(3, 3, tuple(range(9)))) == 0
    assert npuzzle.rank(Board(3, 3, tuple(range(8, -1, -1)))) == math.factorial(9) - 1
    reversed_16 = Board(4, 4, tuple(range(15, -1, -1)))
    assert npuzzle.rank(reversed_16) == math.factorial(16) - 1 < 2**63
    factorials = np.array([math.factorial(i) for i in range(17)], dtype=np.int64)
    for board in random_solvable(random.Random(16), Board.parse(FIFTEEN_GOAL), 20):
        array = np.array(board.tiles, dtype=np.int64)
        assert kernels.rank_board(array, factorials) == npuzzle.rank(board)
        out = np.empty(16, np.int64)
        kernels.unrank_board(npuzzle.rank(board), factorials, out)
        assert tuple(out) == board.tiles


def test_inversions_of_the_seed_examples() -> None:
    # Counted by hand, blank left out: 2 8 3 1 4 7 6 5 has 1+6+1+0+0+2+1 = 11,
    # 1 2 3 8 4 7 6 5 has 4+2+1 = 7 and 3 1 5 4 8 2 6 7 has 2+0+2+1+3 = 8.
    assert npuzzle.inversions(Board.parse("2 8 3 1 0 4 7 6 5")) == 11
    assert npuzzle.inversions(Board.seed_goal()) == 7
    assert npuzzle.inversions(Board.parse("3 1 5 4 0 8 2 6 7")) == 8


@pytest.mark.parametrize("text,fragment", [
    ("", "no numbers"),
    ("2 8 3 1 0 4 7 6", "do not make a square"),
    ("2 8 x 1 0 4 7 6 5", "'x' is not a whole number"),
    ("2 8 3 1 0 4 7 6 6", "6 appears twice"),
    ("1 2 3 4 5 6 7 8 9", "0 is missing"),
    ("1 2 3 / 4 0", "different lengths"),
    ("0 / 1", "at least 2"),
])
def test_bad_boards_name_the_input_and_the_reason(text: str, fragment: str) -> None:
    with pytest.raises(BoardFormatError, match=fragment) as error:
        Board.parse(text)
    assert isinstance(error.value, ValueError)


def test_goal_and_size_errors() -> None:
    with pytest.raises(GoalMismatchError, match="4x4"):
        npuzzle.solve(Board.parse("2 8 3 1 0 4 7 6 5"), Board.parse(FIFTEEN_GOAL))
    with pytest.raises(GoalMismatchError, match="seed"):
        npuzzle.parse_goal("seed", 4, 4)
    with pytest.raises(UnsupportedBoardError, match="idastar"):
        npuzzle.solve(Board.solved(5, 5), algorithm="bfs")
    with pytest.raises(UnsupportedBoardError, match="enumerate"):
        npuzzle.state_space(3, 4)
    with pytest.raises(npuzzle.NPuzzleError, match="'quick'"):
        npuzzle.solve(Board.solved(), algorithm="quick")
    with pytest.raises(BoardFormatError, match="ROWSxCOLS"):
        npuzzle.parse_size("three")
    assert npuzzle.parse_size("3x4") == (3, 4)


def test_node_limit_is_reported() -> None:
    board = Board.parse("8 6 7 2 5 4 3 0 1")
    result = npuzzle.solve(board, Board.solved(), "bfs", max_nodes=50)
    assert result.outcome is Outcome.LIMIT_REACHED
    assert npuzzle.solve(board, Board.solved(), "idastar", max_nodes=50).outcome is \
        Outcome.LIMIT_REACHED


def test_large_board_by_ida_star_and_moves_replay() -> None:
    goal = Board.solved(5, 5)
    board = goal
    rng = random.Random(5)
    for _ in range(30):
        board = rng.choice(board.successors())
    result = npuzzle.solve(board, goal, "idastar")
    assert result.solved and result.steps is not None and result.steps <= 30
    replay = board
    for move in result.moves:
        replay = replay.moved(move)
    assert replay == goal


def test_result_is_frozen_and_moves_match_path() -> None:
    result = npuzzle.solve(Board.parse("2 8 3 1 0 4 7 6 5"), algorithm="bfs")
    assert result.moves == "ULDR"
    with pytest.raises(AttributeError):
        result.seconds = 0.0  # type: ignore[misc]


def test_importing_the_api_does_not_load_numba() -> None:
    code = ("import sys, huarong.npuzzle, huarong.cli.npuzzle; "
            "sys.exit(1 if 'numba' in sys.modules else 0)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
