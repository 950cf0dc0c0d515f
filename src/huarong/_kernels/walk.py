"""Kernels behind the difficulty features of the blocking walk (``log_walk_moves``,
``log_walk_spread``, ``log_walk_nearby``): the goal piece's blocking graph in every state, the
weights of the moves of a player who prefers the pieces of that graph, and the first two
moments of such a player's moves (two linear systems solved by BiCGSTAB).

Private: :mod:`huarong.puzzles.difficulty.walk` wraps them with checked, typed functions and
defines the figures; :mod:`huarong.puzzles.difficulty.blocking` defines the blocking graph.
"""

from __future__ import annotations

import math

import numpy as np

from huarong._kernels._jit import inline_kernel, kernel

WALL = 255


@kernel
def blocking_members(cells: np.ndarray, strides: np.ndarray, goal_piece: int,
                     target_first: int, target_last: int, rows: int, columns: int
                     ) -> np.ndarray:
    """``cells`` uint8 (states, cells): piece numbers (0 empty, 255 wall); ``strides`` int64
    by piece number (1 along a row, ``columns`` along a column); ``target_first`` and
    ``target_last`` the first and last of the goal piece's goal cells.  Returns bool (states,
    pieces + 1): whether each piece number lies in the state's blocking graph of
    ``goal_piece`` (the rules of :mod:`huarong.puzzles.difficulty.blocking`)."""
    members = np.zeros((cells.shape[0], strides.shape[0]), dtype=np.bool_)
    work = _work(strides.shape[0], cells.shape[1], rows, columns)
    along = _along_lines(cells.shape[1], columns)
    for state in range(cells.shape[0]):
        _state_members(cells, state, strides, goal_piece, target_first, target_last, rows,
                       columns, along, members[state], work)
    return members


@kernel
def walk_weights(cells: np.ndarray, offsets: np.ndarray, targets: np.ndarray,
                 solved: np.ndarray, strides: np.ndarray, goal_piece: int, target_first: int,
                 target_last: int, rows: int, columns: int, preferred: float) -> np.ndarray:
    """The weight of every move out of an unsolved state (float64, in the order of
    ``targets``; the other arguments as :func:`blocking_members`'; every piece number from 1
    on the board): ``preferred`` when the piece it moves (the one on a cell the move
    empties) is the goal piece or in the blocking graph of the state it leaves, else 1."""
    weights = np.ones(targets.shape[0], dtype=np.float64)
    size = cells.shape[1]
    seen = np.zeros(strides.shape[0], dtype=np.bool_)
    work = _work(strides.shape[0], size, rows, columns)
    along = _along_lines(size, columns)
    for state in range(offsets.shape[0] - 1):
        if solved[state]:
            continue
        _state_members(cells, state, strides, goal_piece, target_first, target_last, rows,
                       columns, along, seen, work)
        seen[goal_piece] = True
        first, length = work[0], work[1]
        for edge in range(offsets[state], offsets[state + 1]):
            target = targets[edge]
            # A move along its line empties the first or the last cell of the piece moved
            # (piece numbers are not compared: the target numbers its pieces anew).
            for piece in range(1, strides.shape[0]):
                last = first[piece] + (length[piece] - 1) * strides[piece]
                if cells[target, first[piece]] == 0 or cells[target, last] == 0:
                    if seen[piece]:
                        weights[edge] = preferred
                    break
    return weights


@inline_kernel
def _along_lines(size: int, columns: int) -> np.ndarray:
    """Each cell's index along its row (its column number) and along its column (its row
    number): int64 (2, cells), so that the hot loops divide nothing."""
    along = np.empty((2, size), dtype=np.int64)
    for cell in range(size):
        along[0, cell], along[1, cell] = cell % columns, cell // columns
    return along


@inline_kernel
def _work(pieces: int, size: int, rows: int, columns: int) -> np.ndarray:
    """Scratch for :func:`_state_members`: int64 (6, room for the pieces or for the cells
    waiting to be looked at in one blocking step, whichever is more)."""
    return np.empty((6, max(pieces, 2 * pieces * max(rows, columns) + size)), dtype=np.int64)


@inline_kernel
def _state_members(cells: np.ndarray, state: int, strides: np.ndarray, goal_piece: int,
                   target_first: int, target_last: int, rows: int, columns: int,
                   along: np.ndarray, seen: np.ndarray, work: np.ndarray) -> None:
    """Set ``seen`` (bool by piece number) to the blocking graph of ``goal_piece`` in
    ``state``.  ``work`` is scratch (:func:`_work`): by piece number its first cell, its
    length, the lowest and highest index along its line of the cells it must leave; the
    pieces of this blocking step; the cells whose pieces block them.  Each step is written
    out here rather than in helpers called per cell: such calls cost three times the work."""
    size = cells.shape[1]
    pieces = strides.shape[0]
    first, length, low, high = work[0], work[1], work[2], work[3]
    frontier, waiting = work[4], work[5]
    seen[:] = False
    first[:pieces] = size
    length[:pieces] = 0
    low[:pieces] = size
    high[:pieces] = -1
    span_low, span_high = target_first, target_last
    for cell in range(size):
        piece = cells[state, cell]
        if piece != 0 and piece != WALL:
            first[piece] = min(first[piece], cell)
            length[piece] += 1
            if piece == goal_piece:
                span_low, span_high = min(span_low, cell), max(span_high, cell)
    seen[goal_piece] = True  # never a blocker of itself
    cells_waiting = 0
    for cell in range(span_low, span_high + 1, strides[goal_piece]):
        waiting[cells_waiting] = cell
        cells_waiting += 1
    while cells_waiting > 0:
        # Every piece not yet seen on a waiting cell must leave it: widen its interval.
        count = 0
        for k in range(cells_waiting):
            cell = waiting[k]
            piece = cells[state, cell]
            if piece == 0 or piece == WALL or seen[piece]:
                continue
            index = along[0, cell] if strides[piece] == 1 else along[1, cell]
            if high[piece] < 0:
                frontier[count] = piece
                count += 1
            low[piece], high[piece] = min(low[piece], index), max(high[piece], index)
        for k in range(count):
            seen[frontier[k]] = True
        # Each such piece slides back or forward just far enough to leave its interval,
        # both ways where the board and its walls leave room: the cells it crosses or lands
        # on wait for the next step.  It covers an end of the interval, so those cells lie
        # beyond its first or its last index.
        cells_waiting = 0
        for k in range(count):
            piece = frontier[k]
            stride = strides[piece]
            by_row = stride == 1
            at = along[0, first[piece]] if by_row else along[1, first[piece]]
            line_start = first[piece] - at * stride
            line_length = columns if by_row else rows
            span = length[piece]
            for new_first in (low[piece] - span, high[piece] + 1):
                if new_first < 0 or new_first + span > line_length:
                    continue
                begin, end = (new_first, at) if new_first < at else (at + span,
                                                                      new_first + span)
                walled = False
                for index in range(begin, end):
                    if cells[state, line_start + index * stride] == WALL:
                        walled = True
                        break
                if walled:
                    continue
                for index in range(begin, end):
                    waiting[cells_waiting] = line_start + index * stride
                    cells_waiting += 1
    seen[goal_piece] = False


@kernel
def _walk_product(offsets: np.ndarray, targets: np.ndarray, chance: np.ndarray,
                  solved: np.ndarray, x: np.ndarray, out: np.ndarray) -> None:
    """``out = (I - P) x`` with ``P`` the walk's moves out of unsolved states."""
    for state in range(offsets.shape[0] - 1):
        total = x[state]
        if not solved[state]:
            for edge in range(offsets[state], offsets[state + 1]):
                total -= chance[edge] * x[targets[edge]]
        out[state] = total


@kernel
def _dot(a: np.ndarray, b: np.ndarray) -> float:
    total = 0.0
    for k in range(a.shape[0]):
        total += a[k] * b[k]
    return total


@kernel
def walk_moments(offsets: np.ndarray, targets: np.ndarray, weights: np.ndarray,
                 solved: np.ndarray, tolerance: float, max_rounds: int
                 ) -> tuple[np.ndarray, np.ndarray, float]:
    """The first two moments of the moves to a solved state of a walk that picks each move
    out of a state with chance proportional to its weight, from every state: the expected
    moves ``x`` (``x = 0`` on the ``solved`` states, ``x = 1 + P x`` elsewhere) and the
    expected squares ``m`` (``m = 0`` on the solved states, ``m = 1 + P (2 x + m)``
    elsewhere: the square of one move more), each by BiCGSTAB until its residual is below
    ``tolerance`` times its right-hand side's.  Returns (x, m, the larger final relative
    residual)."""
    states = offsets.shape[0] - 1
    chance = np.empty(weights.shape[0], dtype=np.float64)
    for state in range(states):
        total = 0.0
        for edge in range(offsets[state], offsets[state + 1]):
            total += weights[edge]
        for edge in range(offsets[state], offsets[state + 1]):
            chance[edge] = weights[edge] / total
    moves, residual = _bicgstab(offsets, targets, chance, solved,
                                np.where(solved, 0.0, 1.0), tolerance, max_rounds)
    # 1 + 2 P x off the solved states, where P x = x - (I - P) x.
    right = np.empty(states)
    _walk_product(offsets, targets, chance, solved, moves, right)
    for state in range(states):
        right[state] = 0.0 if solved[state] else 1.0 + 2.0 * (moves[state] - right[state])
    squares, squares_residual = _bicgstab(offsets, targets, chance, solved, right,
                                          tolerance, max_rounds)
    return moves, squares, max(residual, squares_residual)


@kernel
def _bicgstab(offsets: np.ndarray, targets: np.ndarray, chance: np.ndarray,
              solved: np.ndarray, right: np.ndarray, tolerance: float, max_rounds: int
              ) -> tuple[np.ndarray, float]:
    """The solution of ``(I - P) x = right`` (``P`` the walk's moves out of unsolved states,
    with the chances ``chance``) by BiCGSTAB (no preconditioner: the diagonal is 1), and its
    final relative residual; ``right`` is overwritten."""
    states = offsets.shape[0] - 1
    r = right
    shadow = r.copy()
    x, p, v = np.zeros(states), np.zeros(states), np.zeros(states)
    s, t = np.empty(states), np.empty(states)
    scale = math.sqrt(_dot(r, r))
    if scale == 0.0:
        return x, 0.0
    rho, alpha, omega = 1.0, 1.0, 1.0
    residual = 1.0
    for _ in range(max_rounds):
        rho_next = _dot(shadow, r)
        if rho_next == 0.0 or omega == 0.0:
            break
        beta = (rho_next / rho) * (alpha / omega)
        for k in range(states):
            p[k] = r[k] + beta * (p[k] - omega * v[k])
        _walk_product(offsets, targets, chance, solved, p, v)
        alpha = rho_next / _dot(shadow, v)
        for k in range(states):
            s[k] = r[k] - alpha * v[k]
        residual = math.sqrt(_dot(s, s)) / scale
        if residual < tolerance:
            for k in range(states):
                x[k] += alpha * p[k]
            break
        _walk_product(offsets, targets, chance, solved, s, t)
        omega = _dot(t, s) / _dot(t, t)
        for k in range(states):
            x[k] += alpha * p[k] + omega * s[k]
            r[k] = s[k] - omega * t[k]
        rho = rho_next
        residual = math.sqrt(_dot(r, r)) / scale
        if residual < tolerance:
            break
    return x, residual
