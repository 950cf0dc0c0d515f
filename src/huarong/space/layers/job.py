"""The resumable job behind ``huarong db layers``: :func:`plan` cuts classes into
:class:`Unit` pieces of work (a range of a big group's sources, or several small groups);
:func:`compute_unit` computes one in any process (a Dask worker's too: it rebuilds the graphs
from the seeds); each unit is checkpointed as a Parquet file beside the database
(:func:`save_unit`) and each finished class committed in one transaction
(:func:`commit_class`).  :func:`estimate_seconds` foresees the wall time of a plan.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from huarong.fileio import FILE_IN_USE, file_written_by_others, is_io_fault
from huarong.graph.sweep_common import FIGURE_COLUMNS, SOURCES_PER_SWEEP
from huarong.graph.sweeps import sweep_graphs
from huarong.space.database import ClassKey
from huarong.space.layers.graph import (
    Piece,
    UnitProgress,
    joined,
    sweep_pieces,
)

PAIRS_PER_UNIT = 1 << 31
"""Work of one unit, in (source, layout) pairs: seconds to a minute on one core."""
PIECES_PER_UNIT = 512

# ----- the resumable job: plan, units, checkpoints, commits ------------------------------------


class JobError(ValueError):
    """A job that cannot run as asked (no database, an old database, a class that does not
    exist); the message says which and why."""


@dataclass(frozen=True)
class Unit:
    """A piece of work of class ``key``, checkpointed as one file: a range of sources of a
    big group, or several small groups."""

    key: ClassKey
    pieces: tuple[Piece, ...]

    @property
    def sources(self) -> int:
        return sum(piece.sources for piece in self.pieces)

    @property
    def pairs(self) -> int:
        return sum(piece.pairs for piece in self.pieces)

    @property
    def name(self) -> str:
        """Unique to the unit's pieces, so that checkpoints of a run cut differently (an
        earlier version's) are never taken for this unit's."""
        import hashlib

        pieces = ",".join(f"{p.seed:X}:{p.first}:{p.stop}" for p in self.pieces)
        digest = hashlib.blake2b(pieces.encode(), digest_size=4).hexdigest()
        return f"{self.pieces[0].seed:09X}-{self.pieces[0].first}-{digest}"


@dataclass(frozen=True)
class ClassPlan:
    """The work of one class: its groups and layouts, and the units still to compute."""

    key: ClassKey
    groups: int
    layouts: int
    units: tuple[Unit, ...]

    @property
    def name(self) -> str:
        return "-".join(map(str, self.key))

    @property
    def pairs(self) -> int:
        return sum(unit.pairs for unit in self.units)


def parse_class(text: str) -> list[ClassKey]:
    """``J-B-S`` (one class) or ``J-B`` (every style of it); JobError when malformed or
    nonexistent."""
    from huarong.space.cases import _check_class

    parts = text.split("-")
    try:
        numbers = [int(part) for part in parts]
        if len(numbers) not in (2, 3):
            raise ValueError
    except ValueError:
        raise JobError(f"bad class {text!r}: write JIANG-BING-STYLE (like 5-4-1) or "
                       "JIANG-BING (every style)") from None
    jiang, bing = numbers[:2]
    try:
        _check_class(jiang, bing, numbers[2] if len(numbers) == 3 else None)
    except ValueError as error:
        raise JobError(f"bad class {text!r}: {error}") from None
    styles = [numbers[2]] if len(numbers) == 3 else list(range(jiang + 1))
    return [(jiang, bing, style) for style in styles]


def checkpoint_directory(database: Path) -> Path:
    """Where unit results wait, beside the database, until their class is committed."""
    return database.with_name(database.name + ".layers")


def _pieces_of_group(seed: int, size: int, sources: int) -> list[Piece]:
    # Whole sweeps, so that pieces keep the clusters whole.
    per_piece = max(SOURCES_PER_SWEEP,
                    PAIRS_PER_UNIT // max(size, 1) // SOURCES_PER_SWEEP * SOURCES_PER_SWEEP)
    return [Piece(seed, size, first, min(first + per_piece, sources))
            for first in range(0, sources, per_piece)]


def _packed(key: ClassKey, pieces: list[Piece]) -> list[Unit]:
    """Pieces gathered into units of about :data:`PAIRS_PER_UNIT` pairs (and at most
    :data:`PIECES_PER_UNIT` pieces), so that small groups do not cost a file each."""
    units: list[Unit] = []
    gathered: list[Piece] = []
    for piece in pieces:
        if gathered and (sum(p.pairs for p in gathered) + piece.pairs > PAIRS_PER_UNIT
                         or len(gathered) == PIECES_PER_UNIT):
            units.append(Unit(key, tuple(gathered)))
            gathered = []
        gathered.append(piece)
    if gathered:
        units.append(Unit(key, tuple(gathered)))
    return units


_GROUPS_SQL = """
WITH symmetric_counts AS (
    SELECT jiang, bing, style, group_num, sum("symmetric"::INTEGER) AS symmetric_count,
           count(*) - count(farthest_steps) AS missing
    FROM layouts GROUP BY ALL)
SELECT g.jiang, g.bing, g.style, g.group_num, g.seed, g.size, s.symmetric_count, s.missing,
       mg.seed AS mirror_seed
FROM groups g
JOIN symmetric_counts s USING (jiang, bing, style, group_num)
JOIN layouts l ON l.code = g.seed
JOIN layouts m ON m.id = l.mirror_id
JOIN groups mg ON (mg.jiang, mg.bing, mg.style, mg.group_num)
                = (m.jiang, m.bing, m.style, m.group_num)
ORDER BY g.jiang, g.bing, g.style, g.group_num
"""


def plan(database: Path, classes: list[ClassKey] | None) -> list[ClassPlan]:
    """The classes (all when None) whose figures are not all in the database yet, each with
    the units to compute (a group whose mirror group has the smaller seed comes with it)."""
    import duckdb

    if not database.is_file():
        raise JobError(f"no database at {database}: run `huarong db build` first")
    try:
        connection = duckdb.connect(str(database), read_only=True)
    except duckdb.Error as error:
        if is_io_fault(error):
            raise  # the disk's fault, not the database's
        raise JobError(f"cannot open database {database}: {error}") from None
    try:
        connection.execute("SET enable_progress_bar = false")
        rows = connection.execute(_GROUPS_SQL).fetchall()
    except duckdb.Error as error:
        if is_io_fault(error):
            raise
        raise JobError(f"the database {database} has no layer columns: rebuild it with "
                       f"`huarong db build --force` ({str(error).splitlines()[0]})") from None
    finally:
        connection.close()
    wanted = None if classes is None else set(classes)
    by_class: dict[ClassKey, list[tuple[int, ...]]] = {}
    for row in rows:
        key = (row[0], row[1], row[2])
        if wanted is None or key in wanted:
            by_class.setdefault(key, []).append(row[3:])
    plans = []
    for key, groups in by_class.items():
        if not any(missing for _, _, _, _, missing, _ in groups):
            continue
        pieces: list[Piece] = []
        for _, seed, size, symmetric, _, mirror_seed in groups:
            if seed == mirror_seed:
                pieces += _pieces_of_group(seed, size, (size + symmetric) // 2)
            elif seed < mirror_seed:
                pieces += _pieces_of_group(seed, size, size)
        plans.append(ClassPlan(key, len(groups), sum(group[2] for group in groups),
                               tuple(_packed(key, pieces))))
    return plans


def compute_unit(unit: Unit, threads: int = 1, progress: UnitProgress | None = None, *,
                 gpu: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The figures of one unit's sources and of their mirror images: (codes int64, (5, n)
    int32 figures).  Runs in any process (a Dask worker's too): graphs are rebuilt from the
    seeds, and what comes back is small.  ``gpu``: swept on this process's CUDA GPU
    (:mod:`huarong.graph.sweeps_gpu`; ``threads`` unused), the same figures."""
    parts = sweep_pieces(list(unit.pieces), threads, progress,
                         backend="gpu" if gpu else "cpu")
    codes, figures = joined(parts)
    return codes, figures.astype(np.int32)


def _checkpoint_path(directory: Path, unit: Unit) -> Path:
    return directory / "-".join(map(str, unit.key)) / f"{unit.name}.parquet"


def is_done(directory: Path, unit: Unit) -> bool:
    return _checkpoint_path(directory, unit).is_file()


def save_unit(directory: Path, unit: Unit, codes: np.ndarray, figures: np.ndarray) -> int:
    """Write the figures :func:`compute_unit` gave as a Parquet file by id (atomically: a
    file that exists is complete); returns the rows written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from huarong.space import cases

    columns = {"id": cases.layout_ids(codes).astype(np.int32)}
    for row, name in enumerate(FIGURE_COLUMNS):
        columns[name] = figures[row].astype(np.int16 if name.endswith("steps") else np.int32)
    target = _checkpoint_path(directory, unit)
    target.parent.mkdir(parents=True, exist_ok=True)
    with file_written_by_others(target) as temporary:
        pq.write_table(pa.table(columns), temporary)
    return int(codes.shape[0])


CHECKPOINT_BYTES_PER_LAYOUT = 24
"""A layout's row in a checkpoint (id and five figures, 20 bytes, uncompressed Parquet)."""
COMMIT_BYTES_PER_LAYOUT = 24
"""What a commit adds to the database a layout: the new column blocks, written before the old
ones are freed, and the write-ahead log of the class."""


def room_needed(plans: list[ClassPlan]) -> int:
    """Bytes of disk the job of ``plans`` needs beside its database, at most: every
    checkpoint of a class waits until its commit, and the database grows at each commit."""
    layouts = sum(p.layouts for p in plans)
    return layouts * COMMIT_BYTES_PER_LAYOUT + max(
        (p.layouts for p in plans), default=0) * CHECKPOINT_BYTES_PER_LAYOUT


COMMIT_PATIENCE = 120.0
"""Seconds a commit waits for readers of the database (each holding it a moment) to go."""


def _writable(database: Path) -> Any:
    """A read-write connection, waiting up to :data:`COMMIT_PATIENCE` for other processes to
    let go of the file; any other error (a full or failing disk) at once."""
    import time

    import duckdb

    deadline = time.monotonic() + COMMIT_PATIENCE
    while True:
        try:
            return duckdb.connect(str(database))
        except duckdb.Error as error:
            if FILE_IN_USE not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(1.0)


def commit_class(database: Path, directory: Path, class_plan: ClassPlan) -> None:
    """Put a finished class's figures into the database in one transaction (a reader sees
    all of the class or none of it), after checking them against the stored minimum steps;
    then drop its checkpoints (other files there, left by a run cut differently, with
    them)."""
    import shutil

    folder = directory / class_plan.name
    files = ", ".join("'" + str(_checkpoint_path(directory, unit)).replace("'", "''") + "'"
                      for unit in class_plan.units)
    connection = _writable(database)
    try:
        connection.execute("SET enable_progress_bar = false")
        connection.execute("CREATE TEMP TABLE unit_rows AS "
                           f"SELECT * FROM read_parquet([{files}])")
        rows, distinct = connection.execute(
            "SELECT count(*), count(DISTINCT id) FROM unit_rows").fetchone() or (0, 0)
        disagree = connection.execute(
            "SELECT count(*) FROM unit_rows u JOIN layouts l USING (id) "
            "WHERE coalesce(l.min_steps, -1) <> u.min_steps "
            "OR l.min_step_solutions <> u.min_step_solutions").fetchone()
        if not rows == distinct == class_plan.layouts or disagree != (0,):
            raise JobError(f"class {class_plan.name}: the checkpoints in {folder} are "
                           "inconsistent (delete them to recompute the class)")
        connection.execute("BEGIN TRANSACTION")
        connection.execute(
            "UPDATE layouts SET farthest_steps = u.farthest_steps, "
            "farthest_count = u.farthest_count, solution_count = u.solution_count "
            "FROM unit_rows u WHERE layouts.id = u.id")
        connection.execute("COMMIT")
    finally:
        connection.close()
    shutil.rmtree(folder, ignore_errors=True)



# Fixed costs in :func:`estimate_seconds`, measured here on one core: a class's commit
# (35-110 ms), a unit's checkpoint file (1-15 ms) and a group's graph.
SECONDS_A_CLASS = 0.04
SECONDS_A_UNIT = 0.005
SECONDS_A_GROUP = 0.0005


def _lane_pairs(plan: ClassPlan) -> int:
    """(lane, layout) pairs of the plan's sweeps: a sweep costs the same however few of its
    lanes carry a source, which matters for small groups."""
    return sum(-(-piece.sources // SOURCES_PER_SWEEP) * SOURCES_PER_SWEEP * piece.size
               for unit in plan.units for piece in unit.pieces)


def estimate_seconds(plans: list[ClassPlan], *, cores: int = 1,
                     calibrated_classes: int = 8) -> float:
    """Wall time of ``plans`` on ``cores`` cores of this machine, from rates measured now
    (one sweep on the largest group of each of the ``calibrated_classes`` classes with the
    most work; the other classes at their weighted mean rate) and the fixed costs of
    classes, units and groups."""
    import time

    rates: dict[ClassKey, float] = {}
    for class_plan in sorted(plans, key=lambda p: -p.pairs)[:calibrated_classes]:
        if not class_plan.units:
            continue
        piece = max((piece for unit in class_plan.units for piece in unit.pieces),
                    key=lambda piece: piece.size)
        graph, sources = Piece(piece.seed, piece.size, 0, SOURCES_PER_SWEEP).job()
        started = time.perf_counter()
        sweep_graphs([(graph, sources)], threads=1)
        rates[class_plan.key] = ((time.perf_counter() - started)
                                 / (sources.shape[0] * graph.size))
    lane_pairs = {p.key: _lane_pairs(p) for p in plans}
    measured = sum(lane_pairs[key] for key in rates)
    mean_rate = sum(rates[key] * lane_pairs[key] for key in rates) / max(measured, 1)
    searching = sum(lane_pairs[p.key] * rates.get(p.key, mean_rate) for p in plans)
    units = sum(len(p.units) for p in plans)
    groups = sum(len(unit.pieces) for p in plans for unit in p.units)
    return ((searching + units * SECONDS_A_UNIT + groups * SECONDS_A_GROUP) / max(cores, 1)
            + len(plans) * SECONDS_A_CLASS)


GPU_BIG_GROUP = 20_000
"""Groups of at least this many layouts sweep at :data:`GPU_NS_A_PAIR`, the smaller ones
(packed many to a launch) at :data:`GPU_SMALL_NS_A_PAIR`."""
GPU_NS_A_PAIR = 0.049
GPU_SMALL_NS_A_PAIR = 0.6
GPU_RATES_MEASURED = ("measured on an NVIDIA H100 80GB HBM3 with numba-cuda 0.30.4 (issue 32: "
                      "`db layers --all --gpu` took 294 s for 5.95e12 pairs, graphs, sweeps "
                      "and commits together; the small groups of every class swept packed "
                      "at 0.58-0.61 ns a pair)")
"""Where the GPU rates come from, as ``huarong db layers --plan --gpu`` says."""
GPU_SECONDS_A_CLASS = 0.1
"""A class's commit and checkpoints, on the writer thread beside the sweeps: counted only
where they outlast them."""


def estimate_gpu_seconds(plans: list[ClassPlan]) -> float:
    """Wall time of ``plans`` with ``--gpu``: the sweeps at the measured rates (the graphs are
    built on the CPU cores meanwhile), or the commits if they take longer."""
    big = small = 0
    for piece in (piece for p in plans for unit in p.units for piece in unit.pieces):
        if piece.size >= GPU_BIG_GROUP:
            big += piece.pairs
        else:
            small += piece.pairs
    sweeping = (big * GPU_NS_A_PAIR + small * GPU_SMALL_NS_A_PAIR) * 1e-9
    return max(sweeping, len(plans) * GPU_SECONDS_A_CLASS)
