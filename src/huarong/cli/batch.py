"""Batch analysis of whole groups: ``analyze-group`` and ``analyze-multi-group``
(the original engine's ``--analy-group[-integral]`` and ``--analy-multi-group[-integral]``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from huarong.cli._common import (
    INTERRUPTED_EXIT,
    LAYOUT,
    OUTPUT,
    TERMINATED_EXIT,
    InputError,
    MachineFault,
    Terminated,
    describe_fault,
    progress_bar,
)
from huarong.engine.layout import Layout

_integral = click.option("--integral", is_flag=True,
                         help="List every solution with its steps in SOLUTION_CSV.")
_quiet = click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
_format = click.option(
    "--format", "table_format", type=click.Choice(["huarong", "original"]), default="huarong",
    show_default=True,
    help="original: the original engine's files byte for byte (no header, a "
         "min_solution_num column, every seed's group even if repeated).")
_gpu = click.option("--gpu", is_flag=True,
                    help="Sweep on this machine's CUDA GPU (huarong[gpu]); the files are the "
                         "same.")


def _table_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The two output tables and the options both analyze commands take."""
    for option in reversed((click.argument("farthest_csv", type=OUTPUT),
                            click.argument("solution_csv", type=OUTPUT),
                            _integral, _format, _gpu, _quiet)):
        command = option(command)
    return command


def _check_gpu() -> None:
    """--gpu needs the extra and a GPU: without them, one line, as ``db layers --gpu``."""
    from huarong.graph import sweeps_gpu

    if (problem := sweeps_gpu.problem()) is not None:
        raise InputError(f"--gpu: {problem}")


def _write(seeds: list[Layout], farthest_csv: str, solution_csv: str, integral: bool,
           table_format: str, quiet: bool, gpu: bool) -> int:
    """Write both tables, streamed in bounded memory; return the number of rows written.
    The output directories are tried before any analysis runs."""
    from huarong.space.group_tables import write_group_tables

    if gpu:
        _check_gpu()
    try:
        with progress_bar(not quiet) as progress:
            return write_group_tables(seeds, farthest_csv, solution_csv, integral=integral,
                                      table_format="original" if table_format == "original"
                                      else "huarong", progress=progress, gpu=gpu)
    except OSError as error:
        # The outputs' directories were checked when the command line was read.
        raise MachineFault(describe_fault(error, _target_of(error, farthest_csv, solution_csv),
                                          "the output arguments")) from None
    except (KeyboardInterrupt, Terminated) as stop:
        _exit_at_once(stop)


def _exit_at_once(stop: BaseException) -> NoReturn:
    """End an interrupted run now.  Every output and spool is closed and gone once the
    exception has come this far, but batches may still be running on the worker threads, and
    the interpreter's own shutdown beside them took seconds on a loaded machine."""
    interrupted = isinstance(stop, KeyboardInterrupt)
    click.echo("huarong: interrupted" if interrupted else "huarong: terminated", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(INTERRUPTED_EXIT if interrupted else TERMINATED_EXIT)


def _target_of(error: OSError, *targets: str) -> str:
    """Which output file failed; the error may name its temporary file instead."""
    failed = Path(str(error.filename or ""))
    for target in targets:
        if failed == Path(target) or failed.name.startswith(f".{Path(target).name}."):
            return target
    return str(error.filename or targets[0])


@click.command("analyze-group")
@click.argument("layout", type=LAYOUT)
@_table_options
def analyze_group(layout: Layout, farthest_csv: str, solution_csv: str, integral: bool,
                  table_format: str, gpu: bool, quiet: bool) -> None:
    """Farthest and solution figures of every layout of LAYOUT's group, written to
    FARTHEST_CSV and SOLUTION_CSV (columns: see the README)."""
    size = _write([layout], farthest_csv, solution_csv, integral, table_format, quiet, gpu)
    click.echo(f"group of {layout.code}: {size:,} layouts; written to {farthest_csv} and "
               f"{solution_csv}", err=True)


@click.command("analyze-multi-group")
@click.argument("seeds_file", type=click.Path(dir_okay=False, allow_dash=True))
@_table_options
def analyze_multi_group(seeds_file: str, farthest_csv: str, solution_csv: str, integral: bool,
                        table_format: str, gpu: bool, quiet: bool) -> None:
    """analyze-group for the group of every seed in SEEDS_FILE (one common code a line, as
    in the 5-4-0.txt files of `huarong all`; `-` reads stdin), the groups one after another
    in both tables."""
    from huarong.space import group_analysis

    try:
        # `-` reads the seeds from stdin.
        seeds = group_analysis.read_seeds("/dev/stdin" if seeds_file == "-" else seeds_file)
    except group_analysis.SeedFileError as error:
        raise InputError(str(error)) from None
    size = _write(seeds, farthest_csv, solution_csv, integral, table_format, quiet, gpu)
    click.echo(f"{len(seeds):,} seeds: {size:,} layouts; written to {farthest_csv} and "
               f"{solution_csv}", err=True)
