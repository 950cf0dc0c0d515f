"""Hot loops of the Rush Hour preset: every lane arrangement of a set of rows, its clusters
grown from their solved states, their distances, hardest starts and minimality.

A horizontal vehicle never leaves its row and a vertical one its column, and vehicles of one
lane never pass each other, so a cluster lives within one *lane arrangement*: the ordered
lengths of the vehicles of each row and column, and the walls.  One call takes the movable
pieces of the rows (the red car first, then rows 0, 1, 3, 4, 5, each left to right), the
walls, and a list of column arrangements (a number in base 6, column 0 the least
significant digit, each digit an index in :data:`COLUMN_OPTIONS`), and for each arrangement:

- enumerates its solved placements (the red car at the right edge; every piece where its
  lane order, segment and the cells taken allow): the seeds;
- from each seed not yet reached, finds its cluster by breadth-first search (a hash table of
  the arrangement's states: clusters without a solved state are never visited);
- finds each state's distance from the nearest solved state (a second search from all the
  cluster's solved states at once) and the hardest start: of the states farthest from a
  solved state, the one with the smallest (horizontal mask, vertical mask) pair;
- checks that every other piece, wall included, is needed: removed, the hardest start is
  solved in fewer moves (a breadth-first search from the start without it, to one move less);
- writes a row per cluster that passes: moves, cluster size and the start's 36 cells.

A state is a key: 3 bits per movable piece, its position along its lane.  A move slides one
piece any distance.  Private: :mod:`huarong.puzzles.rush_hour` wraps it.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel

SIDE = 6
CELLS = SIDE * SIDE
PRIMARY_ROW = 2
TARGET = SIDE - 2
"""The red car's column when solved."""

COLUMN_OPTIONS = ((), (2,), (3,), (2, 2), (2, 3), (3, 2))
"""What one column can hold: the lengths of its vertical vehicles, top to bottom."""

COMBINATIONS = len(COLUMN_OPTIONS) ** SIDE
"""Column arrangements: one option per column."""

ENUMERATE, CLUSTERS, DISTANCES, MINIMAL = 0, 1, 2, 3
"""How far a call goes: the seeds only, their clusters, distances and hardest starts, and the
minimality check (the preset)."""

SEEDS, CLUSTER_COUNT, STATES, ROWS = 0, 1, 2, 3
"""Indices of the call's tallies: solved placements, clusters with a solved state, their
states, rows written."""

_EMPTY = ord("o")
_WALL = ord("x")
_FIELD = 3
_LOW = np.int64(7)
_MIX = np.int64(0x5851F42D4C957F2D)


def lane_masks() -> np.ndarray:
    """``masks[orientation, lane, length, position]``: the cells (bit ``row * 6 + column``)
    of a horizontal (0) or vertical (1) vehicle."""
    masks = np.zeros((2, SIDE, 4, SIDE), dtype=np.int64)
    for lane in range(SIDE):
        for length in (1, 2, 3):
            for position in range(SIDE - length + 1):
                for k in range(length):
                    masks[0, lane, length, position] |= 1 << (lane * SIDE + position + k)
                    masks[1, lane, length, position] |= 1 << ((position + k) * SIDE + lane)
    return masks


@kernel
def _slot(table: np.ndarray, stamp: np.ndarray, generation: int, key: np.int64) -> int:
    """The slot holding ``key``, or -1 - the empty slot where it would go."""
    mask = table.shape[0] - 1
    h = key * _MIX
    slot = (h ^ (h >> 29)) & mask
    while True:
        if stamp[slot] != generation:
            return -1 - slot
        if table[slot] == key:
            return slot
        slot = (slot + 1) & mask


@kernel
def _occupied(key: np.int64, n: int, masks: np.ndarray, walls: np.int64, skip: int
              ) -> np.int64:
    taken = walls
    for p in range(n):
        if p != skip:
            taken |= masks[p, (key >> (_FIELD * p)) & _LOW]
    return taken


@kernel
def _moves(key: np.int64, n: int, masks: np.ndarray, last: np.ndarray, walls: np.int64,
           skip: int, out: np.ndarray) -> int:
    """The states one move from ``key`` into ``out``; how many.  Piece ``skip`` is off the
    board."""
    taken = _occupied(key, n, masks, walls, skip)
    count = 0
    for p in range(n):
        if p == skip:
            continue
        shift = _FIELD * p
        position = (key >> shift) & _LOW
        others = taken & ~masks[p, position]
        base = key & ~(_LOW << shift)
        q = position - 1
        while q >= 0 and (masks[p, q] & others) == 0:
            out[count] = base | (q << shift)
            count += 1
            q -= 1
        q = position + 1
        while q <= last[p] and (masks[p, q] & others) == 0:
            out[count] = base | (q << shift)
            count += 1
            q += 1
    return count


@kernel
def _rehash(keys: np.ndarray, count: int, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A table of ``size`` slots holding ``keys[:count]``, each mapped to its index."""
    table = np.empty(size, dtype=np.int64)
    values = np.empty(size, dtype=np.int64)
    stamp = np.zeros(size, dtype=np.int32)
    for i in range(count):
        slot = -1 - _slot(table, stamp, 1, keys[i])
        table[slot] = keys[i]
        values[slot] = i
        stamp[slot] = 1
    return table, values, stamp


@kernel
def _grown(states: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                     np.ndarray, np.ndarray, np.ndarray]:
    """Twice the room: the states (the first ``count`` kept), distances, order, and a table
    of the kept states (generation 1)."""
    grown = 2 * states.shape[0]
    bigger = np.empty(grown, dtype=np.int64)
    bigger[:count] = states[:count]
    table, values, stamp = _rehash(bigger, count, 2 * grown)
    return (bigger, np.empty(grown, dtype=np.int32), np.empty(grown, dtype=np.int64), table,
            values, stamp)


@kernel
def _needed(start: np.int64, moves: int, n: int, masks: np.ndarray, last: np.ndarray,
            walls: np.int64, skip: int, queue: np.ndarray, depth: np.ndarray,
            table: np.ndarray, stamp: np.ndarray, generation: int, buffer: np.ndarray
            ) -> tuple[bool, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Whether the start, less piece ``skip`` (or less the walls not in ``walls``), is solved
    in fewer than ``moves`` moves; and the search's arrays (grown) and generation, for the
    next call."""
    generation += 1
    if generation == 2**31 - 1:
        stamp[:] = 0
        generation = 1
    table[-1 - _slot(table, stamp, generation, start)] = start
    stamp[-1 - _slot(table, stamp, generation, start)] = generation
    queue[0] = start
    depth[0] = 0
    head, tail = 0, 1
    while head < tail:
        key = queue[head]
        d = depth[head]
        head += 1
        if d + 1 >= moves:
            break
        count = _moves(key, n, masks, last, walls, skip, buffer)
        for i in range(count):
            nxt = buffer[i]
            if (nxt & _LOW) == TARGET:
                return True, queue, depth, table, stamp, generation
            slot = _slot(table, stamp, generation, nxt)
            if slot >= 0:
                continue
            if tail == queue.shape[0] or 2 * (tail + 1) > table.shape[0]:
                grown = 2 * queue.shape[0]
                bigger = np.empty(grown, dtype=np.int64)
                bigger[:tail] = queue[:tail]
                queue = bigger
                deeper = np.empty(grown, dtype=np.int32)
                deeper[:tail] = depth[:tail]
                depth = deeper
                table, _, stamp = _rehash(queue, tail, 2 * grown)
                generation = 1
                slot = _slot(table, stamp, generation, nxt)
            table[-1 - slot] = nxt
            stamp[-1 - slot] = generation
            queue[tail] = nxt
            depth[tail] = d + 1
            tail += 1
    return False, queue, depth, table, stamp, generation


@kernel
def _masks_of(key: np.int64, n: int, masks: np.ndarray, vertical: np.ndarray,
              walls: np.int64) -> tuple[np.int64, np.int64]:
    across = walls
    down = np.int64(0)
    for p in range(n):
        cells = masks[p, (key >> (_FIELD * p)) & _LOW]
        if vertical[p]:
            down |= cells
        else:
            across |= cells
    return across, down


@kernel
def sweep(combinations: np.ndarray, first: int, row_pieces: np.ndarray, walls: np.ndarray,
          column_letter: int, mode: int, all_masks: np.ndarray, out_moves: np.ndarray,
          out_states: np.ndarray, out_boards: np.ndarray, written: int,
          tallies: np.ndarray) -> tuple[int, int]:
    """The column arrangements ``combinations[first:]`` with these rows (see the module).

    ``row_pieces[k] = (row, length, lowest, highest position, letter)`` for the red car (row
    2; its lowest and highest the target, for the seeds) and the rows' movable pieces in
    order; ``walls``: their cells; ``column_letter``: the letter of the first vertical
    piece (the next ones follow).  Rows go to ``out_*[written:]``; returns (the next
    arrangement, rows written so far): short of the end when the outputs are full (call
    again with bigger ones from there; the tallies of the arrangement cut short are not
    counted)."""
    options = np.array([[0, 0], [2, 0], [3, 0], [2, 2], [2, 3], [3, 2]], dtype=np.int64)
    wall_mask = np.int64(0)
    for cell in walls:
        wall_mask |= np.int64(1) << cell
    rows = row_pieces.shape[0]
    most = rows + 2 * SIDE
    masks = np.zeros((most, SIDE), dtype=np.int64)
    length = np.zeros(most, dtype=np.int64)
    last = np.zeros(most, dtype=np.int64)
    lowest = np.zeros(most, dtype=np.int64)
    highest = np.zeros(most, dtype=np.int64)
    previous = np.full(most, -1, dtype=np.int64)
    vertical = np.zeros(most, dtype=np.bool_)
    letter = np.zeros(most, dtype=np.uint8)
    for p in range(rows):
        row, size = row_pieces[p, 0], row_pieces[p, 1]
        length[p] = size
        last[p] = SIDE - size
        lowest[p], highest[p] = row_pieces[p, 2], row_pieces[p, 3]
        letter[p] = row_pieces[p, 4]
        for q in range(SIDE - size + 1):
            masks[p, q] = all_masks[0, row, size, q]
        if p >= 1 and row_pieces[p - 1, 0] == row:
            previous[p] = p - 1
    vertical[rows:] = True
    size = 1 << 12
    states = np.empty(size, dtype=np.int64)
    distance = np.empty(size, dtype=np.int32)
    order = np.empty(size, dtype=np.int64)
    table, values, stamp = _rehash(states, 0, 2 * size)
    generation = 1
    queue = np.empty(size, dtype=np.int64)
    depth = np.empty(size, dtype=np.int32)
    side_table, _, side_stamp = _rehash(states, 0, 2 * size)
    side_generation = 1
    buffer = np.empty(4 * most * SIDE, dtype=np.int64)
    position = np.zeros(most, dtype=np.int64)
    taken = np.zeros(most + 1, dtype=np.int64)
    before = np.zeros(tallies.shape[0], dtype=np.int64)
    for t in range(first, combinations.shape[0]):
        code = combinations[t]
        n = rows
        for column in range(SIDE):
            option = code % 6
            code //= 6
            for k in range(2):
                size_k = options[option, k]
                if size_k == 0:
                    break
                length[n] = size_k
                last[n] = SIDE - size_k
                lowest[n] = 0
                highest[n] = SIDE - size_k
                previous[n] = n - 1 if k == 1 else -1
                letter[n] = column_letter + n - rows
                for q in range(SIDE - size_k + 1):
                    masks[n, q] = all_masks[1, column, size_k, q]
                n += 1
        generation += 1
        if generation == 2**31 - 1:
            stamp[:] = 0
            generation = 1
        before[:] = tallies
        count = 0
        start_written = written
        overflow = False
        # The seeds: a depth-first walk, piece by piece, over the placements with the red
        # car at the target.
        p = 0
        position[0] = lowest[0] - 1
        taken[0] = wall_mask
        while p >= 0:
            position[p] += 1
            if position[p] > highest[p]:
                p -= 1
                continue
            cells = masks[p, position[p]]
            if cells & taken[p]:
                continue
            taken[p + 1] = taken[p] | cells
            if p + 1 < n:
                p += 1
                low = lowest[p]
                if previous[p] >= 0:
                    low = max(low, position[previous[p]] + length[previous[p]])
                position[p] = low - 1
                continue
            tallies[SEEDS] += 1
            if mode == ENUMERATE:
                continue
            seed = np.int64(0)
            for i in range(n):
                seed |= position[i] << (_FIELD * i)
            if _slot(table, stamp, generation, seed) >= 0:
                continue
            # The seed's cluster.
            begin = count
            if count == states.shape[0] or 2 * (count + 1) > table.shape[0]:
                states, distance, order, table, values, stamp = _grown(states, count)
                generation = 1
            slot = -1 - _slot(table, stamp, generation, seed)
            table[slot], values[slot], stamp[slot] = seed, count, generation
            states[count] = seed
            count += 1
            head = begin
            while head < count:
                moves = _moves(states[head], n, masks, last, wall_mask, -1, buffer)
                head += 1
                for i in range(moves):
                    nxt = buffer[i]
                    if _slot(table, stamp, generation, nxt) >= 0:
                        continue
                    if count == states.shape[0] or 2 * (count + 1) > table.shape[0]:
                        states, distance, order, table, values, stamp = _grown(states, count)
                        generation = 1
                    slot = -1 - _slot(table, stamp, generation, nxt)
                    table[slot], values[slot], stamp[slot] = nxt, count, generation
                    states[count] = nxt
                    count += 1
            tallies[CLUSTER_COUNT] += 1
            tallies[STATES] += count - begin
            if mode == CLUSTERS:
                continue
            # Distances from the cluster's solved states.
            tail = 0
            for i in range(begin, count):
                if (states[i] & _LOW) == TARGET:
                    distance[i] = 0
                    order[tail] = i
                    tail += 1
                else:
                    distance[i] = -1
            head = 0
            while head < tail:
                i = order[head]
                head += 1
                moves = _moves(states[i], n, masks, last, wall_mask, -1, buffer)
                for m in range(moves):
                    j = values[_slot(table, stamp, generation, buffer[m])]
                    if distance[j] < 0:
                        distance[j] = distance[i] + 1
                        order[tail] = j
                        tail += 1
            hardest = distance[order[tail - 1]]
            if hardest == 0:
                continue
            best = states[order[tail - 1]]
            best_across, best_down = _masks_of(best, n, masks, vertical, wall_mask)
            k = tail - 2
            while k >= 0 and distance[order[k]] == hardest:
                across, down = _masks_of(states[order[k]], n, masks, vertical, wall_mask)
                if across < best_across or (across == best_across and down < best_down):
                    best, best_across, best_down = states[order[k]], across, down
                k -= 1
            if mode == DISTANCES:
                continue
            # Minimal: without any one other piece or wall, fewer moves.
            minimal = True
            for skip in range(1, n + walls.shape[0]):
                without = wall_mask
                piece = skip
                if skip >= n:
                    without = wall_mask & ~(np.int64(1) << walls[skip - n])
                    piece = -1
                needed, queue, depth, side_table, side_stamp, side_generation = _needed(
                    best, hardest, n, masks, last, without, piece, queue, depth, side_table,
                    side_stamp, side_generation, buffer)
                if not needed:
                    minimal = False
                    break
            if not minimal:
                continue
            if written == out_moves.shape[0]:
                overflow = True
                break
            out_moves[written] = hardest
            out_states[written] = count - begin
            board = out_boards[written]
            board[:] = _EMPTY
            for cell in walls:
                board[cell] = _WALL
            for i in range(n):
                cells = masks[i, (best >> (_FIELD * i)) & _LOW]
                for cell in range(CELLS):
                    if (cells >> cell) & 1:
                        board[cell] = letter[i]
            written += 1
            tallies[ROWS] += 1
        if overflow:
            tallies[:] = before
            return t, start_written
    return combinations.shape[0], written
