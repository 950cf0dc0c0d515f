"""Hot loops of the exhaustive search: every placement of a puzzle's pieces, split into
clusters (connected parts of the state graph), each cluster's distances from its solved
states.

States are the ranked codes of :mod:`huarong._kernels.cluster`: a class's placement set
ranked by the combinatorial number system, the classes combined in mixed radix, class 0 the
most significant.  So counting class by class, class 0 outermost, each class walking the sets
of its placements clear of the classes above in colex order (the order of their ranks),
visits the valid codes in increasing order, and a dead end prunes every code below it at
once.  A code is where the walk stands: the walk resumes from any code.

``seen`` is a bitset over the whole code space: bit ``code`` is set once the code's cluster
is found.  A cluster is found by breadth-first search from its first (smallest) code, then
the distances from its solved states by a second breadth-first search that clears the bits
of the states it reaches (the cluster's bits are set, so a set bit is a state not reached
yet) and sets them again when done: one bitset serves both searches.  A cluster's search
goes on across calls (its ``cursor``), so a call does a bounded amount of work.

Private: :mod:`huarong.puzzles.exhaustive` wraps them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels._jit import inline_kernel, kernel, trailing_zeros
from huarong._kernels.cluster import (
    HAS_GOAL,
    MULTIPLIER,
    PIECES,
    PLACES,
    WALLS,
    is_goal,
    neighbours,
    unrank,
)

Int = int | np.integer[Any]

__all__ = ["HAS_GOAL", "bitset", "forget", "sweep"]

DONE = -1
"""The walk's position when every code has been visited."""

FINISHED, BUDGET, RECORDS, QUEUE = 0, 1, 2, 3
"""Why :func:`sweep` returned: the walk is over, the state budget is spent, the record
arrays are full, or a cluster outgrew the queues (grow them and call again)."""

_ONE = np.int64(1)


def bitset(size: int) -> np.ndarray:
    """A zeroed bitset of ``size`` bits (int64 words)."""
    return np.zeros((size + 63) // 64, dtype=np.int64)


@inline_kernel
def _cover(places: Int, c: Int, masks: np.ndarray, taken: Int) -> Int:
    """The cells of a class set's pieces, -1 when one overlaps ``taken`` or another."""
    cover = np.int64(0)
    while places != 0:
        cells = masks[c, trailing_zeros(places)]
        places &= places - 1
        if cells & (taken | cover):
            return np.int64(-1)
        cover |= cells
    return cover


ACTIVE, FIRST, PHASE, HEAD, TAIL, SOLVED, END, LEVEL, LAST, BEST, HARDEST = range(11)
CURSOR = 11
"""A cluster's search in progress (``cursor``, int64): whether one is, its first code, its
phase (1: finding the cluster in ``queue``, 2: the distances in ``order``), the queues'
heads and tails, the solved states, the layer being expanded and where it ends, and the
farthest start so far (its length, -1 none, and code)."""


@kernel
def _cluster(cursor: np.ndarray, budget: Int, seen: np.ndarray, queue: np.ndarray,
             order: np.ndarray, masks: np.ndarray, moves: np.ndarray, classes: np.ndarray,
             binom: np.ndarray, lookup: np.ndarray, info: np.ndarray,
             sets: np.ndarray, out: np.ndarray, stack: np.ndarray) -> tuple[Int, Int]:
    """Go on with the cluster of ``cursor`` for at most ``budget`` states expanded: (why it
    returned: :data:`FINISHED` (the cursor holds the answer, no longer active),
    :data:`BUDGET` or :data:`QUEUE` (grow the queues, keeping what they hold), states
    expanded).  Only states that may start count for the farthest (see :func:`sweep`)."""
    room = queue.shape[0] - out.shape[0]
    head, tail, solved = cursor[HEAD], cursor[TAIL], cursor[SOLVED]
    done = 0
    if cursor[PHASE] == 1:
        while head < tail:
            if done >= budget or tail > room:
                cursor[HEAD], cursor[TAIL], cursor[SOLVED] = head, tail, solved
                why = BUDGET if done >= budget else QUEUE
                return np.int64(why), np.int64(done)
            code = queue[head]
            head += 1
            done += 1
            unrank(code, classes, binom, lookup, sets)
            if is_goal(sets, classes, info):
                order[solved] = code
                solved += 1
            count = neighbours(code, masks, moves, classes, binom, lookup, info, sets, out,
                               stack)
            for i in range(count):
                other = out[i]
                word, bit = other >> 6, _ONE << (other & 63)
                if seen[word] & bit == 0:
                    seen[word] |= bit
                    queue[tail] = other
                    tail += 1
        cursor[TAIL], cursor[SOLVED] = tail, solved
        cursor[BEST], cursor[HARDEST] = -1, cursor[FIRST]
        if solved == 0:
            cursor[ACTIVE] = 0
            return np.int64(FINISHED), np.int64(done)
        for i in range(solved):
            seen[order[i] >> 6] &= ~(_ONE << (order[i] & 63))
        cursor[PHASE], cursor[HEAD], cursor[END], cursor[LAST], cursor[LEVEL] = (
            2, 0, solved, solved, 0)
    head, end, last, level = cursor[HEAD], cursor[END], cursor[LAST], cursor[LEVEL]
    best, hardest = cursor[BEST], cursor[HARDEST]
    while head < end:
        if done >= budget:
            cursor[HEAD], cursor[END], cursor[LAST], cursor[LEVEL] = head, end, last, level
            cursor[BEST], cursor[HARDEST] = best, hardest
            return np.int64(BUDGET), np.int64(done)
        if head == last:
            level += 1
            last = end
        code = order[head]
        head += 1
        done += 1
        if level > best:
            best, hardest = level, code
        elif code < hardest:
            hardest = code
        count = neighbours(code, masks, moves, classes, binom, lookup, info, sets, out, stack)
        for i in range(count):
            other = out[i]
            word, bit = other >> 6, _ONE << (other & 63)
            if seen[word] & bit:
                seen[word] &= ~bit
                order[end] = other
                end += 1
    for i in range(tail):
        seen[queue[i] >> 6] |= _ONE << (queue[i] & 63)
    cursor[BEST], cursor[HARDEST], cursor[ACTIVE] = best, hardest, 0
    return np.int64(FINISHED), np.int64(done)


@kernel
def forget(cursor: np.ndarray, seen: np.ndarray, queue: np.ndarray) -> None:
    """Drop the cluster in progress: its states are no longer seen, the cursor inactive (a
    walk resumed from its first code finds it again)."""
    if cursor[ACTIVE]:
        for i in range(cursor[TAIL]):
            seen[queue[i] >> 6] &= ~(_ONE << (queue[i] & 63))
        cursor[ACTIVE] = 0


@inline_kernel
def _record(records: np.ndarray, row: Int, cursor: np.ndarray) -> None:
    records[row, 0] = cursor[TAIL]
    records[row, 1] = cursor[SOLVED]
    records[row, 2] = cursor[BEST]
    records[row, 3] = cursor[HARDEST]


@kernel
def sweep(position: Int, stop: Int, budget: Int, cursor: np.ndarray, seen: np.ndarray,
          queue: np.ndarray, order: np.ndarray, records: np.ndarray, masks: np.ndarray,
          moves: np.ndarray, classes: np.ndarray, binom: np.ndarray, lookup: np.ndarray,
          info: np.ndarray, most: Int) -> tuple[Int, Int, Int, Int]:
    """Walk the valid codes from ``position`` up to ``stop`` (every piece on the board
    clear of the others), finding the cluster of each code not yet ``seen``, until about
    ``budget`` states are found or ``records`` (clusters, 4) int64 is full.  A record is
    (states, solved, hardest length or -1, hardest start's code).  A cluster too big for
    the budget is left in ``cursor`` (see
    :data:`CURSOR`) and goes on at the next call.  Returns (the position to resume from or
    :data:`DONE`, records written, valid codes visited, why it returned)."""
    count = classes.shape[0]
    # Each level (class) walks the sets of its pieces among the placements clear of the
    # levels above ("free", in placement order) in colex order, which is the order of their
    # ranks: ``chosen`` holds the indices into ``free`` of the current set.
    free = np.empty((count, 64), dtype=np.int64)
    sizes = np.zeros(count, dtype=np.int64)
    chosen = np.empty((count, 64), dtype=np.int64)
    live = np.zeros(count, dtype=np.bool_)
    resume = np.empty(count, dtype=np.int64)
    taken = np.zeros(count + 1, dtype=np.int64)
    prefix = np.zeros(count + 1, dtype=np.int64)
    sets = np.empty(count, dtype=np.int64)
    out = np.empty(most, dtype=np.int64)
    stack = np.empty(64, dtype=np.int64)
    unrank(position, classes, binom, lookup, resume)
    taken[0] = info[WALLS]
    written, visited = 0, 0
    found: Int = 0
    if cursor[ACTIVE]:
        why, found = _cluster(cursor, budget, seen, queue, order, masks, moves, classes,
                              binom, lookup, info, sets, out, stack)
        if why != FINISHED:
            return np.int64(cursor[FIRST]), np.int64(0), np.int64(0), why
        _record(records, 0, cursor)
        written = 1
    level = 0
    resuming = True
    _enter(0, resuming, resume, free, sizes, chosen, live, taken, masks, classes, binom)
    while True:
        if not live[level]:
            if level == 0:
                return np.int64(DONE), np.int64(written), np.int64(visited), np.int64(FINISHED)
            level -= 1
            resuming = False
            _advance(level, sizes, chosen, live, classes)
            continue
        places = np.int64(0)
        rank = np.int64(0)
        for i in range(classes[level, PIECES]):
            p = free[level, chosen[level, i]]
            places |= _ONE << p
            rank += binom[p, i + 1]
        cover = _cover(places, level, masks, taken[level])
        if cover >= 0:
            taken[level + 1] = taken[level] | cover
            prefix[level + 1] = prefix[level] + rank * classes[level, MULTIPLIER]
            if level + 1 < count:
                level += 1
                resuming = resuming and places == resume[level - 1]
                _enter(level, resuming, resume, free, sizes, chosen, live, taken, masks,
                       classes, binom)
                continue
            code = np.int64(prefix[count])
            if code >= stop:
                return np.int64(DONE), np.int64(written), np.int64(visited), np.int64(FINISHED)
            if found >= budget:
                return code, np.int64(written), np.int64(visited), np.int64(BUDGET)
            if seen[code >> 6] & (_ONE << (code & 63)) == 0:
                if written == records.shape[0]:
                    return code, np.int64(written), np.int64(visited), np.int64(RECORDS)
                queue[0] = code
                seen[code >> 6] |= _ONE << (code & 63)
                cursor[ACTIVE], cursor[FIRST], cursor[PHASE] = 1, code, 1
                cursor[HEAD], cursor[TAIL], cursor[SOLVED] = 0, 1, 0
                why, done = _cluster(cursor, budget - found, seen, queue, order, masks, moves,
                                     classes, binom, lookup, info, sets, out, stack)
                found += done
                if why != FINISHED:
                    return code, np.int64(written), np.int64(visited), why
                _record(records, written, cursor)
                written += 1
            visited += 1
        resuming = False
        _advance(level, sizes, chosen, live, classes)


@inline_kernel
def _enter(level: Int, resuming: bool, resume: np.ndarray, free: np.ndarray,
           sizes: np.ndarray, chosen: np.ndarray, live: np.ndarray, taken: np.ndarray,
           masks: np.ndarray, classes: np.ndarray, binom: np.ndarray) -> None:
    """Start a level at its first set of placements clear of ``taken[level]``; resuming, at
    the first whose rank is not below the resumed code's."""
    size = 0
    for p in range(classes[level, PLACES]):
        if masks[level, p] & taken[level] == 0:
            free[level, size] = p
            size += 1
    sizes[level] = size
    pieces = classes[level, PIECES]
    live[level] = pieces <= size
    for i in range(pieces):
        chosen[level, i] = i
    if not resuming or not live[level]:
        return
    # The set resumed from may hold placements that are not clear: walk to the first set of
    # a rank as high.
    target = np.int64(0)
    places = resume[level]
    i = 1
    while places != 0:
        target += binom[trailing_zeros(places), i]
        places &= places - 1
        i += 1
    while live[level]:
        rank = np.int64(0)
        for i in range(pieces):
            rank += binom[free[level, chosen[level, i]], i + 1]
        if rank >= target:
            return
        _advance(level, sizes, chosen, live, classes)


@inline_kernel
def _advance(level: Int, sizes: np.ndarray, chosen: np.ndarray, live: np.ndarray,
             classes: np.ndarray) -> None:
    """The level's next set in colex order (``live`` false past the last)."""
    pieces = classes[level, PIECES]
    i = 0
    while i < pieces - 1 and chosen[level, i] + 1 == chosen[level, i + 1]:
        i += 1
    if i == pieces - 1 and chosen[level, i] + 1 == sizes[level]:
        live[level] = False
        return
    chosen[level, i] += 1
    for j in range(i):
        chosen[level, j] = j
