"""Admissible estimates of a sliding-tile board's distance to its goal, whole and after one
move (the running figures IDA* keeps).

Heuristic tables travel as one tuple ``(goal_cell_of_tile, distance, group_of_tile,
slot_of_tile, pattern_values, pattern_offsets, mirror_tile, mirror_cell)``;
``distance[tile, cell]`` is the Manhattan distance of ``tile`` standing on ``cell`` from its
goal cell; when the goal is symmetric about the main diagonal, putting ``mirror_tile[t]`` on
``mirror_cell[c]`` for every tile ``t`` on cell ``c`` gives a board exactly as far from the
goal, so the pattern databases are consulted for both (else the mirror arrays are empty).

Heuristic kinds: 0 none, 1 misplaced tiles, 2 Manhattan, 3 Manhattan + linear conflicts,
4 additive pattern database.  Board conventions: :mod:`huarong._kernels.npuzzle_store`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels._jit import kernel

NO_HEURISTIC = 0
MISPLACED = 1
MANHATTAN = 2
LINEAR_CONFLICT = 3
PATTERN_DATABASE = 4

Array = Any


@kernel
def _line_conflicts(
    board: Array, first: int, stride: int, length: int, along_row: bool, line: int,
    goal_cell_of_tile: Array, cols: int, order: Array, longest: Array,
) -> int:
    """Linear-conflict penalty of one row or column: two moves for every tile that must leave
    the line so that the tiles whose goal lies in it can pass each other (2 x (m - LIS))."""
    members = 0
    for i in range(length):
        tile = board[first + i * stride]
        if tile == 0:
            continue
        goal_cell = goal_cell_of_tile[tile]
        if along_row:
            if goal_cell // cols == line:
                order[members] = goal_cell % cols
                members += 1
        elif goal_cell % cols == line:
            order[members] = goal_cell // cols
            members += 1
    if members < 2:
        return 0
    best = 0
    for i in range(members):
        longest[i] = 1
        for j in range(i):
            if order[j] < order[i] and longest[j] + 1 > longest[i]:
                longest[i] = longest[j] + 1
        best = max(best, longest[i])
    return 2 * (members - best)  # type: ignore[no-any-return]


@kernel
def _row_conflicts(board: Array, row: int, cols: int, goal_cell_of_tile: Array,
                   order: Array, longest: Array) -> int:
    return _line_conflicts(board, row * cols, 1, cols, True, row, goal_cell_of_tile, cols,
                           order, longest)  # type: ignore[no-any-return]


@kernel
def _column_conflicts(board: Array, col: int, rows: int, cols: int, goal_cell_of_tile: Array,
                      order: Array, longest: Array) -> int:
    return _line_conflicts(board, col, cols, rows, False, col, goal_cell_of_tile, cols,
                           order, longest)  # type: ignore[no-any-return]


@kernel
def _pattern_indexes(board: Array, tables: Any, indexes: Array) -> None:
    """Sparse pattern-database indexes (the cell of a group's i-th tile in bits 4i..4i+3) of
    every group, then of every group on the mirrored board when there is one."""
    group_of_tile, slot_of_tile, offsets, mirror_tile, mirror_cell = (
        tables[2], tables[3], tables[5], tables[6], tables[7])
    groups = offsets.size
    indexes[:] = 0
    for cell in range(board.size):
        tile = board[cell]
        if tile == 0:
            continue
        indexes[group_of_tile[tile]] += cell << (4 * slot_of_tile[tile])
        if mirror_tile.size > 0:
            twin = mirror_tile[tile]
            indexes[groups + group_of_tile[twin]] += mirror_cell[cell] << (4 * slot_of_tile[twin])


@kernel
def _pattern_sums(indexes: Array, tables: Any) -> tuple[int, int]:
    values, offsets, mirror_tile = tables[4], tables[5], tables[6]
    groups = offsets.size
    direct = 0
    mirrored = 0
    for group in range(groups):
        direct += values[offsets[group] + indexes[group]]
        if mirror_tile.size > 0:
            mirrored += values[offsets[group] + indexes[groups + group]]
    return direct, mirrored


@kernel
def heuristic(board: Array, kind: int, tables: Any, rows: int, cols: int) -> int:
    """Admissible estimate of the distance from ``board`` to the goal."""
    goal_cell_of_tile, distance = tables[0], tables[1]
    if kind == NO_HEURISTIC:
        return 0
    total = 0
    if kind == MISPLACED:
        for cell in range(board.size):
            tile = board[cell]
            if tile != 0 and goal_cell_of_tile[tile] != cell:
                total += 1
        return total
    if kind == PATTERN_DATABASE:
        indexes = np.empty(2 * tables[5].size, np.int64)
        _pattern_indexes(board, tables, indexes)
        direct, mirrored = _pattern_sums(indexes, tables)
        return max(direct, mirrored)
    for cell in range(board.size):
        total += distance[board[cell], cell]
    if kind == LINEAR_CONFLICT:
        order = np.empty(max(rows, cols), np.int64)
        longest = np.empty(max(rows, cols), np.int64)
        for row in range(rows):
            total += _row_conflicts(board, row, cols, goal_cell_of_tile, order, longest)
        for col in range(cols):
            total += _column_conflicts(board, col, rows, cols, goal_cell_of_tile, order,
                                       longest)
    return total



@kernel
def _after_move(
    board: Array, tile: int, source: int, destination: int, kind: int, tables: Any,
    rows: int, cols: int, counters: Array, row_conflicts: Array, column_conflicts: Array,
    pattern_index: Array, order: Array, longest: Array,
) -> int:
    """Update the running figures after ``tile`` slid from ``source`` to ``destination`` (the
    board already shows the move) and return the new heuristic value.

    ``counters`` holds [misplaced tiles, Manhattan sum, linear-conflict sum, pattern sum,
    mirrored pattern sum].
    """
    goal_cell_of_tile, distance, group_of_tile, slot_of_tile, values, offsets = tables[:6]
    mirror_tile, mirror_cell = tables[6], tables[7]
    goal_cell = goal_cell_of_tile[tile]
    if source == goal_cell:
        counters[0] += 1
    if destination == goal_cell:
        counters[0] -= 1
    if kind == PATTERN_DATABASE:
        group = group_of_tile[tile]
        old_index = pattern_index[group]
        new_index = old_index + ((destination - source) << (4 * slot_of_tile[tile]))
        pattern_index[group] = new_index
        counters[3] += values[offsets[group] + new_index] - values[offsets[group] + old_index]
        if mirror_tile.size == 0:
            return counters[3]  # type: ignore[no-any-return]
        twin = mirror_tile[tile]
        group = group_of_tile[twin]
        slot = offsets.size + group
        old_index = pattern_index[slot]
        new_index = old_index + ((mirror_cell[destination] - mirror_cell[source])
                                 << (4 * slot_of_tile[twin]))
        pattern_index[slot] = new_index
        counters[4] += values[offsets[group] + new_index] - values[offsets[group] + old_index]
        return max(counters[3], counters[4])  # type: ignore[no-any-return]
    if kind == NO_HEURISTIC:
        return 0
    if kind == MISPLACED:
        return counters[0]  # type: ignore[no-any-return]
    counters[1] += distance[tile, destination] - distance[tile, source]
    if kind == MANHATTAN:
        return counters[1]  # type: ignore[no-any-return]
    if source // cols == destination // cols:
        for col in (source % cols, destination % cols):
            fresh = _column_conflicts(board, col, rows, cols, goal_cell_of_tile, order, longest)
            counters[2] += fresh - column_conflicts[col]
            column_conflicts[col] = fresh
    else:
        for row in (source // cols, destination // cols):
            fresh = _row_conflicts(board, row, cols, goal_cell_of_tile, order, longest)
            counters[2] += fresh - row_conflicts[row]
            row_conflicts[row] = fresh
    return counters[1] + counters[2]  # type: ignore[no-any-return]


@kernel
def _slide_tile(board: Array, source: int, destination: int) -> int:
    """Slide the tile on ``source`` onto the blank ``destination``; returns the tile.  IDA*
    moves, backtracks and undoes this way, then updates its figures with :func:`_after_move`
    (called from the search itself: passing its many arrays through a further call level
    measurably slows the search)."""
    tile = board[source]
    board[destination] = tile
    board[source] = 0
    return tile  # type: ignore[no-any-return]
