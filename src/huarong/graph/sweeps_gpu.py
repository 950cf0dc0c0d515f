"""The layer sweeps on a CUDA GPU (:func:`huarong.graph.sweeps.layer_figures` with
``backend="gpu"``, the ``gpu`` extra): the same five figures as the CPU sweeps, to the byte.

The sources of a job are cut into *segments* of at most 64 × words sources, the words per
node chosen per graph: as many as the graph's sources need (rounded up to a power of two),
at most :data:`~huarong._kernels.layers_cuda_levels.MAX_WORDS`, and few enough that the graph's
four word arrays fit the memory granted.  Segments needing the same words are packed into
launches until the memory granted is full, the graph of each segment copied in beside the
others' (:mod:`huarong._kernels.layers_cuda`): small graphs share the lanes of a launch, so
thousands of them take one launch.  A launch keeps its counts on the GPU until it ends.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

import numpy as np

from huarong.graph.state_graph import StateGraph
from huarong.graph.sweep_common import FIGURE_COLUMNS, SweepProgress

GPU_EXTRA = "huarong[gpu]"
MEMORY_SHARE = 0.5
"""Share of the GPU's free memory a launch may take (the rest: the CUDA context, other
processes)."""
UNKNOWN_MEMORY = 1 << 30
"""Bytes granted when the device does not tell its free memory (numba's simulator)."""


def problem() -> str | None:
    """Why the GPU backend cannot run in this process, in one line; None when it can."""
    if importlib.util.find_spec("numba_cuda") is None:
        return f"numba-cuda is not installed (pip install '{GPU_EXTRA}')"
    try:
        from huarong._kernels import layers_cuda

        available = layers_cuda.is_available()
    except Exception as error:  # a broken CUDA install raises from deep inside numba-cuda
        first_line = (str(error).splitlines() or [type(error).__name__])[0]
        return (f"numba-cuda cannot run a kernel ({first_line}): install a numba-cuda that "
                f"supports numpy {np.__version__} (pip install -U '{GPU_EXTRA}'), and check "
                "the CUDA driver with nvidia-smi")
    try:
        layers_cuda.chosen_kernel()
    except ValueError as error:  # HUARONG_GPU_KERNEL names no kernel
        return str(error)
    if available:
        return None
    return "no CUDA GPU found (numba-cuda sees none: check nvidia-smi and the driver)"


@dataclass(frozen=True)
class Segment:
    """Sources ``start..stop-1`` (positions in the job's source list) of job ``job``."""

    job: int
    start: int
    stop: int


@dataclass(frozen=True)
class Launch:
    """Segments searched together, ``words`` int64 words a node."""

    words: int
    segments: tuple[Segment, ...]


def _bytes_a_node(words: int) -> int:
    from huarong._kernels.layers_cuda import BYTES_A_NODE, BYTES_A_NODE_WORD

    return words * BYTES_A_NODE_WORD + BYTES_A_NODE


def _bytes_a_segment(words: int) -> int:
    # The figures and the sources of its lanes, and its per-segment words.
    return 64 * words * (len(FIGURE_COLUMNS) + 1) * 8 + 4 * words * 8


def words_for(size: int, sources: int, memory: int) -> int:
    """Words a node for a group of ``size`` layouts and ``sources`` sources: the power of two
    that holds them, fewer when ``memory`` bytes cannot hold that many (never below one)."""
    from huarong._kernels.layers_cuda_levels import MAX_WORDS

    words = 1
    while words < MAX_WORDS and 64 * words < sources:
        words *= 2
    while words > 1 and size * _bytes_a_node(words) + _bytes_a_segment(words) > memory:
        words //= 2
    return words


def plan_launches(jobs: list[tuple[int, int]], memory: int) -> list[Launch]:
    """The launches for jobs of (group size, sources), packed within ``memory`` bytes a
    launch (a segment too big for it alone goes alone)."""
    by_words: dict[int, list[tuple[int, Segment]]] = {}
    for index, (size, sources) in enumerate(jobs):
        words = words_for(size, sources, memory)
        for start in range(0, sources, 64 * words):
            by_words.setdefault(words, []).append(
                (size, Segment(index, start, min(start + 64 * words, sources))))
    launches = []
    for words in sorted(by_words, reverse=True):
        gathered: list[Segment] = []
        used = 0
        for size, segment in sorted(by_words[words], key=lambda item: -item[0]):
            cost = size * _bytes_a_node(words) + _bytes_a_segment(words)
            if gathered and used + cost > memory:
                launches.append(Launch(words, tuple(gathered)))
                gathered, used = [], 0
            gathered.append(segment)
            used += cost
        if gathered:
            launches.append(Launch(words, tuple(gathered)))
    return launches


def _launch_arrays(launch: Launch, jobs: list[tuple[StateGraph, np.ndarray]]
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(offsets, targets, goal, segment_of, sources) of the launch's graphs laid end to
    end, as :func:`huarong._kernels.layers_cuda.count_sweeps` takes them."""
    graphs = [jobs[segment.job][0] for segment in launch.segments]
    node_base = np.cumsum([0] + [graph.size for graph in graphs])
    edge_base = np.cumsum([0] + [int(graph.offsets[-1]) for graph in graphs])
    offsets = np.concatenate(
        [graph.offsets[:-1] + base for graph, base in zip(graphs, edge_base, strict=False)]
        + [edge_base[-1:]]).astype(np.int64)
    targets = np.concatenate(
        [np.zeros(0, dtype=np.int64)]
        + [graph.targets + base for graph, base in zip(graphs, node_base, strict=False)]
    ).astype(np.int32)
    goal = np.concatenate([np.zeros(0, dtype=np.bool_)] + [graph.goal for graph in graphs])
    segment_of = np.repeat(np.arange(len(graphs), dtype=np.int32),
                           [graph.size for graph in graphs])
    sources = np.full((len(graphs), 64 * launch.words), -1, dtype=np.int64)
    for row, (segment, base) in enumerate(zip(launch.segments, node_base, strict=False)):
        chosen = jobs[segment.job][1][segment.start:segment.stop]
        sources[row, :chosen.shape[0]] = chosen + base
    return offsets, targets, goal, segment_of, sources


def _granted_memory() -> int:
    from huarong._kernels import layers_cuda

    free = layers_cuda.free_memory()
    return UNKNOWN_MEMORY if free is None else int(free * MEMORY_SHARE)


def sweep_graphs(jobs: list[tuple[StateGraph, np.ndarray]],
                 progress: SweepProgress | None = None, *, memory: int | None = None
                 ) -> list[np.ndarray]:
    """The (5, n) figures of each job's sources (node numbers of its graph), as
    :func:`huarong.graph.sweeps.sweep_graphs` gives them on the CPU; launches take at most
    ``memory`` bytes of the GPU (default: a share of its free memory).
    ``progress(sources_done, pairs_done)`` after each launch.  The next launch's arrays are
    laid out on a thread while the GPU runs this one (copies of big graphs take a while)."""
    from huarong._kernels import layers_cuda
    from huarong.workers import as_finished

    granted = _granted_memory() if memory is None else memory
    results = [np.empty((len(FIGURE_COLUMNS), sources.shape[0]), dtype=np.int64)
               for _, sources in jobs]
    sources_done = pairs_done = 0
    launches = plan_launches([(graph.size, sources.shape[0]) for graph, sources in jobs],
                             granted)
    # One thread: the launches come prepared in order, one ahead.
    prepared = as_finished(lambda launch: _launch_arrays(launch, jobs), launches, threads=1,
                           ahead=1)
    try:
        for index, arrays in prepared:
            figures = layers_cuda.count_sweeps(*arrays)
            for row, segment in enumerate(launches[index].segments):
                count = segment.stop - segment.start
                results[segment.job][:, segment.start:segment.stop] = figures[:, row, :count]
                sources_done += count
                pairs_done += count * jobs[segment.job][0].size
            if progress is not None:
                progress(sources_done, pairs_done)
    finally:
        prepared.close()
    return results
