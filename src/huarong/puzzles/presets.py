"""Searches by other people's definitions: N. Bickford's 4x4 sliding-block puzzles.

Bickford's SBPSearcher (2012, "Sliding Block Puzzles, Part 3",
https://nbickford.wordpress.com/2012/01/22/sliding-block-puzzles-part-3/, code and results
at https://github.com/Nbickford/SbpUtilities) searched every "simple simple simple" 4x4
puzzle: one piece, told apart from the others, starts in the upper-left corner and must
reach the lower-right corner; moves are counted in the step metric.  For each number of
pieces he gives the hardest: the cluster and start (the goal piece in the upper-left corner)
farthest from any solved state.

:func:`sbp_4x4` runs that search over every set of pieces of the given shapes: for each set,
the goal piece is a class of its own (class 0, so the solved states are one range of codes),
the clusters are grown from the solved states only, and a state counts as a start only with
the goal piece's bounding box in the upper-left corner.  Bickford's pieces are any
polyominoes; the default shapes here are the rectangles up to 2x2.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from huarong.puzzles.exhaustive import (
    DEFAULT_MEMORY,
    Progress,
    SearchResult,
    SearchSpace,
    rectangle,
    run,
    search_space,
)
from huarong.puzzles.model import Puzzle, PuzzleError, Shape

SBP_SIDE = 4
SBP_SHAPES: tuple[Shape, ...] = (rectangle(1, 1), rectangle(1, 2), rectangle(2, 1),
                                 rectangle(2, 2))
"""The default piece shapes of the 4x4 search: 1x1, 1x2, 2x1, 2x2."""

BICKFORD_LENGTHS = (1, 4, 9, 22, 36, 51, 62, 89, 132, 81, 64, 73, 61, 25, 21)
"""What Bickford's search reports for 1..15 pieces (his results files; his blog gives 19 for
4 pieces), any polyomino pieces: shown beside ours, never used by the search."""


@dataclass(frozen=True)
class SbpRecord:
    """The hardest puzzle found with ``pieces`` pieces: its ``length`` (-1: none found),
    ``start`` grid (goal piece ``A``), and what was searched: piece ``sets``, ``clusters``
    holding a solved state and their ``states``."""

    pieces: int
    length: int
    start: str | None
    sets: int
    clusters: int
    states: int


def _name(shape: Shape) -> str:
    return f"{1 + shape[-1][0]}x{1 + shape[-1][1]}"


def piece_sets(shapes: Sequence[Shape] = SBP_SHAPES, side: int = SBP_SIDE
               ) -> list[tuple[Shape, tuple[int, ...]]]:
    """Every (goal shape, how many pieces of each of ``shapes`` besides it) leaving at least
    one cell of the ``side`` x ``side`` board free."""
    cells = side * side
    found = []
    for goal in shapes:
        limits = [(cells - 1 - len(goal)) // len(shape) for shape in shapes]
        for counts in itertools.product(*(range(limit + 1) for limit in limits)):
            if len(goal) + sum(n * len(s) for n, s in zip(counts, shapes, strict=True)) < cells:
                found.append((goal, counts))
    return found


def sbp_space(goal: Shape, counts: Sequence[int], shapes: Sequence[Shape] = SBP_SHAPES,
              side: int = SBP_SIDE) -> SearchSpace:
    """The 4x4 space of one piece set: the goal piece (distinct, class 0) must reach the
    lower-right corner."""
    pieces = [(shape, n + (shape == goal)) for shape, n in zip(shapes, counts, strict=True)
              if n + (shape == goal)]
    height, width = 1 + goal[-1][0], 1 + goal[-1][1]
    return search_space(f"{side}x{side}", pieces,
                        f"{_name(goal)}@{side - height},{side - width}", distinct_goal=True)


def bickford_space(puzzle: Puzzle) -> SearchSpace:
    """The space of a 4x4 puzzle's pieces by Bickford's definitions: its one distinct piece
    is the goal piece (class 0); :class:`PuzzleError` when it has none or several."""
    marked = [k for k in puzzle.classes if k.distinct]
    if len(marked) != 1 or puzzle.goal is None:
        raise PuzzleError(puzzle.board, "Bickford's puzzles have one distinct piece, the "
                                        "goal piece, and a goal")
    classes = (marked[0], *(k for k in puzzle.classes if not k.distinct))
    return SearchSpace(puzzle.rows, puzzle.columns, puzzle.walls, classes, puzzle.goal,
                       puzzle.rules, puzzle.metric)


def sbp_clusters(space: SearchSpace, *, memory: int = DEFAULT_MEMORY) -> SearchResult:
    """The clusters of a space whose class 0 is the goal piece alone, with a goal in the
    lower-right corner: only the clusters of the solved states, a start's goal piece in the
    upper-left corner."""
    # The goal's placements are numbered by anchor: the last is the lower-right corner and
    # the first the upper-left; class 0 holds the goal piece alone, so its rank is its
    # placement and the solved states are one range of codes.
    places, multiplier = (int(x) for x in space.tables.classes[0, 1:3])
    seeds = range((places - 1) * multiplier, places * multiplier)
    return run(space, seeds=seeds, starts=(0, 0), memory=memory)


def sbp_4x4(shapes: Sequence[Shape] = SBP_SHAPES, *, side: int = SBP_SIDE,
            progress: Progress | None = None, memory: int = DEFAULT_MEMORY
            ) -> list[SbpRecord]:
    """Bickford's search (see the module): the hardest puzzle for each number of pieces,
    1 to ``side``² - 1."""
    sets = piece_sets(shapes, side)
    best: dict[int, tuple[int, str | None]] = {}
    tally: dict[int, list[int]] = {}
    for done, (goal, counts) in enumerate(sets):
        space = sbp_space(goal, counts, shapes, side)
        pieces = 1 + sum(counts)
        result = sbp_clusters(space, memory=memory)
        count = tally.setdefault(pieces, [0, 0, 0])
        count[0] += 1
        count[1] += len(result)
        count[2] += result.total_states
        if len(result) and int(result.length.max()) > best.get(pieces, (-1, None))[0]:
            row = int(np.argmax(result.length))
            best[pieces] = (int(result.length[row]),
                            space.grids(result.start[row:row + 1])[0])
        if progress is not None:
            progress("piece sets", done + 1, len(sets))
    return [SbpRecord(n, *best.get(n, (-1, None)), *tally.get(n, [0, 0, 0]))
            for n in range(1, side * side)]
