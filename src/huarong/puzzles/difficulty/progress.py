"""What looks like progress to a person who has not searched: fewer pieces in the goal piece's
way, and the goal piece nearer its goal.

The *way* of a state is the smallest rectangle of cells holding the goal pieces (the pieces of
the classes the goal names) and their goal cells; its *blockers* are the other pieces on it.
The *progress score* orders states by blockers first, then by the rows plus columns between
the top-left corner of the goal pieces' cells and that of the goal cells: a move *looks like
progress* when it lowers the score.  On Rush Hour the way is the red car's row from the car to
the exit and the blockers are the cars a player sees in the way.
"""

from __future__ import annotations

import numpy as np

from huarong.puzzles.grid import Grid
from huarong.puzzles.puzzle import Puzzle


def progress_scores(puzzle: Puzzle, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(blockers, score) of each state of ``codes`` (int64 arrays); the puzzle has a goal."""
    assert puzzle.goal is not None
    goal = Grid.read(puzzle.goal).pieces(puzzle.goal)
    start = puzzle.board.lettered(puzzle.start)
    named = sorted({start[letter][0] for letter in goal})
    first = np.cumsum([0] + [k.size for k in puzzle.classes])
    pieces = np.concatenate([np.arange(first[c], first[c + 1]) + 1 for c in named])
    target = [cell for cells in goal.values() for cell in cells]
    columns = puzzle.columns
    target_rows = np.array([cell // columns for cell in target])
    target_columns = np.array([cell % columns for cell in target])

    cells = puzzle.board.cell_pieces(codes).astype(np.int64)
    mine = np.isin(cells, pieces)
    rows = np.arange(puzzle.cells) // columns
    cols = np.arange(puzzle.cells) % columns
    piece_top = np.where(mine, rows, puzzle.cells).min(axis=1)
    piece_left = np.where(mine, cols, puzzle.cells).min(axis=1)
    top = np.minimum(piece_top, target_rows.min())
    bottom = np.maximum(np.where(mine, rows, -1).max(axis=1), target_rows.max())
    left = np.minimum(piece_left, target_columns.min())
    right = np.maximum(np.where(mine, cols, -1).max(axis=1), target_columns.max())
    inside = ((rows >= top[:, None]) & (rows <= bottom[:, None])
              & (cols >= left[:, None]) & (cols <= right[:, None]))
    other = inside & ~mine & (cells > 0) & (cells < 255)
    seen = np.zeros((codes.shape[0], 256), dtype=bool)
    states, places = np.nonzero(other)
    seen[states, cells[states, places]] = True
    blockers = seen.sum(axis=1).astype(np.int64)
    distance = (np.abs(piece_top - target_rows.min())
                + np.abs(piece_left - target_columns.min()))
    score = blockers * (puzzle.rows + columns) + distance
    return blockers, score.astype(np.int64)
