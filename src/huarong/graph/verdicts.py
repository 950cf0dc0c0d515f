"""How good one move is, for any puzzle: the minimum moves to a goal before and after it
decide whether it brings the goal one move closer, keeps it as far, or takes it one move
farther (a move changes the distance to the nearest goal by at most one)."""

from __future__ import annotations

from typing import Final, Literal

import numpy as np

from huarong.graph.state_graph import NO_SOLUTION, StateGraph

Verdict = Literal["better", "same", "worse"]
VERDICTS: Final[dict[int, Verdict]] = {-1: "better", 0: "same", 1: "worse"}
"""The verdict of each change of the minimum moves left."""
NO_VERDICT: Final = ("no verdict: no goal can be reached from here, so every move leaves "
                     "it as unreachable as before")
"""Why a move in a part of the space without a goal has no verdict."""


def verdict(before: int | None, after: int | None) -> Verdict | None:
    """The verdict of a move from a state ``before`` moves from a goal to one ``after``
    moves from it (None or :data:`NO_SOLUTION`: no goal reachable, then no verdict);
    ValueError when they differ by more than one, which no single move can do."""
    if before is None or after is None or NO_SOLUTION in (before, after):
        return None
    change = after - before
    if change not in VERDICTS:
        raise ValueError(f"minimum moves {before} then {after}: one move changes them by at "
                         "most one")
    return VERDICTS[change]


def move_verdicts(graph: StateGraph, node: int) -> list[tuple[int, Verdict | None, int]]:
    """Every move from ``node``: (the node it leads to, its verdict, the minimum moves left
    after it, :data:`NO_SOLUTION` when none), in the graph's neighbour order."""
    steps = graph.min_steps
    here = int(steps[node])
    return [(int(after), verdict(here, int(steps[after])), int(steps[after]))
            for after in np.asarray(graph.neighbours(node)).tolist()]
