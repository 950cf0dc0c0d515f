"""Counts-only layer sweeps: the five layer figures of many sources at once, no rows recorded.

The same 64-source bit-parallel sweep as :mod:`huarong._kernels.group_analysis` (bit ``b`` of a
node's int64 words stands for source ``b``; ``visited``, ``frontier``, ``incoming`` and
``blocked`` words per node; a goal reached by a source whose bit is not blocked there is a
solution), but what the database needs is only five numbers per source, so nothing is written
per farthest layout or per solution: each one found adds one to its source's counter.  The
counters are walked only over set bits (a de Bruijn look-up finds the lowest set bit), so a
batch costs a few operations per solution instead of a 64-bit loop and a stored row.

Words are int64, never uint64 (numba turns uint64/int64 mixes into float64).
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel

FIGURES = 5
"""Rows of :func:`count_sweep`'s result: farthest steps, farthest count, minimum solution
steps (-1 without a solution), solutions at the minimum steps, solutions."""
FARTHEST_STEPS, FARTHEST_COUNT, MIN_STEPS, MIN_COUNT, SOLUTION_COUNT = range(FIGURES)

_DE_BRUIJN = 0x03F79D71B4CB0A89


def _lowest_bit_table() -> np.ndarray:
    table = np.empty(64, dtype=np.int64)
    for bit in range(64):
        table[(((1 << bit) * _DE_BRUIJN) % (1 << 64)) >> 58] = bit
    return table


LOWEST_BIT = _lowest_bit_table()
_DE_BRUIJN_WORD = np.int64(_DE_BRUIJN)


@kernel
def lowest_bit(word: np.int64) -> np.int64:
    """The index of the lowest set bit of a non-zero word."""
    low = word & -word
    return LOWEST_BIT[((low * _DE_BRUIJN_WORD) >> 58) & 63]


@kernel
def _count_solutions(figures: np.ndarray, fresh: np.int64, level: np.int64) -> None:
    """One more solution at ``level`` for every source whose bit is set in ``fresh``."""
    while fresh:
        bit = lowest_bit(fresh)
        fresh &= fresh - 1
        figures[SOLUTION_COUNT, bit] += 1
        if figures[MIN_STEPS, bit] < 0:
            figures[MIN_STEPS, bit] = level
        if figures[MIN_STEPS, bit] == level:
            figures[MIN_COUNT, bit] += 1


@kernel
def count_sweep(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                sources: np.ndarray) -> np.ndarray:
    """Search from every node of ``sources`` (at most 64, distinct) at once over the step
    graph ``offsets``/``targets`` (CSR over node indices) whose goal nodes are flagged in
    ``goal``.  Returns the figures as a (:data:`FIGURES`, len(sources)) int64 array, one column
    per source."""
    size = offsets.shape[0] - 1
    count = sources.shape[0]
    figures = np.zeros((FIGURES, count), dtype=np.int64)
    figures[MIN_STEPS, :] = -1
    visited = np.zeros(size, dtype=np.int64)
    frontier = np.zeros(size, dtype=np.int64)
    incoming = np.zeros(size, dtype=np.int64)
    blocked = np.zeros(size, dtype=np.int64)
    active = np.empty(size, dtype=np.int64)
    touched = np.empty(size, dtype=np.int64)

    alive = np.int64(0)
    for position in range(count):
        node = sources[position]
        word = np.int64(1) << position
        visited[node] = frontier[node] = word
        active[position] = node
        alive |= word
        if goal[node]:
            blocked[node] = word
            _count_solutions(figures, word, np.int64(0))
    active_count = count
    level = np.int64(0)

    while active_count:
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
                if through_goal & new:
                    blocked[neighbour] |= through_goal & new

        reached = np.int64(0)
        for t in range(touched_count):
            reached |= incoming[touched[t]]
        # Sources that reach nothing new have their farthest layer in the frontier.
        ending = alive & ~reached
        for a in range(active_count):
            node = active[a]
            last = frontier[node] & ending
            while last:
                figures[FARTHEST_COUNT, lowest_bit(last)] += 1
                last &= last - 1
            frontier[node] = 0
        while ending:
            figures[FARTHEST_STEPS, lowest_bit(ending)] = level
            ending &= ending - 1
        alive = reached
        level += 1

        for t in range(touched_count):
            node = touched[t]
            new = incoming[node]
            incoming[node] = 0
            visited[node] |= new
            frontier[node] = new
            if goal[node]:
                fresh = new & ~blocked[node]
                blocked[node] |= new
                if fresh:
                    _count_solutions(figures, fresh, level)
        active, touched = touched, active
        active_count = touched_count
    return figures


@kernel
def count_sweeps(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                 sources: np.ndarray, batch: np.int64, progress: np.ndarray) -> np.ndarray:
    """:func:`count_sweep` over ``sources`` in runs of ``batch``: the figures of every source,
    one column each.  ``progress[0]`` counts the sources done (read by another thread);
    ``progress[1]`` set non-zero by another thread stops the work after the current run
    (the columns not reached are left at zero)."""
    figures = np.zeros((FIGURES, sources.shape[0]), dtype=np.int64)
    for first in range(0, sources.shape[0], batch):
        if progress[1]:
            break
        stop = min(first + batch, sources.shape[0])
        figures[:, first:stop] = count_sweep(offsets, targets, goal, sources[first:stop])
        progress[0] += stop - first
    return figures


@kernel
def cluster_sources(offsets: np.ndarray, targets: np.ndarray, partner: np.ndarray,
                    batch: np.int64) -> np.ndarray:
    """One source of each mirror pair of nodes (``partner[v]``: the node of v's mirror image,
    v itself when symmetric; or -1 everywhere when the mirror images lie in another group, so
    every node is a source), ordered so that each run of ``batch`` is a tight cluster.

    A cluster grows breadth-first from the first node not yet taken and takes the nodes it
    meets, whichever member of a pair it meets first: both share their figures, and taking the
    near one keeps the cluster's frontiers together.  The search through taken nodes is
    bounded, so clusters at the end may come out short and scattered."""
    size = offsets.shape[0] - 1
    search_limit = 64 * batch
    taken = np.zeros(size, dtype=np.bool_)
    seen_in = np.full(size, -1, dtype=np.int64)
    queue = np.empty(size, dtype=np.int64)
    order = np.empty(size, dtype=np.int64)
    placed = 0
    for center in range(size):
        if taken[center]:
            continue
        cluster_end = placed + batch - placed % batch
        queue[0] = center
        seen_in[center] = center
        head, tail = 0, 1
        while head < tail and placed < cluster_end:
            node = queue[head]
            head += 1
            if not taken[node]:
                taken[node] = True
                if partner[node] >= 0:
                    taken[partner[node]] = True
                order[placed] = node
                placed += 1
            if tail >= search_limit:
                continue
            for e in range(offsets[node], offsets[node + 1]):
                neighbour = targets[e]
                if seen_in[neighbour] != center:
                    seen_in[neighbour] = center
                    queue[tail] = neighbour
                    tail += 1
    return order[:placed].copy()
