"""M. Fogleman's minimality test ("each piece is important") of a 6x6 Rush Hour start given as
its vehicles, on the rush kernels: read by the preset's search (:mod:`.rush_hour`) and its
design space (:mod:`.rush_hour_design`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from huarong._kernels.rush_hour_board import SIDE


def fogleman_lanes_minimal(lanes: Sequence[tuple[int, int, int, int]], walls: Sequence[int],
                           moves: int, needed: Sequence[bool] = ()) -> bool:
    """:func:`~huarong.puzzles.presets.rush_hour.fogleman_minimal` of a start given as its
    vehicles, each ``(vertical, row or column, position, length)``, and its walls' cells
    (ascending).  His pieces' order
    decides which solution his solver finds: the red car, rows 0, 1, 3, 4, 5 left to right,
    then columns 0 to 5 top to bottom.  ``needed`` (beside ``lanes``): the vehicles known
    to be needed (a shortest solution moves them), which saves his solver's search."""
    from huarong._kernels.rush_hour import FOGLEMAN, POSITION_BITS
    from huarong._kernels.rush_hour_minimality import minimal

    all_masks = lane_masks()
    masks = np.zeros((len(lanes), SIDE), dtype=np.int64)
    last = np.zeros(len(lanes), dtype=np.int64)
    start = np.int64(0)
    for p, (vertical, lane, position, length) in enumerate(lanes):
        masks[p, :SIDE - length + 1] = all_masks[vertical, lane, length, :SIDE - length + 1]
        last[p] = SIDE - length
        start |= np.int64(position) << np.int64(POSITION_BITS * p)
    wall_cells = np.array(walls, dtype=np.int64)
    wall_mask = np.int64(sum(1 << int(cell) for cell in wall_cells))
    buffer = np.empty(4 * len(lanes) * SIDE, dtype=np.int64)
    known = np.int64(sum(1 << p for p, is_needed in enumerate(needed) if is_needed)
                     if needed else -1)
    return bool(minimal(FOGLEMAN, start, moves, len(lanes), masks, last, wall_mask,
                        wall_cells, buffer, known))


@cache
def lane_masks() -> np.ndarray:
    """The kernels' table of every vehicle's cells, by orientation, lane, length and
    position (computed once)."""
    from huarong._kernels import rush_hour

    return rush_hour.lane_masks()
