"""Statistics of the standard layouts, as klotski.online counts them (docs §7).

The standard layouts are class 5-4: five 2-cell pieces and four 1x1 pieces.  klotski.online
keeps the ones not already solved, then one of each mirror pair, then the solvable ones, and
breaks those down by their number of horizontal pieces.  Of a mirror pair this module keeps
the member with the smaller common code, the member whose solution klotski.online stores
(see :mod:`huarong.web.app`); counts do not depend on the choice, since mirror images share their
class, their shape counts and their minimum steps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from huarong.engine.layout import GOAL_ADDRESS, Layout

Progress = Callable[[str, int, int], None]
"""``progress(phase, done, total)``: called as the computation advances."""

STANDARD_JIANG = 5
STANDARD_BING = 4
STYLE_ORDER = (1, 2, 3, 4, 5, 0)
"""klotski.online's order for the breakdown: 1..5 horizontal pieces, then all vertical."""

_ITEMS = 16
_HORIZONTAL_ITEM = 1


@dataclass(frozen=True)
class StandardStats:
    """The figures of docs §7 and the minimum steps of the layouts they end with."""

    layouts: int
    """Every standard layout."""
    not_solved: int
    """Those whose 2x2 is not already at the exit."""
    mirror_distinct: int
    """Those, keeping one layout of each mirror pair."""
    solvable: int
    """Those, keeping the solvable ones: klotski.online's game layouts."""
    by_horizontal: dict[int, int]
    """Solvable game layouts by number of horizontal pieces (0..5)."""
    min_steps_distribution: dict[int, int]
    """Solvable game layouts by minimum steps, ascending."""
    hardest: tuple[Layout, ...]
    """The game layouts with the largest minimum steps, by code."""

    @property
    def hardest_steps(self) -> int:
        return max(self.min_steps_distribution)


def horizontal_counts(codes: np.ndarray) -> np.ndarray:
    """Number of horizontal pieces of each common code (an int64 array)."""
    items = codes & 0xFFFF_FFFF
    counts = np.zeros(codes.shape, dtype=np.int64)
    for item in range(_ITEMS):
        counts += ((items >> (2 * item)) & 3) == _HORIZONTAL_ITEM
    return counts


def standard_stats(progress: Progress | None = None) -> StandardStats:
    """Recompute the statistics of the 363,480 standard layouts."""
    from huarong.space import cases

    report = progress or (lambda phase, done, total: None)
    codes, min_steps, _ = cases.min_steps_of_class(
        STANDARD_JIANG, STANDARD_BING,
        lambda done, total: report("minimum steps of the standard layouts", done, total))
    codes = np.asarray(codes, dtype=np.int64)
    min_steps = np.asarray(min_steps, dtype=np.int64)

    report("mirror images", 0, 1)
    not_solved = (codes >> 32) != GOAL_ADDRESS
    distinct = not_solved & _first_of_mirror_pair(codes)
    report("mirror images", 1, 1)
    game = distinct & (min_steps >= 0)

    horizontal = horizontal_counts(codes[game])
    steps, step_counts = np.unique(min_steps[game], return_counts=True)
    hardest_steps = int(steps[-1])
    hardest = codes[game & (min_steps == hardest_steps)]
    return StandardStats(
        layouts=int(codes.shape[0]),
        not_solved=int(np.count_nonzero(not_solved)),
        mirror_distinct=int(np.count_nonzero(distinct)),
        solvable=int(np.count_nonzero(game)),
        by_horizontal={style: int(np.count_nonzero(horizontal == style))
                       for style in STYLE_ORDER},
        min_steps_distribution={int(s): int(n) for s, n in zip(steps, step_counts,
                                                               strict=True)},
        hardest=tuple(Layout(int(code)) for code in np.sort(hardest)),
    )


def _first_of_mirror_pair(codes: np.ndarray) -> np.ndarray:
    """Whether each code is the member of its mirror pair with the smaller common code."""
    from huarong._kernels.klotski import mirror_codes

    return np.asarray(codes <= mirror_codes(codes))


@dataclass(frozen=True, eq=False)
class Levels:
    """klotski.online's game layouts (see :class:`StandardStats`) as levels: by minimum steps,
    then by code."""

    codes: np.ndarray
    min_steps: np.ndarray

    def __len__(self) -> int:
        return int(self.codes.shape[0])

    def first_with(self, min_steps: int) -> int:
        """The position of the first level with at least ``min_steps`` minimum steps."""
        return int(np.searchsorted(self.min_steps, min_steps))


def standard_levels(codes: ArrayLike, min_steps: ArrayLike) -> Levels:
    """The game layouts among standard ``codes`` with their ``min_steps`` (negative or NULL
    read as -1: no solution): not solved, solvable, one of each mirror pair."""
    codes = np.asarray(codes, dtype=np.int64)
    min_steps = np.asarray(min_steps, dtype=np.int64)
    game = (min_steps > 0) & _first_of_mirror_pair(codes)
    order = np.lexsort((codes[game], min_steps[game]))
    return Levels(codes=codes[game][order], min_steps=min_steps[game][order])


@dataclass(frozen=True, eq=False)
class GroupMinSteps:
    """The minimum steps to a goal of every layout of one group (-1: no solution)."""

    codes: np.ndarray
    """The group's common codes, ascending."""
    min_steps: np.ndarray
    """Minimum steps of each code, aligned with ``codes``."""

    def _position(self, layout: Layout) -> int | None:
        at = int(np.searchsorted(self.codes, int(layout)))
        found = at < self.codes.shape[0] and int(self.codes[at]) == int(layout)
        return at if found else None

    def __contains__(self, layout: Layout) -> bool:
        return self._position(layout) is not None

    def of(self, layout: Layout) -> int | None:
        """Minimum steps of ``layout`` (None: no solution); ValueError if not in the group."""
        position = self._position(layout)
        if position is None:
            raise ValueError(f"layout {layout.code} is not in this group")
        steps = int(self.min_steps[position])
        return steps if steps >= 0 else None


def group_min_steps(layout: Layout) -> GroupMinSteps:
    """Minimum steps of every layout of ``layout``'s group: one breadth-first search from all
    its goal layouts at once over its :class:`~huarong.graph.StateGraph`, so a whole game's
    hints cost one search."""
    from huarong.engine.state_graph import klotski_graph

    graph = klotski_graph(layout)
    return GroupMinSteps(codes=graph.codes, min_steps=graph.min_steps)
