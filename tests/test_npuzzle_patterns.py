"""Compact additive pattern databases (the 7-8 pair of the 15-puzzle and their small kin),
checked against a slow pure-Python 0-1 breadth-first search written here, and the IDA*
search on them against independently known optimal lengths."""

from __future__ import annotations

import math
import random
from collections import deque
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from huarong import npuzzle
from huarong._kernels import npuzzle_heuristics, npuzzle_ida
from huarong.npuzzle import Algorithm, Board, UnsupportedBoardError, patterns

from . import test_npuzzle as base

# Korf's 100 15-puzzle instances (1985) include these easy ones; goal 0 1 2 ... 15.
KORF_GOAL = " ".join(str(n) for n in range(16))
KORF_EASY = {
    12: ("14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15", 45),
    42: ("4 5 7 2 9 14 12 13 0 3 6 11 8 1 15 10", 42),
    55: ("13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11", 41),
    79: ("0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15", 42),
    97: ("9 14 5 7 8 15 1 2 10 4 13 6 12 0 11 3", 44),
}


def reference_pattern(goal: Board, group: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """0-1 BFS over (cells of the group's tiles, blank cell): the blank stepping onto a cell
    free of the group's tiles costs 0, swapping with one of them 1.  Each entry is the least
    cost over the blank's cells."""
    rows, cols = goal.rows, goal.cols
    start = (tuple(goal.tiles.index(t) for t in group), goal.blank)
    cost = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        tiles, blank = state
        row, col = divmod(blank, cols)
        for d_row, d_col in ((0, -1), (-1, 0), (0, 1), (1, 0)):
            if not (0 <= row + d_row < rows and 0 <= col + d_col < cols):
                continue
            cell = (row + d_row) * cols + col + d_col
            if cell in tiles:
                moved = tuple(blank if t == cell else t for t in tiles)
                child, step = (moved, cell), 1
            else:
                child, step = (tiles, cell), 0
            if child not in cost or cost[child] > cost[state] + step:
                cost[child] = cost[state] + step
                if step == 0:
                    queue.appendleft(child)
                else:
                    queue.append(child)
    best: dict[tuple[int, ...], int] = {}
    for (tiles, _), value in cost.items():
        best[tiles] = min(best.get(tiles, value), value)
    return best


def reference_index(cells: tuple[int, ...]) -> int:
    """The documented layout: colex rank of the cell set times k!, plus the Lehmer rank of
    which of those cells (counted from the lowest) each tile stands on."""
    ordered = sorted(cells)
    subset = sum(math.comb(cell, i + 1) for i, cell in enumerate(ordered))
    ordinals = [ordered.index(cell) for cell in cells]
    order = 0
    for i, ordinal in enumerate(ordinals):
        smaller_later = sum(1 for later in ordinals[i + 1:] if later < ordinal)
        order += smaller_later * math.factorial(len(cells) - 1 - i)
    return subset * math.factorial(len(cells)) + order


def reflected(board: Board) -> Board:
    """The board reflected about the main diagonal, tiles relabelled so that the standard
    goal maps onto itself."""
    side = board.rows
    goal = Board.solved(side, side)
    relabel = {goal.tiles[r * side + c]: goal.tiles[c * side + r]
               for r in range(side) for c in range(side)}
    return Board(side, side, tuple(relabel[board.tiles[c * side + r]]
                                   for r in range(side) for c in range(side)))


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory,
                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HUARONG_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


GOAL_3X3 = Board.solved(3, 3)
GROUPS_3X3 = ((1, 2, 3, 4), (5, 6, 7, 8))


@pytest.fixture(scope="module")
def database_3x3() -> npuzzle.CompactPatternDatabase:
    database = npuzzle.compact_pattern_database(GOAL_3X3, GROUPS_3X3, cache=False)
    assert npuzzle.compact_groups(GOAL_3X3) == GROUPS_3X3
    return database


@pytest.fixture(scope="module")
def references_3x3() -> list[dict[tuple[int, ...], int]]:
    return [reference_pattern(GOAL_3X3, group) for group in GROUPS_3X3]


def test_every_entry_matches_the_reference_on_3x3(
        database_3x3: npuzzle.CompactPatternDatabase,
        references_3x3: list[dict[tuple[int, ...], int]]) -> None:
    for group, offset, reference in zip(GROUPS_3X3, database_3x3.offsets, references_3x3,
                                        strict=True):
        assert len(reference) == math.perm(9, len(group))
        for cells, value in reference.items():
            assert database_3x3.values[offset + reference_index(cells)] == value
    assert database_3x3.entries == 2 * math.perm(9, 4)


def test_the_estimate_is_the_larger_of_board_and_reflection(
        database_3x3: npuzzle.CompactPatternDatabase,
        references_3x3: list[dict[tuple[int, ...], int]]) -> None:
    rng = random.Random(13)
    mirrored_larger = 0
    for _ in range(500):
        tiles = list(range(9))
        rng.shuffle(tiles)
        board = Board(3, 3, tuple(tiles))

        def additive(b: Board) -> int:
            return sum(reference[tuple(b.tiles.index(t) for t in group)]
                       for group, reference in zip(GROUPS_3X3, references_3x3, strict=True))

        expected = max(additive(board), additive(reflected(board)))
        mirrored_larger += additive(reflected(board)) > additive(board)
        array = np.array(board.tiles, np.int64)
        assert npuzzle_ida.compact_heuristic(array, database_3x3.kernel_tables) == expected
    assert mirrored_larger > 0


def test_admissible_on_3x3(database_3x3: npuzzle.CompactPatternDatabase) -> None:
    # Not consistent: the least value over the blank's cells may belong to a blank region
    # other than the real blank's, so one move can change the estimate by more than one.
    distances = base.reference_distances(GOAL_3X3.tiles, 3, 3)
    tables = database_3x3.kernel_tables
    rng = random.Random(7)
    for tiles in rng.sample(sorted(distances), 5000):
        h = npuzzle_ida.compact_heuristic(np.array(tiles, np.int64), tables)
        assert h <= distances[tiles]
        assert (h == 0) == (distances[tiles] == 0)


def test_incremental_updates_agree_with_fresh_lookups(
        database_3x3: npuzzle.CompactPatternDatabase) -> None:
    tables = database_3x3.kernel_tables
    board = np.array(GOAL_3X3.tiles, np.int64)
    masks, orders, parts = (np.zeros(4, np.int64) for _ in range(3))
    sums = np.zeros(2, np.int64)
    npuzzle_ida._compact_state(board, tables, masks, orders, parts, sums)
    neighbours = patterns._geometry(GOAL_3X3).neighbours
    rng = random.Random(3)
    for _ in range(2000):
        blank = int(np.flatnonzero(board == 0)[0])
        source = int(rng.choice([c for c in neighbours[blank] if c >= 0]))
        tile = npuzzle_heuristics._slide_tile(board, source, blank)
        h = npuzzle_ida._compact_slide(tile, source, blank, tables, masks, orders, parts, sums)
        assert h == npuzzle_ida.compact_heuristic(board, tables)


@pytest.mark.parametrize("rows,cols", [(3, 3), (2, 4), (3, 4)])
def test_pdb_7_8_search_is_optimal_on_small_boards(rows: int, cols: int) -> None:
    goal = Board.solved(rows, cols)
    rng = random.Random(rows * 10 + cols)
    for _ in range(12):
        board = goal
        for _ in range(rng.randint(5, 60)):
            board = rng.choice(board.successors())
        result = npuzzle.solve(board, goal, "pdb-7-8")
        reference = npuzzle.solve(board, goal, "bibfs")
        assert result.algorithm is Algorithm.PDB78
        assert result.steps == reference.steps
        assert result.path[0] == board and result.path[-1] == goal
        assert all(b in a.successors() for a, b in zip(result.path, result.path[1:],
                                                          strict=False))
        # IDA* generates every board of the path it returns, and its cost bound never
        # passes the optimum, so its stack is exactly as deep as the path is long.
        assert result.nodes_expanded >= result.steps
        assert result.peak_frontier == result.steps + 1
        assert result.lower_bound == reference.steps


def test_compact_cache_is_checked_and_rebuilt(tmp_path: Path) -> None:
    goal = Board.solved(2, 4)
    first = npuzzle.compact_pattern_database(goal, directory=tmp_path)
    files = [path for _, path in npuzzle.compact_pattern_files(goal, directory=tmp_path)]
    assert all(path.is_file() for path in files)
    patterns._loaded_compact.clear()
    data = bytearray(files[0].read_bytes())
    data[-1] ^= 0xFF
    files[0].write_bytes(bytes(data))
    reported: list[tuple[int, int]] = []
    second = npuzzle.compact_pattern_database(goal, directory=tmp_path,
                                              progress=lambda d, t: reported.append((d, t)))
    assert reported and reported[-1][0] == reported[-1][1]
    assert (second.values == first.values).all()
    patterns._loaded_compact.clear()
    silent: list[tuple[int, int]] = []
    npuzzle.compact_pattern_database(goal, directory=tmp_path,
                                     progress=lambda d, t: silent.append((d, t)))
    assert silent == []
    assert not [p for p in (tmp_path / "npuzzle").iterdir() if p.suffix == ".tmp"]


def test_groups_must_cover_the_board_in_small_pieces() -> None:
    goal = Board.solved(3, 3)
    with pytest.raises(UnsupportedBoardError, match="covering every tile"):
        npuzzle.compact_pattern_database(goal, ((1, 2, 3), (4, 5, 6)), cache=False)
    with pytest.raises(UnsupportedBoardError, match="up to 16 cells"):
        npuzzle.compact_groups(Board.solved(5, 5))
    corner_goal = Board.parse(KORF_GOAL)
    near, far = npuzzle.compact_groups(corner_goal)
    assert (near, far) == ((1, 2, 3, 4, 5, 6, 7), tuple(range(8, 16)))
    assert npuzzle.compact_groups(Board.solved(4, 4)) == (tuple(range(15, 8, -1)),
                                                          tuple(range(8, 0, -1)))


def test_auto_chooses_by_size_and_cache(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # A cache of its own: the session's already holds the 3x4 databases an earlier test built.
    monkeypatch.setenv("HUARONG_CACHE_DIR", str(tmp_path))
    assert npuzzle.best_algorithm(Board.solved(3, 3)) is Algorithm.ASTAR_LINEAR
    assert npuzzle.best_algorithm(Board.solved(5, 5)) is Algorithm.REDUCTION
    assert npuzzle.best_algorithm(Board.solved(4, 5)) is Algorithm.REDUCTION
    goal = Board.solved(3, 4)
    board = goal.moved("U").moved("L")
    assert not any(path.exists() for _, path in npuzzle.compact_pattern_files(goal))
    assert npuzzle.best_algorithm(board, goal) is Algorithm.PDB
    result = npuzzle.solve(board, goal)
    assert (result.algorithm, result.steps) == (Algorithm.PDB, 2)
    npuzzle.compact_pattern_database(goal)
    assert all(path.is_file() for _, path in npuzzle.compact_pattern_files(goal))
    assert npuzzle.best_algorithm(board, goal) is Algorithm.PDB78
    result = npuzzle.solve(board, goal)
    assert (result.algorithm, result.steps) == (Algorithm.PDB78, 2)


def test_every_subset_rank_is_a_bijection() -> None:
    from huarong._kernels import npuzzle_pdb

    ranks = npuzzle_pdb.colex_ranks(9)
    popcount = patterns._bit_tables()[0]
    for size in (2, 4):
        subsets = npuzzle_pdb.subsets_by_rank(9, size, ranks, popcount)
        expected = sorted(sum(1 << c for c in chosen)
                          for chosen in combinations(range(9), size))
        assert sorted(subsets.tolist()) == expected
        assert [ranks[s] for s in subsets] == list(range(len(expected)))


@pytest.mark.slow
@pytest.mark.parametrize("instance", sorted(KORF_EASY))
def test_korf_instances_are_solved_optimally_with_the_7_8_databases(instance: int) -> None:
    # Builds the real 7-8 pair (~576 MB, a minute or more) once into the session's cache.
    text, optimum = KORF_EASY[instance]
    goal = Board.parse(KORF_GOAL)
    result = npuzzle.solve(Board.parse(text), goal, "pdb-7-8")
    assert result.steps == optimum
    assert result.path[-1] == goal
    database = npuzzle.compact_pattern_database(goal)
    assert [len(g) for g in database.groups] == [7, 8]
    assert database.entries == 57_657_600 + 518_918_400
