"""Numba kernels that build pattern databases for sliding-tile puzzles.

A pattern state lists the cells of the pattern's tiles (and, while building, the blank's),
ranked as an arrangement of distinct cells.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba.core import cgutils, types
from numba.extending import intrinsic

from huarong._kernels._jit import kernel, parallel_kernel, prange
from huarong._kernels.arrays import grown
from huarong._kernels.npuzzle_store import UNREACHED, rank_board, unrank_board

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
def _edge_columns(cells: int, cols: int) -> tuple[int, int]:
    """Bitmasks of the first and of the last column's cells."""
    first_column = 0
    last_column = 0
    for cell in range(cells):
        if cell % cols == 0:
            first_column |= 1 << cell
        if cell % cols == cols - 1:
            last_column |= 1 << cell
    return first_column, last_column


@kernel
def _region(seed: int, free: int, cols: int, first_column: int, last_column: int) -> int:
    """The cells of ``free`` that the blank reaches from ``seed`` (bitmasks), by flooding."""
    region = seed
    while True:
        grown = (region | ((region << 1) & ~first_column) | ((region >> 1) & ~last_column)
                 | (region << cols) | (region >> cols)) & free
        if grown == region:
            return region  # type: ignore[no-any-return]
        region = grown


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
    first_column, last_column = _edge_columns(cells, cols)
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
        region = _region(1 << blank, free, cols, first_column, last_column)
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
                        next_layer = grown(next_layer, next_size, next_size + 1)
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


# ---------------------------------------------------------------- compact databases (7-8)
#
# A compact pattern state is ranked as ``subset * k! + order``: ``subset`` is the colex rank
# of the set of cells the pattern's ``k`` tiles stand on, ``order`` the rank of the
# permutation that says which of those cells (counted from the lowest) each tile has.  All
# states on one cell set lie together, so a breadth-first layer works block by block in
# cache, and sliding a tile from cell ``a`` to cell ``b`` only turns the ordinal ``r`` of
# ``a`` (among the old cells) into the ordinal ``r2`` of ``b`` (among the new cells) and
# shifts the ordinals between them: ``shifts[r * k + r2, order]`` is the new order, so the
# new rank costs two table lookups, both in the build and in IDA*.


@kernel
def colex_ranks(cells: int) -> Array:
    """``ranks[mask]``: the colex rank of the set ``mask`` among the sets of its size
    (``sum C(c_i, i)`` over its cells ``c_1 < c_2 < ...``)."""
    binomial = np.zeros((cells + 1, cells + 2), np.int64)
    for n in range(cells + 1):
        binomial[n, 0] = 1
        for k in range(1, n + 1):
            binomial[n, k] = binomial[n - 1, k - 1] + binomial[n - 1, k]
    ranks = np.zeros(1 << cells, np.int32)
    for mask in range(1 << cells):
        rank = 0
        seen = 0
        for cell in range(cells):
            if (mask >> cell) & 1:
                seen += 1
                rank += binomial[cell, seen]
        ranks[mask] = rank
    return ranks


@kernel
def subsets_by_rank(cells: int, size: int, ranks: Array, popcount: Array) -> Array:
    """The sets of ``size`` cells, indexed by colex rank (inverse of :func:`colex_ranks`)."""
    count = 0
    for mask in range(1 << cells):
        if popcount[mask] == size:
            count += 1
    subsets = np.empty(count, np.int32)
    for mask in range(1 << cells):
        if popcount[mask] == size:
            subsets[ranks[mask]] = mask
    return subsets


@kernel
def ordinal_shifts(size: int, factorials: Array) -> Array:
    """``shifts[r * size + r2, order]``: the order after the tile of ordinal ``r`` takes
    ordinal ``r2`` and the tiles between close up (a flat ``int32`` array)."""
    count = factorials[size]
    shifts = np.empty(size * size * count, np.int32)
    ordinals = np.empty(size, np.int64)
    moved = np.empty(size, np.int64)
    for old in range(size):
        for new in range(size):
            row = (old * size + new) * count
            for order in range(count):
                unrank_board(order, factorials, ordinals)
                for i in range(size):
                    ordinal = ordinals[i]
                    if ordinal == old:
                        moved[i] = new
                    elif old < ordinal <= new:
                        moved[i] = ordinal - 1
                    elif new <= ordinal < old:
                        moved[i] = ordinal + 1
                    else:
                        moved[i] = ordinal
                shifts[row + order] = rank_board(moved, factorials)
    return shifts


@kernel
def compact_goal_rank(goal_cells: Array, ranks: Array, popcount: Array,
                      factorials: Array) -> int:
    """Rank of the state with the pattern's tiles on ``goal_cells`` (in slot order)."""
    size = goal_cells.size
    mask = 0
    for i in range(size):
        mask |= 1 << goal_cells[i]
    ordinals = np.empty(size, np.int64)
    for i in range(size):
        ordinals[i] = popcount[mask & ((1 << goal_cells[i]) - 1)]
    order = rank_board(ordinals, factorials)
    return ranks[mask] * factorials[size] + order  # type: ignore[no-any-return]


FRONTIER_EVEN = 1
_LOW_BITS = 0x5555_5555
FRONTIER_ODD = 2
DONE = 3
"""Codes of a (tiles arrangement, blank) state while building: 0 unseen, then the frontier of an
even or odd distance, then expanded.  Every change only sets bits, so threads that meet in
one word of codes can OR them in atomically without losing each other's marks."""

if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]

    def atomic_or(array: Array, index: Any, bits: Any) -> None:
        array[index] |= bits

else:

    @intrinsic  # type: ignore[misc]
    def atomic_or(typingctx: Any, array: Any, index: Any, bits: Any) -> Any:
        """``array[index] |= bits`` as one atomic instruction."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array_type = signature.args[0]
            values = context.make_array(array_type)(context, builder, args[0])
            position = context.cast(builder, args[1], signature.args[1], types.intp)
            pointer = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
                context, builder, array_type, values, [position])
            operand = context.cast(builder, args[2], signature.args[2], array_type.dtype)
            builder.atomic_rmw("or", pointer, operand, "monotonic")
            return context.get_dummy_value()

        return types.void(array, index, bits), codegen


@kernel
def compact_seed(codes: Array, values: Array, goal_rank: int, blank_ordinal: int) -> None:
    """Mark the goal (its tiles arrangement, the blank on its goal cell) at distance 0."""
    codes[goal_rank] = FRONTIER_EVEN << (2 * blank_ordinal)
    values[goal_rank] = 0


@parallel_kernel
def compact_layer(
    codes: Array, values: Array, active: Array, next_active: Array, distance: int, size: int,
    cols: int, neighbours: Array, subsets: Array, ranks: Array, popcount: Array,
    select: Array, shifts: Array, block: int,
) -> int:
    """Settle one distance of a compact pattern-database build.

    A state is a tiles arrangement and the blank's cell, stored as two bits per free cell of
    the arrangement (ranked among its free cells) in ``codes``.  The blank roams the cells free
    of pattern tiles at no cost (those moves are not counted, which keeps disjoint databases
    additive), so a state is expanded together with its whole blank region, found by flooding
    a cell bitmask; sliding a pattern tile into the region costs one.  ``values`` gets each
    arrangement's least distance over the blank's cells, the database entry.  Blocks (cell
    sets) flagged in ``active`` hold states at ``distance``; blocks that get states at
    ``distance + 1`` are flagged in ``next_active``.  Returns how many states were settled.
    """
    current = FRONTIER_EVEN if distance % 2 == 0 else FRONTIER_ODD
    following = FRONTIER_ODD if distance % 2 == 0 else FRONTIER_EVEN
    settled = 0
    for subset in prange(subsets.size):
        if active[subset] != 0:
            settled += _expand_block(codes, values, next_active, subset, distance, current,
                                     following, size, cols, neighbours, subsets, ranks,
                                     popcount, select, shifts, block)
    return settled


@kernel
def _expand_block(
    codes: Array, values: Array, next_active: Array, subset: int, distance: int, current: int,
    following: int, size: int, cols: int, neighbours: Array, subsets: Array, ranks: Array,
    popcount: Array, select: Array, shifts: Array, block: int,
) -> int:
    """Expand the states at ``distance`` of one block (one set of the tiles' cells) of
    :func:`compact_layer`; returns how many states were settled."""
    cells = neighbours.shape[0]
    all_cells = (1 << cells) - 1
    first_column, last_column = _edge_columns(cells, cols)
    mask = np.int64(subsets[subset])
    free = all_cells & ~mask
    base = np.int64(subset) * block
    # Every slide of a pattern tile from ``cell`` onto a free neighbour ``target``: the
    # child's block, its row of the shift table, and the child blank's ordinal (the blank
    # ends on ``cell``).
    move_target = np.empty(4 * size, np.int64)
    child_base = np.empty(4 * size, np.int64)
    child_row = np.empty(4 * size, np.int64)
    child_subset = np.empty(4 * size, np.int64)
    child_shift = np.empty(4 * size, np.int64)
    moves = 0
    for cell in range(cells):
        if (mask >> cell) & 1 == 0:
            continue
        old = popcount[mask & ((1 << cell) - 1)]
        for direction in range(4):
            target = neighbours[cell, direction]
            if target < 0 or (mask >> target) & 1:
                continue
            moved = mask ^ (1 << cell) ^ (1 << target)
            new = popcount[moved & ((1 << target) - 1)]
            move_target[moves] = target
            child_subset[moves] = ranks[moved]
            child_base[moves] = np.int64(ranks[moved]) * block
            child_row[moves] = (np.int64(old) * size + new) * block
            child_shift[moves] = 2 * (cell - popcount[moved & ((1 << cell) - 1)])
            moves += 1
    found = 0
    for order in range(block):
        while True:
            # The low bit of every two-bit field whose code is ``current``.
            word = np.int64(codes[base + order])
            low = word & ~(word >> 1) if current == FRONTIER_EVEN else (word >> 1) & ~word
            low &= _LOW_BITS
            if low == 0:
                break
            below = (low & -low) - 1
            ordinal = (popcount[below & 0xFFFF] + popcount[below >> 16]) // 2
            region = _region(np.int64(1) << select[mask, ordinal], free, cols, first_column,
                             last_column)
            done_bits = 0
            rest = region
            while rest != 0:
                lowest = rest & -rest
                rest ^= lowest
                spot = lowest - 1
                done_bits |= DONE << (2 * (popcount[spot & 0xFFFF] - popcount[
                    mask & spot & 0xFFFF]))
                found += 1
            atomic_or(codes, base + order, done_bits)
            for move in range(moves):
                if (region >> move_target[move]) & 1 == 0:
                    continue
                child = child_base[move] + shifts[child_row[move] + order]
                if (np.int64(codes[child]) >> child_shift[move]) & 3 != 0:
                    continue
                atomic_or(codes, child, following << child_shift[move])
                next_active[child_subset[move]] = 1
                if values[child] > distance + 1:
                    values[child] = distance + 1
    return found
