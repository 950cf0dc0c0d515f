"""Hot loops of the general sliding-block engine: state codes, moves and the searches.

A puzzle's pieces fall into *classes* (all pieces of one shape, or one piece marked
distinct).  Each class has its *placements*: the positions of its shape on the board clear
of walls, numbered 0..P-1 (P <= 64) by their anchor cell.  A state is, for each class, the
set of placements its pieces occupy: one int64 word per class, bit ``p`` for placement ``p``.

A state's code is a perfect rank: each class's set ranked by the combinatorial number system
(the sum of C(p_i, i) over its placements p_1 < p_2 < ..., i from 1), and the classes'
ranks combined in mixed radix.  So every placement of the pieces, reachable or not, has one
code in 0..prod C(P, k) - 1, which lets a later search enumerate whole spaces.

The tables (built by :mod:`huarong.puzzles`):

- ``masks`` (K, 128) int64: the board cells of each class's placements, then (at
  ``HALO + p``) the cells a piece there would enter by one allowed unit move: a piece with
  none of them empty cannot move;
- ``moves`` (K, 64, 4) int64: the placement one cell up, down, left, right, -1 when the shape
  would leave the board, cover a wall or the rule forbids that direction;
- ``classes`` (K, 5) int64: pieces, placements, the class's multiplier in the code, the
  goal's placements (a set; 0 when the class has no goal cells) and where the class's sets
  begin in ``lookup`` (-1 when the class has too many to list);
- ``lookup`` int64: for small classes, the placement set of each class rank, so decoding a
  code costs a division and a load per class;
- ``binom`` (65, 65) int64: binomial coefficients (all fit in int64 for n <= 64);
- ``info`` int64: [walls mask, metric (0 unit, 1 slide, 2 step), whether there is a goal].

Private: :mod:`huarong.puzzles` wraps them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels import hash_table
from huarong._kernels._jit import inline_kernel, kernel, trailing_zeros

Int = int | np.integer[Any]

PIECES, PLACES, MULTIPLIER, GOAL, LOOKUP = 0, 1, 2, 3, 4
WALLS, METRIC, HAS_GOAL = 0, 1, 2
UNIT, SLIDE, STEP = 0, 1, 2
HALO = 64
_ONE = np.int64(1)


# ----- codes ------------------------------------------------------------------------------
@inline_kernel
def class_rank(places: Int, binom: np.ndarray) -> Int:
    """The rank of one class's placement set among the sets of its size."""
    rank = np.int64(0)
    i = 1
    while places != 0:
        rank += binom[trailing_zeros(places), i]
        places &= places - 1
        i += 1
    return rank


@inline_kernel
def class_unrank(rank: Int, pieces: Int, places: Int, binom: np.ndarray) -> Int:
    """The placement set of a class's ``rank`` (``pieces`` among ``places`` placements)."""
    found = np.int64(0)
    p = places - 1
    for i in range(pieces, 0, -1):
        while binom[p, i] > rank:
            p -= 1
        found |= _ONE << p
        rank -= binom[p, i]
        p -= 1
    return found


@kernel
def class_sets(pieces: Int, places: Int, binom: np.ndarray) -> np.ndarray:
    """Every placement set of a class, by rank."""
    count = binom[places, pieces]
    found = np.empty(count, dtype=np.int64)
    for rank in range(count):
        found[rank] = class_unrank(rank, pieces, places, binom)
    return found


@inline_kernel
def unrank(code: Int, classes: np.ndarray, binom: np.ndarray, lookup: np.ndarray,
           sets: np.ndarray) -> None:
    """Write the placement set of each class of the state ``code`` into ``sets``."""
    rest = np.int64(code)
    for c in range(classes.shape[0]):
        multiplier = classes[c, MULTIPLIER]
        rank = rest // multiplier
        rest -= rank * multiplier
        if classes[c, LOOKUP] >= 0:
            sets[c] = lookup[classes[c, LOOKUP] + rank]
        else:
            sets[c] = class_unrank(rank, classes[c, PIECES], classes[c, PLACES], binom)


@kernel
def rank(sets: np.ndarray, classes: np.ndarray, binom: np.ndarray) -> Int:
    """The code of the state whose class placement sets are ``sets``."""
    code = np.int64(0)
    for c in range(classes.shape[0]):
        code += class_rank(sets[c], binom) * classes[c, MULTIPLIER]
    return code


@kernel
def unrank_many(codes: np.ndarray, classes: np.ndarray, binom: np.ndarray,
                lookup: np.ndarray) -> np.ndarray:
    """The class placement sets of each code: (codes, K) int64."""
    sets = np.empty((codes.shape[0], classes.shape[0]), dtype=np.int64)
    for i in range(codes.shape[0]):
        unrank(codes[i], classes, binom, lookup, sets[i])
    return sets


@kernel
def boards(codes: np.ndarray, masks: np.ndarray, classes: np.ndarray, binom: np.ndarray,
           lookup: np.ndarray, info: np.ndarray, cells: Int) -> np.ndarray:
    """Each code's board: per cell 0 empty, 255 wall, else a number of its own for each piece
    (1, 2, ... in class order, then by anchor), so that two touching pieces of one shape
    still show as two."""
    result = np.zeros((codes.shape[0], cells), dtype=np.uint8)
    sets = np.empty(classes.shape[0], dtype=np.int64)
    walls = info[WALLS]
    for i in range(codes.shape[0]):
        unrank(codes[i], classes, binom, lookup, sets)
        for cell in range(cells):
            if (walls >> cell) & 1:
                result[i, cell] = 255
        piece = 0
        for c in range(classes.shape[0]):
            places = sets[c]
            while places != 0:
                covered = masks[c, trailing_zeros(places)]
                places &= places - 1
                piece += 1
                while covered != 0:
                    result[i, trailing_zeros(covered)] = piece
                    covered &= covered - 1
    return result


@inline_kernel
def is_goal(sets: np.ndarray, classes: np.ndarray, info: np.ndarray) -> bool:
    """Whether every goal placement is taken by a piece of its class."""
    if info[HAS_GOAL] == 0:
        return False
    for c in range(classes.shape[0]):
        wanted = classes[c, GOAL]
        if sets[c] & wanted != wanted:
            return False
    return True


@kernel
def goal_flags(codes: np.ndarray, classes: np.ndarray, binom: np.ndarray,
               lookup: np.ndarray, info: np.ndarray) -> np.ndarray:
    """Which of ``codes`` are goal states."""
    flags = np.zeros(codes.shape[0], dtype=np.bool_)
    sets = np.empty(classes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        unrank(codes[i], classes, binom, lookup, sets)
        flags[i] = is_goal(sets, classes, info)
    return flags


# ----- moves ------------------------------------------------------------------------------
@kernel
def neighbours(code: Int, masks: np.ndarray, moves: np.ndarray, classes: np.ndarray,
               binom: np.ndarray, lookup: np.ndarray, info: np.ndarray, sets: np.ndarray,
               out: np.ndarray, stack: np.ndarray) -> Int:
    """Write the codes one move from ``code`` into ``out``; returns how many.  ``sets``
    (K) and ``stack`` (64) are scratch.  No code comes twice: each move puts one piece on a
    placement of its class that no other move of that piece reaches."""
    unrank(code, classes, binom, lookup, sets)
    occupied = info[WALLS]
    for c in range(classes.shape[0]):
        places = sets[c]
        while places != 0:
            occupied |= masks[c, trailing_zeros(places)]
            places &= places - 1
    empty = ~occupied
    metric = info[METRIC]
    count = 0
    for c in range(classes.shape[0]):
        own = sets[c]
        multiplier = classes[c, MULTIPLIER]
        rest = code - class_rank(own, binom) * multiplier
        pieces = own
        while pieces != 0:
            at = trailing_zeros(pieces)
            pieces &= pieces - 1
            if masks[c, HALO + at] & empty == 0:
                continue
            others = occupied & ~masks[c, at]
            without = own ^ (_ONE << at)
            if metric == STEP:
                seen = _ONE << at
                stack[0] = at
                depth = 1
                while depth > 0:
                    depth -= 1
                    here = stack[depth]
                    for d in range(4):
                        there = moves[c, here, d]
                        if there < 0 or (seen >> there) & 1 or masks[c, there] & others:
                            continue
                        seen |= _ONE << there
                        stack[depth] = there
                        depth += 1
                        out[count] = rest + class_rank(without | (_ONE << there),
                                                       binom) * multiplier
                        count += 1
            else:
                for d in range(4):
                    there = moves[c, at, d]
                    while there >= 0 and masks[c, there] & others == 0:
                        out[count] = rest + class_rank(without | (_ONE << there),
                                                       binom) * multiplier
                        count += 1
                        if metric == UNIT:
                            break
                        there = moves[c, there, d]
    return count


# ----- the table of found states -------------------------------------------------------
@kernel
def table_of(codes: np.ndarray, size: Int, bits: Int) -> tuple[np.ndarray, np.ndarray]:
    """A table of 2**bits slots holding the first ``size`` codes: (keys, values), each code's
    index as an int32 value (:mod:`huarong._kernels.hash_table`)."""
    return hash_table.table_of(codes, size, bits, np.int32)


@kernel
def table_into(keys: np.ndarray, values: np.ndarray, codes: np.ndarray, size: Int,
               bits: Int) -> tuple[np.ndarray, np.ndarray]:
    """A table of ``codes[:size]`` in the first ``2**bits`` slots of ``keys`` (every slot
    free), or in new arrays when it lacks the room: (keys, values)."""
    if (_ONE << bits) > keys.shape[0]:
        return hash_table.table_of(codes, size, bits, np.int32)
    for index in range(size):
        hash_table.insert(keys, values, bits, codes[index], index)
    return keys, values


@kernel
def table_free(keys: np.ndarray, bits: Int, codes: np.ndarray, size: Int) -> None:
    """Free the slots of the table of ``codes[:size]`` (``2**bits`` slots)."""
    hash_table.clear(keys, bits, codes, size)


# ----- searches -----------------------------------------------------------------------------
@kernel
def bitset_of(codes: np.ndarray, size: Int, words: Int) -> np.ndarray:
    """A bitset of ``words`` int64 words with the bits of the first ``size`` codes set."""
    found = np.zeros(words, dtype=np.int64)
    for index in range(size):
        found[codes[index] >> 6] |= _ONE << (codes[index] & 63)
    return found


@kernel
def explore(codes: np.ndarray, keys: np.ndarray, values: np.ndarray, bits: Int,
            dense: np.ndarray, head: Int, size: Int, stop_head: Int, parents: np.ndarray,
            offsets: np.ndarray, targets: np.ndarray, edges: Int, masks: np.ndarray,
            moves: np.ndarray, classes: np.ndarray, binom: np.ndarray, lookup: np.ndarray,
            info: np.ndarray, most: Int, stop_at_goal: bool, limit: Int
            ) -> tuple[Int, Int, Int, Int]:
    """Breadth-first search: expand ``codes[head]``, ``codes[head + 1]``, ... appending the
    new states, until every found state is expanded, ``stop_head`` is reached or the storage
    might overflow (``most``: the most neighbours of a state).

    Found states are kept in the hash table (``keys``, ``values``: code to index) or, when
    ``dense`` is not empty, in that bitset over all codes (a perfect index: no indices, so
    neither parents nor edges).  ``parents`` (int32) records each state's parent when it is
    not empty; ``offsets``/``targets`` record the edges (CSR) when ``targets`` is not empty.
    With ``stop_at_goal`` it stops at the first goal found, and past ``limit`` states it
    stops counting (the cluster is too large: no need to finish it).  The table is
    ``2**bits`` slots of ``keys`` (its first; the rest free).  Returns (head, size, edges, goal
    index or -1); the caller grows the storage and calls again."""
    sets = np.empty(classes.shape[0], dtype=np.int64)
    out = np.empty(most, dtype=np.int64)
    stack = np.empty(64, dtype=np.int64)
    with_parents = parents.shape[0] > 0
    with_edges = targets.shape[0] > 0
    by_bits = dense.shape[0] > 0
    room = codes.shape[0] - most if by_bits else min(codes.shape[0], (_ONE << bits) // 2) - most
    while head < size and head < stop_head and size <= room and size <= limit and (
            not with_edges or edges + most <= targets.shape[0]):
        count = neighbours(codes[head], masks, moves, classes, binom, lookup, info, sets, out,
                           stack)
        for i in range(count):
            code = out[i]
            if by_bits:
                word = code >> 6
                bit = _ONE << (code & 63)
                if dense[word] & bit:
                    continue
                dense[word] |= bit
            else:
                index = hash_table.insert(keys, values, bits, code, size)
                if with_edges:
                    targets[edges] = index
                    edges += 1
                if index != size:
                    continue
            codes[size] = code
            if with_parents:
                parents[size] = head
            size += 1
            if stop_at_goal:
                unrank(code, classes, binom, lookup, sets)
                if is_goal(sets, classes, info):
                    return head, size, edges, size - 1
        head += 1
        if with_edges:
            offsets[head] = edges
    return head, size, edges, np.int64(-1)
