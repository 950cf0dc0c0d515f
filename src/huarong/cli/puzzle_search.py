"""``huarong puzzle search``: every placement of a set of pieces on a board, split into
clusters, each cluster's hardest start; or a preset search by another author's definitions.

Bad specifications end with one line and exit status 2 (:mod:`huarong.cli._common`)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from huarong.cli._cluster import CLUSTER_EXTRA, need_dask, resumable
from huarong.cli._common import (
    OUTPUT,
    InputError,
    ProgressCallback,
    announce_first_compile,
    json_option,
    machine_faults,
    progress_bar,
    sigterm_unwinds,
)

if TYPE_CHECKING:
    from huarong.puzzles.exhaustive import SearchResult, SearchSpace
    from huarong.puzzles.presets.rush_hour import RushRows

PRESETS = ("sbp-4x4", "rush-hour")
TABLE_FORMATS = (".parquet", ".duckdb")
RUSH_FORMATS = (*TABLE_FORMATS, ".txt")
COMPARE_EXAMPLES = 5
"""Rows of each kind (missing, extra, different) --compare prints."""


@contextmanager
def _input_errors() -> Iterator[None]:
    from huarong.puzzles import PuzzleError

    try:
        yield
    except PuzzleError as error:
        raise InputError(str(error)) from None


def grid_rows(grid: str) -> str:
    """Grid text one row a line, as a terminal shows a board."""
    return grid.replace("/", "\n")


def echo_hardest(hardest: dict[str, Any] | None, when_none: str) -> None:
    """Print a hardest start (``{"length", "start"}``) with its board, or ``when_none``."""
    if hardest is None:
        click.echo(f"hardest: none ({when_none})")
    else:
        click.echo(f"hardest: {hardest['length']} moves from")
        click.echo(grid_rows(hardest["start"]))


@click.command("search")
@click.option("--board", metavar="RxC|GRID",
              help="The board: RxC, or grid text with '.' cells and '#' walls (rows joined "
                   "by '/').")
@click.option("--pieces", metavar="SPEC",
              help="The pieces: rows x columns, *N for N alike, as 2x2,1x2,2x1*2,1x1*4.")
@click.option("--goal", metavar="SHAPE@ROW,COL",
              help="A piece of that shape with its top-left cell there (from 0), as 2x2@3,1.")
@click.option("--puzzle", "start", metavar="START", default=None,
              help="Instead of --board, --pieces and --goal: the board, pieces (any shapes), "
                   "goal, rules and metric of a puzzle (a .toml file, a catalogue name, grid "
                   "text with --goal as a grid...), every placement of its pieces.")
@click.option("--metric", type=click.Choice(["unit", "slide", "step"]), default=None,
              help="What one move is: one cell, any distance in one direction, or anywhere "
                   "the piece reaches alone (default: step, or the puzzle's).")
@click.option("--rules", type=click.Choice(["free", "length"]), default=None,
              help="free: every piece moves in four directions; length: a 1xk or kx1 piece "
                   "only along its length (default: free, or the puzzle's).")
@click.option("--preset", type=click.Choice(PRESETS), default=None,
              help="A search by another author's definitions instead: sbp-4x4 is "
                   "N. Bickford's search of every 4x4 puzzle (pieces of any shape, the goal "
                   "piece from the upper-left to the lower-right corner): the hardest puzzle "
                   "per number of pieces, beside his; "
                   "rush-hour is M. Fogleman's database of every interesting Rush Hour start "
                   "(-o FILE.txt writes his rush.txt format).")
@click.option("--compare", metavar="RUSH.TXT", default=None,
              help="With --preset rush-hour: compare the rows with Fogleman's rush.txt and "
                   "print the rows missing, extra or different (exit status 1 if any).")
@click.option("--max-walls", type=int, default=None, metavar="N",
              help="With --preset rush-hour: at most N walls on a board (default 2, the "
                   "whole database; 0 is the part without walls).")
@click.option("-o", "--output", type=OUTPUT, default=None,
              help="Write one row per cluster (states, solved, length, start), hardest first, "
                   "to FILE.parquet or FILE.duckdb (table clusters), atomically.  The search "
                   "is saved every minute and when stopped in FILE.checkpoint.npz, and the "
                   "same command resumes it.")
@click.option("--memory", type=click.FloatRange(min=0.001), default=8.0, show_default=True,
              metavar="GIB", help="The most memory the bitset of the code space may take "
                                  "(not used by the presets).")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Threads of a preset, each searching one of its units at a time "
                   "(default: every core).")
@click.option("--cluster", metavar="ADDRESS", default=None,
              help=f"Run a preset's units on the Dask scheduler at ADDRESS, like "
                   f"tcp://HOST:8786 ({CLUSTER_EXTRA}).")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@json_option
def search(board: str | None, pieces: str | None, goal: str | None, start: str | None,
           metric: str | None, rules: str | None, preset: str | None, compare: str | None,
           max_walls: int | None, output: str | None, memory: float, threads: int | None,
           cluster: str | None, quiet: bool, as_json: bool) -> None:
    """Every placement of the pieces on the board (walls included), split into clusters
    (the states that reach each other), with each cluster's states, solved states and
    hardest start: the state farthest from its nearest solved state.

    Prints the totals (--json: {"clusters", "states", "hardest": {"length", "start"}});
    -o writes every cluster.
    """
    limit = int(memory * 2**30)
    if compare is not None and preset != "rush-hour":
        raise InputError(f"--compare {compare}: only with --preset rush-hour")
    if max_walls is not None and preset != "rush-hour":
        raise InputError(f"--max-walls {max_walls}: only with --preset rush-hour")
    if max_walls is not None and not 0 <= max_walls <= 2:
        raise InputError(f"--max-walls {max_walls}: a Rush Hour board has 0 to 2 walls")
    if preset is not None:
        if board is not None or pieces is not None or goal is not None or start is not None:
            raise InputError(f"--preset {preset} sets the board, pieces and goal: give "
                             "none of --board, --pieces, --goal, --puzzle")
        job = _Job(threads or os.cpu_count() or 1, cluster, quiet)
        if preset == "rush-hour":
            _rush_hour(job, output, compare, 2 if max_walls is None else max_walls, as_json)
        else:
            _sbp_4x4(job, output, as_json)
        return
    if output is not None and Path(output).suffix.lower() not in TABLE_FORMATS:
        raise InputError(f"output {output!r}: the name must end in .parquet or .duckdb")
    if cluster is not None:
        raise InputError("--cluster runs the sets of pieces of a --preset on Dask workers; "
                         "the search of one set of pieces runs here")
    from huarong.puzzles.exhaustive import run, search_space

    with _input_errors():
        space = (_puzzle_space(start, goal, metric, rules, board, pieces) if start is not None
                 else search_space(*_required(board, pieces, goal), metric=metric or "step",
                                   rules=rules or "free"))
    checkpoint = None if output is None else Path(f"{output}.checkpoint.npz")
    announce_first_compile()
    try:
        with _input_errors(), progress_bar(not quiet) as progress, sigterm_unwinds():
            result = run(space, progress=progress, memory=limit, checkpoint=checkpoint)
    except BaseException as stop:
        if checkpoint is not None and checkpoint.is_file() and not isinstance(stop, Exception):
            click.echo(f"huarong: the search so far is saved in {checkpoint}: run the same "
                       "command again to go on", err=True)
        raise
    if output is not None:
        with machine_faults(output, "-o"):
            result.write(output)
        click.echo(f"written to {output} ({len(result):,} clusters)", err=True)
    _report(result, as_json)


def _required(board: str | None, pieces: str | None, goal: str | None
              ) -> tuple[str, str, str]:
    if board is None or pieces is None or goal is None:
        missing = [name for name, value in (("--board", board), ("--pieces", pieces),
                                            ("--goal", goal)) if value is None]
        raise InputError(f"search needs {', '.join(missing)} (or --puzzle, or --preset)")
    return board, pieces, goal


def _puzzle_space(start: str, goal: str | None, metric: str | None, rules: str | None,
                  board: str | None, pieces: str | None) -> SearchSpace:
    from huarong.puzzles import load_puzzle
    from huarong.puzzles.exhaustive import puzzle_space

    if board is not None or pieces is not None:
        raise InputError("--puzzle gives the board and pieces: give neither --board nor "
                         "--pieces")
    return puzzle_space(load_puzzle(start, goal, metric=metric, rules=rules))


def _report(result: SearchResult, as_json: bool) -> None:
    totals = result.totals()
    if as_json:
        click.echo(json.dumps(totals, ensure_ascii=False, indent=2))
        return
    click.echo(f"clusters: {totals['clusters']:,}")
    click.echo(f"states: {totals['states']:,}")
    echo_hardest(totals["hardest"], "no cluster holds a solved state")


@dataclass(frozen=True)
class _Job:
    """How a preset runs: on ``threads`` threads or on the Dask scheduler at ``cluster``;
    progress unless ``quiet``."""

    threads: int
    cluster: str | None
    quiet: bool


def checkpoint_directory(preset: str, output: str | None) -> Path:
    """Where a preset's finished units wait: beside ``output`` (``FILE.checkpoint``), or
    without one beside the database (``$HUARONG_DB``'s directory, by default
    ``~/.local/share/huarong``) as ``search-PRESET.checkpoint``."""
    if output is not None:
        return Path(f"{output}.checkpoint")
    from huarong.space.database import default_path

    return default_path().with_name(f"search-{preset}.checkpoint")


@contextmanager
def _preset_run(name: str, job: _Job, output: str | None, finished: str
                ) -> Iterator[tuple[Path, ProgressCallback]]:
    """Around a preset's job: its checkpoint directory and progress; its faults, Ctrl-C and
    SIGTERM each one line saying where its ``finished`` units are kept."""
    if job.cluster is not None:
        need_dask("--cluster")
    directory = checkpoint_directory(name, output)
    announce_first_compile()
    with _input_errors(), machine_faults(directory, "-o (or $HUARONG_DB)"), \
            resumable(directory, finished), sigterm_unwinds(), \
            progress_bar(not job.quiet) as progress:
        yield directory, progress


def _sbp_4x4(job: _Job, output: str | None, as_json: bool) -> None:
    """Bickford's table, one row per number of pieces, each record's start one row a
    line."""
    from huarong.puzzles.exhaustive import write_table
    from huarong.puzzles.jobs import finish
    from huarong.puzzles.presets.bickford import BICKFORD_LENGTHS, records_table, sbp_4x4

    with _preset_run("sbp-4x4", job, output, "finished seed groups") as (directory, progress):
        records = sbp_4x4(progress=progress, threads=job.threads, directory=directory,
                          cluster=job.cluster)
    rows = [{"pieces": r.pieces, "length": r.length, "start": r.start, "bickford": bickford,
             "puzzles": r.puzzles, "clusters": r.clusters, "states": r.states}
            for r, bickford in zip(records, BICKFORD_LENGTHS, strict=True)]
    if output is not None:
        table = records_table(records)
        with machine_faults(output, "-o"):
            write_table(table, output)
        click.echo(f"written to {output} ({table.num_rows} rows)", err=True)
    finish(directory)
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    header = "pieces  length  Bickford     puzzles   clusters       states  "
    click.echo(f"{header}start")
    for record, bickford in zip(records, BICKFORD_LENGTHS, strict=True):
        lines = grid_rows(record.start).splitlines() if record.start else ["-"]
        click.echo(f"{record.pieces:>6}  {record.length:>6}  {bickford:>8}  "
                   f"{record.puzzles:>10,}  {record.clusters:>9,}  {record.states:>11,}  "
                   f"{lines[0]}")
        for line in lines[1:]:
            click.echo(" " * len(header) + line)


def _print_rush_totals(rows: RushRows, max_walls: int) -> None:
    """The rows, their states and the hardest row, beside the published figures for that
    number of walls."""
    from huarong.puzzles.presets import rush_hour as rush

    hardest = rows.hardest()
    shown = "none" if hardest is None else f"{hardest[0]} {hardest[1]} {hardest[2]}"
    if max_walls == rush.MAX_WALLS:
        moves, board, size = rush.FOGLEMAN_HARDEST
        click.echo(f"rows: {len(rows):,} (Fogleman: {rush.FOGLEMAN_ROWS:,})")
        click.echo(f"states in them: {rows.total_states:,} (Fogleman: "
                   f"{rush.FOGLEMAN_STATES:,})")
        click.echo(f"hardest: {shown} (Fogleman: {moves} {board} {size})")
        return
    click.echo(f"rows with at most {max_walls} walls: {len(rows):,}")
    click.echo(f"states in them: {rows.total_states:,}")
    if max_walls == 0:
        moves, size = rush.NO_WALLS_HARDEST
        click.echo(f"hardest: {shown} (published: {moves} moves, {size} states)")
    else:
        click.echo(f"hardest: {shown}")


def _named(row: tuple[int, str, int]) -> dict[str, Any]:
    """A Rush Hour row (Fogleman's three columns) as JSON."""
    return dict(zip(("moves", "board", "cluster_size"), row, strict=True))


def _rush_hour(job: _Job, output: str | None, compare: str | None, max_walls: int,
               as_json: bool) -> None:
    """Fogleman's database (:mod:`huarong.puzzles.presets.rush_hour`), or its boards with at most
    ``max_walls`` walls: its totals beside the published ones, the rows to ``output``, the
    comparison with his ``compare`` file."""
    from huarong.puzzles.jobs import finish
    from huarong.puzzles.presets import rush_hour as rush

    if output is not None and Path(output).suffix.lower() not in RUSH_FORMATS:
        raise InputError(f"output {output!r}: the name must end in .txt, .parquet or .duckdb")
    if compare is not None:
        with _input_errors():
            for _ in rush.read_rows(compare):
                pass  # a bad file is refused before the long search, not after it
    with _preset_run("rush-hour", job, output, "finished units") as (directory, progress):
        rows = rush.rush_hour(max_walls=max_walls, threads=job.threads, directory=directory,
                              cluster=job.cluster,
                              progress=lambda done, total: progress("units", done, total))
    if output is not None:
        with machine_faults(output, "-o"):
            rows.write(output)
        click.echo(f"written to {output} ({len(rows):,} rows)", err=True)
    finish(directory)
    comparison = None
    if compare is not None:
        with _input_errors(), machine_faults(compare, "--compare", "read"):
            comparison = rush.compare(rows, compare, COMPARE_EXAMPLES)
    hardest = rows.hardest()
    totals: dict[str, Any] = {
        "max_walls": max_walls, "rows": len(rows), "states": rows.total_states,
        "hardest": None if hardest is None else _named(hardest)}
    if max_walls == rush.MAX_WALLS:
        totals["fogleman"] = {"rows": rush.FOGLEMAN_ROWS, "states": rush.FOGLEMAN_STATES,
                              "hardest": _named(rush.FOGLEMAN_HARDEST)}
    elif max_walls == 0:
        totals["published"] = dict(zip(("moves", "cluster_size"), rush.NO_WALLS_HARDEST,
                                       strict=True))
    if comparison is not None:
        totals["compare"] = {"file": compare, "rows": comparison.theirs,
                             "missing": comparison.missing, "extra": comparison.extra,
                             "different": comparison.different,
                             "examples": comparison.examples}
    if as_json:
        click.echo(json.dumps(totals, indent=2))
    else:
        _print_rush_totals(rows, max_walls)
        if comparison is not None:
            click.echo(f"{compare}: {comparison.theirs:,} rows; missing {comparison.missing:,}, "
                       f"extra {comparison.extra:,}, different {comparison.different:,}")
            for kind in ("missing", "extra", "different"):
                for line in comparison.examples[kind]:
                    click.echo(f"  {kind}: {line}")
    if comparison is not None and not comparison.same:
        raise click.exceptions.Exit(1)
