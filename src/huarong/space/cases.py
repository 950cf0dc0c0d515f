"""Every legal layout at once (docs §4): enumeration, the perfect index code -> rank, the
jiang-bing-style classes, the groups with their labels, and the minimum steps of every layout.

Typed wrappers over :mod:`huarong._kernels.cases` and :mod:`huarong._kernels.space_graph`,
imported on first use; the perfect index itself belongs to one layout
(:mod:`huarong.engine.ids`).  Layouts are handled
in bulk as numpy arrays indexed by *rank* (the layout's ``id``: the position of its code among
all legal codes sorted ascending).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from huarong.engine import ids
from huarong.engine.layout import Layout

if TYPE_CHECKING:
    from types import ModuleType

LAYOUT_COUNT = ids.LAYOUT_COUNT
"""How many legal layouts there are: the ids run from 0 to ``LAYOUT_COUNT - 1``."""
NO_SOLUTION = -1
"""``min_steps`` of a layout whose group holds no goal layout."""

Progress = Callable[[int, int], None]
"""``progress(done, total)``, called from time to time by the long computations."""


def _kernels() -> ModuleType:
    from huarong._kernels import cases

    return cases


def _graph_kernels() -> ModuleType:
    from huarong._kernels import space_graph

    return space_graph


@functools.cache
def _all_codes() -> np.ndarray:
    codes: np.ndarray = _kernels().enumerate_codes(*ids.index_tables())
    codes.flags.writeable = False
    return codes


def all_codes() -> np.ndarray:
    """Every legal common code, ascending, as a read-only int64 array (``all_codes()[id]``)."""
    return _all_codes()


def _code_of(layout: Layout | str | int) -> int:
    return int(layout) if isinstance(layout, Layout | int) else int(Layout.parse(layout))


def layout_id(layout: Layout | str | int) -> int:
    """The id (rank) of a layout, from its code alone (no array needed).

    Raises :class:`~huarong.engine.layout.LayoutError` when a code is given that is not legal."""
    return Layout.from_code(_code_of(layout)).id


def layout_ids(codes: np.ndarray) -> np.ndarray:
    """The id of each code (int64), -1 where a code is not legal."""
    result: np.ndarray = _kernels().ranks_of(np.ascontiguousarray(codes, dtype=np.int64),
                                            *ids.rank_index())
    return result


def layout_at(rank: int) -> Layout:
    """The layout with id ``rank``."""
    return Layout.from_id(rank)


@dataclass(frozen=True)
class Classes:
    """jiang_num, bing_num and style_num (docs §4) of every layout, indexed by id (int8)."""

    jiang: np.ndarray
    bing: np.ndarray
    style: np.ndarray

    def jiang_bing_counts(self) -> dict[tuple[int, int], int]:
        """Layouts per (jiang, bing) class: the 64-row table of seed 000."""
        return {(j, b): n for (j, b, _), n in _counts(self.jiang, self.bing, 0 * self.bing
                                                      ).items()}

    def style_counts(self) -> dict[tuple[int, int, int], int]:
        """Layouts per (jiang, bing, style) class: 203 classes."""
        return _counts(self.jiang, self.bing, self.style)

    def key(self) -> np.ndarray:
        """One int per layout naming its jiang-bing-style class (``jiang*256+bing*16+style``)."""
        key: np.ndarray = (self.jiang.astype(np.int32) << 8) | (
            self.bing.astype(np.int32) << 4) | self.style.astype(np.int32)
        return key


def _counts(jiang: np.ndarray, bing: np.ndarray, style: np.ndarray
            ) -> dict[tuple[int, int, int], int]:
    # Counted a slice at a time: whole-length temporaries over 29 M layouts would take
    # hundreds of MB (the test suite's memory is made of them).
    counts = np.zeros(_KEY_SPACE, dtype=np.int64)
    for start in range(0, jiang.shape[0], _COUNT_SLICE):
        part = slice(start, start + _COUNT_SLICE)
        key = (jiang[part].astype(np.int32) << 8) | (bing[part].astype(np.int32) << 4) | (
            style[part].astype(np.int32))
        counts += np.bincount(key, minlength=_KEY_SPACE)
    return {(k >> 8, (k >> 4) & 15, k & 15): int(counts[k])
            for k in np.flatnonzero(counts).tolist()}


_COUNT_SLICE = 1 << 21


@functools.cache
def classes() -> Classes:
    """The classes of all layouts (cached)."""
    jiang, bing, style = _kernels().classify(all_codes())
    return Classes(jiang, bing, style)


def classes_of(codes: np.ndarray) -> Classes:
    """The classes of the given codes."""
    jiang, bing, style = _kernels().classify(np.ascontiguousarray(codes, dtype=np.int64))
    return Classes(jiang, bing, style)


@dataclass(frozen=True)
class Groups:
    """The groups of all layouts (docs §4).  Per layout (indexed by id): ``group`` (a global
    group number, groups numbered by their smallest code) and ``group_index`` (computed on
    first use: the explorer never needs its 117 MB); per global group: ``sizes``,
    ``first_ids`` (the id of its smallest code, its seed) and ``group_nums`` (its number
    inside its jiang-bing-style class)."""

    group: np.ndarray
    sizes: np.ndarray
    first_ids: np.ndarray
    group_nums: np.ndarray

    @property
    def count(self) -> int:
        return int(self.sizes.shape[0])

    @functools.cached_property
    def group_index(self) -> np.ndarray:
        """The index of every layout in its group (its rank among the group's codes)."""
        index: np.ndarray = _graph_kernels().indices_in_groups(self.group, self.count)
        return index

    def group_num(self) -> np.ndarray:
        """group_num of every layout."""
        nums: np.ndarray = self.group_nums[self.group]
        return nums

    def group_size(self) -> np.ndarray:
        """The size of every layout's group."""
        sizes: np.ndarray = self.sizes[self.group]
        return sizes


# The jiang-bing-style classes that hold more than one group (81 of 203), as
# {(jiang, bing): styles}.  The other 122 classes are each one group, labelled with no search;
# a class missing here would merge its groups and change the count of 25,422 groups (tested).
SEARCHED_CLASSES: dict[tuple[int, int], tuple[int, ...]] = {
    (1, 12): (0, 1), (2, 9): (1, 2), (2, 10): (0, 1, 2), (3, 6): (1, 2), (3, 7): (0, 1, 2, 3),
    (3, 8): (0, 1, 2, 3), (4, 3): (1, 2), (4, 4): (1, 2, 3), (4, 5): (0, 1, 2, 3, 4),
    (4, 6): (0, 1, 2, 3, 4), (5, 0): (0, 3), (5, 1): (0, 2, 3), (5, 2): (0, 1, 2, 3, 4),
    (5, 3): (0, 1, 2, 3, 4, 5), (5, 4): (0, 1, 2, 3, 4, 5), (6, 0): (0, 1, 2, 3, 4, 5),
    (6, 1): (0, 1, 2, 3, 4, 5, 6), (6, 2): (0, 1, 2, 3, 4, 5, 6), (7, 0): (1, 2, 3, 4, 5, 6, 7),
}
_KEY_SPACE = 1 << 11
"""Room for every ``Classes.key()`` value (jiang < 8)."""


def _searched_keys() -> np.ndarray:
    """``searched[key]``: whether the class ``key`` (``Classes.key()``) needs a search."""
    searched = np.zeros(_KEY_SPACE, dtype=np.bool_)
    for (jiang, bing), styles in SEARCHED_CLASSES.items():
        for style in styles:
            searched[(jiang << 8) | (bing << 4) | style] = True
    return searched


def _thread_shares(starts: np.ndarray, threads: int) -> tuple[np.ndarray, np.ndarray]:
    """The searched classes (``starts`` as :func:`~huarong._kernels.cases.searched_members`
    gives them) shared out among the kernel's threads, the largest first to the least
    loaded: (class keys by thread, share bounds)."""
    sizes = np.diff(starts)
    loads = [0] * threads
    chosen: list[list[int]] = [[] for _ in range(threads)]
    for key in np.argsort(-sizes, kind="stable"):
        if sizes[key] == 0:
            break
        lightest = loads.index(min(loads))
        chosen[lightest].append(int(key))
        loads[lightest] += int(sizes[key])
    bounds = np.cumsum([0, *(len(share) for share in chosen)])
    return np.array([key for share in chosen for key in share], dtype=np.int64), \
        bounds.astype(np.int64)


# Results over all layouts, kept for the life of the process (they take seconds each).
_groups: list[Groups] = []
_min_steps: list[tuple[np.ndarray, np.ndarray]] = []


def label_groups(progress: Progress | None = None) -> Groups:
    """The group of every layout, the groups numbered as docs §4 orders them (computed once
    per process)."""
    if not _groups:
        _groups.append(_label_groups(progress))
    return _groups[0]


def _label_groups(progress: Progress | None) -> Groups:
    from huarong._kernels._jit import thread_count

    kernels = _graph_kernels()
    codes = all_codes()
    cls = classes()
    searched = _searched_keys()
    members, starts = kernels.searched_members(cls.jiang, cls.bing, cls.style, searched)
    shares, share_bounds = _thread_shares(starts, thread_count())
    if progress:
        progress(0, 3)
    roots = kernels.group_roots(codes, cls.jiang, cls.bing, cls.style, searched, members, starts,
                                shares, share_bounds, *ids.rank_index())
    if progress:
        progress(1, 3)
    group, sizes, firsts = kernels.number_groups(roots)
    if progress:
        progress(2, 3)
    # Within a class: size descending, then smallest code (= smallest id) ascending.
    group_class = Classes(cls.jiang[firsts], cls.bing[firsts], cls.style[firsts]).key()
    order = np.lexsort((firsts, -sizes.astype(np.int64), group_class))
    sorted_class = group_class[order]
    class_start = np.searchsorted(sorted_class, sorted_class, side="left")
    group_nums = np.empty(sizes.shape[0], dtype=np.int32)
    group_nums[order] = np.arange(order.shape[0]) - class_start
    if progress:
        progress(3, 3)
    return Groups(group, sizes, firsts, group_nums)


def _run_watched(work: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], total: int,
                 progress: Progress | None) -> tuple[np.ndarray, np.ndarray]:
    """Run a kernel that counts its progress in ``counter[0]`` (it releases the GIL), reporting
    the count every 0.2 s."""
    counter = np.zeros(1, dtype=np.int64)
    if progress is None:
        return work(counter)
    results: list[tuple[np.ndarray, np.ndarray]] = []
    failures: list[BaseException] = []

    def run() -> None:
        try:
            results.append(work(counter))
        except BaseException as error:  # re-raised in the calling thread
            failures.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    while worker.is_alive():
        progress(int(counter[0]), total)
        worker.join(0.2)
    if failures:
        raise failures[0]
    progress(total, total)
    return results[0]


def min_steps_all(progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Minimum steps to a goal (int16, :data:`NO_SOLUTION` when none) and the number of goal
    layouts at that distance (int32, 0 when none) of every layout, indexed by id.

    ``progress`` counts the layouts that have a solution (a goal in their group).  Computed
    once per process."""
    if not _min_steps:
        codes = all_codes()
        automaton, heads = ids.rank_index()
        _min_steps.append(_run_watched(
            lambda counter: _graph_kernels().min_steps(codes, automaton, heads, True, counter),
            LAYOUT_COUNT, progress))
    return _min_steps[0]


def class_codes(jiang: int, bing: int, style: int | None = None) -> np.ndarray:
    """The sorted codes of one jiang-bing (or jiang-bing-style) class."""
    _check_class(jiang, bing, style)
    cls = classes()
    selected = (cls.jiang == jiang) & (cls.bing == bing)
    if style is not None:
        selected &= cls.style == style
    chosen: np.ndarray = all_codes()[selected]
    return chosen


def _check_class(jiang: int, bing: int, style: int | None) -> None:
    if not (0 <= jiang <= 7 and 0 <= bing <= 14 and 2 * jiang + bing <= 14):
        raise ValueError(f"class {jiang}-{bing} does not exist: a layout has 0..7 two-cell "
                         "pieces and at most 14 cells for the others beside 2 empty cells")
    if style is not None and not 0 <= style <= jiang:
        raise ValueError(f"style {style} does not exist in class {jiang}-{bing}: it counts "
                         f"the horizontal pieces among the {jiang} two-cell pieces")


def min_steps_of_class(jiang: int, bing: int, progress: Progress | None = None
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(codes, min_steps, solution_counts) of one jiang-bing class, which steps never leave:
    the sorted codes, the minimum steps to a goal of each (int16, :data:`NO_SOLUTION` when
    none) and the number of goal layouts at that distance (int32)."""
    codes = np.ascontiguousarray(class_codes(jiang, bing))
    return (codes, *min_steps_of_codes(codes, progress))


def min_steps_of_codes(codes: np.ndarray, progress: Progress | None = None
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Like :func:`min_steps_all` over a sorted array of codes closed under steps."""
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    automaton, heads = ids.rank_index()
    return _run_watched(lambda counter: _graph_kernels().min_steps(codes, automaton, heads, False,
                                                            counter),
                        int(codes.shape[0]), progress)
