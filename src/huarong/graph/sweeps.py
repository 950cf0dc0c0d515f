"""The layer sweeps of a :class:`~huarong.graph.StateGraph`: for each source node the five
layer figures (docs §5) — farthest steps and how many states lie that far, minimum solution
steps, solutions at that distance, solutions in all — from counts-only bit-parallel
searches, 256 sources a sweep on the CPU (:mod:`huarong._kernels.layers`) or thousands a
launch on a CUDA GPU (:mod:`huarong.graph.sweeps_gpu`), the same figures to the byte.

Mirror symmetry is the graph's option (:attr:`StateGraph.mirror`): when given, a state and
its mirror image have the same figures (the puzzle's moves and goal are symmetric), so one
node of each mirror pair among the sources is searched and its figures copied.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Literal

import numpy as np

from huarong.graph.state_graph import StateGraph
from huarong.graph.sweep_common import FIGURE_COLUMNS, SOURCES_PER_SWEEP, SweepProgress

__all__ = ["FIGURE_COLUMNS", "SOURCES_PER_SWEEP", "Backend", "SweepProgress", "layer_figures",
           "sweep_graphs"]

Backend = Literal["cpu", "gpu"]


def layer_figures(graph: StateGraph, sources: np.ndarray | None = None, *,
                  backend: Backend = "cpu", threads: int | None = None,
                  progress: SweepProgress | None = None) -> np.ndarray:
    """The figures of the nodes ``sources`` of ``graph`` (default: every node), as a
    (5, len(sources)) int64 array whose rows are :data:`FIGURE_COLUMNS` (minimum steps -1
    where no goal is reachable).  ``backend="gpu"`` sweeps on this process's CUDA GPU (the
    ``gpu`` extra); ``threads``: CPU threads (default every core).  Sources in a tight
    cluster (neighbours in the graph) sweep faster together."""
    chosen = np.arange(graph.size, dtype=np.int64) if sources is None else sources
    [figures] = sweep_graphs([(graph, chosen)], backend=backend, threads=threads,
                             progress=progress)
    return figures


def sweep_graphs(jobs: Sequence[tuple[StateGraph, np.ndarray]], *, backend: Backend = "cpu",
                 threads: int | None = None, progress: SweepProgress | None = None,
                 batch: int = SOURCES_PER_SWEEP, memory: int | None = None
                 ) -> list[np.ndarray]:
    """:func:`layer_figures` of several (graph, sources) jobs at once: on the CPU every
    sweep of every job is one task of one queue, the biggest graphs' first; on the GPU small
    graphs share launches.  ``batch``: sources a CPU sweep (fewer than
    :data:`SOURCES_PER_SWEEP` only to test part-filled sweeps); ``memory``: bytes of the GPU
    a launch may take (default: a share of its free memory)."""
    if backend not in ("cpu", "gpu"):
        raise ValueError(f"backend {backend!r}: want 'cpu' or 'gpu'")
    if not 0 < batch <= SOURCES_PER_SWEEP:
        raise ValueError(f"batch {batch}: want 1 to {SOURCES_PER_SWEEP} sources a sweep")
    searched = [_distinct_sources(graph, sources) for graph, sources in jobs]
    work = [(graph, found) for (graph, _), (found, _) in zip(jobs, searched, strict=True)]
    if backend == "gpu":
        from huarong.graph import sweeps_gpu

        figures = sweeps_gpu.sweep_graphs(work, progress, memory=memory)
    else:
        figures = _cpu_sweeps(work, threads or os.cpu_count() or 1, progress, batch)
    return [found[:, back] for found, (_, back) in zip(figures, searched, strict=True)]


def _distinct_sources(graph: StateGraph, sources: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """(the sources to search: each node once and, with a mirror, one node of each mirror
    pair, in the order first met; for each given source the position of the searched node
    that gives its figures)."""
    chosen = np.ascontiguousarray(sources, dtype=np.int64)
    if chosen.ndim != 1:
        raise ValueError(f"sources: want a 1-d array of nodes, not shape {chosen.shape}")
    if chosen.size and not (chosen.min() >= 0 and chosen.max() < graph.size):
        raise ValueError(f"source nodes must lie in 0..{graph.size - 1}")
    keys = chosen if graph.mirror is None else np.minimum(chosen, graph.mirror[chosen])
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    by_meeting = np.argsort(first, kind="stable")
    position = np.empty_like(by_meeting)
    position[by_meeting] = np.arange(by_meeting.shape[0])
    return chosen[first[by_meeting]], position[inverse.reshape(-1)]


def _cpu_sweeps(jobs: list[tuple[StateGraph, np.ndarray]], threads: int,
                progress: SweepProgress | None, batch: int) -> list[np.ndarray]:
    """Every sweep of every job one task, biggest graphs first (sweeps differ up to 5x in
    time, and most graphs have only a few): no thread waits alone at the end of a graph."""
    from huarong._kernels import layers as kernels
    from huarong.workers import run_all

    arrays = [(np.ascontiguousarray(graph.offsets, dtype=np.int64),
               np.ascontiguousarray(graph.targets, dtype=np.int32),
               np.ascontiguousarray(graph.goal, dtype=np.bool_)) for graph, _ in jobs]
    tasks = [(index, start, min(start + batch, sources.shape[0]))
             for index, (_, sources) in enumerate(jobs)
             for start in range(0, sources.shape[0], batch)]

    def sweep(task: tuple[int, int, int]) -> np.ndarray:
        index, start, stop = task
        found: np.ndarray = kernels.count_sweep(*arrays[index], jobs[index][1][start:stop])
        return found

    done = [0, 0]

    def report(number: int) -> None:
        index, start, stop = tasks[number]
        done[0] += stop - start
        done[1] += (stop - start) * jobs[index][0].size
        if progress is not None:
            progress(done[0], done[1])

    figures = run_all(sweep, tasks, threads=threads,
                      sizes=[jobs[index][0].size for index, _, _ in tasks], done=report)
    results = [np.empty((len(FIGURE_COLUMNS), sources.shape[0]), dtype=np.int64)
               for _, sources in jobs]
    for (index, start, stop), found in zip(tasks, figures, strict=True):
        results[index][:, start:stop] = found
    return results
