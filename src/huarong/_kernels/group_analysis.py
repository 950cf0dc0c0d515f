"""Farthest layouts and solutions (docs §5) from every layout of a group at once, recorded
row by row for the tables of ``--analy-group``.

The sweeps are those of :mod:`huarong._kernels.layers` (256 sources at once, bit ``b`` of a
node's words standing for source ``b``), here with every farthest layout and every solution
written as a row (source, node, steps) besides the per-source figures.  Sources are searched
in tight clusters (:func:`huarong._kernels.layers.cluster_sources`), so that their frontiers
cover nearly the same nodes.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.klotski import is_goal_board
from huarong._kernels.layers import (
    FARTHEST_STEPS,
    LANES,
    MIN_STEPS,
    SOLUTION_COUNT,
    record_sweep,
)

SOURCES_PER_BATCH = LANES
# Room for the rows of farthest layouts and of solutions of one batch, first tried: enough for
# the standard layouts' groups in one run.
ROWS_FIRST_TRIED = np.int64(256 * 64)


@kernel
def goal_flags(boards: np.ndarray) -> np.ndarray:
    """Whether each board is a goal layout."""
    flags = np.empty(boards.shape[0], dtype=np.bool_)
    for i in range(boards.shape[0]):
        flags[i] = is_goal_board(boards[i])
    return flags


@kernel
def sweep_batch(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                sources: np.ndarray, capacity: np.int64 = ROWS_FIRST_TRIED
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Search from every node of ``sources`` (at most :data:`SOURCES_PER_BATCH`, distinct)
    at once over the step graph ``offsets``/``targets`` (CSR over node indices) whose goal
    nodes are flagged in ``goal``; ``capacity`` rows are tried first.

    Returns ``(farthest_steps, min_steps, solution_counts, farthest, solutions)``: per
    source (its position in ``sources``) the farthest steps, the minimum steps (-1 without a
    solution) and the number of solutions; then
    every farthest layout and every solution of every source as rows (source position, node,
    steps), a source's solutions nearest first."""
    figures, farthest, solutions = record_sweep(offsets, targets, goal, sources, capacity)
    return (figures[FARTHEST_STEPS].copy(), figures[MIN_STEPS].copy(),
            figures[SOLUTION_COUNT].copy(), farthest, solutions)


_COMMA, _DASH, _NEWLINE, _OPEN, _CLOSE, _MINUS, _ZERO = (ord(c) for c in ",-\n()-0")
_NUMBER_WIDTH = 20
"""Bytes an int64 takes at most in decimal."""


@kernel
def _put_number(out: np.ndarray, at: np.int64, value: np.int64) -> np.int64:
    """``value`` in decimal at ``out[at]``; returns where it ends."""
    if value < 0:
        out[at] = _MINUS
        at += 1
        value = -value
    digits = 1
    rest = value // 10
    while rest > 0:
        digits += 1
        rest //= 10
    for place in range(digits - 1, -1, -1):
        out[at + place] = _ZERO + value % 10
        value //= 10
    return at + digits


@kernel
def _put_name(out: np.ndarray, at: np.int64, names: np.ndarray, node: np.int64) -> np.int64:
    for k in range(names.shape[1]):
        out[at + k] = names[node, k]
    return at + names.shape[1]


@kernel
def _put_names(out: np.ndarray, at: np.int64, names: np.ndarray, nodes: np.ndarray,
               first: np.int64, stop: np.int64) -> np.int64:
    """The names of ``nodes[first:stop]``, joined by dashes."""
    for j in range(first, stop):
        if j > first:
            out[at] = _DASH
            at += 1
        at = _put_name(out, at, names, nodes[j])
    return at


@kernel
def format_rows(names: np.ndarray, sources: np.ndarray, farthest_steps: np.ndarray,
                min_steps: np.ndarray, solution_counts: np.ndarray, far_nodes: np.ndarray,
                far_firsts: np.ndarray, far_stops: np.ndarray, sol_nodes: np.ndarray,
                sol_steps: np.ndarray, sol_firsts: np.ndarray, sol_stops: np.ndarray,
                original: bool, integral: bool) -> tuple[np.ndarray, np.ndarray]:
    """The farthest and solution rows of ``--analy-group`` (see
    :mod:`huarong.space.group_tables`) of every source of a batch, as one ASCII buffer.

    ``names`` (nodes × 9 ASCII hex digits) names the nodes; per source (its position in
    ``sources``), its figures, and its farthest nodes ``far_nodes[far_firsts:far_stops]``
    (in code order) and its solutions ``sol_nodes``/``sol_steps[sol_firsts:sol_stops]``
    (nearest first, then in code order; those at its minimum steps at least, all with
    ``integral``).  Returns the buffer and, per source, where its farthest row starts, where
    its solution row starts and where that ends."""
    count = sources.shape[0]
    width = names.shape[1]
    row_room = 2 * (width + 5 * _NUMBER_WIDTH + 8)
    room = count * row_room + far_nodes.shape[0] * (width + 1)
    room += sol_nodes.shape[0] * (width + _NUMBER_WIDTH + 3)
    out = np.empty(room, dtype=np.uint8)
    bounds = np.empty((count, 3), dtype=np.int64)
    at = np.int64(0)
    for i in range(count):
        bounds[i, 0] = at
        at = _put_name(out, at, names, sources[i])
        out[at] = _COMMA
        at = _put_number(out, at + 1, farthest_steps[i])
        out[at] = _COMMA
        at = _put_number(out, at + 1, far_stops[i] - far_firsts[i])
        out[at] = _COMMA
        at = _put_names(out, at + 1, names, far_nodes, far_firsts[i], far_stops[i])
        out[at] = _NEWLINE
        at += 1
        bounds[i, 1] = at
        at = _put_name(out, at, names, sources[i])
        out[at] = _COMMA
        at = _put_number(out, at + 1, min_steps[i])
        out[at] = _COMMA
        at += 1
        nearest = sol_firsts[i]
        while nearest < sol_stops[i] and sol_steps[nearest] == min_steps[i]:
            nearest += 1
        if original:
            at = _put_number(out, at, nearest - sol_firsts[i])
            out[at] = _COMMA
            at += 1
        at = _put_names(out, at, names, sol_nodes, sol_firsts[i], nearest)
        out[at] = _COMMA
        at = _put_number(out, at + 1, solution_counts[i])
        if integral:
            out[at] = _COMMA
            at += 1
            for j in range(sol_firsts[i], sol_stops[i]):
                if j > sol_firsts[i]:
                    out[at] = _DASH
                    at += 1
                at = _put_name(out, at, names, sol_nodes[j])
                out[at] = _OPEN
                at = _put_number(out, at + 1, sol_steps[j])
                out[at] = _CLOSE
                at += 1
        out[at] = _NEWLINE
        at += 1
        bounds[i, 2] = at
    return out[:at].copy(), bounds
