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
    cluster_sources,
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


@kernel
def batch_order(offsets: np.ndarray, targets: np.ndarray, batch_size: np.int64) -> np.ndarray:
    """The nodes 0..n-1 reordered so that each run of ``batch_size`` is a tight cluster."""
    return cluster_sources(offsets, targets, np.full(offsets.shape[0] - 1, -1, dtype=np.int64),
                           batch_size)
