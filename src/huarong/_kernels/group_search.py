"""Hot loops over one layout's group: the breadth-first searches (the whole group, to the
nearest goal, to a target), solving, depths, the adjacency of a group's step graph and the
layer model's solution flags.  Boards and steps are :mod:`huarong._kernels.klotski`'s.

A search keeps the boards it found in a small table of its own
(:mod:`huarong._kernels.hash_table`), keyed by board: it beats a visited array over all 29M
layouts, as it stays in cache and costs nothing to allocate.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels import hash_table
from huarong._kernels._jit import kernel
from huarong._kernels.arrays import grown
from huarong._kernels.klotski import (
    CELLS,
    MIRROR_ROW,
    NO_PARENT,
    ROWS,
    Int,
    board_neighbours,
    board_to_code,
    code_to_board,
    is_goal_board,
)


@kernel
def index_table(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, Int]:
    """A map from each of ``boards`` to its position in the array: (keys, values, bits)."""
    bits = hash_table.bits_for(boards.shape[0])
    keys, values = hash_table.table_of(boards, boards.shape[0], bits, np.int64)
    return keys, values, bits


# ----- searches ----------------------------------------------------------------------------
EXPLORE_ALL, STOP_AT_GOAL, STOP_AT_TARGET = 0, 1, 2


_MAX_NEIGHBOURS = 68


@kernel
def mirror_board(board: Int) -> Int:
    mirrored = np.int64(0)
    for row in range(ROWS):
        mirrored |= MIRROR_ROW[(board >> (12 * row)) & 0xFFF] << (12 * row)
    return mirrored


@kernel
def canonical_board(board: Int) -> Int:
    """One board of each mirror pair: the smaller.  Steps commute with mirroring and the goal
    is symmetric, so a search for a goal may visit mirror pairs once."""
    return min(board, mirror_board(board))


@kernel
def _bfs_run(boards: np.ndarray, parents: np.ndarray, keys: np.ndarray,
             bits: Int, head: Int, size: Int, stop_mode: Int, target_board: Int,
             by_mirror_pairs: bool) -> tuple[Int, Int, Int]:
    """Expand layouts from ``head`` on until the search ends or the arrays or the hash table
    could overflow; returns (head, size, found index or -1).  The caller grows the storage and
    calls again, so the hot loop itself never reallocates.  ``by_mirror_pairs``: store one
    board of each mirror pair (see :func:`canonical_board`)."""
    out = np.empty(80, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    room = min(boards.shape[0], keys.shape[0] // 2) - _MAX_NEIGHBOURS
    while head < size and size <= room:
        n = board_neighbours(boards[head], out, stack)
        for i in range(n):
            child = canonical_board(out[i]) if by_mirror_pairs else out[i]
            if not hash_table.add(keys, bits, child):
                continue
            boards[size] = child
            parents[size] = head
            size += 1
            if (stop_mode == STOP_AT_GOAL and is_goal_board(child)) or child == target_board:
                return head, size, size - 1
        head += 1
    return head, size, np.int64(-1)


@kernel
def _bfs_limited(start_board: Int, stop_mode: Int, target_board: Int, size_hint: Int,
                 limit: Int, by_mirror_pairs: bool = False
                 ) -> tuple[np.ndarray, np.ndarray, Int, Int]:
    """Breadth-first search from a board, growing its storage as needed; gives up (size -1)
    once more than ``limit`` layouts are found (limit < 0: no limit)."""
    capacity = max(size_hint, np.int64(1024))
    boards = np.empty(capacity, dtype=np.int64)
    parents = np.empty(capacity, dtype=np.int64)
    boards[0] = start_board
    parents[0] = NO_PARENT
    bits = hash_table.bits_for(capacity)
    keys = hash_table.set_of(boards, 1, bits)
    head: Int = np.int64(0)
    size: Int = np.int64(1)
    found: Int = np.int64(-1)
    if (stop_mode == STOP_AT_GOAL and is_goal_board(start_board)) or (
        start_board == target_board
    ):
        found = np.int64(0)
    while found < 0 and head < size and not 0 <= limit < size:
        head, size, found = _bfs_run(boards, parents, keys, bits, head, size,
                                     stop_mode, target_board, by_mirror_pairs)
        if hash_table.crowded(size + _MAX_NEIGHBOURS, bits):
            bits += 1
            keys = hash_table.set_of(boards, size, bits)
        if size + _MAX_NEIGHBOURS > boards.shape[0]:
            boards = grown(boards, size, size + _MAX_NEIGHBOURS)
            parents = grown(parents, size, size + _MAX_NEIGHBOURS)
    if 0 <= limit < size:
        size = np.int64(-1)
    return boards, parents, size, found


@kernel
def depths(parents: np.ndarray) -> np.ndarray:
    """Steps from the start of each layout of a search, from the parent links (a parent
    always comes before its children)."""
    depth = np.zeros(parents.shape[0], dtype=np.int64)
    for i in range(1, parents.shape[0]):
        depth[i] = depth[parents[i]] + 1
    return depth


@kernel
def bfs(start: Int, stop_mode: Int, target: Int, size_hint: Int
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Int]:
    """Breadth-first search from the layout with code ``start``.

    Returns (boards in BFS order, parent index of each, depth of each, found index).
    ``stop_mode`` EXPLORE_ALL: the whole group; STOP_AT_GOAL: stop when a goal layout (2x2 at
    address 13) is first reached; STOP_AT_TARGET: stop when code ``target`` is first reached.
    The found index is -1 when the stop condition never held."""
    target_board = code_to_board(target) if stop_mode == STOP_AT_TARGET else np.int64(-1)
    boards, parents, size, found = _bfs_limited(
        code_to_board(start), stop_mode, target_board, size_hint, np.int64(-1))
    return boards[:size], parents[:size], depths(parents[:size]), found


@kernel
def solve_codes(start: Int, size_hint: Int) -> tuple[np.ndarray, Int]:
    """A minimum-step path from code ``start`` to a goal layout (codes, start first; empty
    when the group holds no goal), and how many mirror pairs the search visited.

    The search runs over mirror pairs (:func:`canonical_board`), which halves the layouts it
    visits in most groups; the real path is then walked from the start, each step taking the
    child whose pair is the next one on the chain."""
    start_board = code_to_board(start)
    boards, parents, size, found = _bfs_limited(
        canonical_board(start_board), STOP_AT_GOAL, np.int64(-1), size_hint, np.int64(-1),
        True)
    if found < 0:
        return np.empty(0, dtype=np.int64), size
    chain = boards[_nodes_to(parents, found)]
    length = chain.shape[0]
    path = np.empty(length, dtype=np.int64)
    out = np.empty(80, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    current = start_board
    path[0] = start
    for i in range(1, length):
        n = board_neighbours(current, out, stack)
        for j in range(n):
            if canonical_board(out[j]) == chain[i]:
                current = out[j]
                break
        path[i] = board_to_code(current)
    return path, size


@kernel
def group_size_within(start: Int, limit: Int) -> Int:
    """The size of the group of ``start``, or -1 as soon as it exceeds ``limit``."""
    _, _, size, _ = _bfs_limited(code_to_board(start), EXPLORE_ALL, np.int64(-1),
                                    min(limit + 1, np.int64(1 << 14)), limit)
    return size


@kernel
def boards_to_codes(boards: np.ndarray) -> np.ndarray:
    codes = np.empty(boards.shape[0], dtype=np.int64)
    for i in range(boards.shape[0]):
        codes[i] = board_to_code(boards[i])
    return codes


@kernel
def path_codes(boards: np.ndarray, parents: np.ndarray, end: Int) -> np.ndarray:
    """The codes from the search's start to ``boards[end]``, following parent links."""
    nodes = _nodes_to(parents, end)
    path = np.empty(nodes.shape[0], dtype=np.int64)
    for i in range(nodes.shape[0]):
        path[i] = board_to_code(boards[nodes[i]])
    return path


@kernel
def _nodes_to(parents: np.ndarray, end: Int) -> np.ndarray:
    """The nodes from the search's start to ``end``, following parent links."""
    length = 1
    node = end
    while parents[node] != NO_PARENT:
        node = parents[node]
        length += 1
    nodes = np.empty(length, dtype=np.int64)
    node = end
    for i in range(length - 1, -1, -1):
        nodes[i] = node
        node = parents[node]
    return nodes


@kernel
def group_codes(start: Int) -> np.ndarray:
    """Every code of the group of ``start``, sorted ascending."""
    boards, _, _, _ = bfs(start, EXPLORE_ALL, 0, 4096)
    return np.sort(boards_to_codes(boards))


@kernel
def adjacency_rows(boards: np.ndarray, keys: np.ndarray, values: np.ndarray, bits: Int,
                   first: Int, stop: Int) -> tuple[np.ndarray, np.ndarray]:
    """Rows ``first..stop-1`` of :func:`adjacency`: (edge counts per row, neighbour indices)."""
    counts = np.empty(stop - first, dtype=np.int64)
    targets = np.empty(16 * (stop - first) + 80, dtype=np.int64)
    out = np.empty(80, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    edge = np.int64(0)
    for index in range(first, stop):
        n = board_neighbours(boards[index], out, stack)
        if edge + n > targets.shape[0]:
            targets = grown(targets, edge, edge + n)
        for i in range(n):
            targets[edge] = hash_table.find(keys, values, bits, out[i])
            edge += 1
        counts[index - first] = n
    return counts, targets[:edge].copy()


@kernel
def adjacency(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The step graph over ``boards`` (a whole group) in CSR form: the neighbours of
    ``boards[i]`` are ``boards[targets[offsets[i]:offsets[i + 1]]]``."""
    keys, values, bits = index_table(boards)
    counts, targets = adjacency_rows(boards, keys, values, bits, 0, boards.shape[0])
    offsets = np.zeros(boards.shape[0] + 1, dtype=np.int64)
    offsets[1:] = np.cumsum(counts)
    return offsets, targets


@kernel
def solution_flags(goal: np.ndarray, depth: np.ndarray, offsets: np.ndarray,
                   targets: np.ndarray) -> np.ndarray:
    """For nodes in breadth-first order from one start (``depth``: steps from it) over the
    CSR graph ``offsets``/``targets`` with ``goal`` flags: whether each node is a *solution*
    (docs §5), a goal that no shortest path from the start reaches through another goal.

    ``blocked[v]``: some shortest path to ``v`` passes through a goal at or before ``v``."""
    size = goal.shape[0]
    blocked = np.zeros(size, dtype=np.bool_)
    solution = np.zeros(size, dtype=np.bool_)
    for index in range(size):
        through_goal = False
        for e in range(offsets[index], offsets[index + 1]):
            parent = targets[e]
            if depth[parent] == depth[index] - 1 and blocked[parent]:
                through_goal = True
                break
        solution[index] = goal[index] and not through_goal
        blocked[index] = goal[index] or through_goal
    return solution
