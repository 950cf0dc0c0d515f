"""The pattern-database kernels on tiny inputs, cheap enough to run as plain Python too.

CI runs this file a second time with NUMBA_DISABLE_JIT=1 (beside test_kernels_python.py), so
the compact build, its atomic marks and the compact IDA* execute as Python, visible to
coverage and bounds-checked."""

from __future__ import annotations

import numpy as np

from huarong import npuzzle
from huarong._kernels import npuzzle_pdb
from huarong.npuzzle import Board, patterns, search

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


def test_tiny_compact_search_is_optimal() -> None:
    database = npuzzle.compact_pattern_database(GOAL, GROUPS, cache=False)
    start = GOAL.moved("U").moved("L").moved("L").moved("D")
    found = search._run_compact_ida_star(start, patterns._geometry(GOAL), database, 10_000)
    assert len(found.path) == 5 and found.path[-1] == GOAL
