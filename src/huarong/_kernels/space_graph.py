"""The step graph of the whole space: group labelling and the minimum steps of every layout
(wrapped by :mod:`huarong.space.cases`; the perfect index is in :mod:`huarong._kernels.cases`).

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
from huarong._kernels.arrays import grown
from huarong._kernels.cases import rank_of
from huarong._kernels.klotski import (
    CAO,
    CELLS,
    COLS,
    FLAT_MASK,
    FLAT_PATTERN,
    GOAL_HEAD,
    Int,
    board_neighbours,
    board_to_code,
    code_to_board,
    occupied_cells,
)

NOT_REACHED = -1


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
def number_groups(roots: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Groups numbered by their smallest rank: (group of each layout, size of each group,
    smallest rank of each group).

    The group of each layout is written over ``roots`` (:func:`group_roots`) and returned as
    the first array: arrays over all 29 M layouts are what the whole-space tables' memory
    is made of, and the roots are not needed afterwards."""
    n = roots.shape[0]
    count = 0
    for rank in range(n):
        if roots[rank] == rank:
            count += 1
    sizes = np.zeros(count, dtype=np.int32)
    firsts = np.empty(count, dtype=np.int64)
    numbered = 0
    for rank in range(n):
        root = roots[rank]
        if root == rank:
            firsts[numbered] = rank
            group = numbered
            numbered += 1
        else:
            group = roots[root]  # a smaller rank, already numbered
        roots[rank] = group
        sizes[group] += 1
    return roots, sizes, firsts


@kernel
def indices_in_groups(group: np.ndarray, count: int) -> np.ndarray:
    """The index of each layout in its group (the layouts of a group counted in rank
    order), ``group`` numbering ``count`` groups."""
    seen = np.zeros(count, dtype=np.int32)
    index = np.empty(group.shape[0], dtype=np.int32)
    for rank in range(group.shape[0]):
        index[rank] = seen[group[rank]]
        seen[group[rank]] += 1
    return index


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
            if used + last - first > items.shape[0]:
                items = grown(items, used, used + last - first)
            items[used:used + last - first] = set_items[first:last]
            used += last - first
        else:
            for k in range(first_link[child], first_link[child + 1]):
                parent = by_child[k]
                needed = used + set_bounds[parent + 1] - set_bounds[parent]
                if needed > items.shape[0]:
                    items = grown(items, used, needed)
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
            needed = gathered + counts.sum()
            if needed > link_slots.shape[0]:
                link_slots = grown(link_slots, gathered, needed)
                link_parents = grown(link_parents, gathered, needed)
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
