"""Graph searches over Cantor ranks for boards of up to 20 cells: breadth-first (one way and
both ways), the seed's bounded depth-first search, and A* with a bucket queue.

They keep every state they meet (the node store of :mod:`huarong._kernels.npuzzle_store`),
so memory bounds them: each stops at its ``max_nodes``.  Each runs in one call, meant for a
thread of its own: through its ``control`` array it tells how far it got and can be asked to
stop (:func:`huarong._kernels.npuzzle_store._reported`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels import hash_table
from huarong._kernels._jit import kernel
from huarong._kernels.arrays import grown
from huarong._kernels.hash_table import Int
from huarong._kernels.npuzzle_heuristics import heuristic
from huarong._kernels.npuzzle_store import (
    EMPTY,
    EXHAUSTED,
    FOUND,
    LIMIT_REACHED,
    STOPPED,
    _blank_cell,
    _chain,
    _child_rank,
    _child_ranks,
    _grown_store,
    _new_store,
    _reported,
    rank_board,
    unrank_board,
)

Array = Any


# ---------------------------------------------------------------- breadth-first searches


@kernel
def breadth_first(
    start: int, goal: int, cells: int, neighbours: Array, factorials: Array, max_nodes: int,
    control: Array,
) -> tuple[int, Array, Array, Array, int, int, int, int]:
    """Plain BFS from ``start``; ``goal == -1`` explores the whole component.

    Returns ``(status, keys, parents, depths, node_count, expanded, peak_frontier, goal_node)``.
    """
    keys, parents, depths = _new_store(start)
    count = 1
    if start == goal:
        return FOUND, keys, parents, depths, count, 0, 1, 0
    bits = hash_table.bits_for(keys.size)
    seen = hash_table.set_of(keys, count, bits)
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
        if _reported(control, expanded, depths[node] + 1):
            return STOPPED, keys, parents, depths, count, expanded, peak, EMPTY
        for i in range(_child_ranks(keys[node], board, neighbours, factorials, children)):
            child = children[i]
            if not hash_table.add(seen, bits, child):
                continue
            if count >= max_nodes:
                return LIMIT_REACHED, keys, parents, depths, count, expanded, peak, EMPTY
            if count == keys.size:
                keys, parents, depths = _grown_store(keys, parents, depths, count)
            keys[count], parents[count], depths[count] = child, node, depths[node] + 1
            count += 1
            if hash_table.crowded(count, bits):
                bits += 1
                seen = hash_table.set_of(keys, count, bits)
            if child == goal:
                return FOUND, keys, parents, depths, count, expanded, peak, count - 1
    return EXHAUSTED, keys, parents, depths, count, expanded, peak, EMPTY


@kernel
def _expand_layer(
    keys: Array,
    parents: Array,
    depths: Array,
    table: Array,
    nodes: Array,
    bits: Int,
    count: int,
    layer_begin: int,
    other_depths: Array,
    other_table: Array,
    other_nodes: Array,
    other_bits: Int,
    board: Array,
    children: Array,
    neighbours: Array,
    factorials: Array,
    max_nodes: int,
    control: Array,
    done: int,
    bound: int,
) -> tuple[Array, Array, Array, Array, Array, Int, int, int, Int, Int, int]:
    """Expand one whole BFS layer of one side of a bidirectional search (``done`` nodes were
    expanded before it; ``bound`` is what it reports as ruled out).

    Returns the (possibly regrown) store, the new node count, the shortest meeting found
    (``-1`` if none) with its node on this side and on the other, and :data:`LIMIT_REACHED`
    if the node budget ran out, :data:`STOPPED` if asked to stop, else 0.
    """
    layer_end = count
    best = -1
    best_here: Int = EMPTY
    best_there: Int = EMPTY
    for node in range(layer_begin, layer_end):
        if _reported(control, done + node - layer_begin + 1, bound):
            return (keys, parents, depths, table, nodes, bits, count, best, best_here,
                    best_there, STOPPED)
        for i in range(_child_ranks(keys[node], board, neighbours, factorials, children)):
            child = children[i]
            slot = hash_table.slot_of(table, bits, child)
            if table[slot] == child:
                continue
            if count >= max_nodes:
                return (keys, parents, depths, table, nodes, bits, count, best, best_here,
                        best_there, LIMIT_REACHED)
            if count == keys.size:
                keys, parents, depths = _grown_store(keys, parents, depths, count)
            keys[count], parents[count], depths[count] = child, node, depths[node] + 1
            table[slot], nodes[slot] = child, count
            count += 1
            if hash_table.crowded(count, bits):
                bits += 1
                table, nodes = hash_table.table_of(keys, count, bits, np.int64)
            there = hash_table.find(other_table, other_nodes, other_bits, child)
            if there != EMPTY:
                length = depths[count - 1] + other_depths[there]
                if best < 0 or length < best:
                    best = length
                    best_here = count - 1
                    best_there = there
    return keys, parents, depths, table, nodes, bits, count, best, best_here, best_there, 0


@kernel
def bidirectional_breadth_first(
    start: int, goal: int, cells: int, neighbours: Array, factorials: Array, max_nodes: int,
    control: Array,
) -> tuple[int, Array, int, int]:
    """BFS from both ends, always growing the side with the smaller frontier by a full layer.

    Returns ``(status, path_keys, expanded, peak_frontier)``.
    """
    keys_f, parents_f, depths_f = _new_store(start)
    keys_b, parents_b, depths_b = _new_store(goal)
    bits_f = bits_b = hash_table.bits_for(keys_f.size)
    table_f, nodes_f = hash_table.table_of(keys_f, 1, bits_f, np.int64)
    table_b, nodes_b = hash_table.table_of(keys_b, 1, bits_b, np.int64)
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
        # Every board up to the two frontiers' depths is known and none is on both sides.
        bound = depths_f[begin_f] + depths_b[begin_b] + 1
        done = expanded
        if count_f - begin_f <= count_b - begin_b:
            budget = max_nodes - count_b
            expanded += count_f - begin_f
            layer_end = count_f
            (keys_f, parents_f, depths_f, table_f, nodes_f, bits_f, count_f, best, meet_f,
             meet_b, stop) = _expand_layer(
                keys_f, parents_f, depths_f, table_f, nodes_f, bits_f, count_f, begin_f,
                depths_b, table_b, nodes_b, bits_b, board, children, neighbours, factorials,
                budget, control, done, bound)
            begin_f = layer_end
        else:
            budget = max_nodes - count_f
            expanded += count_b - begin_b
            layer_end = count_b
            (keys_b, parents_b, depths_b, table_b, nodes_b, bits_b, count_b, best, meet_b,
             meet_f, stop) = _expand_layer(
                keys_b, parents_b, depths_b, table_b, nodes_b, bits_b, count_b, begin_b,
                depths_f, table_f, nodes_f, bits_f, board, children, neighbours, factorials,
                budget, control, done, bound)
            begin_b = layer_end
        if stop != 0:
            return stop, np.empty(0, np.int64), expanded, peak
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
    control: Array,
) -> tuple[int, Array, int, int]:
    """The seed's depth-bounded DFS: one closed set for the whole search, children tried with
    the blank moving left, up, right, down, and a node at the bound has its children generated
    (so marked seen) but not searched.  Returns ``(status, path_keys, expanded, peak)``.
    """
    keys = np.empty(1024, np.int64)
    keys[0] = start
    count = 1
    bits = hash_table.bits_for(keys.size)
    seen = hash_table.set_of(keys, count, bits)
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
            # Not optimal: it rules nothing out.
            if _reported(control, expanded, 0):
                return STOPPED, np.empty(0, np.int64), expanded, peak
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
            if not hash_table.add(seen, bits, child):
                continue
            if count >= max_nodes:
                return LIMIT_REACHED, np.empty(0, np.int64), expanded, peak
            if count == keys.size:
                keys = grown(keys, count, count + 1)
            keys[count] = child
            count += 1
            if hash_table.crowded(count, bits):
                bits += 1
                seen = hash_table.set_of(keys, count, bits)
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
    control: Array,
) -> tuple[int, Array, int, int]:
    """A* over Cantor ranks with a bucket queue on f (last in, first out within a bucket, which
    prefers the deepest node among equals).  A node reached again more cheaply is reopened, so
    the result is optimal for any admissible heuristic, consistent or not.

    Returns ``(status, path_keys, expanded, peak_frontier)``.
    """
    keys, parents, costs = _new_store(start)
    bits = hash_table.bits_for(keys.size)
    table, nodes = hash_table.table_of(keys, 1, bits, np.int64)
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
        # The least f still open: no admissible estimate lets a shorter solution remain.
        if _reported(control, expanded, lowest_f):
            return STOPPED, np.empty(0, np.int64), expanded, peak
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
            known = hash_table.find(table, nodes, bits, child)
            if known != EMPTY and costs[known] <= child_cost:
                board[target] = board[blank]
                board[blank] = 0
                continue
            if known == EMPTY:
                if count >= max_nodes:
                    return LIMIT_REACHED, np.empty(0, np.int64), expanded, peak
                if count == keys.size:
                    keys, parents, costs = _grown_store(keys, parents, costs, count)
                keys[count] = child
                hash_table.insert(table, nodes, bits, child, count)
                known = count
                count += 1
                if hash_table.crowded(count, bits):
                    bits += 1
                    table, nodes = hash_table.table_of(keys, count, bits, np.int64)
            parents[known] = node
            costs[known] = child_cost
            f = child_cost + heuristic(board, kind, tables, rows, cols)
            board[target] = board[blank]
            board[blank] = 0
            if f >= bucket_head.size:
                bucket_head = _buckets_reaching(bucket_head, f)
            if entries == entry_node.size:
                entry_node = grown(entry_node, entries, entries + 1)
                entry_cost = grown(entry_cost, entries, entries + 1)
                entry_next = grown(entry_next, entries, entries + 1)
            entry_node[entries] = known
            entry_cost[entries] = child_cost
            entry_next[entries] = bucket_head[f]
            bucket_head[f] = entries
            entries += 1
            open_count += 1
            peak = max(peak, open_count)
            lowest_f = min(lowest_f, f)
    return EXHAUSTED, np.empty(0, np.int64), expanded, peak
