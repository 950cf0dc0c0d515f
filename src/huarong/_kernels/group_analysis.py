"""Farthest layouts and solutions (docs §5) from every layout of a group at once.

A breadth-first search from each of a group's layouts costs size² visits.  Here 64 searches
run together: bit ``b`` of a node's int64 words stands for source ``b`` of the batch, and one
pass over a node's frontier word advances all 64 searches across its edges.  Only nodes with a
non-zero frontier word are visited.  :func:`batch_order` groups the sources into tight
clusters, so their frontiers cover nearly the same nodes and a level of the batch costs a
small multiple of one search's level (about 12x for 64 sources instead of 64x).

Per node, one word in each of four arrays:

- ``visited``: sources that have reached the node;
- ``frontier``: sources that reached it at the current level;
- ``incoming``: sources that reach it at the next level;
- ``blocked``: sources for which some shortest path to the node passes a goal layout at or
  before it.  A goal reached by a source whose bit is not blocked there is a solution.

Measured and dropped: several words per node (128 or 256 sources a sweep; fewer visits per
source but no faster overall) and the four words interleaved in one row per node (slower).

Words are int64, never uint64: numba turns uint64/int64 mixes into float64.  Bit 63 is the sign
bit, which the and/or/not operations used here do not care about.  The kernels are nogil, so
the caller runs batches on several threads.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.klotski import is_goal_board

SOURCES_PER_BATCH = 64
# Room for the rows of farthest layouts and of solutions of one batch, first tried: enough for
# the standard layouts' groups in one run.
ROWS_FIRST_TRIED = np.int64(64 * 64)


@kernel
def goal_flags(boards: np.ndarray) -> np.ndarray:
    """Whether each board is a goal layout."""
    flags = np.empty(boards.shape[0], dtype=np.bool_)
    for i in range(boards.shape[0]):
        flags[i] = is_goal_board(boards[i])
    return flags


@kernel
def _record(records: np.ndarray, count: np.int64, word: np.int64, node: np.int64,
            level: np.int64) -> np.int64:
    """Write a row (source, ``node``, ``level``) to ``records`` for every source whose bit is
    set in ``word``; return the new row count.  Rows past the end are counted, not written:
    the caller sees the overflow and runs again with more room (growing the array here would
    make numba reference-count it inside the hot loop, which doubled the run time)."""
    for bit in range(64):
        if word == 0:
            break
        if (word >> bit) & 1:
            word &= ~(np.int64(1) << bit)
            if count < records.shape[0]:
                records[count, 0] = bit
                records[count, 1] = node
                records[count, 2] = level
            count += 1
    return count


@kernel
def push_level(offsets: np.ndarray, targets: np.ndarray, active: np.ndarray,
               active_count: int, frontier: np.ndarray, visited: np.ndarray,
               incoming: np.ndarray, blocked: np.ndarray, touched: np.ndarray
               ) -> tuple[int, np.int64]:
    """One level of a 64-source sweep: every frontier word of the ``active`` nodes crosses
    their edges into ``incoming`` (and ``blocked`` follows it).  The nodes reached anew are
    listed in ``touched``; returns their count and the sources that reached any of them."""
    touched_count = 0
    for a in range(active_count):
        node = active[a]
        word = frontier[node]
        through_goal = blocked[node]
        for e in range(offsets[node], offsets[node + 1]):
            neighbour = targets[e]
            new = word & ~visited[neighbour]
            if new == 0:
                continue
            if incoming[neighbour] == 0:
                touched[touched_count] = neighbour
                touched_count += 1
            incoming[neighbour] |= new
            # Most nodes are never behind a goal: skip the write for them.
            if through_goal & new:
                blocked[neighbour] |= through_goal & new

    reached = np.int64(0)
    for t in range(touched_count):
        reached |= incoming[touched[t]]
    return touched_count, reached


@kernel
def sweep_batch(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                sources: np.ndarray, capacity: np.int64 = ROWS_FIRST_TRIED
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_sweep_within`, run again with eight times the room for rows until they fit."""
    while True:
        farthest_steps, min_steps, farthest, solutions, complete = _sweep_within(
            offsets, targets, goal, sources, capacity)
        if complete:
            return farthest_steps, min_steps, farthest, solutions
        capacity *= 8


@kernel
def _sweep_within(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                  sources: np.ndarray, capacity: np.int64
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:
    """Search from every node of ``sources`` (at most 64, distinct) at once over the step
    graph ``offsets``/``targets`` (CSR over node indices) whose goal nodes are flagged in
    ``goal``.

    Returns ``(farthest_steps, min_steps, farthest, solutions)``: per source (its position
    in ``sources``) the farthest steps and the minimum steps (-1 without a solution); then
    every farthest layout and every solution of every source as rows (source position, node,
    steps), nearest first; and False when ``capacity`` rows were too few for either list."""
    size = offsets.shape[0] - 1
    count = sources.shape[0]
    visited = np.zeros(size, dtype=np.int64)
    frontier = np.zeros(size, dtype=np.int64)
    incoming = np.zeros(size, dtype=np.int64)
    blocked = np.zeros(size, dtype=np.int64)
    active = np.empty(size, dtype=np.int64)
    touched = np.empty(size, dtype=np.int64)
    farthest = np.empty((capacity, 3), dtype=np.int64)
    farthest_count = np.int64(0)
    solutions = np.empty((capacity, 3), dtype=np.int64)
    solution_count = np.int64(0)

    alive = np.int64(0)
    for position in range(count):
        node = sources[position]
        word = np.int64(1) << position
        visited[node] = frontier[node] = word
        active[position] = node
        alive |= word
        if goal[node]:
            blocked[node] = word
            solution_count = _record(solutions, solution_count, word, node, np.int64(0))
    active_count = count
    level = np.int64(0)

    while active_count:
        touched_count, reached = push_level(offsets, targets, active, active_count, frontier,
                                            visited, incoming, blocked, touched)
        # Sources that reach nothing new have their farthest layer in the frontier.
        ending = alive & ~reached
        for a in range(active_count):
            node = active[a]
            if frontier[node] & ending:
                farthest_count = _record(farthest, farthest_count,
                                                   frontier[node] & ending, node, level)
            frontier[node] = 0
        alive = reached
        level += 1

        for t in range(touched_count):
            node = touched[t]
            new = incoming[node]
            incoming[node] = 0
            visited[node] |= new
            frontier[node] = new
            if goal[node]:
                # Reached where no shortest path has passed a goal yet: a solution.
                fresh = new & ~blocked[node]
                blocked[node] |= new
                if fresh:
                    solution_count = _record(solutions, solution_count, fresh, node,
                                                        level)
        active, touched = touched, active
        active_count = touched_count

    complete = bool(farthest_count <= capacity and solution_count <= capacity)
    farthest_count = min(farthest_count, capacity)
    solution_count = min(solution_count, capacity)
    farthest_steps = np.zeros(count, dtype=np.int64)
    for row in range(farthest_count):
        farthest_steps[farthest[row, 0]] = farthest[row, 2]
    min_steps = np.full(count, -1, dtype=np.int64)
    for row in range(solution_count - 1, -1, -1):
        min_steps[solutions[row, 0]] = solutions[row, 2]
    return (farthest_steps, min_steps, farthest[:farthest_count].copy(),
            solutions[:solution_count].copy(), complete)


@kernel
def _take(node: int, taken: np.ndarray, order: np.ndarray, placed: int) -> int:
    """Append ``node`` to ``order`` unless it is already taken; returns the new count placed."""
    if not taken[node]:
        taken[node] = True
        order[placed] = node
        placed += 1
    return placed


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
        # The cluster fills the current run of ``batch_size`` (or what is left of the nodes).
        cluster_end = min(placed + batch_size - placed % batch_size, size)
        queue[0] = center
        seen_in[center] = center
        head, tail = 0, 1
        while head < tail and placed < cluster_end and tail < search_limit:
            node = queue[head]
            head += 1
            placed = _take(node, taken, order, placed)
            for e in range(offsets[node], offsets[node + 1]):
                neighbour = targets[e]
                if seen_in[neighbour] != center:
                    seen_in[neighbour] = center
                    queue[tail] = neighbour
                    tail += 1
        # The search stopped on its size limit: take what it already queued.
        while head < tail and placed < cluster_end:
            placed = _take(queue[head], taken, order, placed)
            head += 1
    return order
