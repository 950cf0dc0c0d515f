"""``huarong puzzle difficulty START`` and ``huarong difficulty LAYOUT``: how hard a start is
for a person, by the model fitted on the NYU Ma lab's Rush Hour study
(:mod:`huarong.puzzles.difficulty`).

Bad input ends with one line and exit status 2; a start that cannot reach its goal, or whose
walk does not settle (:class:`~huarong.puzzles.difficulty.walk.WalkDidNotSettle`, a fault of
the computation), with one line and exit status 1 (:mod:`huarong.cli._common`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from huarong.cli._common import (
    LAYOUT,
    MachineFault,
    exit_without_solution,
    json_option,
    progress_bar,
)
from huarong.cli._puzzle_input import load_start, puzzle_input_errors, puzzle_options

if TYPE_CHECKING:
    from huarong.engine.layout import Layout
    from huarong.puzzles import Puzzle
    from huarong.puzzles.difficulty.model import Difficulty

_quiet_option = click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
_max_states_option = click.option(
    "--max-states", type=click.IntRange(min=1), default=None,
    help="Refuse a cluster of more states (default: as huarong puzzle analyze).")
EXTRAPOLATION = ("the model was fitted on 70 Rush Hour puzzles of 6 to 15 moves: for "
                 "this puzzle it extrapolates")


def _difficulty_of(chosen: Puzzle, start: str, max_states: int | None, quiet: bool
                   ) -> Difficulty:
    from huarong.cli._puzzle_input import MAX_STATES
    from huarong.puzzles import PuzzleError
    from huarong.puzzles.cluster import state_graph
    from huarong.puzzles.difficulty.features import UnsolvableStart
    from huarong.puzzles.difficulty.model import difficulty
    from huarong.puzzles.difficulty.walk import WalkDidNotSettle

    with puzzle_input_errors(), progress_bar(not quiet) as progress:
        if chosen.goal is None:
            raise PuzzleError(start, "the puzzle has no goal: give one with --goal")
        graph = state_graph(chosen, limit=max_states or MAX_STATES, progress=progress)
        try:
            return difficulty(chosen, graph)
        except UnsolvableStart:
            click.echo(f"{start}: no solution (its cluster holds no goal)", err=True)
            exit_without_solution()
        except WalkDidNotSettle as error:
            raise MachineFault(f"{start}: no difficulty: {error}") from None


def _minutes(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{int(seconds // 60)} min {seconds % 60:02.0f} s"
    if seconds < 86400 * 365:
        return f"{seconds / 3600:,.1f} hours"
    return "more than a year"


def _echo(chosen: Puzzle, found: Difficulty, as_json: bool) -> None:
    if as_json:
        answer = {"start": chosen.grid, **found.as_dict()}
        answer["note"] = EXTRAPOLATION if found.extrapolates else None
        click.echo(json.dumps(answer, ensure_ascii=False, indent=2))
        return
    click.echo(f"grade: {found.grade} of 10, {found.grade_name}")
    click.echo(f"predicted median time to solve: {_minutes(found.median_seconds)} "
               "(first-time players who solve it)")
    click.echo(f"predicted share who solve it: {found.solved_share:.0%}")
    if found.extrapolates:
        outside = (f" (outside the study's range or missing: {', '.join(found.outside)})"
                   if found.outside else "")
        click.echo(f"note: {EXTRAPOLATION}{outside}")
    click.echo("features:")
    for name, value in found.features.as_dict().items():
        shown = ("-" if value is None else f"{value:,}" if isinstance(value, int)
                 else f"{value:,.4g}")
        click.echo(f"  {name}: {shown}")


@click.command("difficulty")
@click.argument("start")
@puzzle_options
@_max_states_option
@_quiet_option
@json_option
def puzzle_difficulty(start: str, goal: str | None, metric: str | None, rules: str | None,
                      distinct: str, max_states: int | None, quiet: bool, as_json: bool) -> None:
    """How hard START is for a person: the predicted median time to solve it of first-time
    players, the predicted share who solve it, a grade 1-10 (Beginner to Grand Master) and
    the features of its cluster the model reads (docs/difficulty.md).

    The model was fitted on people's play of 70 Rush Hour puzzles; for other puzzles it
    extrapolates and says so.  Exit status 1 when START cannot reach the goal or its
    figures cannot be computed."""
    chosen = load_start(start, goal, metric, rules, distinct)
    _echo(chosen, _difficulty_of(chosen, start, max_states, quiet), as_json)


@click.command("difficulty")
@click.argument("layout", type=LAYOUT)
@_max_states_option
@_quiet_option
@json_option
def difficulty(layout: Layout, max_states: int | None, quiet: bool, as_json: bool) -> None:
    """How hard the Klotski LAYOUT is for a person (its group's features, the 2x2 to the exit):
    as huarong puzzle difficulty, a model fitted on Rush Hour that extrapolates here.

    Exit status 1 when LAYOUT cannot reach the goal or its figures cannot be computed."""
    chosen = load_start(layout.code, None, None, None)
    _echo(chosen, _difficulty_of(chosen, layout.code, max_states, quiet), as_json)
