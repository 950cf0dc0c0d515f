"""Running a plan of the layer job (:mod:`huarong.space.layers.job`): in this process on
threads, or on a Dask cluster whose workers compute units while this process checkpoints and
commits them."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from huarong.fileio import writer_lock
from huarong.graph import StateGraph
from huarong.space.database import ClassKey
from huarong.space.layers.job import (
    ClassPlan,
    JobError,
    Unit,
    checkpoint_directory,
    commit_class,
    compute_unit,
    is_done,
    save_unit,
)

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
        progress: JobProgress | None = None, client: object | None = None,
        gpu: bool = False) -> None:
    """Compute every unit of ``plans`` not checkpointed yet, and commit each class once its
    units are all done.  In this process on ``threads`` threads, or on the Dask cluster of
    ``client`` (a ``distributed.Client``: workers compute, this process writes).  ``gpu``:
    on this process's CUDA GPU (``threads`` build the graphs meanwhile), or on a cluster the
    units of the biggest groups on workers with the ``GPU`` resource
    (:data:`GPU_GROUP_SIZE`); the same figures and checkpoints.  Holds the database's
    writer lock (:func:`huarong.fileio.writer_lock`) throughout; at the end writes the
    figures file beside the database again, if there is one (:mod:`huarong.space.figures`)."""
    from huarong.space.build import write_figures_again

    with writer_lock(database):
        _run(database, plans, threads, progress, client, gpu)
        write_figures_again(database)


def _run(database: Path, plans: list[ClassPlan], threads: int, progress: JobProgress | None,
         client: object | None, gpu: bool) -> None:
    directory = checkpoint_directory(database)
    tally = _Tally(plans, directory, progress)
    tally.report()
    if client is not None:
        _run_on_cluster(database, directory, plans, tally, client, gpu)
        return
    if gpu:
        _run_on_gpu(database, directory, plans, tally, threads)
        return
    for class_plan in plans:
        for unit in class_plan.units:
            if is_done(directory, unit):
                tally.unit_done(unit, searched=False)
                continue
            codes, figures = compute_unit(unit, threads, progress=tally.report, gpu=gpu)
            save_unit(directory, unit, codes, figures)
            tally.unit_done(unit, searched=True)
        commit_class(database, directory, class_plan)


GPU_BATCH_PAIRS = 1 << 36
"""(source, layout) pairs of one batch of the GPU run: seconds of sweeping, while the CPU
threads build the graphs of the batches after it."""
GPU_BATCH_PIECES = 16_384
"""Pieces of one GPU batch at most: the small groups of many classes share its launches."""


def _pending(plans: list[ClassPlan], directory: Path, tally: _Tally
             ) -> tuple[dict[ClassKey, int], list[Unit]]:
    """Each class's count of units still to do, and those units; the units a checkpoint
    already holds are counted done on ``tally``."""
    waiting: dict[ClassKey, int] = {}
    todo: list[Unit] = []
    for class_plan in plans:
        pending = [unit for unit in class_plan.units if not is_done(directory, unit)]
        for unit in class_plan.units:
            if is_done(directory, unit):
                tally.unit_done(unit, searched=False)
        waiting[class_plan.key] = len(pending)
        todo += pending
    return waiting, todo


def _gpu_batches(units: list[Unit]) -> list[list[Unit]]:
    """Consecutive units gathered into batches of about :data:`GPU_BATCH_PAIRS` pairs and at
    most :data:`GPU_BATCH_PIECES` pieces, whatever their classes."""
    batches: list[list[Unit]] = []
    gathered: list[Unit] = []
    pairs = pieces = 0
    for unit in units:
        if gathered and (pairs + unit.pairs > GPU_BATCH_PAIRS
                         or pieces + len(unit.pieces) > GPU_BATCH_PIECES):
            batches.append(gathered)
            gathered, pairs, pieces = [], 0, 0
        gathered.append(unit)
        pairs += unit.pairs
        pieces += len(unit.pieces)
    if gathered:
        batches.append(gathered)
    return batches


def _run_on_gpu(database: Path, directory: Path, plans: list[ClassPlan], tally: _Tally,
                threads: int) -> None:
    """The units of every class in batches swept on the GPU, small groups of all classes
    sharing launches; meanwhile ``threads`` threads build the graphs of the next batches and
    one thread writes checkpoints and commits each class once its last unit is written."""
    from concurrent.futures import Future, ThreadPoolExecutor

    from huarong.graph.sweeps import sweep_graphs
    from huarong.space.layers.graph import build_group_graph, joined, with_mirrors
    from huarong.workers import as_finished

    by_key = {p.key: p for p in plans}
    waiting, todo = _pending(plans, directory, tally)
    # Small groups first: their classes are committed while the big groups sweep.
    todo.sort(key=lambda unit: max(piece.size for piece in unit.pieces))
    batches = _gpu_batches(todo)
    groups: list[tuple[int, int]] = []
    last_batch: dict[tuple[int, int], int] = {}
    for number, batch in enumerate(batches):
        for piece in (piece for unit in batch for piece in unit.pieces):
            if (piece.seed, piece.size) not in last_batch:
                groups.append((piece.seed, piece.size))
            last_batch[piece.seed, piece.size] = number
    ahead = 2 * max((len({(p.seed, p.size) for u in batch for p in u.pieces})
                     for batch in batches), default=0)
    built = as_finished(lambda group: build_group_graph(*group), groups, threads=threads,
                        ahead=ahead)
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="huarong-commit")
    writes: list[Future[object]] = [writer.submit(commit_class, database, directory,
                                                  by_key[key])
                                    for key, count in waiting.items() if count == 0]
    graphs: dict[tuple[int, int], tuple[StateGraph, np.ndarray]] = {}
    try:
        for number, batch in enumerate(batches):
            needed = {(p.seed, p.size) for unit in batch for p in unit.pieces}
            while not needed <= graphs.keys():
                index, graph = next(built)
                graphs[groups[index]] = graph
            jobs = [(graphs[p.seed, p.size][0],
                     graphs[p.seed, p.size][1][p.first:p.stop]) for unit in batch
                    for p in unit.pieces]
            parts = with_mirrors(jobs, sweep_graphs(jobs, backend="gpu",
                                                    progress=tally.report))
            for unit in batch:
                codes, figures = joined(parts[:len(unit.pieces)])
                del parts[:len(unit.pieces)]
                writes.append(writer.submit(save_unit, directory, unit, codes,
                                            figures.astype(np.int32)))
                tally.unit_done(unit, searched=True)
                waiting[unit.key] -= 1
                if waiting[unit.key] == 0:
                    writes.append(writer.submit(commit_class, database, directory,
                                                by_key[unit.key]))
            for group in needed:
                if last_batch[group] == number:
                    del graphs[group]
            for write in writes:
                if write.done():
                    write.result()  # a failed write stops the run here
    finally:
        built.close()
        writer.shutdown(wait=True)
    for write in writes:
        write.result()


GPU_GROUP_SIZE = 20_000
"""On a Dask cluster with ``gpu``, a unit with a group of at least this many layouts asks for
the worker resource ``GPU`` (workers started with ``--resources GPU=1``, one a GPU) and is
swept there on the GPU, ahead of other units; the rest (the ~25,000 small groups, a small
share of the pairs) go to any worker's cores."""


def _submit(client: Any, unit: Unit, gpu: bool) -> Any:
    if gpu and max(piece.size for piece in unit.pieces) >= GPU_GROUP_SIZE:
        return client.submit(compute_unit, unit, gpu=True, key=f"layers-{unit.name}",
                             pure=False, resources={"GPU": 1}, priority=1)
    return client.submit(compute_unit, unit, key=f"layers-{unit.name}", pure=False)


def _check_gpu_workers(client: Any) -> None:
    workers = client.scheduler_info()["workers"].values()
    if not any(worker.get("resources", {}).get("GPU") for worker in workers):
        raise JobError("--gpu on a cluster needs a worker with a GPU started with "
                       "`--resources GPU=1`; no connected worker has that resource")


def _run_on_cluster(database: Path, directory: Path, plans: list[ClassPlan], tally: _Tally,
                    client: object, gpu: bool) -> None:
    from distributed import Client

    from huarong.workers import on_cluster

    assert isinstance(client, Client)
    waiting, todo = _pending(plans, directory, tally)
    by_key = {p.key: p for p in plans}
    for key, count in waiting.items():
        if count == 0:
            commit_class(database, directory, by_key[key])
    if gpu:
        _check_gpu_workers(client)
    with contextlib.closing(on_cluster(client, lambda unit: _submit(client, unit, gpu),
                                       todo)) as results:
        for index, (codes, figures) in results:
            unit = todo[index]
            save_unit(directory, unit, codes, figures)
            tally.unit_done(unit, searched=True)
            waiting[unit.key] -= 1
            if waiting[unit.key] == 0:
                commit_class(database, directory, by_key[unit.key])
