"""The pattern-database kernels on tiny inputs, cheap enough to run as plain Python too.

CI runs this file a second time with NUMBA_DISABLE_JIT=1 (beside test_kernels_python.py), so
the compact build, its atomic marks, the compact IDA* paused and resumed, and the line-by-line
reduction execute as Python, visible to coverage and bounds-checked."""

from __future__ import annotations

import time

import numpy as np
import pytest

from huarong import npuzzle
from huarong._kernels import npuzzle_pdb
from huarong.npuzzle import Algorithm, Board, deepening, patterns

from .test_npuzzle_patterns import reference_index, reference_pattern

GOAL = Board.solved(2, 3)
GROUPS = ((1, 2), (3, 4, 5))


def test_tiny_compact_build_matches_the_reference() -> None:
    database = npuzzle.compact_pattern_database(GOAL, GROUPS, cache=False)
    for group, offset in zip(GROUPS, database.offsets, strict=True):
        for cells, value in reference_pattern(GOAL, group).items():
            assert database.values[offset + reference_index(cells)] == value


def test_ordinal_shifts_undo_each_other() -> None:
    factorials = np.array([1, 1, 2, 6, 24], np.int64)
    shifts = npuzzle_pdb.ordinal_shifts(3, factorials)
    for old in range(3):
        for new in range(3):
            forward = shifts[(old * 3 + new) * 6:(old * 3 + new + 1) * 6]
            backward = shifts[(new * 3 + old) * 6:(new * 3 + old + 1) * 6]
            assert [int(backward[f]) for f in forward] == list(range(6))


@pytest.mark.parametrize("share", [1, 10_000])
def test_tiny_compact_search_is_optimal(share: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deepening, "_FIRST_SHARE", share)
    monkeypatch.setattr(deepening, "_next_share", lambda done, seconds: share)
    database = npuzzle.compact_pattern_database(GOAL, GROUPS, cache=False)
    start = GOAL.moved("U").moved("L").moved("L").moved("D")
    limits = deepening.Limits(Algorithm.PDB78, 10_000, time.perf_counter())
    found = deepening.compact_ida_star(start, patterns._geometry(GOAL), database, limits)
    assert len(found.path) == 5 and found.path[-1] == GOAL


# The node store's hash multiplies past 64 bits on purpose (it wraps when compiled too).
@pytest.mark.filterwarnings("ignore:overflow encountered in scalar multiply")
@pytest.mark.parametrize("text", [
    # The top row's last two tiles swapped, or the last one home and the other just below
    # with the blank in its place: each needs the search inside the corner.
    "1 2 4 3 5 6 7 8 9 10 11 12 13 15 14 0",
    "1 2 4 0 5 6 7 3 9 10 11 12 13 14 15 8",
    "7 1 12 5 0 15 3 9 8 2 13 6 4 14 11 10",
])
def test_reduction_reaches_the_goal(text: str) -> None:
    goal = Board.solved(4, 4)
    board = Board.parse(text)
    assert npuzzle.is_solvable(board, goal)
    result = npuzzle.solve(board, goal, "reduction")
    replay = board
    for move in result.moves:
        replay = replay.moved(move)
    assert replay == goal and not result.optimal
