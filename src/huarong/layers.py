"""The layer figures of every layout (docs §5) at scale: farthest steps and how many layouts
lie that far, minimum solution steps, solutions at that distance and solutions in all.

The figures of a group come from counts-only bit-parallel sweeps
(:mod:`huarong._kernels.layers`: 256 sources a sweep, nothing recorded per farthest layout or
solution).  Mirror symmetry halves the work:
steps commute with the left-right mirror and the goal is symmetric, so a layout and its mirror
image have the same figures.  A group whose mirror image is another group is searched once
for both; in a self-mirror group one source of each mirror pair is searched.  Nodes are
numbered so that neighbours lie close in memory (breadth-first order, or code order in big
groups: :data:`CODE_ORDER_ABOVE`) and sources are searched in tight clusters
(:func:`huarong._kernels.layers.cluster_sources`).

The job behind ``huarong db layers``: :func:`plan` cuts classes into :class:`Unit` pieces of
work (a range of a big group's sources, or several small groups); :func:`compute_unit`
computes one in any process (a Dask worker's too: it rebuilds the graphs from the seeds);
:func:`run` checkpoints each unit as a Parquet file beside the database and commits each
finished class in one transaction (:func:`commit_class`).
"""

from __future__ import annotations

import functools
import itertools
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

FIGURE_COLUMNS = ("farthest_steps", "farthest_count", "min_steps", "min_step_solutions",
                  "solution_count")
"""The figures, in the order of :func:`huarong._kernels.layers.count_sweep`'s rows."""
SOURCES_PER_SWEEP = 256
"""Sources searched together (:data:`huarong._kernels.layers.LANES`)."""
PAIRS_PER_UNIT = 1 << 31
"""Work of one unit, in (source, layout) pairs: seconds to a minute on one core."""
PIECES_PER_UNIT = 512

SweepProgress = Callable[[int], None]
"""``progress(sources_done)``, called from time to time during a long sweep."""
UnitProgress = Callable[[int, int], None]
"""``progress(sources_done, pairs_done)`` within one unit."""


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
    from huarong._kernels import klotski
    from huarong._kernels import layers as layer_kernels

    boards, _, _, _ = klotski.bfs(np.int64(seed), klotski.EXPLORE_ALL, np.int64(0),
                                  np.int64(1 << 16))
    codes = klotski.boards_to_codes(boards)
    if codes.shape[0] > CODE_ORDER_ABOVE:
        by_code = np.argsort(codes)
        boards, codes = boards[by_code], codes[by_code]
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
          threads: int = 1, progress: SweepProgress | None = None
          ) -> tuple[np.ndarray, np.ndarray]:
    """The figures of ``graph.sources[first:stop]``: (their codes, a (5, n) int64 array whose
    rows are :data:`FIGURE_COLUMNS`).  Runs on ``threads`` threads; with ``progress`` the
    calling thread only watches, so Ctrl-C (KeyboardInterrupt) stops every thread within one
    sweep and is re-raised."""
    sources = np.ascontiguousarray(graph.sources[first:stop])
    report = None if progress is None else lambda done, _pairs: progress(done)
    figures = _sweep_all([(graph, sources)], threads, report)[0]
    return graph.codes[sources], figures


def _sweep_all(jobs: list[tuple[GroupGraph, np.ndarray]], threads: int,
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
    return _joined(parts)


def _joined(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
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


def class_figures(jiang: int, bing: int, mirror_id: np.ndarray, *, style: int | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The figures of every layout of one jiang-bing class (or of one of its styles): (ids,
    (5, n) figures whose rows are :data:`FIGURE_COLUMNS`), in no particular order.
    ``mirror_id`` is :func:`mirror_ids` of every layout; ``progress(done, total)`` counts
    (source, layout) pairs."""
    from huarong import cases

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


# ----- the resumable job: plan, units, checkpoints, commits ------------------------------------
ClassKey = tuple[int, int, int]
"""A jiang-bing-style class."""


class JobError(ValueError):
    """A job that cannot run as asked (no database, an old database, a class that does not
    exist); the message says which and why."""


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


@dataclass(frozen=True)
class Unit:
    """A piece of work of class ``key``, checkpointed as one file: a range of sources of a
    big group, or several small groups."""

    key: ClassKey
    pieces: tuple[Piece, ...]

    @property
    def sources(self) -> int:
        return sum(piece.sources for piece in self.pieces)

    @property
    def pairs(self) -> int:
        return sum(piece.pairs for piece in self.pieces)

    @property
    def name(self) -> str:
        """Unique to the unit's pieces, so that checkpoints of a run cut differently (an
        earlier version's) are never taken for this unit's."""
        import hashlib

        pieces = ",".join(f"{p.seed:X}:{p.first}:{p.stop}" for p in self.pieces)
        digest = hashlib.blake2b(pieces.encode(), digest_size=4).hexdigest()
        return f"{self.pieces[0].seed:09X}-{self.pieces[0].first}-{digest}"


@dataclass(frozen=True)
class ClassPlan:
    """The work of one class: its groups and layouts, and the units still to compute."""

    key: ClassKey
    groups: int
    layouts: int
    units: tuple[Unit, ...]

    @property
    def name(self) -> str:
        return "-".join(map(str, self.key))

    @property
    def pairs(self) -> int:
        return sum(unit.pairs for unit in self.units)


def parse_class(text: str) -> list[ClassKey]:
    """``J-B-S`` (one class) or ``J-B`` (every style of it); JobError when malformed or
    nonexistent."""
    from huarong.cases import _check_class

    parts = text.split("-")
    try:
        numbers = [int(part) for part in parts]
        if len(numbers) not in (2, 3):
            raise ValueError
    except ValueError:
        raise JobError(f"bad class {text!r}: write JIANG-BING-STYLE (like 5-4-1) or "
                       "JIANG-BING (every style)") from None
    jiang, bing = numbers[:2]
    try:
        _check_class(jiang, bing, numbers[2] if len(numbers) == 3 else None)
    except ValueError as error:
        raise JobError(f"bad class {text!r}: {error}") from None
    styles = [numbers[2]] if len(numbers) == 3 else list(range(jiang + 1))
    return [(jiang, bing, style) for style in styles]


def checkpoint_directory(database: Path) -> Path:
    """Where unit results wait, beside the database, until their class is committed."""
    return database.with_name(database.name + ".layers")


def _pieces_of_group(seed: int, size: int, sources: int) -> list[Piece]:
    # Whole sweeps, so that pieces keep the clusters whole.
    per_piece = max(SOURCES_PER_SWEEP,
                    PAIRS_PER_UNIT // max(size, 1) // SOURCES_PER_SWEEP * SOURCES_PER_SWEEP)
    return [Piece(seed, size, first, min(first + per_piece, sources))
            for first in range(0, sources, per_piece)]


def _packed(key: ClassKey, pieces: list[Piece]) -> list[Unit]:
    """Pieces gathered into units of about :data:`PAIRS_PER_UNIT` pairs (and at most
    :data:`PIECES_PER_UNIT` pieces), so that small groups do not cost a file each."""
    units: list[Unit] = []
    gathered: list[Piece] = []
    for piece in pieces:
        if gathered and (sum(p.pairs for p in gathered) + piece.pairs > PAIRS_PER_UNIT
                         or len(gathered) == PIECES_PER_UNIT):
            units.append(Unit(key, tuple(gathered)))
            gathered = []
        gathered.append(piece)
    if gathered:
        units.append(Unit(key, tuple(gathered)))
    return units


_GROUPS_SQL = """
WITH symmetric_counts AS (
    SELECT jiang, bing, style, group_num, sum("symmetric"::INTEGER) AS symmetric_count,
           count(*) - count(farthest_steps) AS missing
    FROM layouts GROUP BY ALL)
SELECT g.jiang, g.bing, g.style, g.group_num, g.seed, g.size, s.symmetric_count, s.missing,
       mg.seed AS mirror_seed
FROM groups g
JOIN symmetric_counts s USING (jiang, bing, style, group_num)
JOIN layouts l ON l.code = g.seed
JOIN layouts m ON m.id = l.mirror_id
JOIN groups mg ON (mg.jiang, mg.bing, mg.style, mg.group_num)
                = (m.jiang, m.bing, m.style, m.group_num)
ORDER BY g.jiang, g.bing, g.style, g.group_num
"""


def plan(database: Path, classes: list[ClassKey] | None) -> list[ClassPlan]:
    """The classes (all when None) whose figures are not all in the database yet, each with
    the units to compute (a group whose mirror group has the smaller seed comes with it)."""
    import duckdb

    if not database.is_file():
        raise JobError(f"no database at {database}: run `huarong db build` first")
    try:
        connection = duckdb.connect(str(database), read_only=True)
    except duckdb.Error as error:
        raise JobError(f"cannot open database {database}: {error}") from None
    try:
        connection.execute("SET enable_progress_bar = false")
        rows = connection.execute(_GROUPS_SQL).fetchall()
    except duckdb.Error as error:
        raise JobError(f"the database {database} has no layer columns: rebuild it with "
                       f"`huarong db build --force` ({str(error).splitlines()[0]})") from None
    finally:
        connection.close()
    wanted = None if classes is None else set(classes)
    by_class: dict[ClassKey, list[tuple[int, ...]]] = {}
    for row in rows:
        key = (row[0], row[1], row[2])
        if wanted is None or key in wanted:
            by_class.setdefault(key, []).append(row[3:])
    plans = []
    for key, groups in by_class.items():
        if not any(missing for _, _, _, _, missing, _ in groups):
            continue
        pieces: list[Piece] = []
        for _, seed, size, symmetric, _, mirror_seed in groups:
            if seed == mirror_seed:
                pieces += _pieces_of_group(seed, size, (size + symmetric) // 2)
            elif seed < mirror_seed:
                pieces += _pieces_of_group(seed, size, size)
        plans.append(ClassPlan(key, len(groups), sum(group[2] for group in groups),
                               tuple(_packed(key, pieces))))
    return plans


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
    for (graph, sources), figures in zip(jobs, _sweep_all(jobs, threads, progress),
                                         strict=True):
        codes = graph.codes[sources]
        parts.append(expand_mirrors(codes, figures, klotski.mirror_codes(codes),
                                    graph.self_mirror))
    return parts


def compute_unit(unit: Unit, threads: int = 1, progress: UnitProgress | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The figures of one unit's sources and of their mirror images: (codes int64, (5, n)
    int32 figures).  Runs in any process (a Dask worker's too): graphs are rebuilt from the
    seeds, and what comes back is small."""
    codes, figures = _joined(sweep_pieces(list(unit.pieces), threads, progress))
    return codes, figures.astype(np.int32)


def _checkpoint_path(directory: Path, unit: Unit) -> Path:
    return directory / "-".join(map(str, unit.key)) / f"{unit.name}.parquet"


def is_done(directory: Path, unit: Unit) -> bool:
    return _checkpoint_path(directory, unit).is_file()


def save_unit(directory: Path, unit: Unit, codes: np.ndarray, figures: np.ndarray) -> int:
    """Write the figures :func:`compute_unit` gave as a Parquet file by id (atomically: a
    file that exists is complete); returns the rows written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from huarong import cases

    columns = {"id": cases.layout_ids(codes).astype(np.int32)}
    for row, name in enumerate(FIGURE_COLUMNS):
        columns[name] = figures[row].astype(np.int16 if name.endswith("steps") else np.int32)
    target = _checkpoint_path(directory, unit)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(pa.table(columns), temporary)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    return int(codes.shape[0])


COMMIT_PATIENCE = 120.0
"""Seconds a commit waits for readers of the database (each holding it a moment) to go."""


def _writable(database: Path, directory: Path) -> Any:
    """A read-write connection, waiting up to :data:`COMMIT_PATIENCE` for other processes to
    let go of the file."""
    import time

    import duckdb

    deadline = time.monotonic() + COMMIT_PATIENCE
    while True:
        try:
            return duckdb.connect(str(database))
        except duckdb.Error as error:
            if time.monotonic() > deadline:
                raise JobError(f"cannot write the database {database} (is another process "
                               f"using it?): {str(error).splitlines()[0]}; the finished "
                               f"work is kept in {directory}, run again to resume") from None
            time.sleep(1.0)


def commit_class(database: Path, directory: Path, class_plan: ClassPlan) -> None:
    """Put a finished class's figures into the database in one transaction (a reader sees
    all of the class or none of it), after checking them against the stored minimum steps;
    then drop its checkpoints (other files there, left by a run cut differently, with
    them)."""
    import shutil

    folder = directory / class_plan.name
    files = ", ".join("'" + str(_checkpoint_path(directory, unit)).replace("'", "''") + "'"
                      for unit in class_plan.units)
    connection = _writable(database, directory)
    try:
        connection.execute("SET enable_progress_bar = false")
        connection.execute("CREATE TEMP TABLE unit_rows AS "
                           f"SELECT * FROM read_parquet([{files}])")
        rows, distinct = connection.execute(
            "SELECT count(*), count(DISTINCT id) FROM unit_rows").fetchone() or (0, 0)
        disagree = connection.execute(
            "SELECT count(*) FROM unit_rows u JOIN layouts l USING (id) "
            "WHERE coalesce(l.min_steps, -1) <> u.min_steps "
            "OR l.min_step_solutions <> u.min_step_solutions").fetchone()
        if not rows == distinct == class_plan.layouts or disagree != (0,):
            raise JobError(f"class {class_plan.name}: the checkpoints in {folder} are "
                           "inconsistent (delete them to recompute the class)")
        connection.execute("BEGIN TRANSACTION")
        connection.execute(
            "UPDATE layouts SET farthest_steps = u.farthest_steps, "
            "farthest_count = u.farthest_count, solution_count = u.solution_count "
            "FROM unit_rows u WHERE layouts.id = u.id")
        connection.execute("COMMIT")
    finally:
        connection.close()
    shutil.rmtree(folder, ignore_errors=True)


# ----- running the job ---------------------------------------------------------------------
JobProgress = Callable[[int, int, int, int], None]
"""``progress(layouts_done, layouts_total, pairs_done, pairs_total)``; pairs count the work
of this run only (units already checkpointed count as layouts done, not as pairs)."""


class _Tally:
    """Layouts and pairs done so far, told to a :data:`JobProgress`."""

    def __init__(self, plans: list[ClassPlan], directory: Path,
                 progress: JobProgress | None) -> None:
        self.layouts_total = sum(p.layouts for p in plans)
        sources = sum(unit.sources for p in plans for unit in p.units)
        self.per_source = self.layouts_total / max(sources, 1)
        self.pairs_total = sum(unit.pairs for p in plans for unit in p.units
                               if not is_done(directory, unit))
        self.sources_done = 0
        self.pairs_done = 0
        self.progress = progress

    def unit_done(self, unit: Unit, searched: bool) -> None:
        self.sources_done += unit.sources
        self.pairs_done += unit.pairs if searched else 0
        self.report()

    def report(self, partial_sources: int = 0, partial_pairs: int = 0) -> None:
        if self.progress is not None:
            layouts = round((self.sources_done + partial_sources) * self.per_source)
            self.progress(min(layouts, self.layouts_total), self.layouts_total,
                          self.pairs_done + partial_pairs, self.pairs_total)


def run(database: Path, plans: list[ClassPlan], *, threads: int = 1,
        progress: JobProgress | None = None, client: object | None = None) -> None:
    """Compute every unit of ``plans`` not checkpointed yet, and commit each class once its
    units are all done.  In this process on ``threads`` threads, or on the Dask cluster of
    ``client`` (a ``distributed.Client``: workers compute, this process writes)."""
    directory = checkpoint_directory(database)
    tally = _Tally(plans, directory, progress)
    tally.report()
    if client is not None:
        _run_on_cluster(database, directory, plans, tally, client)
        return
    for class_plan in plans:
        for unit in class_plan.units:
            if is_done(directory, unit):
                tally.unit_done(unit, searched=False)
                continue
            codes, figures = compute_unit(unit, threads, progress=tally.report)
            save_unit(directory, unit, codes, figures)
            tally.unit_done(unit, searched=True)
        commit_class(database, directory, class_plan)


def _run_on_cluster(database: Path, directory: Path, plans: list[ClassPlan], tally: _Tally,
                    client: object) -> None:
    from distributed import Client, as_completed

    assert isinstance(client, Client)
    waiting: dict[ClassKey, int] = {}
    todo: list[Unit] = []
    for class_plan in plans:
        pending = [unit for unit in class_plan.units if not is_done(directory, unit)]
        for unit in class_plan.units:
            if is_done(directory, unit):
                tally.unit_done(unit, searched=False)
        waiting[class_plan.key] = len(pending)
        todo += pending
    by_key = {p.key: p for p in plans}
    for key, count in waiting.items():
        if count == 0:
            commit_class(database, directory, by_key[key])
    futures = {client.submit(compute_unit, unit, key=f"layers-{unit.name}", pure=False): unit
               for unit in todo}
    try:
        for future, (codes, figures) in as_completed(  # type: ignore[no-untyped-call]
                futures, with_results=True):
            unit = futures[future]
            save_unit(directory, unit, codes, figures)
            tally.unit_done(unit, searched=True)
            waiting[unit.key] -= 1
            if waiting[unit.key] == 0:
                commit_class(database, directory, by_key[unit.key])
    finally:
        client.cancel(list(futures))  # type: ignore[no-untyped-call]


# Fixed costs in :func:`estimate_seconds`, measured here on one core: a class's commit
# (35-110 ms), a unit's checkpoint file (1-15 ms) and a group's graph.
SECONDS_A_CLASS = 0.04
SECONDS_A_UNIT = 0.005
SECONDS_A_GROUP = 0.0005


def _lane_pairs(plan: ClassPlan) -> int:
    """(lane, layout) pairs of the plan's sweeps: a sweep costs the same however few of its
    lanes carry a source, which matters for small groups."""
    return sum(-(-piece.sources // SOURCES_PER_SWEEP) * SOURCES_PER_SWEEP * piece.size
               for unit in plan.units for piece in unit.pieces)


def estimate_seconds(plans: list[ClassPlan], *, workers: int = 1,
                     calibrated_classes: int = 8) -> float:
    """Wall time of ``plans`` on ``workers`` cores of this machine, from rates measured now
    (one sweep on the largest group of each of the ``calibrated_classes`` classes with the
    most work; the other classes at their weighted mean rate) and the fixed costs of
    classes, units and groups."""
    import time

    rates: dict[ClassKey, float] = {}
    for class_plan in sorted(plans, key=lambda p: -p.pairs)[:calibrated_classes]:
        if not class_plan.units:
            continue
        piece = max((piece for unit in class_plan.units for piece in unit.pieces),
                    key=lambda piece: piece.size)
        graph = group_graph(piece.seed)
        started = time.perf_counter()
        sweep(graph, 0, graph.batch)
        rates[class_plan.key] = (time.perf_counter() - started) / (graph.batch * graph.size)
    lane_pairs = {p.key: _lane_pairs(p) for p in plans}
    measured = sum(lane_pairs[key] for key in rates)
    mean_rate = sum(rates[key] * lane_pairs[key] for key in rates) / max(measured, 1)
    searching = sum(lane_pairs[p.key] * rates.get(p.key, mean_rate) for p in plans)
    units = sum(len(p.units) for p in plans)
    groups = sum(len(unit.pieces) for p in plans for unit in p.units)
    return ((searching + units * SECONDS_A_UNIT + groups * SECONDS_A_GROUP) / max(workers, 1)
            + len(plans) * SECONDS_A_CLASS)
