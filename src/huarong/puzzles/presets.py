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

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

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
from huarong.puzzles.jobs import Columns, run_job
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


SBP_JOB = "sbp-4x4 1"
"""The checkpoints' key of :func:`sbp_4x4`'s job, with the shapes and side appended: a change
of what a unit's columns mean changes it."""


def sbp_set(piece_set: tuple[Shape, tuple[int, ...]], shapes: Sequence[Shape] = SBP_SHAPES,
            side: int = SBP_SIDE, memory: int = DEFAULT_MEMORY) -> Columns:
    """One unit of :func:`sbp_4x4`: the piece set's hardest ``length`` (-1: no cluster) and
    ``start`` grid (empty: none), its ``clusters`` and their ``states``, one row each."""
    space = sbp_space(*piece_set, shapes, side)
    result = sbp_clusters(space, memory=memory)
    length, start = -1, ""
    if len(result):
        row = int(np.argmax(result.length))
        length, start = int(result.length[row]), space.grids(result.start[row:row + 1])[0]
    return {"length": np.array([length], dtype=np.int64), "start": np.array([start]),
            "clusters": np.array([len(result)], dtype=np.int64),
            "states": np.array([result.total_states], dtype=np.int64)}


def sbp_4x4(shapes: Sequence[Shape] = SBP_SHAPES, *, side: int = SBP_SIDE,
            progress: Progress | None = None, memory: int = DEFAULT_MEMORY, threads: int = 1,
            directory: Path | None = None, cluster: str | None = None) -> list[SbpRecord]:
    """Bickford's search (see the module): the hardest puzzle for each number of pieces,
    1 to ``side``² - 1.

    Each piece set is a unit of a :func:`~huarong.puzzles.jobs.run_job` on ``threads``
    threads, or on the Dask scheduler at ``cluster``, checkpointed in ``directory`` (which
    the caller removes with :func:`~huarong.puzzles.jobs.finish` once it has the records);
    ``memory`` bounds each unit's bitset."""
    sets = piece_sets(shapes, side)
    work = functools.partial(sbp_set, shapes=tuple(shapes), side=side, memory=memory)
    answers: dict[int, Columns] = {}
    for index, columns in run_job(
            sets, work, threads=threads, directory=directory, cluster=cluster,
            sizes=[sbp_space(*piece_set, shapes, side).codes for piece_set in sets],
            key=f"{SBP_JOB} {side} {list(shapes)}",
            progress=None if progress is None else functools.partial(progress, "piece sets")):
        answers[index] = columns
    best: dict[int, tuple[int, str | None]] = {}
    tally: dict[int, list[int]] = {}
    # In the order of the sets, whichever finished first: the same start for a tied length.
    for index, (_, counts) in enumerate(sets):
        columns = answers[index]
        pieces = 1 + sum(counts)
        count = tally.setdefault(pieces, [0, 0, 0])
        count[0] += 1
        count[1] += int(columns["clusters"][0])
        count[2] += int(columns["states"][0])
        if int(columns["length"][0]) > best.get(pieces, (-1, None))[0]:
            best[pieces] = (int(columns["length"][0]), str(columns["start"][0]))
    return [SbpRecord(n, *best.get(n, (-1, None)), *tally.get(n, [0, 0, 0]))
            for n in range(1, side * side)]
