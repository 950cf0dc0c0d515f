"""Making the database (:mod:`huarong.space.database`) and the files beside it.

``huarong db build`` computes every column with :mod:`huarong.space.cases` (and the layer
figures of the standard layouts with :mod:`huarong.space.layers.graph`), writes a temporary
file beside the target and renames it into place, so a database is either complete or absent.
Beside it go the table of minimum steps (:mod:`huarong.space.table`), with which solve and
hint walk instead of searching, and the figures file (:mod:`huarong.space.figures`), from
which a server answers a layout's row; ``huarong db table`` writes them again from a built
database, and ``huarong db layers`` writes the figures again after its last commit.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from huarong.fileio import (
    check_free_space,
    check_writable,
    real_target,
    temporary_beside,
    writer_lock,
)
from huarong.space.database import (
    LAYOUT_COLUMNS,
    Database,
    DatabaseError,
    create_tables,
    default_path,
    insert_layouts,
)

PhaseProgress = Callable[[str, int, int], None]
"""``progress(phase, done, total)``: one bar per phase of a long computation."""


def layout_columns(progress: PhaseProgress | None = None, min_steps: bool = True
                   ) -> dict[str, np.ndarray]:
    """Every column of ``layouts`` as arrays indexed by id, plus the per-group arrays
    (``group_*``).  Without ``min_steps`` the slowest phase is skipped."""
    from huarong.space import cases

    def report(phase: str) -> cases.Progress | None:
        if progress is None:
            return None
        return lambda done, total: progress(phase, done, total)

    enumerate_progress = report("enumerating layouts")
    if enumerate_progress:
        enumerate_progress(0, 1)
    codes = cases.all_codes()
    classes = cases.classes()
    if enumerate_progress:
        enumerate_progress(1, 1)
    groups = cases.label_groups(report("labelling groups"))
    columns = {
        "id": np.arange(codes.shape[0], dtype=np.int32), "code": codes,
        "jiang": classes.jiang, "bing": classes.bing, "style": classes.style,
        "group_num": groups.group_num(), "group_index": groups.group_index,
        "group_size": groups.group_size(),
        "groups_first_id": groups.first_ids, "groups_size": groups.sizes,
        "groups_num": groups.group_nums,
    }
    if min_steps:
        steps, solutions = cases.min_steps_all(report("minimum steps"))
        columns["min_steps"] = steps
        columns["min_step_solutions"] = solutions
        columns["groups_has_solution"] = steps[groups.first_ids] >= 0
        columns.update(_mirror_and_layer_columns(codes, progress))
    return columns


def _mirror_and_layer_columns(codes: np.ndarray, progress: PhaseProgress | None
                              ) -> dict[str, np.ndarray]:
    """``mirror_id`` and ``symmetric`` of every layout, and the layer figures of the standard
    layouts (the other layouts' are left to ``huarong db layers``)."""
    from huarong.space.layers import graph as layers

    mirror_id = layers.mirror_ids(codes)
    phase = "layer figures of the standard layouts"
    ids, figures = layers.class_figures(
        *layers.STANDARD_CLASS, mirror_id,
        progress=None if progress is None else lambda done, total: progress(phase, done, total))
    return {"mirror_id": mirror_id, "symmetric": mirror_id == np.arange(codes.shape[0]),
            **{name: layers.figure_column(name, ids, figures, codes.shape[0])
               for name in ("farthest_steps", "farthest_count", "solution_count")}}


DATABASE_BYTES = 900_000_000
"""Room ``build`` needs beside its target: the new file (309 MB measured) while the old one is
kept until the rename, DuckDB's write-ahead log and spills while it writes, and the tables
beside it (the figures 264 MB, the minimum steps 29 MB)."""


def _build_target(path: Path) -> Path:
    """The file a build of ``path`` writes: a symbolic link is followed, as every output is
    (:mod:`huarong.fileio`), so the file it names is replaced and the link stays a link."""
    try:
        target = real_target(path)
    except IsADirectoryError:
        raise DatabaseError(f"cannot build a database at {path}: it is a directory; "
                            "name a file") from None
    if target is None:
        raise DatabaseError(f"cannot build a database at {path}: it is not a regular file "
                            "(a FIFO, a device or standard output); name a file")
    return target


def build(path: str | os.PathLike[str] | None = None, progress: PhaseProgress | None = None,
          force: bool = False, wait: bool = False) -> Path:
    """Compute everything and write the database to ``path`` (default :func:`default_path`);
    an existing database is kept unless ``force``.  Refused at once (OSError) when the disk
    lacks :data:`DATABASE_BYTES` or another process writes the same file
    (:class:`huarong.fileio.Busy`; with ``wait``, waits for it).  Returns the path."""
    import duckdb
    import pyarrow as pa

    from huarong.space.table import table_path, write_table

    target = _build_target(Path(path) if path is not None else default_path())
    if target.exists() and not force:
        raise DatabaseError(f"a database already exists at {target}: "
                            "use --force to rebuild it")
    target.parent.mkdir(parents=True, exist_ok=True)
    with writer_lock(target, wait=wait), temporary_beside(target) as temporary:
        check_writable(target)
        check_free_space(target, DATABASE_BYTES)
        columns = layout_columns(progress)
        first = columns["groups_first_id"]
        layouts = pa.table({name: columns[name] for name in LAYOUT_COLUMNS})
        groups = pa.table({
            "jiang": columns["jiang"][first], "bing": columns["bing"][first],
            "style": columns["style"][first], "group_num": columns["groups_num"],
            "size": columns["groups_size"], "seed": columns["code"][first],
            "has_solution": columns["groups_has_solution"],
        })
        min_steps = columns["min_steps"]
        del columns
        if progress:
            progress("writing the database", 0, 1)
        connection = duckdb.connect(str(temporary))
        try:
            create_tables(connection)
            connection.register("layout_rows", layouts)
            connection.register("group_rows", groups)
            insert_layouts(connection, "layout_rows")
            connection.execute("INSERT INTO groups SELECT * FROM group_rows "
                               "ORDER BY jiang, bing, style, group_num")
            connection.execute("CHECKPOINT")
        finally:
            connection.close()
        # The walk's table beside the database, so solve and hint stop searching; before the
        # database, so that a fault in writing it leaves the old database (its minimum steps,
        # the same facts, need no matching table).
        write_table(table_path(target), min_steps)
        with Database.open(temporary) as written:
            write_figures_beside(target, written, progress)
        os.replace(temporary, target)
    if progress:
        progress("writing the database", 1, 1)
    return target


def write_figures_beside(target: Path, database: Database,
                         progress: PhaseProgress | None = None) -> Path:
    """Write the figures file of ``database`` beside the database at ``target`` (which may
    still be ``database``'s temporary file's name to be); returns its path."""
    from huarong.space.figures import figures_path, write_figures

    return write_figures(figures_path(target), database, progress and functools.partial(
        progress, "writing the figures file"))


def write_figures_again(database: Path) -> Path | None:
    """Write the figures file beside the database at ``database`` again from it, when there
    is one (``db layers`` has changed the layer figures); None when there is none."""
    from huarong.space.figures import figures_path

    if not figures_path(database).exists():
        return None
    with Database.open(database) as opened:
        return write_figures_beside(database, opened)
