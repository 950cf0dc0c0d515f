"""Hot loops of the search over every partition of a small board into pieces and voids
(N. Bickford's 4x4 sliding-block puzzles, :mod:`huarong.puzzles.presets.bickford`).

A board of at most 16 cells (``rows`` x ``columns``, cells numbered row by row) is split
into pieces (any 4-connected sets of cells) and voids.  A state is such a partition with one
piece marked as the goal piece; pieces of one shape are interchangeable, the goal piece is
told apart.  Its key (int64) is the partition itself, which names no piece:

- bits 0-15: the occupied cells;
- bits 16-31: the cells joined to their right neighbour (same piece);
- bits 32-47: the cells joined to the neighbour below;
- bits 48-51: the goal piece's first cell (its lowest cell number).

Two cells of one piece that touch are always joined, so the pieces are the connected parts of
the joined cells, and moving a piece changes only its own cells and joins.

Moves are counted in the step metric: one move takes one piece anywhere it reaches by unit
moves, the other pieces standing still.

Private: :mod:`huarong.puzzles.presets.bickford` wraps them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels import hash_table
from huarong._kernels._jit import inline_kernel, kernel, trailing_zeros
from huarong._kernels.arrays import grown

Int = int | np.integer[Any]

MAX_CELLS = 16
"""The most cells a board may have (the key holds three 16-bit masks and a cell)."""

ROWS, COLUMNS, CELLS, TOP, BOTTOM, LEFT, RIGHT = range(7)
GEOMETRY = 7
"""The fields of ``geometry`` (int64): rows, columns, cells, and the masks of the top row,
bottom row, left column and right column."""

_ONE = np.int64(1)
_MASK16 = np.int64(0xFFFF)
_STACK = 40


def geometry_of(rows: int, columns: int) -> np.ndarray:
    """The ``geometry`` array of a ``rows`` x ``columns`` board."""
    cells = rows * columns
    column_of = np.arange(cells) % columns
    row_of = np.arange(cells) // columns

    def mask(chosen: np.ndarray) -> int:
        return int(sum(1 << int(cell) for cell in np.flatnonzero(chosen)))

    return np.array([rows, columns, cells, mask(row_of == 0), mask(row_of == rows - 1),
                     mask(column_of == 0), mask(column_of == columns - 1)], dtype=np.int64)


# ----- keys --------------------------------------------------------------------------------
@inline_kernel
def _joins(piece: Int, geometry: np.ndarray) -> tuple[Int, Int]:
    """A piece's joins: (cells joined to the right, cells joined below)."""
    right = piece & (piece >> 1) & ~geometry[RIGHT]
    below = piece & (piece >> geometry[COLUMNS])
    return right, below


@inline_kernel
def _piece_at(cell: Int, key: Int, columns: Int) -> Int:
    """The cells of the piece holding ``cell`` (its joined cells, grown to a fixed point)."""
    right = (key >> 16) & _MASK16
    below = (key >> 32) & _MASK16
    piece = _ONE << cell
    while True:
        grown = (piece | ((piece & right) << 1) | ((piece >> 1) & right)
                 | ((piece & below) << columns) | ((piece >> columns) & below))
        if grown == piece:
            return piece
        piece = grown


@inline_kernel
def _key(occupied: Int, right: Int, below: Int, goal: Int) -> Int:
    return occupied | (right << 16) | (below << 32) | (goal << 48)


@inline_kernel
def _bounded(piece: Int, first: Int, second: Int) -> bool:
    """Whether the piece touches both edges (two of the row and column masks)."""
    return (piece & first) != 0 and (piece & second) != 0


@kernel
def pieces_of(key: Int, geometry: np.ndarray, out: np.ndarray) -> Int:
    """Write the cells of each piece of ``key`` into ``out``, the goal piece first, then by
    first cell; returns how many."""
    occupied = key & _MASK16
    goal = _piece_at((key >> 48) & 15, key, geometry[COLUMNS])
    out[0] = goal
    count = 1
    rest = occupied & ~goal
    while rest != 0:
        piece = _piece_at(trailing_zeros(rest), key, geometry[COLUMNS])
        out[count] = piece
        count += 1
        rest &= ~piece
    return count


# ----- moves -------------------------------------------------------------------------------
@inline_kernel
def _shifted(piece: Int, direction: Int, geometry: np.ndarray) -> Int:
    """The piece one cell up, down, left or right (0..3); 0 when it would leave the board."""
    columns = geometry[COLUMNS]
    if direction == 0:
        return 0 if piece & geometry[TOP] else piece >> columns
    if direction == 1:
        return 0 if piece & geometry[BOTTOM] else piece << columns
    if direction == 2:
        return 0 if piece & geometry[LEFT] else piece >> 1
    return 0 if piece & geometry[RIGHT] else piece << 1


@inline_kernel
def _neighbours(key: Int, geometry: np.ndarray, pieces: np.ndarray, queue: np.ndarray,
                out: np.ndarray) -> Int:
    """Write the keys one move from ``key`` into ``out``; returns how many.  ``pieces`` and
    ``queue`` (16 each) are scratch."""
    occupied = key & _MASK16
    right = (key >> 16) & _MASK16
    below = (key >> 32) & _MASK16
    goal = (key >> 48) & 15
    count = pieces_of(key, geometry, pieces)
    found = 0
    for p in range(count):
        piece = pieces[p]
        others = occupied & ~piece
        own_right, own_below = _joins(piece, geometry)
        rest_right = right & ~own_right
        rest_below = below & ~own_below
        # Where the piece reaches alone: a breadth-first search over its translations, each
        # known by its first cell.
        seen = _ONE << trailing_zeros(piece)
        queue[0] = piece
        head, tail = 0, 1
        while head < tail:
            here = queue[head]
            head += 1
            for direction in range(4):
                there = _shifted(here, direction, geometry)
                if there == 0 or there & others:
                    continue
                first = trailing_zeros(there)
                if (seen >> first) & 1:
                    continue
                seen |= _ONE << first
                queue[tail] = there
                tail += 1
                moved_right, moved_below = _joins(there, geometry)
                out[found] = _key(others | there, rest_right | moved_right,
                                  rest_below | moved_below, first if p == 0 else goal)
                found += 1
    return found


# ----- the partitions ------------------------------------------------------------------------
@inline_kernel
def _next_piece(stack: np.ndarray, level: Int, depth: np.ndarray, allowed: Int,
                near: np.ndarray) -> Int:
    """The next connected set of ``allowed`` cells holding the level's first cell
    (Redelmeier's method, one frame per (untried, piece, seen) triple): 0 when none is
    left."""
    while depth[level] > 0:
        depth[level] -= 1
        top = depth[level]
        untried = stack[level, top, 0]
        piece = stack[level, top, 1]
        seen = stack[level, top, 2]
        if untried == 0:
            continue
        cell = trailing_zeros(untried)
        rest = untried & (untried - 1)
        stack[level, top, 0] = rest
        fresh = near[cell] & allowed & ~seen
        grown = piece | (_ONE << cell)
        stack[level, top + 1, 0] = rest | fresh
        stack[level, top + 1, 1] = grown
        stack[level, top + 1, 2] = seen | fresh
        depth[level] = top + 2
        return grown
    return np.int64(0)


@inline_kernel
def _normal(piece: Int, geometry: np.ndarray) -> Int:
    """The piece moved to the board's upper-left corner (its shape)."""
    columns = geometry[COLUMNS]
    while piece & geometry[TOP] == 0:
        piece >>= columns
    while piece & geometry[LEFT] == 0:
        piece >>= 1
    return piece


@inline_kernel
def _first_ending(occupied: Int, chosen: np.ndarray, level: Int, geometry: np.ndarray
                  ) -> Int:
    """The first of the pieces ``chosen[:level]`` touching the bottom row and the right
    column, counting along the bottom row from the right (Bickford's goal piece); 0 when
    none does."""
    cells = geometry[CELLS]
    columns = geometry[COLUMNS]
    for column in range(columns - 1, -1, -1):
        cell = _ONE << (cells - columns + column)
        if occupied & cell == 0:
            continue
        for k in range(level):
            if chosen[k] & cell:
                if chosen[k] & geometry[RIGHT]:
                    return chosen[k]
                break
    return np.int64(0)


@kernel
def seeds(geometry: np.ndarray, near: np.ndarray, shapes: np.ndarray, corner: bool,
          out: np.ndarray, signatures: np.ndarray) -> tuple[Int, Int]:
    """Every partition of the board into pieces and at least one void, each piece one of
    ``shapes`` (sorted masks of shapes in the upper-left corner; empty: any), and in each
    every *justsolved* state: the goal piece is the first piece touching the bottom row and
    the right column, counting along the bottom row from the right (with ``corner``, it
    covers the lower-right cell), and can move one cell up or left.

    Writes the states' keys into ``out`` and their partition's signature (how many pieces
    of each size, four bits a size) into ``signatures`` while they have room; returns (how
    many there are (call again with room for them), how many partitions there are, voids or
    none)."""
    cells = geometry[CELLS]
    columns = geometry[COLUMNS]
    full = (_ONE << cells) - 1
    corner_cell = _ONE << (cells - 1)
    stack = np.zeros((cells + 1, _STACK, 3), dtype=np.int64)
    depth = np.zeros(cells + 1, dtype=np.int64)
    undecided = np.zeros(cells + 1, dtype=np.int64)
    chosen = np.zeros(cells + 1, dtype=np.int64)
    voided = np.zeros(cells + 1, dtype=np.bool_)
    found = 0
    partitions = 0
    level = 0
    undecided[0] = full
    while level >= 0:
        if undecided[level] == 0:
            # A whole partition: pieces are the chosen sets of the levels above.
            partitions += 1
            occupied = np.int64(0)
            right = np.int64(0)
            below = np.int64(0)
            signature = np.int64(0)
            voids = 0
            for k in range(level):
                piece = chosen[k]
                if piece == 0:
                    voids += 1
                    continue
                occupied |= piece
                joined_right, joined_below = _joins(piece, geometry)
                right |= joined_right
                below |= joined_below
                size = 0
                rest = piece
                while rest != 0:
                    rest &= rest - 1
                    size += 1
                signature += _ONE << (4 * (size - 1))
            goal = _first_ending(occupied, chosen, level, geometry)
            if voids > 0 and goal != 0 and (goal & corner_cell or not corner):
                others = occupied & ~goal
                up = goal & geometry[TOP] == 0 and (goal >> columns) & others == 0
                left = goal & geometry[LEFT] == 0 and (goal >> 1) & others == 0
                if up or left:
                    if found < out.shape[0]:
                        out[found] = _key(occupied, right, below, trailing_zeros(goal))
                        signatures[found] = signature
                    found += 1
            level -= 1
            continue
        first = trailing_zeros(undecided[level])
        if not voided[level]:
            voided[level] = True
            stack[level, 0, 0] = _ONE << first
            stack[level, 0, 1] = 0
            stack[level, 0, 2] = _ONE << first
            depth[level] = 1
            chosen[level] = 0
        else:
            piece = np.int64(0)
            while True:
                piece = _next_piece(stack, level, depth, undecided[level], near)
                if piece == 0 or shapes.shape[0] == 0:
                    break
                shape = _normal(piece, geometry)
                at = np.searchsorted(shapes, shape)
                if at < shapes.shape[0] and shapes[at] == shape:
                    break
            if piece == 0:
                level -= 1
                continue
            chosen[level] = piece
        undecided[level + 1] = undecided[level] & ~(chosen[level] | (_ONE << first))
        voided[level + 1] = False
        level += 1
    return np.int64(found), np.int64(partitions)


# ----- the clusters --------------------------------------------------------------------------
@kernel
def clusters(starts: np.ndarray, seeds: np.ndarray, geometry: np.ndarray
             ) -> tuple[Int, Int, Int, Int, Int, Int]:
    """The clusters (states that reach each other) of the states ``starts``, skipping those
    whose cluster holds a state of ``seeds`` (sorted) already done: for each, every state,
    the solved ones (the goal piece touches the bottom row and the right column), and each
    state's distance from the nearest solved one.  A start is a state whose goal piece
    touches the top row and the left column.

    Returns (clusters searched, their states, solved states, the hardest start's length (-1:
    no start reaches a solved state), its key, the most states in one cluster).  Of starts
    equally hard, the smallest key."""
    done = np.zeros(seeds.shape[0], dtype=np.bool_)
    # The table of the cluster's states: each key's index in ``order``.
    order = np.empty(1 << 10, dtype=np.int64)
    bits: Int = hash_table.SMALLEST_BITS
    keys, values = hash_table.table_of(order, 0, bits, np.int64)
    line = np.empty(1 << 10, dtype=np.int64)
    offsets = np.zeros((1 << 10) + 1, dtype=np.int64)
    targets = np.empty(1 << 12, dtype=np.int32)
    distance = np.empty(1 << 10, dtype=np.int32)
    pieces = np.empty(16, dtype=np.int64)
    queue = np.empty(16, dtype=np.int64)
    out = np.empty(16 * 16, dtype=np.int64)
    searched, states, solved = 0, 0, 0
    best, hardest, largest = -1, np.int64(-1), 0
    columns = geometry[COLUMNS]
    for s in range(starts.shape[0]):
        start = starts[s]
        at = np.searchsorted(seeds, start)
        if at < seeds.shape[0] and seeds[at] == start and done[at]:
            continue
        # The cluster: a breadth-first search from the start, its edges kept (CSR).
        size = 1
        order[0] = start
        hash_table.insert(keys, values, bits, start, 0)
        edges = 0
        goals = 0
        head = 0
        while head < size:
            key = order[head]
            goal = _piece_at((key >> 48) & 15, key, columns)
            if _bounded(goal, geometry[BOTTOM], geometry[RIGHT]):
                distance[head] = 0
                goals += 1
                at = np.searchsorted(seeds, key)
                if at < seeds.shape[0] and seeds[at] == key:
                    done[at] = True
            else:
                distance[head] = -1
            count = _neighbours(key, geometry, pieces, queue, out)
            if edges + count > targets.shape[0]:
                targets = grown(targets, edges, edges + count)
            for i in range(count):
                other = out[i]
                index = hash_table.insert(keys, values, bits, other, size)
                if index == size:
                    if size == order.shape[0]:
                        order = grown(order, size, size + 1)
                        line = grown(line, 0, size + 1)
                        distance = grown(distance, size, size + 1)
                        offsets = grown(offsets, size + 1, order.shape[0] + 1)
                    order[size] = other
                    size += 1
                targets[edges] = index
                edges += 1
            head += 1
            offsets[head] = edges
            if hash_table.crowded(size, bits):
                bits += 1
                keys, values = hash_table.table_of(order, size, bits, np.int64)
        searched += 1
        states += size
        solved += goals
        largest = max(largest, size)
        # The distances from the solved states, over the kept edges.
        tail = 0
        for i in range(size):
            if distance[i] == 0:
                line[tail] = i
                tail += 1
        head = 0
        while head < tail:
            i = line[head]
            head += 1
            level = distance[i]
            key = order[i]
            goal = _piece_at((key >> 48) & 15, key, columns)
            if _bounded(goal, geometry[TOP], geometry[LEFT]) and (
                    level > best or (level == best and key < hardest)):
                best, hardest = level, key
            for e in range(offsets[i], offsets[i + 1]):
                j = targets[e]
                if distance[j] < 0:
                    distance[j] = level + 1
                    line[tail] = j
                    tail += 1
        hash_table.clear(keys, bits, order, size)
    return (np.int64(searched), np.int64(states), np.int64(solved), np.int64(best), hardest,
            np.int64(largest))
