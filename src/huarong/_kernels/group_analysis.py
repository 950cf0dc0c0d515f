"""Farthest layouts and solutions (SPEC §5) from every layout of a group at once.

A breadth-first search from each of a group's layouts costs size² visits.  Here 64 searches
run together: every node carries one int64 word per role, bit ``b`` standing for source
``first + b``, and one sweep over a frontier word advances all 64 searches across an edge.
Sources are consecutive in the group's BFS order, so they lie close together and their
frontiers mostly cover the same nodes: a level costs little more than one search's level.
Only nodes whose frontier word is non-zero are visited.

Per node, three words:

- ``visited``: sources that have reached the node;
- ``frontier``: sources that reached it at the current level;
- ``blocked``: sources for which some shortest path to the node passes a goal layout at or
  before it (only meaningful for the bits in ``visited``).  A goal reached by a source whose
  bit is not blocked there is one of that source's solutions.

Words are int64, never uint64: numba turns uint64/int64 mixes into float64.  Bit 63 is the sign
bit, which the and/or/not operations used here do not care about.

The kernels are nogil, so the caller runs batches on several threads.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.klotski import is_goal_board

SOURCES_PER_BATCH = 64


@kernel
def goal_flags(boards: np.ndarray) -> np.ndarray:
    """Whether each board is a goal layout."""
    flags = np.empty(boards.shape[0], dtype=np.bool_)
    for i in range(boards.shape[0]):
        flags[i] = is_goal_board(boards[i])
    return flags


@kernel
def _room(array: np.ndarray, needed: np.int64) -> np.ndarray:
    """``array``, or a copy twice as large when ``needed`` entries would not fit."""
    if needed <= array.shape[0]:
        return array
    bigger = np.empty(max(needed, 2 * array.shape[0]), dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


@kernel
def _record(sources: np.ndarray, nodes: np.ndarray, steps: np.ndarray, count: np.int64,
            bits: np.ndarray, node: np.int64, level: np.int64
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.int64]:
    """Append (source, ``node``, ``level``) for every source whose bit is set in ``bits``."""
    needed = count + 64 * bits.shape[0]
    sources, nodes, steps = _room(sources, needed), _room(nodes, needed), _room(steps, needed)
    for w in range(bits.shape[0]):
        word = bits[w]
        for bit in range(64):
            if word == 0:
                break
            if (word >> bit) & 1:
                word &= ~(np.int64(1) << bit)
                sources[count] = 64 * w + bit
                nodes[count] = node
                steps[count] = level
                count += 1
    return sources, nodes, steps, count


@kernel
def sweep_batch(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                sources: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                              np.ndarray, np.ndarray, np.ndarray]:
    """Search from every node of ``sources`` at once over the step graph
    ``offsets``/``targets`` (CSR over node indices) whose goal nodes are flagged in ``goal``.

    Returns ``(farthest_steps, min_steps, farthest_source, farthest_node, solution_source,
    solution_node, solution_steps)``: per source (its position in ``sources``) the farthest
    steps and the minimum steps (-1 without a solution); then as parallel arrays every
    (source, farthest layout) pair and every (source, solution, steps) triple."""
    size = offsets.shape[0] - 1
    count = sources.shape[0]
    words = (count + 63) // 64
    visited = np.zeros((size, words), dtype=np.int64)
    frontier = np.zeros((size, words), dtype=np.int64)
    blocked = np.zeros((size, words), dtype=np.int64)
    incoming = np.zeros((size, words), dtype=np.int64)
    queued = np.zeros(size, dtype=np.bool_)
    active = np.empty(size, dtype=np.int64)
    touched = np.empty(size, dtype=np.int64)
    alive = np.zeros(words, dtype=np.int64)
    reached = np.zeros(words, dtype=np.int64)
    hit = np.zeros(words, dtype=np.int64)

    farthest_steps = np.zeros(count, dtype=np.int64)
    farthest_source = np.empty(4 * count, dtype=np.int64)
    farthest_node = np.empty(4 * count, dtype=np.int64)
    farthest_level = np.empty(4 * count, dtype=np.int64)
    farthest_count = np.int64(0)
    solution_source = np.empty(4 * count, dtype=np.int64)
    solution_node = np.empty(4 * count, dtype=np.int64)
    solution_steps = np.empty(4 * count, dtype=np.int64)
    solution_count = np.int64(0)

    active_count = 0
    for position in range(count):
        node = sources[position]
        w, word = position // 64, np.int64(1) << (position % 64)
        visited[node, w] |= word
        frontier[node, w] |= word
        alive[w] |= word
        if not queued[node]:
            queued[node] = True
            active[active_count] = node
            active_count += 1
    level = np.int64(0)
    for a in range(active_count):
        node = active[a]
        queued[node] = False
        if goal[node]:
            blocked[node, :] = frontier[node, :]
            solution_source, solution_node, solution_steps, solution_count = _record(
                solution_source, solution_node, solution_steps, solution_count,
                frontier[node], node, level)

    while active_count:
        touched_count = 0
        for a in range(active_count):
            node = active[a]
            node_frontier = frontier[node]
            node_blocked = blocked[node]
            for e in range(offsets[node], offsets[node + 1]):
                neighbour = targets[e]
                neighbour_visited = visited[neighbour]
                neighbour_incoming = incoming[neighbour]
                neighbour_blocked = blocked[neighbour]
                arrived = False
                for w in range(words):
                    new = node_frontier[w] & ~neighbour_visited[w]
                    if new != 0:
                        neighbour_incoming[w] |= new
                        neighbour_blocked[w] |= node_blocked[w] & new
                        arrived = True
                if arrived and not queued[neighbour]:
                    queued[neighbour] = True
                    touched[touched_count] = neighbour
                    touched_count += 1

        reached[:] = 0
        for t in range(touched_count):
            for w in range(words):
                reached[w] |= incoming[touched[t], w]
        # Sources that reach nothing new have their farthest layer in the frontier.
        ending = False
        for w in range(words):
            alive[w] &= ~reached[w]
            ending = ending or alive[w] != 0
        for a in range(active_count):
            node = active[a]
            if ending:
                for w in range(words):
                    hit[w] = frontier[node, w] & alive[w]
                farthest_source, farthest_node, farthest_level, farthest_count = _record(
                    farthest_source, farthest_node, farthest_level, farthest_count, hit, node,
                    level)
            frontier[node, :] = 0
        alive[:] = reached
        level += 1

        for t in range(touched_count):
            node = touched[t]
            queued[node] = False
            for w in range(words):
                new = incoming[node, w]
                incoming[node, w] = 0
                visited[node, w] |= new
                frontier[node, w] = new
                # A goal reached where no shortest path has passed a goal yet is a solution.
                hit[w] = new & ~blocked[node, w] if goal[node] else 0
                if goal[node]:
                    blocked[node, w] |= new
            if goal[node]:
                solution_source, solution_node, solution_steps, solution_count = _record(
                    solution_source, solution_node, solution_steps, solution_count, hit, node,
                    level)
        active, touched = touched, active
        active_count = touched_count

    for f in range(farthest_count):
        farthest_steps[farthest_source[f]] = farthest_level[f]
    min_steps = np.full(count, -1, dtype=np.int64)
    for s in range(solution_count - 1, -1, -1):
        min_steps[solution_source[s]] = solution_steps[s]
    return (farthest_steps, min_steps, farthest_source[:farthest_count].copy(),
            farthest_node[:farthest_count].copy(), solution_source[:solution_count].copy(),
            solution_node[:solution_count].copy(), solution_steps[:solution_count].copy())


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
