"""The line-by-line reduction's Python side: run the kernel, cut out the rectangle it leaves
for an optimal search, and turn its moves into a path without detours.

The kernel (:mod:`huarong._kernels.npuzzle_reduce`) puts every outer line in place but the
last, at most 3 x 3, rectangle; :func:`huarong.npuzzle.solve` finishes that one with A*
(optimal there), then :func:`without_loops` drops every stretch of the path that comes back to
a board it has already shown.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from huarong.npuzzle.board import DIRECTIONS, Board, UnsupportedBoardError
from huarong.npuzzle.patterns import IntArray, _geometry

MAX_REDUCTION_CELLS = 400
"""20 x 20: about 20,000 moves found in seconds, every board of the path kept (8 million
tiles); one placement there searches up to 160,000 states, 32 x 32 would take a minute."""


@dataclass(frozen=True)
class Reduced:
    """The board once every line outside ``region`` is home, the moves that got it there, and
    the kernel's figures (states expanded, largest queue)."""

    board: Board
    moves: str
    region: tuple[int, int, int, int]
    expanded: int
    peak: int


def check_size(board: Board) -> None:
    if board.cells > MAX_REDUCTION_CELLS:
        raise UnsupportedBoardError(
            f"board {board.size}: the line-by-line reduction takes boards of up to "
            f"{MAX_REDUCTION_CELLS} cells; idastar takes any size but may not finish")


def reduce_lines(start: Board, goal: Board) -> Reduced:
    """Put every line of ``start`` outside a rectangle of at most 3 x 3 in place."""
    from huarong._kernels import npuzzle_reduce as kernels
    from huarong._kernels.npuzzle_store import FOUND

    geometry = _geometry(goal)
    board: IntArray = np.array(start.tiles, dtype=np.int64)
    status, moves, count, region, figures = kernels.reduce_lines(
        board, geometry.goal_cell_of_tile, geometry.neighbours, goal.rows, goal.cols)
    if status != FOUND:
        raise RuntimeError(f"the reduction of {start.line()} found no moves for a line")
    top, bottom, left, right = (int(v) for v in region)
    return Reduced(Board(start.rows, start.cols, tuple(int(t) for t in board)),
                   "".join(DIRECTIONS[int(d)] for d in moves[:count]), (top, bottom, left, right),
                   int(figures[0]), int(figures[1]))


def _region_cells(board: Board, region: tuple[int, int, int, int]) -> list[int]:
    top, bottom, left, right = region
    return [row * board.cols + col for row in range(top, bottom) for col in range(left, right)]


def region_boards(reduced: Reduced, goal: Board) -> tuple[Board, Board]:
    """The rectangle left unsolved and its goal, as boards of their own: the goal's tiles
    there numbered 1, 2, ... in increasing order, the blank 0."""
    cells = _region_cells(goal, reduced.region)
    number = {tile: index for index, tile in
              enumerate(sorted(goal.tiles[cell] for cell in cells))}
    top, bottom, left, right = reduced.region
    size = (bottom - top, right - left)
    return (Board(*size, tuple(number[reduced.board.tiles[cell]] for cell in cells)),
            Board(*size, tuple(number[goal.tiles[cell]] for cell in cells)))


def without_loops(start: Board, moves: str) -> tuple[Board, ...]:
    """The boards ``moves`` lead through from ``start``, every return to an earlier board cut
    out (so no board appears twice)."""
    path = [start]
    seen = {start.tiles: 0}
    for move in moves:
        board = path[-1].moved(move)
        earlier = seen.get(board.tiles)
        if earlier is None:
            seen[board.tiles] = len(path)
            path.append(board)
            continue
        for dropped in path[earlier + 1:]:
            del seen[dropped.tiles]
        del path[earlier + 1:]
    return tuple(path)
