"""Numba kernels for N x M sliding-tile puzzles (the 8-puzzle, the 15-puzzle and their kin).

Conventions shared by every kernel here:

* a board is an ``int64`` array of its cells in row order, ``0`` being the blank;
* ``neighbours[cell, direction]`` is the cell the blank reaches by moving left, up, right or
  down (directions 0..3, so ``direction ^ 2`` is the opposite one), or ``-1`` off the board;
* graph searches key a state by its Cantor rank (``factorials[i] = i!``), which fits ``int64``
  for up to 20 cells, and keep their nodes in growable arrays indexed through an
  open-addressing hash table of node numbers;
* heuristic tables travel as one tuple ``(goal_cell_of_tile, distance, group_of_tile,
  slot_of_tile, pattern_values, pattern_offsets, mirror_tile, mirror_cell)``;
  ``distance[tile, cell]`` is the Manhattan distance of ``tile`` standing on ``cell`` from its
  goal cell; when the goal is symmetric about the main diagonal, putting ``mirror_tile[t]``
  on ``mirror_cell[c]`` for every tile ``t`` on cell ``c`` gives a board exactly as far from
  the goal, so the pattern databases are consulted for both (else the mirror arrays are
  empty).

Heuristic kinds: 0 none, 1 misplaced tiles, 2 Manhattan, 3 Manhattan + linear conflicts,
4 additive pattern database.  Everything is ``int64`` except the pattern-database bytes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels._jit import kernel

EMPTY = -1
FOUND = 0
EXHAUSTED = 1
LIMIT_REACHED = 2

NO_HEURISTIC = 0
MISPLACED = 1
MANHATTAN = 2
LINEAR_CONFLICT = 3
PATTERN_DATABASE = 4

UNREACHED = 255
_HASH_MULTIPLIER = 0x5851F42D4C957F2D

Array = Any


# ---------------------------------------------------------------- ranks and the node store


@kernel
def rank_board(board: Array, factorials: Array) -> int:
    """Cantor rank of the permutation ``board`` (the seed's 康托展开)."""
    cells = board.size
    rank = 0
    for i in range(cells):
        smaller_later = 0
        for j in range(i + 1, cells):
            if board[j] < board[i]:
                smaller_later += 1
        rank += smaller_later * factorials[cells - 1 - i]
    return rank


@kernel
def unrank_board(rank: int, factorials: Array, out: Array) -> None:
    """Inverse of :func:`rank_board`, written into ``out``."""
    cells = out.size
    taken = np.zeros(cells, np.int64)
    for i in range(cells):
        weight = factorials[cells - 1 - i]
        skip = rank // weight
        rank -= skip * weight
        value = 0
        while True:
            if taken[value] == 0:
                if skip == 0:
                    break
                skip -= 1
            value += 1
        taken[value] = 1
        out[i] = value


@kernel
def _slot(table: Array, keys: Array, key: int) -> int:
    mask = table.size - 1
    mixed = key * _HASH_MULTIPLIER
    mixed ^= mixed >> 29
    slot = mixed & mask
    while True:
        node = table[slot]
        if node == EMPTY or keys[node] == key:
            return slot  # type: ignore[no-any-return]
        slot = (slot + 1) & mask


@kernel
def _rehashed(keys: Array, count: int, capacity: int) -> Array:
    table = np.full(capacity, EMPTY, np.int64)
    for node in range(count):
        table[_slot(table, keys, keys[node])] = node
    return table


@kernel
def _grown(values: Array) -> Array:
    bigger = np.empty(values.size * 2, values.dtype)
    bigger[: values.size] = values
    return bigger


@kernel
def _blank_cell(board: Array) -> int:
    for cell in range(board.size):
        if board[cell] == 0:
            return cell
    return -1


@kernel
def _child_rank(board: Array, blank: int, target: int, factorials: Array) -> int:
    """Rank of the board after the blank moves from ``blank`` to ``target``; board unchanged."""
    board[blank] = board[target]
    board[target] = 0
    rank = rank_board(board, factorials)
    board[target] = board[blank]
    board[blank] = 0
    return rank  # type: ignore[no-any-return]


@kernel
def _chain(keys: Array, parents: Array, node: int) -> Array:
    """Keys from the root down to ``node``."""
    length = 0
    walker = node
    while walker != EMPTY:
        length += 1
        walker = parents[walker]
    path = np.empty(length, np.int64)
    walker = node
    for i in range(length - 1, -1, -1):
        path[i] = keys[walker]
        walker = parents[walker]
    return path


@kernel
def _new_store(root: int) -> tuple[Array, Array, Array, Array]:
    """A node store holding only ``root`` as node 0 (no parent, depth 0).

    Returns ``(keys, parents, depths, table)``; the searches that weigh moves keep costs in
    the ``depths`` array.
    """
    capacity = 1024
    keys = np.empty(capacity, np.int64)
    parents = np.empty(capacity, np.int64)
    depths = np.empty(capacity, np.int64)
    table = np.full(2 * capacity, EMPTY, np.int64)
    keys[0] = root
    parents[0] = EMPTY
    depths[0] = 0
    table[_slot(table, keys, root)] = 0
    return keys, parents, depths, table


@kernel
def _child_ranks(
    key: int, board: Array, neighbours: Array, factorials: Array, children: Array
) -> int:
    """Write the ranks of the boards one move from ``key`` into ``children``, in direction
    order (left, up, right, down), and return how many there are; ``board`` is scratch."""
    unrank_board(key, factorials, board)
    blank = _blank_cell(board)
    found = 0
    for direction in range(4):
        target = neighbours[blank, direction]
        if target < 0:
            continue
        children[found] = _child_rank(board, blank, target, factorials)
        found += 1
    return found


# ---------------------------------------------------------------- breadth-first searches


@kernel
def breadth_first(
    start: int, goal: int, cells: int, neighbours: Array, factorials: Array, max_nodes: int
) -> tuple[int, Array, Array, Array, int, int, int, int]:
    """Plain BFS from ``start``; ``goal == -1`` explores the whole component.

    Returns ``(status, keys, parents, depths, node_count, expanded, peak_frontier, goal_node)``.
    """
    keys, parents, depths, table = _new_store(start)
    count = 1
    if start == goal:
        return FOUND, keys, parents, depths, count, 0, 1, 0
    board = np.empty(cells, np.int64)
    children = np.empty(4, np.int64)
    head = 0
    expanded = 0
    peak = 1
    while head < count:
        peak = max(peak, count - head)
        node = head
        head += 1
        expanded += 1
        for i in range(_child_ranks(keys[node], board, neighbours, factorials, children)):
            child = children[i]
            slot = _slot(table, keys, child)
            if table[slot] != EMPTY:
                continue
            if count >= max_nodes:
                return LIMIT_REACHED, keys, parents, depths, count, expanded, peak, EMPTY
            if count == keys.size:
                keys = _grown(keys)
                parents = _grown(parents)
                depths = _grown(depths)
            keys[count] = child
            parents[count] = node
            depths[count] = depths[node] + 1
            table[slot] = count
            count += 1
            if 2 * count > table.size:
                table = _rehashed(keys, count, 2 * table.size)
            if child == goal:
                return FOUND, keys, parents, depths, count, expanded, peak, count - 1
    return EXHAUSTED, keys, parents, depths, count, expanded, peak, EMPTY


@kernel
def _expand_layer(
    keys: Array,
    parents: Array,
    depths: Array,
    table: Array,
    count: int,
    layer_begin: int,
    other_keys: Array,
    other_depths: Array,
    other_table: Array,
    board: Array,
    children: Array,
    neighbours: Array,
    factorials: Array,
    max_nodes: int,
) -> tuple[Array, Array, Array, Array, int, int, int, int, bool]:
    """Expand one whole BFS layer of one side of a bidirectional search.

    Returns the (possibly regrown) arrays, the new node count, the shortest meeting found
    (``-1`` if none) with its node on this side and on the other, and whether the node budget
    ran out.
    """
    layer_end = count
    best = -1
    best_here = EMPTY
    best_there = EMPTY
    for node in range(layer_begin, layer_end):
        for i in range(_child_ranks(keys[node], board, neighbours, factorials, children)):
            child = children[i]
            slot = _slot(table, keys, child)
            if table[slot] != EMPTY:
                continue
            if count >= max_nodes:
                return keys, parents, depths, table, count, best, best_here, best_there, True
            if count == keys.size:
                keys = _grown(keys)
                parents = _grown(parents)
                depths = _grown(depths)
            keys[count] = child
            parents[count] = node
            depths[count] = depths[node] + 1
            table[slot] = count
            count += 1
            if 2 * count > table.size:
                table = _rehashed(keys, count, 2 * table.size)
            there = other_table[_slot(other_table, other_keys, child)]
            if there != EMPTY:
                length = depths[count - 1] + other_depths[there]
                if best < 0 or length < best:
                    best = length
                    best_here = count - 1
                    best_there = there
    return keys, parents, depths, table, count, best, best_here, best_there, False


@kernel
def bidirectional_breadth_first(
    start: int, goal: int, cells: int, neighbours: Array, factorials: Array, max_nodes: int
) -> tuple[int, Array, int, int]:
    """BFS from both ends, always growing the side with the smaller frontier by a full layer.

    Returns ``(status, path_keys, expanded, peak_frontier)``.
    """
    keys_f, parents_f, depths_f, table_f = _new_store(start)
    keys_b, parents_b, depths_b, table_b = _new_store(goal)
    if start == goal:
        return FOUND, keys_f[:1].copy(), 0, 1
    count_f = 1
    count_b = 1
    begin_f = 0
    begin_b = 0
    board = np.empty(cells, np.int64)
    children = np.empty(4, np.int64)
    expanded = 0
    peak = 2
    while count_f > begin_f and count_b > begin_b:
        peak = max(peak, (count_f - begin_f) + (count_b - begin_b))
        if count_f - begin_f <= count_b - begin_b:
            budget = max_nodes - count_b
            expanded += count_f - begin_f
            layer_end = count_f
            keys_f, parents_f, depths_f, table_f, count_f, best, meet_f, meet_b, out = (
                _expand_layer(keys_f, parents_f, depths_f, table_f, count_f, begin_f, keys_b,
                              depths_b, table_b, board, children, neighbours, factorials,
                              budget))
            begin_f = layer_end
        else:
            budget = max_nodes - count_f
            expanded += count_b - begin_b
            layer_end = count_b
            keys_b, parents_b, depths_b, table_b, count_b, best, meet_b, meet_f, out = (
                _expand_layer(keys_b, parents_b, depths_b, table_b, count_b, begin_b, keys_f,
                              depths_f, table_f, board, children, neighbours, factorials,
                              budget))
            begin_b = layer_end
        if out:
            return LIMIT_REACHED, np.empty(0, np.int64), expanded, peak
        if best >= 0:
            forward = _chain(keys_f, parents_f, meet_f)
            backward = _chain(keys_b, parents_b, meet_b)
            path = np.empty(forward.size + backward.size - 1, np.int64)
            path[: forward.size] = forward
            for i in range(backward.size - 1):
                path[forward.size + i] = backward[backward.size - 2 - i]
            return FOUND, path, expanded, peak
    return EXHAUSTED, np.empty(0, np.int64), expanded, peak


# ---------------------------------------------------------------- the seed's bounded DFS


@kernel
def bounded_depth_first(
    start: int,
    goal: int,
    cells: int,
    neighbours: Array,
    factorials: Array,
    bound: int,
    max_nodes: int,
) -> tuple[int, Array, int, int]:
    """The seed's depth-bounded DFS: one closed set for the whole search, children tried with
    the blank moving left, up, right, down, and a node at the bound has its children generated
    (so marked seen) but not searched.  Returns ``(status, path_keys, expanded, peak)``.
    """
    capacity = 1024
    keys = np.empty(capacity, np.int64)
    table = np.full(2 * capacity, EMPTY, np.int64)
    keys[0] = start
    table[_slot(table, keys, start)] = 0
    count = 1
    stack = np.empty(bound + 1, np.int64)
    next_direction = np.zeros(bound + 1, np.int64)
    stack[0] = start
    depth = 0
    expanded = 0
    peak = 1
    board = np.empty(cells, np.int64)
    if start == goal:
        return FOUND, stack[:1].copy(), 0, 1
    while depth >= 0:
        if next_direction[depth] == 0:
            expanded += 1
        unrank_board(stack[depth], factorials, board)
        blank = _blank_cell(board)
        pushed = False
        while next_direction[depth] < 4:
            direction = next_direction[depth]
            next_direction[depth] += 1
            target = neighbours[blank, direction]
            if target < 0:
                continue
            child = _child_rank(board, blank, target, factorials)
            slot = _slot(table, keys, child)
            if table[slot] != EMPTY:
                continue
            if count >= max_nodes:
                return LIMIT_REACHED, np.empty(0, np.int64), expanded, peak
            if count == keys.size:
                keys = _grown(keys)
            keys[count] = child
            table[slot] = count
            count += 1
            if 2 * count > table.size:
                table = _rehashed(keys, count, 2 * table.size)
            if depth == bound:
                continue
            depth += 1
            stack[depth] = child
            next_direction[depth] = 0
            peak = max(peak, depth + 1)
            if child == goal:
                return FOUND, stack[: depth + 1].copy(), expanded, peak
            pushed = True
            break
        if not pushed:
            depth -= 1
    return EXHAUSTED, np.empty(0, np.int64), expanded, peak


# ---------------------------------------------------------------- heuristics


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


# ---------------------------------------------------------------- A*


@kernel
def _buckets_reaching(bucket_head: Array, f: int) -> Array:
    """``bucket_head`` doubled (new buckets empty) until bucket ``f`` exists."""
    while f >= bucket_head.size:
        bucket_head = np.concatenate((bucket_head, np.full(bucket_head.size, EMPTY, np.int64)))
    return bucket_head


@kernel
def a_star(
    start: int,
    goal: int,
    cells: int,
    neighbours: Array,
    factorials: Array,
    kind: int,
    tables: Any,
    rows: int,
    cols: int,
    max_nodes: int,
) -> tuple[int, Array, int, int]:
    """A* over Cantor ranks with a bucket queue on f (last in, first out within a bucket, which
    prefers the deepest node among equals).  A node reached again more cheaply is reopened, so
    the result is optimal for any admissible heuristic, consistent or not.

    Returns ``(status, path_keys, expanded, peak_frontier)``.
    """
    keys, parents, costs, table = _new_store(start)
    count = 1
    capacity = 1024
    entry_node = np.empty(capacity, np.int64)
    entry_cost = np.empty(capacity, np.int64)
    entry_next = np.empty(capacity, np.int64)
    bucket_head = np.full(256, EMPTY, np.int64)
    board = np.empty(cells, np.int64)
    unrank_board(start, factorials, board)
    first_f = heuristic(board, kind, tables, rows, cols)
    if first_f >= bucket_head.size:
        bucket_head = _buckets_reaching(bucket_head, first_f)
    entry_node[0] = 0
    entry_cost[0] = 0
    entry_next[0] = EMPTY
    bucket_head[first_f] = 0
    entries = 1
    open_count = 1
    lowest_f = first_f
    expanded = 0
    peak = 1
    while open_count > 0:
        while bucket_head[lowest_f] == EMPTY:
            lowest_f += 1
        entry = bucket_head[lowest_f]
        bucket_head[lowest_f] = entry_next[entry]
        open_count -= 1
        node = entry_node[entry]
        if entry_cost[entry] != costs[node]:
            continue
        if keys[node] == goal:
            return FOUND, _chain(keys, parents, node), expanded, peak
        expanded += 1
        unrank_board(keys[node], factorials, board)
        blank = _blank_cell(board)
        child_cost = costs[node] + 1
        for direction in range(4):
            target = neighbours[blank, direction]
            if target < 0:
                continue
            board[blank] = board[target]
            board[target] = 0
            child = rank_board(board, factorials)
            slot = _slot(table, keys, child)
            known = table[slot]
            if known != EMPTY and costs[known] <= child_cost:
                board[target] = board[blank]
                board[blank] = 0
                continue
            if known == EMPTY:
                if count >= max_nodes:
                    return LIMIT_REACHED, np.empty(0, np.int64), expanded, peak
                if count == keys.size:
                    keys = _grown(keys)
                    parents = _grown(parents)
                    costs = _grown(costs)
                keys[count] = child
                table[slot] = count
                known = count
                count += 1
                if 2 * count > table.size:
                    table = _rehashed(keys, count, 2 * table.size)
            parents[known] = node
            costs[known] = child_cost
            f = child_cost + heuristic(board, kind, tables, rows, cols)
            board[target] = board[blank]
            board[blank] = 0
            if f >= bucket_head.size:
                bucket_head = _buckets_reaching(bucket_head, f)
            if entries == entry_node.size:
                entry_node = _grown(entry_node)
                entry_cost = _grown(entry_cost)
                entry_next = _grown(entry_next)
            entry_node[entries] = known
            entry_cost[entries] = child_cost
            entry_next[entries] = bucket_head[f]
            bucket_head[f] = entries
            entries += 1
            open_count += 1
            peak = max(peak, open_count)
            lowest_f = min(lowest_f, f)
    return EXHAUSTED, np.empty(0, np.int64), expanded, peak


# ---------------------------------------------------------------- IDA* (and IDDFS)


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


@kernel
def ida_star_iteration(
    board: Array, neighbours: Array, kind: int, tables: Any, rows: int, cols: int,
    bound: int, node_budget: int, moves: Array,
) -> tuple[int, int, int, int, int]:
    """One depth-first pass of IDA* with cost bound ``bound`` (IDDFS when ``kind`` is 0).

    The board is searched in place and left at the goal when found.  The blank's directions of
    a solution are written to ``moves``.  Returns ``(status, solution_length, next_bound,
    expanded, deepest)``; ``next_bound`` is the smallest f that exceeded ``bound``.
    """
    goal_cell_of_tile, distance = tables[0], tables[1]
    cells = board.size
    order = np.empty(max(rows, cols), np.int64)
    longest = np.empty(max(rows, cols), np.int64)
    counters = np.zeros(5, np.int64)
    row_conflicts = np.zeros(rows, np.int64)
    column_conflicts = np.zeros(cols, np.int64)
    pattern_index = np.zeros(2 * tables[5].size, np.int64)
    blank = 0
    for cell in range(cells):
        tile = board[cell]
        if tile == 0:
            blank = cell
            continue
        if goal_cell_of_tile[tile] != cell:
            counters[0] += 1
        counters[1] += distance[tile, cell]
    for row in range(rows):
        row_conflicts[row] = _row_conflicts(board, row, cols, goal_cell_of_tile, order, longest)
        counters[2] += row_conflicts[row]
    for col in range(cols):
        column_conflicts[col] = _column_conflicts(board, col, rows, cols, goal_cell_of_tile,
                                                  order, longest)
        counters[2] += column_conflicts[col]
    if kind == PATTERN_DATABASE:
        _pattern_indexes(board, tables, pattern_index)
        counters[3], counters[4] = _pattern_sums(pattern_index, tables)
    h = heuristic(board, kind, tables, rows, cols)
    if counters[0] == 0:
        return FOUND, 0, bound, 0, 0
    next_bound = -1
    if h > bound:
        return EXHAUSTED, 0, h, 0, 0
    next_direction = np.zeros(bound + 2, np.int64)
    depth = 0
    expanded = 0
    deepest = 0
    while True:
        if next_direction[depth] == 4:
            if depth == 0:
                break
            depth -= 1
            came_from = neighbours[blank, moves[depth] ^ 2]
            tile = _slide_tile(board, came_from, blank)
            _after_move(board, tile, came_from, blank, kind, tables, rows, cols, counters,
                        row_conflicts, column_conflicts, pattern_index, order, longest)
            blank = came_from
            continue
        direction = next_direction[depth]
        next_direction[depth] += 1
        if depth > 0 and direction == (moves[depth - 1] ^ 2):
            continue
        target = neighbours[blank, direction]
        if target < 0:
            continue
        tile = _slide_tile(board, target, blank)
        child_h = _after_move(board, tile, target, blank, kind, tables, rows, cols, counters,
                              row_conflicts, column_conflicts, pattern_index, order, longest)
        expanded += 1
        f = depth + 1 + child_h
        if f > bound:
            if next_bound < 0 or f < next_bound:
                next_bound = f
            _slide_tile(board, blank, target)
            _after_move(board, tile, blank, target, kind, tables, rows, cols, counters,
                        row_conflicts, column_conflicts, pattern_index, order, longest)
            continue
        moves[depth] = direction
        blank = target
        depth += 1
        deepest = max(deepest, depth)
        if counters[0] == 0:
            return FOUND, depth, bound, expanded, deepest
        if expanded >= node_budget:
            return LIMIT_REACHED, 0, next_bound, expanded, deepest
        next_direction[depth] = 0
    return EXHAUSTED, 0, next_bound, expanded, deepest



# ---------------------------------------------------------------- IDA* on compact databases
#
# ``compact`` tables: ``(group_of_tile, slot_of_tile, group_size, values, value_offset,
# shifts, shift_offset, ranks, popcount, factorials, mirror_tile, mirror_cell)``; the ranking
# is described in :mod:`huarong._kernels.npuzzle_pdb`.  The search keeps, for the board and
# for its reflection about the main diagonal, each group's cell set, order rank and database
# value, so a move updates one group on each side with a few table lookups.


@kernel
def _compact_state(board: Array, compact: Any, masks: Array, orders: Array, parts: Array,
                   sums: Array) -> None:
    """Fill the per-group figures of ``board`` (side 0) and of its reflection (side 1)."""
    group_of_tile, slot_of_tile, group_size, values, value_offset = (
        compact[0], compact[1], compact[2], compact[3], compact[4])
    ranks, popcount, factorials, mirror_tile, mirror_cell = (
        compact[7], compact[8], compact[9], compact[10], compact[11])
    groups = group_size.size
    sides = 2 if mirror_tile.size > 0 else 1
    ordinals = np.zeros((2 * groups, 16), np.int64)
    masks[:] = 0
    for side in range(sides):
        for cell in range(board.size):
            tile = board[cell]
            if tile == 0:
                continue
            if side == 1:
                tile = mirror_tile[tile]
                cell = mirror_cell[cell]
            group = group_of_tile[tile]
            if group >= 0:
                masks[side * groups + group] |= 1 << cell
        for cell in range(board.size):
            tile = board[cell]
            if tile == 0:
                continue
            if side == 1:
                tile = mirror_tile[tile]
                cell = mirror_cell[cell]
            group = group_of_tile[tile]
            if group >= 0:
                ordinals[side * groups + group, slot_of_tile[tile]] = (
                    popcount[masks[side * groups + group] & ((1 << cell) - 1)])
        sums[side] = 0
        for group in range(groups):
            at = side * groups + group
            size = group_size[group]
            order = 0
            used = 0
            for i in range(size):
                ordinal = ordinals[at, i]
                order += (ordinal - popcount[used & ((1 << ordinal) - 1)]) * factorials[
                    size - 1 - i]
                used |= 1 << ordinal
            orders[at] = order
            parts[at] = values[value_offset[group] + ranks[masks[at]] * factorials[size]
                               + order]
            sums[side] += parts[at]
    if sides == 1:
        sums[1] = sums[0]


@kernel
def _compact_slide(tile: int, source: int, destination: int, compact: Any, masks: Array,
                   orders: Array, parts: Array, sums: Array) -> int:
    """Update the figures after ``tile`` slid from ``source`` to ``destination``; returns the
    new estimate (the larger of the two sides' sums)."""
    group_of_tile, group_size, values, value_offset, shifts, shift_offset = (
        compact[0], compact[2], compact[3], compact[4], compact[5], compact[6])
    ranks, popcount, factorials, mirror_tile, mirror_cell = (
        compact[7], compact[8], compact[9], compact[10], compact[11])
    groups = group_size.size
    sides = 2 if mirror_tile.size > 0 else 1
    for side in range(sides):
        if side == 1:
            tile = mirror_tile[tile]
            source = mirror_cell[source]
            destination = mirror_cell[destination]
        group = group_of_tile[tile]
        if group < 0:
            continue
        at = side * groups + group
        size = group_size[group]
        block = factorials[size]
        mask = masks[at]
        old = popcount[mask & ((1 << source) - 1)]
        mask ^= (1 << source) | (1 << destination)
        new = popcount[mask & ((1 << destination) - 1)]
        order = shifts[shift_offset[group] + (old * size + new) * block + orders[at]]
        masks[at] = mask
        orders[at] = order
        value = values[value_offset[group] + ranks[mask] * block + order]
        sums[side] += value - parts[at]
        parts[at] = value
    if sides == 1:
        return sums[0]  # type: ignore[no-any-return]
    return max(sums[0], sums[1])  # type: ignore[no-any-return]


@kernel
def compact_heuristic(board: Array, compact: Any) -> int:
    """The compact databases' estimate for ``board`` (the larger of board and reflection)."""
    groups = compact[2].size
    masks = np.zeros(2 * groups, np.int64)
    orders = np.zeros(2 * groups, np.int64)
    parts = np.zeros(2 * groups, np.int64)
    sums = np.zeros(2, np.int64)
    _compact_state(board, compact, masks, orders, parts, sums)
    return max(sums[0], sums[1])  # type: ignore[no-any-return]


@kernel
def compact_ida_star_iteration(
    board: Array, neighbours: Array, compact: Any, bound: int, node_budget: int, moves: Array,
) -> tuple[int, int, int, int, int]:
    """One depth-first pass of IDA* with cost bound ``bound`` on compact databases; the same
    contract as :func:`ida_star_iteration`.  Nothing is allocated inside the loop, and the
    move straight back to the parent is never tried.  A loop of its own on purpose: sending
    these moves through :func:`_after_move` (eighteen array arguments a call) made Korf's 100
    instances four times slower."""
    groups = compact[2].size
    masks = np.zeros(2 * groups, np.int64)
    orders = np.zeros(2 * groups, np.int64)
    parts = np.zeros(2 * groups, np.int64)
    sums = np.zeros(2, np.int64)
    _compact_state(board, compact, masks, orders, parts, sums)
    h = max(sums[0], sums[1])
    blank = _blank_cell(board)
    if h == 0:
        return FOUND, 0, bound, 0, 0
    if h > bound:
        return EXHAUSTED, 0, h, 0, 0
    next_bound = -1
    next_direction = np.zeros(bound + 2, np.int64)
    depth = 0
    expanded = 0
    deepest = 0
    while True:
        if next_direction[depth] == 4:
            if depth == 0:
                break
            depth -= 1
            came_from = neighbours[blank, moves[depth] ^ 2]
            tile = _slide_tile(board, came_from, blank)
            h = _compact_slide(tile, came_from, blank, compact, masks, orders, parts, sums)
            blank = came_from
            continue
        direction = next_direction[depth]
        next_direction[depth] += 1
        if depth > 0 and direction == (moves[depth - 1] ^ 2):
            continue
        target = neighbours[blank, direction]
        if target < 0:
            continue
        tile = _slide_tile(board, target, blank)
        child_h = _compact_slide(tile, target, blank, compact, masks, orders, parts, sums)
        expanded += 1
        f = depth + 1 + child_h
        if f > bound:
            if next_bound < 0 or f < next_bound:
                next_bound = f
            _slide_tile(board, blank, target)
            _compact_slide(tile, blank, target, compact, masks, orders, parts, sums)
            continue
        moves[depth] = direction
        blank = target
        depth += 1
        deepest = max(deepest, depth)
        if child_h == 0:
            return FOUND, depth, bound, expanded, deepest
        if expanded >= node_budget:
            return LIMIT_REACHED, 0, next_bound, expanded, deepest
        next_direction[depth] = 0
    return EXHAUSTED, 0, next_bound, expanded, deepest
