"""A small database of one jiang-bing class, for the layer job's tests and benchmarks."""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa

from huarong.space import cases, database, layers


def class_database(path: Path, jiang_bing: tuple[int, int]) -> Path:
    """A database in the real schema holding the layouts and groups of one jiang-bing (every
    style), with their minimum steps and the layer figures NULL: a database for the layer job
    in seconds, where the whole one takes a minute and 2 GB."""
    codes = cases.all_codes()
    cls = cases.classes()
    groups = cases.label_groups()
    ids = np.flatnonzero((cls.jiang == jiang_bing[0]) & (cls.bing == jiang_bing[1]))
    class_codes, steps, nearest = cases.min_steps_of_class(*jiang_bing)
    mirror_id = layers.mirror_ids(class_codes)
    group = groups.group[ids]
    none = np.full(ids.shape[0], -1)
    rows = pa.table({
        "id": ids, "code": class_codes, "jiang": cls.jiang[ids], "bing": cls.bing[ids],
        "style": cls.style[ids], "group_num": groups.group_nums[group],
        "group_index": groups.group_index[ids], "group_size": groups.sizes[group],
        "min_steps": steps, "min_step_solutions": nearest, "farthest_steps": none,
        "farthest_count": none, "solution_count": none, "symmetric": mirror_id == ids,
        "mirror_id": mirror_id})
    chosen = np.unique(group)
    firsts = groups.first_ids[chosen]
    group_rows = pa.table({
        "jiang": cls.jiang[firsts], "bing": cls.bing[firsts], "style": cls.style[firsts],
        "group_num": groups.group_nums[chosen], "size": groups.sizes[chosen],
        "seed": codes[firsts], "has_solution": np.zeros(chosen.shape[0], dtype=bool)})
    connection = duckdb.connect(str(path))
    database.create_tables(connection)
    connection.register("layout_rows", rows)
    connection.register("group_rows", group_rows)
    database.insert_layouts(connection, "layout_rows")
    connection.execute("INSERT INTO groups SELECT * FROM group_rows")
    connection.close()
    return path
