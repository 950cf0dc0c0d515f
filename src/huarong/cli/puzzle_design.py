"""``huarong puzzle design``: the hardest starts of a board too big to enumerate, by the
design search (:mod:`huarong.puzzles.design_search`).

Bad specifications end with one line and exit status 2 (:mod:`huarong.cli._common`)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from huarong.cli._cluster import CLUSTER_EXTRA, need_dask
from huarong.cli._common import (
    OUTPUT,
    InputError,
    MachineFault,
    json_option,
    machine_faults,
    progress_bar,
    sigterm_unwinds,
)
from huarong.cli.puzzle_search import TABLE_FORMATS, board_options, grid_rows, input_errors
from huarong.puzzles.presets import design_presets

if TYPE_CHECKING:
    from huarong.puzzles.design import DesignSpace
    from huarong.puzzles.design_search import DesignResult



@click.command("design")
@board_options(board="  With --preset rush-hour, its size (default 6x6).",
               pieces=", *A-B for A to B of them, as 2x2,1x2*0-4,2x1*0-4,1x1*2-6; "
                      "anyA-B for every other polyomino of A to B cells (anyA-B*L-H: L to "
                      "H of them), as 2x2,any1-4",
               puzzle=", as many pieces as it has")
@click.option("--preset", type=click.Choice(list(design_presets())), default=None,
              help="; ".join(f"{name}: {preset.design_help}"
                             for name, preset in design_presets().items()) + ".")
@click.option("--walls", metavar="MIN-MAX", default=None,
              help="How many walls a start may add on free cells (default 0; 0-2 with "
                   "--preset rush-hour).")
@click.option("--empty", metavar="MIN-MAX", default=None,
              help="How many cells a start leaves empty (default: any number).  Few empty "
                   "cells keep clusters small: Klotski leaves 2.")
@click.option("--minimal/--no-minimal", default=True, show_default=True,
              help="Keep only starts where every piece (and added wall) matters: without it "
                   "the start is solved in fewer moves.")
@click.option("--budget", default="1m", show_default=True, metavar="TIME|N",
              help="How long: a time (90s, 10m, 1h) or a number of evaluations (5000).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="The seed of the chains' random numbers: one thread and a budget of "
                   "evaluations give the same answer every time.")
@click.option("--method", type=click.Choice(("anneal", "climb", "tabu", "elites")),
              default=None,
              help="anneal: a chain also moves to easier clusters, less often as the budget "
                   "runs out; climb: only to clusters at least as hard, restarting when it "
                   "finds nothing harder; tabu: to the hardest of 8 changes, easier or not, "
                   "never back to its last 50 clusters; elites: a population, the hardest of "
                   "each niche (piece counts, walls, where the goal piece starts) kept and "
                   "changed or crossed.  Default: the best measured for the board (the "
                   "design page of the documentation).")
@click.option("--objective", type=click.Choice(("length", "difficulty")), default="length",
              show_default=True,
              help="What the chains make as large as they can: the hardest start's fewest "
                   "moves, or its predicted median time to solve for a person (the "
                   "difficulty model, fitted on Rush Hour play: other boards extrapolate); "
                   "each new cluster is then searched once more.")
@click.option("--stop-at", "stop_at", type=click.IntRange(min=1), default=None,
              metavar="MOVES", help="Stop a chain once it finds a start of this many moves.")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Chains, one a thread (default: every core; with --cluster, one a "
                   "worker thread).")
@click.option("--cluster", metavar="ADDRESS", default=None,
              help="Run the chains on the Dask cluster whose scheduler is at ADDRESS (like "
                   f"tcp://host:8786; pip install '{CLUSTER_EXTRA}'), in rounds of 10 s.")
@click.option("--max-states", type=click.IntRange(min=1), default=1_000_000,
              show_default=True,
              help="Value no cluster of more states (a board with much room holds clusters "
                   "of millions, each seconds to minutes to search).")
@click.option("--keep", type=click.IntRange(min=1), default=100, show_default=True,
              help="The best distinct clusters kept and written.")
@click.option("-o", "--output", type=OUTPUT, default=None,
              help="Write the best clusters, hardest first, to FILE.parquet or FILE.duckdb "
                   "(a search result file: serve --search browses it).  The run is saved "
                   "in the directory FILE.checkpoint every 30 s and when stopped; the same "
                   "command resumes it.")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@json_option
def design(board: str | None, pieces: str | None, goal: str | None, start: str | None,
           preset: str | None, metric: str | None, rules: str | None, walls: str | None,
           empty: str | None, minimal: bool, budget: str, seed: int, method: str | None,
           objective: str, stop_at: int | None,
           threads: int | None, cluster: str | None, max_states: int, keep: int,
           output: str | None,
           quiet: bool, as_json: bool) -> None:
    """The hardest starts the pieces allow on the board, found by a stochastic search
    where enumeration cannot reach: each candidate's value is its cluster's hardest
    length, by the engine; each cluster is searched once.

    Prints the best (--json: {"length", "start", "states", "evaluations", "clusters",
    "seconds"}); -o writes the best clusters.  Ctrl-C keeps what was found.
    """
    from huarong.puzzles.design_search import Budget, default_method
    from huarong.puzzles.design_search import design as run_design
    from huarong.puzzles.design_spaces import parse_range

    if output is not None and Path(output).suffix.lower() not in TABLE_FORMATS:
        raise InputError(f"output {output!r}: the name must end in .parquet or .duckdb")
    with input_errors():
        space = _space(board, pieces, goal, start, preset, metric, rules, walls)
        if empty is not None:
            space = dataclasses.replace(space, empty=parse_range(empty, "empty cells"))
        chosen = Budget.parse(budget)
    if cluster is not None:
        need_dask("--cluster")
    checkpoint = None if output is None else Path(f"{output}.checkpoint")
    with input_errors(), _cluster_faults(), progress_bar(not quiet) as progress, \
            sigterm_unwinds():
        result = run_design(space, chosen, seed=seed, chains=threads, minimal=minimal,
                            keep=keep, method=method or default_method(
                                preset or ("puzzle" if start is not None else "pieces")),
                            target=stop_at, objective=objective,
                            max_states=max_states, cluster=cluster,
                            checkpoint=checkpoint, progress=progress)
    _report(result, as_json)  # first: a file that cannot be written loses no answer
    if output is not None:
        with machine_faults(output, "-o"):
            result.write(output)
        click.echo(f"written to {output} ({len(result.rows):,} clusters)", err=True)
    if result.used_up:
        click.echo("huarong: the chains met only clusters met before for a long while: "
                   "this space is used up", err=True)
    if result.stopped:
        if checkpoint is not None:
            click.echo(f"huarong: stopped; the run is saved in {checkpoint}: run the same "
                       "command again to go on", err=True)
        raise click.exceptions.Exit(130)


@contextlib.contextmanager
def _cluster_faults() -> Iterator[None]:
    """An unreachable scheduler is bad input, a lost cluster a fault of the machine: one
    line each."""
    from huarong.workers import ClusterLost, SchedulerUnreachable

    try:
        yield
    except SchedulerUnreachable as error:
        raise InputError(str(error)) from None
    except ClusterLost as error:
        raise MachineFault(str(error)) from None


def _space(board: str | None, pieces: str | None, goal: str | None, start: str | None,
           preset: str | None, metric: str | None, rules: str | None, walls: str | None
           ) -> DesignSpace:
    from huarong.puzzles.design_spaces import parse_range, space_of, space_of_puzzle

    wall_range = None if walls is None else parse_range(walls)
    if preset is not None:
        if pieces is not None or goal is not None or start is not None:
            raise InputError(f"--preset {preset} sets the pieces and goal: give none of "
                             "--pieces, --goal, --puzzle")
        if metric is not None or rules is not None:
            raise InputError(f"--preset {preset} sets the metric and rules")
        rows, columns = _size(board) if board is not None else (None, None)
        return design_presets()[preset].design_space(rows, columns, wall_range)
    if start is not None:
        from huarong.puzzles import load_puzzle

        if board is not None or pieces is not None:
            raise InputError("--puzzle gives the board and pieces: give neither --board nor "
                             "--pieces")
        return space_of_puzzle(load_puzzle(start, goal, metric=metric, rules=rules),
                               walls=wall_range or (0, 0))
    if board is None or pieces is None or goal is None:
        missing = [name for name, value in (("--board", board), ("--pieces", pieces),
                                            ("--goal", goal)) if value is None]
        raise InputError(f"design needs {', '.join(missing)} (or --puzzle, or --preset)")
    return space_of(board, pieces, goal, metric=metric or "step", rules=rules or "free",
                    walls=wall_range or (0, 0))


def _size(text: str) -> tuple[int, int]:
    from huarong.puzzles.specs import parse_cells

    rows, columns, walls = parse_cells(text)
    if walls:
        raise InputError(f"--board {text}: a Rush Hour board is RxC, its walls the design's")
    return rows, columns


def _report(result: DesignResult, as_json: bool) -> None:
    summary = result.summary()
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False, indent=2))
        return
    click.echo(f"evaluations: {summary['evaluations']:,} in {summary['seconds']} s, "
               f"clusters: {summary['clusters']:,}")
    if summary["length"] is None:
        click.echo("hardest: none found")
        return
    click.echo(f"hardest: {summary['length']} moves ({summary['states']:,} states) from")
    click.echo(grid_rows(summary["start"]))
