"""``huarong puzzle card``: a printable card of a puzzle, its start on the front and an
optimal solution on the back (:mod:`huarong.puzzles.card`).

No solution ends with one line and exit status 1, bad input with one line and exit status 2
(:mod:`huarong.cli._common`)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import click

from huarong.cli._common import (
    OUTPUT,
    InputError,
    exit_without_solution,
    machine_faults,
    progress_bar,
)
from huarong.cli._puzzle_input import load_start, puzzle_input_errors, puzzle_options

if TYPE_CHECKING:
    from huarong.puzzles.card import CardFormat

CARD_SUFFIXES: dict[str, CardFormat] = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


@click.command("card")
@click.argument("start")
@puzzle_options
@click.option("-o", "--output", type=OUTPUT, required=True,
              help="The card: FILE.png or FILE.svg (the front above the back) or FILE.pdf "
                   "(two A4 pages), written atomically.")
@click.option("--title", default=None,
              help="The card's title (default: the catalogue's title, else START's grid).")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
def card(start: str, goal: str | None, metric: str | None, rules: str | None, distinct: str,
         output: str, title: str | None, quiet: bool) -> None:
    """A printable card of START: the start board, its title and the length of an optimal
    solution on the front; on the back that solution as small numbered boards (0 the start,
    then the position after each move), on an A4 page even for a 138-move solution.

    Exit status 1 when START cannot reach the goal."""
    from huarong.fileio import atomic_writer
    from huarong.puzzles import solve
    from huarong.puzzles.card import draw_card

    card_format = CARD_SUFFIXES.get(Path(output).suffix.lower())
    if card_format is None:
        raise InputError(f"output {output!r}: the name must end in .png, .svg or .pdf")
    chosen = load_start(start, goal, metric, rules, distinct)
    with puzzle_input_errors(), progress_bar(not quiet) as progress:
        solution = solve(chosen, progress=progress)
    if solution is None:
        click.echo(f"{start}: no solution (its cluster holds no goal)", err=True)
        exit_without_solution()
    # Pillow's own font has Latin letters only: the catalogue's Chinese titles take the
    # viewer's font, which holds every character they use.
    cjk_font = resources.files("huarong.web") / "static" / "cjk-subset.woff2"
    with resources.as_file(cjk_font) as font:
        picture = draw_card(chosen, solution, card_format, title=title, cjk_font=font)
    with machine_faults(output, "-o"), atomic_writer(output, "wb") as stream:
        stream.write(picture)
    click.echo(f"{output}: {solution.length} moves", err=True)
