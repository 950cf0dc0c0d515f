"""What the explorer's two routers (:mod:`huarong.web.explore_api`, the catalogue and placed
graphs; :mod:`huarong.web.graph_api`, graph files and bottlenecks) share: the limit on JSON
graphs, and each worker process's explorer of the database."""

from __future__ import annotations

import functools
from pathlib import Path

from huarong.engine.layout import Layout
from huarong.space.explorer import Explorer
from huarong.web.errors import database_answers

JSON_GRAPH_LIMIT = 50_000
"""The largest group answered as JSON, graph or basins node by node; bigger ones only in the
binary form.  Read at each request (tests lower it)."""


@functools.lru_cache(4)
def worker_explorer(database: Path, placements: Path) -> Explorer:
    """A worker process's explorer of the database at ``database``: its last groups stay
    in its memory, their placements in ``placements``."""
    return Explorer(database, placements)


def located(database: Path, placements: Path, code: int) -> Layout:
    """The layout of ``code``, once the database's catalogue has found its group (404
    otherwise, through :func:`~huarong.web.errors.database_answers`)."""
    layout = Layout(code)
    with database_answers(layout.code):
        worker_explorer(database, placements).catalog.locate(layout)
    return layout
