"""The database of all 29,334,498 layouts (docs §4): one DuckDB file, one row per layout.

Table ``layouts``: ``id`` (rank of the code), ``code`` (BIGINT), ``jiang``, ``bing``,
``style``, ``group_num``, ``group_index``, ``group_size``, ``min_steps`` (NULL when the group
holds no goal layout), ``min_step_solutions`` (goal layouts at that distance, 0 when none),
the layer figures ``farthest_steps``, ``farthest_count`` and ``solution_count`` (NULL until
computed: ``db build`` computes them for the standard layouts, ``db layers`` for the rest),
``symmetric`` (the layout is its own mirror image) and ``mirror_id``, and
two generated columns: ``hex`` (the 9-digit code) and ``label``
(``jiang-bing-style-group_num-group_index``).  Table ``groups``: one row per group with its
class, ``group_num``, ``size`` and ``seed`` (its smallest code).  The macro ``hex(code)``
formats any code column.

This module is the store: the schema, opening a built database and reading it.
:mod:`huarong.space.build` makes one and writes the files beside it; :mod:`huarong.space.rows`
reads a layout's row from the figures file where it can.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from huarong.engine.layout import Layout
from huarong.fileio import (
    FILE_IN_USE,
    check_free_space,
    file_written_by_others,
    is_io_fault,
    real_target,
)

LAYOUT_COLUMNS = ("id", "code", "jiang", "bing", "style", "group_num", "group_index",
                  "group_size", "min_steps", "min_step_solutions", "farthest_steps",
                  "farthest_count", "solution_count", "symmetric", "mirror_id")


STORED_FIGURES = ("group_num", "group_index", "group_size", "min_steps", "min_step_solutions",
                   "farthest_steps", "farthest_count", "solution_count")
"""The columns of a layout's row that depend on its group, in :class:`LayoutRecord`'s order
(the others follow from the layout)."""
LAYER_FIGURES = STORED_FIGURES[-3:]
"""Those of them ``huarong db layers`` adds."""
HAS_LAYER_FIGURES = " OR ".join(f"{name} IS NOT NULL" for name in LAYER_FIGURES)
"""SQL: the row has layer figures."""
ClassKey = tuple[int, int, int]
"""A jiang-bing-style class."""


def quoted_columns(exclude: str = "") -> str:
    """The column list for SQL (``symmetric`` is a keyword of DuckDB's, so quoted)."""
    return ", ".join(f'"{name}"' for name in LAYOUT_COLUMNS if name != exclude)


_NULL_WHEN_NEGATIVE = ("min_steps", "farthest_steps", "farthest_count", "solution_count")
_SCHEMA = """
CREATE MACRO hex(code) AS printf('%09X', code);
CREATE TABLE layouts (
    id INTEGER NOT NULL, code BIGINT NOT NULL,
    jiang TINYINT NOT NULL, bing TINYINT NOT NULL, style TINYINT NOT NULL,
    group_num INTEGER NOT NULL, group_index INTEGER NOT NULL, group_size INTEGER NOT NULL,
    min_steps SMALLINT, min_step_solutions INTEGER NOT NULL,
    farthest_steps SMALLINT, farthest_count INTEGER, solution_count INTEGER,
    "symmetric" BOOLEAN NOT NULL, mirror_id INTEGER NOT NULL,
    hex VARCHAR GENERATED ALWAYS AS (printf('%09X', code)) VIRTUAL,
    label VARCHAR GENERATED ALWAYS AS (
        concat_ws('-', jiang, bing, style, group_num, group_index)) VIRTUAL
);
CREATE TABLE groups (
    jiang TINYINT NOT NULL, bing TINYINT NOT NULL, style TINYINT NOT NULL,
    group_num INTEGER NOT NULL, size INTEGER NOT NULL, seed BIGINT NOT NULL,
    has_solution BOOLEAN NOT NULL
);
"""


_QUIET = "SET enable_progress_bar = false"
"""DuckDB draws its own progress bar on stdout for long statements; core code never prints."""


def create_tables(connection: Any) -> None:
    """The tables and the macro of a database, in the new file of ``connection``."""
    connection.execute(_QUIET)
    connection.execute(_SCHEMA)


def insert_layouts(connection: Any, source: str) -> None:
    """Insert the rows of the relation ``source`` (every column of :data:`LAYOUT_COLUMNS`, -1
    for a missing figure) into ``layouts``, in its order: rows in id order let DuckDB's
    per-block min/max find one id quickly."""
    values = ", ".join(f"NULLIF({name}, -1)" if name in _NULL_WHEN_NEGATIVE
                       else f'"{name}"' for name in LAYOUT_COLUMNS)
    connection.execute(f"INSERT INTO layouts ({quoted_columns()}) SELECT {values} FROM {source}")


class DatabaseError(ValueError):
    """A database that is missing or a query it refuses; the message says which and why."""


class DatabaseMissingError(DatabaseError):
    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(f"no database at {path}: run `huarong db build` first")


class DatabaseInUseError(DatabaseError):
    """Another program holds the database open for writing (DuckDB's own lock), longer than
    a reader waits: a fault of the moment, not of the input."""

    def __init__(self, path: Path, detail: str) -> None:
        self.path = path
        super().__init__(f"cannot open {path}: another program has it open for writing "
                         f"({detail}); wait for it to finish, then run again")


READER_PATIENCE = 10.0
"""Seconds a reader waits for a writer (a ``db layers`` commit takes a few) to let go."""


def _connect_reader(target: Path) -> Any:
    import time

    import duckdb

    deadline = time.monotonic() + READER_PATIENCE
    while True:
        try:
            # A foreign file must not make DuckDB fetch a reader for it from the network.
            connection = duckdb.connect(str(target), read_only=True, config={
                "autoinstall_known_extensions": False, "autoload_known_extensions": False})
        except duckdb.IOException as error:
            if FILE_IN_USE not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.2)
        else:
            # Not a connection option: DuckDB takes it only once connected.
            connection.execute(_QUIET)
            return connection


def default_path() -> Path:
    """``$HUARONG_DB``, or else ``~/.local/share/huarong/huarong.duckdb``."""
    configured = os.environ.get("HUARONG_DB")
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".local" / "share" / "huarong" / "huarong.duckdb"


@dataclass(frozen=True)
class LayoutRecord:
    """Everything the database knows about one layout."""

    layout: Layout
    id: int
    jiang: int
    bing: int
    style: int
    group_num: int
    group_index: int
    group_size: int
    min_steps: int | None
    """None when the layout's group holds no goal layout."""
    min_step_solutions: int
    farthest_steps: int | None
    """None (like the two counts below) until the layer figures are computed."""
    farthest_count: int | None
    solution_count: int | None
    symmetric: bool
    mirror_id: int

    @classmethod
    def of(cls, layout: Layout, rank: int, figures: tuple[Any, ...]) -> LayoutRecord:
        """The record of ``layout`` (of id ``rank``) from its :data:`STORED_FIGURES`; the
        other fields follow from the layout."""
        from huarong.space.cases import layout_id

        mirrored = layout.mirror()
        return cls(layout=layout, id=rank, jiang=layout.jiang_num, bing=layout.bing_num,
                   style=layout.style_num, **dict(zip(STORED_FIGURES, figures, strict=True)),
                   symmetric=mirrored == layout, mirror_id=int(layout_id(mirrored)))

    @property
    def code(self) -> str:
        return self.layout.code

    @property
    def label(self) -> str:
        return f"{self.jiang}-{self.bing}-{self.style}-{self.group_num}-{self.group_index}"

    def to_dict(self) -> dict[str, Any]:
        fields = asdict(self)
        fields["layout"] = self.code
        return {"code": self.code, "label": self.label,
                **{k: v for k, v in fields.items() if k != "layout"}}


@dataclass(frozen=True)
class QueryResult:
    columns: list[str]
    rows: list[tuple[Any, ...]]


@dataclass(frozen=True)
class QueryStream:
    """The result of :meth:`Database.stream`: column names and an iterator of
    ``pyarrow.RecordBatch`` (read it once)."""

    columns: list[str]
    batches: Iterator[Any]


class Database:
    """A read-only connection to a built database."""

    def __init__(self, connection: Any, path: Path) -> None:
        self._connection = connection
        self.path = path

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None) -> Database:
        import duckdb

        target = Path(path) if path is not None else default_path()
        if not target.is_file():
            raise DatabaseMissingError(target)
        _check_duckdb_header(target)
        connection = None
        try:
            connection = _connect_reader(target)
            tables = {name for (name,) in connection.execute(
                "SELECT table_name FROM information_schema.tables").fetchall()}
        except duckdb.Error as error:
            if connection is not None:
                connection.close()
            if FILE_IN_USE in str(error):
                raise DatabaseInUseError(target, _first_line(error)) from None
            if is_io_fault(error):
                raise  # the disk's fault, not the file's
            raise DatabaseError(f"cannot open database {target}: "
                                f"{_first_line(error)} (not a huarong database?)") from None
        missing = sorted({"layouts", "groups"} - tables)
        if missing:
            connection.close()
            raise DatabaseError(f"{target} is not a huarong database: no table "
                                f"{' and no table '.join(missing)}; rebuild it with "
                                "`huarong db build --force`")
        return cls(connection, target)

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def info(self, layout: Layout | str | int) -> LayoutRecord:
        """The row of one layout (found by its id, computed from the code), read from the
        database; :class:`huarong.space.rows.LayoutRows` reads it from the figures file."""
        from huarong.space.cases import layout_id

        if not isinstance(layout, Layout):
            layout = Layout.parse(str(layout)) if isinstance(layout, str) else Layout(layout)
        rank = int(layout_id(layout))
        return LayoutRecord.of(layout, rank, self.stored_figures(layout, rank))

    def stored_figures(self, layout: Layout, rank: int,
                       columns: tuple[str, ...] = STORED_FIGURES) -> tuple[Any, ...]:
        """The ``columns`` of the layout of id ``rank``; :class:`DatabaseError` when the
        database has no row of it."""
        # Only the figures the layout cannot tell are read, with the id written into the
        # statement: DuckDB prepares a bound statement anew each time, and unpacks each
        # column of the row's block: 1.35 ms a row as it was, 0.6 ms so.
        row = self._connection.execute(
            f"SELECT {', '.join(columns)} FROM layouts WHERE id = {rank}").fetchone()
        if row is None:
            raise DatabaseError(f"layout {layout.code} is missing from the database "
                                f"{self.path}: rebuild it with `huarong db build --force`")
        return tuple(row)

    def layer_classes(self) -> frozenset[ClassKey]:
        """The classes whose layer figures are computed (``db layers`` commits a class at
        once); a scan of the whole column, a tenth of a second."""
        return frozenset(self._connection.execute(
            f"SELECT DISTINCT jiang, bing, style FROM layouts WHERE {HAS_LAYER_FIGURES}"
        ).fetchall())

    def row_count(self, condition: str = "true") -> int:
        """The rows of ``layouts``, or those of ``condition`` (SQL)."""
        return int(self._connection.execute(
            f"SELECT count(*) FROM layouts WHERE {condition}").fetchone()[0])

    def min_steps_by_id(self, progress: Callable[[int, int], None] | None = None
                        ) -> np.ndarray:
        """The ``min_steps`` column as int16 indexed by id, read in batches: -1 where there
        is no solution, :data:`~huarong.space.table.NOT_KNOWN` for ids without a row (a
        database of some classes only)."""
        from huarong.engine.ids import LAYOUT_COUNT
        from huarong.space.table import NOT_KNOWN

        total = self._connection.execute("SELECT count(*) FROM layouts").fetchone()[0]
        steps = np.full(LAYOUT_COUNT, NOT_KNOWN, dtype=np.int16)
        done = 0
        for batch in self.stream("SELECT id, coalesce(min_steps, -1) FROM layouts",
                                 batch_rows=1 << 22).batches:
            steps[batch.column(0).to_numpy()] = batch.column(1).to_numpy()
            done += batch.num_rows
            if progress:
                progress(done, total)
        return steps

    def query(self, sql: str) -> QueryResult:
        """Run one SQL statement (read-only); :class:`DatabaseError` on bad SQL."""
        import duckdb

        try:
            cursor = self._connection.execute(sql)
            rows = cursor.fetchall() if cursor.description else []
        except duckdb.Error as error:
            if is_io_fault(error):
                raise  # the disk's fault, not the query's
            raise DatabaseError(f"bad query {sql!r}: {_first_line(error)}") from None
        columns = [d[0] for d in cursor.description or []]
        return QueryResult(columns, rows)

    def stream(self, sql: str, batch_rows: int = 8192) -> QueryStream:
        """Run one SQL statement (read-only) and stream its rows in Arrow record batches of
        at most ``batch_rows``, so a result of any size takes bounded memory;
        :class:`DatabaseError` on bad SQL, now or while the batches are read."""
        import duckdb

        try:
            relation = self._connection.cursor().sql(sql)
            if relation is None:  # a statement without a result
                return QueryStream([], iter(()))
            # DuckDB 1.x spells it fetch_record_batch, 2.x to_arrow_reader.
            reader = getattr(relation, "to_arrow_reader", None) or relation.fetch_record_batch
            batches = reader(batch_rows)
        except duckdb.Error as error:
            raise DatabaseError(f"bad query {sql!r}: {_first_line(error)}") from None

        def checked() -> Iterator[Any]:
            try:
                yield from batches
            except (duckdb.Error, OSError) as error:  # Arrow hands DuckDB's errors as OSError
                raise DatabaseError(f"query {sql!r} failed: {_first_line(error)}") from None

        return QueryStream(list(relation.columns), checked())

    def export(self, output: str | os.PathLike[str], file_format: str) -> None:
        """Write the ``layouts`` table to ``output`` as ``parquet`` or ``csv``, atomically."""
        options = {"parquet": "FORMAT PARQUET, COMPRESSION ZSTD",
                   "csv": "FORMAT CSV, HEADER"}
        if file_format not in options:
            raise DatabaseError(f"unknown export format {file_format!r}: "
                                "choose parquet or csv")
        target = real_target(output)
        if target is not None:
            (rows,) = self._connection.execute("SELECT count(*) FROM layouts").fetchone() or (0,)
            check_free_space(target, rows * EXPORT_BYTES_PER_ROW[file_format])
        with file_written_by_others(output) as temporary:
            self._connection.execute(
                f"COPY (SELECT * FROM layouts ORDER BY id) TO '{_quoted(temporary)}' "
                f"({options[file_format]})")


EXPORT_BYTES_PER_ROW = {"parquet": 16, "csv": 90}
"""Room an export needs a row, with a margin: DuckDB's ZSTD Parquet and its CSV of the
``layouts`` table."""

_DUCKDB_MAGIC = (8, b"DUCK")
"""Where every DuckDB file says what it is (after an 8-byte checksum)."""


def _check_duckdb_header(path: Path) -> None:
    offset, magic = _DUCKDB_MAGIC
    try:
        with path.open("rb") as stream:
            header = stream.read(offset + len(magic))
    except OSError as error:
        raise DatabaseError(f"cannot read database {path}: {error.strerror or error}") from None
    if header[offset:] != magic:
        raise DatabaseError(f"{path} is not a DuckDB database file (a huarong database is "
                            "made by `huarong db build`)")


def _first_line(error: BaseException) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")
