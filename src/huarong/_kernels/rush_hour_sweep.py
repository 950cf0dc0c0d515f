"""The Rush Hour preset's search (:func:`sweep`): the clusters of every column arrangement
of a set of rows, grown from their solved states, their distances, hardest starts and
minimality, one row per cluster that passes (see :mod:`huarong._kernels.rush_hour` for the
board, the keys and the moves).

The sweep walks the placements level by level, a level per movable piece of the rows then a
level per column (:func:`_next_row_place`, :func:`_next_column_choice`); a placement of
every level is a seed, and each seed's cluster goes through :func:`_cluster`,
:func:`_distances`, :func:`_hardest_start`, the minimality test and :func:`_written`.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels import hash_table
from huarong._kernels._jit import inline_kernel, kernel
from huarong._kernels.arrays import grown
from huarong._kernels.rush_hour import (
    CELLS,
    CLUSTER_COUNT,
    CLUSTERS,
    COLUMN_LENGTHS,
    DISTANCES,
    ENUMERATE,
    POSITION,
    POSITION_BITS,
    ROWS,
    SEEDS,
    SIDE,
    STATES,
    TARGET,
    column_choices,
    masks_of,
    neighbours,
)
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
    choices = column_choices(allowed, all_masks)
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
    level = 0
    position[0] = row_pieces[0, 2] - 1
    taken[0] = wall_mask
    while level >= 0:
        if level < rows:
            level = _next_row_place(level, row_pieces, masks, length, position, index, taken,
                                    required, pieces)
            continue
        level = _next_column_choice(level, rows, choices, column_letter, all_masks, masks,
                                    length, last, vertical, letter, position, index, taken,
                                    required, pieces)
        if level < levels:
            continue
        level -= 1
        tallies[SEEDS] += 1
        if mode == ENUMERATE:
            continue
        n = pieces[levels]
        seed = np.int64(0)
        for i in range(n):
            seed |= position[i] << (POSITION_BITS * i)
        count, canonical, states, keys, values, bits = _cluster(
            seed, n, masks, last, wall_mask, buffer, states, keys, values, bits)
        if canonical:
            tallies[CLUSTER_COUNT] += 1
            tallies[STATES] += count
        if canonical and mode != CLUSTERS:
            distance = grown(distance, 0, count)
            order = grown(order, 0, count)
            solved = _distances(states, count, n, masks, last, wall_mask, buffer, keys,
                                values, bits, distance, order)
            hardest, best = _hardest_start(states, distance, order, count, n, masks,
                                           vertical, wall_mask)
            if hardest > 0 and mode != DISTANCES and minimal(
                    mode, best, hardest, n, masks, last, wall_mask, walls, buffer):
                found = _written(found, tallies[ROWS], hardest, count, solved, best, n, masks,
                                 letter, walls)
                tallies[ROWS] += 1
        hash_table.clear(keys, bits, states, count)
    written = tallies[ROWS] - _rows_before(found, tallies[ROWS])
    return found[0], found[1], found[2], found[3].reshape((-1, CELLS)), written
