"""What the routers of one server share: its database, its slots for heavy work, the table
of minimum steps beside the database, the groups searched last and the solutions found last."""

from __future__ import annotations

import functools
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from huarong.engine.layout import Layout
from huarong.engine.solver import Solution
from huarong.space.stats import GroupMinSteps, group_min_steps
from huarong.space.table import MinStepsTable
from huarong.space.table import solve as walk_or_search
from huarong.web.errors import HeavyWork

SOLUTION_CACHE_SIZE = 4096
GROUP_CACHE_SIZE = 8


class _GroupTables:
    """The minimum steps of every layout of the few groups used last: playing a game asks
    for hints on layout after layout of one group, so each group is searched once."""

    def __init__(self, size: int, heavy: HeavyWork) -> None:
        self._size = size
        self._heavy = heavy
        self._tables: OrderedDict[int, GroupMinSteps] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, layout: Layout) -> GroupMinSteps:
        with self._lock:
            for key, table in self._tables.items():
                if layout in table:
                    self._tables.move_to_end(key)
                    return table
        with self._heavy.slot(layout, sized=False):
            table = group_min_steps(layout)
        with self._lock:
            self._tables[int(table.codes[0])] = table
            while len(self._tables) > self._size:
                self._tables.popitem(last=False)
        return table


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


class ServerState:
    """One server's shared parts; ``database`` None: ``$HUARONG_DB`` or the standard place."""

    def __init__(self, database: Path | None, heavy: HeavyWork) -> None:
        self.database = database
        self.heavy = heavy
        self.steps_table = _StepsTable(database)
        self._groups = _GroupTables(GROUP_CACHE_SIZE, heavy)
        self.solved: Callable[[int], Solution] = functools.lru_cache(SOLUTION_CACHE_SIZE)(
            self._solve)

    def _solve(self, code: int) -> Solution:
        return walk_or_search(Layout(code), self.steps_table.get())

    def min_steps_of(self, layout: Layout) -> Callable[[Layout], int | None]:
        """The minimum steps of the layouts of ``layout``'s group: from the table when it
        holds them, else from a search of the whole group (a few groups are kept)."""
        table = self.steps_table.get()
        if table is not None and table.holds(layout):
            return table.min_steps
        return self._groups.of(layout).of
