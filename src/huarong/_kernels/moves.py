"""The piece each step of a list moves: for many pairs of layouts one step apart at once
(the edges of a group's graph), the moved piece's kind and its top-left cell before and
after, from the two boards alone."""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.klotski import CAO, CELLS, HORIZONTAL, SOLDIER, VERTICAL, code_to_board

# The kind of the piece whose top-left cell holds each board value (-1: not a top-left).
_TOP_LEFT_KIND = np.array([-1, SOLDIER, HORIZONTAL, -1, VERTICAL, -1, CAO, -1], dtype=np.int64)


@kernel
def step_moves(before: np.ndarray, after: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each pair of codes ``before[i]``, ``after[i]`` one step apart: the moved piece's
    kind (the kernels' numbering), its top-left address in ``before`` and in ``after``
    (int8 each).  The piece's top-left is the first cell, in reading order, that the step
    changes and that the piece covers (before, then after): no other piece moves."""
    count = before.shape[0]
    kinds = np.empty(count, dtype=np.int8)
    sources = np.empty(count, dtype=np.int8)
    targets = np.empty(count, dtype=np.int8)
    for index in range(count):
        first = code_to_board(before[index])
        second = code_to_board(after[index])
        source = -1
        target = -1
        for address in range(CELLS):
            old = (first >> (3 * address)) & 7
            new = (second >> (3 * address)) & 7
            if old == new:
                continue
            if old != 0 and source < 0:
                source = address
                kinds[index] = _TOP_LEFT_KIND[old]
            if new != 0 and target < 0:
                target = address
        sources[index] = source
        targets[index] = target
    return kinds, sources, targets
