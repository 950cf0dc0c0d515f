"""A fast solver for boards of any size that gives up optimality: reduction line by line.

The unsolved part of the board is a rectangle.  While it is larger than 3 x 3, one of its
outer lines (a row when it is at least as tall as wide, else a column; of the two, the one
farther from the blank's goal, so the blank's goal stays inside) is put in place and locked:
every tile but the last two by the shortest sequence of blank moves that brings it home
without touching locked cells (a breadth-first search over the tile's and the blank's
cells), the last two together by the usual corner manoeuvre (the last tile onto the
second-last cell, the second-last tile just inside it, the blank round to the last cell, two
moves; when the two block each other in the corner, a search over the corner's six cells).
What is left, at most 3 x 3, goes to an optimal search in the caller.  The search space of
one placement has ``cells**2`` states, so the whole reduction runs in polynomial time; its
solutions are several times longer than optimal ones.

Board conventions: :mod:`huarong._kernels.npuzzle_store`.  Moves are the blank's directions
0..3 (left, up, right, down).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.arrays import grown
from huarong._kernels.npuzzle_store import EXHAUSTED, FOUND, _blank_cell

Array = Any

FINAL_SIDE = 3
"""The reduction stops once the unsolved rectangle is at most this many cells each way."""


@kernel
def _play(board: Array, neighbours: Array, direction: int) -> None:
    blank = _blank_cell(board)
    target = neighbours[blank, direction]
    board[blank] = board[target]
    board[target] = 0


@kernel
def _cell_of(board: Array, tile: int) -> int:
    for cell in range(board.size):
        if board[cell] == tile:
            return cell
    return -1


@kernel
def _shortest_moves(board: Array, neighbours: Array, allowed: Array, tiles: Array,
                    targets: Array, blank_target: int, moves: Array, count: int,
                    figures: Array) -> tuple[Array, int]:
    """Append to ``moves`` (from ``count`` on) the fewest blank moves that bring each of
    ``tiles`` to its cell in ``targets`` (and the blank to ``blank_target`` unless it is -1),
    and play them on ``board``.  The blank and the tiles stay on the cells that ``allowed``
    numbers 0, 1, ... (-1 elsewhere); the other tiles are interchangeable, so the search is
    breadth-first over the cells of the tracked tiles and the blank alone.

    Returns the (possibly regrown) moves and their new count, or count -1 when no such moves
    exist.  ``figures`` accumulates [states expanded, largest queue].
    """
    places = 0
    for cell in range(board.size):
        places = max(places, allowed[cell] + 1)
    cell_at = np.empty(places, np.int64)
    for cell in range(board.size):
        if allowed[cell] >= 0:
            cell_at[allowed[cell]] = cell
    tracked = tiles.size
    states = places
    for _ in range(tracked):
        states *= places
    where = np.empty(tracked + 1, np.int64)
    goal = np.empty(tracked + 1, np.int64)
    for i in range(tracked):
        where[i] = allowed[_cell_of(board, tiles[i])]
        goal[i] = allowed[targets[i]]
    where[tracked] = allowed[_blank_cell(board)]
    goal[tracked] = allowed[blank_target] if blank_target >= 0 else -1
    parent = np.full(states, -1, np.int64)
    direction_to = np.zeros(states, np.int64)
    queue = np.empty(states, np.int64)
    start = _encoded(where, places)
    parent[start] = start
    queue[0] = start
    head = 0
    tail = 1
    found = start if _arrived(where, goal) else -1
    while head < tail and found < 0:
        state = queue[head]
        head += 1
        figures[0] += 1
        for direction in range(4):
            _decode(state, places, where)
            here = where[tracked]
            there_cell = neighbours[cell_at[here], direction]
            if there_cell < 0 or allowed[there_cell] < 0:
                continue
            there = allowed[there_cell]
            for i in range(tracked):
                if where[i] == there:
                    where[i] = here
            where[tracked] = there
            child = _encoded(where, places)
            if parent[child] >= 0:
                continue
            parent[child] = state
            direction_to[child] = direction
            queue[tail] = child
            tail += 1
            if _arrived(where, goal):
                found = child
                break
    figures[1] = max(figures[1], tail - head)
    if found < 0:
        return moves, -1
    length = 0
    state = found
    while state != start:
        length += 1
        state = parent[state]
    if count + length > moves.size:
        moves = grown(moves, count, count + length)
    state = found
    for i in range(length - 1, -1, -1):
        moves[count + i] = direction_to[state]
        state = parent[state]
    for i in range(count, count + length):
        _play(board, neighbours, moves[i])
    return moves, count + length


@kernel
def _encoded(where: Array, places: int) -> int:
    state = 0
    for i in range(where.size):
        state = state * places + where[i]
    return state


@kernel
def _decode(state: int, places: int, where: Array) -> None:
    for i in range(where.size - 1, -1, -1):
        where[i] = state % places
        state //= places


@kernel
def _arrived(where: Array, goal: Array) -> bool:
    for i in range(where.size):  # noqa: SIM110 (numba compiles no generator for all())
        if goal[i] >= 0 and where[i] != goal[i]:
            return False
    return True


@kernel
def _numbered(free: Array) -> Array:
    """``allowed`` for :func:`_shortest_moves`: the cells whose ``free`` flag is set."""
    allowed = np.full(free.size, -1, np.int64)
    places = 0
    for cell in range(free.size):
        if free[cell] != 0:
            allowed[cell] = places
            places += 1
    return allowed


@kernel
def _route(board: Array, neighbours: Array, free: Array, tile: int, target: int,
           moves: Array, count: int, figures: Array) -> tuple[Array, int]:
    """:func:`_shortest_moves` on the free cells for one tile, or for the blank alone when
    ``tile`` is 0."""
    if tile == 0:
        return _shortest_moves(board, neighbours, _numbered(free), np.empty(0, np.int64),
                               np.empty(0, np.int64), target, moves, count, figures)
    return _shortest_moves(board, neighbours, _numbered(free), np.array([tile], np.int64),
                           np.array([target], np.int64), -1, moves, count, figures)


@kernel
def _pair_home(board: Array, neighbours: Array, corner: Array, tile_a: int, tile_b: int,
               moves: Array, count: int, figures: Array) -> tuple[Array, int]:
    """:func:`_shortest_moves` inside ``corner`` that bring ``tile_a`` to ``corner[0]`` and
    ``tile_b`` to ``corner[1]``."""
    allowed = np.full(board.size, -1, np.int64)
    for i in range(corner.size):
        allowed[corner[i]] = i
    return _shortest_moves(board, neighbours, allowed, np.array([tile_a, tile_b], np.int64),
                           corner[:2].copy(), -1, moves, count, figures)


@kernel
def _last_two_home(board: Array, neighbours: Array, free: Array, second_last: int, last: int,
                   inward: int, tile_a: int, tile_b: int, moves: Array, count: int,
                   figures: Array) -> tuple[Array, int]:
    """Bring ``tile_a`` to ``second_last`` and ``tile_b`` to ``last``, the line's other cells
    locked: ``tile_b`` onto ``second_last``, ``tile_a`` just inside it, the blank round to
    ``last``, two moves."""
    inside = second_last + inward
    moves, count = _route(board, neighbours, free, tile_b, second_last, moves, count, figures)
    if count < 0:
        return moves, count
    free[second_last] = 0
    if board[last] == tile_a or (board[last] == 0 and board[last + inward] == tile_a):
        # With the second-last cell locked the last one is a dead end: a tile there, or just
        # inside it with the blank there, cannot get out.  The blank comes next to the two
        # tiles (pushing the second from inside into the dead end: a shortest route enters
        # the dead end no other way) and a search inside the corner's six cells, where every
        # arrangement of the two and the blank can be reached, puts them home.
        moves, count = _route(board, neighbours, free, 0, inside, moves, count, figures)
        corner = np.array([second_last, last, inside, last + inward, inside + inward,
                           last + 2 * inward], np.int64)
    else:
        moves, count = _route(board, neighbours, free, tile_a, inside, moves, count, figures)
        if count < 0:
            return moves, count
        free[inside] = 0
        moves, count = _route(board, neighbours, free, 0, last, moves, count, figures)
        free[inside] = 1
        corner = np.array([second_last, last, inside], np.int64)
    free[second_last] = 1
    if count < 0:
        return moves, count
    return _pair_home(board, neighbours, corner, tile_a, tile_b, moves, count, figures)


@kernel
def _place_line(board: Array, neighbours: Array, free: Array, goal_tile_of_cell: Array,
                first: int, step: int, length: int, inward: int, moves: Array, count: int,
                figures: Array) -> tuple[Array, int]:
    """Put the tiles of the line ``first + i * step`` (``i < length``) home and lock them;
    ``inward`` is the step from a line cell into the rest of the unsolved rectangle."""
    for i in range(length - 2):
        cell = first + i * step
        moves, count = _route(board, neighbours, free, goal_tile_of_cell[cell], cell, moves,
                              count, figures)
        if count < 0:
            return moves, count
        free[cell] = 0
    second_last = first + (length - 2) * step
    last = second_last + step
    tile_a = goal_tile_of_cell[second_last]
    tile_b = goal_tile_of_cell[last]
    if board[second_last] != tile_a or board[last] != tile_b:
        moves, count = _last_two_home(board, neighbours, free, second_last, last, inward,
                                      tile_a, tile_b, moves, count, figures)
    free[second_last] = 0
    free[last] = 0
    return moves, count


@kernel
def reduce_lines(board: Array, goal_cell_of_tile: Array, neighbours: Array, rows: int,
                 cols: int) -> tuple[int, Array, int, Array, Array]:
    """Reduce ``board`` (changed in place) until at most ``FINAL_SIDE`` x ``FINAL_SIDE`` cells
    remain unsolved.

    Returns ``(status, moves, move_count, region, figures)``: :data:`FOUND`, or
    :data:`EXHAUSTED` should some placement find no moves (the rectangle left is always at
    least 3 cells across the line being placed, which leaves room for every manoeuvre);
    ``region`` is ``[top, bottom, left, right]`` of the rectangle left (bottom and right
    exclusive); ``figures`` is [states expanded, largest queue].
    """
    cells = rows * cols
    goal_tile_of_cell = np.empty(cells, np.int64)
    for tile in range(cells):
        goal_tile_of_cell[goal_cell_of_tile[tile]] = tile
    free = np.ones(cells, np.int64)
    moves = np.empty(1024, np.int64)
    count = 0
    figures = np.zeros(2, np.int64)
    region = np.array([0, rows, 0, cols], np.int64)
    blank_row = goal_cell_of_tile[0] // cols
    blank_col = goal_cell_of_tile[0] % cols
    while region[1] - region[0] > FINAL_SIDE or region[3] - region[2] > FINAL_SIDE:
        top, bottom, left, right = region[0], region[1], region[2], region[3]
        height = bottom - top
        width = right - left
        if height > FINAL_SIDE and (height >= width or width <= FINAL_SIDE):
            if blank_row - top >= bottom - 1 - blank_row:
                first, inward = top * cols + left, cols
                region[0] += 1
            else:
                first, inward = (bottom - 1) * cols + left, -cols
                region[1] -= 1
            step, length = 1, width
        else:
            if blank_col - left >= right - 1 - blank_col:
                first, inward = top * cols + left, 1
                region[2] += 1
            else:
                first, inward = top * cols + right - 1, -1
                region[3] -= 1
            step, length = cols, height
        moves, count = _place_line(board, neighbours, free, goal_tile_of_cell, first, step,
                                   length, inward, moves, count, figures)
        if count < 0:
            return EXHAUSTED, moves[:0].copy(), 0, region, figures
    return FOUND, moves, count, region, figures
