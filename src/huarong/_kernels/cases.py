"""Hot loops over every legal layout: enumeration, the perfect index, group labelling and the
minimum steps of every layout (wrapped by :mod:`huarong.space.cases`).

**Completion counts.**  A code is read cell by cell in address order, skipping covered cells,
so the state after a prefix of items is the 20-bit mask of covered cells plus how many empty
cells were listed so far (0, 1, or "2 or more").  ``completions[mask, empties]`` is how many
legal layouts finish a prefix in that state.  Depth-first enumeration that tries items in the
order empty < horizontal < vertical < 1x1 emits codes already sorted, and the rank of a code is
the sum, over its items, of the completions of the smaller items that would have fitted there.
Only 1,078 of those states occur after an even number of items, so the perfect index reads a
code two items at a time through a small automaton (one cache-resident look-up per pair)
instead of touching the 12 MB table.

**Groups.**  A step is a chain of unit moves through legal layouts, so the groups are the
components of the unit-move graph; every unit move is the reverse of a move right or down,
so a union-find over the moves right and down of every layout finds them all.  Steps never
leave a jiang-bing-style class, and most classes (122 of 203, 71% of the layouts) hold a
single group: their layouts are linked straight to the class's smallest rank with no move
generated, and the union-find runs only over the layouts of the other classes.  Linking the
larger root under the smaller keeps each root the group's smallest rank, and parents always
point to smaller ranks, so one ascending pass resolves every root.

**Minimum steps.**  A multi-source BFS from every goal layout (one contiguous run of ranks: the
codes starting with D), level by level.  Alongside each layout of a level travels the set of
goal layouts at its minimum distance (the union of its parents' sets), whose size is its
number of min-step solutions.  Both cores push the frontier, each chunk into its own part of
a link buffer; the links are then bucketed by new layout (no sort) and the sets merged with
a stamp per goal (no sort either).
"""

from __future__ import annotations

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
    Int,
    _grow,
    board_neighbours,
    board_to_code,
    code_to_board,
    occupied_cells,
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
    added: Int = 0
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
def _class_key(jiang: np.ndarray, bing: np.ndarray, style: np.ndarray, rank: Int) -> Int:
    """``huarong.space.cases.Classes.key`` of one layout."""
    return (np.int64(jiang[rank]) << 8) | (np.int64(bing[rank]) << 4) | np.int64(style[rank])


@kernel
def searched_members(jiang: np.ndarray, bing: np.ndarray, style: np.ndarray,
                     searched: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ranks of the searched classes grouped by class, ascending within each (a counting
    sort): (ranks, starts) with class ``key``'s ranks at ``ranks[starts[key]:starts[key + 1]]``
    (empty for a class not searched).  ``searched[key]``: whether class ``key`` (as
    ``Classes.key`` numbers them) is searched."""
    keys = searched.shape[0]
    starts = np.zeros(keys + 1, dtype=np.int64)
    for rank in range(jiang.shape[0]):
        key = _class_key(jiang, bing, style, rank)
        if searched[key]:
            starts[key + 1] += 1
    for key in range(keys):
        starts[key + 1] += starts[key]
    filled = starts[:keys].copy()
    ranks = np.empty(starts[keys], dtype=np.int32)
    for rank in range(jiang.shape[0]):
        key = _class_key(jiang, bing, style, rank)
        if searched[key]:
            ranks[filled[key]] = rank
            filled[key] += 1
    return ranks, starts


@kernel
def _link_class(members: np.ndarray, codes: np.ndarray, automaton: np.ndarray,
                heads: np.ndarray, parent: np.ndarray, local: np.ndarray) -> None:
    """Union-find over one class (``members``: its ranks, ascending) in the class-local
    array ``local`` (cache-resident), through its moves right and down.  On entry
    ``parent[rank]`` holds each member's position in ``members``; on exit its root rank."""
    size = members.shape[0]
    for i in range(size):
        local[i] = i
    for i in range(size):
        board = code_to_board(codes[members[i]])
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
                _union(local, i, parent[rank_of(moved, automaton, heads)])
    # The smallest position of a set is its root, and positions follow ranks.
    for i in range(size):
        parent[members[i]] = members[_find(local, i)]


@parallel_kernel
def group_roots(codes: np.ndarray, jiang: np.ndarray, bing: np.ndarray, style: np.ndarray,
                searched: np.ndarray, members: np.ndarray, starts: np.ndarray, shares: np.ndarray,
                share_bounds: np.ndarray, automaton: np.ndarray, heads: np.ndarray
                ) -> np.ndarray:
    """The smallest rank of every layout's group.

    ``searched[key]`` tells whether a jiang-bing-style class (``jiang``, ``bing``, ``style``
    of each rank, keyed as ``Classes.key`` does) holds more than one group: the layouts of the
    other classes take the class's smallest rank as root with no search.
    ``members``/``starts`` are :func:`searched_members`; worker ``k`` links the classes
    ``shares[share_bounds[k]:share_bounds[k + 1]]``.  Steps never leave a class, so workers
    given whole classes never touch the same layouts."""
    n = codes.shape[0]
    parent = np.empty(n, dtype=np.int32)
    first = np.full(searched.shape[0], -1, dtype=np.int64)
    for rank in range(n):
        key = _class_key(jiang, bing, style, rank)
        if first[key] < 0:
            first[key] = rank
        parent[rank] = first[key]
    for key in range(searched.shape[0]):
        for i in range(starts[key], starts[key + 1]):
            parent[members[i]] = i - starts[key]
    largest = 0
    for key in range(searched.shape[0]):
        largest = max(largest, starts[key + 1] - starts[key])
    for worker in prange(share_bounds.shape[0] - 1):
        local = np.empty(largest, dtype=np.int32)
        for k in range(share_bounds[worker], share_bounds[worker + 1]):
            key = shares[k]
            _link_class(members[starts[key]:starts[key + 1]], codes, automaton, heads, parent,
                        local)
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
LINKS_PER_LAYOUT = 16
"""Room for links per frontier layout in a chunk's buffer (2.8 are used on average); a chunk
that runs out stops early and its rest is pushed again in the next round."""
CHUNKS = 256
NO_SLOT = -1


@kernel
def _position(code: Int, codes: np.ndarray, automaton: np.ndarray, heads: np.ndarray,
              all_layouts: bool) -> Int:
    if all_layouts:
        return rank_of(code, automaton, heads)
    return np.searchsorted(codes, code)


@parallel_kernel
def _push(pending: np.ndarray, frontier: np.ndarray, level: Int, codes: np.ndarray,
          steps: np.ndarray, automaton: np.ndarray, heads: np.ndarray, all_layouts: bool,
          children: np.ndarray, parents: np.ndarray, counts: np.ndarray, stops: np.ndarray
          ) -> None:
    """Mark the layouts one step beyond ``frontier[pending]`` (positions at ``level``) and
    record every (new layout, frontier index) link.  Chunk ``c`` of ``pending`` writes its
    ``counts[c]`` links from ``c * room`` on and stops before ``pending[stops[c]]`` when its
    room runs out.  Threads may mark the same layout at once: they write the same value and
    both record their link."""
    per_chunk = (pending.shape[0] + CHUNKS - 1) // CHUNKS
    room = children.shape[0] // CHUNKS
    for chunk in prange(CHUNKS):
        out = np.empty(80, dtype=np.int64)
        stack = np.empty(CELLS, dtype=np.int64)
        base = chunk * room
        count = 0
        i = min(chunk * per_chunk, pending.shape[0])
        end = min(i + per_chunk, pending.shape[0])
        while i < end and count + 80 <= room:
            parent = pending[i]
            n = board_neighbours(code_to_board(codes[frontier[parent]]), out, stack)
            for j in range(n):
                child = _position(board_to_code(out[j]), codes, automaton, heads, all_layouts)
                if steps[child] == NOT_REACHED:
                    steps[child] = level + 1
                elif steps[child] != level + 1:
                    continue
                children[base + count] = child
                parents[base + count] = parent
                count += 1
            i += 1
        counts[chunk] = count
        stops[chunk] = i


@kernel
def _unfinished(pending: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """The part of ``pending`` that :func:`_push` left for another round."""
    per_chunk = (pending.shape[0] + CHUNKS - 1) // CHUNKS
    left = np.empty(pending.shape[0], dtype=pending.dtype)
    size = 0
    for chunk in range(CHUNKS):
        end = min((chunk + 1) * per_chunk, pending.shape[0])
        for i in range(stops[chunk], end):
            left[size] = pending[i]
            size += 1
    return left[:size].copy()


@kernel
def _collect_links(children: np.ndarray, parents: np.ndarray, counts: np.ndarray,
                   slot: np.ndarray, frontier: np.ndarray, size: Int, link_bounds: np.ndarray,
                   link_parents: np.ndarray, gathered: Int) -> tuple[Int, Int]:
    """Append one round's links: each new layout gets the next frontier slot when first seen
    (``slot``, per position), and its links are chained by slot.  Returns the new sizes."""
    room = children.shape[0] // CHUNKS
    for chunk in range(CHUNKS):
        for k in range(chunk * room, chunk * room + counts[chunk]):
            child = children[k]
            if slot[child] == NO_SLOT:
                slot[child] = size
                frontier[size] = child
                size += 1
            link_bounds[gathered] = slot[child]
            link_parents[gathered] = parents[k]
            gathered += 1
    return size, gathered


@kernel
def _merge_goal_sets(size: Int, link_slots: np.ndarray, link_parents: np.ndarray,
                     set_bounds: np.ndarray, set_items: np.ndarray, stamps: np.ndarray,
                     stamp: Int) -> tuple[np.ndarray, np.ndarray, Int]:
    """For each of the ``size`` new layouts: the union of its parents' goal sets (goals as
    offsets from the first goal).  A goal is taken once per layout by stamping it with a
    number no other layout uses.  Returns (set bounds, set items, the next unused stamp)."""
    first_link = np.zeros(size + 1, dtype=np.int64)
    for k in range(link_slots.shape[0]):
        first_link[link_slots[k] + 1] += 1
    first_link = np.cumsum(first_link)
    filled = first_link[:-1].copy()
    by_child = np.empty(link_slots.shape[0], dtype=np.int32)
    for k in range(link_slots.shape[0]):
        by_child[filled[link_slots[k]]] = link_parents[k]
        filled[link_slots[k]] += 1
    bounds = np.zeros(size + 1, dtype=np.int64)
    items = np.empty(max(2 * set_items.shape[0], 1024), dtype=np.int32)
    used = np.int64(0)
    for child in range(size):
        if first_link[child + 1] - first_link[child] == 1:
            # One parent (the common case): its set as it is, no stamping.
            parent = by_child[first_link[child]]
            first, last = set_bounds[parent], set_bounds[parent + 1]
            items = _grow(items, used + last - first)
            items[used:used + last - first] = set_items[first:last]
            used += last - first
        else:
            for k in range(first_link[child], first_link[child + 1]):
                parent = by_child[k]
                items = _grow(items, used + set_bounds[parent + 1] - set_bounds[parent])
                for g in range(set_bounds[parent], set_bounds[parent + 1]):
                    goal = set_items[g]
                    if stamps[goal] != stamp:
                        stamps[goal] = stamp
                        items[used] = goal
                        used += 1
            stamp += 1
        bounds[child + 1] = used
    return bounds, items[:used].copy(), stamp


@kernel
def min_steps(codes: np.ndarray, automaton: np.ndarray, heads: np.ndarray, all_layouts: bool,
              progress: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(minimum steps to a goal, number of goal layouts at that distance) of every layout of
    ``codes`` (sorted; all layouts, or a set closed under steps); -1 steps when none.
    ``progress[0]`` counts the layouts reached so far, for a watcher in another thread."""
    n = codes.shape[0]
    steps = np.full(n, NOT_REACHED, dtype=np.int16)
    solutions = np.zeros(n, dtype=np.int32)
    slot = np.full(n, NO_SLOT, dtype=np.int32)
    first_goal = np.searchsorted(codes, np.int64(GOAL_HEAD) << 32)
    last_goal = np.searchsorted(codes, np.int64(GOAL_HEAD + 1) << 32)
    goals = int(last_goal - first_goal)
    stamps = np.full(goals, -1, dtype=np.int32)
    frontier = np.arange(first_goal, last_goal).astype(np.int32)
    next_frontier = np.empty(n, dtype=np.int32)
    set_bounds = np.arange(goals + 1)
    set_items = np.arange(goals).astype(np.int32)
    room = LINKS_PER_LAYOUT * max(goals, 1 << 16) // CHUNKS
    children = np.empty(room * CHUNKS, dtype=np.int32)
    parents = np.empty(room * CHUNKS, dtype=np.int32)
    counts = np.empty(CHUNKS, dtype=np.int64)
    stops = np.empty(CHUNKS, dtype=np.int64)
    stamp: Int = 0
    level: Int = 0
    size: Int = frontier.shape[0]
    while size:
        for i in range(size):
            steps[frontier[i]] = level
            solutions[frontier[i]] = set_bounds[i + 1] - set_bounds[i]
        progress[0] += size
        link_slots = np.empty(4 * size + 80, dtype=np.int32)
        link_parents = np.empty(4 * size + 80, dtype=np.int32)
        next_size: Int = 0
        gathered: Int = 0
        pending = np.arange(size).astype(np.int32)
        while pending.shape[0]:
            _push(pending, frontier, level, codes, steps, automaton, heads, all_layouts,
                  children, parents, counts, stops)
            link_slots = _grow(link_slots, gathered + counts.sum())
            link_parents = _grow(link_parents, gathered + counts.sum())
            next_size, gathered = _collect_links(children, parents, counts, slot,
                                                 next_frontier, next_size, link_slots,
                                                 link_parents, gathered)
            pending = _unfinished(pending, stops)
        frontier = next_frontier[:next_size].copy()
        for i in range(next_size):
            slot[frontier[i]] = NO_SLOT
        set_bounds, set_items, stamp = _merge_goal_sets(
            next_size, link_slots[:gathered], link_parents[:gathered], set_bounds, set_items,
            stamps, stamp)
        size = next_size
        level += 1
    return steps, solutions
