"""The Rush Hour preset's search (:func:`sweep`): the clusters of every column arrangement
of a set of rows, grown from their solved states, their distances, hardest starts and
minimality, one row per cluster that passes (see :mod:`huarong._kernels.rush_hour` for the
board, the keys and the moves).

The sweep walks the placements level by level, a level per movable piece of the rows then a
level per column; a placement of every level is a seed, and each seed's cluster goes through
:func:`_cluster`, :func:`_distances`, :func:`_hardest_start`, the minimality test and
:func:`_written`.  The walk itself stays one loop: as functions of their own (inlined or
not), its two steps made the walk 6 times slower, numba counting the references to the dozen
arrays they share at every step.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels import hash_table
from huarong._kernels._jit import kernel
from huarong._kernels.arrays import grown
from huarong._kernels.hash_table import Int
from huarong._kernels.rush_hour import (
    CLUSTER_COUNT,
    CLUSTERS,
    COLUMN_LENGTHS,
    DISTANCES,
    ENUMERATE,
    POSITION,
    POSITION_BITS,
    ROWS,
    SEEDS,
    STATES,
    column_choices,
    masks_of,
    neighbours,
)
from huarong._kernels.rush_hour_board import CELLS, SIDE, TARGET
from huarong._kernels.rush_hour_minimality import minimal

_EMPTY = ord("o")
_WALL = ord("x")
_COLUMN_CELLS = np.array([sum(1 << (r * SIDE + c) for r in range(SIDE)) for c in range(SIDE)],
                         dtype=np.int64)


@kernel
def sweep(row_pieces: np.ndarray, walls: np.ndarray, column_letter: int,
          allowed: np.ndarray, mode: int, all_masks: np.ndarray, tallies: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The clusters of every column content ``allowed`` (``[column, option]``) with these
    rows (see the module); their rows: (moves, states, solved states, boards, how many).

    ``row_pieces[k] = (row, length, lowest, highest position, letter)`` for the red car (row
    2; its lowest and highest the target, for the seeds) and the rows' movable pieces in
    order; ``walls``: their cells; ``column_letter``: the letter of the first vertical
    piece (the next ones follow).  ``mode``: how far to go (``ENUMERATE`` to ``FOGLEMAN``);
    ``tallies``: the four counts to add to (``SEEDS`` to ``ROWS``).

    The seeds are the solved placements where no other piece can move left or up: each
    cluster's smallest solved key is one (moving another piece left or up lowers the key),
    and a cluster is searched from that seed only: a search that meets a smaller solved
    key stops."""
    wall_mask = np.int64(0)
    for cell in walls:
        wall_mask |= np.int64(1) << cell
    rows = row_pieces.shape[0]
    levels = rows + SIDE
    masks, length, last, vertical, letter = _row_lanes(row_pieces, all_masks)
    states = np.empty(1 << 12, dtype=np.int64)
    distance = np.empty(1 << 12, dtype=np.int32)
    order = np.empty(1 << 12, dtype=np.int64)
    bits = hash_table.bits_for(states.shape[0])
    keys, values = hash_table.table_of(states, 0, bits, np.int64)
    buffer = np.empty(4 * masks.shape[0] * SIDE, dtype=np.int64)
    found = (np.empty(256, dtype=np.int16), np.empty(256, dtype=np.int64),
             np.empty(256, dtype=np.int64), np.empty(256 * CELLS, dtype=np.uint8))
    position = np.zeros(masks.shape[0], dtype=np.int64)
    index = np.zeros(levels, dtype=np.int64)
    taken = np.zeros(levels + 1, dtype=np.int64)
    required = np.zeros(levels + 1, dtype=np.int64)
    pieces = np.zeros(levels + 1, dtype=np.int64)
    written = 0
    level = 0
    position[0] = row_pieces[0, 2] - 1
    taken[0] = wall_mask
    counts, choice, choice_cells, choice_above = column_choices(allowed, all_masks)
    while level >= 0:
        if level < rows:
            # The row piece of this level to its next place clear of the pieces before it.  A
            # place that leaves the cell on its left empty requires a column piece there (no
            # piece of a seed can move left).
            p = level
            position[p] += 1
            if position[p] > row_pieces[p, 3]:
                level -= 1
                continue
            cells = masks[p, position[p]]
            if cells & taken[p]:
                continue
            taken[p + 1] = taken[p] | cells
            required[p + 1] = required[p]
            left = row_pieces[p, 0] * SIDE + position[p] - 1
            if p > 0 and position[p] > 0 and not (taken[p] >> left) & 1:
                required[p + 1] |= np.int64(1) << left
            pieces[p + 1] = p + 1
            level += 1
            if level < rows:
                low = row_pieces[level, 2]
                if row_pieces[level - 1, 0] == row_pieces[level, 0] and level > 1:
                    low = max(low, position[level - 1] + length[level - 1])
                position[level] = low - 1
            else:
                index[level] = -1
            continue
        # The column of this level to its next choice that fits: clear of the pieces before
        # it, no vehicle that could move up, every required cell covered.
        c = level - rows
        index[level] += 1
        k = index[level]
        if k >= counts[c]:
            level -= 1
            continue
        cells = choice_cells[c, k]
        full = taken[level] | cells
        if cells & taken[level] or choice_above[c, k] & ~full or (
                required[level] & _COLUMN_CELLS[c] & ~cells):
            continue
        n = pieces[level]
        option = choice[c, k, 0]
        for j in range(2):
            size = COLUMN_LENGTHS[option, j]
            if size == 0:
                break
            length[n] = size
            last[n] = SIDE - size
            vertical[n] = True
            letter[n] = column_letter + n - rows
            position[n] = choice[c, k, 1 + j]
            for q in range(SIDE - size + 1):
                masks[n, q] = all_masks[1, c, size, q]
            n += 1
        taken[level + 1] = full
        required[level + 1] = required[level]
        pieces[level + 1] = n
        if level + 1 < levels:
            level += 1
            index[level] = -1
            continue
        # Every level placed: a seed.
        tallies[SEEDS] += 1
        if mode == ENUMERATE:
            continue
        seed = np.int64(0)
        for i in range(n):
            seed |= position[i] << (POSITION_BITS * i)
        count, canonical, states, keys, values, bits = _cluster(
            seed, n, masks, last, wall_mask, buffer, states, keys, values, bits)
        if canonical:
            tallies[CLUSTER_COUNT] += 1
            tallies[STATES] += count
        if canonical and mode != CLUSTERS:
            if count > distance.shape[0]:
                distance = grown(distance, 0, count)
                order = grown(order, 0, count)
            solved = _distances(states, count, n, masks, last, wall_mask, buffer, keys,
                                values, bits, distance, order)
            hardest, best = _hardest_start(states, distance, order, count, n, masks,
                                           vertical, wall_mask)
            if hardest > 0 and mode != DISTANCES and minimal(
                    mode, best, hardest, n, masks, last, wall_mask, walls, buffer,
                    np.int64(-1)):
                found = _written(found, written, hardest, count, solved, best, n, masks,
                                 letter, walls)
                written += 1
                tallies[ROWS] += 1
        hash_table.clear(keys, bits, states, count)
    return found[0], found[1], found[2], found[3].reshape((-1, CELLS)), written


@kernel
def _row_lanes(row_pieces: np.ndarray, all_masks: np.ndarray) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pieces' lanes, with room for the column pieces after the rows' (the most two a
    column): ``masks[piece, position]`` (its cells), its length, last position, whether
    vertical and its letter."""
    rows = row_pieces.shape[0]
    most = rows + 2 * SIDE
    masks = np.zeros((most, SIDE), dtype=np.int64)
    length = np.zeros(most, dtype=np.int64)
    last = np.zeros(most, dtype=np.int64)
    vertical = np.zeros(most, dtype=np.bool_)
    letter = np.zeros(most, dtype=np.uint8)
    for p in range(rows):
        row, size = row_pieces[p, 0], row_pieces[p, 1]
        length[p] = size
        last[p] = SIDE - size
        letter[p] = row_pieces[p, 4]
        for q in range(SIDE - size + 1):
            masks[p, q] = all_masks[0, row, size, q]
    return masks, length, last, vertical, letter


@kernel
def _cluster(seed: np.int64, n: int, masks: np.ndarray, last: np.ndarray,
             wall_mask: np.int64, buffer: np.ndarray, states: np.ndarray, keys: np.ndarray,
             values: np.ndarray, bits: Int
             ) -> tuple[int, bool, np.ndarray, np.ndarray, np.ndarray, Int]:
    """The seed's cluster by breadth-first search into ``states`` and the table (empty when
    called: ``keys``, ``values``, each state's index, ``2**bits`` slots): (how many states,
    whether the seed is its cluster's smallest solved key (else the search stopped at a
    smaller one), the arrays and bits, grown as needed)."""
    hash_table.insert(keys, values, bits, seed, 0)
    states[0] = seed
    count = 1
    head = 0
    while head < count:
        moves = neighbours(states[head], n, masks, last, wall_mask, -1, buffer)
        head += 1
        for i in range(moves):
            nxt = buffer[i]
            if (nxt & POSITION) == TARGET and nxt < seed:
                return count, False, states, keys, values, bits
            slot = hash_table.slot_of(keys, bits, nxt)
            if keys[slot] == nxt:
                continue
            keys[slot], values[slot] = nxt, count
            if count == states.shape[0]:
                states = grown(states, count, count + 1)
            states[count] = nxt
            count += 1
            if hash_table.crowded(count, bits):
                bits += 1
                keys, values = hash_table.table_of(states, count, bits, np.int64)
    return count, True, states, keys, values, bits


@kernel
def _distances(states: np.ndarray, count: int, n: int, masks: np.ndarray, last: np.ndarray,
               wall_mask: np.int64, buffer: np.ndarray, keys: np.ndarray,
               values: np.ndarray, bits: Int, distance: np.ndarray, order: np.ndarray
               ) -> int:
    """Each state's distance from the nearest solved state of its cluster (``states``,
    indexed by the table) into ``distance``, the states' indices by distance into
    ``order``; the number of solved states."""
    solved = 0
    for i in range(count):
        if (states[i] & POSITION) == TARGET:
            distance[i] = 0
            order[solved] = i
            solved += 1
        else:
            distance[i] = -1
    head, tail = 0, solved
    while head < tail:
        i = order[head]
        head += 1
        moves = neighbours(states[i], n, masks, last, wall_mask, -1, buffer)
        for m in range(moves):
            j = hash_table.find(keys, values, bits, buffer[m])
            if distance[j] < 0:
                distance[j] = distance[i] + 1
                order[tail] = j
                tail += 1
    return solved


@kernel
def _hardest_start(states: np.ndarray, distance: np.ndarray, order: np.ndarray, count: int,
                   n: int, masks: np.ndarray, vertical: np.ndarray, wall_mask: np.int64
                   ) -> tuple[int, np.int64]:
    """(the most moves to a solved state, the hardest start): of the states that far, the
    one with the smallest (horizontal cells, vertical cells) pair."""
    hardest = distance[order[count - 1]]
    best = states[order[count - 1]]
    best_across, best_down = masks_of(best, n, masks, vertical, wall_mask)
    k = count - 2
    while k >= 0 and distance[order[k]] == hardest:
        across, down = masks_of(states[order[k]], n, masks, vertical, wall_mask)
        if across < best_across or (across == best_across and down < best_down):
            best, best_across, best_down = states[order[k]], across, down
        k -= 1
    return hardest, best


@kernel
def _written(found: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], row: int,
             hardest: int, count: int, solved: int, best: np.int64, n: int,
             masks: np.ndarray, letter: np.ndarray, walls: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows ``found`` (moves, states, solved states, boards' cells) with row ``row``
    written (grown as needed): the start ``best``'s board in Fogleman's letters."""
    moves = grown(found[0], row, row + 1)
    states = grown(found[1], row, row + 1)
    solved_states = grown(found[2], row, row + 1)
    boards = grown(found[3], row * CELLS, (row + 1) * CELLS)
    moves[row] = hardest
    states[row] = count
    solved_states[row] = solved
    board = boards[row * CELLS:(row + 1) * CELLS]
    board[:] = _EMPTY
    for cell in walls:
        board[cell] = _WALL
    for i in range(n):
        cells = masks[i, (best >> (POSITION_BITS * i)) & POSITION]
        for cell in range(CELLS):
            if (cells >> cell) & 1:
                board[cell] = letter[i]
    return moves, states, solved_states, boards
