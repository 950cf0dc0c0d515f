"""The result files of :func:`huarong.puzzles.exhaustive.search` read back, a page at a time,
hardest first: for browsing them (``huarong serve --search FILE``).

A file (``-o FILE.parquet`` or ``FILE.duckdb``) holds one row per cluster (states, solved,
length, start) and, in its metadata (:data:`~huarong.puzzles.exhaustive.METADATA_KEY`), the
board, pieces, goal, rules and metric that play its starts, with the search's totals.  Only
the metadata is read on opening; the first page reads the ``length`` and ``states`` columns
(12 bytes a row) to order the rows, and each page reads only the row groups (Parquet) or
rows (DuckDB) it shows, so a file of millions of rows pages without being loaded.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from huarong.puzzles.exhaustive import COLUMNS, METADATA_KEY
from huarong.puzzles.model import PuzzleError

if TYPE_CHECKING:
    import pyarrow as pa

TABLE = "clusters"
"""The table of a DuckDB result file."""
OWN_COLUMNS = ("goal", "distinct")
"""Columns a file may add where each row is its own puzzle (a preset's records): the row's
goal and distinct pieces, in place of the file's."""
_GROUPS_KEPT = 4
_NOT_A_RESULT = ("not a result file of huarong puzzle search with its puzzle in its metadata: "
                 "run the search again with -o")


@dataclass(frozen=True)
class SearchPage:
    """Rows ``offset`` on of a result file, hardest first: ``total`` rows match (all, or
    those of at least the minimum length asked for), ``rows`` as dicts of
    :data:`~huarong.puzzles.exhaustive.COLUMNS` (``length`` None without a solved state)
    and the :data:`OWN_COLUMNS` the file has."""

    total: int
    rows: list[dict[str, Any]]


def _columns(names: list[str]) -> list[str]:
    """The columns a page reads of a file with the columns ``names``."""
    return [*COLUMNS, *(name for name in OWN_COLUMNS if name in names)]


class _Parquet:
    """A Parquet result file: its key-value metadata and row groups."""

    def __init__(self, path: Path) -> None:
        import pyarrow.parquet as pq

        self.path = path
        self.file = pq.ParquetFile(path)
        meta = self.file.metadata
        self.rows = int(meta.num_rows)
        self.names = list(self.file.schema_arrow.names)
        self.columns = _columns(self.names)
        self.metadata = {key.decode(): value.decode()
                         for key, value in (meta.metadata or {}).items()}
        sizes = [meta.row_group(g).num_rows for g in range(meta.num_row_groups)]
        self.starts = np.cumsum([0, *sizes])
        self.groups: OrderedDict[int, pa.Table] = OrderedDict()

    def keys(self) -> pa.Table:
        return self.file.read(columns=["length", "states"])

    def take(self, indices: np.ndarray) -> pa.Table:
        """The rows at ``indices`` (ascending), from the row groups that hold them."""
        import pyarrow as pa

        groups = np.searchsorted(self.starts, indices, side="right") - 1
        parts = [self._group(int(g)).take(pa.array(indices[groups == g] - self.starts[g]))
                 for g in np.unique(groups)]
        return pa.concat_tables(parts)

    def _group(self, group: int) -> pa.Table:
        # Pages are read in turn: the groups read last are kept for the pages that follow.
        if group not in self.groups:
            self.groups[group] = self.file.read_row_group(group, columns=self.columns)
            while len(self.groups) > _GROUPS_KEPT:
                self.groups.popitem(last=False)
        self.groups.move_to_end(group)
        return self.groups[group]


class _DuckDB:
    """A DuckDB result file: the tables ``clusters`` and ``metadata(key, value)``."""

    def __init__(self, path: Path) -> None:
        import duckdb

        self.path = path
        try:
            with duckdb.connect(str(path), read_only=True) as db:
                tables = {name for (name,) in db.execute("SHOW TABLES").fetchall()}
                if not {TABLE, "metadata"} <= tables:
                    raise PuzzleError(str(path), _NOT_A_RESULT)
                self.rows = int(db.execute(f"SELECT count(*) FROM {TABLE}").fetchall()[0][0])
                self.names = [row[0] for row in db.execute(f"DESCRIBE {TABLE}").fetchall()]
                self.columns = _columns(self.names)
                self.metadata = dict(db.execute("SELECT key, value FROM metadata").fetchall())
        except duckdb.Error as error:
            raise PuzzleError(str(path), f"cannot read it as DuckDB: {error}") from None

    def keys(self) -> pa.Table:
        import duckdb

        with duckdb.connect(str(self.path), read_only=True) as db:
            return db.sql(f"SELECT length, states FROM {TABLE} ORDER BY rowid").to_arrow_table()

    def take(self, indices: np.ndarray) -> pa.Table:
        import duckdb

        columns = ", ".join(f'"{name}"' for name in self.columns)
        with duckdb.connect(str(self.path), read_only=True) as db:
            return db.sql(f"SELECT {columns} FROM {TABLE} WHERE rowid IN "
                          "(SELECT unnest($rows)) ORDER BY rowid",
                          params={"rows": indices.tolist()}).to_arrow_table()


@dataclass(eq=False)
class SearchFile:
    """A result file opened for browsing (:func:`open_search_file`): its ``name`` (the file's
    stem), its number of ``rows``, the ``puzzle`` its starts belong to
    (:meth:`~huarong.puzzles.exhaustive.SearchSpace.spec`) and the search's ``totals``
    (:meth:`~huarong.puzzles.exhaustive.SearchResult.totals`)."""

    name: str
    rows: int
    puzzle: dict[str, Any]
    totals: dict[str, Any]
    _source: _Parquet | _DuckDB = field(repr=False)
    _order: tuple[np.ndarray | None, np.ndarray] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def page(self, offset: int, limit: int, min_length: int | None = None) -> SearchPage:
        """Rows ``offset`` to ``offset + limit`` hardest first (``length`` descending, then
        ``states`` descending, then as the file holds them; clusters without a solved state
        last), of those whose length is at least ``min_length`` if given."""
        if offset < 0 or limit < 0:
            raise ValueError(f"offset {offset} and limit {limit} must be at least 0")
        with self._lock:
            order, lengths = self._ordered()
            total = self.rows if min_length is None else int(
                np.searchsorted(lengths, -min_length, side="right"))
            stop = min(offset + limit, total)
            if offset >= stop:
                return SearchPage(total, [])
            wanted = (np.arange(offset, stop, dtype=np.int64) if order is None
                      else order[offset:stop])
            ascending = np.sort(wanted)
            found = self._source.take(ascending)
        rows = found.to_pylist()
        return SearchPage(total, [rows[i] for i in np.searchsorted(ascending, wanted)])

    def _ordered(self) -> tuple[np.ndarray | None, np.ndarray]:
        """The rows' order hardest first (None: the file's own, as ``puzzle search`` writes
        it) and their lengths negated in that order (ascending; no solved state reads
        ``1``), for counting the rows of a minimum length by bisection."""
        import pyarrow.compute as pc

        if self._order is None:
            keys = self._source.keys()
            length = pc.fill_null(keys.column("length"), -1).to_numpy().astype(np.int32)
            states = keys.column("states").to_numpy()
            easier = (length[1:] < length[:-1]) | (
                (length[1:] == length[:-1]) & (states[1:] <= states[:-1]))
            order = None if easier.all() else np.lexsort((-states, -length))
            self._order = (order, -(length if order is None else length[order]))
        return self._order


def open_search_file(path: str | os.PathLike[str]) -> SearchFile:
    """A result file of ``huarong puzzle search -o`` (``.parquet`` or ``.duckdb``) opened for
    :meth:`SearchFile.page`; :class:`PuzzleError` for a file that is missing, unreadable or
    not such a result (no puzzle in its metadata, other columns)."""
    target = Path(path)
    source: _Parquet | _DuckDB
    if target.suffix.lower() not in (".parquet", ".duckdb"):
        raise PuzzleError(str(path), "a search result is a .parquet or .duckdb file")
    if not target.is_file():
        raise PuzzleError(str(path), "no such file")
    if target.suffix.lower() == ".duckdb":
        source = _DuckDB(target)
    else:
        import pyarrow as pa

        try:
            source = _Parquet(target)
        except (OSError, pa.ArrowException) as error:
            raise PuzzleError(str(path), f"cannot read it as Parquet: {error}") from None
    try:
        about = json.loads(source.metadata[METADATA_KEY])
        puzzle, totals = about["puzzle"], about["totals"]
        if not {"goal", "rules", "metric", "rows", "columns"} <= set(puzzle) or (
                puzzle["goal"] is None and "goal" not in source.names):
            raise KeyError("puzzle")
    except (KeyError, TypeError, ValueError):
        raise PuzzleError(str(path), _NOT_A_RESULT) from None
    missing = [column for column in COLUMNS if column not in source.names]
    if missing:
        raise PuzzleError(str(path), f"{_NOT_A_RESULT} (no column {missing[0]!r})")
    return SearchFile(target.stem, source.rows, puzzle, totals, source)


def open_search_files(paths: Iterable[str | os.PathLike[str]]) -> dict[str, SearchFile]:
    """Result files by name (:func:`open_search_file`); :class:`PuzzleError` for two of one
    name."""
    files: dict[str, SearchFile] = {}
    for path in paths:
        opened = open_search_file(path)
        if opened.name in files:
            raise PuzzleError(str(path), f"a second result file named {opened.name!r}: "
                                         "rename one")
        files[opened.name] = opened
    return files
