"""The table of group figures: what the database stores of each layout at build, by id,
memory-mapped, so a server answers a layout's row without a query.

``huarong db build`` writes it beside the database (``huarong.duckdb.figures`` beside
``huarong.duckdb``, 264 MB) and ``huarong db table`` writes it from a database built before it
existed.  A DuckDB query of one row costs about a millisecond, most of a light answer's time;
a record here costs microseconds.  It holds the figures that never change after the build:
``group_num``, ``group_index``, ``group_size``, ``min_steps`` and ``min_step_solutions``; the
layer figures, which ``huarong db layers`` adds class by class, stay in the database.

The file: a 32-byte header (the magic ``HUARONG-FIGURES\\0``, the number of ids, the rows of
the database it was written from, the number of groups and the CRC-32 of everything after
the header, little-endian), then a 9-byte record per id (``group_index`` u32, ``group_num``
u16, ``min_step_solutions`` u16, ``min_steps`` u8; ``group_num`` 65535 for an id the database
has no row of, ``min_steps`` 255 for a group without a goal), then a 9-byte record per group
(``jiang``, ``bing``, ``style`` u8, ``group_num`` u16, ``size`` u32).  A file of the wrong
size, magic or checksum is refused with :class:`FiguresError`, in one line that says how to
write it again.
"""

from __future__ import annotations

import mmap
import os
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

import numpy as np

from huarong.engine.ids import LAYOUT_COUNT
from huarong.engine.layout import Layout
from huarong.space.mapped import MappedFile, map_checked

if TYPE_CHECKING:
    from huarong.space.database import Database

MAGIC: Final = b"HUARONG-FIGURES\0"
_HEADER: Final = struct.Struct("<16sQIII")
HEADER_SIZE: Final = _HEADER.size
SUFFIX: Final = ".figures"
NOT_HELD: Final = 0xFFFF
"""``group_num`` of an id the database has no row of (a database of some classes)."""
NO_GOAL: Final = 0xFF
"""``min_steps`` of a layout whose group holds no goal (NULL in the database)."""

_RECORD_FIELDS: Final = (("group_index", "<u4"), ("group_num", "<u2"),
                         ("min_step_solutions", "<u2"), ("min_steps", "u1"))
RECORD: Final = np.dtype(list(_RECORD_FIELDS))
GROUP: Final = np.dtype([("jiang", "u1"), ("bing", "u1"), ("style", "u1"),
                         ("group_num", "<u2"), ("size", "<u4")])
_BATCH_ROWS: Final = 1 << 22


class FiguresError(ValueError):
    """A figures file that cannot be used; the message names the file and how to fix it."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        super().__init__(f"figures {path}: {reason}; write it again with `huarong db table`")


@dataclass(frozen=True)
class BuildFigures:
    """A layout's figures fixed at build, as the database stores them."""

    group_num: int
    group_index: int
    group_size: int
    min_steps: int | None
    min_step_solutions: int


def figures_path(database: str | os.PathLike[str]) -> Path:
    """Where the figures of the database at ``database`` are: beside it, ``SUFFIX`` added
    (beside the file a symbolic link points to, which is the one ``db build`` replaces)."""
    database = Path(os.path.realpath(database))
    return database.with_name(database.name + SUFFIX)


def _fitting(values: np.ndarray, column: str, most: int) -> np.ndarray:
    if values.size and (int(values.min()) < 0 or int(values.max()) > most):
        raise ValueError(f"{column} from {int(values.min())} to {int(values.max())} does not "
                         f"fit the figures file (0..{most})")
    return values


def write_figures(path: str | os.PathLike[str], database: Database,
                  progress: Callable[[int, int], None] | None = None) -> Path:
    """Write the figures of ``database`` to ``path``, atomically, reading the rows in
    batches (``progress(done, total)`` after each); ValueError for a figure the file cannot
    hold.  Returns the path."""
    from huarong.fileio import atomic_writer

    records = np.zeros(LAYOUT_COUNT, dtype=RECORD)
    records["group_num"] = NOT_HELD
    rows = database.query("SELECT count(*) FROM layouts").rows[0][0]
    done = 0
    for batch in database.stream(
            f"SELECT id, group_index, group_num, min_step_solutions, "
            f"coalesce(min_steps, {NO_GOAL}) FROM layouts", batch_rows=_BATCH_ROWS).batches:
        ids = batch.column(0).to_numpy()
        for position, (column, _) in enumerate(_RECORD_FIELDS, start=1):
            most = np.iinfo(RECORD[column]).max - (column == "group_num")
            records[column][ids] = _fitting(batch.column(position).to_numpy(), column, most)
        done += batch.num_rows
        if progress:
            progress(done, rows)
    found = database.query("SELECT jiang, bing, style, group_num, size FROM groups "
                           "ORDER BY jiang, bing, style, group_num").rows
    groups = np.array(found, dtype=GROUP) if found else np.zeros(0, dtype=GROUP)
    checksum = zlib.crc32(groups.data, zlib.crc32(records.data))
    target = Path(path)
    with atomic_writer(target, "wb") as stream:
        stream.write(_HEADER.pack(MAGIC, LAYOUT_COUNT, rows, len(groups), checksum))
        stream.write(records.data)
        stream.write(groups.data)
    return target


class GroupFigures(MappedFile):
    """An open figures file: read-only and memory-mapped, so a process (or the pages the
    system shares between processes) holds only the records it reads, after the checksum is
    checked."""

    def __init__(self, path: Path, buffer: mmap.mmap, rows: int, group_count: int) -> None:
        super().__init__(path, buffer)
        self.rows = rows
        """The rows of the database the file was written from."""
        self.group_count = group_count
        self._records = np.frombuffer(buffer, dtype=RECORD, count=LAYOUT_COUNT,
                                      offset=HEADER_SIZE)
        groups = np.frombuffer(buffer, dtype=GROUP, count=group_count,
                               offset=HEADER_SIZE + LAYOUT_COUNT * RECORD.itemsize)
        self._sizes = {(int(g["jiang"]), int(g["bing"]), int(g["style"]), int(g["group_num"])):
                       int(g["size"]) for g in groups}

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> GroupFigures:
        """Open and check the file at ``path``: :class:`FiguresError` when it is missing,
        unreadable, of the wrong size or kind, or its checksum does not match."""
        target = Path(path)
        buffer, (_, _, rows, group_count, _) = map_checked(
            target, _HEADER, MAGIC, LAYOUT_COUNT,
            lambda fields: HEADER_SIZE + LAYOUT_COUNT * RECORD.itemsize
            + fields[3] * GROUP.itemsize, "figures file", FiguresError)
        return cls(target, buffer, rows, group_count)

    def _forget_views(self) -> None:
        del self._records

    def of(self, layout: Layout) -> BuildFigures | None:
        """``layout``'s figures, or None when the database has no row of it (or, in a
        database not made by ``db build``, no row of its group)."""
        group_index, group_num, min_step_solutions, min_steps = self._records[layout.id].item()
        size = self._sizes.get((layout.jiang_num, layout.bing_num, layout.style_num, group_num))
        if group_num == NOT_HELD or size is None:
            return None
        return BuildFigures(group_num=group_num, group_index=group_index, group_size=size,
                            min_steps=None if min_steps == NO_GOAL else min_steps,
                            min_step_solutions=min_step_solutions)


def open_beside(database: str | os.PathLike[str]) -> GroupFigures | None:
    """The figures beside the database at ``database``, or None when there are none;
    :class:`FiguresError` when there is a file that cannot be used."""
    path = figures_path(database)
    if not path.exists():
        return None
    return GroupFigures.open(path)
