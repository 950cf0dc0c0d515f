"""Rush Hour's pieces and moves as the kernels of the preset see them: lanes, keys, moves and
what each column may hold, on the board of :mod:`huarong._kernels.rush_hour_board`.  The
search itself is :mod:`huarong._kernels.rush_hour_sweep`'s, the test that every piece is
needed :mod:`huarong._kernels.rush_hour_minimality`'s.

A horizontal vehicle never leaves its row and a vertical one its column, and vehicles of one
lane never pass each other, so a cluster lives within one *lane arrangement*: the ordered
lengths of the vehicles of each row and column, and the walls.  One call of the sweep takes
the movable pieces of the rows (the red car first, then rows 0, 1, 3, 4, 5, each left to
right), the walls, and the options of ``COLUMN_OPTIONS`` each column allows, and for
each arrangement of the columns:

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

from huarong._kernels._jit import inline_kernel, kernel
from huarong._kernels.rush_hour_board import COLUMN_OPTIONS, SIDE

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

COLUMN_LENGTHS = np.array([(*option, 0, 0)[:2] for option in COLUMN_OPTIONS], dtype=np.int64)
""":data:`~huarong._kernels.rush_hour_board.COLUMN_OPTIONS` as the kernels read them:
``[option] = (first, second length)``, 0 for no vehicle."""

POSITION_BITS = 3
"""Bits of one piece's position in a key."""
POSITION = np.int64(7)
"""The mask of one piece's position in a key."""


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
def occupied(key: np.int64, n: int, masks: np.ndarray, walls: np.int64, skip: int
             ) -> np.int64:
    """The cells the walls and the pieces of ``key`` take, piece ``skip`` left out."""
    taken = walls
    for p in range(n):
        if p != skip:
            taken |= masks[p, (key >> (POSITION_BITS * p)) & POSITION]
    return taken


@kernel
def neighbours(key: np.int64, n: int, masks: np.ndarray, last: np.ndarray, walls: np.int64,
               skip: int, out: np.ndarray) -> int:
    """The states one move from ``key`` into ``out``; how many.  Piece ``skip`` is off the
    board."""
    return slides(key, occupied(key, n, masks, walls, skip), n, masks, last, skip, out)


@inline_kernel
def slides(key: np.int64, taken: np.int64, n: int, masks: np.ndarray, last: np.ndarray,
           skip: int, out: np.ndarray) -> int:
    """:func:`neighbours` of a key whose cells ``taken`` (piece ``skip`` left out) are
    known."""
    count = 0
    for p in range(n):
        if p == skip:
            continue
        shift = POSITION_BITS * p
        position = (key >> shift) & POSITION
        others = taken & ~masks[p, position]
        base = key & ~(POSITION << shift)
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
def masks_of(key: np.int64, n: int, masks: np.ndarray, vertical: np.ndarray,
             walls: np.int64) -> tuple[np.int64, np.int64]:
    """The cells of ``key``'s horizontal pieces and walls, and of its vertical pieces."""
    across = walls
    down = np.int64(0)
    for p in range(n):
        cells = masks[p, (key >> (POSITION_BITS * p)) & POSITION]
        if vertical[p]:
            down |= cells
        else:
            across |= cells
    return across, down


@kernel
def column_choices(allowed: np.ndarray, all_masks: np.ndarray) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every content of each column the ``allowed[column, option]`` table lets in:
    ``counts[c]``, and per choice ``(option, first, second position)``, its cells, and the
    cells right above its vehicles."""
    counts = np.zeros(SIDE, dtype=np.int64)
    choice = np.zeros((SIDE, 32, 3), dtype=np.int64)
    cells = np.zeros((SIDE, 32), dtype=np.int64)
    above = np.zeros((SIDE, 32), dtype=np.int64)
    for c in range(SIDE):
        for option in range(COLUMN_LENGTHS.shape[0]):
            if not allowed[c, option]:
                continue
            one, two = COLUMN_LENGTHS[option, 0], COLUMN_LENGTHS[option, 1]
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
def removed(skip: int, n: int, wall_mask: np.int64, walls: np.ndarray) -> tuple[np.int64, int]:
    """(the walls left, the vehicle left out: -1 for none) with piece ``skip`` removed:
    vehicles are 0 to ``n - 1``, then the walls in ``walls``' order."""
    if skip >= n:
        return wall_mask & ~(np.int64(1) << walls[skip - n]), -1
    return wall_mask, skip
