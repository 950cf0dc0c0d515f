"""Steps in words ("曹操 down") and hints: the best next steps from a layout."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from huarong.engine.layout import COLS, Layout, PieceKind
from huarong.engine.notation import _shortest_route, step_move

PIECE_NAMES: dict[PieceKind, str] = {
    PieceKind.CAO: "曹操",
    PieceKind.VERTICAL: "竖将",
    PieceKind.HORIZONTAL: "横将",
    PieceKind.SOLDIER: "卒",
}
"""What players call the pieces: the 2x2 曹操, the vertical and horizontal generals, the
soldiers."""


def describe_step(before: Layout, after: Layout) -> str:
    """One step in words: the piece (where it was, unless it is 曹操, the only 2x2) and its
    slide, e.g. ``曹操 down``, ``卒 (row 5, col 2) right 2``, ``竖将 (row 1, col 4) up, left``
    (a slide that turns a corner).  Rows and columns count from 1 at the top left."""
    move = step_move(before, after)
    route = _shortest_route(before, move)
    slides = ", ".join(f"{unit} {len(run)}" if len(run) > 1 else unit
                       for unit, run in ((unit, list(group))
                                         for unit, group in itertools.groupby(route)))
    name = PIECE_NAMES[move.kind]
    if move.kind is not PieceKind.CAO:
        row, col = divmod(move.source, COLS)
        name += f" (row {row + 1}, col {col + 1})"
    return f"{name} {slides}"


@dataclass(frozen=True)
class Hint:
    """A next step: the layout it leads to, the step in words, and the minimum steps left
    from there (None when that layout has no solution)."""

    layout: Layout
    description: str
    steps_left: int | None


def next_steps(layout: Layout) -> list[Hint]:
    """Every step from ``layout``, best first (fewest steps left, unsolvable last; ties by
    code)."""
    from huarong.engine.solver import solve

    hints = []
    for child in layout.children():
        solution = solve(child)
        hints.append(Hint(child, describe_step(layout, child),
                          solution.steps if solution.solvable else None))
    return sorted(hints, key=lambda hint: (hint.steps_left is None, hint.steps_left or 0,
                                           int(hint.layout)))


def best_next_steps(layout: Layout) -> list[Hint]:
    """The steps that bring ``layout`` one step closer to a goal (empty when it has no
    solution or is solved)."""
    hints = next_steps(layout)
    best = hints[0].steps_left if hints else None
    return [hint for hint in hints if best is not None and hint.steps_left == best]
