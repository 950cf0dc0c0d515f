"""What both backends of the layer sweeps (:mod:`huarong.graph.sweeps` on the CPU, which
dispatches, and :mod:`huarong.graph.sweeps_gpu`) read: the figures they give, in order, the
sources a CPU sweep searches together, and the progress callback's shape."""

from __future__ import annotations

from collections.abc import Callable

FIGURE_COLUMNS = ("farthest_steps", "farthest_count", "min_steps", "min_step_solutions",
                  "solution_count")
"""The figures, in the order of the rows :func:`~huarong.graph.sweeps.layer_figures`
returns."""
SOURCES_PER_SWEEP = 256
"""Sources a CPU sweep searches together (:data:`huarong._kernels.layers.LANES`)."""

SweepProgress = Callable[[int, int], None]
"""``progress(sources_done, pairs_done)``: pairs are (source, node) pairs searched, the
work (a sweep of ``s`` sources over a graph of ``n`` states is ``s * n`` pairs)."""
