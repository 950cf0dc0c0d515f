"""Layer sweeps: the five layer figures of 256 sources at once, counted only (the database),
or with every farthest layout and solution also written as a row (``--analy-group``).

Bit ``b`` of word ``w`` of a node's row stands for source ``64 w + b``; four int64 words a
node (256 sources a sweep) in each of ``visited``, ``frontier`` (reached at this level),
``nxt`` (reached at the next level) and ``blocked`` (some shortest path from the source to the
node passes a goal at or before it).  A goal reached by a source whose bit is not blocked there
is a solution.  What the database needs is five numbers per source, so :func:`count_sweep`
writes nothing per farthest layout or per solution: each adds one to its source's counter,
walked over set bits only; :func:`record_sweep` writes the rows too.

Measured on the sparse group of 4FEA13400, a dense 4-3-0 group and the largest group (see
``benchmarks/bench_layers.py``), against the 64- and 128-source sweeps this replaced:

- four words unrolled by hand, one 32-byte row per node: 1.3-1.8x faster.  Sources of a
  tight cluster reach a node at nearly the same level, so 256 of them visit each node about
  0.1 times a source where 64 visit it 0.2 times; eight words, or a loop over a run-time
  number of words, were slower;
- the edges pushed without branches (whether a neighbour brings news is unpredictable), and
  the blocked words skipped for rows behind no goal: 1.15x;
- levels walked in node order through a bitmap of the level's nodes instead of a list (a
  few percent: neighbours are numbered close together);
- the lowest set bit by LLVM's cttz instead of a de Bruijn table: 1.12x;
- pulled dense levels (every node gathering from its neighbours) were slower on every group
  here, even the densest, so levels are always pushed.

Words are int64, never uint64 (numba turns uint64/int64 mixes into float64).
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel, trailing_zeros

LANES = 256
"""Sources a sweep."""
WORDS = LANES // 64
FIGURES = 5
"""Rows of :func:`count_sweep`'s result: farthest steps, farthest count, minimum solution
steps (-1 without a solution), solutions at the minimum steps, solutions."""
FARTHEST_STEPS, FARTHEST_COUNT, MIN_STEPS, MIN_COUNT, SOLUTION_COUNT = range(FIGURES)


@kernel
def lowest_bit(word: np.int64) -> np.int64:
    """The index of the lowest set bit of a non-zero word."""
    return np.int64(trailing_zeros(word))


@kernel
def _record(rows: np.ndarray, count: np.int64, lane: np.int64, node: np.int64,
            level: np.int64) -> np.int64:
    """Row ``count`` of ``rows`` is (lane, node, level) if there is room; returns count + 1
    (a caller with too few rows sees the overflow and runs again with enough)."""
    if count < rows.shape[0]:
        rows[count, 0] = lane
        rows[count, 1] = node
        rows[count, 2] = level
    return count + 1


@kernel
def _found_goal(figures: np.ndarray, fresh: np.int64, lane0: np.int64, level: np.int64,
                rows: np.ndarray, count: np.int64, node: np.int64) -> np.int64:
    """One more solution ``node`` at ``level`` for source ``lane0 + b``, for every set bit b
    of ``fresh``, each also a row of ``rows`` from row ``count``; returns the new count."""
    while fresh:
        lane = lane0 + lowest_bit(fresh)
        fresh &= fresh - 1
        figures[SOLUTION_COUNT, lane] += 1
        if figures[MIN_STEPS, lane] < 0:
            figures[MIN_STEPS, lane] = level
        if figures[MIN_STEPS, lane] == level:
            figures[MIN_COUNT, lane] += 1
        count = _record(rows, count, lane, node, level)
    return count


@kernel
def _push_level(offsets: np.ndarray, targets: np.ndarray, level_bits: np.ndarray,
                frontier: np.ndarray, visited: np.ndarray, nxt: np.ndarray,
                blocked: np.ndarray, next_bits: np.ndarray, reached: np.ndarray) -> None:
    """Every frontier row of the level's nodes (the set bits of ``level_bits``) crosses their
    edges into ``nxt`` and ``next_bits``, ``blocked`` following it; ``reached`` gets the
    sources that reached any node anew."""
    r0 = r1 = r2 = r3 = np.int64(0)
    for chunk in range(level_bits.shape[0]):
        bits = level_bits[chunk]
        while bits:
            u = (chunk << 6) + lowest_bit(bits)
            bits &= bits - 1
            f0 = frontier[u, 0]
            f1 = frontier[u, 1]
            f2 = frontier[u, 2]
            f3 = frontier[u, 3]
            b0 = blocked[u, 0]
            b1 = blocked[u, 1]
            b2 = blocked[u, 2]
            b3 = blocked[u, 3]
            # Most rows are behind no goal: the compiler makes a loop without the blocked
            # words for them (the test does not change within the loop).
            behind_goal = (b0 | b1 | b2 | b3) != 0
            for e in range(offsets[u], offsets[u + 1]):
                v = targets[e]
                n0 = f0 & ~visited[v, 0]
                n1 = f1 & ~visited[v, 1]
                n2 = f2 & ~visited[v, 2]
                n3 = f3 & ~visited[v, 3]
                nxt[v, 0] |= n0
                nxt[v, 1] |= n1
                nxt[v, 2] |= n2
                nxt[v, 3] |= n3
                if behind_goal:
                    blocked[v, 0] |= b0 & n0
                    blocked[v, 1] |= b1 & n1
                    blocked[v, 2] |= b2 & n2
                    blocked[v, 3] |= b3 & n3
                r0 |= n0
                r1 |= n1
                r2 |= n2
                r3 |= n3
                next_bits[v >> 6] |= np.int64((n0 | n1 | n2 | n3) != 0) << (v & 63)
    reached[0] = r0
    reached[1] = r1
    reached[2] = r2
    reached[3] = r3


@kernel
def _found_farthest(figures: np.ndarray, ending: np.int64, lane0: np.int64,
                    level: np.int64, rows: np.ndarray, count: np.int64, node: np.int64
                    ) -> np.int64:
    """``node`` is one more farthest layout of source ``lane0 + b`` for every set bit b of
    ``ending``, each also a row of ``rows`` from row ``count``; returns the new count."""
    while ending:
        lane = lane0 + lowest_bit(ending)
        ending &= ending - 1
        figures[FARTHEST_COUNT, lane] += 1
        count = _record(rows, count, lane, node, level)
    return count


@kernel
def _set_bits(figures: np.ndarray, row: int, word: np.int64, lane0: np.int64,
              value: np.int64) -> None:
    """Set ``figures[row, lane0 + b]`` to ``value`` for every set bit b of ``word``."""
    while word:
        figures[row, lane0 + lowest_bit(word)] = value
        word &= word - 1


@kernel
def _sweep(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray, sources: np.ndarray,
           farthest: np.ndarray, solutions: np.ndarray
           ) -> tuple[np.ndarray, np.int64, np.int64]:
    """Search from every node of ``sources`` (at most :data:`LANES`, distinct) at once over
    the step graph ``offsets``/``targets`` (CSR over node indices, edges both ways) whose goal
    nodes are flagged in ``goal``.  Returns the figures as a (:data:`FIGURES`, len(sources))
    int64 array, one column per source, and how many farthest layouts and solutions there
    are in all: as many rows (source position, node, steps) as fit are written to
    ``farthest`` and ``solutions`` (three columns each; none rows to count only)."""
    size = offsets.shape[0] - 1
    count = sources.shape[0]
    figures = np.zeros((FIGURES, count), dtype=np.int64)
    figures[MIN_STEPS, :] = -1
    visited = np.zeros((size, WORDS), dtype=np.int64)
    frontier = np.zeros((size, WORDS), dtype=np.int64)
    nxt = np.zeros((size, WORDS), dtype=np.int64)
    blocked = np.zeros((size, WORDS), dtype=np.int64)
    level_bits = np.zeros((size + 63) >> 6, dtype=np.int64)
    next_bits = np.zeros((size + 63) >> 6, dtype=np.int64)
    alive = np.zeros(WORDS, dtype=np.int64)
    reached = np.zeros(WORDS, dtype=np.int64)
    ending = np.zeros(WORDS, dtype=np.int64)
    farthest_count = solution_count = np.int64(0)
    for lane in range(count):
        node = sources[lane]
        w = lane >> 6
        bit = np.int64(1) << (lane & 63)
        visited[node, w] |= bit
        frontier[node, w] |= bit
        level_bits[node >> 6] |= np.int64(1) << (node & 63)
        alive[w] |= bit
        if goal[node]:
            blocked[node, w] |= bit
            solution_count = _found_goal(figures, bit, np.int64(w * 64), np.int64(0),
                                         solutions, solution_count, node)
    level = np.int64(0)
    level_size = count
    while level_size:
        _push_level(offsets, targets, level_bits, frontier, visited, nxt, blocked, next_bits,
                    reached)
        # Sources that reach nothing new have their farthest layer in this level.
        closing = False
        for w in range(WORDS):
            ending[w] = alive[w] & ~reached[w]
            alive[w] = reached[w]
            closing |= ending[w] != 0
        for chunk in range(level_bits.shape[0]):
            bits = level_bits[chunk]
            level_bits[chunk] = 0
            while bits:
                u = (chunk << 6) + lowest_bit(bits)
                bits &= bits - 1
                for w in range(WORDS):
                    if closing and frontier[u, w] & ending[w]:
                        farthest_count = _found_farthest(
                            figures, frontier[u, w] & ending[w], np.int64(w * 64), level,
                            farthest, farthest_count, u)
                    frontier[u, w] = 0
        for w in range(WORDS):
            _set_bits(figures, FARTHEST_STEPS, ending[w], np.int64(w * 64), level)
        level += 1
        frontier, nxt = nxt, frontier
        level_bits, next_bits = next_bits, level_bits
        level_size = 0
        for chunk in range(level_bits.shape[0]):
            bits = level_bits[chunk]
            while bits:
                v = (chunk << 6) + lowest_bit(bits)
                bits &= bits - 1
                level_size += 1
                for w in range(WORDS):
                    new = frontier[v, w]
                    visited[v, w] |= new
                    if goal[v]:
                        fresh = new & ~blocked[v, w]
                        blocked[v, w] |= new
                        if fresh:
                            solution_count = _found_goal(figures, fresh, np.int64(w * 64),
                                                         level, solutions, solution_count, v)
    return figures, farthest_count, solution_count


@kernel
def count_sweep(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                sources: np.ndarray) -> np.ndarray:
    """The figures of :func:`_sweep`, counted only."""
    none = np.empty((0, 3), dtype=np.int64)
    figures, _, _ = _sweep(offsets, targets, goal, sources, none, none)
    return figures


@kernel
def record_sweep(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                 sources: np.ndarray, rows: np.int64
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_sweep` with every farthest layout and solution as a row: (figures, farthest
    rows, solution rows), rows in the order found (a source's solutions nearest first).
    ``rows`` is the room first tried; when too few, the sweep runs again with exactly
    enough."""
    farthest = np.empty((rows, 3), dtype=np.int64)
    solutions = np.empty((rows, 3), dtype=np.int64)
    figures, farthest_count, solution_count = _sweep(offsets, targets, goal, sources,
                                                     farthest, solutions)
    if farthest_count > rows or solution_count > rows:
        farthest = np.empty((farthest_count, 3), dtype=np.int64)
        solutions = np.empty((solution_count, 3), dtype=np.int64)
        figures, _, _ = _sweep(offsets, targets, goal, sources, farthest, solutions)
    return figures, farthest[:farthest_count].copy(), solutions[:solution_count].copy()


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
