"""The recording sweeps of :mod:`huarong._kernels.group_analysis` on a CUDA GPU (numba-cuda,
the ``gpu`` extra, ``analyze-group --gpu``): every farthest layout and every solution of up to
64 × :data:`~huarong._kernels.layers_cuda_levels.MAX_WORDS` sources of one group at once, as rows.

The levels are the ``pull`` levels of :mod:`huarong._kernels.layers_cuda` (one thread a
(node, word) ORs its neighbours' frontier words, no atomics but on per-word and per-lane
figures), one group a sweep, with what a
record needs kept on the GPU between kernels so that the rows are written by kernels of their
own, which can run again when the room for rows was too small:

- ``found`` (a row of words a goal node): the sources for which the goal node reached at this
  level is a solution (reached through no other goal on a shortest path);
- ``ending`` (a word a lane word): the sources that reached nothing new, whose farthest layouts
  are their frontier nodes at this level.

A row is one int64, ``lane << 32 | node``, taken by an atomic counter; each call's rows share
their level, which the host adds.  Per level the host reads back four numbers (whether a source
ends, whether one goes on, the farthest and solution rows written) and the rows themselves.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels.cuda_support import (
    cell,
    check,
    cuda,
    cuda_kernel,
    device_function,
    grid,
    lowest_bit,
    zero,
)
from huarong._kernels.layers_cuda_levels import MAX_WORDS, gather

STEPS = 3
"""Rows of the per-source figures: farthest steps, minimum solution steps (-1 without a
solution), solutions."""
FARTHEST_STEPS, MIN_STEPS, SOLUTION_COUNT = range(STEPS)
BYTES_A_NODE_WORD = 6 * 8
"""GPU bytes a (node, word): visited, frontier, next frontier and blocked, and the two found
words, counted as if every node were a goal."""
ROOM_FIRST_TRIED = 1 << 20
"""Rows a level first has room for (8 MB of each kind), or as many as there are (node, lane)
pairs when they are fewer (a level records each pair at most once); a level with more runs
its recording kernel again with room for all."""

_ENDING, _ALIVE, _FARTHEST_ROWS, _SOLUTION_ROWS = range(4)


@cuda_kernel
def _start(sources: Any, goal_slot: Any, visited: Any, frontier: Any, blocked: Any,
           found: Any) -> None:
    """Level 0: thread ``lane`` puts its source (``-1``: none) on the frontier; a source that
    is a goal is its own solution."""
    lane = cuda.grid(1)
    if lane >= sources.shape[0] or sources[lane] < 0:
        return
    node = sources[lane]
    w = lane // 64
    bit = np.int64(1) << np.int64(lane % 64)
    # Sources are distinct nodes: no other thread writes these (node, word)s.
    visited[node, w] |= bit
    frontier[node, w] |= bit
    if goal_slot[node] >= 0:
        blocked[node, w] |= bit
        found[goal_slot[node], w] |= bit


@cuda_kernel
def _expand(offsets: Any, targets: Any, goal_slot: Any, frontier: Any, visited: Any,
            blocked: Any, nxt: Any, found: Any, full: Any, reached: Any) -> None:
    """The next level of every (node, word) into ``nxt`` and ``visited``, ``blocked``
    following; ``found`` gets each goal node's solutions at that level; ``reached`` the
    sources that reached some node anew.  Safe without atomics as in
    :func:`huarong._kernels.layers_cuda_levels.expand`: a thread writes only its own (node, word)
    and masks the ``blocked`` words it reads with the frontier, whose sources never change a
    ``blocked`` word at this level."""
    words = visited.shape[1]
    v, w = cell(visited.shape[0], words)
    if v < 0:
        return
    slot = goal_slot[v]
    seen = visited[v, w]
    if seen == full[w]:
        nxt[v, w] = 0
        if slot >= 0:
            found[slot, w] = 0
        return
    gathered, behind_goal = gather(offsets, targets, frontier, blocked, v, w)
    new = gathered & ~seen
    nxt[v, w] = new
    if slot >= 0:
        found[slot, w] = new & ~behind_goal
        blocked[v, w] |= new
    elif behind_goal & new != 0:
        blocked[v, w] |= behind_goal & new
    if new == 0:
        return
    visited[v, w] = seen | new
    if reached[w] & new != new:  # a read first spares most atomics
        cuda.atomic.or_(reached, w, new)


@cuda_kernel
def _close(alive: Any, reached: Any, ending: Any, figures: Any, counters: Any,
           level: np.int64) -> None:
    """Thread ``w``: the sources of word ``w`` alive that reached nothing new end at
    ``level``."""
    w = cuda.grid(1)
    if w >= alive.shape[0]:
        return
    going_on = reached[w]
    ends = alive[w] & ~going_on
    alive[w] = going_on
    reached[w] = 0
    ending[w] = ends
    if going_on != 0:
        counters[_ALIVE] = 1
    if ends != 0:
        counters[_ENDING] = 1
    while ends != 0:
        bit = lowest_bit(ends)
        ends ^= np.int64(1) << bit
        figures[FARTHEST_STEPS, w * 64 + bit] = level


@device_function
def _write_rows(bits: np.int64, lane0: np.int64, node: np.int64, rows: Any, counter: Any,
                at: np.int64) -> None:
    """Rows ``lane << 32 | node`` for every lane ``lane0 + b`` of the set bits b of
    ``bits``, at places taken from ``counters[at]`` (counted even where there is no room)."""
    count = np.int64(0)
    rest = bits
    while rest != 0:
        rest ^= np.int64(1) << lowest_bit(rest)
        count += 1
    first = cuda.atomic.add(counter, at, count)
    while bits != 0:
        bit = lowest_bit(bits)
        bits ^= np.int64(1) << bit
        if first < rows.shape[0]:
            rows[first] = ((lane0 + bit) << np.int64(32)) | node
        first += 1


@cuda_kernel
def _record_farthest(frontier: Any, ending: Any, rows: Any, counters: Any) -> None:
    """A row for every frontier node of every source that ends at this level."""
    words = frontier.shape[1]
    v, w = cell(frontier.shape[0], words)
    if v < 0:
        return
    ends = frontier[v, w] & ending[w]
    if ends != 0:
        _write_rows(ends, np.int64(w * 64), np.int64(v), rows, counters,
                    np.int64(_FARTHEST_ROWS))


@cuda_kernel
def _record_solutions(goal_nodes: Any, found: Any, figures: Any, rows: Any, counters: Any,
                      level: np.int64, counting: bool, every: bool) -> None:
    """The solutions at ``level`` of each goal node: counted (when ``counting``: a rerun for
    more room counts nothing), and a row each for every solution (``every``) or only for those
    at a source's minimum steps."""
    words = found.shape[1]
    g, w = cell(found.shape[0], words)
    if g < 0:
        return
    fresh = found[g, w]
    if fresh == 0:
        return
    lane0 = np.int64(w * 64)
    if counting:
        rest = fresh
        while rest != 0:
            bit = lowest_bit(rest)
            rest ^= np.int64(1) << bit
            lane = lane0 + bit
            cuda.atomic.add(figures, (SOLUTION_COUNT, lane), 1)
            # Every thread that finds a solution of this lane at this level writes the same
            # level: the first level with one is the minimum whichever thread comes first.
            if figures[MIN_STEPS, lane] < 0:
                figures[MIN_STEPS, lane] = level
    if not every:
        rest = fresh
        fresh = np.int64(0)
        while rest != 0:
            bit = lowest_bit(rest)
            rest ^= np.int64(1) << bit
            if figures[MIN_STEPS, lane0 + bit] == level:
                fresh |= np.int64(1) << bit
    if fresh != 0:
        _write_rows(fresh, lane0, np.int64(goal_nodes[g]), rows, counters,
                    np.int64(_SOLUTION_ROWS))


class _Rows:
    """Room for one kind of rows on the GPU, grown when a level needs more, and the rows
    taken so far on the host as (lane, node, steps)."""

    def __init__(self, counter: int, room: int) -> None:
        self.counter = counter
        self.room = cuda.device_array(room, dtype=np.int64)
        self.taken: list[np.ndarray] = []

    def take(self, counters: np.ndarray, level: int, device_counters: Any,
             write_again: Any) -> None:
        """Keep the rows counted in ``counters`` (as read back), written at ``level``; when
        there was too little room, grow it and ``write_again()`` into it (counters zeroed)."""
        count = int(counters[self.counter])
        if count == 0:
            return
        if count > self.room.shape[0]:
            self.room = cuda.device_array(count, dtype=np.int64)
            device_counters.copy_to_device(np.zeros(len(counters), dtype=np.int64))
            write_again()
        packed: np.ndarray = self.room[:count].copy_to_host()
        self.taken.append(np.stack([packed >> 32, packed & 0xFFFFFFFF,
                                    np.full(count, level, dtype=np.int64)], axis=1))

    def rows(self) -> np.ndarray:
        return np.concatenate([np.empty((0, 3), dtype=np.int64), *self.taken])


class RecordingSweeps:
    """One group's step graph on the GPU, with room for sweeps of ``words`` × 64 sources:
    :meth:`sweep` runs one such sweep, as often as wanted, the graph copied over once.

    ``offsets`` (int64) / ``targets`` (int32): CSR over node numbers, every edge both ways;
    ``goal`` (bool) flags the goal nodes; ``words`` at most :data:`MAX_WORDS`."""

    def __init__(self, offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                 words: int) -> None:
        check("offsets", offsets, np.int64, 1)
        check("targets", targets, np.int32, 1)
        check("goal", goal, np.bool_, 1)
        self.size = offsets.shape[0] - 1
        if self.size < 1 or goal.shape[0] != self.size:
            raise ValueError(f"offsets give {self.size} nodes and goal {goal.shape[0]}: "
                             "want the same, at least one")
        if not 1 <= words <= MAX_WORDS:
            raise ValueError(f"words: {words}, want 1 to {MAX_WORDS}")
        self.words = words
        goal_nodes = np.flatnonzero(goal).astype(np.int64)
        goal_slot = np.full(self.size, -1, dtype=np.int32)
        goal_slot[goal_nodes] = np.arange(goal_nodes.shape[0], dtype=np.int32)
        self._offsets = cuda.to_device(offsets)
        self._targets = cuda.to_device(targets)
        self._goal_slot = cuda.to_device(goal_slot)
        self._goal_nodes = cuda.to_device(np.append(goal_nodes, np.int64(-1)))
        self._goals = goal_nodes.shape[0]
        self._node_words = [cuda.device_array((self.size, words), dtype=np.int64)
                            for _ in range(4)]
        # Two rows of found words: the level whose rows are taken, and the next one.
        self._found = [cuda.device_array((max(1, self._goals), words), dtype=np.int64)
                       for _ in range(2)]
        room = min(ROOM_FIRST_TRIED, self.size * 64 * words)
        self._rows = (_Rows(_FARTHEST_ROWS, room), _Rows(_SOLUTION_ROWS, room))

    def sweep(self, sources: np.ndarray, *, every_solution: bool
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Search from every node of ``sources`` (int64, 64 × ``words`` lanes, distinct
        nodes, ``-1`` where a lane has no source) at once.

        Returns ``(figures, farthest, solutions)``: figures (:data:`STEPS`, lanes) int64 as
        named by :data:`FARTHEST_STEPS`, :data:`MIN_STEPS`, :data:`SOLUTION_COUNT` (lanes
        without a source hold junk); then a row (lane, node, steps) for every farthest layout
        and for every solution (``every_solution``) or every solution at the minimum steps,
        in no particular order."""
        check("sources", sources, np.int64, 1)
        lanes = 64 * self.words
        if sources.shape[0] != lanes:
            raise ValueError(f"sources: {sources.shape[0]} lanes, want {lanes}")
        chosen = sources[sources >= 0]
        if chosen.size and int(chosen.max()) >= self.size:
            raise ValueError("sources: a node number beyond the graph")
        if np.unique(chosen).shape[0] != chosen.shape[0]:
            raise ValueError("sources: a node twice")
        full = np.zeros(self.words, dtype=np.int64)
        for lane in np.flatnonzero(sources >= 0).tolist():
            full[lane // 64] |= np.int64(1) << np.int64(lane % 64)
        figures = np.zeros((STEPS, lanes), dtype=np.int64)
        figures[MIN_STEPS] = -1
        d_figures = cuda.to_device(figures)
        visited, frontier, nxt, blocked = self._node_words
        found, found_next = self._found
        node_grid = grid(self.size * self.words)
        for array in (visited, frontier, blocked, *self._found):
            zero[grid(array.shape[0] * self.words)](array)
        d_full = cuda.to_device(full)
        alive = cuda.to_device(full)
        reached = cuda.to_device(np.zeros(self.words, dtype=np.int64))
        ending = cuda.to_device(np.zeros(self.words, dtype=np.int64))
        no_counters = np.zeros(4, dtype=np.int64)
        counters = cuda.to_device(no_counters)
        _start[grid(lanes)](cuda.to_device(sources), self._goal_slot, visited, frontier,
                             blocked, found)
        farthest_rows, solution_rows = self._rows
        for kind in self._rows:
            kind.taken = []
        goal_grid = grid(self._goals * self.words)
        level = 0
        while True:
            counters.copy_to_device(no_counters)

            def solutions_at(counting: bool, found: Any = found, level: int = level) -> None:
                if self._goals:
                    _record_solutions[goal_grid](
                        self._goal_nodes, found, d_figures, solution_rows.room, counters,
                        np.int64(level), counting, every_solution)

            solutions_at(True)
            _expand[node_grid](self._offsets, self._targets, self._goal_slot, frontier,
                               visited, blocked, nxt, found_next, d_full, reached)
            _close[grid(self.words)](alive, reached, ending, d_figures, counters,
                                      np.int64(level))
            read: np.ndarray = counters.copy_to_host()
            solution_rows.take(read, level, counters, lambda: solutions_at(False))
            if read[_ENDING]:

                def farthest_at(frontier: Any = frontier) -> None:
                    _record_farthest[node_grid](frontier, ending, farthest_rows.room,
                                                counters)

                counters.copy_to_device(no_counters)
                farthest_at()
                farthest_rows.take(counters.copy_to_host(), level, counters, farthest_at)
            if not read[_ALIVE]:
                break
            frontier, nxt = nxt, frontier
            found, found_next = found_next, found
            level += 1
        # The words arrays swap roles each level; keep them in the roles they ended in.
        self._node_words = [visited, frontier, nxt, blocked]
        self._found = [found, found_next]
        result: np.ndarray = d_figures.copy_to_host()
        return result, farthest_rows.rows(), solution_rows.rows()
