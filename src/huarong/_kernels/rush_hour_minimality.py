"""Whether a Rush Hour start needs every piece (:mod:`huarong._kernels.rush_hour`'s keys and
moves): the last test of the sweep (:mod:`huarong._kernels.rush_hour_sweep`) before it
writes a cluster's row.

Two tests: every other piece, wall included, needed (``MINIMAL``: removed, the start is
solved in fewer moves, by breadth-first search), or Fogleman's (``FOGLEMAN``: only the pieces
his solver's solution leaves unmoved are removed, and his solver, iterative deepening, says
how many moves the start then needs).  His solver counts the fewest moves there are
(:func:`_fogleman_solver`), so the pieces removed are tested breadth-first, as ``MINIMAL``
tests them: the same answers in about two thirds of the time.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels import hash_table
from huarong._kernels._jit import kernel, trailing_zeros
from huarong._kernels.arrays import grown
from huarong._kernels.hash_table import Int
from huarong._kernels.rush_hour import (
    FOGLEMAN,
    POSITION,
    POSITION_BITS,
    neighbours,
    occupied,
    removed,
    slides,
)
from huarong._kernels.rush_hour_board import PRIMARY_ROW, SIDE, TARGET

_ENTER, _NEXT, _LEAVE = 0, 1, 2


@kernel
def minimal(mode: int, start: np.int64, moves: int, n: int, masks: np.ndarray,
            last: np.ndarray, wall_mask: np.int64, walls: np.ndarray, buffer: np.ndarray,
            known: np.int64) -> bool:
    """Whether the start of a cluster, ``moves`` from a solved state, needs every piece by
    the test ``mode`` (``FOGLEMAN`` or ``MINIMAL``); the pieces of ``known`` (one bit each;
    -1: none) are known to be needed (a shortest solution moves them), so not tested."""
    if mode == FOGLEMAN:
        return _fogleman_minimal(start, moves, n, masks, last, wall_mask, walls, buffer,
                                 known)
    return _all_needed(start, moves, n, masks, last, wall_mask, walls, buffer,
                       max(known, np.int64(0)))


@kernel
def _all_needed(start: np.int64, moves: int, n: int, masks: np.ndarray, last: np.ndarray,
                wall_mask: np.int64, walls: np.ndarray, buffer: np.ndarray,
                known: np.int64) -> bool:
    """Every other piece and wall needed: without it, fewer moves (breadth-first); the
    pieces of ``known`` (one bit each) are known to be needed and not tested."""
    queue = np.empty(1 << 10, dtype=np.int64)
    depth = np.empty(1 << 10, dtype=np.int32)
    bits = hash_table.bits_for(queue.shape[0])
    seen = hash_table.set_of(queue, 0, bits)
    for skip in range(1, n + walls.shape[0]):
        if skip < n and (known >> skip) & 1:
            continue
        without, piece = removed(skip, n, wall_mask, walls)
        needed, queue, depth, seen, bits = _needed(
            start, moves, n, masks, last, without, piece, queue, depth, seen, bits, buffer)
        if not needed:
            return False
    return True


@kernel
def _needed(start: np.int64, moves: int, n: int, masks: np.ndarray, last: np.ndarray,
            walls: np.int64, skip: int, queue: np.ndarray, depth: np.ndarray,
            seen: np.ndarray, bits: Int, buffer: np.ndarray
            ) -> tuple[bool, np.ndarray, np.ndarray, np.ndarray, Int]:
    """Whether the start, less piece ``skip`` (or less the walls not in ``walls``), is solved
    in fewer than ``moves`` moves; and the search's arrays (grown, the set ``seen`` of
    ``2**bits`` slots emptied) and bits, for the next call."""
    queue[0] = start
    depth[0] = 0
    hash_table.add(seen, bits, start)
    head, tail = 0, 1
    solved = False
    while head < tail and not solved:
        key = queue[head]
        d = depth[head]
        head += 1
        if d + 1 >= moves:
            break
        count = neighbours(key, n, masks, last, walls, skip, buffer)
        for i in range(count):
            nxt = buffer[i]
            if (nxt & POSITION) == TARGET:
                solved = True
                break
            if not hash_table.add(seen, bits, nxt):
                continue
            if tail == queue.shape[0]:
                queue = grown(queue, tail, tail + 1)
                depth = grown(depth, tail, tail + 1)
            queue[tail] = nxt
            depth[tail] = d + 1
            tail += 1
            if hash_table.crowded(tail, bits):
                bits += 1
                seen = hash_table.set_of(queue, tail, bits)
    hash_table.clear(seen, bits, queue, tail)
    return solved, queue, depth, seen, bits


@kernel
def _fogleman_minimal(start: np.int64, moves: int, n: int, masks: np.ndarray,
                      last: np.ndarray, wall_mask: np.int64, walls: np.ndarray,
                      buffer: np.ndarray, known: np.int64) -> bool:
    """Fogleman's minimality (``cpp/src/cluster.cpp``): no piece his solver's solution
    leaves unmoved, wall or vehicle, can go with his solver still counting ``moves``.  His
    count is the fewest moves, which breadth-first search finds sooner; and a piece his
    solution moves is needed, as any shortest solution's (``known``, when given: the
    answer is the same), so his test is the every-piece test.  A solved start (``moves``
    0) needs every piece, as his count is never 0."""
    if moves <= 0:
        return True
    if known < 0:
        known = _fogleman_solver(start, 2 * moves + SIDE, n, masks, last, wall_mask, buffer)
    return _all_needed(start, moves, n, masks, last, wall_mask, walls, buffer, known)


@kernel
def _fogleman_solver(start: np.int64, cap: int, n: int, masks: np.ndarray,
                     last: np.ndarray, walls: np.int64, buffer: np.ndarray
                     ) -> np.int64:
    """Fogleman's solver (``cpp/src/solver.cpp``) on the start (among ``walls``): iterative
    deepening, moves in his order, never the piece moved last, cut when the cells between
    the red car and the exit hold as many pieces as moves left, and one table of heights
    for all the depths (a state entered with at least the height left is not entered
    again).  Its count is the fewest moves: no shallower round finds a solution, and in the
    round of the fewest moves each state of a shortest path is entered with its own fewest
    moves as height, which a height in the table reaches only on a shortest path of that
    round (deeper, a state would make a shorter path), and never right after a move of the
    piece the path moves next (the two joined would make a shorter path); so the walk
    along a shortest path is never cut (checked in ``tests/test_rush_hour.py``).
    Returns the pieces its solution moves, one bit each (0: none within ``cap`` moves)."""
    entered = np.empty(1 << 12, dtype=np.int64)
    bits = hash_table.bits_for(entered.shape[0])
    # Each slot's height beside its key: one look-up less than an index into a list.
    table, heights = hash_table.table_of(entered, 0, bits, np.int64)
    stored = 0
    width = buffer.shape[0]
    children = np.empty((cap + 1, width), dtype=np.int64)
    counts = np.zeros(cap + 1, dtype=np.int64)
    index = np.zeros(cap + 1, dtype=np.int64)
    path = np.empty(cap + 2, dtype=np.int64)
    previous = np.full(cap + 2, -1, dtype=np.int64)
    exit_row = PRIMARY_ROW * SIDE
    for most in range(1, cap + 1):
        depth = 0
        path[0] = start
        previous[0] = -1
        action = _ENTER
        result = False
        slot: Int = -1  # the entered node's slot, when the step before found it
        while True:
            if action == _ENTER:
                node = path[depth]
                height = most - depth
                action = _LEAVE
                if height == 0:
                    result = (node & POSITION) == TARGET
                    continue
                result = False
                if slot < 0:
                    slot = hash_table.slot_of(table, bits, node)
                if table[slot] == node:
                    if heights[slot] >= height:
                        continue
                    heights[slot] = height
                else:
                    table[slot], heights[slot] = node, height
                    if stored == entered.shape[0]:
                        entered = grown(entered, stored, stored + 1)
                    entered[stored] = node
                    stored += 1
                    if hash_table.crowded(stored, bits):
                        bits += 1
                        table, heights = _regrown(table, heights, bits, entered, stored)
                slot = -1
                taken = occupied(node, n, masks, walls, -1)
                blockers = np.int64(0)
                for column in range((node & POSITION) + 2, SIDE):
                    blockers += (taken >> (exit_row + column)) & 1
                if blockers >= height:
                    continue
                counts[depth] = slides(node, taken, n, masks, last, -1, children[depth])
                index[depth] = -1
                action = _NEXT
            elif action == _NEXT:
                # A child that would fail as soon as entered (off the goal at the last
                # move, or in the table with at least its height) is passed over here, the
                # same answer without a step of the walk down and back.
                below = most - depth - 1
                index[depth] += 1
                while index[depth] < counts[depth]:
                    child = children[depth, index[depth]]
                    if trailing_zeros(child ^ path[depth]) // POSITION_BITS != previous[depth]:
                        if below == 0:
                            if (child & POSITION) == TARGET:
                                break
                        else:
                            slot = hash_table.slot_of(table, bits, child)
                            if table[slot] != child or heights[slot] < below:
                                break
                    index[depth] += 1
                if index[depth] >= counts[depth]:
                    result = False
                    action = _LEAVE
                    continue
                child = children[depth, index[depth]]
                path[depth + 1] = child
                previous[depth + 1] = trailing_zeros(child ^ path[depth]) // POSITION_BITS
                depth += 1
                action = _ENTER
            else:
                if depth == 0:
                    break
                depth -= 1
                if result:
                    heights[hash_table.slot_of(table, bits, path[depth])] = most - depth - 1
                    slot = -1
                else:
                    action = _NEXT
        if result:
            moved = np.int64(0)
            for d in range(most):
                moved |= np.int64(1) << (trailing_zeros(path[d + 1] ^ path[d]) // POSITION_BITS)
            return moved
    return np.int64(0)


@kernel
def _regrown(table: np.ndarray, heights: np.ndarray, bits: Int, entered: np.ndarray,
             stored: Int) -> tuple[np.ndarray, np.ndarray]:
    """The table of ``entered[:stored]`` (with their heights) in ``2**bits`` slots, from the
    one of ``2**(bits - 1)``."""
    keys, moved = hash_table.table_of(entered, 0, bits, np.int64)
    for i in range(stored):
        slot = hash_table.slot_of(keys, bits, entered[i])
        keys[slot] = entered[i]
        moved[slot] = heights[hash_table.slot_of(table, bits - 1, entered[i])]
    return keys, moved
