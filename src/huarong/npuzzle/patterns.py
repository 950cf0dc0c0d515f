"""Disjoint additive pattern databases for IDA*: the partitions, their tables built or read
from the cache on disk (:mod:`huarong.npuzzle.pattern_files`; rebuilt when a file does not
match) and the arrays the search kernels read."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from huarong.npuzzle.board import (
    MAX_RANKED_CELLS,
    Board,
    UnsupportedBoardError,
    _neighbour_cells,
)
from huarong.npuzzle.pattern_files import (
    COMPACT_FORMAT,
    PATTERN_FORMAT,
    compact_file,
    pattern_file,
    read_table,
    write_table,
)
from huarong.npuzzle.pattern_files import cache_directory as cache_directory

Progress = Callable[[int, int], None]
"""Called with (done, total) while a long computation runs."""

IntArray = npt.NDArray[np.int64]
ByteArray = npt.NDArray[np.uint8]

MAX_PATTERN_CELLS = 16
"""Pattern databases index cells in 4 bits."""


def _kernels() -> ModuleType:
    from huarong._kernels import npuzzle_pdb as kernels

    return kernels


@dataclass(frozen=True)
class _Geometry:
    """Everything the kernels need about a board size and goal, as fixed-dtype arrays."""

    rows: int
    cols: int
    neighbours: IntArray
    factorials: IntArray
    goal_cell_of_tile: IntArray
    distance: IntArray
    mirror_tile: IntArray
    mirror_cell: IntArray

    def tables(self, patterns: PatternDatabase | None = None) -> tuple[Any, ...]:
        if patterns is None:
            cells = self.rows * self.cols
            return (self.goal_cell_of_tile, self.distance, np.full(cells, -1, np.int64),
                    np.zeros(cells, np.int64), np.zeros(1, np.uint8), np.zeros(0, np.int64),
                    self.mirror_tile, self.mirror_cell)
        return (self.goal_cell_of_tile, self.distance, patterns.group_of_tile,
                patterns.slot_of_tile, patterns.values, patterns.offsets, self.mirror_tile,
                self.mirror_cell)


def _diagonal_mirror(goal: Board) -> tuple[IntArray, IntArray]:
    """Tile relabelling and cell map of the reflection about the main diagonal, when it maps
    the goal onto itself (square board, blank's goal on the diagonal); else empty arrays."""
    side = goal.rows
    if goal.rows != goal.cols or goal.blank // side != goal.blank % side:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    mirror_cell = np.array([(c % side) * side + c // side for c in range(goal.cells)],
                           dtype=np.int64)
    mirror_tile = np.empty(goal.cells, np.int64)
    for cell, tile in enumerate(goal.tiles):
        mirror_tile[tile] = goal.tiles[mirror_cell[cell]]
    return mirror_tile, mirror_cell


@functools.lru_cache(maxsize=16)
def _geometry(goal: Board) -> _Geometry:
    cells = goal.cells
    goal_cell_of_tile = np.empty(cells, np.int64)
    for cell, tile in enumerate(goal.tiles):
        goal_cell_of_tile[tile] = cell
    distance = np.zeros((cells, cells), np.int64)
    for tile in range(1, cells):
        goal_row, goal_col = divmod(int(goal_cell_of_tile[tile]), goal.cols)
        for cell in range(cells):
            row, col = divmod(cell, goal.cols)
            distance[tile, cell] = abs(row - goal_row) + abs(col - goal_col)
    factorials = np.array([math.factorial(i) for i in range(min(cells, MAX_RANKED_CELLS) + 1)],
                          dtype=np.int64)
    return _Geometry(goal.rows, goal.cols,
                     np.array(_neighbour_cells(goal.rows, goal.cols), dtype=np.int64),
                     factorials, goal_cell_of_tile, distance, *_diagonal_mirror(goal))


# ---------------------------------------------------------------- pattern databases


@dataclass(frozen=True)
class PatternDatabase:
    """Disjoint additive pattern databases for one goal, ready for IDA*.

    ``groups`` are the tiles of each pattern; ``values[offsets[g] + index]`` is the least
    number of moves of group ``g``'s tiles that bring them home, where ``index`` holds the cell
    of the group's i-th tile in bits 4i..4i+3.
    """

    goal: Board
    groups: tuple[tuple[int, ...], ...]
    group_of_tile: IntArray
    slot_of_tile: IntArray
    values: ByteArray
    offsets: IntArray


def pattern_groups(goal: Board) -> tuple[tuple[int, ...], ...]:
    """The tiles of each disjoint pattern, chosen by their goal cells.

    On 4 x 4 with the blank's goal in a corner this is the 6-6-3 split of Korf and Felner: the
    three tiles of the blank's row, then two 2 x 3 blocks.  Other goals and sizes cut the
    same cell order (or row order) into groups of at most six tiles.
    """
    rows, cols = goal.rows, goal.cols
    corner = goal.blank
    if (rows, cols) == (4, 4) and corner in (0, 3, 12, 15):
        flip_rows = corner // cols == rows - 1
        flip_cols = corner % cols == cols - 1

        def cell(r: int, c: int) -> int:
            return (rows - 1 - r if flip_rows else r) * cols + (cols - 1 - c if flip_cols else c)

        order = ([cell(0, c) for c in range(4)]
                 + [cell(r, c) for r in (1, 2, 3) for c in (0, 1)]
                 + [cell(r, c) for r in (1, 2, 3) for c in (2, 3)])
        sizes = [3, 6, 6]
    else:
        order = list(range(goal.cells))
        tile_count = goal.cells - 1
        group_count = -(-tile_count // 6)
        sizes = [tile_count // group_count + (1 if g < tile_count % group_count else 0)
                 for g in range(group_count)]
    tiles_in_order = [goal.tiles[c] for c in order if goal.tiles[c] != 0]
    groups = []
    begin = 0
    for size in sizes:
        groups.append(tuple(tiles_in_order[begin:begin + size]))
        begin += size
    return tuple(groups)


def _arrangements(cells: int, count: int) -> int:
    return math.perm(cells, count)


def _build_pattern(goal: Board, group: tuple[int, ...], done_before: int, total: int,
                   progress: Progress | None) -> ByteArray:
    kernels = _kernels()
    geometry = _geometry(goal)
    cells = goal.cells
    goal_positions = np.array([goal.tiles.index(t) for t in group] + [goal.blank],
                              dtype=np.int64)
    distances = np.full(_arrangements(cells, len(group) + 1), kernels.PATTERN_UNREACHED,
                        dtype=np.uint8)
    popcount, select = _bit_tables()
    layer = kernels.pattern_start(goal_positions, cells, distances, popcount)
    size = 1
    distance = 0
    done = done_before
    while size > 0:
        layer, size, settled = kernels.pattern_layer(layer, size, distance, len(group), cells,
                                                     goal.cols, geometry.neighbours, distances,
                                                     popcount, select)
        done += int(settled)
        distance += 1
        if progress is not None:
            progress(done, total)
    compact: ByteArray = kernels.pattern_minimum_over_blank(distances, cells - len(group))
    return compact


@functools.lru_cache(maxsize=1)
def _bit_tables() -> tuple[ByteArray, ByteArray]:
    popcount, select = _kernels().bit_tables()
    return popcount, select


_loaded_patterns: dict[tuple[Board, Path], PatternDatabase] = {}


def pattern_database(goal: Board, *, progress: Progress | None = None,
                     directory: Path | None = None) -> PatternDatabase:
    """The additive pattern databases for ``goal``: from memory, else from the disk cache
    (checked by size and SHA-256), else built (reporting ``progress``) and cached atomically."""
    if goal.cells > MAX_PATTERN_CELLS:
        raise UnsupportedBoardError(
            f"board {goal.size}: pattern databases cover boards of up to "
            f"{MAX_PATTERN_CELLS} cells")
    directory = directory if directory is not None else cache_directory()
    if (goal, directory) in _loaded_patterns:
        return _loaded_patterns[goal, directory]
    kernels = _kernels()
    groups = pattern_groups(goal)
    cells = goal.cells
    compacts: list[ByteArray | None] = []
    for group in groups:
        compacts.append(read_table(pattern_file(goal, group, directory),
                                   _arrangements(cells, len(group)), PATTERN_FORMAT))
    total = sum(_arrangements(cells, len(g) + 1) for g, c in zip(groups, compacts, strict=True)
                if c is None)
    done = 0
    for index, group in enumerate(groups):
        if compacts[index] is None:
            built = _build_pattern(goal, group, done, total, progress)
            done += _arrangements(cells, len(group) + 1)
            write_table(pattern_file(goal, group, directory), built, PATTERN_FORMAT)
            compacts[index] = built
    group_of_tile = np.full(cells, -1, np.int64)
    slot_of_tile = np.zeros(cells, np.int64)
    sparse_tables = []
    for index, (group, compact) in enumerate(zip(groups, compacts, strict=True)):
        for slot, tile in enumerate(group):
            group_of_tile[tile] = index
            slot_of_tile[tile] = slot
        sparse_tables.append(kernels.pattern_sparse(compact, len(group), cells,
                                                    _bit_tables()[1]))
    offsets = np.cumsum([0] + [t.size for t in sparse_tables[:-1]]).astype(np.int64)
    database = PatternDatabase(goal, groups, group_of_tile, slot_of_tile,
                               np.concatenate(sparse_tables), offsets)
    _loaded_patterns[goal, directory] = database
    return database


# ---------------------------------------------------------------- compact databases (7-8)


MAX_COMPACT_TILES = 8
"""Compact databases rank a group's order in ``k!`` entries with ``int32`` shift tables."""


@dataclass(frozen=True)
class CompactPatternDatabase:
    """Disjoint additive pattern databases ranked compactly, ``C(cells, k) * k!`` bytes for a
    group of ``k`` tiles (the 7-8 pair: 57,657,600 + 518,918,400 bytes).

    ``values[offsets[g] + subset * k! + order]`` is the least number of moves of group ``g``'s
    tiles (each step onto a cell free of the group's tiles counts one, other tiles' moves
    none) that bring them home; ``subset`` is the colex rank of the cells they stand on and
    ``order`` the rank of which tile stands on which of those cells.  ``kernel_tables`` is
    what the search kernels read.
    """

    goal: Board
    groups: tuple[tuple[int, ...], ...]
    values: ByteArray
    offsets: IntArray
    kernel_tables: tuple[Any, ...] = field(repr=False, compare=False)

    @property
    def entries(self) -> int:
        return int(self.values.size)


def compact_groups(goal: Board) -> tuple[tuple[int, ...], ...]:
    """The tiles of each compact database.

    On 4 x 4 with the blank's goal in a corner this is the 7-8 partition of Korf and Felner:
    the seven tiles nearest the blank's corner (the rest of its row and the next row), then
    the eight of the two far rows.  Other goals of up to 16 cells cut the tiles, in the order
    of their goal cells, into halves of at most eight.
    """
    rows, cols = goal.rows, goal.cols
    corner = goal.blank
    if goal.cells > MAX_PATTERN_CELLS:
        raise UnsupportedBoardError(
            f"board {goal.size}: pattern databases cover boards of up to "
            f"{MAX_PATTERN_CELLS} cells; use idastar")
    if (rows, cols) == (4, 4) and corner in (0, 3, 12, 15):
        flip_rows = corner // cols == rows - 1
        flip_cols = corner % cols == cols - 1

        def tile(r: int, c: int) -> int:
            return goal.tiles[(rows - 1 - r if flip_rows else r) * cols
                              + (cols - 1 - c if flip_cols else c)]

        near = tuple(tile(r, c) for r in (0, 1) for c in range(cols) if (r, c) != (0, 0))
        far = tuple(tile(r, c) for r in (2, 3) for c in range(cols))
        return near, far
    tiles = [t for t in goal.tiles if t != 0]
    half = len(tiles) // 2
    return tuple(group for group in (tuple(tiles[:half]), tuple(tiles[half:])) if group)


@functools.lru_cache(maxsize=1)
def _compact_common() -> tuple[Any, Any, IntArray]:
    """Colex ranks of every 16-cell set, popcounts, and 0! .. 16!."""
    kernels = _kernels()
    factorials = np.array([math.factorial(i) for i in range(MAX_PATTERN_CELLS + 1)], np.int64)
    return kernels.colex_ranks(MAX_PATTERN_CELLS), _bit_tables()[0], factorials


@functools.lru_cache(maxsize=MAX_COMPACT_TILES + 1)
def _ordinal_shifts(size: int) -> Any:
    return _kernels().ordinal_shifts(size, _compact_common()[2])


def _compact_size(cells: int, tiles: int) -> int:
    return math.comb(cells, tiles) * math.factorial(tiles)


def _compact_work(cells: int, tiles: int) -> int:
    """States of a build: tiles arrangements times the blank's cells."""
    return _compact_size(cells, tiles) * (cells - tiles)


def _build_compact(goal: Board, group: tuple[int, ...], done_before: int, total: int,
                   progress: Progress | None, values: ByteArray) -> None:
    """Breadth-first search of the space of the group's tiles and the blank, one distance at a
    time (each layer runs on every core), into ``values``: each entry is the least distance
    over the blank's cells."""
    kernels = _kernels()
    ranks, popcount, factorials = _compact_common()
    select = _bit_tables()[1]
    size = len(group)
    block = math.factorial(size)
    free_cells = goal.cells - size
    subsets = kernels.subsets_by_rank(goal.cells, size, ranks, popcount)
    shifts = _ordinal_shifts(size)
    neighbours = _geometry(goal).neighbours
    values[:] = kernels.UNREACHED
    codes = np.zeros(subsets.size * block, np.uint16 if free_cells <= 8 else np.uint32)
    goal_cells = [goal.tiles.index(t) for t in group]
    start = kernels.compact_goal_rank(np.array(goal_cells, np.int64), ranks, popcount,
                                      factorials)
    kernels.compact_seed(codes, values, start,
                         sum(1 for c in range(goal.blank) if c not in goal_cells))
    active = np.zeros(subsets.size, np.uint8)
    active[start // block] = 1
    done = done_before
    ceiling = done_before + _compact_work(goal.cells, size)
    distance = 0
    while True:
        following = np.zeros(subsets.size, np.uint8)
        done += int(kernels.compact_layer(codes, values, active, following, distance, size,
                                          goal.cols, neighbours, subsets, ranks, popcount,
                                          select, shifts, block))
        if progress is not None:
            progress(min(done, ceiling), total)
        if not following.any():
            if progress is not None:
                progress(ceiling, total)
            return
        active = following
        distance += 1


def compact_pattern_files(goal: Board, groups: tuple[tuple[int, ...], ...] | None = None,
                          directory: Path | None = None) -> list[tuple[tuple[int, ...], Path]]:
    """Where each group's compact database is cached (default: :func:`compact_groups`)."""
    groups = groups if groups is not None else compact_groups(goal)
    directory = directory if directory is not None else cache_directory()
    return [(group, compact_file(goal, group, directory)) for group in groups]


def compact_entries(goal: Board, group: tuple[int, ...]) -> int:
    """Entries (bytes) of one group's compact database: ``C(cells, k) * k!``."""
    return _compact_size(goal.cells, len(group))


def compact_file_status(goal: Board, group: tuple[int, ...], path: Path) -> str:
    """``"missing"``, ``"ok"`` (size and SHA-256 hold) or ``"corrupt"`` (rebuilt on use)."""
    if not path.exists():
        return "missing"
    if read_table(path, compact_entries(goal, group), COMPACT_FORMAT) is None:
        return "corrupt"
    return "ok"


_loaded_compact: dict[tuple[Board, tuple[tuple[int, ...], ...], Path],
                      CompactPatternDatabase] = {}


def compact_pattern_database(
    goal: Board, groups: tuple[tuple[int, ...], ...] | None = None, *,
    progress: Progress | None = None, directory: Path | None = None, cache: bool = True,
) -> CompactPatternDatabase:
    """Compact additive pattern databases for ``goal`` (default: :func:`compact_groups`, the
    7-8 partition on 4 x 4): from memory, else from the disk cache (checked by size and
    SHA-256), else built (reporting ``progress``) and, with ``cache``, stored atomically.  The
    groups must be disjoint and cover every tile."""
    groups = groups if groups is not None else compact_groups(goal)
    tiles = sorted(t for group in groups for t in group)
    if tiles != list(range(1, goal.cells)) or goal.cells > MAX_PATTERN_CELLS or any(
            len(group) > MAX_COMPACT_TILES for group in groups):
        raise UnsupportedBoardError(
            f"groups {groups}: compact databases need disjoint groups of at most "
            f"{MAX_COMPACT_TILES} tiles covering every tile of a board of at most "
            f"{MAX_PATTERN_CELLS} cells")
    directory = directory if directory is not None else cache_directory()
    key = (goal, groups, directory)
    if key in _loaded_compact:
        return _loaded_compact[key]
    cells = goal.cells
    paths = [path for _, path in compact_pattern_files(goal, groups, directory)]
    sizes = [_compact_size(cells, len(group)) for group in groups]
    offsets = np.cumsum([0, *sizes[:-1]]).astype(np.int64)
    # One array for all groups, each read or built in its place: no copy, 576 MB for 7-8.
    values = np.empty(sum(sizes), np.uint8)
    parts = [values[offset:offset + size] for offset, size in zip(offsets, sizes, strict=True)]
    missing = [index for index, (path, part) in enumerate(zip(paths, parts, strict=True))
               if not cache or read_table(path, part.size, COMPACT_FORMAT, part) is None]
    total = sum(_compact_work(cells, len(groups[index])) for index in missing)
    done = 0
    for index in missing:
        _build_compact(goal, groups[index], done, total, progress, parts[index])
        done += _compact_work(cells, len(groups[index]))
        if cache:
            write_table(paths[index], parts[index], COMPACT_FORMAT)
    database = CompactPatternDatabase(goal, groups, values, offsets,
                                      _compact_kernel_tables(goal, groups, values, offsets))
    if cache:
        _loaded_compact[key] = database
    return database


def _compact_kernel_tables(goal: Board, groups: tuple[tuple[int, ...], ...], values: ByteArray,
                           offsets: IntArray) -> tuple[Any, ...]:
    ranks, popcount, factorials = _compact_common()
    group_of_tile = np.full(goal.cells, -1, np.int64)
    slot_of_tile = np.zeros(goal.cells, np.int64)
    for index, group in enumerate(groups):
        for slot, tile in enumerate(group):
            group_of_tile[tile] = index
            slot_of_tile[tile] = slot
    sizes = sorted({len(g) for g in groups})
    shift_tables = [_ordinal_shifts(size) for size in sizes]
    shift_begin = dict(zip(sizes, np.cumsum([0] + [t.size for t in shift_tables[:-1]]),
                           strict=True))
    geometry = _geometry(goal)
    return (group_of_tile, slot_of_tile, np.array([len(g) for g in groups], np.int64), values,
            offsets, np.concatenate(shift_tables),
            np.array([shift_begin[len(g)] for g in groups], np.int64), ranks, popcount,
            factorials, geometry.mirror_tile, geometry.mirror_cell)
