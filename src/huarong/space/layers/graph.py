"""One group's step graph and the counts-only sweeps that give the layer figures of its
layouts (docs §5): farthest steps and how many layouts lie that far, minimum solution steps,
solutions at that distance and solutions in all.

A group's graph is a :class:`~huarong.graph.StateGraph` built by Klotski's engine
(:func:`huarong.engine.state_graph.klotski_graph`, with its mirror nodes) and swept by
:func:`huarong.graph.sweeps.sweep_graphs` (CPU or GPU).  Mirror symmetry halves the work:
steps commute with the left-right mirror and the goal is symmetric, so a layout and its
mirror image have the same figures.  A group whose mirror image is another group is searched
once for both (its figures copied to the mirror codes here); in a self-mirror group one
source of each mirror pair is searched.  Nodes are numbered so that neighbours lie close in
memory (breadth-first order, or code order in big groups: :data:`CODE_ORDER_ABOVE`) and
sources are searched in tight clusters (:func:`huarong._kernels.layers.cluster_sources`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from huarong.graph import StateGraph
from huarong.graph.sweeps import (
    FIGURE_COLUMNS,
    SOURCES_PER_SWEEP,
    Backend,
    SweepProgress,
    sweep_graphs,
)

UnitProgress = SweepProgress
"""``progress(sources_done, pairs_done)`` within a sweep of several pieces."""

CODE_ORDER_ABOVE = 100_000
"""Groups of more layouts number their nodes in code order, the others in breadth-first
order from the seed.  When a sweep's rows outgrow the cache, code order keeps more of a
node's neighbours near it (a step of a piece low on the board changes only the last digits):
1.25-1.5x faster on the largest groups, the same at 150,000 layouts, 1.25x slower on the
sparse group of 4FEA13400 (81,340 layouts), whose rows fit the cache."""


def group_graph(seed: int, size: int | None = None) -> tuple[StateGraph, np.ndarray]:
    """The graph of the group of the layout with code ``seed`` (of ``size`` layouts, when
    known: it chooses the node order without a second search), with mirror nodes when the
    group is its own mirror image, and the sources to sweep in clustered order: every node,
    or in a self-mirror group one node of each mirror pair."""
    return _group_graph(int(seed), size)


@functools.lru_cache(maxsize=1)
def _group_graph(seed: int, size: int | None) -> tuple[StateGraph, np.ndarray]:
    # A worker computes one unit after another of the same group: keep the last graph.
    from huarong._kernels import layers as layer_kernels
    from huarong.engine.state_graph import klotski_graph

    big = size is not None and size > CODE_ORDER_ABOVE
    graph = klotski_graph(seed, order="code" if big else "search", with_mirror=True)
    if size is None and graph.size > CODE_ORDER_ABOVE:
        graph = klotski_graph(seed, order="code", with_mirror=True)
    partner = (np.full(graph.size, -1, dtype=np.int64) if graph.mirror is None
               else graph.mirror.astype(np.int64))
    sources = layer_kernels.cluster_sources(graph.offsets, graph.targets, partner,
                                            np.int64(SOURCES_PER_SWEEP))
    for array in (graph.codes, graph.offsets, graph.targets, graph.goal, sources):
        array.flags.writeable = False
    return graph, sources


def group_figures(seed: int, *, threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every layout of the group of ``seed``: (codes ascending, (5, n) figures)."""
    graph, sources = group_graph(seed)
    if graph.mirror is not None:  # each mirror image after its pair's source, which gives it
        sources = np.concatenate([sources, graph.mirror[sources]])
    [found] = sweep_graphs([(graph, sources)], threads=threads)
    figures = np.empty((len(FIGURE_COLUMNS), graph.size), dtype=np.int64)
    figures[:, sources] = found
    order = np.argsort(graph.codes)
    return graph.codes[order], figures[:, order]


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
    """Sources ``first..stop-1`` (in the clustered order of :func:`group_graph`) of the group
    of ``seed``, a group of ``size`` layouts."""

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

    def job(self) -> tuple[StateGraph, np.ndarray]:
        """The piece's graph and its sources (node numbers)."""
        graph, sources = group_graph(self.seed, self.size)
        return graph, np.ascontiguousarray(sources[self.first:self.stop])


def with_mirrors(jobs: list[tuple[StateGraph, np.ndarray]], figures: list[np.ndarray]
                 ) -> list[tuple[np.ndarray, np.ndarray]]:
    """The figures of each job's sources and of their mirror images (codes, (5, n)
    figures), sorted by code."""
    from huarong._kernels import klotski

    parts = []
    for (graph, sources), found in zip(jobs, figures, strict=True):
        codes = graph.codes[sources]
        parts.append(expand_mirrors(codes, found, klotski.mirror_codes(codes),
                                    graph.mirror is not None))
    return parts


def sweep_pieces(pieces: list[Piece], threads: int, progress: UnitProgress | None = None, *,
                 backend: Backend = "cpu", batch: int = SOURCES_PER_SWEEP,
                 memory: int | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
    """The figures of each piece's sources and of their mirror images (codes, (5, n)
    figures), on ``threads`` threads or on the GPU (``backend``, ``batch`` and ``memory`` as
    :func:`huarong.graph.sweeps.sweep_graphs` takes them).  ``progress(sources_done,
    pairs_done)`` as :attr:`Piece.sources` and :attr:`Piece.pairs` count them."""
    jobs = [piece.job() for piece in pieces]
    return with_mirrors(jobs, sweep_graphs(jobs, backend=backend, threads=threads,
                                           progress=progress, batch=batch, memory=memory))


def figures_of_groups(seeds: np.ndarray, sizes: np.ndarray, *, threads: int | None = None,
                      progress: Callable[[int, int], None] | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """The figures of every layout of the groups of ``seeds`` (of ``sizes`` layouts) and of
    their mirror groups: (codes, (5, n) figures), in no particular order.  Of two mirror-image
    groups pass one: the other comes with it.  ``progress(done, total)`` counts (source,
    layout) pairs, size² a group."""
    import os

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
