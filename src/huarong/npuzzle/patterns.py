"""Disjoint additive pattern databases for IDA*: the partitions, the cache on disk (checked by
SHA-256, rebuilt when it does not match) and the arrays the search kernels read."""

from __future__ import annotations

import functools
import hashlib
import math
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from huarong.npuzzle.board import (
    MAX_RANKED_CELLS,
    Board,
    UnsupportedBoardError,
    _joined,
    _neighbour_cells,
)

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


_PATTERN_FORMAT = b"huarong-npuzzle-pdb-1\n"
_DIGEST_SIZE = 32


def cache_directory() -> Path:
    """Where pattern databases are kept: ``$HUARONG_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/huarong``, else ``~/.cache/huarong``."""
    explicit = os.environ.get("HUARONG_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "huarong"


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


def _pattern_cache_path(goal: Board, group: tuple[int, ...], directory: Path) -> Path:
    key = f"{goal.size}|goal {goal.line()}|tiles {_joined(group)}"
    name = hashlib.sha256(key.encode()).hexdigest()[:24]
    return directory / "npuzzle" / f"pdb-{goal.size}-{len(group)}tiles-{name}.bin"


def _read_pattern(path: Path, expected_size: int) -> ByteArray | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header = len(_PATTERN_FORMAT) + _DIGEST_SIZE
    if len(data) != header + expected_size or not data.startswith(_PATTERN_FORMAT):
        return None
    payload = data[header:]
    if hashlib.sha256(payload).digest() != data[len(_PATTERN_FORMAT):header]:
        return None
    return np.frombuffer(payload, dtype=np.uint8).copy()


def _write_pattern(path: Path, values: ByteArray) -> None:
    payload = values.tobytes()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(_PATTERN_FORMAT + hashlib.sha256(payload).digest() + payload)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        # An unwritable cache costs a rebuild next time, never a failed solve.
        return


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
        compacts.append(_read_pattern(_pattern_cache_path(goal, group, directory),
                                      _arrangements(cells, len(group))))
    total = sum(_arrangements(cells, len(g) + 1) for g, c in zip(groups, compacts, strict=True)
                if c is None)
    done = 0
    for index, group in enumerate(groups):
        if compacts[index] is None:
            built = _build_pattern(goal, group, done, total, progress)
            done += _arrangements(cells, len(group) + 1)
            _write_pattern(_pattern_cache_path(goal, group, directory), built)
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
