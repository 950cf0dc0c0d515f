"""A group's summary from the database alone, without searching or placing the group: its
size, goals and figures by one query over the group's rows, the steps between its layouts
by counting each layout's steps (no graph is built), and the chosen layout's shortest path
by the table of minimum steps (else a search that stops at the nearest goal), the farthest
distance from the chosen layout from its farthest steps in the database (else one
breadth-first search from it, 0.6 s on the largest group: still nothing placed)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from huarong.engine.layout import Layout
from huarong.space.explorer.catalog import Catalog, GroupRef


def database_summary(catalog: Catalog, group: GroupRef, layout: Layout) -> dict[str, Any] | None:
    """The summary :meth:`GroupView.summary` gives, from ``catalog``'s database; None when
    the database lacks the layout."""
    from huarong._kernels import moves
    from huarong.space.cases import layout_id, layout_ids
    from huarong.space.database import Database
    from huarong.space.table import TableError, open_beside
    from huarong.space.table import solve as walk_or_search

    where = f"{group.key.sql} AND group_num = {group.group_num}"
    # Kernels release the GIL: the search for the farthest distance runs beside the queries
    # and the count of steps.
    with Database.open(catalog.path) as database, ThreadPoolExecutor(1) as beside:
        start = database.query("SELECT group_index, min_steps, farthest_steps FROM layouts "
                               f"WHERE id = {layout_id(layout)}").rows
        if not start:
            return None
        index, min_steps, farthest = start[0]
        searched = None if farthest is not None else beside.submit(
            _farthest_distance, layout, group.size)
        goals, min_most, farthest_most, farthest_known = database.query(
            "SELECT count(*) FILTER (WHERE min_steps = 0), max(min_steps), "
            f"max(farthest_steps), count(farthest_steps) FROM layouts WHERE {where}").rows[0]
        stream = database.stream(f"SELECT code FROM layouts WHERE {where}")
        codes = np.concatenate([batch.column(0).to_numpy() for batch in stream.batches])
        edges = int(moves.step_count(codes.astype(np.int64)))
        path: list[int] = []
        if min_steps is not None:
            try:
                table = open_beside(catalog.path)
            except TableError:
                table = None
            found = walk_or_search(layout, table).path
            ids = layout_ids(np.array([int(step) for step in found], dtype=np.int64))
            rows = dict(database.query("SELECT id, group_index FROM layouts WHERE id IN "
                                       f"({', '.join(map(str, ids.tolist()))})").rows)
            path = [int(rows[step]) for step in ids.tolist()]
        if searched is not None:
            farthest = searched.result()
    key = group.key
    return {
        "class": key.name, "jiang": key.jiang, "bing": key.bing, "style": key.style,
        "group_num": group.group_num, "size": group.size,
        "edges": edges,
        "seed": f"{group.seed:09X}", "start": layout.code, "start_index": int(index),
        "start_min_steps": min_steps, "shortest_path": path, "goals": int(goals),
        "min_steps_max": min_most, "distance_max": int(farthest),
        "farthest_present": farthest_known == group.size,
        "farthest_steps_max": int(farthest_most) if farthest_known == group.size else None,
    }


def _farthest_distance(layout: Layout, size: int) -> int:
    """Steps from ``layout`` to the farthest layout of its group (of ``size`` layouts)."""
    from huarong._kernels import group_search

    _, _, depth, _ = group_search.bfs(np.int64(int(layout)), group_search.EXPLORE_ALL,
                                      np.int64(0), np.int64(size))
    return int(depth[-1])
