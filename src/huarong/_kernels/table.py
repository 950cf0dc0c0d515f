"""Answers by layout id: the inverse of the perfect index, and walking the table of minimum
steps (wrapped by :mod:`huarong.engine.ids` and :mod:`huarong.space.table`).

**From an id back to its code.**  The completion counts of :mod:`huarong._kernels.cases` say
how many legal codes continue each prefix, so the code of rank ``r`` is read item by item:
at each cell take the smallest item whose completions exceed what is left of ``r``, after
taking away the completions of the smaller items.

**The walk gives the search's own path.**  The search (:func:`~huarong._kernels.klotski.
solve_codes`) is a breadth-first search over mirror pairs that stops at the first goal it
meets and follows the parent links back.  Call a layout *on the way* when its depth from the
start plus its minimum steps (the table's value) is the start's minimum steps ``d``: the
layouts of the minimum-step solutions.  A neighbour one level up of a layout on the way is on
the way too, so no layout on the way at depth ``k + 1`` is met before the search expands the
first layout on the way at depth ``k``, and the first it meets is that layout's first
neighbour (in the search's order) one step closer to a goal, whose parent that layout then
is.  So the search's path is the chain of first neighbours one step closer, from the start:
the walk takes ``d`` steps, trying about ten neighbours each, whatever the group's size.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.cases import (
    CAO_CELLS,
    EMPTY,
    FULL,
    HEADS,
    _capped,
    _first_free,
    _item_cells,
    rank_of,
)
from huarong._kernels.group_search import canonical_board
from huarong._kernels.klotski import (
    CELLS,
    Int,
    board_neighbours,
    board_to_code,
    code_to_board,
)

NOT_IN_TABLE = 254
"""A table entry for a layout whose minimum steps the table does not hold."""
NO_SOLUTION = 255
"""A table entry for a layout whose group holds no goal layout."""
MOST_STEPS = 253
"""The largest minimum steps an entry can hold."""
FOUND = 0
"""The walk's status when it found a path (or the layout is solved)."""


@kernel
def code_of_rank(rank: Int, table: np.ndarray, offsets: np.ndarray) -> Int:
    """The legal code of rank ``rank`` (0 <= rank < offsets[-1]), inverting
    :func:`~huarong._kernels.cases.rank_of`."""
    head = np.int64(-1)
    for candidate in HEADS:
        if offsets[candidate] <= rank:
            head = candidate
    left = rank - offsets[head]
    mask = CAO_CELLS[head]
    empties: Int = np.int64(0)
    code = head << 32
    depth = 0
    while mask != FULL:
        cell = _first_free(mask, 0)
        for item in range(4):
            covered: Int
            child_empties: Int
            if item == EMPTY:
                covered = np.int64(1) << cell
                child_empties = _capped(empties + 1)
            else:
                covered = _item_cells(item, cell, mask)
                child_empties = empties
                if covered == 0:
                    continue
            completions = table[mask | covered, child_empties]
            if left < completions:
                code |= np.int64(item) << (30 - 2 * depth)
                mask |= covered
                empties = child_empties
                depth += 1
                break
            left -= completions
    return code


@kernel
def _steps_of(code: Int, steps: np.ndarray, automaton: np.ndarray, heads: np.ndarray) -> Int:
    return steps[rank_of(code, automaton, heads)]


@kernel
def walk(start: Int, steps: np.ndarray, automaton: np.ndarray, heads: np.ndarray
         ) -> tuple[np.ndarray, Int, Int]:
    """The search's minimum-step path from code ``start`` (see the module docstring), the
    status (:data:`FOUND`, or the start's entry :data:`NO_SOLUTION` or :data:`NOT_IN_TABLE`,
    with no path) and how many mirror pairs the walk visited.  A table that contradicts
    itself (no neighbour one step closer) answers NOT_IN_TABLE."""
    no_path = np.empty(0, dtype=np.int64)
    first = _steps_of(start, steps, automaton, heads)
    if first > MOST_STEPS:
        return no_path, first, np.int64(0)
    start_board = code_to_board(start)
    chain = np.empty(first + 1, dtype=np.int64)
    board = canonical_board(start_board)
    chain[0] = board_to_code(board)
    out = np.empty(80, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    for step in range(1, first + 1):
        n = board_neighbours(board, out, stack)
        closer: Int = np.int64(-1)
        for i in range(n):
            # A mirror image has the same minimum steps: rank the board as it is.
            if _steps_of(board_to_code(out[i]), steps, automaton, heads) == first - step:
                closer = canonical_board(out[i])
                break
        if closer < 0:
            return no_path, np.int64(NOT_IN_TABLE), np.int64(step)
        board = closer
        chain[step] = board_to_code(board)
    return _real_path(start_board, chain), np.int64(FOUND), first + 1


@kernel
def _real_path(start_board: Int, chain: np.ndarray) -> np.ndarray:
    """The codes of the real path from ``start_board`` along a chain of mirror pairs (the
    codes of their canonical boards), each step taking the first neighbour whose pair is the
    next one on the chain (as :func:`~huarong._kernels.group_search.solve_codes` does)."""
    path = np.empty(chain.shape[0], dtype=np.int64)
    out = np.empty(80, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    current = start_board
    path[0] = board_to_code(start_board)
    for i in range(1, chain.shape[0]):
        n = board_neighbours(current, out, stack)
        for j in range(n):
            if board_to_code(canonical_board(out[j])) == chain[i]:
                current = out[j]
                break
        path[i] = board_to_code(current)
    return path
