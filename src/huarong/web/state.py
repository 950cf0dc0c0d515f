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
from typing import Any

from huarong.engine.layout import Layout
from huarong.engine.solver import Solution
from huarong.space.table import MinStepsTable
from huarong.space.table import solve as walk_or_search

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


class _SharedDatabase:
    """The database's rows, read by one :class:`~huarong.space.rows.LayoutRows` shared by
    the light answers: opening the database took 25 ms a request, reading a row takes 1 ms,
    and 10 microseconds from the figures file beside it.  Closed when idle; a database that
    cannot be opened is tried again on the next request, as before."""

    def __init__(self, path: Path | None) -> None:
        from huarong.space.rows import LayoutRows

        self._rows = LayoutRows(path)
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
                record = self._rows.record(layout)
            except DatabaseError:
                return None
            except Exception:
                # A failing disk may leave the connection unusable: the next request opens
                # the file anew, as every request did before.
                self._rows.close()
                raise
            finally:
                self._release_when_idle()
            return None if record is None else record.to_dict()

    def figures_path(self) -> Path | None:
        """The figures file the rows are read from (opening the database, if it can be
        opened, as a first request would); None when they are read from the database."""
        from huarong.space.database import DatabaseError

        with self._lock:
            try:
                return self._rows.figures_path()
            except (DatabaseError, OSError):
                return None
            finally:
                self._release_when_idle()

    def release(self) -> None:
        """Close the database now, and its release timer."""
        with self._lock:
            if self._release_timer is not None:
                self._release_timer.cancel()
                self._release_timer = None
            self._rows.close()

    def _release_when_idle(self) -> None:
        if self._rows.is_open and self._release_timer is None:
            self._release_later(RELEASE_WHEN_IDLE_S)

    def _release_later(self, delay: float) -> None:
        self._release_timer = threading.Timer(delay, self._release_if_idle)
        self._release_timer.daemon = True
        self._release_timer.start()

    def _release_if_idle(self) -> None:
        with self._lock:
            idle = time.monotonic() - self._last_use
            if not self._rows.is_open or idle >= RELEASE_WHEN_IDLE_S:
                self._rows.close()
                self._release_timer = None
            else:
                self._release_later(RELEASE_WHEN_IDLE_S - idle)


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
