"""The values of a design search: each candidate's cluster, searched once
(:class:`Evaluator`).  The space values a design (:meth:`DesignSpace.value
<huarong.puzzles.design.DesignSpace.value>`: the general engine, or a preset's own); the
evaluator keeps the clusters met, by their canonical key, so a cluster met again is not kept
twice, and tests minimality with the function it is given (the space's by default)."""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from huarong.puzzles.cluster import ClusterTooLarge
from huarong.puzzles.design import MAX_STATES, Design, DesignSpace, Value
from huarong.puzzles.grid import PuzzleError

OBJECTIVES = ("length", "difficulty")
"""What a search makes as large as it can: the hardest start's fewest moves, or its predicted
median time to solve for a person (:mod:`huarong.puzzles.difficulty`)."""

RECENT_DESIGNS = 1 << 14
"""The designs an :class:`Evaluator` remembers the values of (the last valued)."""

Minimality = Callable[[Design, int, int], bool]
"""``minimal(design, length, limit)``: whether every piece of a start of ``length`` moves
matters (searches of about ``limit`` states at most)."""


class Evaluator:
    """Values of designs in one space, each cluster kept once (thread-safe, so chains on
    threads share them).  A cluster of more than ``max_states`` states is not valued
    (length -1); ``minimality`` tests starts (the space's test by default); with the
    ``difficulty`` objective a cluster's score is its hardest start's predicted median time
    to solve, as ``round(100 * ln(seconds))``."""

    def __init__(self, space: DesignSpace, max_states: int = MAX_STATES,
                 minimality: Minimality | None = None, objective: str = "length") -> None:
        if objective not in OBJECTIVES:
            raise PuzzleError(objective, f"not an objective: one of {', '.join(OBJECTIVES)}")
        self.space = space
        self.max_states = max_states
        self.objective = objective
        self.minimality = space.minimal if minimality is None else minimality
        self.values: dict[tuple[Any, ...], Value] = {}
        self.recent: OrderedDict[Design, Value] = OrderedDict()
        """The last :data:`RECENT_DESIGNS` designs valued, by design: a chain changes one
        start again and again (a climb on Rush Hour's 6x6 board met 1,256 distinct
        designs in 3,000 evaluations), and a design met again is answered at once."""
        self.minimal_of: dict[tuple[Any, ...], bool] = {}
        self.lock = threading.Lock()
        self.search_seconds = 0.0
        """Wall time spent in the cluster searches, all threads together."""

    def value(self, design: Design) -> tuple[Value, bool]:
        """The design's cluster, and whether it was met before.  A cluster past
        ``max_states``, or whose states cannot be coded, is not valued: length -1, the
        design's own key, and counted as met."""
        with self.lock:
            known = self.recent.get(design)
            if known is not None:
                self.recent.move_to_end(design)
                return known, True
        began = time.perf_counter()
        try:
            found = self.space.value(design, self.max_states)
        except ClusterTooLarge:
            return Value(-1, self.max_states + 1, 0, design, ("too large", design)), True
        except PuzzleError:  # more placements than a code holds: not valued
            return Value(-1, 0, 0, design, ("too large", design)), True
        finally:
            with self.lock:
                self.search_seconds += time.perf_counter() - began
        with self.lock:
            if found.key in self.values:
                kept = self.values[found.key]
                self._remember(design, kept)
                return kept, True
        if self.objective == "difficulty":
            found = dataclasses.replace(found, score=self._difficulty_score(found))
        with self.lock:  # another thread may have valued the same cluster meanwhile
            kept = self.values.setdefault(found.key, found)
            self._remember(design, kept)
        return kept, kept is not found

    def _remember(self, design: Design, value: Value) -> None:
        """Keep ``design``'s value among the recent (the lock held)."""
        self.recent[design] = value
        if len(self.recent) > RECENT_DESIGNS:
            self.recent.popitem(last=False)

    def _difficulty_score(self, found: Value) -> int:
        """100 times the log of the hardest start's predicted seconds (at least 0); 0 where
        its walk does not settle, so such a cluster is never kept above one with a
        difficulty, and the search goes on."""
        from huarong.puzzles.difficulty.model import difficulty
        from huarong.puzzles.difficulty.walk import WalkDidNotSettle

        if found.length <= 0:
            return found.length
        try:
            seconds = difficulty(self.space.puzzle(found.hardest), limit=self.max_states)
        except WalkDidNotSettle:
            return 0
        return max(0, round(100 * math.log(seconds.median_seconds)))

    def minimal(self, design: Design, length: int, key: tuple[Any, ...] | None = None
                ) -> bool:
        """Whether every piece but the goal piece, and every wall the design added, matters:
        without it the start is solved in fewer moves than ``length``; tested once for the
        hardest start of a cluster of ``key``, when given."""
        if key is not None and key in self.minimal_of:
            return self.minimal_of[key]
        found = length >= 0 and self.minimality(design, length, self.max_states)
        if key is not None:
            with self.lock:
                self.minimal_of[key] = found
        return found

    def grid(self, design: Design) -> str:
        """The design's start as grid text."""
        return self.space.grid(design)

    def goal(self, design: Design) -> str:
        """The goal (grid text) of the design's board."""
        return self.space.goal(design)

    def puzzle(self, design: Design) -> Any:
        """The design as a puzzle of the general engine."""
        return self.space.puzzle(design)
