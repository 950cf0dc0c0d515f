"""Hot loops over every legal layout: enumeration, the perfect index and the classes (wrapped
by :mod:`huarong.space.cases`; groups and minimum steps are in
:mod:`huarong._kernels.space_graph`).

**Completion counts.**  A code is read cell by cell in address order, skipping covered cells,
so the state after a prefix of items is the 20-bit mask of covered cells plus how many empty
cells were listed so far (0, 1, or "2 or more").  ``completions[mask, empties]`` is how many
legal layouts finish a prefix in that state.  Depth-first enumeration that tries items in the
order empty < horizontal < vertical < 1x1 emits codes already sorted, and the rank of a code is
the sum, over its items, of the completions of the smaller items that would have fitted there.
Only 1,078 of those states occur after an even number of items, so the perfect index reads a
code two items at a time through a small automaton (one cache-resident look-up per pair)
instead of touching the 12 MB table.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel, parallel_kernel, prange
from huarong._kernels.klotski import (
    CELLS,
    COLS,
    ROWS,
    Int,
)

FULL = (1 << CELLS) - 1
HEADS = np.array([h for h in range(CELLS) if h % COLS < COLS - 1 and h // COLS < ROWS - 1],
                 dtype=np.int64)
CAO_CELLS = np.zeros(CELLS, dtype=np.int64)
for _head in HEADS:
    CAO_CELLS[_head] = (1 << _head) | (1 << (_head + 1)) | (1 << (_head + COLS)) | (
        1 << (_head + COLS + 1))
# Item values of the common code, in code order.
EMPTY, HORIZONTAL, VERTICAL, SOLDIER = 0, 1, 2, 3


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


ACCEPT = 0
"""The automaton's state once a legal code is read to its end: every cell covered, 2+ empty."""
DEAD = -1
# An automaton entry packs the rank added by a pair of items and the state it leads to.
STATE_BITS = 16
STATE_MASK = (1 << STATE_BITS) - 1


@kernel
def _after_item(mask: Int, empties: Int, item: Int, table: np.ndarray
                ) -> tuple[Int, Int, Int]:
    """(mask, empties, rank added) after reading ``item``; mask -1 when no legal code
    continues that way.  Past the last cell only the zero padding may follow."""
    if mask == FULL:
        return (mask if item == EMPTY else -1), empties, 0
    cell = _first_free(mask, 0)
    # int64 as numba types it: the table is int32, and as plain numpy the sum shifted left
    # by STATE_BITS would wrap.
    added = np.int64(0)
    child: Int
    child_empties: Int
    for smaller in range(item + 1):
        if smaller == EMPTY:
            child, child_empties = mask | (np.int64(1) << cell), _capped(empties + 1)
        else:
            cells = _item_cells(smaller, cell, mask)
            if cells == 0:
                if smaller == item:
                    return -1, empties, 0
                continue
            child, child_empties = mask | cells, empties
        if smaller == item:
            if table[child, child_empties] == 0:
                return -1, empties, 0
            return child, child_empties, added
        added += table[child, child_empties]
    return -1, empties, 0


@kernel
def rank_automaton(table: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The perfect index as an automaton reading a code's items two at a time.

    States are the (covered mask, empties) pairs a legal prefix can reach (1,253 of them, so
    the table stays in cache, unlike ``table``).  A state is kept as the offset of its row of
    16 entries in the flat ``automaton``.  Returns (``automaton[state + pair]``: the rank
    added by the pair << STATE_BITS | the next state, or DEAD; ``heads[address]``: the start
    state or DEAD, and the ranks of all codes with a smaller 2x2 address)."""
    state_of = np.full(3 * (FULL + 1), DEAD, dtype=np.int32)
    masks = np.empty(4096, dtype=np.int64)
    empties = np.empty(4096, dtype=np.int64)
    masks[ACCEPT], empties[ACCEPT] = FULL, 2
    state_of[3 * FULL + 2] = ACCEPT
    count = 1
    heads = np.full((CELLS, 2), DEAD, dtype=np.int64)
    for head in HEADS:
        state_of[3 * CAO_CELLS[head]] = count
        masks[count], empties[count] = CAO_CELLS[head], 0
        heads[head, 0], heads[head, 1] = 16 * count, offsets[head]
        count += 1
    automaton = np.full((4096, 16), DEAD, dtype=np.int64)
    state = 0
    while state < count:
        for pair in range(16):
            mask, spaces = masks[state], empties[state]
            mask, spaces, added = _after_item(mask, spaces, pair >> 2, table)
            if mask < 0:
                continue
            mask, spaces, more = _after_item(mask, spaces, pair & 3, table)
            if mask < 0:
                continue
            key = 3 * mask + spaces
            if state_of[key] == DEAD:
                state_of[key] = count
                masks[count], empties[count] = mask, spaces
                count += 1
            automaton[state, pair] = ((added + more) << STATE_BITS) | (16 * state_of[key])
        state += 1
    return automaton[:count].reshape(-1).copy(), heads


@kernel
def rank_of(code: Int, automaton: np.ndarray, heads: np.ndarray) -> Int:
    """The rank of ``code`` among all legal codes, or -1 when it is not a legal code: eight
    look-ups in a table that fits in cache."""
    if code < 0 or code >> 36:
        return -1
    head = code >> 32
    state = heads[head, 0]
    if state == DEAD:
        return -1
    rank = heads[head, 1]
    for shift in range(28, -4, -4):
        entry = automaton[state + ((code >> shift) & 15)]
        if entry == DEAD:
            return -1
        rank += entry >> STATE_BITS
        state = entry & STATE_MASK
    return rank if state == ACCEPT else -1


@kernel
def short_code_of_rank(rank: Int, digits: np.ndarray, length: Int) -> Int:
    """``rank`` written with ``length`` of ``digits`` (ASCII bytes), most significant first,
    packed big-endian into one int (``int.to_bytes(length, "big")`` spells it)."""
    packed = np.int64(0)
    base = digits.shape[0]
    for position in range(length):
        packed |= np.int64(digits[rank % base]) << (8 * position)
        rank //= base
    return packed


@kernel
def short_code_of_code(code: Int, automaton: np.ndarray, heads: np.ndarray,
                       digits: np.ndarray, length: Int) -> Int:
    """:func:`short_code_of_rank` of the rank of ``code``, or -1 when it is not a legal code:
    a layout's short code in one call, where two cost as much again in dispatch."""
    rank = rank_of(code, automaton, heads)
    return -1 if rank < 0 else short_code_of_rank(rank, digits, length)


@parallel_kernel
def ranks_of(codes: np.ndarray, automaton: np.ndarray, heads: np.ndarray) -> np.ndarray:
    ranks = np.empty(codes.shape[0], dtype=np.int64)
    for i in prange(codes.shape[0]):
        ranks[i] = rank_of(codes[i], automaton, heads)
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
