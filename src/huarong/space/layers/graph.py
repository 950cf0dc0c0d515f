"""One group's step graph and the counts-only sweeps that give the layer figures of its
layouts (docs §5): farthest steps and how many layouts lie that far, minimum solution steps,
solutions at that distance and solutions in all.

The figures of a group come from counts-only bit-parallel sweeps
(:mod:`huarong._kernels.layers`: 256 sources a sweep, nothing recorded per farthest layout or
solution).  Mirror symmetry halves the work:
steps commute with the left-right mirror and the goal is symmetric, so a layout and its mirror
image have the same figures.  A group whose mirror image is another group is searched once
for both; in a self-mirror group one source of each mirror pair is searched.  Nodes are
numbered so that neighbours lie close in memory (breadth-first order, or code order in big
groups: :data:`CODE_ORDER_ABOVE`) and sources are searched in tight clusters
(:func:`huarong._kernels.layers.cluster_sources`).
"""

from __future__ import annotations

import functools
import itertools
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

FIGURE_COLUMNS = ("farthest_steps", "farthest_count", "min_steps", "min_step_solutions",
                  "solution_count")
"""The figures, in the order of :func:`huarong._kernels.layers.count_sweep`'s rows."""
SOURCES_PER_SWEEP = 256
"""Sources searched together (:data:`huarong._kernels.layers.LANES`)."""

SweepProgress = Callable[[int], None]
"""``progress(sources_done)``, called from time to time during a long sweep."""
UnitProgress = Callable[[int, int], None]
"""``progress(sources_done, pairs_done)`` within a sweep of several pieces."""


CODE_ORDER_ABOVE = 100_000
"""Groups of more layouts number their nodes in code order, the others in breadth-first
order from the seed.  When a sweep's rows outgrow the cache, code order keeps more of a
node's neighbours near it (a step of a piece low on the board changes only the last digits):
1.25-1.5x faster on the largest groups, the same at 150,000 layouts, 1.25x slower on the
sparse group of 4FEA13400 (81,340 layouts), whose rows fit the cache."""


@dataclass(frozen=True, eq=False)
class GroupGraph:
    """One group's step graph, nodes numbered in breadth-first order from the seed or, in big
    groups, in code order (:data:`CODE_ORDER_ABOVE`)."""

    codes: np.ndarray
    offsets: np.ndarray
    targets: np.ndarray
    goal: np.ndarray
    sources: np.ndarray
    """The nodes to search, in clustered order: every node, or in a self-mirror group one
    node of each mirror pair."""
    self_mirror: bool
    batch: int = SOURCES_PER_SWEEP
    """Sources a sweep (fewer only in tests, for runs that fill part of the words)."""

    @property
    def size(self) -> int:
        return int(self.codes.shape[0])


def group_graph(seed: int) -> GroupGraph:
    """The graph of the group of the layout with code ``seed``."""
    return _group_graph(int(seed))


@functools.lru_cache(maxsize=1)
def _group_graph(seed: int) -> GroupGraph:
    # A worker computes one unit after another of the same group: keep the last graph.
    from huarong._kernels import group_analysis as sweep
    from huarong._kernels import group_search, klotski
    from huarong._kernels import layers as layer_kernels

    boards, _, _, _ = group_search.bfs(np.int64(seed), group_search.EXPLORE_ALL, np.int64(0),
                                  np.int64(1 << 16))
    codes = group_search.boards_to_codes(boards)
    if codes.shape[0] > CODE_ORDER_ABOVE:
        by_code = np.argsort(codes)
        boards, codes = boards[by_code], codes[by_code]
    offsets, targets = group_search.adjacency(boards)
    goal = sweep.goal_flags(boards)
    mirrors = klotski.mirror_codes(codes)
    by_code = np.argsort(codes)
    at = np.minimum(np.searchsorted(codes, mirrors, sorter=by_code), codes.shape[0] - 1)
    partner = by_code[at]
    self_mirror = bool(codes[partner[0]] == mirrors[0])
    if not self_mirror:
        partner[:] = -1
    sources = layer_kernels.cluster_sources(offsets, targets, partner,
                                            np.int64(SOURCES_PER_SWEEP))
    for array in (codes, offsets, targets, goal, sources):
        array.flags.writeable = False
    return GroupGraph(codes, offsets, targets, goal, sources, self_mirror)


def sweep(graph: GroupGraph, first: int = 0, stop: int | None = None, *,
          threads: int = 1, progress: SweepProgress | None = None
          ) -> tuple[np.ndarray, np.ndarray]:
    """The figures of ``graph.sources[first:stop]``: (their codes, a (5, n) int64 array whose
    rows are :data:`FIGURE_COLUMNS`).  Runs on ``threads`` threads; with ``progress`` the
    calling thread only watches, so Ctrl-C (KeyboardInterrupt) stops every thread within one
    sweep and is re-raised."""
    sources = np.ascontiguousarray(graph.sources[first:stop])
    report = None if progress is None else lambda done, _pairs: progress(done)
    figures = sweep_all([(graph, sources)], threads, report)[0]
    return graph.codes[sources], figures


def sweep_all(jobs: list[tuple[GroupGraph, np.ndarray]], threads: int,
               progress: UnitProgress | None) -> list[np.ndarray]:
    """The (5, n) figures of each job's sources (node numbers of its graph).  Every sweep of
    every job is one task in one queue, the biggest groups' first: threads take the next
    task when they finish one, so none waits at the end of a group (sweeps differ up to 5x in
    time, and most groups have only a few)."""
    from huarong._kernels import layers as kernels

    results = [np.empty((len(FIGURE_COLUMNS), sources.shape[0]), dtype=np.int64)
               for _, sources in jobs]
    tasks = sorted(((index, start, min(start + graph.batch, sources.shape[0]))
                    for index, (graph, sources) in enumerate(jobs)
                    for start in range(0, sources.shape[0], graph.batch)),
                   key=lambda task: -jobs[task[0]][0].size)
    taken = itertools.count()  # next() on it is atomic under the GIL
    sources_done = [0] * threads
    pairs_done = [0] * threads
    stopping = threading.Event()
    failures: list[BaseException] = []

    def work(thread: int) -> None:
        try:
            for number in taken:
                if number >= len(tasks) or stopping.is_set():
                    return
                index, start, end = tasks[number]
                graph, sources = jobs[index]
                results[index][:, start:end] = kernels.count_sweep(
                    graph.offsets, graph.targets, graph.goal, sources[start:end])
                sources_done[thread] += end - start
                pairs_done[thread] += (end - start) * graph.size
        except BaseException as error:  # re-raised in the calling thread
            failures.append(error)

    if threads == 1 and progress is None:
        work(0)
    else:
        workers = [threading.Thread(target=work, args=(i,), daemon=True)
                   for i in range(threads)]
        for worker in workers:
            worker.start()
        try:
            for worker in workers:
                while worker.is_alive():
                    worker.join(0.2)
                    if progress is not None:
                        progress(sum(sources_done), sum(pairs_done))
        except BaseException:
            stopping.set()  # each thread ends after its current sweep
            for worker in workers:
                worker.join()
            raise
        if progress is not None:
            progress(sum(sources_done), sum(pairs_done))
    if failures:
        raise failures[0]
    return results


def group_figures(seed: int, *, threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every layout of the group of ``seed``: (codes ascending, (5, n) figures)."""
    from huarong._kernels import klotski

    graph = group_graph(seed)
    codes, figures = sweep(graph, threads=threads or os.cpu_count() or 1)
    if not graph.self_mirror:
        order = np.argsort(codes)
        return codes[order], figures[:, order]
    return expand_mirrors(codes, figures, klotski.mirror_codes(codes), True)


def expand_mirrors(codes: np.ndarray, figures: np.ndarray, mirrors: np.ndarray,
                   self_mirror: bool) -> tuple[np.ndarray, np.ndarray]:
    """The figures of the sources ``codes`` and of their mirror images ``mirrors`` (which
    share them), sorted by code.  In a self-mirror group only the group itself is wanted and
    a symmetric source is listed once; otherwise the mirror group comes too."""
    if self_mirror:
        extra = mirrors != codes
        all_codes = np.concatenate([codes, mirrors[extra]])
        all_figures = np.concatenate([figures, figures[:, extra]], axis=1)
    else:
        all_codes = np.concatenate([codes, mirrors])
        all_figures = np.concatenate([figures, figures], axis=1)
    order = np.argsort(all_codes, kind="stable")
    return all_codes[order], all_figures[:, order]


@dataclass(frozen=True)
class Piece:
    """Sources ``first..stop-1`` (in :attr:`GroupGraph.sources` order) of the group of
    ``seed``, a group of ``size`` layouts."""

    seed: int
    size: int
    first: int
    stop: int

    @property
    def sources(self) -> int:
        return self.stop - self.first

    @property
    def pairs(self) -> int:
        """(source, layout) pairs searched."""
        return self.sources * self.size


def sweep_pieces(pieces: list[Piece], threads: int, progress: UnitProgress | None = None
                 ) -> list[tuple[np.ndarray, np.ndarray]]:
    """The figures of each piece's sources and of their mirror images (codes, (5, n)
    figures), on ``threads`` threads.  ``progress(sources_done, pairs_done)`` as
    :attr:`Piece.sources` and :attr:`Piece.pairs` count them."""
    from huarong._kernels import klotski

    jobs = []
    for piece in pieces:
        graph = group_graph(piece.seed)
        jobs.append((graph, np.ascontiguousarray(graph.sources[piece.first:piece.stop])))
    parts = []
    for (graph, sources), figures in zip(jobs, sweep_all(jobs, threads, progress),
                                         strict=True):
        codes = graph.codes[sources]
        parts.append(expand_mirrors(codes, figures, klotski.mirror_codes(codes),
                                    graph.self_mirror))
    return parts


def figures_of_groups(seeds: np.ndarray, sizes: np.ndarray, *, threads: int | None = None,
                      progress: Callable[[int, int], None] | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """The figures of every layout of the groups of ``seeds`` (of ``sizes`` layouts) and of
    their mirror groups: (codes, (5, n) figures), in no particular order.  Of two mirror-image
    groups pass one: the other comes with it.  ``progress(done, total)`` counts (source,
    layout) pairs, size² a group."""
    pieces = [Piece(seed, size, 0, size) for seed, size in zip(seeds.tolist(), sizes.tolist(),
                                                                 strict=True)]
    total = sum(piece.pairs for piece in pieces)
    parts = sweep_pieces(pieces, threads or os.cpu_count() or 1,
                         None if progress is None else lambda _, pairs: progress(pairs, total))
    return joined(parts)


def joined(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    if not parts:
        return np.empty(0, dtype=np.int64), np.empty((len(FIGURE_COLUMNS), 0), dtype=np.int64)
    return (np.concatenate([codes for codes, _ in parts]),
            np.concatenate([figures for _, figures in parts], axis=1))


# ----- the database's columns ------------------------------------------------------------
STANDARD_CLASS = (5, 4)
"""jiang-bing of the standard layouts (five two-cell pieces and four soldiers, every style):
their figures are computed by the default database build."""
NOT_COMPUTED = -1
"""Marks a layout whose figures are not computed yet (NULL in the database)."""


def mirror_ids(codes: np.ndarray) -> np.ndarray:
    """The id of each code's mirror image (int32); ``codes`` are legal codes."""
    from huarong._kernels import klotski
    from huarong.space import cases

    ids: np.ndarray = cases.layout_ids(klotski.mirror_codes(
        np.ascontiguousarray(codes, dtype=np.int64))).astype(np.int32)
    return ids


def class_figures(jiang: int, bing: int, mirror_id: np.ndarray, *, style: int | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The figures of every layout of one jiang-bing class (or of one of its styles): (ids,
    (5, n) figures whose rows are :data:`FIGURE_COLUMNS`), in no particular order.
    ``mirror_id`` is :func:`mirror_ids` of every layout; ``progress(done, total)`` counts
    (source, layout) pairs."""
    from huarong.space import cases

    codes = cases.all_codes()
    groups = cases.label_groups()
    cls = cases.classes()
    firsts = groups.first_ids
    in_class = (cls.jiang[firsts] == jiang) & (cls.bing[firsts] == bing)
    if style is not None:
        in_class &= cls.style[firsts] == style
    chosen_groups = np.flatnonzero(in_class)
    seeds = codes[firsts[chosen_groups]]
    mirror_seeds = codes[firsts[groups.group[mirror_id[firsts[chosen_groups]]]]]
    # Of two mirror-image groups the one with the smaller seed is searched.
    searched = seeds <= mirror_seeds
    found_codes, figures = figures_of_groups(seeds[searched],
                                             groups.sizes[chosen_groups][searched],
                                             threads=threads, progress=progress)
    return cases.layout_ids(found_codes), figures


def figure_column(name: str, ids: np.ndarray, figures: np.ndarray, size: int) -> np.ndarray:
    """The column ``name`` of :data:`FIGURE_COLUMNS` over ``size`` layouts, from
    :func:`class_figures`: int16 for steps, int32 for counts, :data:`NOT_COMPUTED` where
    ``ids`` has no figures."""
    column = np.full(size, NOT_COMPUTED, dtype=np.int16 if name.endswith("steps") else np.int32)
    column[ids] = figures[FIGURE_COLUMNS.index(name)]
    return column
