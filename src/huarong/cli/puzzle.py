"""``huarong puzzle``: any sliding-block puzzle (a grid, Rush Hour, a Klotski layout, a
catalogue name or a TOML file) solved, its cluster counted, analysed layer by layer, drawn and
written as a graph file.

START is read by :func:`huarong.puzzles.load_puzzle`; ``-`` reads it from stdin (a grid one
row per line).  Bad input ends with one line and exit status 2, no solution with exit status
1 (:mod:`huarong.cli._common`)."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from huarong.cli._common import (
    OUTPUT,
    InputError,
    exit_without_solution,
    json_option,
    machine_faults,
    progress_bar,
)
from huarong.cli._puzzle_input import MAX_STATES, load_start, puzzle_input_errors, puzzle_options
from huarong.cli.difficulty import puzzle_difficulty
from huarong.cli.draw import SizeParam
from huarong.cli.graph_tools import graph_file_name
from huarong.cli.puzzle_card import card
from huarong.cli.puzzle_design import design
from huarong.cli.puzzle_search import echo_counts, grid_rows, search

if TYPE_CHECKING:
    from huarong.puzzles import ClusterSummary, Puzzle, PuzzleAnalysis

TABLE_FORMATS = (".csv", ".parquet")
PICTURE_FORMATS = (".png", ".svg")


_start_argument = click.argument("start")
_quiet_option = click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
_max_states_option = click.option(
    "--max-states", type=click.IntRange(min=1), default=MAX_STATES, show_default=True,
    help="Refuse a cluster of more states (the whole graph is held in memory).")


def _answered_start(command: Callable[..., Any]) -> Callable[..., Any]:
    """START, the options that name its puzzle, and how the answer is shown (``--quiet``,
    ``--json``): what the commands that answer about a start take."""
    return _start_argument(puzzle_options(_quiet_option(json_option(command))))


@click.group("puzzle")
def puzzle() -> None:
    """Any sliding-block puzzle: solve, cluster, analyze, draw, graph, list, search, design,
    card, difficulty.

    START is grid text (rows joined by "/", "." empty, "#" wall, one letter per piece:
    "AAB./AAC./DEE."), "rush:" and a Rush Hour board of 36 characters, a Klotski code or
    classic's name, a catalogue name (huarong puzzle list) or a .toml file; "-" reads it
    from stdin.
    """


def _summary_json(summary: ClusterSummary) -> dict[str, Any]:
    """``{"states", "solved", "hardest"}``; ``hardest`` (``{"length", "start"}``) is null
    when no state of the cluster is solved."""
    hardest = (None if summary.hardest_length is None else
               {"length": summary.hardest_length, "start": summary.hardest_start})
    return {"states": summary.states, "solved": summary.solved, "hardest": hardest}


@puzzle.command("solve")
@_answered_start
def solve_command(start: str, goal: str | None, metric: str | None, rules: str | None,
                  distinct: str, quiet: bool, as_json: bool) -> None:
    """An optimal solution of START: its length and every position on the way.

    Exit status 1 when START cannot reach the goal."""
    from huarong.puzzles import solve

    chosen = load_start(start, goal, metric, rules, distinct)
    with puzzle_input_errors(), progress_bar(not quiet) as progress:
        solution = solve(chosen, progress=progress)
    if solution is None:
        click.echo(f"{start}: no solution (its cluster holds no goal)")
        exit_without_solution()
    if as_json:
        click.echo(json.dumps(dataclasses.asdict(solution), ensure_ascii=False, indent=2))
        return
    click.echo(f"{solution.length} moves ({chosen.metric} metric, {chosen.rules} rules)")
    click.echo(grid_rows(solution.path[0]))
    for number, move in enumerate(solution.moves, 1):
        cells = "" if chosen.metric == "step" else f" {move.distance}"
        click.echo(f"-- {number}: {move.piece} {move.direction}{cells}")
        click.echo(grid_rows(move.grid))


@puzzle.command("cluster")
@_answered_start
def cluster_command(start: str, goal: str | None, metric: str | None, rules: str | None,
                  distinct: str, quiet: bool, as_json: bool) -> None:
    """START's cluster: how many states it holds, how many are solved, and its hardest
    start (the state farthest from any goal)."""
    from huarong.puzzles import cluster_summary

    chosen = load_start(start, goal, metric, rules, distinct)
    with puzzle_input_errors(), progress_bar(not quiet) as progress:
        summary = _summary_json(cluster_summary(chosen, progress=progress))
    echo_counts(summary, ("states", "solved"), "no state of the cluster is solved", as_json)


def _analysis_summary(analysis: PuzzleAnalysis) -> dict[str, int]:
    """The cluster's states, how many can reach a goal, how many are goals, and the most
    minimum and farthest steps of any state."""
    import numpy as np

    from huarong.puzzles import FIGURE_NAMES

    figure = dict(zip(FIGURE_NAMES, analysis.figures, strict=True))
    return {"states": analysis.graph.size,
            "solvable": int(np.count_nonzero(figure["min_steps"] >= 0)),
            "solved": int(np.count_nonzero(analysis.graph.goal)),
            "longest_min_steps": int(figure["min_steps"].max(initial=-1)),
            "longest_farthest_steps": int(figure["farthest_steps"].max(initial=-1))}


def _write_table(chosen: Puzzle, analysis: PuzzleAnalysis, output: str) -> None:
    """Every state of the cluster, its grid and its five figures, as CSV or Parquet."""
    import pyarrow as pa

    from huarong.fileio import atomic_writer
    from huarong.puzzles import FIGURE_NAMES, format_state

    columns = {"state": pa.array([format_state(chosen, code)
                                  for code in analysis.graph.codes.tolist()], pa.string())}
    for name, values in zip(FIGURE_NAMES, analysis.figures, strict=True):
        columns[name] = pa.array(values, pa.int64())
    table = pa.table(columns)
    with machine_faults(output, "-o"), atomic_writer(output, "wb") as stream:
        if output.lower().endswith(".csv"):
            import pyarrow.csv as arrow_csv

            arrow_csv.write_csv(table, stream)
        else:
            import pyarrow.parquet as parquet

            parquet.write_table(table, stream)
    click.echo(f"written to {output} ({table.num_rows:,} states)", err=True)


@puzzle.command("analyze")
@_start_argument
@puzzle_options
@click.option("-o", "--output", type=OUTPUT, default=None,
              help="Write every state of the cluster with its figures to FILE.csv or "
                   "FILE.parquet (atomically).")
@_max_states_option
@_quiet_option
@json_option
def analyze_command(start: str, goal: str | None, metric: str | None, rules: str | None,
                    distinct: str, output: str | None, max_states: int, quiet: bool,
                    as_json: bool) -> None:
    """The layer figures of every state of START's cluster (farthest steps and how many
    states lie that far, minimum steps, minimum-step solutions, solutions), by the
    counts-only sweeps of the database; START's figures and the cluster's summary are
    printed."""
    from huarong.puzzles import analyze

    if output is not None and Path(output).suffix.lower() not in TABLE_FORMATS:
        raise InputError(f"output {output!r}: the name must end in .csv or .parquet")
    chosen = load_start(start, goal, metric, rules, distinct)
    with puzzle_input_errors(), progress_bar(not quiet) as progress:
        analysis = analyze(chosen, limit=max_states, progress=progress)
    if output is not None:
        _write_table(chosen, analysis, output)
    start_figures, summary = analysis.start_figures(), _analysis_summary(analysis)
    if as_json:
        click.echo(json.dumps({"start": start_figures, "cluster": summary}, indent=2))
        return
    click.echo("start:")
    for name, value in start_figures.items():
        click.echo(f"  {name}: {value:,}")
    click.echo("cluster:")
    for name, value in summary.items():
        click.echo(f"  {name}: {value:,}")


@puzzle.command("list")
@json_option
def list_command(as_json: bool) -> None:
    """The catalogue of named puzzles: name, title and source; any name is a START."""
    from huarong.puzzles import catalogue

    entries = catalogue()
    if as_json:
        click.echo(json.dumps([{"name": entry.name, "title": entry.title,
                                "source": entry.source} for entry in entries],
                              ensure_ascii=False, indent=2))
        return
    width = max((len(entry.name) for entry in entries), default=0)
    for entry in entries:
        click.echo(f"{entry.name:<{width}}  {entry.title}")
        click.echo(f"{'':<{width}}  source: {entry.source}")


@puzzle.command("draw")
@_start_argument
@puzzle_options
@click.option("-o", "--output", type=OUTPUT, required=True,
              help="The picture: FILE.png or FILE.svg (written atomically).")
@click.option("--size", type=SizeParam(), default="1200x800", show_default=True,
              help="Picture size in pixels.")
@_max_states_option
@_quiet_option
def draw_command(start: str, goal: str | None, metric: str | None, rules: str | None,
                 distinct: str, output: str, size: tuple[int, int], max_states: int,
                 quiet: bool) -> None:
    """Draw START's cluster: every state a dot coloured by its minimum moves to a goal,
    every move a line, START ringed and its shortest solution in red."""
    from huarong.fileio import atomic_writer
    from huarong.graph.picture import draw_state_graph
    from huarong.puzzles import puzzle_start_node, state_graph

    suffix = Path(output).suffix.lower()
    if suffix not in PICTURE_FORMATS:
        raise InputError(f"output {output!r}: the name must end in .png or .svg")
    chosen = load_start(start, goal, metric, rules, distinct)
    with puzzle_input_errors(), progress_bar(not quiet) as progress:
        graph = state_graph(chosen, limit=max_states, progress=progress)
    width, height = size
    picture = draw_state_graph(graph, "png" if suffix == ".png" else "svg", width, height,
                               start=puzzle_start_node(chosen, graph))
    with machine_faults(output, "-o"), atomic_writer(output, "wb") as stream:
        stream.write(picture)
    click.echo(f"{output}: {graph.size:,} states, {graph.edge_count:,} moves", err=True)


@puzzle.command("graph")
@_start_argument
@puzzle_options
@click.option("-o", "--output", type=OUTPUT, required=True, callback=graph_file_name,
              help="The file; its suffix names the format: .graphml, .gexf, .json "
                   "(node-link), .parquet or .csv (an edge list, its nodes in "
                   "STEM.nodes.parquet|csv beside it).")
@_max_states_option
@_quiet_option
def graph_command(start: str, goal: str | None, metric: str | None, rules: str | None,
                  distinct: str, output: str, max_states: int, quiet: bool) -> None:
    """Write START's cluster as a graph file: one node per state (code, grid, min_moves to a
    goal (-1: none), goal, distance from START, degree), one undirected edge per move (the
    piece's letter in the first node's grid, the direction); the metadata names the puzzle,
    its goal, rules and metric."""
    from huarong.graph.files import write_graph_file
    from huarong.puzzles import state_graph
    from huarong.puzzles.graph_table import puzzle_table

    chosen = load_start(start, goal, metric, rules, distinct)
    with puzzle_input_errors(), progress_bar(not quiet) as progress:
        table = puzzle_table(chosen, state_graph(chosen, limit=max_states, progress=progress))
    with machine_faults(output, "-o"):
        written = write_graph_file(output, table)
    click.echo(f"{', '.join(str(path) for path in written)}: {table.graph.size:,} states, "
               f"{table.graph.edge_count:,} moves", err=True)


puzzle.add_command(search)
puzzle.add_command(design)
puzzle.add_command(card)
# "group" is Klotski's word; the command's first name still works, out of the list.
_group_command = copy.copy(cluster_command)
_group_command.hidden = True
puzzle.add_command(_group_command, "group")
puzzle.add_command(puzzle_difficulty)
