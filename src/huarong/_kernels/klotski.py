"""Hot loops for one 4x5 Klotski board: steps, group BFS, solving, the layer model.

Layouts travel as int64 common codes (36 bits, docs §3).  To move pieces a code is unpacked
into a *board*: 3 bits per cell, cell ``a`` at bits ``3a..3a+2``, holding

    0 empty, 1 1x1, 2 horizontal (left half), 3 horizontal (right half),
    4 vertical (top half), 5 vertical (bottom half), 6 2x2 (top-left), 7 2x2 (other cells).

Removing a piece is an XOR with its pattern and placing it another XOR, and a board is packed
back into a code with one table look-up per row, so a step costs a few word operations.

All kernels are private; :mod:`huarong.engine.solver` and :mod:`huarong.engine.analysis` wrap them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels._jit import kernel

Int = int | np.integer[Any]
"""Scalars a kernel accepts: numba sees int64 either way."""

ROWS = 5
COLS = 4
CELLS = 20
GOAL_HEAD = 13
NO_PARENT = -1

# Piece kinds inside kernels: the code's item values, with the 2x2 as 0.
CAO, HORIZONTAL, VERTICAL, SOLDIER = 0, 1, 2, 3
_WIDTH = np.array([2, 2, 1, 1], dtype=np.int64)
_HEIGHT = np.array([2, 1, 2, 1], dtype=np.int64)
# The board value a piece writes in each of its cells, in row-major order of its cells.
_CELL_VALUES = (
    (6, 7, 7, 7),
    (2, 3),
    (4, 5),
    (1,),
)


def _build_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per kind and top-left address: the board pattern and the cell mask; 0 when off the
    board.  Masks are *spaced*: cell ``a`` is bit ``3a``, lined up with the board's cells.
    Plus the row packer: a 12-bit board row to (code items, item count)."""
    pattern = np.zeros((4, CELLS), dtype=np.int64)
    mask = np.zeros((4, CELLS), dtype=np.int64)
    for kind in range(4):
        width, height = int(_WIDTH[kind]), int(_HEIGHT[kind])
        for address in range(CELLS):
            row, col = divmod(address, COLS)
            if row + height > ROWS or col + width > COLS:
                continue
            cells = [address + dy * COLS + dx for dy in range(height) for dx in range(width)]
            for cell, value in zip(cells, _CELL_VALUES[kind], strict=True):
                pattern[kind, address] |= value << (3 * cell)
                mask[kind, address] |= 1 << (3 * cell)
    row_items = np.zeros(1 << 12, dtype=np.int64)
    row_count = np.zeros(1 << 12, dtype=np.int64)
    item_of_value = {0: 0, 1: 3, 2: 1, 4: 2}
    for row_bits in range(1 << 12):
        items = count = 0
        for col in range(COLS):
            value = (row_bits >> (3 * col)) & 7
            if value in item_of_value:
                items = (items << 2) | item_of_value[value]
                count += 1
        row_items[row_bits], row_count[row_bits] = items, count
    return pattern, mask, row_items, row_count


PATTERN, MASK, ROW_ITEMS, ROW_COUNT = _build_tables()


def _build_mirror_rows() -> np.ndarray:
    """A 12-bit board row mirrored left-right: cells reversed, then the halves of each
    horizontal piece and the 2x2's top row put back in left-right order."""
    mirrored = np.zeros(1 << 12, dtype=np.int64)
    halves = {(3, 2): (2, 3), (7, 6): (6, 7)}
    for row_bits in range(1 << 12):
        cells = [(row_bits >> (3 * col)) & 7 for col in range(COLS)][::-1]
        for col in range(COLS - 1):
            pair = (cells[col], cells[col + 1])
            if pair in halves:
                cells[col], cells[col + 1] = halves[pair]
        mirrored[row_bits] = sum(value << (3 * col) for col, value in enumerate(cells))
    return mirrored


MIRROR_ROW = _build_mirror_rows()
ALL_CELLS = sum(1 << (3 * cell) for cell in range(CELLS))


@kernel
def code_to_board(code: Int) -> Int:
    """Unpack a (valid) common code into a 3-bit-per-cell board."""
    head = code >> 32
    board = PATTERN[CAO, head]
    covered = MASK[CAO, head]
    item_index = 0
    for address in range(CELLS):
        if covered & (np.int64(1) << (3 * address)):
            continue
        kind = (code >> (30 - 2 * item_index)) & 3
        item_index += 1
        if kind != 0:
            board |= PATTERN[kind, address]
            covered |= MASK[kind, address]
    return board


@kernel
def board_to_code(board: Int) -> Int:
    """Pack a board into its common code (one table look-up per row)."""
    items = np.int64(0)
    count = np.int64(0)
    head = np.int64(0)
    for row in range(ROWS):
        row_bits = (board >> (12 * row)) & 0xFFF
        n = ROW_COUNT[row_bits]
        items = (items << (2 * n)) | ROW_ITEMS[row_bits]
        count += n
        for col in range(COLS):
            if (row_bits >> (3 * col)) & 7 == 6:
                head = np.int64(row * COLS + col)
    return (head << 32) | (items << (2 * (16 - count)))


@kernel
def occupied_cells(board: Int) -> Int:
    """The spaced mask of the cells holding a piece."""
    return (board | (board >> 1) | (board >> 2)) & ALL_CELLS


def _build_step_tables() -> tuple[np.ndarray, np.ndarray]:
    """Flat per (kind, top-left address) tables, index ``kind * 20 + address``: the up to four
    addresses one unit move away that keep the piece on the board (-1 pads), and per board
    value the offset from that cell back to its piece's top-left (-1 for the 2x2's cells,
    which the search resolves apart)."""
    targets = np.full((4 * CELLS, 4), -1, dtype=np.int64)
    for kind in range(4):
        width, height = int(_WIDTH[kind]), int(_HEIGHT[kind])
        for address in range(CELLS):
            row, col = divmod(address, COLS)
            if row + height > ROWS or col + width > COLS:
                continue
            moves = []
            if col > 0:
                moves.append(address - 1)
            if col + width < COLS:
                moves.append(address + 1)
            if row > 0:
                moves.append(address - COLS)
            if row + height < ROWS:
                moves.append(address + COLS)
            targets[kind * CELLS + address, : len(moves)] = moves
    # Board value -> (kind, offset back to the top-left cell); value 0 is an empty cell.
    owner = np.array([[-1, 0], [SOLDIER, 0], [HORIZONTAL, 0], [HORIZONTAL, 1],
                      [VERTICAL, 0], [VERTICAL, COLS], [CAO, 0], [CAO, -1]], dtype=np.int64)
    return targets, owner


UNIT_MOVES, CELL_OWNER = _build_step_tables()
FLAT_PATTERN = PATTERN.reshape(-1).copy()
FLAT_MASK = MASK.reshape(-1).copy()
# Neighbouring cells of each cell (-1 pads), to find the pieces next to an empty cell.
ADJACENT_CELLS = np.array(
    [[c + d for d, ok in ((-COLS, c >= COLS), (COLS, c < CELLS - COLS),
                          (-1, c % COLS > 0), (1, c % COLS < COLS - 1)) if ok]
     + [-1] * (4 - sum((c >= COLS, c < CELLS - COLS, c % COLS > 0, c % COLS < COLS - 1)))
     for c in range(CELLS)], dtype=np.int64)


@kernel
def _cell(board: Int, address: Int) -> Int:
    return (board >> (3 * address)) & 7


@kernel
def board_neighbours(board: Int, out: np.ndarray, stack: np.ndarray) -> Int:
    """Write every board one step from ``board`` into ``out``; return how many.

    One step moves one piece any distance through empty cells, turning corners, so each
    piece next to an empty cell has its reachable positions flood-filled with the piece
    lifted off the board.  ``out`` needs room for 68 boards (the most any layout has),
    ``stack`` for 20 entries."""
    occupied = occupied_cells(board)
    count = 0
    tried = np.int64(0)
    for empty_cell in range(CELLS):
        if occupied & (np.int64(1) << (3 * empty_cell)):
            continue
        for a in range(4):
            cell = ADJACENT_CELLS[empty_cell, a]
            if cell < 0:
                break
            value = _cell(board, cell)
            if value == 0:
                continue
            kind = CELL_OWNER[value, 0]
            if value == 7:
                address = cell - 1
                if address < 0 or _cell(board, address) != 6:
                    address = cell - COLS
                    if _cell(board, address) != 6:
                        address = cell - COLS - 1
            else:
                address = cell - CELL_OWNER[value, 1]
            if tried & (np.int64(1) << address):
                continue
            tried |= np.int64(1) << address
            base = kind * CELLS
            others = occupied & ~FLAT_MASK[base + address]
            lifted = board ^ FLAT_PATTERN[base + address]
            seen = np.int64(1) << address
            stack[0] = address
            top = 1
            while top:
                top -= 1
                position = stack[top]
                for d in range(4):
                    target = UNIT_MOVES[base + position, d]
                    if target < 0:
                        break
                    if seen & (np.int64(1) << target) or FLAT_MASK[base + target] & others:
                        continue
                    seen |= np.int64(1) << target
                    stack[top] = target
                    top += 1
                    out[count] = lifted | FLAT_PATTERN[base + target]
                    count += 1
    return count


@kernel
def neighbours(code: Int, out: np.ndarray, scratch: np.ndarray) -> Int:
    """Like :func:`board_neighbours` on common codes; ``scratch`` needs 20 entries."""
    count = board_neighbours(code_to_board(code), out, scratch)
    for i in range(count):
        out[i] = board_to_code(out[i])
    return count


@kernel
def mirror_code(code: Int) -> Int:
    """The common code of the left-right mirror image of ``code``."""
    board = code_to_board(code)
    mirrored = np.int64(0)
    for address in range(CELLS):
        value = _cell(board, address)
        if value == 0 or CELL_OWNER[value, 1] != 0:
            continue  # not a piece's top-left cell
        kind = CELL_OWNER[value, 0]
        mirrored |= PATTERN[kind, address + COLS - _WIDTH[kind] - 2 * (address % COLS)]
    return board_to_code(mirrored)


@kernel
def mirror_codes(codes: np.ndarray) -> np.ndarray:
    mirrored = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        mirrored[i] = mirror_code(codes[i])
    return mirrored


@kernel
def is_goal_board(board: Int) -> bool:
    return (board >> (3 * GOAL_HEAD)) & 7 == 6


# ----- open-addressing hash tables keyed by board --------------------------------------
# A small table per search beats a visited array over all 29M layouts: it stays in cache and
# costs nothing to allocate.  Boards are never -1, which marks a free slot.
_HASH_MULTIPLIER = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as a signed int64
_FREE = -1


@kernel
def _slot(key: Int, bits: Int) -> Int:
    return ((key * _HASH_MULTIPLIER) >> (64 - bits)) & ((np.int64(1) << bits) - 1)


@kernel
def _table_bits(expected: Int) -> Int:
    bits = np.int64(10)
    while (np.int64(1) << bits) < 2 * expected:
        bits += 1
    return bits


@kernel
def _add(keys: np.ndarray, bits: Int, key: Int) -> bool:
    """Add ``key`` to the set; False when it was already there."""
    mask = (np.int64(1) << bits) - 1
    slot = _slot(key, bits)
    while keys[slot] != _FREE:
        if keys[slot] == key:
            return False
        slot = (slot + 1) & mask
    keys[slot] = key
    return True


@kernel
def index_table(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, Int]:
    """A map from each of ``boards`` to its position in the array."""
    bits = _table_bits(boards.shape[0])
    keys = np.full(np.int64(1) << bits, _FREE, dtype=np.int64)
    values = np.empty(np.int64(1) << bits, dtype=np.int64)
    mask = (np.int64(1) << bits) - 1
    for index in range(boards.shape[0]):
        slot = _slot(boards[index], bits)
        while keys[slot] != _FREE:
            slot = (slot + 1) & mask
        keys[slot] = boards[index]
        values[slot] = index
    return keys, values, bits


@kernel
def _index_of(keys: np.ndarray, values: np.ndarray, bits: Int, key: Int) -> Int:
    mask = (np.int64(1) << bits) - 1
    slot = _slot(key, bits)
    while keys[slot] != _FREE:
        if keys[slot] == key:
            return values[slot]
        slot = (slot + 1) & mask
    return -1


@kernel
def _grow(array: np.ndarray, needed: Int) -> np.ndarray:
    if needed <= array.shape[0]:
        return array
    bigger = np.empty(max(needed, 2 * array.shape[0]), dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


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
            if not _add(keys, bits, child):
                continue
            boards[size] = child
            parents[size] = head
            size += 1
            if (stop_mode == STOP_AT_GOAL and is_goal_board(child)) or child == target_board:
                return head, size, size - 1
        head += 1
    return head, size, np.int64(-1)


@kernel
def _rehashed(keys: np.ndarray, bits: Int) -> np.ndarray:
    bigger = np.full(np.int64(1) << (bits + 1), _FREE, dtype=np.int64)
    for key in keys:
        if key != _FREE:
            _add(bigger, bits + 1, key)
    return bigger


@kernel
def _bfs_limited(start_board: Int, stop_mode: Int, target_board: Int, size_hint: Int,
                 limit: Int, by_mirror_pairs: bool = False
                 ) -> tuple[np.ndarray, np.ndarray, Int, Int]:
    """Breadth-first search from a board, growing its storage as needed; gives up (size -1)
    once more than ``limit`` layouts are found (limit < 0: no limit)."""
    capacity = max(size_hint, np.int64(1024))
    boards = np.empty(capacity, dtype=np.int64)
    parents = np.empty(capacity, dtype=np.int64)
    bits = _table_bits(capacity)
    keys = np.full(np.int64(1) << bits, _FREE, dtype=np.int64)
    boards[0] = start_board
    parents[0] = NO_PARENT
    _add(keys, bits, start_board)
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
        if size + _MAX_NEIGHBOURS > keys.shape[0] // 2:
            keys = _rehashed(keys, bits)
            bits += 1
        if size + _MAX_NEIGHBOURS > boards.shape[0]:
            boards = _grow(boards, 2 * boards.shape[0])
            parents = _grow(parents, 2 * parents.shape[0])
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
    length = 1
    node = found
    while parents[node] != NO_PARENT:
        node = parents[node]
        length += 1
    chain = np.empty(length, dtype=np.int64)
    node = found
    for i in range(length - 1, -1, -1):
        chain[i] = boards[node]
        node = parents[node]
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
    length = 1
    node = end
    while parents[node] != NO_PARENT:
        node = parents[node]
        length += 1
    path = np.empty(length, dtype=np.int64)
    node = end
    for i in range(length - 1, -1, -1):
        path[i] = board_to_code(boards[node])
        node = parents[node]
    return path


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
        targets = _grow(targets, edge + n)
        for i in range(n):
            targets[edge] = _index_of(keys, values, bits, out[i])
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
def solution_flags(boards: np.ndarray, depth: np.ndarray, offsets: np.ndarray,
                   targets: np.ndarray) -> np.ndarray:
    """For a BFS order from one start: whether each layout is a *solution* (docs §5): a goal
    layout that no shortest path from the start reaches through another goal layout.

    ``blocked[v]``: some shortest path to ``v`` passes through a goal at or before ``v``."""
    size = boards.shape[0]
    blocked = np.zeros(size, dtype=np.bool_)
    solution = np.zeros(size, dtype=np.bool_)
    for index in range(size):
        through_goal = False
        for e in range(offsets[index], offsets[index + 1]):
            parent = targets[e]
            if depth[parent] == depth[index] - 1 and blocked[parent]:
                through_goal = True
                break
        goal = is_goal_board(boards[index])
        solution[index] = goal and not through_goal
        blocked[index] = goal or through_goal
    return solution
