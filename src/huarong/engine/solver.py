"""Solving: minimum-step solutions, shortest paths between layouts, groups, steps.

Typed wrappers over the numba kernels in :mod:`huarong._kernels.klotski`, which are imported
on first use so that importing :mod:`huarong` stays instant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from huarong.engine.layout import Layout, layouts_of_codes

if TYPE_CHECKING:
    from types import ModuleType

# Most groups are far smaller than this; larger searches grow their tables as they go.
_SIZE_HINT = 1 << 15


def _search_kernels() -> ModuleType:
    from huarong._kernels import group_search

    return group_search


@dataclass(frozen=True)
class Solution:
    """The result of :func:`solve`: a minimum-step path to a goal layout, if there is one."""

    start: Layout
    path: tuple[Layout, ...]
    """Start to goal, both included; empty when the start's group holds no goal layout."""
    explored: int
    """How many layouts the search visited, counting a layout and its mirror image once."""

    @property
    def solvable(self) -> bool:
        return bool(self.path)

    @property
    def steps(self) -> int | None:
        """The minimum number of steps, or None when there is no solution."""
        return len(self.path) - 1 if self.path else None

    @property
    def goal(self) -> Layout | None:
        return self.path[-1] if self.path else None


class NotInGroupError(ValueError):
    """The target of :func:`shortest_path` cannot be reached from the start."""

    def __init__(self, start: Layout, target: Layout) -> None:
        self.start = start
        self.target = target
        super().__init__(f"layout {target.code} is not in the group of {start.code}: "
                         "no sequence of steps joins them")


def _layouts(codes: Sequence[int] | np.ndarray) -> tuple[Layout, ...]:
    return tuple(layouts_of_codes(codes))


def solve(layout: Layout) -> Solution:
    """A minimum-step solution: the path to the nearest goal layout (2x2 at the exit)."""
    codes, explored = _search_kernels().solve_codes(np.int64(int(layout)), np.int64(_SIZE_HINT))
    return Solution(start=layout, path=_layouts(codes), explored=int(explored))


def shortest_path(start: Layout, target: Layout) -> tuple[Layout, ...]:
    """A minimum-step path from ``start`` to ``target``, both included.

    Raises NotInGroupError when ``target`` is not in ``start``'s group."""
    kernels = _search_kernels()
    boards, parents, _, found = kernels.bfs(
        np.int64(int(start)), kernels.STOP_AT_TARGET, np.int64(int(target)),
        np.int64(_SIZE_HINT))
    if found < 0:
        raise NotInGroupError(start, target)
    return _layouts(kernels.path_codes(boards, parents, found))


def group_codes(layout: Layout) -> np.ndarray:
    """The common codes of every layout in ``layout``'s group, ascending (int64 array)."""
    codes: np.ndarray = _search_kernels().group_codes(np.int64(int(layout)))
    return codes


def group_size(layout: Layout, limit: int | None = None) -> int | None:
    """The number of layouts in ``layout``'s group; None when it exceeds ``limit`` (the search
    stops there, so asking whether a group is small is cheap even for huge groups)."""
    if limit is None:
        return int(group_codes(layout).shape[0])
    size = int(_search_kernels().group_size_within(np.int64(int(layout)), np.int64(limit)))
    return None if size < 0 else size


def group(layout: Layout) -> list[Layout]:
    """Every layout of ``layout``'s group (its connected component), sorted by code."""
    return layouts_of_codes(group_codes(layout))


def children(layout: Layout) -> list[Layout]:
    """Every layout one step from ``layout`` (one piece moved any distance), sorted."""
    return layout.children()
