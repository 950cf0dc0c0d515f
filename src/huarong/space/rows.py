"""A layout's row of the database, read from the figures file beside it (:mod:`huarong.space.
figures`, microseconds) where the file holds it, and from DuckDB (about a millisecond) where
not.

The file is used when it was written from this database (the same number of rows); the layer
figures of a class the file's stamp lacks (``huarong db layers`` has computed it since the
file was written) come from the database.  A damaged file is said once in the log and left
alone: the rows come from the database, as without it.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from pathlib import Path

from huarong.engine.layout import Layout
from huarong.space.database import (
    LAYER_FIGURES,
    ClassKey,
    Database,
    LayoutRecord,
    default_path,
)
from huarong.space.figures import FiguresError, GroupFigures, figures_path, open_beside

_log = logging.getLogger(__name__)


def read_record(database: Database, layout: Layout, figures: GroupFigures | None = None,
                layers_from_database: Collection[ClassKey] = ()) -> LayoutRecord:
    """The row of ``layout``: from ``figures`` (the file of ``database``) when it holds it,
    but the layer figures of a layout of a class in ``layers_from_database`` from the
    database; else all from the database."""
    from huarong.space.cases import layout_id

    rank = int(layout_id(layout))
    held = None if figures is None else figures.of(layout, rank)
    if held is None:
        held = database.stored_figures(layout, rank)
    elif (layout.jiang_num, layout.bing_num, layout.style_num) in layers_from_database:
        held = held[:-len(LAYER_FIGURES)] + database.stored_figures(layout, rank,
                                                                     LAYER_FIGURES)
    return LayoutRecord.of(layout, rank, held)


def layer_classes_not_stamped(database: Database, figures: GroupFigures
                              ) -> frozenset[ClassKey] | None:
    """The classes whose layer figures must be read from ``database`` rather than from
    ``figures``, or None when the file was written from another database."""
    if figures.rows != database.row_count():
        _log.warning("ignoring the figures %s: written from another database (%s rows, the "
                     "database has %s); write them again with `huarong db table`",
                     figures.path, f"{figures.rows:,}", f"{database.row_count():,}")
        return None
    newer = database.layer_classes() - figures.layer_classes
    if newer:
        _log.info("the figures %s were written before the last `huarong db layers`: the "
                  "layer figures of %d classes are read from the database until they are "
                  "written again", figures.path, len(newer))
    return newer


def _signature(path: Path) -> tuple[object, ...]:
    """What changes when the file at ``path`` is written or replaced; OSError when it cannot
    be looked at."""
    status = path.stat()
    return (path, status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


class LayoutRows:
    """The rows of the database at ``path`` (None: :func:`~huarong.space.database.
    default_path`), the database opened once and kept open until :meth:`close`.  Both files
    are looked at on every use, so a database or figures written, replaced or removed since
    answer as if each use opened them; the figures are kept while the database is closed.
    One thread at a time (a DuckDB connection serves one)."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._database: Database | None = None
        self._opened_as: tuple[object, ...] = ()
        self._figures: GroupFigures | None = None
        self._figures_at = Path()
        self._figures_read_as: tuple[object, ...] = ()
        self._layers_from_database: frozenset[ClassKey] = frozenset()

    @property
    def is_open(self) -> bool:
        return self._database is not None

    def record(self, layout: Layout) -> LayoutRecord | None:
        """The layout's row, or None without a database file;
        :class:`~huarong.space.database.DatabaseError` for one that cannot be read."""
        database = self._current()
        if database is None:
            return None
        return read_record(database, layout, self._figures, self._layers_from_database)

    def figures_path(self) -> Path | None:
        """The figures file the rows are read from (opening the database, as a first row
        would); None when they are read from the database."""
        self._current()
        return None if self._figures is None else self._figures.path

    def close(self) -> None:
        """Close the database; the next row opens it again."""
        if self._database is not None:
            self._database.close()
            self._database = None

    def _current(self) -> Database | None:
        target = self._path or default_path()
        try:
            signature = _signature(target)
        except OSError:
            self.close()
            self._forget_figures()
            self._figures_read_as = ()
            return None
        if self._database is None or signature != self._opened_as:
            self.close()
            self._database = Database.open(target)
            # A row is one row group's scan: DuckDB's threads only add their scheduling to it
            # (1.1 ms a row on one, 2.2 ms on two), and requests already run side by side.
            self._database.query("SET threads = 1")
            if signature != self._opened_as:
                self._figures_at = figures_path(target)
            self._opened_as = signature
        # The figures file is looked at too: `db layers` writes it again after its last
        # commit, when the database no longer changes.
        try:
            figures_signature: tuple[object, ...] = (signature, _signature(self._figures_at))
        except OSError:
            figures_signature = (signature, None)
        if figures_signature != self._figures_read_as:
            self._read_figures(self._database)
            self._figures_read_as = figures_signature
        return self._database

    def _read_figures(self, database: Database) -> None:
        self._forget_figures()
        try:
            figures = open_beside(database.path)
        except FiguresError as error:
            _log.warning("ignoring the %s", error)
            return
        if figures is None:
            return
        newer = layer_classes_not_stamped(database, figures)
        if newer is None:
            figures.close()
            return
        self._figures, self._layers_from_database = figures, newer

    def _forget_figures(self) -> None:
        if self._figures is not None:
            self._figures.close()
            self._figures = None
        self._layers_from_database = frozenset()
