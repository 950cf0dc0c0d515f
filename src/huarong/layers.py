"""The layer figures of every layout (SPEC §5) at scale: farthest steps and how many layouts
lie that far, minimum solution steps, solutions at that distance and solutions in all.

The figures of a group come from counts-only bit-parallel sweeps
(:func:`huarong._kernels.layers.count_sweep`, 64 sources a sweep, nothing recorded per
farthest layout or solution).  Mirror symmetry halves the work: steps commute with the
left-right mirror and the goal is symmetric, so a layout and its mirror image have the same
figures.  A group whose mirror image is another group is searched once for both; in a
self-mirror group one source of each mirror pair is searched.  Nodes are numbered in
breadth-first order (neighbours lie close in memory) and sources are searched in tight
clusters (:func:`huarong._kernels.layers.cluster_sources`).

:func:`plan` cuts classes into :class:`Unit` pieces (a group, or a range of its sources for a
big group); :func:`compute_unit` computes one (in any process: it rebuilds the group's graph
from the seed); :mod:`huarong.layers_job` runs them resumably into the database.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

FIGURE_COLUMNS = ("farthest_steps", "farthest_count", "min_steps", "min_step_solutions",
                  "solution_count")
"""The figures, in the order of :func:`huarong._kernels.layers.count_sweep`'s rows."""
SOURCES_PER_SWEEP = 64
PAIRS_PER_UNIT = 1 << 31
"""Work of one unit, in (source, layout) pairs: seconds to a minute on one core."""

SweepProgress = Callable[[int], None]
"""``progress(sources_done)``, called from time to time during a long sweep."""


@dataclass(frozen=True, eq=False)
class GroupGraph:
    """One group's step graph, nodes numbered in breadth-first order from the seed."""

    codes: np.ndarray
    offsets: np.ndarray
    targets: np.ndarray
    goal: np.ndarray
    sources: np.ndarray
    """The nodes to search, in clustered order: every node, or in a self-mirror group one
    node of each mirror pair."""
    self_mirror: bool

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
    from huarong._kernels import klotski
    from huarong._kernels import layers as layer_kernels

    boards, _, _, _ = klotski.bfs(np.int64(seed), klotski.EXPLORE_ALL, np.int64(0),
                                  np.int64(1 << 16))
    codes = klotski.boards_to_codes(boards)
    offsets, targets = klotski.adjacency(boards)
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
          threads: int = 1, progress: SweepProgress | None = None,
          stop_event: threading.Event | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The figures of ``graph.sources[first:stop]``: (their codes, a (5, n) int64 array whose
    rows are :data:`FIGURE_COLUMNS`).  Runs on ``threads`` threads; ``stop_event`` set from
    another thread ends the work within one sweep and raises :class:`Interrupted`."""
    from huarong._kernels import layers as kernels

    sources = np.ascontiguousarray(graph.sources[first:stop])
    shares = [sources[i::threads] for i in range(threads)] if threads > 1 else [sources]
    counters = [np.zeros(2, dtype=np.int64) for _ in shares]
    results: list[np.ndarray | None] = [None] * len(shares)
    failures: list[BaseException] = []

    def run(index: int) -> None:
        try:
            results[index] = kernels.count_sweeps(
                graph.offsets, graph.targets, graph.goal, shares[index],
                np.int64(SOURCES_PER_SWEEP), counters[index])
        except BaseException as error:  # re-raised in the calling thread
            failures.append(error)

    if threads == 1 and progress is None and stop_event is None:
        run(0)
    else:
        # Strided shares keep each thread's runs of 64 clustered: the clusters are longer
        # than a run, so taking every second source still leaves close neighbours.
        workers = [threading.Thread(target=run, args=(i,), daemon=True)
                   for i in range(len(shares))]
        for worker in workers:
            worker.start()
        for worker in workers:
            while worker.is_alive():
                worker.join(0.2)
                if stop_event is not None and stop_event.is_set():
                    for counter in counters:
                        counter[1] = 1
                if progress is not None:
                    progress(int(sum(int(c[0]) for c in counters)))
    if failures:
        raise failures[0]
    if any(int(c[1]) for c in counters):
        raise Interrupted("stopped")
    figures = np.empty((len(FIGURE_COLUMNS), sources.shape[0]), dtype=np.int64)
    for index, result in enumerate(results):
        assert result is not None
        figures[:, index::len(shares)] = result
    return graph.codes[sources], figures


class Interrupted(Exception):
    """A sweep stopped on request before it was done."""


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


def mirror_group_seeds(seeds: np.ndarray, mirror_seeds: np.ndarray) -> np.ndarray:
    """The groups to search so that every group is covered: of each pair of mirror-image
    groups (``mirror_seeds[i]`` is the seed of group i's mirror group) the one with the smaller
    seed, and every self-mirror group."""
    chosen: np.ndarray = seeds[seeds <= mirror_seeds]
    return chosen


def figures_of_groups(seeds: np.ndarray, *, threads: int | None = None,
                      progress: Callable[[int, int], None] | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """The figures of every layout of the groups of ``seeds`` and of their mirror groups:
    (codes, (5, n) figures), in no particular order.  ``progress(layouts_done, total)`` counts
    the layouts whose figures are known, ``total`` estimated from the seeds' groups."""
    from huarong._kernels import klotski

    parts: list[tuple[np.ndarray, np.ndarray]] = []
    done = 0
    for seed in seeds.tolist():
        graph = group_graph(seed)
        codes, figures = sweep(graph, threads=threads or os.cpu_count() or 1)
        parts.append(expand_mirrors(codes, figures, klotski.mirror_codes(codes),
                                    graph.self_mirror))
        done += parts[-1][0].shape[0]
        if progress is not None:
            progress(done, done)
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
    from huarong import cases
    from huarong._kernels import klotski

    ids: np.ndarray = cases.layout_ids(klotski.mirror_codes(
        np.ascontiguousarray(codes, dtype=np.int64))).astype(np.int32)
    return ids


def class_layer_columns(jiang: int, bing: int, mirror_id: np.ndarray, *,
                        progress: Callable[[int, int], None] | None = None,
                        threads: int | None = None) -> dict[str, np.ndarray]:
    """The figures of every layout of one jiang-bing class, as columns indexed by id over all
    layouts (:data:`NOT_COMPUTED` elsewhere): ``farthest_steps`` (int16), ``farthest_count``,
    ``solution_count``, ``min_steps`` (int16) and ``min_step_solutions`` (int32).
    ``mirror_id`` is :func:`mirror_ids` of every layout."""
    from huarong import cases

    codes = cases.all_codes()
    groups = cases.label_groups()
    cls = cases.classes()
    firsts = groups.first_ids
    chosen_groups = np.flatnonzero((cls.jiang[firsts] == jiang) & (cls.bing[firsts] == bing))
    seeds = codes[firsts[chosen_groups]]
    mirror_seeds = codes[firsts[groups.group[mirror_id[firsts[chosen_groups]]]]]
    total = int(groups.sizes[chosen_groups].sum())
    found_codes, figures = figures_of_groups(
        mirror_group_seeds(seeds, mirror_seeds), threads=threads,
        progress=None if progress is None else lambda done, _: progress(done, total))
    ids = cases.layout_ids(found_codes)
    columns = {}
    for row, name in enumerate(FIGURE_COLUMNS):
        dtype = np.int16 if name.endswith("steps") else np.int32
        column = np.full(codes.shape[0], NOT_COMPUTED, dtype=dtype)
        column[ids] = figures[row]
        columns[name] = column
    return columns
