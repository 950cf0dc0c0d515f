"""Searches on lane-coded Rush Hour keys (:mod:`huarong._kernels.rush_hour_lanes`): a start's
cluster, each state's distance from the nearest solved state and the hardest start
(:func:`cluster`), and whether every piece of a start is needed (:func:`all_needed`).

The hardest start is, of the states farthest from a solved state, the one the general
engine's code ranks first (:mod:`huarong._kernels.cluster`): its pieces' classes compared in
order, each class by its pieces' anchor cells, largest first.  That order needs no code, so
it holds on boards whose codes do not fit 63 bits.

Private: :mod:`huarong.puzzles.lanes` wraps them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels import hash_table
from huarong._kernels._jit import kernel
from huarong._kernels.arrays import grown
from huarong._kernels.hash_table import Int
from huarong._kernels.rush_hour_lanes import (
    BASE,
    INDEX,
    MASK,
    OFFSET,
    SHIFT,
    SLOT,
    STEP,
    is_goal,
    lane_tables,
    neighbours,
)

HARDEST, STATES, SOLVED, HARDEST_KEY, SMALLEST_KEY, MOVED = 0, 1, 2, 3, 4, 5
"""The figures :func:`cluster` returns: the hardest start's moves (-1: no solved state),
the states (past the limit: the limit plus one, the search stopped there), the solved
states, the hardest start's key (without a solved state, the cluster's first state by the
engine's code, as the engine answers), the cluster's smallest key and the vehicles a
shortest solution of the hardest start moves (bit ``v`` for vehicle ``v``: each is needed,
as that solution less its moves would be shorter)."""


@kernel
def _class_anchors(key: np.int64, lanes: np.ndarray, positions: np.ndarray,
                   slots: np.ndarray, ranked: np.ndarray, first: Int, end: Int,
                   out: np.ndarray) -> None:
    """The anchor cells of ``key``'s vehicles ``ranked[first:end]`` (one class) into those
    places of ``out``, largest first: the order of the general engine's codes."""
    for k in range(first, end):
        v = ranked[k]
        slot = slots[v, SLOT]
        position = 0
        if slot >= 0:
            g = lanes[slot, OFFSET] + ((key >> lanes[slot, SHIFT]) & lanes[slot, MASK])
            position = positions[g, slots[v, INDEX]]
        anchor = slots[v, BASE] + position * slots[v, STEP]
        # Insertion sort: a class holds a few pieces, and no allocation.
        at = k
        while at > first and out[at - 1] < anchor:
            out[at] = out[at - 1]
            at -= 1
        out[at] = anchor


@kernel
def _regrown(keys: np.ndarray, values: np.ndarray, bits: Int, states: np.ndarray,
             count: Int) -> tuple[np.ndarray, np.ndarray, Int]:
    """The table of ``states[:count]`` one bit larger: in the same arrays when they have the
    room (their slots past the table's are free), else in new ones."""
    if (np.int64(1) << (bits + 1)) > keys.shape[0]:
        keys, values = hash_table.table_of(states, count, bits + 1, np.int32)
        return keys, values, bits + 1
    hash_table.clear(keys, bits, states, count)
    for i in range(count):
        hash_table.insert(keys, values, bits + 1, states[i], i)
    return keys, values, bits + 1


@kernel
def cluster(lanes: np.ndarray, cells: np.ndarray, positions: np.ndarray,
            move_start: np.ndarray, moves: np.ndarray, goal_config: np.ndarray,
            slots: np.ndarray, fixed: np.int64, class_end: np.ndarray, ranked: np.ndarray,
            unit: bool, start: np.int64, limit: Int, states: np.ndarray, keys: np.ndarray,
            values: np.ndarray, links: np.ndarray, distance: np.ndarray, order: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                       np.ndarray, np.ndarray]:
    """The start's cluster (see the module): the figures (``HARDEST`` ..), then the
    search's arrays to hand to the next call, grown as needed.

    The first search follows unit moves only (a slide is a chain of them, so they reach
    the same states, with fewer look-ups) and records each state's unit move of each run
    (``links``: the state it leads to, -1 none); the second, from the solved states, walks
    those chains for the slides (``unit``: only their first links).  The table (``keys``:
    free slots only, ``values`` int32) is used from its first slots up, as few as the
    cluster needs, so a small cluster stays in cache however large an earlier one made the
    table; it is left free.  A cluster past ``limit`` states is counted to ``limit + 1``
    and left there."""
    figures = np.zeros(6, dtype=np.int64)
    runs = 2 * slots.shape[0]
    buffer = np.empty(runs, dtype=np.int64)
    found_runs = np.empty(runs, dtype=np.int64)
    scratch = np.empty(lanes.shape[0], dtype=np.int64)
    bits: Int = np.int64(hash_table.SMALLEST_BITS)
    hash_table.insert(keys, values, bits, start, 0)
    states[0] = start
    links[:runs] = -1
    head: Int = 0
    count: Int = 1
    smallest = start
    while head < count and count <= limit:
        head, count, smallest = _expand(
            lanes, cells, move_start, moves, fixed, limit, states, keys, values, bits,
            links, head, count, smallest, buffer, found_runs, scratch)
        # Room for one more state's moves before the next call.
        states = grown(states, count, count + runs)
        links = grown(links, count * runs, (count + runs) * runs)
        while hash_table.crowded(count + runs, bits):
            keys, values, bits = _regrown(keys, values, bits, states, count)
    figures[STATES] = count
    figures[HARDEST], figures[HARDEST_KEY], figures[SMALLEST_KEY] = -1, start, smallest
    hash_table.clear(keys, bits, states, count)
    if count <= limit:
        if count > distance.shape[0]:
            distance = grown(distance, 0, count)
            order = grown(order, 0, count)
        _distances(states, count, lanes, goal_config, links, runs, unit, distance, order,
                   figures)
        # The hardest start: of the states farthest from a solved state (the last of
        # ``order``: every state of a cluster with a solved state is reached), the first
        # by the engine's code; without a solved state, the first of all, as the engine.
        first = count - 1
        if figures[SOLVED]:
            figures[HARDEST] = distance[order[count - 1]]
            while first > 0 and distance[order[first - 1]] == figures[HARDEST]:
                first -= 1
        else:
            first = 0
            order[:count] = np.arange(count)
        hardest = _first_by_code(states, order[first:count], lanes, positions, slots,
                                 class_end, ranked)
        figures[HARDEST_KEY] = states[hardest]
        if figures[SOLVED]:
            figures[MOVED] = _moved(hardest, distance, links, runs, unit)
    return figures, states, keys, values, links, distance, order


@kernel
def _moved(state: Int, distance: np.ndarray, links: np.ndarray, runs: Int, unit: bool
           ) -> np.int64:
    """The vehicles (bit ``v`` for vehicle ``v``) a shortest solution from ``state`` (an
    index) moves: each move to a state one nearer a solved one, by the links of
    :func:`_expand` (run ``2 v`` and ``2 v + 1``: vehicle ``v``'s)."""
    moved = np.int64(0)
    while state >= 0 and distance[state] > 0:
        nearer = -1
        for run in range(runs):
            j = links[state * runs + run]
            while j >= 0 and nearer < 0:
                if distance[j] == distance[state] - 1:
                    nearer = j
                    moved |= np.int64(1) << (run // 2)
                j = -1 if unit else links[j * runs + run]
            if nearer >= 0:
                break
        state = nearer
    return moved


@kernel
def _expand(lanes: np.ndarray, cells: np.ndarray, move_start: np.ndarray,
            moves: np.ndarray, fixed: np.int64, limit: Int, states: np.ndarray,
            keys: np.ndarray, values: np.ndarray, bits: Int, links: np.ndarray, head: Int,
            count: Int, smallest: np.int64, buffer: np.ndarray, found_runs: np.ndarray,
            scratch: np.ndarray) -> tuple[Int, Int, Any]:
    """Breadth-first by unit moves: expand ``states[head]``, ... appending the new states
    and linking each run's move, until every state is expanded, the cluster passes
    ``limit`` or an array might overflow (the caller grows it and calls again; no array is
    reassigned here, so the table's probe is inlined).  Returns (head, count, smallest
    key)."""
    runs = buffer.shape[0]
    room = min(states.shape[0], links.shape[0] // runs, (np.int64(1) << bits) // 2) - runs
    while head < count and count <= limit and count <= room:
        found = neighbours(states[head], lanes, cells, move_start, moves, fixed, True,
                           scratch, buffer, found_runs)
        for i in range(found):
            key = buffer[i]
            slot = hash_table.probe(keys, bits, key)
            if keys[slot] == key:
                links[head * runs + found_runs[i]] = values[slot]
            else:
                keys[slot], values[slot] = key, count
                links[head * runs + found_runs[i]] = count
                links[count * runs:(count + 1) * runs] = -1
                states[count] = key
                count += 1
                smallest = min(smallest, key)
        head += 1
    return head, count, smallest


@kernel
def _distances(states: np.ndarray, count: Int, lanes: np.ndarray, goal_config: np.ndarray,
               links: np.ndarray, runs: Int, unit: bool, distance: np.ndarray,
               order: np.ndarray, figures: np.ndarray) -> None:
    """Each state's distance from the nearest solved state into ``distance``, the states'
    indices by distance into ``order`` (a move's reverse is a move: the moves out of a
    state are the moves into it); the solved states into ``figures``."""
    solved = 0
    for i in range(count):
        if is_goal(states[i], lanes, goal_config):
            distance[i] = 0
            order[solved] = i
            solved += 1
        else:
            distance[i] = -1
    figures[SOLVED] = solved
    head, tail = 0, solved
    while head < tail:
        i = order[head]
        head += 1
        for run in range(runs):
            j = links[i * runs + run]
            while j >= 0:
                if distance[j] < 0:
                    distance[j] = distance[i] + 1
                    order[tail] = j
                    tail += 1
                elif distance[j] < distance[i]:
                    # Expanded before i: its slides along this run, the rest of the chain,
                    # reached every state further on already.
                    break
                j = -1 if unit else links[j * runs + run]


@kernel
def _first_by_code(states: np.ndarray, indices: np.ndarray, lanes: np.ndarray,
                   positions: np.ndarray, slots: np.ndarray, class_end: np.ndarray,
                   ranked: np.ndarray) -> Int:
    """Of the states ``states[indices]``, the one the engine's code ranks first (its index
    in ``states``): classes (``class_end``: where each ends in ``ranked``, the vehicles in
    the engine's class order) compared in order, each by its anchors largest first (a
    state's next class looked at only while the ones before tie)."""
    chosen = indices[0]
    best = states[chosen]
    best_anchors = np.empty(slots.shape[0], dtype=np.int64)
    anchors = np.empty(slots.shape[0], dtype=np.int64)
    first = 0
    for c in range(class_end.shape[0]):
        _class_anchors(best, lanes, positions, slots, ranked, first, class_end[c],
                       best_anchors)
        first = class_end[c]
    for k in range(1, indices.shape[0]):
        key = states[indices[k]]
        first = 0
        for c in range(class_end.shape[0]):
            _class_anchors(key, lanes, positions, slots, ranked, first, class_end[c],
                           anchors)
            order = 0
            for v in range(first, class_end[c]):
                if anchors[v] != best_anchors[v]:
                    order = -1 if anchors[v] < best_anchors[v] else 1
                    break
            if order > 0:
                break
            if order < 0:
                chosen, best = indices[k], key
                for rest in range(class_end.shape[0]):
                    start = 0 if rest == 0 else class_end[rest - 1]
                    _class_anchors(key, lanes, positions, slots, ranked, start,
                                   class_end[rest], best_anchors)
                break
            first = class_end[c]
    return chosen


@kernel
def all_needed(rows: int, columns: int, walls: np.int64, removable: np.ndarray,
               vehicles: np.ndarray, target: int, unit: bool, length: int, limit: Int,
               known: np.int64) -> bool:
    """Whether every vehicle but the goal vehicle (the first of ``vehicles``, (N, 4) as
    :func:`~huarong._kernels.rush_hour_lanes.lane_tables` takes them) and every wall of
    ``removable`` is needed by the start of ``length`` moves: without it, the start is
    solved in fewer (breadth-first; not shown, so not needed, past ``limit`` states).  The
    vehicles of ``known`` (bit ``v`` for vehicle ``v``) are known to be needed."""
    n = vehicles.shape[0]
    met = np.empty(1 << 10, dtype=np.int64)
    bits = hash_table.bits_for(met.shape[0])
    seen = hash_table.set_of(met, 0, bits)
    for skip in range(1, n + removable.shape[0]):
        if skip < n and (known >> skip) & 1:
            continue
        fewer = vehicles
        without = walls
        if skip < n:
            fewer = np.concatenate((vehicles[:skip], vehicles[skip + 1:]))
        else:
            without = walls & ~(np.int64(1) << removable[skip - n])
        lanes, cells, _, move_start, moves, goal_config, _, fixed, start = lane_tables(
            rows, columns, without, fewer, target, unit)
        if start < 0:
            return False
        solved, met, seen, bits = _solved_sooner(lanes, cells, move_start, moves,
                                                 goal_config, fixed, start, length, limit,
                                                 met, seen, bits)
        if not solved:
            return False
    return True


@kernel
def _solved_sooner(lanes: np.ndarray, cells: np.ndarray, move_start: np.ndarray,
                   moves: np.ndarray, goal_config: np.ndarray, fixed: np.int64,
                   start: np.int64, length: int, limit: Int, met: np.ndarray,
                   seen: np.ndarray, bits: Int) -> tuple[bool, np.ndarray, np.ndarray, Int]:
    """Whether the start is solved in fewer than ``length`` moves (False past ``limit``
    states), layer by layer; and the states' list and set (``2**bits`` slots, left empty)
    grown for the next call."""
    buffer = np.empty(moves.shape[0] + 1, dtype=np.int64)
    runs = np.empty(moves.shape[0] + 1, dtype=np.int64)
    scratch = np.empty(lanes.shape[0], dtype=np.int64)
    met[0] = start
    hash_table.add(seen, bits, start)
    layer_start, layer_end, total = 0, 1, 1
    solved = is_goal(start, lanes, goal_config)
    depth = 1
    while not solved and depth < length and layer_start < layer_end and total <= limit:
        for index in range(layer_start, layer_end):
            found = neighbours(met[index], lanes, cells, move_start, moves, fixed, False,
                               scratch, buffer, runs)
            for i in range(found):
                if is_goal(buffer[i], lanes, goal_config):
                    solved = True
                elif hash_table.add(seen, bits, buffer[i]):
                    met = grown(met, total, total + 1)
                    met[total] = buffer[i]
                    total += 1
                    if hash_table.crowded(total, bits):
                        bits += 1
                        seen = hash_table.set_of(met, total, bits)
        layer_start, layer_end = layer_end, total
        depth += 1
    hash_table.clear(seen, bits, met, total)
    return solved, met, seen, bits
