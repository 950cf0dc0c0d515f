"""What every ``huarong puzzle`` command that reads START shares: its options (``--goal``,
``--metric``, ``--rules``), reading it (``-`` from stdin), and the engine's refusals as one
line and exit status 2."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from huarong.cli._common import InputError

MAX_STATES = 2_000_000
"""The largest cluster ``draw``, ``graph`` and ``analyze`` take unless told otherwise: its
graph and what is made of it hold a few gigabytes (about 300 bytes a move)."""

if TYPE_CHECKING:
    from huarong.puzzles import Puzzle


@contextmanager
def puzzle_input_errors() -> Iterator[None]:
    """The engine's refusals of a puzzle (:class:`~huarong.puzzles.PuzzleError`) as one line
    and exit status 2."""
    from huarong.puzzles import PuzzleError
    from huarong.puzzles.cluster import ClusterTooLarge

    try:
        yield
    except ClusterTooLarge as error:
        raise InputError(f"{error}: --max-states raises the limit (about 300 bytes of memory "
                         "a move)") from None
    except PuzzleError as error:
        raise InputError(str(error)) from None


def load_start(start: str, goal: str | None, metric: str | None, rules: str | None,
               distinct: str = "") -> Puzzle:
    from huarong.puzzles import load_puzzle

    text = sys.stdin.read() if start == "-" else start
    with puzzle_input_errors():
        return load_puzzle(text, goal, metric=metric, rules=rules, distinct=distinct)


def puzzle_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--goal``, ``--metric``, ``--rules`` and ``--distinct``: what START's notation leaves
    to choose."""
    for option in reversed((
        click.option("--goal", default=None, metavar="GOAL",
                     help="The goal: a grid of START's size naming the cells its letters' "
                          "pieces must cover, '.' elsewhere (default: START's own)."),
        click.option("--metric", type=click.Choice(["unit", "slide", "step"]), default=None,
                     help="What one move is: one cell, any distance in one direction, or "
                          "anywhere the piece reaches alone (default: START's notation's)."),
        click.option("--rules", type=click.Choice(["free", "length"]), default=None,
                     help="free: every piece moves in four directions; length: a 1xk or kx1 "
                          "piece only along its length, as Rush Hour's cars (default: "
                          "START's notation's)."),
        click.option("--distinct", default="", metavar="LETTERS",
                     help="Pieces told apart from the others of their shape, by their letters "
                          "in START (as Rush Hour's red car: A), beside those START's "
                          "notation tells apart."),
    )):
        function = option(function)
    return function
