"""Farthest layouts and solutions (SPEC §5) from every layout of a group at once.

A breadth-first search from each of a group's layouts costs size² visits.  Here 64 searches
run together: bit ``b`` of a node's int64 words stands for source ``b`` of the batch, and one
pass over a node's frontier word advances all 64 searches across its edges.  Only nodes with a
non-zero frontier word are visited.  :func:`batch_order` groups the sources into tight
clusters, so their frontiers cover nearly the same nodes and a level of the batch costs a
small multiple of one search's level (about 12x for 64 sources instead of 64x).

Per node, one row of words (one row, so a neighbour costs one cache line):

- ``VISITED``: sources that have reached the node;
- ``FRONTIER``: sources that reached it at the current level;
- ``INCOMING``: sources that reach it at the next level;
- ``BLOCKED``: sources for which some shortest path to the node passes a goal layout at or
  before it.  A goal reached by a source whose bit is not blocked there is a solution.

``WORDS`` words per role would run 64 * WORDS sources per sweep: fewer visits per source, but
wider rows; on the 2-core target machine the work is bound by memory traffic and one word was
the fastest measured.

Words are int64, never uint64: numba turns uint64/int64 mixes into float64.  Bit 63 is the sign
bit, which the and/or/not operations used here do not care about.  The kernels are nogil, so
the caller runs batches on several threads.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.klotski import is_goal_board

WORDS = 1
SOURCES_PER_BATCH = 64 * WORDS
# Column blocks of the per-node state rows.
VISITED, FRONTIER, INCOMING, BLOCKED = 0, WORDS, 2 * WORDS, 3 * WORDS


@kernel
def goal_flags(boards: np.ndarray) -> np.ndarray:
    """Whether each board is a goal layout."""
    flags = np.empty(boards.shape[0], dtype=np.bool_)
    for i in range(boards.shape[0]):
        flags[i] = is_goal_board(boards[i])
    return flags


@kernel
def _record(records: np.ndarray, count: np.int64, word: np.int64, first_source: np.int64,
            node: np.int64, level: np.int64) -> tuple[np.ndarray, np.int64]:
    """Append a row (source, ``node``, ``level``) to ``records`` for every bit set in
    ``word``, whose bit ``b`` stands for source ``first_source + b``; grow it when full."""
    if count + 64 > records.shape[0]:
        bigger = np.empty((2 * records.shape[0] + 64, 3), dtype=np.int64)
        bigger[:count] = records[:count]
        records = bigger
    for bit in range(64):
        if word == 0:
            break
        if (word >> bit) & 1:
            word &= ~(np.int64(1) << bit)
            records[count, 0] = first_source + bit
            records[count, 1] = node
            records[count, 2] = level
            count += 1
    return records, count


@kernel
def sweep_batch(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                sources: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Search from every node of ``sources`` (at most ``SOURCES_PER_BATCH``, distinct) at
    once over the step graph ``offsets``/``targets`` (CSR over node indices) whose goal nodes
    are flagged in ``goal``.

    Returns ``(farthest_steps, min_steps, farthest, solutions)``: per source (its position
    in ``sources``) the farthest steps and the minimum steps (-1 without a solution); then
    every farthest layout and every solution of every source as rows (source position, node,
    steps), nearest first."""
    size = offsets.shape[0] - 1
    count = sources.shape[0]
    # One row per node holds all its words, so a neighbour costs one or two cache lines.
    state = np.zeros((size, 4 * WORDS), dtype=np.int64)
    active = np.empty(size, dtype=np.int64)
    touched = np.empty(size, dtype=np.int64)
    queued = np.zeros(size, dtype=np.bool_)
    alive = np.zeros(WORDS, dtype=np.int64)
    reached = np.zeros(WORDS, dtype=np.int64)
    farthest = np.empty((4 * count, 3), dtype=np.int64)
    farthest_count = np.int64(0)
    solutions = np.empty((4 * count, 3), dtype=np.int64)
    solution_count = np.int64(0)

    for position in range(count):
        node = sources[position]
        w, word = position // 64, np.int64(1) << (position % 64)
        state[node, VISITED + w] = state[node, FRONTIER + w] = word
        alive[w] |= word
        active[position] = node
        if goal[node]:
            state[node, BLOCKED + w] = word
            solutions, solution_count = _record(solutions, solution_count, word, 64 * w,
                                                node, 0)
    active_count = count
    level = np.int64(0)

    while active_count:
        touched_count = 0
        for a in range(active_count):
            node = active[a]
            for e in range(offsets[node], offsets[node + 1]):
                neighbour = targets[e]
                arrived = np.int64(0)
                for w in range(WORDS):
                    new = state[node, FRONTIER + w] & ~state[neighbour, VISITED + w]
                    state[neighbour, INCOMING + w] |= new
                    state[neighbour, BLOCKED + w] |= state[node, BLOCKED + w] & new
                    arrived |= new
                if arrived != 0 and not queued[neighbour]:
                    queued[neighbour] = True
                    touched[touched_count] = neighbour
                    touched_count += 1
        reached[:] = 0
        for t in range(touched_count):
            for w in range(WORDS):
                reached[w] |= state[touched[t], INCOMING + w]
        for w in range(WORDS):
            # Sources that reach nothing new have their farthest layer in the frontier.
            ending = alive[w] & ~reached[w]
            for a in range(active_count):
                hit = state[active[a], FRONTIER + w] & ending
                state[active[a], FRONTIER + w] = 0
                if hit:
                    farthest, farthest_count = _record(farthest, farthest_count, hit, 64 * w,
                                                       active[a], level)
            alive[w] = reached[w]
        level += 1

        for t in range(touched_count):
            node = touched[t]
            queued[node] = False
            for w in range(WORDS):
                new = state[node, INCOMING + w]
                state[node, INCOMING + w] = 0
                state[node, VISITED + w] |= new
                state[node, FRONTIER + w] = new
                if goal[node]:
                    # Reached where no shortest path has passed a goal yet: a solution.
                    fresh = new & ~state[node, BLOCKED + w]
                    state[node, BLOCKED + w] |= new
                    if fresh:
                        solutions, solution_count = _record(solutions, solution_count, fresh,
                                                            64 * w, node, level)
        active, touched = touched, active
        active_count = touched_count

    farthest_steps = np.zeros(count, dtype=np.int64)
    for row_index in range(farthest_count):
        farthest_steps[farthest[row_index, 0]] = farthest[row_index, 2]
    min_steps = np.full(count, -1, dtype=np.int64)
    for row_index in range(solution_count - 1, -1, -1):
        min_steps[solutions[row_index, 0]] = solutions[row_index, 2]
    return (farthest_steps, min_steps, farthest[:farthest_count].copy(),
            solutions[:solution_count].copy())


@kernel
def batch_order(offsets: np.ndarray, targets: np.ndarray, batch_size: np.int64) -> np.ndarray:
    """The nodes 0..n-1 reordered so that each run of ``batch_size`` is a tight cluster.

    Sources searched together should lie close to one another, so that their frontiers cover
    nearly the same nodes.  Each cluster grows breadth-first from the first node not yet
    taken, taking the untaken nodes it meets; it may cross taken nodes, but only within a
    bounded search, so the last clusters of a group may come out scattered and short (a run
    then holds several of them)."""
    size = offsets.shape[0] - 1
    search_limit = 64 * batch_size
    taken = np.zeros(size, dtype=np.bool_)
    seen_in = np.full(size, -1, dtype=np.int64)
    queue = np.empty(size, dtype=np.int64)
    order = np.empty(size, dtype=np.int64)
    placed = 0
    for center in range(size):
        if taken[center]:
            continue
        wanted = min(batch_size - placed % batch_size, size - placed)
        queue[0] = center
        seen_in[center] = center
        head, tail = 0, 1
        while head < tail and wanted and tail < search_limit:
            node = queue[head]
            head += 1
            if not taken[node]:
                taken[node] = True
                order[placed] = node
                placed += 1
                wanted -= 1
            for e in range(offsets[node], offsets[node + 1]):
                neighbour = targets[e]
                if seen_in[neighbour] != center:
                    seen_in[neighbour] = center
                    queue[tail] = neighbour
                    tail += 1
        # The search stopped on its size limit: take what it already queued.
        while head < tail and wanted:
            node = queue[head]
            head += 1
            if not taken[node]:
                taken[node] = True
                order[placed] = node
                placed += 1
                wanted -= 1
    return order
