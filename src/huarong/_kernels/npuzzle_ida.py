"""IDA* (and IDDFS, its heuristic-free case) for boards of any size, on Manhattan distance
with linear conflicts, the additive pattern databases, or the compact 7-8 databases.

A pass is resumable: the depth-first stack (``moves``, ``next_direction``) and ``state`` =
``[depth, next_bound, deepest]`` live in arrays the caller keeps, the board is searched in
place, and a call that has spent its ``node_budget`` answers :data:`PAUSED` with everything
ready for the next call.  The caller thus reports progress, keeps a time limit and lets
Ctrl-C through between calls; a resumed call recomputes its running figures from the board,
which costs one heuristic evaluation.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.npuzzle_heuristics import (
    PATTERN_DATABASE,
    _after_move,
    _column_conflicts,
    _pattern_indexes,
    _pattern_sums,
    _row_conflicts,
    _slide_tile,
    heuristic,
)
from huarong._kernels.npuzzle_store import EXHAUSTED, FOUND, PAUSED, _blank_cell

Array = Any



@kernel
def ida_star_iteration(
    board: Array, neighbours: Array, kind: int, tables: Any, rows: int, cols: int,
    bound: int, node_budget: int, moves: Array, next_direction: Array, state: Array,
) -> tuple[int, int, int]:
    """One depth-first pass of IDA* with cost bound ``bound`` (IDDFS when ``kind`` is 0), or
    its next ``node_budget`` expansions when it is :data:`PAUSED`.

    A pass starts with ``next_direction[0] == 0`` and ``state == [0, -1, 0]``; ``moves`` and
    ``next_direction`` hold ``bound + 2`` entries.  The board is searched in place and left at
    the goal when found, the blank's directions of the solution in ``moves``.  Returns
    ``(status, solution_length, expanded)``; ``state[1]`` is then the smallest f that exceeded
    ``bound`` (-1 if none) and ``state[2]`` the deepest depth reached.
    """
    goal_cell_of_tile, distance = tables[0], tables[1]
    cells = board.size
    order = np.empty(max(rows, cols), np.int64)
    longest = np.empty(max(rows, cols), np.int64)
    counters = np.zeros(5, np.int64)
    row_conflicts = np.zeros(rows, np.int64)
    column_conflicts = np.zeros(cols, np.int64)
    pattern_index = np.zeros(2 * tables[5].size, np.int64)
    blank = 0
    for cell in range(cells):
        tile = board[cell]
        if tile == 0:
            blank = cell
            continue
        if goal_cell_of_tile[tile] != cell:
            counters[0] += 1
        counters[1] += distance[tile, cell]
    for row in range(rows):
        row_conflicts[row] = _row_conflicts(board, row, cols, goal_cell_of_tile, order, longest)
        counters[2] += row_conflicts[row]
    for col in range(cols):
        column_conflicts[col] = _column_conflicts(board, col, rows, cols, goal_cell_of_tile,
                                                  order, longest)
        counters[2] += column_conflicts[col]
    if kind == PATTERN_DATABASE:
        _pattern_indexes(board, tables, pattern_index)
        counters[3], counters[4] = _pattern_sums(pattern_index, tables)
    depth, next_bound, deepest = state[0], state[1], state[2]
    if depth == 0 and next_direction[0] == 0:
        if counters[0] == 0:
            return FOUND, 0, 0
        h = heuristic(board, kind, tables, rows, cols)
        if h > bound:
            state[1] = h
            return EXHAUSTED, 0, 0
    expanded = 0
    while True:
        if next_direction[depth] == 4:
            if depth == 0:
                break
            depth -= 1
            came_from = neighbours[blank, moves[depth] ^ 2]
            tile = _slide_tile(board, came_from, blank)
            _after_move(board, tile, came_from, blank, kind, tables, rows, cols, counters,
                        row_conflicts, column_conflicts, pattern_index, order, longest)
            blank = came_from
            continue
        direction = next_direction[depth]
        next_direction[depth] += 1
        if depth > 0 and direction == (moves[depth - 1] ^ 2):
            continue
        target = neighbours[blank, direction]
        if target < 0:
            continue
        tile = _slide_tile(board, target, blank)
        child_h = _after_move(board, tile, target, blank, kind, tables, rows, cols, counters,
                              row_conflicts, column_conflicts, pattern_index, order, longest)
        expanded += 1
        f = depth + 1 + child_h
        if f > bound:
            if next_bound < 0 or f < next_bound:
                next_bound = f
            _slide_tile(board, blank, target)
            _after_move(board, tile, blank, target, kind, tables, rows, cols, counters,
                        row_conflicts, column_conflicts, pattern_index, order, longest)
            continue
        moves[depth] = direction
        blank = target
        depth += 1
        deepest = max(deepest, depth)
        if counters[0] == 0:
            state[2] = deepest
            return FOUND, depth, expanded
        next_direction[depth] = 0
        if expanded >= node_budget:
            state[0], state[1], state[2] = depth, next_bound, deepest
            return PAUSED, 0, expanded
    state[0], state[1], state[2] = 0, next_bound, deepest
    return EXHAUSTED, 0, expanded



# ---------------------------------------------------------------- IDA* on compact databases
#
# ``compact`` tables: ``(group_of_tile, slot_of_tile, group_size, values, value_offset,
# shifts, shift_offset, ranks, popcount, factorials, mirror_tile, mirror_cell)``; the ranking
# is described in :mod:`huarong._kernels.npuzzle_pdb`.  The search keeps, for the board and
# for its reflection about the main diagonal, each group's cell set, order rank and database
# value, so a move updates one group on each side with a few table lookups.


@kernel
def _compact_state(board: Array, compact: Any, masks: Array, orders: Array, parts: Array,
                   sums: Array) -> None:
    """Fill the per-group figures of ``board`` (side 0) and of its reflection (side 1)."""
    group_of_tile, slot_of_tile, group_size, values, value_offset = (
        compact[0], compact[1], compact[2], compact[3], compact[4])
    ranks, popcount, factorials, mirror_tile, mirror_cell = (
        compact[7], compact[8], compact[9], compact[10], compact[11])
    groups = group_size.size
    sides = 2 if mirror_tile.size > 0 else 1
    ordinals = np.zeros((2 * groups, 16), np.int64)
    masks[:] = 0
    for side in range(sides):
        for cell in range(board.size):
            tile = board[cell]
            if tile == 0:
                continue
            if side == 1:
                tile = mirror_tile[tile]
                cell = mirror_cell[cell]
            group = group_of_tile[tile]
            if group >= 0:
                masks[side * groups + group] |= 1 << cell
        for cell in range(board.size):
            tile = board[cell]
            if tile == 0:
                continue
            if side == 1:
                tile = mirror_tile[tile]
                cell = mirror_cell[cell]
            group = group_of_tile[tile]
            if group >= 0:
                ordinals[side * groups + group, slot_of_tile[tile]] = (
                    popcount[masks[side * groups + group] & ((1 << cell) - 1)])
        sums[side] = 0
        for group in range(groups):
            at = side * groups + group
            size = group_size[group]
            order = 0
            used = 0
            for i in range(size):
                ordinal = ordinals[at, i]
                order += (ordinal - popcount[used & ((1 << ordinal) - 1)]) * factorials[
                    size - 1 - i]
                used |= 1 << ordinal
            orders[at] = order
            parts[at] = values[value_offset[group] + ranks[masks[at]] * factorials[size]
                               + order]
            sums[side] += parts[at]
    if sides == 1:
        sums[1] = sums[0]


@kernel
def _compact_slide(tile: int, source: int, destination: int, compact: Any, masks: Array,
                   orders: Array, parts: Array, sums: Array) -> int:
    """Update the figures after ``tile`` slid from ``source`` to ``destination``; returns the
    new estimate (the larger of the two sides' sums)."""
    group_of_tile, group_size, values, value_offset, shifts, shift_offset = (
        compact[0], compact[2], compact[3], compact[4], compact[5], compact[6])
    ranks, popcount, factorials, mirror_tile, mirror_cell = (
        compact[7], compact[8], compact[9], compact[10], compact[11])
    groups = group_size.size
    sides = 2 if mirror_tile.size > 0 else 1
    for side in range(sides):
        if side == 1:
            tile = mirror_tile[tile]
            source = mirror_cell[source]
            destination = mirror_cell[destination]
        group = group_of_tile[tile]
        if group < 0:
            continue
        at = side * groups + group
        size = group_size[group]
        block = factorials[size]
        mask = masks[at]
        old = popcount[mask & ((1 << source) - 1)]
        mask ^= (1 << source) | (1 << destination)
        new = popcount[mask & ((1 << destination) - 1)]
        order = shifts[shift_offset[group] + (old * size + new) * block + orders[at]]
        masks[at] = mask
        orders[at] = order
        value = values[value_offset[group] + ranks[mask] * block + order]
        sums[side] += value - parts[at]
        parts[at] = value
    if sides == 1:
        return sums[0]  # type: ignore[no-any-return]
    return max(sums[0], sums[1])  # type: ignore[no-any-return]


@kernel
def compact_heuristic(board: Array, compact: Any) -> int:
    """The compact databases' estimate for ``board`` (the larger of board and reflection)."""
    groups = compact[2].size
    masks = np.zeros(2 * groups, np.int64)
    orders = np.zeros(2 * groups, np.int64)
    parts = np.zeros(2 * groups, np.int64)
    sums = np.zeros(2, np.int64)
    _compact_state(board, compact, masks, orders, parts, sums)
    return max(sums[0], sums[1])  # type: ignore[no-any-return]


@kernel
def compact_ida_star_iteration(
    board: Array, neighbours: Array, compact: Any, bound: int, node_budget: int, moves: Array,
    next_direction: Array, state: Array,
) -> tuple[int, int, int]:
    """One depth-first pass of IDA* with cost bound ``bound`` on compact databases, or its
    next ``node_budget`` expansions; the same contract as :func:`ida_star_iteration`.  Nothing
    is allocated inside the loop, and the move straight back to the parent is never tried.  A
    loop of its own on purpose: sending these moves through :func:`_after_move` (eighteen
    array arguments a call) made Korf's 100 instances four times slower."""
    groups = compact[2].size
    masks = np.zeros(2 * groups, np.int64)
    orders = np.zeros(2 * groups, np.int64)
    parts = np.zeros(2 * groups, np.int64)
    sums = np.zeros(2, np.int64)
    _compact_state(board, compact, masks, orders, parts, sums)
    h = max(sums[0], sums[1])
    blank = _blank_cell(board)
    depth, next_bound, deepest = state[0], state[1], state[2]
    if depth == 0 and next_direction[0] == 0:
        if h == 0:
            return FOUND, 0, 0
        if h > bound:
            state[1] = h
            return EXHAUSTED, 0, 0
    expanded = 0
    while True:
        if next_direction[depth] == 4:
            if depth == 0:
                break
            depth -= 1
            came_from = neighbours[blank, moves[depth] ^ 2]
            tile = _slide_tile(board, came_from, blank)
            h = _compact_slide(tile, came_from, blank, compact, masks, orders, parts, sums)
            blank = came_from
            continue
        direction = next_direction[depth]
        next_direction[depth] += 1
        if depth > 0 and direction == (moves[depth - 1] ^ 2):
            continue
        target = neighbours[blank, direction]
        if target < 0:
            continue
        tile = _slide_tile(board, target, blank)
        child_h = _compact_slide(tile, target, blank, compact, masks, orders, parts, sums)
        expanded += 1
        f = depth + 1 + child_h
        if f > bound:
            if next_bound < 0 or f < next_bound:
                next_bound = f
            _slide_tile(board, blank, target)
            _compact_slide(tile, blank, target, compact, masks, orders, parts, sums)
            continue
        moves[depth] = direction
        blank = target
        depth += 1
        deepest = max(deepest, depth)
        if child_h == 0:
            state[2] = deepest
            return FOUND, depth, expanded
        next_direction[depth] = 0
        if expanded >= node_budget:
            state[0], state[1], state[2] = depth, next_bound, deepest
            return PAUSED, 0, expanded
    state[0], state[1], state[2] = 0, next_bound, deepest
    return EXHAUSTED, 0, expanded
