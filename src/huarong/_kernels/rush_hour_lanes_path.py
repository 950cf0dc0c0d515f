"""An optimal solution on lane-coded Rush Hour keys (:mod:`huarong._kernels.rush_hour_lanes`):
breadth-first from the start, each state's parent kept, to the first solved state.

Private: :mod:`huarong.puzzles.lanes` wraps it.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels import hash_table
from huarong._kernels._jit import kernel
from huarong._kernels.arrays import grown
from huarong._kernels.hash_table import Int
from huarong._kernels.rush_hour_lanes import is_goal, neighbours


@kernel
def shortest_path(lanes: np.ndarray, cells: np.ndarray, move_start: np.ndarray,
                  moves: np.ndarray, goal_config: np.ndarray, fixed: np.int64,
                  start: np.int64, limit: Int) -> tuple[np.ndarray, Int]:
    """The keys of a shortest path from ``start`` to a solved state, the start first, by
    every move of the tables (a slide or a unit move, as they were built); and the states
    met.  The path is empty when no solved state is reached: the cluster holds none, or
    more than ``limit`` states were met first (then the states met are ``limit + 1``)."""
    states = np.empty(1 << 12, dtype=np.int64)
    parents = np.empty(1 << 12, dtype=np.int64)
    buffer = np.empty(moves.shape[0] + 1, dtype=np.int64)
    runs = np.empty(moves.shape[0] + 1, dtype=np.int64)
    scratch = np.empty(lanes.shape[0], dtype=np.int64)
    bits = hash_table.bits_for(states.shape[0])
    seen = hash_table.set_of(states, 0, bits)
    hash_table.add(seen, bits, start)
    states[0], parents[0] = start, -1
    count: Int = 1
    head: Int = 0
    goal = 0 if is_goal(start, lanes, goal_config) else -1
    while goal < 0 and head < count and count <= limit:
        found = neighbours(states[head], lanes, cells, move_start, moves, fixed, False,
                           scratch, buffer, runs)
        for i in range(found):
            if not hash_table.add(seen, bits, buffer[i]):
                continue
            states = grown(states, count, count + 1)
            parents = grown(parents, count, count + 1)
            states[count], parents[count] = buffer[i], head
            count += 1
            if is_goal(buffer[i], lanes, goal_config):
                goal = count - 1
                break
            if hash_table.crowded(count, bits):
                bits += 1
                seen = hash_table.set_of(states, count, bits)
        head += 1
    if goal < 0:
        return np.zeros(0, dtype=np.int64), min(count, limit + 1)
    length = 1
    at = goal
    while parents[at] >= 0:
        at = parents[at]
        length += 1
    path = np.empty(length, dtype=np.int64)
    at = goal
    for k in range(length - 1, -1, -1):
        path[k] = states[at]
        at = parents[at]
    return path, count
