"""The figures file: every figure the database stores of each layout, by id, memory-mapped,
so a server answers a layout's row without a query.

``huarong db build`` writes it beside the database (``huarong.duckdb.figures`` beside
``huarong.duckdb``: 264 MB, and 14 bytes a layout with layer figures), ``huarong db layers``
writes it again when it has finished (if there is one), and ``huarong db table`` writes it for
a database built before it existed.  A DuckDB query of one row costs about a millisecond, most
of a light answer's time; a record here costs microseconds.

The file: a 44-byte header (the magic ``HUARONG-FIGS-v2\\0``, the number of ids, the rows of
the database it was written from, the number of groups, the number of layouts with layer
figures, the number of classes with layer figures and the CRC-32 of everything after the
header, little-endian); a 9-byte record per id
(``group_index`` u32, ``group_num`` u16, ``min_step_solutions`` u16, ``min_steps`` u8;
``group_num`` 65535 for an id the database has no row of, ``min_steps`` 255 for a group
without a goal); a 9-byte record per group (``jiang``, ``bing``, ``style`` u8, ``group_num``
u16, ``size`` u32); the ids of the layouts with layer figures, ascending (u32 each); and their
layer figures, 10 bytes each (``farthest_steps`` u16, ``farthest_count`` u32,
``solution_count`` u32; the largest value of each for a NULL); and last the stamp of the
jiang-bing-style classes whose layer figures it holds (3 u8 each), by which a reader knows
which classes ``huarong db layers`` has computed since (:mod:`huarong.space.rows`).  A file
of the wrong size, magic or checksum (the first version's too) is refused with
:class:`FiguresError`, in one line that says how to write it again.
"""

from __future__ import annotations

import mmap
import os
import struct
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from huarong.engine.ids import LAYOUT_COUNT
from huarong.engine.layout import Layout
from huarong.space.database import HAS_LAYER_FIGURES, ClassKey
from huarong.space.mapped import BesideFileError, MappedFile, map_checked, path_beside

if TYPE_CHECKING:
    from huarong.space.database import Database

MAGIC: Final = b"HUARONG-FIGS-v2\0"
_HEADER: Final = struct.Struct("<16sQIIIII")
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
_LAYER_FIELDS: Final = (("farthest_steps", "<u2"), ("farthest_count", "<u4"),
                        ("solution_count", "<u4"))
LAYERS: Final = np.dtype(list(_LAYER_FIELDS))
LAYER_ID: Final = np.dtype("<u4")
LAYER_CLASS: Final = np.dtype([("jiang", "u1"), ("bing", "u1"), ("style", "u1")])
_LAYER_NULLS: Final = tuple(int(np.iinfo(kind).max) for _, kind in _LAYER_FIELDS)
"""What each layer figure is written as when NULL."""
_BATCH_ROWS: Final = 1 << 22


class FiguresError(BesideFileError):
    """A figures file that cannot be used; the message names the file and how to fix it."""

    kind = "figures"


def figures_path(database: str | os.PathLike[str]) -> Path:
    """Where the figures of the database at ``database`` are: beside it, ``SUFFIX`` added."""
    return path_beside(database, SUFFIX)


def _fitting(values: np.ndarray, column: str, most: int) -> np.ndarray:
    if values.size and (int(values.min()) < 0 or int(values.max()) > most):
        raise ValueError(f"{column} from {int(values.min())} to {int(values.max())} does not "
                         f"fit the figures file (0..{most})")
    return values


def _null_as_largest(column: str, dtype: np.dtype) -> str:
    return f"coalesce({column}, {np.iinfo(dtype).max})"


def write_figures(path: str | os.PathLike[str], database: Database,
                  progress: Callable[[int, int], None] | None = None) -> Path:
    """Write the figures of ``database`` to ``path``, atomically, reading the rows in
    batches (``progress(done, total)`` after each); ValueError for a figure the file cannot
    hold.  Returns the path."""
    from huarong.fileio import atomic_writer

    rows = database.row_count()
    layer_rows = database.row_count(HAS_LAYER_FIGURES)
    done = 0

    def batches(sql: str) -> Iterator[Any]:
        nonlocal done
        for batch in database.stream(sql, batch_rows=_BATCH_ROWS).batches:
            yield batch
            done += batch.num_rows
            if progress:
                progress(done, rows + layer_rows)

    def fill(columns: np.ndarray, where: np.ndarray | slice, batch: Any,
             fields: tuple[tuple[str, str], ...]) -> None:
        """The batch's columns after the first (the id) into ``columns[where]``."""
        for position, (column, kind) in enumerate(fields, start=1):
            most = np.iinfo(kind).max - (column == "group_num")
            columns[column][where] = _fitting(batch.column(position).to_numpy(), column, most)

    records = np.zeros(LAYOUT_COUNT, dtype=RECORD)
    records["group_num"] = NOT_HELD
    for batch in batches(f"SELECT id, group_index, group_num, min_step_solutions, "
                         f"{_null_as_largest('min_steps', RECORD['min_steps'])} FROM layouts"):
        fill(records, batch.column(0).to_numpy(), batch, _RECORD_FIELDS)
    layer_ids = np.empty(layer_rows, dtype=LAYER_ID)
    layers = np.empty(layer_rows, dtype=LAYERS)
    nullable = ", ".join(_null_as_largest(name, LAYERS[name]) for name, _ in _LAYER_FIELDS)
    start = 0
    for batch in batches(f"SELECT id, {nullable} FROM layouts WHERE {HAS_LAYER_FIGURES}"):
        where = slice(start, start + batch.num_rows)
        layer_ids[where] = batch.column(0).to_numpy()
        fill(layers, where, batch, _LAYER_FIELDS)
        start = where.stop
    # DuckDB keeps a table's insertion order, which is the id order: a sort only if not.
    if not bool((layer_ids[1:] > layer_ids[:-1]).all()):
        order = np.argsort(layer_ids)
        layer_ids, layers = layer_ids[order], layers[order]
    found = database.query("SELECT jiang, bing, style, group_num, size FROM groups "
                           "ORDER BY jiang, bing, style, group_num").rows
    groups = np.array(found, dtype=GROUP) if found else np.zeros(0, dtype=GROUP)
    layer_classes = np.array(sorted(database.layer_classes()), dtype=LAYER_CLASS).reshape(-1)
    parts = (records, groups, layer_ids, layers, layer_classes)
    checksum = 0
    for part in parts:
        checksum = zlib.crc32(part.data, checksum)
    target = Path(path)
    with atomic_writer(target, "wb") as stream:
        stream.write(_HEADER.pack(MAGIC, LAYOUT_COUNT, rows, len(groups), layer_rows,
                                  len(layer_classes), checksum))
        for part in parts:
            stream.write(part.data)
    return target


class GroupFigures(MappedFile):
    """An open figures file: read-only and memory-mapped, so a process (or the pages the
    system shares between processes) holds only the records it reads, after the checksum is
    checked."""

    def __init__(self, path: Path, buffer: mmap.mmap, fields: tuple[int, ...]) -> None:
        super().__init__(path, buffer)
        # The rows of the database it was written from, its groups, its rows with layer
        # figures, and the classes of those.
        self.rows, self.group_count, self.layer_rows, class_count = fields
        offsets = _section_offsets(fields)
        self._records = np.frombuffer(buffer, dtype=RECORD, count=LAYOUT_COUNT,
                                      offset=offsets[0])
        groups = np.frombuffer(buffer, dtype=GROUP, count=self.group_count, offset=offsets[1])
        self._layer_ids = np.frombuffer(buffer, dtype=LAYER_ID, count=self.layer_rows,
                                        offset=offsets[2])
        self._layers = np.frombuffer(buffer, dtype=LAYERS, count=self.layer_rows,
                                     offset=offsets[3])
        self.layer_classes: frozenset[ClassKey] = frozenset(
            (int(key["jiang"]), int(key["bing"]), int(key["style"])) for key in np.frombuffer(
                buffer, dtype=LAYER_CLASS, count=class_count, offset=offsets[4]))
        """The classes whose layer figures the file holds: its stamp."""
        self._sizes = {(int(g["jiang"]), int(g["bing"]), int(g["style"]), int(g["group_num"])):
                       int(g["size"]) for g in groups}

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> GroupFigures:
        """Open and check the file at ``path``: :class:`FiguresError` when it is missing,
        unreadable, of the wrong size or kind, or its checksum does not match."""
        target = Path(path)
        buffer, fields = map_checked(target, _HEADER, MAGIC, LAYOUT_COUNT,
                                     lambda fields: _section_offsets(fields[2:6])[-1],
                                     "figures file", FiguresError)
        return cls(target, buffer, fields[2:6])

    def _forget_views(self) -> None:
        del self._records, self._layer_ids, self._layers

    def of(self, layout: Layout, rank: int | None = None) -> tuple[int | None, ...] | None:
        """``layout``'s figures in the order the database stores them (``group_num``,
        ``group_index``, ``group_size``, ``min_steps``, ``min_step_solutions`` and the layer
        figures, None when NULL), or None when the database has no row of it (or, in a
        database not made by ``db build``, no row of its group).  ``rank``: its id, if
        known."""
        rank = layout.id if rank is None else rank
        group_index, group_num, min_step_solutions, min_steps = self._records[rank].item()
        size = self._sizes.get((layout.jiang_num, layout.bing_num, layout.style_num, group_num))
        if group_num == NOT_HELD or size is None:
            return None
        layers: tuple[int | None, ...] = (None, None, None)
        # A key of the array's own type: a Python int would have the whole array cast.
        position = int(np.searchsorted(self._layer_ids, LAYER_ID.type(rank)))
        if position < self.layer_rows and int(self._layer_ids[position]) == rank:
            layers = tuple(None if value == null else value for value, null
                           in zip(self._layers[position].item(), _LAYER_NULLS, strict=True))
        return (group_num, group_index, size, None if min_steps == NO_GOAL else min_steps,
                min_step_solutions, *layers)


def _section_offsets(fields: tuple[int, ...]) -> tuple[int, ...]:
    """Where the records, the groups, the layer ids, the layer figures and the stamp begin,
    and where the file ends, for the header's ``(rows, groups, layer rows, classes)``."""
    _, group_count, layer_rows, class_count = fields
    offsets = [HEADER_SIZE]
    for size in (LAYOUT_COUNT * RECORD.itemsize, group_count * GROUP.itemsize,
                 layer_rows * LAYER_ID.itemsize, layer_rows * LAYERS.itemsize,
                 class_count * LAYER_CLASS.itemsize):
        offsets.append(offsets[-1] + size)
    return tuple(offsets)


def open_beside(database: str | os.PathLike[str]) -> GroupFigures | None:
    """The figures beside the database at ``database``, or None when there are none;
    :class:`FiguresError` when there is a file that cannot be used."""
    path = figures_path(database)
    if not path.exists():
        return None
    return GroupFigures.open(path)
