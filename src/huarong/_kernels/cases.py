"""Hot loops over every legal layout: enumeration, the perfect index, group labelling and the
minimum steps of every layout (wrapped by :mod:`huarong.cases`).

**Completion counts.**  A code is read cell by cell in address order, skipping covered cells,
so the state after a prefix of items is the 20-bit mask of covered cells plus how many empty
cells were listed so far (0, 1, or "2 or more").  ``completions[mask, empties]`` is how many
legal layouts finish a prefix in that state.  Depth-first enumeration that tries items in the
order empty < horizontal < vertical < 1x1 emits codes already sorted, and the rank of a code is
the sum, over its items, of the completions of the smaller items that would have fitted there.

**Groups.**  A step is a chain of unit moves through legal layouts, so the groups are the
components of the unit-move graph; every unit move is the reverse of a move right or down,
so a union-find over the moves right and down of every layout finds them all.  Linking the
larger root under the smaller keeps each root the group's smallest rank, and parents always
point to smaller ranks, so one ascending pass resolves every root.

**Minimum steps.**  A multi-source BFS from every goal layout (one contiguous run of ranks: the
codes starting with D), level by level.  Alongside each layout of a level travels the set of
goal layouts at its minimum distance (the union of its parents' sets), whose size is its
number of min-step solutions.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from huarong._kernels._jit import kernel, parallel_kernel, prange
from huarong._kernels.klotski import (
    CAO,
    CELLS,
    COLS,
    FLAT_MASK,
    FLAT_PATTERN,
    GOAL_HEAD,
    ROWS,
    board_neighbours,
    board_to_code,
    code_to_board,
    occupied_cells,
)

Int: TypeAlias = int | np.integer[Any]
"""A scalar as kernels see it: numba passes numpy integers, Python callers ints."""

FULL = (1 << CELLS) - 1
HEADS = np.array([h for h in range(CELLS) if h % COLS < COLS - 1 and h // COLS < ROWS - 1],
                 dtype=np.int64)
CAO_CELLS = np.zeros(CELLS, dtype=np.int64)
for _head in HEADS:
    CAO_CELLS[_head] = (1 << _head) | (1 << (_head + 1)) | (1 << (_head + COLS)) | (
        1 << (_head + COLS + 1))
# Item values of the common code, in code order.
EMPTY, HORIZONTAL, VERTICAL, SOLDIER = 0, 1, 2, 3
NOT_REACHED = -1


@kernel
def _item_cells(item: Int, cell: Int, mask: Int) -> Int:
    """The cells item ``item`` covers when listed at ``cell`` (the first free cell of
    ``mask``), or 0 when it does not fit."""
    here = np.int64(1) << cell
    if item == HORIZONTAL:
        if cell % COLS == COLS - 1 or mask & (here << 1):
            return 0
        return here | (here << 1)
    if item == VERTICAL:
        if cell >= CELLS - COLS or mask & (here << COLS):
            return 0
        return here | (here << COLS)
    return here


@kernel
def _capped(empties: Int) -> Int:
    """Empty cells counted as 0, 1 or "2 or more" (legality needs 2)."""
    return empties if empties < 2 else 2


@kernel
def _first_free(mask: Int, cell: Int) -> Int:
    while mask & (np.int64(1) << cell):
        cell += 1
    return cell


@kernel
def completion_table() -> np.ndarray:
    """``completions[mask, empties]``, see the module docstring (int32 and the empties
    innermost keep the 12 MB table as cache-friendly as it gets)."""
    table = np.zeros((FULL + 1, 3), dtype=np.int32)
    table[FULL, 2] = 1
    for mask in range(FULL - 1, -1, -1):
        cell = _first_free(mask, 0)
        for empties in range(3):
            total = table[mask | (np.int64(1) << cell), _capped(empties + 1)]
            for item in range(1, 4):
                cells = _item_cells(item, cell, mask)
                if cells:
                    total += table[mask | cells, empties]
            table[mask, empties] = total
    return table


@kernel
def head_offsets(table: np.ndarray) -> np.ndarray:
    """Per 2x2 address (0..19): how many legal codes start with a smaller address."""
    offsets = np.zeros(CELLS + 1, dtype=np.int64)
    running = np.int64(0)
    for head in range(CELLS):
        offsets[head] = running
        if CAO_CELLS[head]:
            running += table[CAO_CELLS[head], 0]
    offsets[CELLS] = running
    return offsets


@kernel
def rank_of(code: Int, table: np.ndarray, offsets: np.ndarray) -> Int:
    """The rank of ``code`` among all legal codes, or -1 when it is not a legal code."""
    head = code >> 32
    if code < 0 or head >= CELLS or CAO_CELLS[head] == 0:
        return -1
    mask = CAO_CELLS[head]
    rank: Int = offsets[head]
    empties: Int = 0
    cell: Int = 0
    shift = 30
    while mask != FULL:
        cell = _first_free(mask, cell)
        item = (code >> shift) & 3
        shift -= 2
        for smaller in range(item):
            if smaller == EMPTY:
                rank += table[mask | (np.int64(1) << cell), _capped(empties + 1)]
            else:
                cells = _item_cells(smaller, cell, mask)
                if cells:
                    rank += table[mask | cells, empties]
        if item == EMPTY:
            empties = _capped(empties + 1)
            mask |= np.int64(1) << cell
        else:
            cells = _item_cells(item, cell, mask)
            if cells == 0:
                return -1
            mask |= cells
    if empties < 2 or (shift >= 0 and code & ((np.int64(1) << (shift + 2)) - 1)):
        return -1
    return rank


@parallel_kernel
def ranks_of(codes: np.ndarray, table: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    ranks = np.empty(codes.shape[0], dtype=np.int64)
    for i in prange(codes.shape[0]):
        ranks[i] = rank_of(codes[i], table, offsets)
    return ranks


@kernel
def _enumerate_head(head: Int, table: np.ndarray, out: np.ndarray, start: Int
                    ) -> Int:
    """Write every legal code with the 2x2 at ``head``, ascending, from ``out[start]``."""
    masks = np.empty(17, dtype=np.int64)
    empties = np.empty(17, dtype=np.int64)
    codes = np.empty(17, dtype=np.int64)
    cells = np.empty(17, dtype=np.int64)
    next_item = np.empty(17, dtype=np.int64)
    masks[0], empties[0], codes[0] = CAO_CELLS[head], 0, head << 32
    cells[0], next_item[0] = _first_free(CAO_CELLS[head], 0), 0
    written = start
    depth = 0
    while depth >= 0:
        mask = masks[depth]
        if mask == FULL:
            out[written] = codes[depth]
            written += 1
            depth -= 1
            continue
        item = next_item[depth]
        if item == 4:
            depth -= 1
            continue
        next_item[depth] = item + 1
        cell = cells[depth]
        if item == EMPTY:
            covered = np.int64(1) << cell
            child_empties = _capped(empties[depth] + 1)
        else:
            covered = _item_cells(item, cell, mask)
            child_empties = empties[depth]
            if covered == 0:
                continue
        if table[mask | covered, child_empties] == 0:
            continue
        child = depth + 1
        masks[child] = mask | covered
        empties[child] = child_empties
        codes[child] = codes[depth] | (item << (30 - 2 * depth))
        cells[child] = _first_free(mask | covered, cell) if mask | covered != FULL else 0
        next_item[child] = 0
        depth = child
    return written - start


@parallel_kernel
def enumerate_codes(table: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Every legal code, ascending (so ``codes[rank]`` inverts :func:`rank_of`)."""
    out = np.empty(offsets[CELLS], dtype=np.int64)
    for i in prange(HEADS.shape[0]):
        head = HEADS[i]
        _enumerate_head(head, table, out, offsets[head])
    return out


@kernel
def _count_items(code: Int, item: Int) -> Int:
    count = np.int64(0)
    for shift in range(0, 32, 2):
        if (code >> shift) & 3 == item:
            count += 1
    return count


@parallel_kernel
def classify(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(jiang_num, bing_num, style_num) of every code."""
    n = codes.shape[0]
    jiang = np.empty(n, dtype=np.int8)
    bing = np.empty(n, dtype=np.int8)
    style = np.empty(n, dtype=np.int8)
    for i in prange(n):
        horizontal = _count_items(codes[i], HORIZONTAL)
        jiang[i] = horizontal + _count_items(codes[i], VERTICAL)
        bing[i] = _count_items(codes[i], SOLDIER)
        style[i] = horizontal
    return jiang, bing, style


# ----- groups ----------------------------------------------------------------------------------
@kernel
def _find(parent: np.ndarray, node: Int) -> Int:
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


@kernel
def _union(parent: np.ndarray, a: Int, b: Int) -> None:
    a = _find(parent, a)
    b = _find(parent, b)
    if a < b:
        parent[b] = a
    elif b < a:
        parent[a] = b


@kernel
def _link_moves_right_and_down(members: np.ndarray, codes: np.ndarray, table: np.ndarray,
                               offsets: np.ndarray, parent: np.ndarray) -> None:
    for i in range(members.shape[0]):
        rank = members[i]
        board = code_to_board(codes[rank])
        occupied = occupied_cells(board)
        for address in range(CELLS):
            value = (board >> (3 * address)) & 7
            # Top-left cells only: 1x1 (1), horizontal (2), vertical (4), 2x2 (6).
            if value == 1:
                kind = 3
            elif value == 2:
                kind = 1
            elif value == 4:
                kind = 2
            elif value == 6:
                kind = CAO
            else:
                continue
            base = kind * CELLS
            others = occupied & ~FLAT_MASK[base + address]
            lifted = board ^ FLAT_PATTERN[base + address]
            for target in (address + 1, address + COLS):
                if target >= CELLS or FLAT_MASK[base + target] == 0:
                    continue
                if target == address + 1 and target % COLS == 0:
                    continue
                if FLAT_MASK[base + target] & others:
                    continue
                moved = board_to_code(lifted | FLAT_PATTERN[base + target])
                _union(parent, rank, rank_of(moved, table, offsets))


@parallel_kernel
def group_roots(codes: np.ndarray, members: np.ndarray, bounds: np.ndarray, table: np.ndarray,
                offsets: np.ndarray) -> np.ndarray:
    """The smallest rank of every layout's group.

    ``members[bounds[k]:bounds[k + 1]]`` are the ranks one worker links; steps never leave a
    jiang-bing class, so workers given whole classes never touch the same layouts."""
    n = codes.shape[0]
    parent = np.arange(n).astype(np.int32)
    for worker in prange(bounds.shape[0] - 1):
        _link_moves_right_and_down(members[bounds[worker]:bounds[worker + 1]], codes, table,
                                   offsets, parent)
    for rank in range(n):
        parent[rank] = parent[parent[rank]]
    return parent


@kernel
def number_groups(roots: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Groups numbered by their smallest rank: (group of each layout, index of each layout in
    its group, size of each group, smallest rank of each group)."""
    n = roots.shape[0]
    group = np.empty(n, dtype=np.int32)
    index = np.empty(n, dtype=np.int32)
    sizes = np.zeros(n, dtype=np.int32)
    firsts = np.empty(n, dtype=np.int64)
    count = 0
    for rank in range(n):
        root = roots[rank]
        if root == rank:
            firsts[count] = rank
            group[rank] = count
            count += 1
        else:
            group[rank] = group[root]
        g = group[rank]
        index[rank] = sizes[g]
        sizes[g] += 1
    return group, index, sizes[:count].copy(), firsts[:count].copy()


# ----- minimum steps -----------------------------------------------------------------------
@kernel
def _position(code: Int, codes: np.ndarray, table: np.ndarray, offsets: np.ndarray,
              all_layouts: bool) -> Int:
    if all_layouts:
        return rank_of(code, table, offsets)
    return np.searchsorted(codes, code)


@kernel
def _grow(array: np.ndarray, needed: Int) -> np.ndarray:
    if needed <= array.shape[0]:
        return array
    bigger = np.empty(max(needed, 2 * array.shape[0]), dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


@kernel
def _next_level(frontier: np.ndarray, level: Int, codes: np.ndarray, steps: np.ndarray,
                table: np.ndarray, offsets: np.ndarray, all_layouts: bool) -> np.ndarray:
    """Mark the layouts one step beyond ``frontier`` (positions at ``level``); return every
    (new layout, frontier index) link, packed as ``position << 26 | index`` and sorted."""
    links = np.empty(4 * frontier.shape[0] + 80, dtype=np.int64)
    count = np.int64(0)
    out = np.empty(80, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    for i in range(frontier.shape[0]):
        n = board_neighbours(code_to_board(codes[frontier[i]]), out, stack)
        links = _grow(links, count + n)
        for j in range(n):
            child = _position(board_to_code(out[j]), codes, table, offsets, all_layouts)
            if steps[child] == NOT_REACHED:
                steps[child] = level + 1
            elif steps[child] != level + 1:
                continue
            links[count] = (child << 26) | i
            count += 1
    return np.sort(links[:count])


@kernel
def _sort_unique(values: np.ndarray, count: Int) -> Int:
    """Sort ``values[:count]`` in place and drop repeats; return how many remain.  The sets
    are small, so an insertion sort without allocation beats ``np.unique``."""
    if count > 32:
        values[:count] = np.sort(values[:count])
    else:
        for i in range(1, count):
            value = values[i]
            j = i - 1
            while j >= 0 and values[j] > value:
                values[j + 1] = values[j]
                j -= 1
            values[j + 1] = value
    kept = np.int64(0)
    for i in range(count):
        if kept == 0 or values[i] != values[kept - 1]:
            values[kept] = values[i]
            kept += 1
    return kept


@kernel
def _merge_goal_sets(links: np.ndarray, set_bounds: np.ndarray, set_items: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each new layout in ``links``: the union of its parents' goal sets.
    Returns (new frontier positions, their set bounds, their set items)."""
    frontier = np.empty(links.shape[0], dtype=np.int64)
    bounds = np.zeros(links.shape[0] + 1, dtype=np.int64)
    items = np.empty(max(set_items.shape[0], 16), dtype=np.int64)
    scratch = np.empty(64, dtype=np.int64)
    size = np.int64(0)
    used = np.int64(0)
    start = np.int64(0)
    low = (np.int64(1) << 26) - 1
    while start < links.shape[0]:
        child = links[start] >> 26
        stop = start
        gathered = np.int64(0)
        while stop < links.shape[0] and links[stop] >> 26 == child:
            parent = links[stop] & low
            first, last = set_bounds[parent], set_bounds[parent + 1]
            scratch = _grow(scratch, gathered + last - first)
            scratch[gathered:gathered + last - first] = set_items[first:last]
            gathered += last - first
            stop += 1
        distinct = _sort_unique(scratch, gathered)
        items = _grow(items, used + distinct)
        items[used:used + distinct] = scratch[:distinct]
        used += distinct
        frontier[size] = child
        size += 1
        bounds[size] = used
        start = stop
    return frontier[:size].copy(), bounds[:size + 1].copy(), items[:used].copy()


@kernel
def min_steps(codes: np.ndarray, table: np.ndarray, offsets: np.ndarray, all_layouts: bool,
              progress: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(minimum steps to a goal, number of goal layouts at that distance) of every layout of
    ``codes`` (sorted; all layouts, or a set closed under steps); -1 steps when none.
    ``progress[0]`` counts the layouts reached so far, for a watcher in another thread."""
    n = codes.shape[0]
    steps = np.full(n, NOT_REACHED, dtype=np.int16)
    solutions = np.zeros(n, dtype=np.int32)
    first_goal = np.searchsorted(codes, np.int64(GOAL_HEAD) << 32)
    last_goal = np.searchsorted(codes, np.int64(GOAL_HEAD + 1) << 32)
    frontier = np.arange(first_goal, last_goal)
    set_bounds = np.arange(frontier.shape[0] + 1)
    set_items = frontier.copy()
    level = np.int64(0)
    while frontier.shape[0]:
        for i in range(frontier.shape[0]):
            steps[frontier[i]] = level
            solutions[frontier[i]] = set_bounds[i + 1] - set_bounds[i]
        progress[0] += frontier.shape[0]
        links = _next_level(frontier, level, codes, steps, table, offsets, all_layouts)
        frontier, set_bounds, set_items = _merge_goal_sets(links, set_bounds, set_items)
        level += 1
    return steps, solutions
