"""Steps in words ("曹操 down") and hints: the best next steps from a layout."""

from __future__ import annotations

import itertools
from collections.abc import Callable
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


def direction_of(source: int, target: int) -> str:
    """Where a piece goes from its top-left address ``source`` to ``target``: the rows then
    the columns it moves, e.g. ``down``, ``left 2``, ``up right`` (a slide round a corner
    is named by where it ends)."""
    rows = target // COLS - source // COLS
    columns = target % COLS - source % COLS
    words = [f"{word} {abs(count)}" if abs(count) > 1 else word
             for count, word in ((rows, "up" if rows < 0 else "down"),
                                 (columns, "left" if columns < 0 else "right")) if count]
    return " ".join(words)


@dataclass(frozen=True)
class Hint:
    """A next step: the layout it leads to, the step in words, and the minimum steps left
    from there (None when that layout has no solution)."""

    layout: Layout
    description: str
    steps_left: int | None


MinSteps = Callable[[Layout], int | None]
"""The minimum steps of a layout (None: no solution), by search or from a table."""


def _searched_steps(layout: Layout) -> int | None:
    from huarong.engine.solver import solve

    return solve(layout).steps


def next_steps(layout: Layout, min_steps: MinSteps | None = None) -> list[Hint]:
    """Every step from ``layout``, best first (fewest steps left, unsolvable last; ties by
    code).  ``min_steps`` gives each step's steps left (default: a search per step)."""
    steps_of = min_steps or _searched_steps
    hints = [Hint(child, describe_step(layout, child), steps_of(child))
             for child in layout.children()]
    return sorted(hints, key=lambda hint: (hint.steps_left is None, hint.steps_left or 0,
                                           int(hint.layout)))


def best_next_steps(layout: Layout, min_steps: MinSteps | None = None) -> list[Hint]:
    """The steps that bring ``layout`` one step closer to a goal (empty when it has no
    solution or is solved); ``min_steps`` as for :func:`next_steps`."""
    hints = next_steps(layout, min_steps)
    best = hints[0].steps_left if hints else None
    return [hint for hint in hints if best is not None and hint.steps_left == best]
