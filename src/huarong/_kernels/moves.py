"""The piece each step of a list moves: for many pairs of layouts one step apart at once
(the edges of a group's graph), the moved piece's kind and its top-left cell before and
after, from the two boards alone; and a path's klotski.online solution pairs (the route of
every step through empty cells)."""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.klotski import (
    CAO,
    CELLS,
    COLS,
    HORIZONTAL,
    MASK,
    PATTERN,
    ROWS,
    SOLDIER,
    VERTICAL,
    Int,
    board_neighbours,
    code_to_board,
    occupied_cells,
)

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


# Unit moves in the order the notation's route search tries them: left, up, right, down.
_UNIT_STEP = np.array([-1, -COLS, 1, COLS], dtype=np.int64)
# The move digit of one unit move, and of two (first * 4 + second; -1: never on a route).
_ONE_DIGIT = np.array([0, 1, 2, 3], dtype=np.int64)
_TWO_DIGITS = np.array([4, 8, -1, 9,
                        10, 5, 11, -1,
                        -1, 12, 6, 13,
                        14, -1, 15, 7], dtype=np.int64)
_MOST_UNITS = CELLS


@kernel
def _unit_allowed(position: Int, unit: Int) -> Any:
    row = position // COLS
    col = position % COLS
    if unit == 0:
        return col > 0
    if unit == 1:
        return row > 0
    if unit == 2:
        return col < COLS - 1
    return row < ROWS - 1


@kernel
def solution_pairs(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, Int]:
    """klotski.online's pairs for a path of codes (each one step from the one before): the
    cell address and the move digit of every pair, in order, and -1; or, at the first two
    codes that one step does not join, the pairs so far and that step's index.  Each step's
    piece takes a shortest route through empty cells (breadth-first, unit moves tried left,
    up, right, down; the first route found), written two unit moves a pair."""
    steps = max(codes.shape[0] - 1, 0)
    kinds, sources, targets = step_moves(codes[:steps], codes[1:steps + 1])
    addresses = np.empty(steps * _MOST_UNITS, dtype=np.int8)
    digits = np.empty(steps * _MOST_UNITS, dtype=np.int8)
    count = 0
    parent = np.empty(CELLS, dtype=np.int64)
    via = np.empty(CELLS, dtype=np.int64)
    queue = np.empty(CELLS, dtype=np.int64)
    route = np.empty(_MOST_UNITS, dtype=np.int64)
    for index in range(steps):
        kind = np.int64(kinds[index])
        source = np.int64(sources[index])
        target = np.int64(targets[index])
        board = code_to_board(codes[index])
        if source < 0 or target < 0 or (board ^ PATTERN[kind, source] ^ PATTERN[kind, target]
                                         != code_to_board(codes[index + 1])):
            return addresses[:count], digits[:count], index
        taken = occupied_cells(board) & ~MASK[kind, source]
        parent[:] = -2
        parent[source] = -1
        queue[0] = source
        head, tail = 0, 1
        while head < tail and parent[target] == -2:
            position = queue[head]
            head += 1
            for unit in range(4):
                if not _unit_allowed(position, unit):
                    continue
                following = position + _UNIT_STEP[unit]
                cells = MASK[kind, following]
                if parent[following] != -2 or cells == 0 or cells & taken:
                    continue
                parent[following] = position
                via[following] = unit
                queue[tail] = following
                tail += 1
        if parent[target] == -2:
            return addresses[:count], digits[:count], index
        length = 0
        position = target
        while position != source:
            route[length] = via[position]
            length += 1
            position = parent[position]
        position = source
        unit_index = length - 1
        while unit_index >= 0:
            addresses[count] = position
            first = route[unit_index]
            position += _UNIT_STEP[first]
            if unit_index >= 1:
                second = route[unit_index - 1]
                position += _UNIT_STEP[second]
                digits[count] = _TWO_DIGITS[first * 4 + second]
                unit_index -= 2
            else:
                digits[count] = _ONE_DIGIT[first]
                unit_index -= 1
            count += 1
    return addresses[:count], digits[:count], -1


@kernel
def step_count(codes: np.ndarray) -> Int:
    """The steps joining the layouts of ``codes`` (a whole group), each counted once."""
    out = np.empty(68, dtype=np.int64)  # the most steps any layout has
    scratch = np.empty(CELLS, dtype=np.int64)
    total = 0
    for index in range(codes.shape[0]):
        total += board_neighbours(code_to_board(codes[index]), out, scratch)
    return total // 2
