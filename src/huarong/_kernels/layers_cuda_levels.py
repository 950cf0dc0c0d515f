"""The device kernels of the counts-only layer sweeps on a CUDA GPU, a launch of each for one
level (the ways to expand a level and what they share are :mod:`huarong._kernels.layers_cuda`'s
docstring; its host code launches them): the sources put on the graph, a level expanded by
``pull`` (:func:`expand`), ``push`` (:func:`push`, :func:`settle`) or ``list``
(:func:`push_listed`, :func:`settle_listed`), the sources that end closed and their farthest
layouts counted."""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels.cuda_support import (
    THREADS_A_BLOCK,
    cell,
    cuda,
    cuda_kernel,
    device_function,
    lowest_bit,
)
from huarong._kernels.layers import (
    FARTHEST_COUNT,
    FARTHEST_STEPS,
    MIN_COUNT,
    MIN_STEPS,
    SOLUTION_COUNT,
)

MAX_WORDS = 64
"""Words a node at most (4,096 sources a segment)."""
WORD_BITS = 6
"""A ``list`` entry is ``node << WORD_BITS | word``: :data:`MAX_WORDS` words a node."""
STAGED = 4 * THREADS_A_BLOCK
"""Entries a block of ``list``'s push gathers in shared memory before it lists them with one
global atomic; a block finding more lists the rest one atomic each."""

ANY_ENDING, ANY_ALIVE, LISTED = 0, 1, 2
"""The flags a level raises for the host to read back: some source ends, some goes on, and
(``list``) how many (node, word) entries were listed."""


@cuda_kernel
def start(sources: Any, goal: Any, visited: Any, frontier: Any, blocked: Any, full: Any,
          figures: Any) -> None:
    """Level 0: thread ``segment * lanes + lane`` puts its source (``-1``: no source in that
    lane) on the frontier."""
    lanes = sources.shape[1]
    segment, lane = cell(sources.shape[0], lanes)
    if segment < 0 or sources[segment, lane] < 0:
        return
    node = sources[segment, lane]
    frontier[node, lane // 64] |= np.int64(1) << np.int64(lane % 64)
    _put_source(goal, visited, blocked, full, figures, node, segment, lane)


@cuda_kernel
def start_listed(listed: Any, listed_words: Any, count: np.int64, goal: Any,
                 segment_of: Any, visited: Any, blocked: Any, full: Any,
                 figures: Any) -> None:
    """Level 0 of ``list``: thread ``i`` puts the source of entry ``i`` of the host's list
    (one bit set in its word) on the graph."""
    i = cuda.grid(1)
    if i >= count:
        return
    node = listed[i] >> WORD_BITS
    lane = (listed[i] & (MAX_WORDS - 1)) * 64 + lowest_bit(listed_words[i])
    _put_source(goal, visited, blocked, full, figures, node, np.int64(segment_of[node]), lane)


@device_function
def _put_source(goal: Any, visited: Any, blocked: Any, full: Any, figures: Any,
                node: np.int64, segment: np.int64, lane: np.int64) -> None:
    """Source ``lane`` of ``segment`` at ``node`` visited, and a solution when a goal."""
    w = lane // 64
    bit = np.int64(1) << np.int64(lane % 64)
    slot = segment * visited.shape[1] * 64 + lane
    # Sources of a segment are distinct nodes: no other thread writes these (node, word)s.
    visited[node, w] |= bit
    cuda.atomic.or_(full, (segment, w), bit)
    if goal[node]:
        blocked[node, w] |= bit
        figures[SOLUTION_COUNT, slot] = 1
        figures[MIN_STEPS, slot] = 0
        figures[MIN_COUNT, slot] = 1


@device_function
def gather(offsets: Any, targets: Any, frontier: Any, blocked: Any, v: np.int64,
           w: np.int64) -> tuple[np.int64, np.int64]:
    """(the OR of word ``w`` of node ``v``'s neighbours' frontiers, the part of it whose
    sources reached a neighbour through a goal): a pull."""
    gathered = np.int64(0)
    behind_goal = np.int64(0)
    for e in range(offsets[v], offsets[v + 1]):
        u = targets[e]
        word = frontier[u, w]
        gathered |= word
        behind_goal |= word & blocked[u, w]
    return gathered, behind_goal


@cuda_kernel
def expand(offsets: Any, targets: Any, goal: Any, segment_of: Any, frontier: Any,
           visited: Any, blocked: Any, nxt: Any, full: Any, reached: Any, figures: Any,
           level: np.int64) -> None:
    """The frontier at ``level`` of every (node, word) into ``nxt`` and ``visited``;
    ``blocked`` follows; solutions at ``level`` counted; ``reached`` gets the sources that
    reached some node anew."""
    words = visited.shape[1]
    v, w = cell(visited.shape[0], words)
    if v < 0:
        return
    seen = visited[v, w]
    segment = segment_of[v]
    if seen == full[segment, w]:
        nxt[v, w] = 0
        return
    gathered, behind_goal = gather(offsets, targets, frontier, blocked, v, w)
    new = gathered & ~seen
    nxt[v, w] = new
    if new == 0:
        return
    _found(goal, blocked, visited, reached, figures, v, w, segment, words, seen, new,
           behind_goal, level)


@device_function
def _found(goal: Any, blocked: Any, visited: Any, reached: Any, figures: Any, v: np.int64,
           w: np.int64, segment: np.int64, words: np.int64, seen: np.int64, new: np.int64,
           behind_goal: np.int64, level: np.int64) -> None:
    """The sources ``new`` reach (node, word) (v, w) at ``level``: visited, blocked,
    solutions and ``reached`` follow."""
    visited[v, w] = seen | new
    if goal[v]:
        blocked[v, w] |= new
        fresh = new & ~behind_goal
        lane0 = segment * words * 64 + w * 64
        while fresh != 0:
            bit = lowest_bit(fresh)
            fresh ^= np.int64(1) << bit
            lane = lane0 + bit
            cuda.atomic.add(figures, (SOLUTION_COUNT, lane), 1)
            # Every thread of this launch that finds a solution of this lane writes the same
            # level: the first level with one is the minimum whichever thread comes first.
            if figures[MIN_STEPS, lane] < 0 or figures[MIN_STEPS, lane] == level:
                figures[MIN_STEPS, lane] = level
                cuda.atomic.add(figures, (MIN_COUNT, lane), 1)
    elif behind_goal & new != 0:
        blocked[v, w] |= behind_goal & new
    if reached[segment, w] & new != new:  # a read first spares most atomics
        cuda.atomic.or_(reached, (segment, w), new)


@cuda_kernel
def push(offsets: Any, targets: Any, frontier: Any, visited: Any, blocked: Any, acc: Any,
         acc_blocked: Any) -> None:
    """Each frontier (node, word) ORs its sources, less those its neighbour has seen, into
    the neighbour's ``acc`` (and those behind a goal into ``acc_blocked``)."""
    u, w = cell(frontier.shape[0], frontier.shape[1])
    if u < 0:
        return
    word = frontier[u, w]
    if word == 0:
        return
    behind = word & blocked[u, w]
    for e in range(offsets[u], offsets[u + 1]):
        v = targets[e]
        fresh = word & ~visited[v, w]
        if fresh != 0:
            cuda.atomic.or_(acc, (v, w), fresh)
            if behind & fresh != 0:
                cuda.atomic.or_(acc_blocked, (v, w), behind & fresh)


@cuda_kernel
def settle(goal: Any, segment_of: Any, acc: Any, acc_blocked: Any, visited: Any,
           blocked: Any, nxt: Any, reached: Any, figures: Any, level: np.int64) -> None:
    """What :func:`push` gathered at each (node, word) becomes its frontier at ``level``, as
    in :func:`expand`; the accumulators are left zero."""
    words = visited.shape[1]
    v, w = cell(visited.shape[0], words)
    if v < 0:
        return
    gathered = acc[v, w]
    if gathered == 0:
        nxt[v, w] = 0
        return
    acc[v, w] = 0
    behind_goal = acc_blocked[v, w]
    if behind_goal != 0:
        acc_blocked[v, w] = 0
    seen = visited[v, w]
    new = gathered & ~seen
    nxt[v, w] = new
    if new == 0:
        return
    _found(goal, blocked, visited, reached, figures, v, w, segment_of[v], words, seen, new,
           behind_goal, level)


@cuda_kernel
def push_listed(offsets: Any, targets: Any, listed: Any, listed_words: Any, count: np.int64,
                visited: Any, blocked: Any, acc: Any, touched: Any, flags: Any) -> None:
    """``list``: each of the ``count`` frontier entries ORs its word, less the bits its
    neighbour has seen, into the neighbour's ``acc`` (and those behind a goal into its
    ``blocked``); a (node, word) whose ``acc`` this makes non-zero is listed in ``touched``,
    counted in ``flags[LISTED]``.  Every thread of a block reaches the barriers."""
    staged = cuda.shared.array(STAGED, np.int64)
    tally = cuda.shared.array(2, np.int64)  # entries staged, their first place in touched
    if cuda.threadIdx.x == 0:
        tally[0] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < count:
        u = listed[i] >> WORD_BITS
        w = listed[i] & (MAX_WORDS - 1)
        word = listed_words[i]
        behind = word & blocked[u, w]
        for e in range(offsets[u], offsets[u + 1]):
            v = targets[e]
            fresh = word & ~visited[v, w]
            if fresh == 0:
                continue
            if cuda.atomic.or_(acc, (v, w), fresh) == 0:
                entry = (np.int64(v) << WORD_BITS) | w
                at = cuda.atomic.add(tally, 0, 1)
                if at < STAGED:
                    staged[at] = entry
                else:
                    touched[cuda.atomic.add(flags, LISTED, 1)] = entry
            if behind & fresh != 0:
                cuda.atomic.or_(blocked, (v, w), behind & fresh)
    cuda.syncthreads()
    kept = min(tally[0], STAGED)
    if cuda.threadIdx.x == 0 and kept > 0:
        tally[1] = cuda.atomic.add(flags, LISTED, kept)
    cuda.syncthreads()
    for j in range(cuda.threadIdx.x, kept, cuda.blockDim.x):
        touched[tally[1] + j] = staged[j]


@cuda_kernel
def settle_listed(goal: Any, segment_of: Any, touched: Any, touched_words: Any, flags: Any,
                  acc: Any, visited: Any, blocked: Any, reached: Any, figures: Any,
                  level: np.int64) -> None:
    """``list``: each (node, word) :func:`push_listed` listed settles its accumulator, as
    :func:`settle`, its new sources the entry's word at ``level``."""
    words = visited.shape[1]
    for i in range(cuda.grid(1), flags[LISTED], cuda.gridsize(1)):
        v = touched[i] >> WORD_BITS
        w = touched[i] & (MAX_WORDS - 1)
        seen = visited[v, w]
        new = acc[v, w] & ~seen
        acc[v, w] = 0
        touched_words[i] = new
        if new != 0:
            _found(goal, blocked, visited, reached, figures, v, w, np.int64(segment_of[v]),
                   words, seen, new, blocked[v, w] & new, level)


@cuda_kernel
def close(alive: Any, reached: Any, ending: Any, figures: Any, flags: Any,
          level: np.int64) -> None:
    """Thread (segment, word): sources alive that reached nothing new end at ``level``."""
    words = alive.shape[1]
    segment, w = cell(alive.shape[0], words)
    if segment < 0:
        return
    going_on = reached[segment, w]
    ends = alive[segment, w] & ~going_on
    alive[segment, w] = going_on
    reached[segment, w] = 0
    ending[segment, w] = ends
    if going_on != 0:
        flags[ANY_ALIVE] = 1
    if ends != 0:
        flags[ANY_ENDING] = 1
    lane0 = (segment * words + w) * 64
    while ends != 0:
        bit = lowest_bit(ends)
        ends ^= np.int64(1) << bit
        figures[FARTHEST_STEPS, lane0 + bit] = level


@cuda_kernel
def count_farthest(segment_of: Any, frontier: Any, ending: Any, figures: Any) -> None:
    """Each frontier node of a source that ends at this level is one of its farthest."""
    words = frontier.shape[1]
    v, w = cell(frontier.shape[0], words)
    if v < 0:
        return
    segment = segment_of[v]
    _add_farthest(figures, frontier[v, w] & ending[segment, w], segment * words * 64 + w * 64)


@cuda_kernel
def count_farthest_listed(segment_of: Any, listed: Any, listed_words: Any, count: np.int64,
                          ending: Any, figures: Any) -> None:
    """:func:`count_farthest` over ``list``'s ``count`` frontier entries."""
    i = cuda.grid(1)
    if i >= count:
        return
    v = listed[i] >> WORD_BITS
    w = listed[i] & (MAX_WORDS - 1)
    segment = segment_of[v]
    _add_farthest(figures, listed_words[i] & ending[segment, w],
                  (segment * ending.shape[1] + w) * 64)


@device_function
def _add_farthest(figures: Any, ends: np.int64, lane0: np.int64) -> None:
    """One more farthest layout for lane ``lane0 + b`` of each set bit b of ``ends``."""
    while ends != 0:
        bit = lowest_bit(ends)
        ends ^= np.int64(1) << bit
        cuda.atomic.add(figures, (FARTHEST_COUNT, lane0 + bit), 1)
