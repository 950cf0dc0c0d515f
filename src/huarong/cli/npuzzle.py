"""``huarong npuzzle``: solve 8-puzzles and N x M sliding-tile puzzles, compare algorithms,
build pattern databases and count the state space."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any

import click
from rich.console import Console
from rich.table import Table

from huarong import npuzzle
from huarong.cli._common import (
    PROGRESS_INTERVAL,
    MachineFault,
    exit_without_solution,
    machine_faults,
    progress_bar,
    refused_as,
)
from huarong.fileio import check_free_space
from huarong.npuzzle import Algorithm, Board, NPuzzleError, Outcome, SearchProgress, SolveResult

_ALGORITHM_CHOICES = [npuzzle.AUTO, *(a.value for a in Algorithm), "all"]


class _InputError(click.ClickException):
    """Bad input: one line on stderr, exit status 2, no usage text."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"huarong npuzzle: {self.message}", err=True)


def _input_errors() -> contextlib.AbstractContextManager[None]:
    """The library's input errors as an :class:`_InputError`."""
    return refused_as(NPuzzleError, _InputError)


@contextmanager
def _progress_bar(description: str, enabled: bool = True
                  ) -> Iterator[Callable[[int, int], None]]:
    """Progress of one phase on stderr: a bar on a terminal, a line every few seconds
    otherwise, nothing when not ``enabled`` (:func:`huarong.cli._common.progress_bar`)."""
    with progress_bar(enabled) as update:
        yield lambda done, total: update(description, done, total)


def _progress_text(progress: SearchProgress) -> str:
    return (f"{progress.algorithm.value}: bound {progress.bound}, {progress.nodes:,} nodes, "
            f"{progress.rate / 1e6:.1f} M nodes/s, {progress.seconds:.0f} s")


_QUIET_SECONDS = 1.0
"""A search shorter than this shows no progress on a terminal (no flicker)."""


@contextmanager
def _search_progress(enabled: bool) -> Iterator[npuzzle.Watch | None]:
    """How far a long search has got, on stderr: a line that updates itself on a terminal (or
    with ``HUARONG_PROGRESS=1``), else a plain line every
    :data:`~huarong.cli._common.PROGRESS_INTERVAL` seconds; nothing when not ``enabled``."""
    if not enabled:
        yield None
        return
    if not (sys.stderr.isatty() or os.environ.get("HUARONG_PROGRESS")):
        said = time.monotonic()

        def line(progress: SearchProgress) -> None:
            nonlocal said
            if time.monotonic() - said >= PROGRESS_INTERVAL:
                said = time.monotonic()
                click.echo(f"huarong: {_progress_text(progress)}", err=True)

        yield line
        return
    status = Console(stderr=True).status("")
    started = False

    def show(progress: SearchProgress) -> None:
        nonlocal started
        if progress.seconds < _QUIET_SECONDS:
            return
        status.update(_progress_text(progress))
        if not started:
            status.start()
            started = True

    try:
        yield show
    finally:
        status.stop()


def _databases_used(start: Board, target: Board, algorithm: str) -> set[Algorithm]:
    """The pattern databases the search will read, so that they are built (with their
    progress bar) before it starts and its own progress shows alone."""
    if not npuzzle.is_solvable(start, target):
        return set()
    if algorithm == "all":
        return {Algorithm.PDB} if start.cells <= npuzzle.MAX_PATTERN_CELLS else set()
    chosen = (npuzzle.best_algorithm(start, target) if algorithm == npuzzle.AUTO
              else Algorithm(algorithm))
    return {chosen} & {Algorithm.PDB, Algorithm.PDB78}


def _read_board(text: str, size: str | None) -> Board:
    if size is None:
        return Board.parse(text)
    rows, cols = npuzzle.parse_size(size)
    return Board.parse(text, rows=rows, cols=cols)


def _result_json(result: SolveResult) -> dict[str, Any]:
    return {
        "algorithm": result.algorithm.value,
        "outcome": result.outcome.value,
        "steps": result.steps,
        "optimal": result.optimal,
        "lower_bound": result.lower_bound,
        "fell_back_from": result.fell_back_from and result.fell_back_from.value,
        "moves": result.moves,
        "nodes_expanded": result.nodes_expanded,
        "peak_frontier": result.peak_frontier,
        "seconds": result.seconds,
        "path": [board.tiles for board in result.path],
    }


def _print_path(result: SolveResult) -> None:
    # The seed prints every board after the start, each preceded by a rule.
    for board in result.path[1:]:
        click.echo("------")
        click.echo(board.grid())


def _stopped(result: SolveResult, time_limit: float | None) -> str:
    """One line on a search that ended without an answer: how far it got."""
    if result.outcome is Outcome.NOT_FOUND:
        return f"{result.algorithm.value}: {result.outcome.value}"
    limit = (f"time limit of {time_limit:g} s" if result.outcome is Outcome.TIME_LIMIT
             else "node limit")
    proved = ("" if result.lower_bound is None else
              f" at bound {result.lower_bound} (no solution is shorter)")
    return (f"{result.algorithm.value}: {limit} reached{proved} after "
            f"{result.nodes_expanded:,} nodes")


def _print_single(result: SolveResult, show_path: bool) -> None:
    if result.fell_back_from is not None:
        click.echo(f"{result.fell_back_from.title}: time limit reached at bound "
                   f"{result.lower_bound} (no solution is shorter); answered by "
                   f"{result.algorithm.value} instead")
    optimality = "optimal" if result.optimal else "NOT optimal"
    click.echo(f"{result.algorithm.title}: time = {result.seconds * 1000:.2f} ms, "
               f"{result.steps} step(s) ({optimality}), {result.nodes_expanded:,} nodes "
               f"expanded, moves {result.moves or '-'}")
    if show_path:
        _print_path(result)


def _print_table(results: list[SolveResult], show_path: bool) -> None:
    table = Table(title="Algorithms compared")
    for heading in ("algorithm", "steps", "optimal", "time (ms)", "nodes expanded",
                    "peak frontier"):
        table.add_column(heading, justify="left" if heading == "algorithm" else "right")
    for result in results:
        table.add_row(
            result.algorithm.value,
            str(result.steps) if result.solved else result.outcome.value,
            "yes" if result.optimal else "no" if result.solved else "-",
            f"{result.seconds * 1000:.2f}",
            f"{result.nodes_expanded:,}",
            f"{result.peak_frontier:,}",
        )
    Console().print(table)
    if show_path:
        for result in results:
            if result.solved:
                click.echo(f"\n{result.algorithm.title}: {result.steps} step(s):")
                _print_path(result)


@click.group("npuzzle")
def npuzzle_group() -> None:
    """The 8-puzzle (重排九宫) and N x M sliding-tile puzzles.

    Boards are numbers in row order, 0 for the blank: "2 8 3 1 0 4 7 6 5", "2,8,3,...",
    or one row per line or per "/" ("2 8 3 / 1 0 4 / 7 6 5").  The default goal on 3x3 is the
    seed's 1 2 3 / 8 0 4 / 7 6 5; "standard" is 1..N-1 then the blank.
    """


_goal_option = click.option(
    "--goal", default=None, metavar="GOAL",
    help="Goal board, 'standard' (1..N-1, 0) or 'seed' (1 2 3 / 8 0 4 / 7 6 5).")
_size_option = click.option("--size", default=None, metavar="ROWSxCOLS",
                            help="Board size when a flat list is not square, e.g. 3x4.")
_json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def _board_of_goal(size: str, cells: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--size`` (default ``size``, at most ``cells`` cells) and ``--goal``: the board a
    command of the state space or the pattern databases works on."""
    size_option = click.option("--size", default=size, show_default=True, metavar="ROWSxCOLS",
                               help=f"Board size (at most {cells} cells).")

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        return size_option(_goal_option(command))

    return decorate


@npuzzle_group.command("solve")
@click.argument("board")
@_goal_option
@_size_option
@click.option("--algo", "algorithm", type=click.Choice(_ALGORITHM_CHOICES),
              default=npuzzle.AUTO, show_default=True,
              help="Search algorithm; 'auto' picks the fastest optimal one up to 4x4 "
                   "(pdb-7-8 once built) and, beyond 16 cells, 'reduction': fast (an 11x11 "
                   "in well under a second) but NOT optimal, as the output says; 'all' "
                   "compares them side by side.")
@click.option("--depth-bound", type=click.IntRange(min=0), default=npuzzle.DEFAULT_DEPTH_BOUND,
              show_default=True, help="Depth bound of the bounded DFS.")
@click.option("--max-nodes", type=click.IntRange(min=1), default=None,
              help="Give up after this many stored (BFS, A*, DFS) or expanded (IDA*) nodes.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="SECONDS",
              help="Stop the search after this long (loading databases not counted): with "
                   "'auto' the reduction then answers (not optimal), else the command ends "
                   "with status 1 and says the bound it reached (no solution is shorter).")
@click.option("--show-path", is_flag=True, help="Print every board of the solution.")
@click.option("-q", "--quiet", is_flag=True,
              help="No progress on stderr (a long search shows its bound, nodes and rate "
                   "there every few seconds).")
@_json_option
def solve_command(board: str, goal: str | None, size: str | None, algorithm: str,
                  depth_bound: int, max_nodes: int | None, time_limit: float | None,
                  show_path: bool, quiet: bool, as_json: bool) -> None:
    """Solve BOARD; an unsolvable board is reported at once, without searching.

    Exit status 1 when the board has no solution or the search ended without one (a limit,
    the DFS depth bound); Ctrl-C stops a search within a second.
    """
    with _input_errors():
        start = _read_board(board, size)
        target = npuzzle.parse_goal(goal, start.rows, start.cols)
        options: dict[str, Any] = {"depth_bound": depth_bound, "max_nodes": max_nodes,
                                   "time_limit": time_limit}
        databases = _databases_used(start, target, algorithm)
        with _progress_bar("Building pattern databases", not quiet) as report:
            if Algorithm.PDB in databases:
                npuzzle.pattern_database(target, progress=report)
            if Algorithm.PDB78 in databases:
                npuzzle.compact_pattern_database(target, progress=report)
        with _search_progress(not quiet) as watch:
            if algorithm == "all":
                results = npuzzle.compare(start, target, watch=watch, **options)
            else:
                results = [npuzzle.solve(start, target, algorithm, watch=watch, **options)]
    stopped = (algorithm != "all" and npuzzle.is_solvable(start, target)
               and not results[0].solved)
    if as_json:
        click.echo(json.dumps({
            "board": start.tiles, "goal": target.tiles, "rows": start.rows,
            "cols": start.cols, "solvable": npuzzle.is_solvable(start, target),
            "results": [_result_json(r) for r in results],
        }, indent=2))
        if not npuzzle.is_solvable(start, target) or stopped:
            exit_without_solution()
        return
    click.echo(f"input:\n{start.grid()}\ngoal:\n{target.grid()}")
    if not npuzzle.is_solvable(start, target):
        click.echo("No solution!")
        exit_without_solution()
    if stopped:
        click.echo(f"huarong npuzzle: {_stopped(results[0], time_limit)}", err=True)
        exit_without_solution()
    if algorithm == "all":
        _print_table(results, show_path)
    else:
        _print_single(results[0], show_path)


@npuzzle_group.command("info")
@click.argument("board")
@_goal_option
@_size_option
@_json_option
def info_command(board: str, goal: str | None, size: str | None, as_json: bool) -> None:
    """Cantor rank, inversions and solvability of BOARD."""
    with _input_errors():
        start = _read_board(board, size)
        target = npuzzle.parse_goal(goal, start.rows, start.cols)
        facts = {"board": start.line(), "size": start.size, "rank": npuzzle.rank(start),
                 "inversions": npuzzle.inversions(start), "goal": target.line(),
                 "goal_inversions": npuzzle.inversions(target),
                 "solvable": npuzzle.is_solvable(start, target)}
    if as_json:
        click.echo(json.dumps(facts, indent=2))
        return
    for key, value in facts.items():
        click.echo(f"{key}: {value}")


@npuzzle_group.command("space")
@_board_of_goal("3x3", 10)
@_json_option
def space_command(size: str, goal: str | None, as_json: bool) -> None:
    """Count every position that reaches the goal, by distance."""
    with _input_errors():
        rows, cols = npuzzle.parse_size(size)
        space = npuzzle.state_space(rows, cols, npuzzle.parse_goal(goal, rows, cols))
    if as_json:
        click.echo(json.dumps({
            "size": space.goal.size, "goal": space.goal.tiles, "reachable": space.reachable,
            "max_distance": space.max_distance, "histogram": space.histogram,
            "farthest": [b.tiles for b in space.farthest]}, indent=2))
        return
    click.echo(f"goal:\n{space.goal.grid()}")
    click.echo(f"reachable states: {space.reachable:,}")
    click.echo(f"maximum distance: {space.max_distance}, reached by {len(space.farthest)} "
               f"state(s):")
    for board in space.farthest:
        click.echo("------")
        click.echo(board.grid())
    table = Table(title="States by distance to the goal")
    table.add_column("distance", justify="right")
    table.add_column("states", justify="right")
    for distance, count in enumerate(space.histogram):
        table.add_row(str(distance), f"{count:,}")
    Console().print(table)


@npuzzle_group.group("pdb", invoke_without_command=True)
@click.pass_context
def pdb_group(context: click.Context) -> None:
    """Build or inspect the cached pattern databases (the 7-8 pair for the 15-puzzle)."""
    if context.invoked_subcommand is None:
        click.echo(context.get_help())


_kind_option = click.option(
    "--kind", type=click.Choice(["7-8", "6-6-3", "all"]), default="7-8", show_default=True,
    help="Which databases: the compact ones IDA* uses for pdb-7-8 (7 + 8 tiles on 4x4, "
         "halves elsewhere) or the smaller ones of pdb.")


def _pdb_goal(size: str, goal: str | None) -> Board:
    rows, cols = npuzzle.parse_size(size)
    return npuzzle.parse_goal(goal, rows, cols)


_CACHE_PLACE = "$HUARONG_CACHE_DIR"


def _room_needed(target: Board, kind: str) -> int:
    """Bytes the databases of ``kind`` not cached yet will take (a pdb table holds at most
    one byte per arrangement of its tiles)."""
    import math

    missing = 0
    if kind in ("7-8", "all"):
        missing += sum(npuzzle.compact_entries(target, group)
                       for group, path in npuzzle.compact_pattern_files(target)
                       if not path.exists())
    if kind in ("6-6-3", "all"):
        missing += sum(math.perm(target.cells, len(group))
                       for group in npuzzle.pattern_groups(target))
    return missing


def _check_stored(target: Board) -> None:
    """The cache is what ``pdb build`` is for: one it could not store is a fault (solving
    without it only rebuilds)."""
    for group, path in npuzzle.compact_pattern_files(target):
        if npuzzle.compact_file_status(target, group, path) != "ok":
            raise MachineFault(f"cannot write {path}: the pattern database was built but "
                               f"could not be stored; check the space and permissions of "
                               f"{path.parent}, or choose another place with {_CACHE_PLACE}")


@pdb_group.command("build")
@_board_of_goal("4x4", 16)
@_kind_option
@click.option("-q", "--quiet", is_flag=True, help="No progress.")
def pdb_build_command(size: str, goal: str | None, kind: str, quiet: bool) -> None:
    """Build the pattern databases for a goal (or check the cached ones)."""
    with _input_errors():
        target = _pdb_goal(size, goal)
        cache = npuzzle.cache_directory()
        with machine_faults(cache, _CACHE_PLACE):
            check_free_space(cache, _room_needed(target, kind))
        with _progress_bar("Building pattern databases", not quiet) as report:
            if kind in ("6-6-3", "all"):
                database = npuzzle.pattern_database(target, progress=report)
                groups = " + ".join(str(len(group)) for group in database.groups)
                click.echo(f"pdb databases ({groups} tiles) for goal {target.line()} are ready")
            if kind in ("7-8", "all"):
                compact = npuzzle.compact_pattern_database(target, progress=report)
                groups = " + ".join(str(len(group)) for group in compact.groups)
                _check_stored(target)
                click.echo(f"pdb-7-8 databases ({groups} tiles, {compact.entries:,} bytes) "
                           f"for goal {target.line()} are ready")
    click.echo(f"cache: {npuzzle.cache_directory() / 'npuzzle'}")


@pdb_group.command("info")
@_board_of_goal("4x4", 16)
@_json_option
def pdb_info_command(size: str, goal: str | None, as_json: bool) -> None:
    """Where the pdb-7-8 databases of a goal are cached, their size and whether their
    checksum holds."""
    with _input_errors():
        target = _pdb_goal(size, goal)
        files = npuzzle.compact_pattern_files(target)
        rows: list[dict[str, Any]] = []
        for group, path in files:
            rows.append({"tiles": list(group), "entries": npuzzle.compact_entries(target, group),
                         "file": str(path), "status": npuzzle.compact_file_status(target, group,
                                                                                  path)})
    if as_json:
        click.echo(json.dumps({"goal": target.tiles, "databases": rows}, indent=2))
        return
    click.echo(f"goal: {target.line()}")
    for row in rows:
        click.echo(f"{len(row['tiles'])} tiles ({' '.join(map(str, row['tiles']))}): "
                   f"{row['entries']:,} entries, {row['status']}, {row['file']}")
