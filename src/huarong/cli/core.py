"""The engine's commands on one layout: show, solve, path, group, analyze."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from huarong.cli._common import (
    LAYOUT,
    emit,
    emit_json,
    exit_without_solution,
    json_option,
    output_option,
    progress_bar,
)
from huarong.engine.layout import Layout, Piece, PieceKind

if TYPE_CHECKING:
    from huarong.space.table import MinStepsTable

# Each piece gets its own background so neighbours of one kind stay apart; the 2x2 is red.
_PIECE_STYLES = {
    PieceKind.CAO: ["bold white on red3"],
    PieceKind.VERTICAL: ["bold white on dodger_blue3", "bold white on steel_blue",
                         "bold white on blue3", "bold white on deep_sky_blue4"],
    PieceKind.HORIZONTAL: ["bold black on gold3", "bold black on dark_orange",
                           "bold black on yellow3", "bold black on orange3"],
    PieceKind.SOLDIER: ["bold black on green3", "bold black on sea_green2",
                        "bold black on chartreuse3", "bold black on spring_green3"],
}

_square_width = click.option("-w", "--width", "square_width", default=2, show_default=True,
                             type=click.IntRange(1, 16), help="Characters per cell.")


def _board_text(layout: Layout, square_width: int) -> Any:
    """The board as rich Text, each piece's interior in its own colour."""
    from rich.text import Text

    ordinal: dict[Piece, int] = {}
    for piece in layout.pieces:
        ordinal[piece] = sum(1 for other in ordinal if other.kind is piece.kind)
    text = Text()
    for line in layout.render_segments(square_width):
        for segment, owner in line:
            if owner is None:
                text.append(segment)
            else:
                styles = _PIECE_STYLES[owner.kind]
                text.append(segment, style=styles[ordinal[owner] % len(styles)])
        text.append("\n")
    text.rstrip()
    return text


@click.command()
@click.argument("layout", type=LAYOUT)
@click.argument("legacy_width", required=False, type=click.IntRange(1, 16),
                metavar="[SQUARE_WIDTH]")
@_square_width
@click.option("--svg", is_flag=True, help="Print an SVG picture instead.")
@json_option
@output_option
def show(layout: Layout, legacy_width: int | None, square_width: int, svg: bool,
         as_json: bool, output: str | None) -> None:
    """Draw LAYOUT (box-drawing characters, colours where the terminal has them).

    On a terminal the common code is followed by the short code; piped or written to a file
    the first line is the common code alone, as the original engine wrote it."""
    if svg:
        emit(layout.render_svg(), output)
        return
    if as_json:
        emit_json(_layout_facts(layout), output)
        return
    width = legacy_width or square_width
    if output is not None:
        emit(f"{layout.code}\n{layout.render_text(width)}", output)
        return
    from rich.console import Console

    console = Console(highlight=False)
    console.print(f"{layout.code}  [dim]short code[/dim] {layout.short_code}"
                  if console.is_terminal else layout.code)
    console.print(_board_text(layout, width))


def _layout_facts(layout: Layout) -> dict[str, Any]:
    """Every notation of ``layout`` and what it holds, for ``show --json``."""
    return {
        "code": layout.code, "short_code": layout.short_code, "online_id": layout.online_id,
        "grid": layout.grid("").replace("\n", "/"),
        "pieces": [{"kind": piece.kind.name.lower(), "address": piece.address,
                    "row": piece.address // 4, "col": piece.address % 4}
                   for piece in layout.pieces],
        "jiang": layout.jiang_num, "bing": layout.bing_num, "style": layout.style_num,
        "is_solved": layout.is_solved, "is_standard": layout.is_standard,
        "mirror_code": layout.mirror().code,
    }


def _path_text(path: tuple[Layout, ...], compact: bool, square_width: int) -> str:
    if compact:
        return "\n".join(f"{step}: {layout.code}" for step, layout in enumerate(path))
    from huarong.engine.hints import describe_step

    steps = len(path) - 1
    moves = ["start", *(describe_step(before, after)
                        for before, after in itertools.pairwise(path))]
    return "\n\n".join(f"step {step}/{steps}: {layout.code}  ({move})\n"
                       f"{layout.render_text(square_width)}"
                       for step, (layout, move) in enumerate(zip(path, moves, strict=True)))


def open_table(db_path: str | None) -> MinStepsTable | None:
    """The table of minimum steps beside the database (``db_path``, default the standard
    place), or None: without one, or with a damaged one (said in one line on stderr), the
    commands search instead."""
    from huarong.space.database import default_path
    from huarong.space.table import TableError, open_beside

    try:
        return open_beside(db_path if db_path is not None else default_path())
    except TableError as error:
        click.echo(f"huarong: ignoring the {error}", err=True)
        return None


_compact = click.option("-c", "--compact", is_flag=True,
                        help="One common code per step instead of boards.")


@click.command()
@click.argument("layout", type=LAYOUT)
@_compact
@_square_width
@json_option
@output_option
def solve(layout: Layout, compact: bool, square_width: int, as_json: bool,
          output: str | None) -> None:
    """Minimum-step solution of LAYOUT: move the 2x2 to the bottom middle (walked in the
    table of minimum steps when the database has one, else searched: the same path)."""
    from huarong.space.table import solve as solve_layout

    solution = solve_layout(layout, open_table(None))
    if as_json:
        emit_json({"code": layout.code, "solvable": solution.solvable,
                   "steps": solution.steps, "path": [step.code for step in solution.path]},
                  output)
    elif not solution.solvable:
        emit(f"{layout.code}: no solution (its group of layouts holds no goal layout)", output)
    else:
        emit(f"{layout.code}: minimum {solution.steps} steps\n\n"
             + _path_text(solution.path, compact, square_width), output)
    if not solution.solvable:
        exit_without_solution()


@click.command()
@click.argument("layout", type=LAYOUT)
@click.option("--all", "every", is_flag=True,
              help="Every legal step, each judged better, same or worse.")
@json_option
def hint(layout: Layout, every: bool, as_json: bool) -> None:
    """The best next steps from LAYOUT, each in words ("曹操 down"), with the minimum steps
    left after it; with --all every step, judged: better (one step closer to a goal), same,
    worse (one step farther). Exit status 1 when LAYOUT has no solution."""
    from huarong.engine.hints import best_next_steps

    min_steps = _min_steps_of(layout)
    steps = min_steps(layout)
    if every:
        _all_steps(layout, steps, min_steps, as_json)
        if steps is None:
            exit_without_solution()
        return
    best = [] if not steps else best_next_steps(layout, min_steps)
    if as_json:
        click.echo(json.dumps({"code": layout.code, "min_steps": steps, "best": [
            {"code": h.layout.code, "move": h.description, "steps_left": h.steps_left}
            for h in best]}, ensure_ascii=False, indent=2))
    elif steps is None:
        click.echo(f"{layout.code}: no solution (its group of layouts holds no goal layout)")
    elif steps == 0:
        click.echo(f"{layout.code}: already solved (曹操 is at the exit)")
    else:
        click.echo(f"{layout.code}: {steps} steps to go; best next "
                   f"{'step' if len(best) == 1 else 'steps'}:")
        for h in best:
            click.echo(f"  {h.description:<28} -> {h.layout.code} ({h.steps_left} left)")
    if steps is None:
        exit_without_solution()


def _min_steps_of(layout: Layout) -> Callable[[Layout], int | None]:
    """The minimum steps of the layouts of ``layout``'s group: from the table beside the
    database when it holds them, else from one search of the whole group."""
    from huarong.space.stats import group_min_steps

    table = open_table(None)
    if table is not None and table.holds(layout):
        return table.min_steps
    return group_min_steps(layout).of


def _all_steps(layout: Layout, steps: int | None,
               min_steps: Callable[[Layout], int | None], as_json: bool) -> None:
    """Every step from ``layout`` with its verdict, as ``hint --all`` prints it."""
    from huarong.engine.hints import direction_of, next_steps
    from huarong.engine.notation import step_move
    from huarong.graph.verdicts import NO_VERDICT, verdict

    judged = []
    for step in next_steps(layout, min_steps):
        move = step_move(layout, step.layout)
        judged.append({"to": step.layout.code, "piece": move.kind.name.lower(),
                       "from": move.source, "direction": direction_of(move.source, move.target),
                       "move": step.description, "verdict": verdict(steps, step.steps_left),
                       "min_steps": step.steps_left})
    if as_json:
        why = {} if steps is not None else {"why": NO_VERDICT}
        click.echo(json.dumps({"code": layout.code, "min_steps": steps, **why,
                               "steps": judged}, ensure_ascii=False, indent=2))
        return
    click.echo(f"{layout.code}: " + (f"{steps} steps to go; " if steps is not None else "")
               + f"{len(judged)} legal {'step' if len(judged) == 1 else 'steps'}"
               + ("" if steps is not None else f" ({NO_VERDICT})"))
    for line in judged:
        left = "no solution" if line["min_steps"] is None else f"{line['min_steps']} left"
        click.echo(f"  {line['verdict'] or '-':<7}{line['move']:<28} -> {line['to']} ({left})")


@click.command()
@click.argument("start", type=LAYOUT)
@click.argument("target", type=LAYOUT)
@_compact
@_square_width
@json_option
@output_option
def path(start: Layout, target: Layout, compact: bool, square_width: int, as_json: bool,
         output: str | None) -> None:
    """Shortest path from START to TARGET."""
    from huarong.engine.solver import NotInGroupError, shortest_path

    try:
        steps = shortest_path(start, target)
    except NotInGroupError as error:
        click.echo(f"huarong: no path: {error}", err=True)
        exit_without_solution()
    if as_json:
        emit_json({"start": start.code, "target": target.code, "steps": len(steps) - 1,
                   "path": [step.code for step in steps]}, output)
    else:
        emit(f"{start.code} -> {target.code}: minimum {len(steps) - 1} steps\n\n"
             + _path_text(steps, compact, square_width), output)


@click.command()
@click.argument("layout", type=LAYOUT)
@json_option
@output_option
def group(layout: Layout, as_json: bool, output: str | None) -> None:
    """Every layout of LAYOUT's group, one common code per line, ascending."""
    from huarong.engine.solver import group_codes

    codes = [f"{int(code):09X}" for code in group_codes(layout)]
    if as_json:
        emit_json({"code": layout.code, "size": len(codes), "group": codes}, output)
    else:
        click.echo(f"{layout.code}: {len(codes)} layouts in its group", err=True)
        emit("\n".join(codes), output)


def _analysis_summary(analysis: Any) -> dict[str, Any]:
    return {
        "code": analysis.start.code,
        "group_size": analysis.size,
        "layer_sizes": analysis.layer_sizes,
        "farthest_steps": analysis.farthest_steps,
        "farthest_layouts": [layout.code for layout in analysis.farthest_layouts],
        "min_steps": analysis.min_steps,
        "min_step_solutions": [layout.code for layout in analysis.min_step_solutions],
        "solutions": [{"code": layout.code, "steps": steps}
                      for layout, steps in analysis.solutions],
    }


def _summary_text(summary: dict[str, Any]) -> list[str]:
    min_steps = summary["min_steps"]
    lines = [
        f"layout            {summary['code']}",
        f"group size        {summary['group_size']}",
        f"layers            {len(summary['layer_sizes'])} (0..{summary['farthest_steps']})",
        f"farthest steps    {summary['farthest_steps']} "
        f"({len(summary['farthest_layouts'])} layouts: {' '.join(summary['farthest_layouts'])})",
        "minimum steps     " + ("no solution" if min_steps is None else str(min_steps)),
        f"min-step solutions {len(summary['min_step_solutions'])}: "
        + " ".join(summary["min_step_solutions"]),
        f"solutions         {len(summary['solutions'])}",
    ]
    lines += [f"  {item['code']} {item['steps']}" for item in summary["solutions"]]
    return lines


def _detail_text(analysis: Any, summary: dict[str, Any]) -> str:
    """The full layer model: every layout with its parents and children as (layer,index)."""
    lines = _summary_text(summary)
    codes = analysis.codes
    offsets = analysis.layer_offsets

    def label(position: int) -> str:
        layer = analysis.layer_of_position(position)
        return f"({layer},{position - int(offsets[layer])}){int(codes[position]):09X}"

    for layer, index, parents, children in analysis.links():
        if index == 0:
            lines.append(f"\n[layer {layer}] {int(offsets[layer + 1] - offsets[layer])} layouts")
        position = int(offsets[layer]) + index
        lines.append(" ".join([*(label(int(p)) for p in parents), "->", label(position), "->",
                               *(label(int(c)) for c in children)]))
    return "\n".join(lines)


@click.command()
@click.argument("layout", type=LAYOUT)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@json_option
@output_option
def analyze(layout: Layout, quiet: bool, as_json: bool, output: str | None) -> None:
    """The layer model of LAYOUT: layers, farthest layouts, minimum steps, solutions.

    With --output, the file gets every layout of every layer with its parents and children
    written as (layer,index)CODE; stdout gets the summary."""
    from huarong.engine.analysis import analyze as analyze_layout

    with progress_bar(enabled=not quiet) as progress:
        analysis = analyze_layout(layout, progress)
        summary = _analysis_summary(analysis)
        detail = _detail_text(analysis, summary) if output is not None and not as_json else None
    if as_json:
        emit_json(summary, output)
    elif detail is not None:
        emit(detail, output)
        click.echo("\n".join(_summary_text(summary)[:7]))
    else:
        click.echo("\n".join(_summary_text(summary)))
