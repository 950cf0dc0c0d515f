"""Rush Hour on any board up to 8x8 with any number of vehicles: lane-coded state keys and
their moves (:func:`lane_tables`).  The searches on these keys are
:mod:`huarong._kernels.rush_hour_lanes_search`'s.

A vehicle never leaves its lane (its row when horizontal, its column when vertical), and
vehicles of one lane never pass each other nor a wall, so what one lane holds is one of a
few *configurations*: the positions of its vehicles, in order, each within the stretch of
the lane between walls where it stands.  A lane of 8 cells holds at most 15 of them (two
cars), so a state, one configuration number per lane packed in as few bits as the lane
needs, fits in 63 bits on every board up to 8x8 whose goal row holds no other horizontal
vehicle (four bits for 15 lanes, three for the red car's): a hash table of int64 keys, as
the 6x6 sweep's, holds a cluster's states.

The tables, built once per board:

- ``lanes`` (L, 3): the goal vehicle's lane first, then each lane that can move (more than
  one configuration): its ``SHIFT`` in the key, ``MASK`` (its bits, unshifted) and the ``OFFSET`` of
  its first configuration in the arrays below; the lanes that cannot move are folded into
  ``fixed``, the cells always taken (walls included);
- ``cells`` (G): each configuration's cells (bit ``row * columns + column``);
- ``positions`` (G, 4): each configuration's vehicle positions, in lane order;
- ``move_start`` (G + 1) and ``moves`` (M, 3): the moves of one vehicle from each
  configuration (CSR): the key's change (``DELTA``, added), the cells the vehicle sweeps
  over (``SWEPT``), which must be empty, where its run ends (``SKIP``: the moves of one
  vehicle in one direction, nearest first, so that a blocked one ends the run) and the
  run's number (``RUN``: twice the vehicle's index, plus one rightwards or down);
- ``goal_config`` (G): whether a configuration of the goal vehicle's lane has it at its
  target;
- ``slots`` (N, 4): for each vehicle, its lane's index in ``lanes`` (-1: it cannot move),
  its index in the lane, and its anchor cell ``BASE + position * STEP``.

Private: :mod:`huarong.puzzles.lanes` wraps them.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import inline_kernel, kernel

VERTICAL, LANE, LENGTH, POSITION = 0, 1, 2, 3
"""The columns of a vehicle (N, 4): whether vertical, its row or column, length, position."""
SHIFT, MASK, OFFSET = 0, 1, 2
"""The columns of ``lanes``."""
DELTA, SWEPT, SKIP, RUN = 0, 1, 2, 3
"""The columns of ``moves``."""
SLOT, INDEX, BASE, STEP = 0, 1, 2, 3
"""The columns of ``slots``."""
MOST_IN_LANE = 4
"""The most vehicles (two cells long at least) a lane of 8 cells holds."""
LANE_CONFIGS = 64
"""Room for one lane's configurations (15 at most on 8 cells, walls only split them)."""
KEY_BITS = 63
"""The bits of a key: keys stay non-negative (the hash table's free slot is -1)."""

_ONE = np.int64(1)


@kernel
def vehicle_cells(columns: int, vertical: int, lane: int, length: int, position: int
                  ) -> np.int64:
    """The cells of a vehicle of ``length`` at ``position`` of its lane."""
    found = np.int64(0)
    for k in range(length):
        if vertical:
            found |= _ONE << ((position + k) * columns + lane)
        else:
            found |= _ONE << (lane * columns + position + k)
    return found


@kernel
def _lane_configs(rows: int, columns: int, walls: np.int64, vehicles: np.ndarray,
                  members: np.ndarray, count: int, lane_id: int, found: np.ndarray) -> int:
    """Every configuration of the lane's ``members[:count]`` (vehicle indices by position)
    into ``found`` (positions); how many, -1 when more than ``found`` holds."""
    vertical = 1 if lane_id >= rows else 0
    lane = lane_id - rows if vertical else lane_id
    size = rows if vertical else columns
    low = np.zeros(MOST_IN_LANE, dtype=np.int64)
    high = np.zeros(MOST_IN_LANE, dtype=np.int64)
    length = np.zeros(MOST_IN_LANE, dtype=np.int64)
    for k in range(count):
        v = members[k]
        length[k] = vehicles[v, LENGTH]
        start = vehicles[v, POSITION]
        low[k] = 0
        for x in range(start - 1, -1, -1):
            cell = x * columns + lane if vertical else lane * columns + x
            if (walls >> cell) & 1:
                low[k] = x + 1
                break
        high[k] = size - length[k]
        for x in range(start + length[k], size):
            cell = x * columns + lane if vertical else lane * columns + x
            if (walls >> cell) & 1:
                high[k] = x - length[k]
                break
    # An odometer over the positions, each at least the one before it plus its length.
    position = np.zeros(MOST_IN_LANE, dtype=np.int64)
    configs = 0
    k = 0
    position[0] = low[0] - 1
    while k >= 0:
        position[k] += 1
        if position[k] > high[k]:
            k -= 1
            continue
        if k + 1 < count:
            k += 1
            position[k] = max(low[k], position[k - 1] + length[k - 1]) - 1
            continue
        if configs == found.shape[0]:
            return -1
        for j in range(count):
            found[configs, j] = position[j]
        configs += 1
    return configs


@kernel
def lane_tables(rows: int, columns: int, walls: np.int64, vehicles: np.ndarray,
                target: int, unit: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                  np.ndarray, np.ndarray, np.ndarray,
                                                  np.ndarray, np.int64, np.int64]:
    """The tables of a board (see the module): ``vehicles`` (N, 4), the goal vehicle first
    (solved at position ``target``); ``unit``: a move is one cell, else any distance.
    Returns (lanes, cells, positions, move_start, moves, goal_config, slots, fixed, start
    key); the start key is -1 when the states need more than 63 bits."""
    n = vehicles.shape[0]
    lane_count = rows + columns
    members = np.zeros((lane_count, MOST_IN_LANE), dtype=np.int64)
    sizes = np.zeros(lane_count, dtype=np.int64)
    for v in range(n):
        lane_id = vehicles[v, LANE] + (rows if vehicles[v, VERTICAL] else 0)
        k = sizes[lane_id]
        while k > 0 and vehicles[members[lane_id, k - 1], POSITION] > vehicles[v, POSITION]:
            members[lane_id, k] = members[lane_id, k - 1]
            k -= 1
        members[lane_id, k] = v
        sizes[lane_id] += 1
    goal_lane = vehicles[0, LANE] + (rows if vehicles[0, VERTICAL] else 0)
    scratch = np.zeros((LANE_CONFIGS, MOST_IN_LANE), dtype=np.int64)
    all_positions = np.zeros((lane_count * LANE_CONFIGS, MOST_IN_LANE), dtype=np.int64)
    lanes = np.zeros((lane_count, 3), dtype=np.int64)
    lane_ids = np.zeros(lane_count, dtype=np.int64)
    slots = np.zeros((n, 4), dtype=np.int64)
    fixed = walls
    used = 0
    configs_total = 0
    shift = 0
    start = np.int64(0)
    for step in range(lane_count):
        # The goal vehicle's lane first, where is_goal looks.
        lane_id = goal_lane if step == 0 else step - 1 + (step - 1 >= goal_lane)
        count = sizes[lane_id]
        if count == 0:
            continue
        configs = _lane_configs(rows, columns, walls, vehicles, members[lane_id], count,
                                lane_id, scratch)
        if configs < 0:
            return (lanes[:0], np.zeros(0, dtype=np.int64), all_positions[:0],
                    np.zeros(1, dtype=np.int64), np.zeros((0, 4), dtype=np.int64),
                    np.zeros(0, dtype=np.bool_), slots, fixed, np.int64(-1))
        for k in range(count):
            v = members[lane_id, k]
            slots[v, INDEX] = k
            if vehicles[v, VERTICAL]:
                slots[v, BASE], slots[v, STEP] = vehicles[v, LANE], columns
            else:
                slots[v, BASE], slots[v, STEP] = vehicles[v, LANE] * columns, 1
            slots[v, SLOT] = -1
        if configs == 1 and lane_id != goal_lane:
            for k in range(count):
                v = members[lane_id, k]
                fixed |= vehicle_cells(columns, vehicles[v, VERTICAL], vehicles[v, LANE],
                                       vehicles[v, LENGTH], vehicles[v, POSITION])
                slots[v, BASE] += vehicles[v, POSITION] * slots[v, STEP]
                slots[v, STEP] = 0
            continue
        bits = 0
        while (_ONE << bits) < configs:
            bits += 1
        lanes[used, SHIFT], lanes[used, MASK] = shift, (_ONE << bits) - 1
        lanes[used, OFFSET] = configs_total
        lane_ids[used] = lane_id
        for k in range(count):
            slots[members[lane_id, k], SLOT] = used
        rank = 0
        for g in range(configs):
            same = True
            for k in range(count):
                all_positions[configs_total + g, k] = scratch[g, k]
                if scratch[g, k] != vehicles[members[lane_id, k], POSITION]:
                    same = False
            if same:
                rank = g
        start |= np.int64(rank) << shift
        shift += bits
        configs_total += configs
        used += 1
    if shift > KEY_BITS:
        start = np.int64(-1)
    positions = all_positions[:configs_total].copy()
    cells, goal_config = _configuration_cells(columns, vehicles, members, lanes[:used],
                                              lane_ids, positions, sizes, target)
    move_start, moves = _moves(columns, vehicles, members, lanes[:used], lane_ids, positions,
                               sizes, unit)
    return (lanes[:used].copy(), cells, positions, move_start, moves, goal_config, slots,
            fixed, start)


@kernel
def _configuration_cells(columns: int, vehicles: np.ndarray, members: np.ndarray,
                         lanes: np.ndarray, lane_ids: np.ndarray, positions: np.ndarray,
                         sizes: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
    """Each configuration's cells, and whether it holds the goal vehicle at ``target``
    (``lane_ids``: the board lane of each of ``lanes``)."""
    cells = np.zeros(positions.shape[0], dtype=np.int64)
    goal_config = np.zeros(positions.shape[0], dtype=np.bool_)
    for slot in range(lanes.shape[0]):
        lane_id = lane_ids[slot]
        end = positions.shape[0] if slot + 1 == lanes.shape[0] else lanes[slot + 1, OFFSET]
        for g in range(lanes[slot, OFFSET], end):
            for k in range(sizes[lane_id]):
                v = members[lane_id, k]
                cells[g] |= vehicle_cells(columns, vehicles[v, VERTICAL], vehicles[v, LANE],
                                          vehicles[v, LENGTH], positions[g, k])
                if v == 0 and positions[g, k] == target:
                    goal_config[g] = True
    return cells, goal_config


@kernel
def _config_with(positions: np.ndarray, first: int, end: int, g: int, moved: int,
                 there: int, count: int) -> int:
    """The configuration among ``first:end`` that is ``g`` with vehicle ``moved`` (of
    ``count`` in the lane) at ``there``; -1 when there is none."""
    for h in range(first, end):
        if positions[h, moved] != there:
            continue
        same = True
        for k in range(count):
            if k != moved and positions[h, k] != positions[g, k]:
                same = False
        if same:
            return h
    return -1


@kernel
def _moves(columns: int, vehicles: np.ndarray, members: np.ndarray, lanes: np.ndarray,
           lane_ids: np.ndarray, positions: np.ndarray, sizes: np.ndarray, unit: bool
           ) -> tuple[np.ndarray, np.ndarray]:
    """The moves of each configuration (CSR): one vehicle to another position of a
    configuration of its lane where every other vehicle of the lane stays; in runs, one per
    vehicle and direction, nearest first, each move's ``SKIP`` the end of its run (a move
    blocked blocks the farther ones)."""
    total = positions.shape[0]
    move_start = np.zeros(total + 1, dtype=np.int64)
    moves = np.zeros((total * LANE_CONFIGS, 4), dtype=np.int64)
    count = 0
    for slot in range(lanes.shape[0]):
        lane_id = lane_ids[slot]
        first = lanes[slot, OFFSET]
        end = total if slot + 1 == lanes.shape[0] else lanes[slot + 1, OFFSET]
        for g in range(first, end):
            move_start[g] = count
            for moved in range(sizes[lane_id]):
                v = members[lane_id, moved]
                here = positions[g, moved]
                for step in (-1, 1):
                    run = count
                    there = here + step
                    swept = np.int64(0)
                    while True:
                        h = _config_with(positions, first, end, g, moved, there,
                                         sizes[lane_id])
                        if h < 0:
                            break
                        entered = there if step < 0 else there + vehicles[v, LENGTH] - 1
                        swept |= vehicle_cells(columns, vehicles[v, VERTICAL],
                                               vehicles[v, LANE], 1, entered)
                        moves[count, DELTA] = np.int64(h - g) << lanes[slot, SHIFT]
                        moves[count, SWEPT] = swept
                        moves[count, RUN] = 2 * v + (step > 0)
                        count += 1
                        if unit:
                            break
                        there += step
                    moves[run:count, SKIP] = count
    move_start[total] = count
    return move_start, moves[:count].copy()


@inline_kernel
def neighbours(key: np.int64, lanes: np.ndarray, cells: np.ndarray, move_start: np.ndarray,
               moves: np.ndarray, fixed: np.int64, first_only: bool, configs: np.ndarray,
               out: np.ndarray, runs: np.ndarray) -> int:
    """The keys one move from ``key`` into ``out``, their runs into ``runs``; how many.
    With ``first_only``, one cell moves only (the first of each run): a slide is a chain of
    them, so they reach a cluster's states.  ``configs`` (L): scratch."""
    taken = fixed
    for lane in range(lanes.shape[0]):
        g = lanes[lane, OFFSET] + ((key >> lanes[lane, SHIFT]) & lanes[lane, MASK])
        configs[lane] = g
        taken |= cells[g]
    count = 0
    for lane in range(lanes.shape[0]):
        g = configs[lane]
        m = move_start[g]
        while m < move_start[g + 1]:
            if moves[m, SWEPT] & taken:
                m = moves[m, SKIP]
                continue
            out[count] = key + moves[m, DELTA]
            runs[count] = moves[m, RUN]
            count += 1
            m = moves[m, SKIP] if first_only else m + 1
    return count


@inline_kernel
def is_goal(key: np.int64, lanes: np.ndarray, goal_config: np.ndarray) -> bool:
    """Whether the goal vehicle (its lane first in ``lanes``) is at its target in ``key``."""
    return bool(goal_config[lanes[0, OFFSET] + ((key >> lanes[0, SHIFT]) & lanes[0, MASK])])


@kernel
def positions_of(keys: np.ndarray, vehicles: np.ndarray, lanes: np.ndarray,
                 positions: np.ndarray, slots: np.ndarray) -> np.ndarray:
    """The vehicles' positions in each state of ``keys``: (K, N), a vehicle that cannot
    move at its position in ``vehicles``."""
    found = np.empty((keys.shape[0], vehicles.shape[0]), dtype=np.int64)
    for k in range(keys.shape[0]):
        for v in range(vehicles.shape[0]):
            slot = slots[v, SLOT]
            if slot < 0:
                found[k, v] = vehicles[v, POSITION]
            else:
                g = lanes[slot, OFFSET] + ((keys[k] >> lanes[slot, SHIFT]) & lanes[slot, MASK])
                found[k, v] = positions[g, slots[v, INDEX]]
    return found
