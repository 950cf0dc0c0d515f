"""``huarong db layers``: the layer figures of whole classes into the database, resumable,
in one process or on a Dask cluster (the ``cluster`` extra)."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from huarong.cli._cluster import CLUSTER_EXTRA, dask_client, resumable
from huarong.cli._common import DB_PLACE, InputError, machine_faults
from huarong.fileio import check_free_space, writer_lock

REPORT_EVERY = 5.0
"""Seconds between two progress lines when stderr is not a terminal."""


def _class_keys(classes: tuple[str, ...], standard: bool, every: bool
                ) -> list[tuple[int, int, int]] | None:
    from huarong.space import layers

    if every:
        return None
    keys: list[tuple[int, int, int]] = []
    try:
        for text in classes:
            keys += layers.parse_class(text)
    except layers.JobError as error:
        raise InputError(str(error)) from None
    if standard:
        keys += layers.parse_class("-".join(map(str, layers.STANDARD_CLASS)))
    if not keys:
        raise click.UsageError("name the classes (like 4-3-0 or 5-4), or give --standard "
                               "or --all")
    return sorted(set(keys))


def _format_seconds(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


class _Reporter:
    """Layouts done, pairs per second and the ETA: a bar on a terminal, otherwise a line on
    stderr every few seconds."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.last_line = 0.0
        self.bar: Any = None
        self.task: Any = None

    @contextlib.contextmanager
    def shown(self) -> Iterator[_Reporter]:
        if not (sys.stderr.isatty() or os.environ.get("HUARONG_PROGRESS")):
            yield self
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn

        with Progress(TextColumn("layers"), BarColumn(), TextColumn("{task.fields[line]}"),
                      console=Console(stderr=True), transient=True) as bar:
            self.bar = bar
            self.task = bar.add_task("layers", total=1, line="")
            yield self

    def __call__(self, layouts: int, layouts_total: int, pairs: int, pairs_total: int) -> None:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = pairs / elapsed
        eta = (pairs_total - pairs) / rate if rate > 0 else float("nan")
        line = (f"{layouts:,}/{layouts_total:,} layouts, {rate:.3g} pairs/s, eta "
                f"{_format_seconds(eta) if eta == eta else '?'}")
        if self.bar is not None:
            self.bar.update(self.task, completed=layouts, total=max(layouts_total, 1),
                            line=line)
        elif time.monotonic() - self.last_line >= REPORT_EVERY or layouts == layouts_total:
            self.last_line = time.monotonic()
            click.echo(f"layers: {line}", err=True)


@click.command("layers")
@click.argument("classes", nargs=-1)
@click.option("--standard", is_flag=True, help="The standard classes 5-4-* (363,480 layouts).")
@click.option("--all", "every", is_flag=True, help="Every class (29,334,498 layouts).")
@click.option("--workers", "dask_workers", type=click.IntRange(min=1), default=None,
              help=f"Run on a local Dask cluster of N Dask workers, a process each "
                   f"({CLUSTER_EXTRA}).")
@click.option("--cluster", "address", default=None, metavar="ADDRESS",
              help=f"Run on the Dask scheduler at ADDRESS, like tcp://HOST:8786 "
                   f"({CLUSTER_EXTRA}).")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Threads of the single-process run (default: every core).")
@click.option("--gpu", is_flag=True,
              help="Sweep on this machine's CUDA GPU (huarong[gpu]); with --cluster, the "
                   "biggest groups on workers started with --resources GPU=1.")
@click.option("--plan", "plan_only", is_flag=True,
              help="Print the groups, layouts, pairs and estimated time, and stop.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              help="The database file (default: $HUARONG_DB, else "
                   "~/.local/share/huarong/huarong.duckdb).")
@click.option("--wait", is_flag=True,
              help="If another process is writing the database, wait for it instead of "
                   "stopping.")
def layers(classes: tuple[str, ...], standard: bool, every: bool, dask_workers: int | None,
           address: str | None, threads: int | None, gpu: bool, plan_only: bool,
           db_path: str | None, wait: bool) -> None:
    """Compute the layer figures (farthest steps and count, solution count) of every layout
    of the named classes (J-B-S or J-B) into the database.

    Resumable: finished pieces are checkpointed beside the database and a rerun skips them;
    each class appears in the database at once, when it is complete."""
    from huarong.space.database import default_path
    from huarong.space.layers.job import room_needed

    if dask_workers is not None and address is not None:
        raise click.UsageError("choose one of --workers and --cluster")
    if gpu:
        _check_gpu(dask_workers, address, plan_only)
    keys = _class_keys(classes, standard, every)
    database = Path(db_path) if db_path is not None else default_path()
    with machine_faults(database, DB_PLACE):
        plans = _plans(database, keys)
        if plans and plan_only:
            _print_plan(plans, dask_workers or threads or os.cpu_count() or 1,
                        gpu and not address)
            return
        if plans:
            with writer_lock(database, wait=wait):
                # Again under the lock: a writer that went before may have committed classes.
                plans = _plans(database, keys)
                if plans:
                    check_free_space(database, room_needed(plans))
                    _run(database, plans, dask_workers, address, threads, gpu)
    if not plans:
        click.echo("every layout of these classes has its figures already", err=True)


def _plans(database: Path, keys: list[tuple[int, int, int]] | None) -> list[Any]:
    from huarong.space import layers as job

    try:
        return job.plan(database, keys)
    except job.JobError as error:
        raise InputError(str(error)) from None


def _check_gpu(dask_workers: int | None, address: str | None, plan_only: bool) -> None:
    """--gpu runs here (which then needs the extra and a GPU, except for a plan) or on a
    cluster (whose GPU workers are checked when the run starts)."""
    from huarong.graph import sweeps_gpu

    if dask_workers is not None:
        raise click.UsageError("--gpu runs in this process, or with --cluster on workers "
                               "started with --resources GPU=1; not with --workers")
    if address is None and not plan_only and (problem := sweeps_gpu.problem()) is not None:
        raise InputError(f"--gpu: {problem}")


def _run(database: Path, plans: list[Any], dask_workers: int | None, address: str | None,
         threads: int | None, gpu: bool) -> None:
    from huarong.space import layers as job

    with resumable(job.checkpoint_directory(database), "finished pieces"), \
            dask_client(dask_workers, address) as client:
        reporter = _Reporter()
        try:
            with reporter.shown():
                job.run(database, plans, threads=threads or os.cpu_count() or 1,
                        progress=reporter, client=client, gpu=gpu)
        except job.JobError as error:
            raise InputError(str(error)) from None
    layouts = sum(p.layouts for p in plans)
    click.echo(f"figures of {layouts:,} layouts in {len(plans)} classes written to {database} "
               f"in {_format_seconds(time.monotonic() - reporter.started)}", err=True)


def _print_plan(plans: list[Any], cores: int, gpu: bool) -> None:
    from huarong.space import layers as job

    header = f"{'class':<8} {'groups':>7} {'layouts':>11} {'units':>6} {'pairs':>10}"
    click.echo(header)
    for class_plan in plans:
        click.echo(f"{class_plan.name:<8} {class_plan.groups:>7,} {class_plan.layouts:>11,} "
                   f"{len(class_plan.units):>6,} {class_plan.pairs:>10.3g}")
    click.echo(f"{'total':<8} {sum(p.groups for p in plans):>7,} "
               f"{sum(p.layouts for p in plans):>11,} {sum(len(p.units) for p in plans):>6,} "
               f"{sum(p.pairs for p in plans):>10.3g}")
    if gpu:
        from huarong.space.layers.job import (
            GPU_BIG_GROUP,
            GPU_NS_A_PAIR,
            GPU_RATES_MEASURED,
            GPU_SMALL_NS_A_PAIR,
            estimate_gpu_seconds,
        )

        click.echo(f"estimated time on the GPU: {_format_seconds(estimate_gpu_seconds(plans))} "
                   f"at {GPU_NS_A_PAIR} ns a (source, layout) pair in groups of "
                   f"{GPU_BIG_GROUP:,} layouts or more and {GPU_SMALL_NS_A_PAIR} ns in the "
                   "smaller ones packed together")
        click.echo(f"the rates were {GPU_RATES_MEASURED}; another card scales them")
        return
    seconds = job.estimate_seconds(plans, cores=cores)
    click.echo(f"estimated time on {cores} core{'s' if cores > 1 else ''} of this machine: "
               f"{_format_seconds(seconds)} (rates measured now on the classes with the most "
               "work)")
