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
- writes a row per cluster that passes: moves, cluster size, solved states and the start's
  36 cells.

A state is a key: 3 bits per movable piece, its position along its lane.  A move slides one
piece any distance.  Private: :mod:`huarong.puzzles.presets.rush_hour` wraps it.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel, trailing_zeros

SIDE = 6
CELLS = SIDE * SIDE
PRIMARY_ROW = 2
TARGET = SIDE - 2
"""The red car's column when solved."""

COLUMN_OPTIONS = ((), (2,), (3,), (2, 2), (2, 3), (3, 2))
"""What one column can hold: the lengths of its vertical vehicles, top to bottom."""

COMBINATIONS = len(COLUMN_OPTIONS) ** SIDE
"""Column arrangements: one option per column."""

ENUMERATE, CLUSTERS, DISTANCES, MINIMAL, FOGLEMAN = 0, 1, 2, 3, 4
"""How far a call goes: the seeds only, their clusters, distances and hardest starts, and the
minimality check: every piece needed (``MINIMAL``), or Fogleman's test (``FOGLEMAN``, the
preset: only the pieces his solver's solution leaves unmoved are removed, and his solver
says how many moves the start then needs)."""

SEEDS, CLUSTER_COUNT, STATES, ROWS = 0, 1, 2, 3
"""Indices of the call's tallies: solved placements, clusters with a solved state, their
states, rows written."""

_EMPTY = ord("o")
_WALL = ord("x")
_FIELD = 3
_LOW = np.int64(7)
_ENTER, _NEXT, _LEAVE = 0, 1, 2
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
def _doubled(array: np.ndarray, used: int) -> np.ndarray:
    """``array`` twice as long, its first ``used`` entries kept."""
    bigger = np.empty(2 * array.shape[0], dtype=array.dtype)
    bigger[:used] = array[:used]
    return bigger


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
                queue = _doubled(queue, tail)
                depth = _doubled(depth, tail)
                table, _, stamp = _rehash(queue, tail, 2 * queue.shape[0])
                generation = 1
                slot = _slot(table, stamp, generation, nxt)
            table[-1 - slot] = nxt
            stamp[-1 - slot] = generation
            queue[tail] = nxt
            depth[tail] = d + 1
            tail += 1
    return False, queue, depth, table, stamp, generation


@kernel
def _fogleman_solver(start: np.int64, cap: int, n: int, masks: np.ndarray,
                     last: np.ndarray, walls: np.int64, skip: int, buffer: np.ndarray
                     ) -> tuple[int, np.int64]:
    """Fogleman's solver (``cpp/src/solver.cpp``) on the start (less piece ``skip``, or the
    walls not in ``walls``): iterative deepening, moves in his order, never the piece moved
    last, cut when the cells between the red car and the exit hold as many pieces as moves
    left, and one table of heights for all the depths (a state entered with at least the
    height left is not entered again).  The table also cuts paths that only failed because
    their last move's piece could not move again, so its count can exceed the distance.
    Returns (the first depth with a solution, or ``cap + 1``; the pieces its solution moves,
    one bit each)."""
    size = 1 << 12
    keys = np.empty(size, dtype=np.int64)
    heights = np.empty(size, dtype=np.int64)
    table, values, stamp = _rehash(keys, 0, 2 * size)
    stored = 0
    width = buffer.shape[0]
    children = np.empty((cap + 1, width), dtype=np.int64)
    counts = np.zeros(cap + 1, dtype=np.int64)
    index = np.zeros(cap + 1, dtype=np.int64)
    path = np.empty(cap + 2, dtype=np.int64)
    previous = np.full(cap + 2, -1, dtype=np.int64)
    exit_row = PRIMARY_ROW * SIDE
    for most in range(1, cap + 1):
        depth = 0
        path[0] = start
        previous[0] = -1
        action = _ENTER
        result = False
        while True:
            if action == _ENTER:
                node = path[depth]
                height = most - depth
                action = _LEAVE
                if height == 0:
                    result = (node & _LOW) == TARGET
                    continue
                result = False
                slot = _slot(table, stamp, 1, node)
                if slot >= 0:
                    if heights[values[slot]] >= height:
                        continue
                    heights[values[slot]] = height
                else:
                    if 2 * (stored + 1) > table.shape[0] or stored == keys.shape[0]:
                        keys = _doubled(keys, stored)
                        heights = _doubled(heights, stored)
                        table, values, stamp = _rehash(keys, stored, 2 * keys.shape[0])
                    slot = -1 - _slot(table, stamp, 1, node)
                    table[slot], values[slot], stamp[slot] = node, stored, 1
                    keys[stored] = node
                    heights[stored] = height
                    stored += 1
                taken = _occupied(node, n, masks, walls, skip)
                blockers = np.int64(0)
                for column in range((node & _LOW) + 2, SIDE):
                    blockers += (taken >> (exit_row + column)) & 1
                if blockers >= height:
                    continue
                counts[depth] = _moves(node, n, masks, last, walls, skip, children[depth])
                index[depth] = -1
                action = _NEXT
            elif action == _NEXT:
                index[depth] += 1
                while index[depth] < counts[depth] and trailing_zeros(
                        children[depth, index[depth]] ^ path[depth]) // _FIELD == previous[depth]:
                    index[depth] += 1
                if index[depth] >= counts[depth]:
                    result = False
                    action = _LEAVE
                    continue
                child = children[depth, index[depth]]
                path[depth + 1] = child
                previous[depth + 1] = trailing_zeros(child ^ path[depth]) // _FIELD
                depth += 1
                action = _ENTER
            else:
                if depth == 0:
                    break
                depth -= 1
                if result:
                    heights[values[_slot(table, stamp, 1, path[depth])]] = most - depth - 1
                else:
                    action = _NEXT
        if result:
            moved = np.int64(0)
            for d in range(most):
                moved |= np.int64(1) << (trailing_zeros(path[d + 1] ^ path[d]) // _FIELD)
            return most, moved
    return cap + 1, np.int64(0)


@kernel
def _removed(skip: int, n: int, wall_mask: np.int64, walls: np.ndarray
             ) -> tuple[np.int64, int]:
    """(the walls left, the vehicle left out: -1 for none) with piece ``skip`` removed:
    vehicles are 0 to ``n - 1``, then the walls in ``walls``' order."""
    if skip >= n:
        return wall_mask & ~(np.int64(1) << walls[skip - n]), -1
    return wall_mask, skip


@kernel
def _fogleman_minimal(start: np.int64, moves: int, n: int, masks: np.ndarray,
                      last: np.ndarray, wall_mask: np.int64, walls: np.ndarray,
                      buffer: np.ndarray) -> bool:
    """Fogleman's minimality (``cpp/src/cluster.cpp``): no piece his solver's solution
    leaves unmoved, wall or vehicle, can go with his solver still counting ``moves``."""
    _, moved = _fogleman_solver(start, 2 * moves + SIDE, n, masks, last, wall_mask, -1,
                                buffer)
    for skip in range(1, n + walls.shape[0]):
        if skip < n and (moved >> skip) & 1:
            continue
        without, piece = _removed(skip, n, wall_mask, walls)
        count, _ = _fogleman_solver(start, moves, n, masks, last, without, piece, buffer)
        if count == moves:
            return False
    return True


@kernel
def _all_needed(start: np.int64, moves: int, n: int, masks: np.ndarray, last: np.ndarray,
                wall_mask: np.int64, walls: np.ndarray, buffer: np.ndarray) -> bool:
    """Every other piece and wall needed: without it, fewer moves (breadth-first)."""
    size = 1 << 10
    queue = np.empty(size, dtype=np.int64)
    depth = np.empty(size, dtype=np.int32)
    table, _, stamp = _rehash(queue, 0, 2 * size)
    generation = 1
    for skip in range(1, n + walls.shape[0]):
        without, piece = _removed(skip, n, wall_mask, walls)
        needed, queue, depth, table, stamp, generation = _needed(
            start, moves, n, masks, last, without, piece, queue, depth, table, stamp,
            generation, buffer)
        if not needed:
            return False
    return True


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
def _column_choices(allowed: np.ndarray, all_masks: np.ndarray) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every content of each column the ``allowed[column, option]`` table lets in:
    ``counts[c]``, and per choice ``(option, first, second position)``, its cells, and the
    cells right above its vehicles."""
    options = np.array([[0, 0], [2, 0], [3, 0], [2, 2], [2, 3], [3, 2]], dtype=np.int64)
    counts = np.zeros(SIDE, dtype=np.int64)
    choice = np.zeros((SIDE, 32, 3), dtype=np.int64)
    cells = np.zeros((SIDE, 32), dtype=np.int64)
    above = np.zeros((SIDE, 32), dtype=np.int64)
    for c in range(SIDE):
        for option in range(options.shape[0]):
            if not allowed[c, option]:
                continue
            one, two = options[option, 0], options[option, 1]
            for first in range(SIDE - one + 1 if one else 1):
                for second in range(first + one, SIDE - two + 1 if two else first + one + 1):
                    k = counts[c]
                    choice[c, k, 0], choice[c, k, 1], choice[c, k, 2] = option, first, second
                    mask = np.int64(0)
                    up = np.int64(0)
                    if one:
                        mask |= all_masks[1, c, one, first]
                        if first > 0:
                            up |= np.int64(1) << ((first - 1) * SIDE + c)
                    if two:
                        mask |= all_masks[1, c, two, second]
                        up |= np.int64(1) << ((second - 1) * SIDE + c)
                    cells[c, k] = mask
                    above[c, k] = up & ~mask
                    counts[c] += 1
    return counts, choice, cells, above


@kernel
def sweep(row_pieces: np.ndarray, walls: np.ndarray, column_letter: int,
          allowed: np.ndarray, mode: int, all_masks: np.ndarray, tallies: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The clusters of every column content ``allowed`` (``[column, option]``) with these
    rows (see the module); their rows: (moves, states, solved states, boards, how many).

    ``row_pieces[k] = (row, length, lowest, highest position, letter)`` for the red car (row
    2; its lowest and highest the target, for the seeds) and the rows' movable pieces in
    order; ``walls``: their cells; ``column_letter``: the letter of the first vertical
    piece (the next ones follow).

    The seeds are the solved placements where no other piece can move left or up: each
    cluster's smallest solved key is one (moving another piece left or up lowers the key),
    and a cluster is searched from that seed only: a search that meets a smaller solved
    key stops."""
    options = np.array([[0, 0], [2, 0], [3, 0], [2, 2], [2, 3], [3, 2]], dtype=np.int64)
    counts, choice, choice_cells, choice_above = _column_choices(allowed, all_masks)
    wall_mask = np.int64(0)
    for cell in walls:
        wall_mask |= np.int64(1) << cell
    column_mask = np.zeros(SIDE, dtype=np.int64)
    for c in range(SIDE):
        for r in range(SIDE):
            column_mask[c] |= np.int64(1) << (r * SIDE + c)
    rows = row_pieces.shape[0]
    most = rows + 2 * SIDE
    levels = rows + SIDE
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
    size = 1 << 12
    states = np.empty(size, dtype=np.int64)
    distance = np.empty(size, dtype=np.int32)
    order = np.empty(size, dtype=np.int64)
    table, values, stamp = _rehash(states, 0, 2 * size)
    generation = 1
    buffer = np.empty(4 * most * SIDE, dtype=np.int64)
    out_moves = np.empty(256, dtype=np.int16)
    out_states = np.empty(256, dtype=np.int64)
    out_solved = np.empty(256, dtype=np.int64)
    out_boards = np.empty((256, CELLS), dtype=np.uint8)
    written = 0
    position = np.zeros(most, dtype=np.int64)
    index = np.zeros(levels, dtype=np.int64)
    taken = np.zeros(levels + 1, dtype=np.int64)
    required = np.zeros(levels + 1, dtype=np.int64)
    pieces = np.zeros(levels + 1, dtype=np.int64)
    level = 0
    position[0] = row_pieces[0, 2] - 1
    taken[0] = wall_mask
    pieces[0] = 0
    while level >= 0:
        if level < rows:
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
        c = level - rows
        index[level] += 1
        k = index[level]
        if k >= counts[c]:
            level -= 1
            continue
        cells = choice_cells[c, k]
        if cells & taken[level]:
            continue
        full = taken[level] | cells
        if choice_above[c, k] & ~full:
            continue
        if required[level] & column_mask[c] & ~cells:
            continue
        n = pieces[level]
        option = choice[c, k, 0]
        for j in range(2):
            size_j = options[option, j]
            if size_j == 0:
                break
            length[n] = size_j
            last[n] = SIDE - size_j
            vertical[n] = True
            letter[n] = column_letter + n - rows
            position[n] = choice[c, k, 1 + j]
            for q in range(SIDE - size_j + 1):
                masks[n, q] = all_masks[1, c, size_j, q]
            n += 1
        taken[level + 1] = full
        required[level + 1] = required[level]
        pieces[level + 1] = n
        if level + 1 < levels:
            level += 1
            index[level] = -1
            continue
        # A seed.
        tallies[SEEDS] += 1
        if mode == ENUMERATE:
            continue
        seed = np.int64(0)
        for i in range(n):
            seed |= position[i] << (_FIELD * i)
        generation += 1
        if generation == 2**31 - 1:
            stamp[:] = 0
            generation = 1
        slot = -1 - _slot(table, stamp, generation, seed)
        table[slot], values[slot], stamp[slot] = seed, 0, generation
        states[0] = seed
        count = 1
        head = 0
        canonical = True
        while head < count and canonical:
            moves = _moves(states[head], n, masks, last, wall_mask, -1, buffer)
            head += 1
            for i in range(moves):
                nxt = buffer[i]
                if (nxt & _LOW) == TARGET and nxt < seed:
                    canonical = False
                    break
                if _slot(table, stamp, generation, nxt) >= 0:
                    continue
                if count == states.shape[0] or 2 * (count + 1) > table.shape[0]:
                    states, distance, order, table, values, stamp = _grown(states, count)
                    generation = 1
                slot = -1 - _slot(table, stamp, generation, nxt)
                table[slot], values[slot], stamp[slot] = nxt, count, generation
                states[count] = nxt
                count += 1
        if not canonical:
            continue
        tallies[CLUSTER_COUNT] += 1
        tallies[STATES] += count
        if mode == CLUSTERS:
            continue
        # Distances from the cluster's solved states.
        tail = 0
        for i in range(count):
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
        if mode == FOGLEMAN:
            if not _fogleman_minimal(best, hardest, n, masks, last, wall_mask, walls, buffer):
                continue
        else:
            if not _all_needed(best, hardest, n, masks, last, wall_mask, walls, buffer):
                continue
        if written == out_moves.shape[0]:
            out_moves = np.concatenate((out_moves, out_moves))
            out_states = np.concatenate((out_states, out_states))
            out_solved = np.concatenate((out_solved, out_solved))
            out_boards = np.concatenate((out_boards, out_boards))
        out_moves[written] = hardest
        out_states[written] = count
        solved = 0
        while solved < tail and distance[order[solved]] == 0:
            solved += 1
        out_solved[written] = solved
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
    return out_moves, out_states, out_solved, out_boards, written
