"""The ``difficulty`` column of search and design result files: the model's predicted median
seconds to solve (:func:`~huarong.puzzles.difficulty.model.difficulty`) of a row's start,
for the hardest :data:`DIFFICULTY_ROWS` rows with a solved state, null for the others.

Seconds rather than the grade: they order the rows finely, and the grade follows from them
by :func:`~huarong.puzzles.difficulty.model.grade_of`.  Each value searches the row's
cluster again (the result file keeps no graphs), so only the rows a reader looks at first get
one, and a cluster past :data:`DIFFICULTY_STATES` states gets null.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

DIFFICULTY_ROWS = 50
"""Rows, hardest first (longest, then largest cluster), whose difficulty a result file holds."""
DIFFICULTY_STATES = 200_000
"""The largest cluster searched for a row's difficulty (about a second); past it, null."""


def row_difficulty(start: str, spec: Mapping[str, Any], goal: str | None = None,
                   distinct: str | None = None) -> float | None:
    """The predicted median seconds of the start ``start`` (grid text) of a result file whose
    puzzle is ``spec`` (:meth:`~huarong.puzzles.board.Board.spec`), with the row's own
    ``goal`` and ``distinct`` letters where the file has them; None when its cluster holds no
    goal or more than :data:`DIFFICULTY_STATES` states, its states have no general code
    (a 7x7 Rush Hour board full of vehicles) or its walk does not settle."""
    from huarong.puzzles.cluster import ClusterTooLarge
    from huarong.puzzles.difficulty.features import UnsolvableStart
    from huarong.puzzles.difficulty.model import difficulty
    from huarong.puzzles.difficulty.walk import WalkDidNotSettle
    from huarong.puzzles.puzzle import build_puzzle
    from huarong.puzzles.tables import TooManyPlacements

    if distinct is None:
        distinct = "".join(piece["letters"] for piece in spec["pieces"] if piece["distinct"])
    # A row's start is always grid text: built as the grid notation builds it, without the
    # notation's readers (which reach the presets, whose searches write result files).
    try:
        puzzle = build_puzzle(start, goal=goal or spec["goal"], metric=spec["metric"],
                              rules=spec["rules"], distinct=set(distinct))
        return difficulty(puzzle, limit=DIFFICULTY_STATES).median_seconds
    except (ClusterTooLarge, UnsolvableStart, TooManyPlacements, WalkDidNotSettle):
        return None


def difficulty_column(columns: Mapping[str, Any], spec: Mapping[str, Any],
                      rows: int = DIFFICULTY_ROWS) -> list[float | None]:
    """The ``difficulty`` of each row of a result table's ``columns`` (``states``,
    ``length`` below 0 for no solved state, ``start``, and the row's ``goal`` and
    ``distinct`` where present): :func:`row_difficulty` for the hardest ``rows`` rows with a
    solved state, None for the others."""
    lengths = np.asarray(columns["length"], dtype=np.int64)
    states = np.asarray(columns["states"], dtype=np.int64)
    order = np.lexsort((np.arange(lengths.shape[0]), -states, -lengths))
    chosen = [int(k) for k in order[:rows] if lengths[k] >= 0]
    starts: Sequence[str] = columns["start"]
    goals: Sequence[str | None] | None = columns.get("goal")
    distincts: Sequence[str | None] | None = columns.get("distinct")
    found: list[float | None] = [None] * lengths.shape[0]
    for k in chosen:
        found[k] = row_difficulty(str(starts[k]), spec,
                                  None if goals is None else goals[k],
                                  None if distincts is None else distincts[k])
    return found
