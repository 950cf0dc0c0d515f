"""Batch analysis of whole groups: ``analyze-group`` and ``analyze-multi-group``
(the original engine's ``--analy-group[-integral]`` and ``--analy-multi-group[-integral]``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from huarong.cli._common import LAYOUT, OUTPUT, InputError, progress_bar
from huarong.layout import Layout

if TYPE_CHECKING:
    from huarong.group_analysis import GroupAnalysis

_integral = click.option("--integral", is_flag=True,
                         help="List every solution with its steps in SOLUTION_CSV.")
_quiet = click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
_output = OUTPUT


def _write(groups: Iterable[GroupAnalysis], farthest_csv: str, solution_csv: str,
           integral: bool) -> int:
    """Write both tables; return the number of layouts written.  ``groups`` is consumed
    while the files are open, so an unwritable output fails before any analysis runs."""
    from huarong.group_analysis import write_csvs

    written = 0

    def counted() -> Iterator[GroupAnalysis]:
        nonlocal written
        for analysis in groups:
            written += analysis.size
            yield analysis

    try:
        write_csvs(counted(), farthest_csv, solution_csv, integral=integral)
    except OSError as error:
        raise InputError(f"cannot write {_target_of(error, farthest_csv, solution_csv)!r}: "
                         f"{error.strerror or error}") from None
    return written


def _target_of(error: OSError, *targets: str) -> str:
    """Which output file failed; the error may name its temporary file instead."""
    failed = Path(str(error.filename or ""))
    for target in targets:
        if failed == Path(target) or failed.name.startswith(f".{Path(target).name}."):
            return target
    return str(error.filename or targets[0])


@click.command("analyze-group")
@click.argument("layout", type=LAYOUT)
@click.argument("farthest_csv", type=_output)
@click.argument("solution_csv", type=_output)
@_integral
@_quiet
def analyze_group(layout: Layout, farthest_csv: str, solution_csv: str, integral: bool,
                  quiet: bool) -> None:
    """Farthest and solution figures of every layout of LAYOUT's group, written to
    FARTHEST_CSV and SOLUTION_CSV (columns: see the README)."""
    from huarong import group_analysis

    with progress_bar(not quiet) as progress:
        size = _write(group_analysis.analyze_groups([layout], progress=progress),
                      farthest_csv, solution_csv, integral)
    click.echo(f"group of {layout.code}: {size:,} layouts; written to {farthest_csv} and "
               f"{solution_csv}", err=True)


@click.command("analyze-multi-group")
@click.argument("seeds_file", type=click.Path(dir_okay=False, allow_dash=True))
@click.argument("farthest_csv", type=_output)
@click.argument("solution_csv", type=_output)
@_integral
@_quiet
def analyze_multi_group(seeds_file: str, farthest_csv: str, solution_csv: str, integral: bool,
                        quiet: bool) -> None:
    """analyze-group for the group of every seed in SEEDS_FILE (one common code a line, as
    in the 5-4-0.txt files of `huarong all`; `-` reads stdin), the groups one after another
    in both tables."""
    from huarong import group_analysis

    try:
        # `-` reads the seeds from stdin.
        seeds = group_analysis.read_seeds("/dev/stdin" if seeds_file == "-" else seeds_file)
    except group_analysis.SeedFileError as error:
        raise InputError(str(error)) from None
    with progress_bar(not quiet) as progress:
        size = _write(group_analysis.analyze_groups(seeds, progress=progress), farthest_csv,
                      solution_csv, integral)
    click.echo(f"{len(seeds):,} seeds: {size:,} layouts; written to {farthest_csv} and "
               f"{solution_csv}", err=True)
