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

from huarong.puzzles.grid import Grid, PuzzleError
from huarong.puzzles.puzzle import Puzzle


def progress_scores(puzzle: Puzzle, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(blockers, score) of each state given by its ``cells`` (:meth:`~huarong.puzzles.board.
    Board.cell_pieces`; int64 arrays); :class:`PuzzleError` when the puzzle has no goal."""
    from huarong._kernels import difficulty as kernels

    if puzzle.goal is None:
        raise PuzzleError(puzzle.grid, "the puzzle has no goal: give one")
    goal = Grid.read(puzzle.goal).pieces(puzzle.goal)
    start = puzzle.board.lettered(puzzle.start)
    first = np.cumsum([0] + [k.size for k in puzzle.classes])
    is_goal_piece = np.zeros(256, dtype=np.bool_)
    for c in {start[letter][0] for letter in goal}:
        is_goal_piece[first[c] + 1:first[c + 1] + 1] = True
    target = [cell for cells in goal.values() for cell in cells]
    rows = [cell // puzzle.columns for cell in target]
    columns = [cell % puzzle.columns for cell in target]
    box = np.array([min(rows), max(rows), min(columns), max(columns)], dtype=np.int64)
    blockers, distance = kernels.way_blockers(cells, is_goal_piece,
                                              puzzle.columns, box)
    score: np.ndarray = blockers * (puzzle.rows + puzzle.columns) + distance
    return blockers, score
