"""Kernel behind the difficulty features' progress score: for every state (its cells as piece
numbers), the pieces in the goal pieces' way and the goal pieces' distance from the goal.

Private: :func:`huarong.puzzles.difficulty.progress.progress_scores` wraps it with a checked,
typed function and defines the figures.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel


@kernel
def way_blockers(cells: np.ndarray, is_goal_piece: np.ndarray, columns: int,
                 target_box: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``cells`` uint8 (states, cells): piece numbers (0 empty, 255 wall); ``is_goal_piece``
    bool by piece number (256 entries); ``target_box`` int64 (top, bottom, left, right) of the
    goal cells.  Returns, per state, the number of other pieces with a cell in the smallest
    rectangle holding the goal pieces and the goal cells, and the rows plus columns from the
    goal pieces' top-left corner to the goal cells' (int64 both)."""
    states, size = cells.shape
    blockers = np.zeros(states, dtype=np.int64)
    distance = np.zeros(states, dtype=np.int64)
    seen = np.zeros(256, dtype=np.int64)
    for state in range(states):
        top, bottom, left, right = target_box[0], target_box[1], target_box[2], target_box[3]
        piece_top, piece_left = size, size
        for cell in range(size):
            if is_goal_piece[cells[state, cell]]:
                row, column = cell // columns, cell % columns
                top, bottom = min(top, row), max(bottom, row)
                left, right = min(left, column), max(right, column)
                piece_top, piece_left = min(piece_top, row), min(piece_left, column)
        count = 0
        for row in range(top, bottom + 1):
            for column in range(left, right + 1):
                piece = cells[state, row * columns + column]
                if piece != 0 and piece != 255 and not is_goal_piece[piece] and (
                        seen[piece] != state + 1):
                    seen[piece] = state + 1
                    count += 1
        blockers[state] = count
        distance[state] = abs(piece_top - target_box[0]) + abs(piece_left - target_box[2])
    return blockers, distance
