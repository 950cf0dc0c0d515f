"""Search result files: one row per cluster (or per record), hardest first, with the puzzle
that plays their starts in the file's metadata; written by every search (the general one,
the presets, the design search) and read back a page at a time for browsing (``huarong
serve --search FILE``).

A file (``.parquet`` or ``.duckdb``) holds at least the :data:`COLUMNS` (states, solved,
length, start as grid text), may hold a row's own goal and distinct pieces
(:data:`OWN_COLUMNS`), the :data:`DIFFICULTY_COLUMN` (predicted median seconds to solve of
the hardest rows) and any columns of its own; in its metadata (:data:`METADATA_KEY`) the
board, pieces, goal, rules and metric that play its starts
(:meth:`~huarong.puzzles.board.Board.spec`) and the search's totals.  Only the metadata is
read on opening; the first page reads the ``length`` and ``states`` columns (12 bytes a row)
to order the rows, and each page reads only the row groups (Parquet) or rows (DuckDB) it
shows, so a file of millions of rows pages without being loaded.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from huarong.puzzles.grid import PuzzleError

if TYPE_CHECKING:
    import pyarrow as pa

COLUMNS = ("states", "solved", "length", "start")
"""The columns of every result file: a cluster's states, its solved states, its hardest
start's length (null without a solved state) and that start as grid text."""

METADATA_KEY = "huarong.search"
"""The key of a result file's metadata: JSON of ``{"puzzle": Board.spec(), "totals":
{"clusters", "states", "hardest"}}``, what it takes to play its starts (Parquet key-value
metadata; in DuckDB a row of the table ``metadata(key, value)``)."""

ROW_GROUP = 1 << 16
"""Rows per row group of a Parquet result file: a page of rows reads one group, not a
million rows (pyarrow's default)."""

TABLE = "clusters"
"""The table of a DuckDB result file."""
DIFFICULTY_COLUMN = "difficulty"
"""The column every search writes after its own: the difficulty model's predicted median
seconds to solve of the row's start for the hardest rows, null for the others
(:func:`results_table`)."""
OWN_COLUMNS = ("goal", "distinct")
"""Columns a file may add where each row is its own puzzle (a preset's records): the row's
goal and distinct pieces, in place of the file's."""
_GROUPS_KEPT = 4
_SUFFIXES = (".parquet", ".duckdb")
_NOT_A_RESULT = ("not a result file of huarong puzzle search with its puzzle in its metadata: "
                 "run the search again with -o")


@dataclass(frozen=True)
class SearchPage:
    """Rows ``offset`` on of a result file, hardest first: ``total`` rows match (all, or
    those of at least the minimum length asked for), ``rows`` as dicts of
    :data:`COLUMNS` (``length`` None without a solved state)
    and the :data:`OWN_COLUMNS` the file has."""

    total: int
    rows: list[dict[str, Any]]


def _columns(names: list[str]) -> list[str]:
    """The columns a page reads of a file with the columns ``names``."""
    return [*COLUMNS, *(name for name in (*OWN_COLUMNS, DIFFICULTY_COLUMN) if name in names)]


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
    (:meth:`~huarong.puzzles.board.Board.spec`) and the search's ``totals``."""

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
    """A result file (``.parquet`` or ``.duckdb``, :func:`write_results`) opened for
    :meth:`SearchFile.page`; :class:`PuzzleError` for a file that is missing, unreadable or
    not such a result (no puzzle in its metadata, other columns)."""
    target = Path(path)
    source: _Parquet | _DuckDB
    if target.suffix.lower() not in _SUFFIXES:
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


# ----- writing ------------------------------------------------------------------------------
def totals_of(clusters: int, states: int, hardest: tuple[int, str] | None) -> dict[str, Any]:
    """A search's totals as result files and ``--json`` give them: ``{"clusters", "states",
    "hardest": {"length", "start"}}``, ``hardest`` null when no cluster holds a solved
    state."""
    return {"clusters": clusters, "states": states,
            "hardest": None if hardest is None else {"length": hardest[0],
                                                      "start": hardest[1]}}


def results_table(columns: Mapping[str, Any], puzzle: Mapping[str, Any],
                  totals: Mapping[str, Any], *, difficulty_rows: int | None = None
                  ) -> pa.Table:
    """A result file's table: ``columns`` (name to a numpy array or a list, in the file's
    order; the :data:`COLUMNS` among them, a ``length`` below 0 read as null, strings as
    Arrow strings) and :data:`DIFFICULTY_COLUMN`, with the ``puzzle``
    (:meth:`~huarong.puzzles.board.Board.spec`) and the ``totals`` (:func:`totals_of`) in its
    metadata.  The difficulty is the predicted median seconds to solve of the hardest
    ``difficulty_rows`` rows' starts (:data:`~huarong.puzzles.difficulty.column.
    DIFFICULTY_ROWS` when None), null for the others (:mod:`huarong.puzzles.difficulty.
    column`); ``columns`` may bring their own."""
    import pyarrow as pa

    from huarong.puzzles.difficulty.column import DIFFICULTY_ROWS, difficulty_column

    missing = [name for name in COLUMNS if name not in columns]
    if missing:
        raise ValueError(f"a result table needs the columns {', '.join(COLUMNS)}: "
                         f"{missing[0]!r} is missing")
    arrays = {}
    for name, values in columns.items():
        if name == "length":
            lengths = np.asarray(values)
            arrays[name] = pa.array(lengths, mask=lengths < 0)
        elif isinstance(values, list) and values and isinstance(values[0], str):
            arrays[name] = pa.array(values, type=pa.string())
        else:
            arrays[name] = pa.array(values)
    if DIFFICULTY_COLUMN not in arrays:
        arrays[DIFFICULTY_COLUMN] = pa.array(difficulty_column(
            columns, puzzle, DIFFICULTY_ROWS if difficulty_rows is None else difficulty_rows),
            type=pa.float64())
    about = {"puzzle": dict(puzzle), "totals": dict(totals)}
    return pa.table(arrays, metadata={METADATA_KEY: json.dumps(about, ensure_ascii=False)})


def write_results(table: pa.Table, path: str | Path) -> None:
    """``table`` to a ``.parquet`` file or to the table ``clusters`` of a new ``.duckdb``
    file, atomically; :class:`PuzzleError` for another suffix.  The schema's metadata goes
    into the Parquet file's key-value metadata, or the DuckDB table ``metadata(key,
    value)``."""
    from huarong.fileio import atomic_writer, real_target, temporary_beside

    target = Path(path)
    if target.suffix == ".parquet":
        import pyarrow.parquet as pq

        with atomic_writer(target, "wb") as stream:
            pq.write_table(table, stream, row_group_size=ROW_GROUP)
        return
    if target.suffix != ".duckdb":
        raise PuzzleError(str(path), "write the clusters to a .parquet or .duckdb file")
    import duckdb

    real = real_target(target) or target
    with temporary_beside(real) as temporary:
        connection = duckdb.connect(str(temporary))
        try:
            connection.register("found", table)
            connection.execute(f"CREATE TABLE {TABLE} AS SELECT * FROM found")
            if table.schema.metadata:
                connection.execute("CREATE TABLE metadata (key VARCHAR, value VARCHAR)")
                connection.executemany("INSERT INTO metadata VALUES (?, ?)", [
                    [key.decode(), value.decode()]
                    for key, value in table.schema.metadata.items()])
        finally:
            connection.close()
        temporary.replace(real)
