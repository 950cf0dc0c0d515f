"""What the routers of one server share: its database, the table of minimum steps beside it
and the solutions found last."""

from __future__ import annotations

import atexit
import functools
import logging
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from huarong.engine.layout import Layout
from huarong.engine.solver import Solution
from huarong.space.table import MinStepsTable
from huarong.space.table import solve as walk_or_search

if TYPE_CHECKING:
    from huarong.space.database import ClassKey, Database
    from huarong.space.figures import GroupFigures

SOLUTION_CACHE_SIZE = 4096
RELEASE_WHEN_IDLE_S = 2.0
"""Seconds without a request after which the shared database is closed: an open reader keeps
``huarong db layers`` from committing (it retries for two minutes), so an idle server lets go."""


class _StepsTable:
    """The table of minimum steps beside the database, opened on first use: None without
    one, or when it is damaged (logged once; the server then searches, as without it)."""

    def __init__(self, database: Path | None) -> None:
        self._database = database
        self._table: MinStepsTable | None = None
        self._opened = False
        self._lock = threading.Lock()

    def get(self) -> MinStepsTable | None:
        if not self._opened:
            with self._lock:
                if not self._opened:
                    self._table = self._open()
                    self._opened = True
        return self._table

    def _open(self) -> MinStepsTable | None:
        from huarong.space.database import default_path
        from huarong.space.table import TableError, open_beside

        try:
            return open_beside(self._database or default_path())
        except TableError as error:
            logging.getLogger(__name__).warning("ignoring the %s", error)
            return None


_shared_databases: weakref.WeakSet[_SharedDatabase] = weakref.WeakSet()


@atexit.register
def _release_at_exit() -> None:
    """A DuckDB close in the release timer's thread while the interpreter ends aborts the
    process (its C++ unwinds through a thread being stopped): close them all before."""
    for shared in list(_shared_databases):
        shared.release()


def _signature(path: Path) -> tuple[object, ...]:
    """What changes when the file at ``path`` is written or replaced; OSError when it cannot
    be looked at."""
    status = path.stat()
    return (path, status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


class _SharedDatabase:
    """The database, opened once and shared by the light answers: opening it took 25 ms a
    request, reading a row takes 1 ms, and 10 microseconds from the figures file beside it
    (:mod:`huarong.space.figures`).  Both files are looked at on every use, so a database or
    figures written, replaced or removed since answer as if each request opened them; a
    database that cannot be opened is tried again on the next request, as before."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._database: Database | None = None
        self._opened_as: tuple[object, ...] = ()
        self._figures: GroupFigures | None = None
        self._figures_at = Path()
        self._figures_read_as: tuple[object, ...] = ()
        self._layers_from_database: frozenset[ClassKey] = frozenset()
        self._last_use = 0.0
        self._release_timer: threading.Timer | None = None
        # One DuckDB connection serves one thread at a time.
        self._lock = threading.Lock()
        _shared_databases.add(self)

    def row(self, layout: Layout) -> dict[str, Any] | None:
        """The layout's row of the database (``LayoutRecord.to_dict``), or None without a
        database that can be read."""
        from huarong.space.database import DatabaseError

        with self._lock:
            self._last_use = time.monotonic()
            try:
                database = self._current()
                if database is None:
                    return None
                return database.info(layout, self._figures,
                                     self._layers_from_database).to_dict()
            except DatabaseError:
                return None
            except Exception:
                # A failing disk may leave the connection unusable: the next request opens
                # the file anew, as every request did before.
                self._close()
                raise

    def figures_path(self) -> Path | None:
        """The figures file the rows are read from (opening the database, if it can be
        opened, as a first request would); None when they are read from the database."""
        from huarong.space.database import DatabaseError

        with self._lock:
            try:
                self._current()
            except (DatabaseError, OSError):
                return None
            return None if self._figures is None else self._figures.path

    def _current(self) -> Database | None:
        from huarong.space.database import Database, default_path
        from huarong.space.figures import figures_path

        target = self._path or default_path()
        try:
            signature = _signature(target)
        except OSError:
            self._close()
            self._forget_figures()
            self._figures_read_as = ()
            return None
        if self._database is None or signature != self._opened_as:
            self._close()
            self._database = Database.open(target)
            # A row is one row group's scan: DuckDB's threads only add their scheduling to it
            # (1.1 ms a row on one, 2.2 ms on two), and requests already run side by side.
            self._database.query("SET threads = 1")
            if signature != self._opened_as:
                self._figures_at = figures_path(target)
            self._opened_as = signature
            if self._release_timer is None:
                self._release_later(RELEASE_WHEN_IDLE_S)
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
        """The figures file of a database opened first or changed since, if it matches the
        database, and the classes whose layer figures are read from the database instead (all
        that have them, when the file was written before the last ``db layers``).  They are
        kept while the database is closed when idle."""
        from huarong.space.database import HAS_LAYER_FIGURES
        from huarong.space.figures import FiguresError, open_beside

        self._forget_figures()
        log = logging.getLogger(__name__)
        try:
            figures = open_beside(database.path)
        except FiguresError as error:
            log.warning("ignoring the %s", error)
            return
        if figures is None:
            return
        if figures.rows != database.row_count():
            log.warning("ignoring the figures %s: written from another database (%s rows, the "
                        "database has %s); write them again with `huarong db table`",
                        figures.path, f"{figures.rows:,}", f"{database.row_count():,}")
            figures.close()
            return
        self._figures = figures
        if figures.layer_rows != database.row_count(HAS_LAYER_FIGURES):
            log.info("the figures %s were written before the last `huarong db layers`: the "
                     "layer figures are read from the database until they are written again",
                     figures.path)
            self._layers_from_database = database.layer_classes()

    def _forget_figures(self) -> None:
        if self._figures is not None:
            self._figures.close()
            self._figures = None
        self._layers_from_database = frozenset()

    def release(self) -> None:
        """Close the database now, and its release timer."""
        with self._lock:
            if self._release_timer is not None:
                self._release_timer.cancel()
                self._release_timer = None
            self._close()

    def _release_later(self, delay: float) -> None:
        self._release_timer = threading.Timer(delay, self._release_if_idle)
        self._release_timer.daemon = True
        self._release_timer.start()

    def _release_if_idle(self) -> None:
        with self._lock:
            idle = time.monotonic() - self._last_use
            if self._database is None or idle >= RELEASE_WHEN_IDLE_S:
                self._close()
                self._release_timer = None
            else:
                self._release_later(RELEASE_WHEN_IDLE_S - idle)

    def _close(self) -> None:
        if self._database is not None:
            self._database.close()
            self._database = None


class ServerState:
    """One server's shared parts; ``database`` None: ``$HUARONG_DB`` or the standard place."""

    def __init__(self, database: Path | None) -> None:
        self.database = database
        self.steps_table = _StepsTable(database)
        self.shared_database = _SharedDatabase(database)
        self.solved: Callable[[int], Solution] = functools.lru_cache(SOLUTION_CACHE_SIZE)(
            self._solve)

    def _solve(self, code: int) -> Solution:
        return walk_or_search(Layout(code), self.steps_table.get())

    def table_min_steps(self, layout: Layout) -> Callable[[Layout], int | None] | None:
        """The minimum steps of the layouts of ``layout``'s group from the table, or None
        when it does not hold them (a search of the group is then a heavy answer's)."""
        table = self.steps_table.get()
        if table is not None and table.holds(layout):
            return table.min_steps
        return None
