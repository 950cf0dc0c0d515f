"""Numba kernels that build pattern databases for sliding-tile puzzles.

A pattern state lists the cells of the pattern's tiles (and, while building, the blank's),
ranked as an arrangement of distinct cells.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.npuzzle_search import UNREACHED, _grown

PATTERN_UNREACHED = 0x7F
PATTERN_EXPANDED = 0x80

Array = Any


@kernel
def bit_tables() -> tuple[Array, Array]:
    """For every 16-bit set of used cells: how many are set, and the cell of each free rank
    (``select[used, k]`` is the k-th cell not in ``used``)."""
    popcount = np.zeros(1 << 16, np.uint8)
    select = np.zeros((1 << 16, 16), np.uint8)
    for used in range(1 << 16):
        popcount[used] = popcount[used >> 1] + (used & 1)
        free = 0
        for cell in range(16):
            if (used >> cell) & 1 == 0:
                select[used, free] = cell
                free += 1
    return popcount, select


@kernel
def _partial_rank(positions: Array, count: int, cells: int, popcount: Array) -> int:
    """Rank of the first ``count`` positions as an arrangement of distinct cells (mixed radix
    ``cells, cells - 1, ...``), the later radices being the least significant."""
    rank = 0
    used = 0
    for i in range(count):
        cell = positions[i]
        rank = rank * (cells - i) + (cell - popcount[used & ((1 << cell) - 1)])
        used |= 1 << cell
    return rank


@kernel
def _partial_unrank(rank: int, count: int, cells: int, select: Array, positions: Array) -> int:
    """Inverse of :func:`_partial_rank`; returns the set of cells used."""
    for i in range(count - 1, -1, -1):
        radix = cells - i
        positions[i] = rank % radix
        rank //= radix
    used = 0
    for i in range(count):
        cell = int(select[used, positions[i]])
        positions[i] = cell
        used |= 1 << cell
    return used


@kernel
def pattern_start(goal_positions: Array, cells: int, distances: Array, popcount: Array) -> Array:
    """Seed a pattern-database build: ``goal_positions`` lists the pattern tiles' goal cells
    and then the blank's.  Marks that state at distance 0 and returns it as the first layer."""
    count = goal_positions.size
    start = _partial_rank(goal_positions, count, cells, popcount)
    distances[start] = 0
    layer = np.empty(1, np.int64)
    layer[0] = start
    return layer


@kernel
def pattern_layer(
    layer: Array, layer_size: int, distance: int, tile_count: int, cells: int, cols: int,
    neighbours: Array, distances: Array, popcount: Array, select: Array,
) -> tuple[Array, int, int]:
    """Settle one distance of a pattern-database build.

    A state is the cells of the pattern tiles then the blank's.  The blank roams the cells free
    of pattern tiles at no cost (those moves are not counted, which keeps disjoint databases
    additive), so a state is settled together with its whole blank region, found by flooding
    a cell bitmask; swapping the blank with a pattern tile costs one.  Table bytes hold the
    distance, or ``PATTERN_UNREACHED``, plus ``PATTERN_EXPANDED`` once the region is done.
    ``layer`` lists states marked at ``distance``.  Returns ``(next_layer, next_size,
    states_settled)``.
    """
    count = tile_count + 1
    all_cells = (1 << cells) - 1
    first_column = 0
    last_column = 0
    for cell in range(cells):
        if cell % cols == 0:
            first_column |= 1 << cell
        if cell % cols == cols - 1:
            last_column |= 1 << cell
    positions = np.empty(count, np.int64)
    next_layer = np.empty(max(16, layer_size), np.int64)
    next_size = 0
    settled = 0
    expanded_mark = distance | PATTERN_EXPANDED
    for scan in range(layer_size):
        state = layer[scan]
        if distances[state] & PATTERN_EXPANDED:
            continue
        used = _partial_unrank(state, count, cells, select, positions)
        blank = positions[tile_count]
        tiles_used = used & ~(1 << blank)
        free = all_cells & ~tiles_used
        region = 1 << blank
        while True:
            grown = (region | ((region << 1) & ~first_column) | ((region >> 1) & ~last_column)
                     | (region << cols) | (region >> cols)) & free
            if grown == region:
                break
            region = grown
        # The blank is the last, least significant digit of the rank.
        arrangement_base = state - (blank - popcount[tiles_used & ((1 << blank) - 1)])
        rest = region
        while rest != 0:
            lowest = rest & -rest
            cell = int(popcount[lowest - 1])
            rest ^= lowest
            distances[arrangement_base + cell - popcount[tiles_used & (lowest - 1)]] = (
                expanded_mark)
            settled += 1
        for i in range(tile_count):
            source = positions[i]
            for direction in range(4):
                target = neighbours[source, direction]
                if target < 0 or (region >> target) & 1 == 0:
                    continue
                positions[i] = target
                positions[tile_count] = source
                child = _partial_rank(positions, count, cells, popcount)
                positions[i] = source
                positions[tile_count] = blank
                if distances[child] == PATTERN_UNREACHED:
                    distances[child] = distance + 1
                    if next_size == next_layer.size:
                        next_layer = _grown(next_layer)
                    next_layer[next_size] = child
                    next_size += 1
    return next_layer, next_size, settled


@kernel
def pattern_minimum_over_blank(distances: Array, blank_choices: int) -> Array:
    """Collapse a build table to the tiles-only database: since the blank is ranked last, each
    tiles arrangement owns ``blank_choices`` consecutive entries; keep their minimum."""
    arrangements = distances.size // blank_choices
    compact = np.empty(arrangements, np.uint8)
    for arrangement in range(arrangements):
        best = np.int64(PATTERN_UNREACHED)
        base = arrangement * blank_choices
        for offset in range(blank_choices):
            best = min(best, np.int64(distances[base + offset] & PATTERN_UNREACHED))
        compact[arrangement] = best
    return compact


@kernel
def pattern_sparse(compact: Array, tile_count: int, cells: int, select: Array) -> Array:
    """Spread a tiles-only database over the 16**tiles index that IDA* updates in O(1)."""
    sparse = np.full(1 << (4 * tile_count), UNREACHED, np.uint8)
    positions = np.empty(tile_count, np.int64)
    for arrangement in range(compact.size):
        _partial_unrank(arrangement, tile_count, cells, select, positions)
        index = 0
        for i in range(tile_count):
            index += positions[i] << (4 * i)
        sparse[index] = compact[arrangement]
    return sparse
