"""The table of minimum steps: one byte per layout, indexed by id, memory-mapped.

``huarong db build`` writes it beside the database (``huarong.duckdb.minsteps`` beside
``huarong.duckdb``, 29 MB) and ``huarong db table`` writes it from a database built before
the table existed.  With it, solving a layout is a walk instead of a search: from the layout,
step to a neighbour whose minimum steps are one less until a goal, each neighbour found by
its id (the perfect index, :mod:`huarong.engine.ids`).  The walk picks exactly the path the
search would (see :mod:`huarong._kernels.table`), so answers do not depend on whether the
table is there.

The file: a 32-byte header (the magic ``HUARONG-MINSTEPS``, the number of entries and the
CRC-32 of the entries, little-endian) and one byte per id: the minimum steps (0..253), 255
when the layout's group holds no goal, 254 when the table does not hold that layout (a table
written from a database of only some classes).  A file of the wrong size, magic or checksum
is refused with :class:`TableError`, in one line that says how to write it again.
"""

from __future__ import annotations

import mmap
import os
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Final

import numpy as np

from huarong.engine.ids import LAYOUT_COUNT, rank_index
from huarong.engine.layout import Layout, layouts_of_codes
from huarong.engine.solver import Solution
from huarong.space.mapped import BesideFileError, MappedFile, map_checked, path_beside

if TYPE_CHECKING:
    from types import ModuleType

MAGIC: Final = b"HUARONG-MINSTEPS"
_HEADER: Final = struct.Struct("<16sQI4x")
HEADER_SIZE: Final = _HEADER.size
SUFFIX: Final = ".minsteps"
NOT_KNOWN: Final = -2
"""In the arrays :func:`write_table` takes: a layout the table will not hold (and ``-1``, as
in :mod:`huarong.space.cases`, one without a solution)."""


def _kernels() -> ModuleType:
    from huarong._kernels import table

    return table


class TableError(BesideFileError):
    """A table file that cannot be used; the message names the file and how to fix it."""

    kind = "table"


def table_path(database: str | os.PathLike[str]) -> Path:
    """Where the table of the database at ``database`` is: beside it, ``SUFFIX`` added."""
    return path_beside(database, SUFFIX)


def entries_of(min_steps: np.ndarray) -> np.ndarray:
    """The table's bytes for minimum steps indexed by id (``-1`` no solution,
    :data:`NOT_KNOWN` not held); ValueError for a wrong length or a value the table cannot
    hold."""
    kernels = _kernels()
    if min_steps.shape != (LAYOUT_COUNT,):
        raise ValueError(f"the table holds {LAYOUT_COUNT:,} layouts, not {min_steps.shape}")
    low, high = (int(min_steps.min()), int(min_steps.max())) if min_steps.size else (0, 0)
    if low < NOT_KNOWN or high > kernels.MOST_STEPS:
        raise ValueError(f"minimum steps from {low} to {high} do not fit the table "
                         f"({NOT_KNOWN}..{kernels.MOST_STEPS})")
    entries = min_steps.astype(np.uint8)
    entries[min_steps == -1] = kernels.NO_SOLUTION
    entries[min_steps == NOT_KNOWN] = kernels.NOT_IN_TABLE
    return entries


def write_table(path: str | os.PathLike[str], min_steps: np.ndarray) -> Path:
    """Write the table for minimum steps indexed by id (see :func:`entries_of`) to ``path``,
    atomically.  Returns the path."""
    from huarong.fileio import atomic_writer

    entries = entries_of(min_steps)
    target = Path(path)
    with atomic_writer(target, "wb") as stream:
        stream.write(_HEADER.pack(MAGIC, LAYOUT_COUNT, zlib.crc32(entries.data)))
        stream.write(entries.tobytes())
    return target


class MinStepsTable(MappedFile):
    """An open table: read-only and memory-mapped, so a process (or the pages the system
    shares between processes) holds only the parts it reads after the checksum is checked."""

    def __init__(self, path: Path, buffer: mmap.mmap) -> None:
        super().__init__(path, buffer)
        self._entries = np.frombuffer(buffer, dtype=np.uint8, count=LAYOUT_COUNT,
                                      offset=HEADER_SIZE)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> MinStepsTable:
        """Open and check the table at ``path``: :class:`TableError` when it is missing,
        unreadable, of the wrong size or kind, or its checksum does not match."""
        target = Path(path)
        buffer, _ = map_checked(target, _HEADER, MAGIC, LAYOUT_COUNT,
                                lambda fields: HEADER_SIZE + LAYOUT_COUNT,
                                "table of minimum steps", TableError)
        return cls(target, buffer)

    def _forget_views(self) -> None:
        del self._entries

    def holds(self, layout: Layout) -> bool:
        """Whether the table knows ``layout``'s minimum steps."""
        return bool(self._entries[layout.id] != _kernels().NOT_IN_TABLE)

    def min_steps(self, layout: Layout) -> int | None:
        """The minimum steps of ``layout`` (None: no solution); KeyError when the table does
        not hold it."""
        entry = int(self._entries[layout.id])
        kernels = _kernels()
        if entry == kernels.NOT_IN_TABLE:
            raise KeyError(f"the table {self.path} does not hold layout {layout.code}")
        return None if entry == kernels.NO_SOLUTION else entry

    def solve(self, layout: Layout) -> Solution | None:
        """The search's minimum-step solution (:func:`huarong.engine.solver.solve`) by
        walking the table; None when the table does not hold ``layout``."""
        kernels = _kernels()
        codes, status, visited = kernels.walk(np.int64(int(layout)), self._entries,
                                              *rank_index())
        if status == kernels.NOT_IN_TABLE:
            return None
        return Solution(start=layout, path=tuple(layouts_of_codes(codes)),
                        explored=int(visited))


def open_beside(database: str | os.PathLike[str]) -> MinStepsTable | None:
    """The table beside the database at ``database``, or None when there is none;
    :class:`TableError` when there is one that cannot be used."""
    path = table_path(database)
    if not path.exists():
        return None
    return MinStepsTable.open(path)


def solve(layout: Layout, table: MinStepsTable | None) -> Solution:
    """A minimum-step solution from ``table`` when it holds ``layout``, else by search."""
    solution = table.solve(layout) if table is not None else None
    if solution is None:
        from huarong.engine.solver import solve as search

        return search(layout)
    return solution
