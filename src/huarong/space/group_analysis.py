"""Batch analysis of whole groups: the farthest and solution figures (docs §5) of every layout.

:func:`analyze_group` answers, for each layout A of a group, what
:func:`huarong.engine.analysis.analyze` answers for A alone (farthest steps and layouts,
minimum steps, min-step solutions, every solution with its steps) without one search per
layout: the searches run 256 at a time as bit-parallel sweeps over the group's step graph
(Klotski's :class:`~huarong.graph.StateGraph`), on every core, or 4,096 at a time on a CUDA
GPU (:mod:`huarong._kernels.group_analysis_cuda`).  A group that is its own mirror image
sweeps one layout of each mirror pair.  :func:`sweep_batches` yields the same figures batch by
batch, for :mod:`huarong.space.group_tables` to stream the tables of the original engine's
``--analy-group`` to disk.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar, cast

import numpy as np

from huarong.engine.analysis import Progress
from huarong.engine.layout import Layout, LayoutError
from huarong.engine.state_graph import klotski_graph
from huarong.graph import StateGraph
from huarong.workers import as_finished

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


class SeedFileError(ValueError):
    """A seeds file that cannot be read or holds a line that is not a common code."""


@dataclass(frozen=True)
class LayoutFigures:
    """The batch figures of one layout of an analysed group."""

    layout: Layout
    farthest_steps: int
    farthest_layouts: tuple[Layout, ...]
    min_steps: int | None
    """Steps to the nearest goal layout; None when the group holds no goal layout."""
    min_step_solutions: tuple[Layout, ...]
    solutions: tuple[tuple[Layout, int], ...]
    """Every solution (docs §5) with its steps, nearest first, then by code."""


@dataclass(frozen=True, eq=False)
class GroupAnalysis:
    """The figures of every layout of one group, as columns.

    Layouts are numbered by ascending common code (their group_index); the lists of farthest
    layouts and of solutions are stored flat, ``*_offsets`` saying where each layout's part
    starts, and hold layout numbers."""

    seed: Layout
    codes: np.ndarray
    farthest_steps: np.ndarray
    farthest_offsets: np.ndarray
    farthest_layouts: np.ndarray
    """Sorted by code within each layout's part."""
    min_steps: np.ndarray
    """-1 where the group holds no goal layout."""
    solution_offsets: np.ndarray
    solution_layouts: np.ndarray
    solution_steps: np.ndarray
    """Each layout's solutions sorted by (steps, code)."""

    @property
    def size(self) -> int:
        return int(self.codes.shape[0])

    def __len__(self) -> int:
        return self.size

    def index(self, layout: Layout) -> int:
        """The number of ``layout`` in the group; ValueError when it is not in the group."""
        at = int(np.searchsorted(self.codes, int(layout)))
        if at == self.size or int(self.codes[at]) != int(layout):
            raise ValueError(f"layout {layout.code} is not in the group of {self.seed.code}")
        return at

    def figures(self, layout: Layout) -> LayoutFigures:
        """Everything known about ``layout``."""
        return self._figures(self.index(layout))

    def __iter__(self) -> Iterator[LayoutFigures]:
        """The figures of every layout, by ascending code."""
        return (self._figures(i) for i in range(self.size))

    def _figures(self, i: int) -> LayoutFigures:
        far = self.farthest_layouts[self.farthest_offsets[i]:self.farthest_offsets[i + 1]]
        first, stop = int(self.solution_offsets[i]), int(self.solution_offsets[i + 1])
        solutions = tuple((Layout(int(self.codes[j])), int(steps)) for j, steps in zip(
            self.solution_layouts[first:stop], self.solution_steps[first:stop], strict=True))
        min_steps = int(self.min_steps[i])
        return LayoutFigures(
            layout=Layout(int(self.codes[i])),
            farthest_steps=int(self.farthest_steps[i]),
            farthest_layouts=tuple(Layout(int(self.codes[j])) for j in far),
            min_steps=None if min_steps < 0 else min_steps,
            min_step_solutions=tuple(layout for layout, steps in solutions if steps == min_steps),
            solutions=solutions)


@dataclass(frozen=True, eq=False)
class SweepBatch:
    """The figures of one batch of sources (node numbers of a group's
    :class:`~huarong.graph.StateGraph`)."""

    sources: np.ndarray
    farthest_steps: np.ndarray
    min_steps: np.ndarray
    """Per source, like ``farthest_steps``; -1 without a solution."""
    solution_counts: np.ndarray
    """Per source, the number of its solutions."""
    farthest: np.ndarray
    """Rows (source node, farthest node, steps)."""
    solutions: np.ndarray
    """Rows (source node, solution node, steps): every solution, or only those at the
    source's minimum steps when the sweeps were asked for no more."""


def group_graph(layout: Layout) -> StateGraph:
    """Search ``layout``'s group and build its step graph, nodes in breadth-first order, with
    each node's mirror image when the group is its own mirror image (on a background thread,
    so that Ctrl-C is not held up by a long search of a big group)."""
    return next(on_threads(lambda _: klotski_graph(layout, order="search", with_mirror=True),
                           [None], threads=1))


def sweep_order(graph: StateGraph, batch: int) -> np.ndarray:
    """The sources of ``graph`` in sweep order: each run of ``batch`` is a tight cluster,
    searched together.  In a graph with mirror images, one node of each mirror pair: the
    figures of the other are its mirror image (the goal is symmetric)."""
    from huarong._kernels.layers import cluster_sources

    partner = (np.full(graph.size, -1, dtype=np.int64) if graph.mirror is None
               else graph.mirror.astype(np.int64))
    return cluster_sources(graph.offsets, graph.targets, partner, np.int64(batch))


def sweep_batches(graph: StateGraph, *, threads: int | None = None, gpu: bool = False,
                  every_solution: bool = True) -> Iterator[SweepBatch]:
    """The figures of every node of ``graph``, one batch of sources at a time, in the order
    the batches finish, a few batches ahead of the consumer.  Closing the iterator early
    starts no further batch.

    On the CPU, batches of 256 sources run on ``threads`` threads (default: every core); with
    ``gpu``, batches of up to 4,096 sources run on the CUDA GPU (numba-cuda), driven from
    this thread as the consumer asks for them.  Without ``every_solution``, the
    solution rows of a source may stop at those of its minimum steps (its count is whole)."""
    if gpu:
        return _gpu_batches(graph, every_solution=every_solution)
    from huarong._kernels import group_analysis as sweep

    batch = sweep.SOURCES_PER_BATCH
    order = sweep_order(graph, batch)
    batches = [order[first:first + batch] for first in range(0, order.shape[0], batch)]

    def run(sources: np.ndarray) -> SweepBatch:
        figures = sweep.sweep_batch(graph.offsets, graph.targets, graph.goal, sources)
        return _batch(graph, sources, *figures)

    return on_threads(run, batches, threads=threads or os.cpu_count() or 1)


def _batch(graph: StateGraph, sources: np.ndarray, farthest_steps: np.ndarray,
           min_steps: np.ndarray, solution_counts: np.ndarray, farthest: np.ndarray,
           solutions: np.ndarray) -> SweepBatch:
    """A batch from the figures of a sweep of ``graph`` whose rows name a source by its place
    in the batch: they name its node here; and with mirror images, the mirror image of each
    source that is not its own joins the batch, its figures the source's mirrored."""
    farthest[:, 0] = sources[farthest[:, 0]]
    solutions[:, 0] = sources[solutions[:, 0]]
    if graph.mirror is None:
        return SweepBatch(sources, farthest_steps, min_steps, solution_counts, farthest,
                          solutions)
    mirror = graph.mirror.astype(np.int64)
    paired = mirror[sources] != sources

    def with_images(rows: np.ndarray) -> np.ndarray:
        imaged = rows[mirror[rows[:, 0]] != rows[:, 0]]
        images = np.stack([mirror[imaged[:, 0]], mirror[imaged[:, 1]], imaged[:, 2]], axis=1)
        return np.concatenate([rows, images])

    return SweepBatch(np.concatenate([sources, mirror[sources[paired]]]),
                      np.concatenate([farthest_steps, farthest_steps[paired]]),
                      np.concatenate([min_steps, min_steps[paired]]),
                      np.concatenate([solution_counts, solution_counts[paired]]),
                      with_images(farthest), with_images(solutions))


def gpu_words(size: int, memory: int) -> int:
    """Words (64 sources each) a node for the GPU sweeps of a group of ``size`` layouts: as
    many as its sources need, rounded up to a power of two, fewer when ``memory`` bytes
    cannot hold the group's words (never below one)."""
    from huarong._kernels.group_analysis_cuda import BYTES_A_NODE_WORD
    from huarong._kernels.layers_cuda_levels import MAX_WORDS

    words = 1
    while words < MAX_WORDS and 64 * words < size:
        words *= 2
    while words > 1 and size * words * BYTES_A_NODE_WORD > memory:
        words //= 2
    return words


def _gpu_batches(graph: StateGraph, *, every_solution: bool) -> Iterator[SweepBatch]:
    from huarong._kernels import group_analysis_cuda, layers_cuda
    from huarong.graph import sweeps_gpu

    free = layers_cuda.free_memory()
    memory = (sweeps_gpu.UNKNOWN_MEMORY if free is None
              else int(free * sweeps_gpu.MEMORY_SHARE))
    words = gpu_words(graph.size, memory)
    lanes = 64 * words
    order = sweep_order(graph, lanes)
    batches = [order[first:first + lanes] for first in range(0, order.shape[0], lanes)]
    sweeps = group_analysis_cuda.RecordingSweeps(
        np.ascontiguousarray(graph.offsets, dtype=np.int64),
        np.ascontiguousarray(graph.targets, dtype=np.int32), graph.goal, words)

    def run(sources: np.ndarray) -> SweepBatch:
        lane_sources = np.full(lanes, -1, dtype=np.int64)
        lane_sources[:sources.shape[0]] = sources
        figures, farthest, solutions = sweeps.sweep(lane_sources, every_solution=every_solution)
        count = sources.shape[0]
        return _batch(graph, sources,
                      figures[group_analysis_cuda.FARTHEST_STEPS, :count].copy(),
                      figures[group_analysis_cuda.MIN_STEPS, :count].copy(),
                      figures[group_analysis_cuda.SOLUTION_COUNT, :count].copy(), farthest,
                      solutions)

    # In this thread: a driver thread beside a consumer that holds the GIL would wait for it
    # at every level's launches and reads, up to the switch interval (5 ms) each time.
    return (run(sources) for sources in batches)


def on_threads(function: Callable[[_Item], _Result], items: Sequence[_Item], *,
               threads: int) -> Iterator[_Result]:
    """``function(item)`` for every item on ``threads`` worker threads
    (:func:`huarong.workers.as_finished`), yielded as they finish.  At most twice
    ``threads`` items are handed out ahead of the consumer, so memory stays bounded by what
    the consumer keeps; when the consumer stops (Ctrl-C, SIGTERM, an error, closing this
    iterator), no further item is started and nothing waits for the calls still running."""
    # as_finished is a generator: closed here, it starts no further item.
    finished = cast(Generator[tuple[int, _Result], None, None],
                    as_finished(function, items, threads=threads, ahead=threads))
    with contextlib.closing(finished):
        for _, result in finished:
            yield result


def analyze_group(layout: Layout, *, progress: Progress | None = None,
                  threads: int | None = None, gpu: bool = False) -> GroupAnalysis:
    """The farthest and solution figures of every layout of ``layout``'s group, in memory
    (for the biggest groups, :mod:`huarong.space.group_tables` streams them to files instead).

    ``progress(phase, done, total)`` is told how many layouts are done; ``threads`` defaults
    to the number of cores; ``gpu`` sweeps on the CUDA GPU instead (:func:`sweep_batches`)."""
    report = progress or (lambda phase, done, total: None)
    report("searching the group", 0, 1)
    graph = group_graph(layout)
    report("searching the group", 1, 1)

    size = graph.size
    farthest_steps = np.empty(size, dtype=np.int64)
    min_steps = np.empty(size, dtype=np.int64)
    farthest_rows: list[np.ndarray] = []
    solution_rows: list[np.ndarray] = []
    report("analysing layouts", 0, size)
    done = 0
    for batch in sweep_batches(graph, threads=threads, gpu=gpu):
        farthest_steps[batch.sources] = batch.farthest_steps
        min_steps[batch.sources] = batch.min_steps
        farthest_rows.append(batch.farthest)
        solution_rows.append(batch.solutions)
        done += int(batch.sources.shape[0])
        report("analysing layouts", done, size)

    # From BFS numbering to ascending-code numbering.
    codes = graph.codes
    by_code = np.argsort(codes, kind="stable")
    number = np.empty(size, dtype=np.int64)
    number[by_code] = np.arange(size, dtype=np.int64)
    far_offsets, far_layouts, _ = _grouped_rows(np.concatenate(farthest_rows), number, size)
    sol_offsets, sol_layouts, sol_steps = _grouped_rows(np.concatenate(solution_rows), number,
                                                        size)
    return GroupAnalysis(seed=layout, codes=codes[by_code],
                         farthest_steps=farthest_steps[by_code],
                         farthest_offsets=far_offsets, farthest_layouts=far_layouts,
                         min_steps=min_steps[by_code], solution_offsets=sol_offsets,
                         solution_layouts=sol_layouts, solution_steps=sol_steps)


def _grouped_rows(rows: np.ndarray, number: np.ndarray, size: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(source node, node, steps) rows renumbered by ``number`` and sorted by (source, steps,
    node), as (offsets per source, nodes, steps)."""
    sources, nodes, steps = number[rows[:, 0]], number[rows[:, 1]], rows[:, 2]
    order = np.lexsort((nodes, steps, sources))
    offsets = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(sources, minlength=size), out=offsets[1:])
    return offsets, nodes[order], steps[order]


def analyze_groups(seeds: Iterable[Layout], *, progress: Progress | None = None,
                   threads: int | None = None, gpu: bool = False) -> Iterator[GroupAnalysis]:
    """:func:`analyze_group` for each seed in turn; a seed whose group was already analysed
    (two seeds of one group) is skipped."""
    report = progress or (lambda phase, done, total: None)
    seed_list = list(seeds)
    covered: set[int] = set()
    for done, seed in enumerate(seed_list):
        report("groups", done, len(seed_list))
        if int(seed) in covered:
            continue
        analysis = analyze_group(seed, progress=progress, threads=threads, gpu=gpu)
        covered.update(analysis.codes.tolist())
        yield analysis
    report("groups", len(seed_list), len(seed_list))


def read_seeds(path: str | os.PathLike[str]) -> list[Layout]:
    """The common codes of a seeds file, one a line (blank lines and ``#`` comments skipped),
    like the ``5-4-0.txt`` files written by ``huarong all``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise SeedFileError(f"cannot read seeds file {os.fspath(path)!r}: {reason}") from None
    seeds = []
    for number, line in enumerate(text.splitlines(), start=1):
        entry = line.split("#", 1)[0].strip()
        if not entry:
            continue
        try:
            seeds.append(Layout.from_code(entry))
        except LayoutError as error:
            raise SeedFileError(f"seeds file {os.fspath(path)!r}, line {number}: "
                                f"{error}") from None
    return seeds
