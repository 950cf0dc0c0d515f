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
from huarong._kernels.group_analysis import push_level

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
def _found_goal(figures: np.ndarray, fresh: np.int64, lane0: np.int64,
                level: np.int64) -> None:
    """One more solution at ``level`` for source ``lane0 + b``, for every set bit b of
    ``fresh``."""
    while fresh:
        lane = lane0 + lowest_bit(fresh)
        fresh &= fresh - 1
        figures[SOLUTION_COUNT, lane] += 1
        if figures[MIN_STEPS, lane] < 0:
            figures[MIN_STEPS, lane] = level
        if figures[MIN_STEPS, lane] == level:
            figures[MIN_COUNT, lane] += 1


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
            _found_goal(figures, word, np.int64(0), np.int64(0))
    active_count = count
    level = np.int64(0)

    while active_count:
        touched_count, reached = push_level(offsets, targets, active, active_count, frontier,
                                            visited, incoming, blocked, touched)
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
                    _found_goal(figures, fresh, np.int64(0), level)
        active, touched = touched, active
        active_count = touched_count
    return figures


@kernel
def count_sweeps(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                 sources: np.ndarray, batch: np.int64, progress: np.ndarray) -> np.ndarray:
    """:func:`count_sweep` (``batch`` 64) or :func:`count_sweep_wide` (more) over ``sources``
    in runs of ``batch``: the figures of every source, one column each.  ``progress[0]``
    counts the sources done (read by another thread); ``progress[1]`` set non-zero by another
    thread stops the work after the current run (the columns not reached are left at
    zero)."""
    figures = np.zeros((FIGURES, sources.shape[0]), dtype=np.int64)
    for first in range(0, sources.shape[0], batch):
        if progress[1]:
            break
        stop = min(first + batch, sources.shape[0])
        if batch > 64:
            figures[:, first:stop] = count_sweep_wide(offsets, targets, goal,
                                                      sources[first:stop])
        else:
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


# Direction switch of :func:`count_sweep_wide`: a level is pulled (every node gathers from its
# neighbours) when its frontier holds more than 1/PULL_FRACTION of the nodes, else pushed.
PULL_FRACTION = 8


@kernel
def _count_bits(figures: np.ndarray, row: int, word: np.int64, lane0: np.int64) -> None:
    """Add one to ``figures[row, lane0 + b]`` for every set bit b of ``word``."""
    while word:
        figures[row, lane0 + lowest_bit(word)] += 1
        word &= word - 1


@kernel
def _zero_row(array: np.ndarray, node: np.int64) -> bool:
    for w in range(array.shape[1]):  # noqa: SIM110 (a plain loop compiles to less in numba)
        if array[node, w]:
            return False
    return True


@kernel
def count_sweep_wide(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                     sources: np.ndarray) -> np.ndarray:
    """:func:`count_sweep` for up to 64 x W sources at once (W = ceil(len(sources) / 64)
    words per node), each level either pushed from the frontier's nodes (when they are few)
    or pulled: every node not yet reached by all sources gathers from its neighbours (a
    dense level: no scattered writes, and a node every source has reached costs nothing).

    Per node and word: ``visited``, ``frontier`` (reached at this level, non-zero only on
    the nodes listed in ``active``), ``nxt`` (the next level, listed in ``listed``) and
    ``blocked`` (some shortest path passes a goal at or before the node)."""
    size = offsets.shape[0] - 1
    count = sources.shape[0]
    words = (count + 63) // 64
    figures = np.zeros((FIGURES, count), dtype=np.int64)
    figures[MIN_STEPS, :] = -1
    visited = np.zeros((size, words), dtype=np.int64)
    frontier = np.zeros((size, words), dtype=np.int64)
    nxt = np.zeros((size, words), dtype=np.int64)
    blocked = np.zeros((size, words), dtype=np.int64)
    active = np.empty(size, dtype=np.int64)
    listed = np.empty(size, dtype=np.int64)
    alive = np.zeros(words, dtype=np.int64)
    reached = np.zeros(words, dtype=np.int64)
    gathered = np.zeros(words, dtype=np.int64)
    through = np.zeros(words, dtype=np.int64)
    active_count = 0
    for position in range(count):
        node = sources[position]
        w = position // 64
        bit = np.int64(1) << (position % 64)
        if _zero_row(frontier, node):
            active[active_count] = node
            active_count += 1
        visited[node, w] |= bit
        frontier[node, w] |= bit
        alive[w] |= bit
        if goal[node]:
            blocked[node, w] |= bit
            _found_goal(figures, bit, np.int64(w * 64), np.int64(0))
    full = alive.copy()
    level = np.int64(0)

    while active_count:
        listed_count = 0
        if active_count * PULL_FRACTION > size:
            for v in range(size):
                done = True
                for w in range(words):
                    if visited[v, w] != full[w]:
                        done = False
                if done:
                    continue
                gathered[:] = 0
                through[:] = 0
                for e in range(offsets[v], offsets[v + 1]):
                    u = targets[e]
                    for w in range(words):
                        f = frontier[u, w]
                        gathered[w] |= f
                        through[w] |= f & blocked[u, w]
                found = False
                for w in range(words):
                    new = gathered[w] & ~visited[v, w]
                    if new:
                        found = True
                        nxt[v, w] = new
                        blocked[v, w] |= through[w] & new
                if found:
                    listed[listed_count] = v
                    listed_count += 1
        else:
            for a in range(active_count):
                u = active[a]
                for e in range(offsets[u], offsets[u + 1]):
                    v = targets[e]
                    first = True
                    for w in range(words):
                        new = frontier[u, w] & ~visited[v, w]
                        if new:
                            if first and _zero_row(nxt, v):
                                listed[listed_count] = v
                                listed_count += 1
                            first = False
                            nxt[v, w] |= new
                            blocked[v, w] |= blocked[u, w] & new

        for w in range(words):
            reached[w] = 0
        for t in range(listed_count):
            v = listed[t]
            for w in range(words):
                reached[w] |= nxt[v, w]
        # Sources that reach nothing new have their farthest layer in the frontier.
        for w in range(words):
            ending = alive[w] & ~reached[w]
            alive[w] = reached[w]
            if ending == 0:
                continue
            for a in range(active_count):
                _count_bits(figures, FARTHEST_COUNT, frontier[active[a], w] & ending,
                            np.int64(w * 64))
            while ending:
                figures[FARTHEST_STEPS, w * 64 + lowest_bit(ending)] = level
                ending &= ending - 1
        for a in range(active_count):
            for w in range(words):
                frontier[active[a], w] = 0
        frontier, nxt = nxt, frontier
        active, listed = listed, active
        active_count = listed_count
        level += 1
        for a in range(active_count):
            v = active[a]
            for w in range(words):
                new = frontier[v, w]
                visited[v, w] |= new
                if goal[v] and new:
                    fresh = new & ~blocked[v, w]
                    blocked[v, w] |= new
                    if fresh:
                        _found_goal(figures, fresh, np.int64(w * 64), level)
    return figures
