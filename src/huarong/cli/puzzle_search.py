"""``huarong puzzle search``: every placement of a set of pieces on a board, split into
clusters, each cluster's hardest start; or a preset search by another author's definitions.

Bad specifications end with one line and exit status 2 (:mod:`huarong.cli._common`)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
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
    refused_as,
    sigterm_unwinds,
)

if TYPE_CHECKING:
    from huarong.puzzles.board import Board
    from huarong.puzzles.exhaustive import SearchResult
    from huarong.puzzles.presets import Preset

TABLE_FORMATS = (".parquet", ".duckdb")


def input_errors() -> contextlib.AbstractContextManager[None]:
    """The engine's refusals of a puzzle as one line and exit status 2."""
    from huarong.puzzles import PuzzleError

    return refused_as(PuzzleError)


def grid_rows(grid: str) -> str:
    """Grid text one row a line, as a terminal shows a board."""
    return grid.replace("/", "\n")


def echo_counts(answer: dict[str, Any], counts: tuple[str, ...], when_none: str,
                as_json: bool) -> None:
    """Print ``answer`` as JSON, or its ``counts`` one a line and its hardest start."""
    if as_json:
        click.echo(json.dumps(answer, ensure_ascii=False, indent=2))
        return
    for name in counts:
        click.echo(f"{name}: {answer[name]:,}")
    echo_hardest(answer["hardest"], when_none)


def echo_hardest(hardest: dict[str, Any] | None, when_none: str) -> None:
    """Print a hardest start (``{"length", "start"}``) with its board, or ``when_none``."""
    if hardest is None:
        click.echo(f"hardest: none ({when_none})")
    else:
        click.echo(f"hardest: {hardest['length']} moves from")
        click.echo(grid_rows(hardest["start"]))


def _with_preset_options(command: Callable[..., None]) -> Callable[..., None]:
    """The command with ``--preset`` (every preset the registry finds) and each preset's
    own options."""
    from huarong.puzzles.presets import preset_options, presets

    found = presets()
    for option in reversed(preset_options().values()):
        takers = [name for name, preset in found.items() if option in preset.options]
        command = click.option(option.flag, option.name, type=option.kind, default=None,
                               metavar=option.metavar,
                               help=f"With --preset {' or '.join(takers)}: {option.help}"
                               )(command)
    described = "; ".join(f"{name} is {preset.summary}" for name, preset in found.items())
    return click.option(
        "--preset", type=click.Choice(list(found)), default=None,
        help=f"A search by another author's definitions instead: {described}.")(command)


def board_options(*, board: str, pieces: str, puzzle: str
                  ) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The options that say what a search or a design places: --board, --pieces, --goal,
    --puzzle, --metric and --rules, with the words of ``board``, ``pieces`` and ``puzzle``
    added to their help."""
    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        for option in reversed((
                click.option("--board", metavar="RxC|GRID",
                             help="The board: RxC, or grid text with '.' cells and '#' walls "
                                  f"(rows joined by '/').{board}"),
                click.option("--pieces", metavar="SPEC",
                             help=f"The pieces: rows x columns, *N for N alike{pieces}."),
                click.option("--goal", metavar="SHAPE@ROW,COL",
                             help="A piece of that shape with its top-left cell there (from "
                                  "0), as 2x2@3,1."),
                click.option("--puzzle", "start", metavar="START", default=None,
                             help="Instead of --board, --pieces and --goal: the board, "
                                  "pieces (any shapes), goal, rules and metric of a puzzle "
                                  "(a .toml file, a catalogue name, grid text with --goal as "
                                  f"a grid...){puzzle}."),
                click.option("--metric", type=click.Choice(["unit", "slide", "step"]),
                             default=None,
                             help="What one move is: one cell, any distance in one "
                                  "direction, or anywhere the piece reaches alone (default: "
                                  "step, or the puzzle's)."),
                click.option("--rules", type=click.Choice(["free", "length"]), default=None,
                             help="free: every piece moves in four directions; length: a 1xk "
                                  "or kx1 piece only along its length (default: free, or the "
                                  "puzzle's)."))):
            command = option(command)
        return command

    return decorate


@click.command("search")
@board_options(board="", pieces=", as 2x2,1x2,2x1*2,1x1*4",
               puzzle=", every placement of its pieces")
@_with_preset_options
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
           metric: str | None, rules: str | None, preset: str | None, output: str | None,
           memory: float, threads: int | None, cluster: str | None, quiet: bool,
           as_json: bool, **preset_settings: Any) -> None:
    """Every placement of the pieces on the board (walls included), split into clusters
    (the states that reach each other), with each cluster's states, solved states and
    hardest start: the state farthest from its nearest solved state.

    Prints the totals (--json: {"clusters", "states", "hardest": {"length", "start"}});
    -o writes every cluster.
    """
    from huarong.puzzles.presets import presets

    chosen = None if preset is None else presets()[preset]
    settings = {name: value for name, value in preset_settings.items() if value is not None}
    _refuse_options_not_taken(chosen, settings)
    if chosen is not None:
        if board is not None or pieces is not None or goal is not None or start is not None:
            raise InputError(f"--preset {preset} sets the board, pieces and goal: give "
                             "none of --board, --pieces, --goal, --puzzle")
        _run_preset(chosen, settings, _Job(threads or os.cpu_count() or 1, cluster, quiet),
                    output, as_json)
        return
    if output is not None and Path(output).suffix.lower() not in TABLE_FORMATS:
        raise InputError(f"output {output!r}: the name must end in .parquet or .duckdb")
    if cluster is not None:
        raise InputError("--cluster runs the sets of pieces of a --preset on Dask workers; "
                         "the search of one set of pieces runs here")
    from huarong.puzzles.exhaustive import run
    from huarong.puzzles.specs import board_of

    with input_errors():
        searched = (_puzzle_board(start, goal, metric, rules, board, pieces)
                    if start is not None
                    else board_of(*_required(board, pieces, goal), metric=metric or "step",
                                  rules=rules or "free"))
    checkpoint = None if output is None else Path(f"{output}.checkpoint.npz")
    announce_first_compile()
    try:
        with input_errors(), progress_bar(not quiet) as progress, sigterm_unwinds():
            result = run(searched, progress=progress, memory=int(memory * 2**30),
                         checkpoint=checkpoint)
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


def _refuse_options_not_taken(chosen: Preset | None, settings: dict[str, Any]) -> None:
    """One line for a preset's option given without a preset that takes it."""
    from huarong.puzzles.presets import preset_options, presets

    for name, value in settings.items():
        option = preset_options()[name]
        if chosen is None or option not in chosen.options:
            takers = [p.name for p in presets().values() if option in p.options]
            raise InputError(f"{option.flag} {value}: only with --preset "
                             f"{' or '.join(takers)}")


def _required(board: str | None, pieces: str | None, goal: str | None
              ) -> tuple[str, str, str]:
    if board is None or pieces is None or goal is None:
        missing = [name for name, value in (("--board", board), ("--pieces", pieces),
                                            ("--goal", goal)) if value is None]
        raise InputError(f"search needs {', '.join(missing)} (or --puzzle, or --preset)")
    return board, pieces, goal


def _puzzle_board(start: str, goal: str | None, metric: str | None, rules: str | None,
                  board: str | None, pieces: str | None) -> Board:
    from huarong.puzzles import load_puzzle
    from huarong.puzzles.specs import puzzle_board

    if board is not None or pieces is not None:
        raise InputError("--puzzle gives the board and pieces: give neither --board nor "
                         "--pieces")
    return puzzle_board(load_puzzle(start, goal, metric=metric, rules=rules))


def _report(result: SearchResult, as_json: bool) -> None:
    echo_counts(result.totals(), ("clusters", "states"), "no cluster holds a solved state",
                as_json)


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
    with input_errors(), machine_faults(directory, "-o (or $HUARONG_DB)"), \
            resumable(directory, finished), sigterm_unwinds(), \
            progress_bar(not job.quiet) as progress:
        yield directory, progress


def _run_preset(preset: Preset, settings: dict[str, Any], job: _Job, output: str | None,
                as_json: bool) -> None:
    """A preset's job, its answer written to ``output`` and printed (as JSON or as its
    report); exit status 1 when the answer disagrees with what it was checked against."""
    from huarong.puzzles.jobs import finish
    from huarong.puzzles.presets import run_preset

    if output is not None and Path(output).suffix.lower() not in preset.outputs:
        raise InputError(f"output {output!r}: the name must end in "
                         f"{', '.join(preset.outputs[:-1])} or {preset.outputs[-1]}")
    with input_errors():
        preset.check(settings)
    with _preset_run(preset.name, job, output, f"finished {preset.unit_name}"
                     ) as (directory, progress):
        found = run_preset(preset, settings, threads=job.threads, directory=directory,
                           cluster=job.cluster, progress=progress)
    if output is not None:
        with machine_faults(output, "-o"):
            written = preset.write(found, Path(output))
        click.echo(f"written to {output} ({written:,} rows)", err=True)
    finish(directory)
    with input_errors():
        totals = preset.totals(found, settings)
    if as_json:
        click.echo(json.dumps(totals, indent=2))
    else:
        for line in preset.report(found, totals):
            click.echo(line)
    if preset.failed(totals):
        raise click.exceptions.Exit(1)
