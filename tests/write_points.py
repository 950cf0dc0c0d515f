"""The few functions through which huarong writes files and databases, counted, so that a test
can make the N-th moment fail (``ENOSPC``, ``EIO``) or kill the process there (``kill -9``).

A moment is the instant just before or just after one of: opening a DuckDB connection, a
statement on it, writing a Parquet file, creating a temporary file or folder, a write to a
file opened by :mod:`huarong.fileio`, and a rename.  Run as a script
(``python -m tests.write_points kill:K ARGS...``) it runs ``huarong ARGS...`` and sends itself
SIGKILL at moment K (``pause:POINT`` instead stops at a point until told to go on)."""

from __future__ import annotations

import errno
import os
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow.parquet as pq
from click.testing import CliRunner, Result

from huarong import fileio
from huarong.cli import main

Action = Callable[[str, str], None]
"""Called with (point, "before" or "after") at the moment chosen."""


class WritePoints:
    """Counts the moments of a run; calls ``action`` once, at moment ``act_at`` (1-based) or,
    when ``act_at`` names a point, just before its first use."""

    def __init__(self, act_at: int | str | None = None, action: Action | None = None,
                 phases: tuple[str, ...] = ("before", "after")) -> None:
        self.act_at = act_at
        self.action = action
        self.phases = phases
        self.moments: list[tuple[str, str]] = []

    def moment(self, point: str, phase: str) -> None:
        if phase not in self.phases:
            return
        self.moments.append((point, phase))
        chosen = (point, phase) == (self.act_at, "before") and self.moments.count(
            (point, phase)) == 1
        if self.action is not None and (len(self.moments) == self.act_at or chosen):
            self.action(point, phase)

    def around(self, point: str, operation: Callable[[], Any]) -> Any:
        self.moment(point, "before")
        result = operation()
        self.moment(point, "after")
        return result


class _Connection:
    """A DuckDB connection whose statements are write points."""

    def __init__(self, connection: Any, points: WritePoints) -> None:
        self._connection = connection
        self._points = points

    def execute(self, *args: Any, **kwargs: Any) -> Any:
        self._points.around("duckdb.execute", lambda: self._connection.execute(*args, **kwargs))
        return self

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)

    def __enter__(self) -> _Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self._connection.close()


class _Stream:
    """A file opened by :mod:`huarong.fileio` whose writes are write points."""

    def __init__(self, stream: Any, points: WritePoints) -> None:
        self._stream = stream
        self._points = points

    def write(self, data: Any) -> Any:
        return self._points.around("file.write", lambda: self._stream.write(data))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def __enter__(self) -> _Stream:
        self._stream.__enter__()
        return self

    def __exit__(self, *exc: Any) -> Any:
        return self._stream.__exit__(*exc)


def install(points: WritePoints, setattr_: Callable[[Any, str, Any], None]) -> None:
    """Route every write point through ``points`` (``setattr_`` is monkeypatch.setattr in a
    test, plain setattr in a child that will be killed)."""
    real_connect = duckdb.connect
    real_write_table = pq.write_table
    real_replace = os.replace
    real_mkstemp = tempfile.mkstemp
    real_mkdtemp = tempfile.mkdtemp
    real_open_stream = fileio._open_stream

    def connect(*args: Any, **kwargs: Any) -> _Connection:
        return _Connection(points.around("duckdb.connect",
                                         lambda: real_connect(*args, **kwargs)), points)

    setattr_(duckdb, "connect", connect)
    setattr_(pq, "write_table", lambda *args, **kwargs: points.around(
        "parquet", lambda: real_write_table(*args, **kwargs)))
    setattr_(os, "replace", lambda *args, **kwargs: points.around(
        "rename", lambda: real_replace(*args, **kwargs)))
    setattr_(tempfile, "mkstemp", lambda *args, **kwargs: points.around(
        "mkstemp", lambda: real_mkstemp(*args, **kwargs)))
    setattr_(tempfile, "mkdtemp", lambda *args, **kwargs: points.around(
        "mkdtemp", lambda: real_mkdtemp(*args, **kwargs)))
    setattr_(fileio, "_open_stream", lambda *args: _Stream(real_open_stream(*args), points))


FIGURES = "SELECT id, farthest_steps, farthest_count, solution_count FROM layouts ORDER BY id"


def invoke(*args: str) -> Result:
    """``huarong ARGS`` in this process."""
    return CliRunner().invoke(main, list(args))


def rows(path: Path, sql: str) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` on the database at ``path``, read-only."""
    connection = duckdb.connect(str(path), read_only=True)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def leftovers(folder: Path) -> list[Path]:
    """Temporary files and locks under ``folder``."""
    return [p for p in folder.rglob("*") if p.name.endswith((".tmp", ".lock"))]


def moments_of(job: Callable[[], Result], monkeypatch: Any,
               phases: tuple[str, ...] = ("before", "after")) -> int:
    """How many moments (of ``phases``) a clean run of ``job`` passes."""
    points = WritePoints(phases=phases)
    with monkeypatch.context() as patch:
        install(points, patch.setattr)
        assert job().exit_code == 0
    return len(points.moments)


def raising(number: int) -> Action:
    """An action that fails the operation as a full disk (``ENOSPC``) or a failing disk
    (``EIO``) would: OSError from files and Parquet, DuckDB's own exceptions from DuckDB (a
    ``FatalException`` "Failed to create checkpoint" for EIO, as a commit meets it)."""
    cause = os.strerror(number)

    def act(point: str, phase: str) -> None:
        if point.startswith("duckdb") and number == errno.EIO:
            raise duckdb.FatalException("FATAL Error: Failed to create checkpoint because of "
                                        f'error: Could not write file "x.duckdb": {cause}')
        if point.startswith("duckdb"):
            raise duckdb.IOException(f'IO Error: Could not write file "x.duckdb.wal": {cause}')
        raise OSError(number, cause, "injected")

    return act


def pristine_database(factory: Any) -> Path:
    """The database of :func:`tests.small_database.class_database` for the classes 7-0-*
    (3,508 layouts, layer figures NULL), built once a session: every copy starts from it."""
    from .small_database import class_database

    path = Path(factory.getbasetemp()) / "write-points" / "small.duckdb"
    if not path.exists():
        path.parent.mkdir(exist_ok=True)
        building = class_database(path.with_name("building.duckdb"), (7, 0))
        building.rename(path)
    return path


def synthetic_columns(layouts: int, seed: int, groups: int = 12) -> dict[str, np.ndarray]:
    """Columns shaped like :func:`huarong.space.build.layout_columns`'s for ``layouts``
    layouts in a few classes and groups, their values drawn from ``seed``: what ``db build``
    and ``all`` write, without computing the 29 million layouts."""
    rng = np.random.default_rng(seed)
    group = np.sort(rng.integers(0, groups, layouts))
    firsts = np.searchsorted(group, np.unique(group))
    sizes = np.diff(np.append(firsts, layouts))
    group_index = np.arange(layouts) - np.repeat(firsts, sizes)
    steps = rng.integers(-1, 120, layouts)
    return {
        "id": np.arange(layouts, dtype=np.int32),
        "code": np.sort(rng.choice(1 << 34, layouts, replace=False)).astype(np.int64),
        "jiang": (group // 4).astype(np.int8), "bing": (group % 4 // 2).astype(np.int8),
        "style": (group % 2).astype(np.int8), "group_num": (group % 2).astype(np.int32),
        "group_index": group_index.astype(np.int32),
        "group_size": np.repeat(sizes, sizes).astype(np.int32),
        "min_steps": steps.astype(np.int16), "min_step_solutions": (steps >= 0).astype(np.int32),
        "farthest_steps": rng.integers(-1, 130, layouts).astype(np.int16),
        "farthest_count": rng.integers(-1, 9, layouts).astype(np.int32),
        "solution_count": rng.integers(-1, 99, layouts).astype(np.int32),
        "symmetric": np.zeros(layouts, dtype=bool), "mirror_id": np.arange(layouts,
                                                                           dtype=np.int32),
        "groups_first_id": firsts.astype(np.int64), "groups_size": sizes.astype(np.int32),
        "groups_num": (np.unique(group) % 2).astype(np.int32),
        "groups_has_solution": steps[firsts] >= 0,
    }


COLUMNS_SEED_VARIABLE = "TEST_SYNTHETIC_COLUMNS"
"""In a child: ``LAYOUTS:SEED`` makes ``db build`` and ``all`` write synthetic columns."""


def use_synthetic_columns(layouts: int, seed: int, setattr_: Callable[[Any, str, Any], None],
                          groups: int = 12) -> None:
    """Make ``db build`` and ``all`` write :func:`synthetic_columns` (and the tables beside
    the database tables of that many layouts)."""
    from huarong.space import all_files, build, figures, table

    def columns(*args: Any, **kwargs: Any) -> dict[str, np.ndarray]:
        return synthetic_columns(layouts, seed, groups)

    setattr_(build, "layout_columns", columns)
    setattr_(all_files, "layout_columns", columns)
    setattr_(table, "LAYOUT_COUNT", layouts)
    setattr_(figures, "LAYOUT_COUNT", layouts)


def _stop_at(plan: str, args: list[str]) -> None:
    """Run ``huarong ARGS`` and, at the moment ``plan`` names, ``kill:K`` send this process
    SIGKILL at moment K, or ``pause:POINT`` print "paused" and wait for a line on stdin
    before the first moment of that point (its lock held, its work half done)."""
    synthetic = os.environ.get(COLUMNS_SEED_VARIABLE)
    if synthetic:
        layouts, seed = map(int, synthetic.split(":"))
        use_synthetic_columns(layouts, seed, setattr)
    how, _, where = plan.partition(":")

    def pause(point: str, phase: str) -> None:
        print("paused", flush=True)
        sys.stdin.readline()

    if how == "kill":
        points = WritePoints(int(where), lambda point, phase: os.kill(os.getpid(),
                                                                       signal.SIGKILL))
    else:
        points = WritePoints(where, pause)
    install(points, setattr)
    main(args)


def child(plan: str, *args: str) -> list[str]:
    """The command line of a child that runs ``huarong ARGS`` stopped as ``plan`` says."""
    return [sys.executable, "-m", "tests.write_points", plan, *args]


if __name__ == "__main__":
    _stop_at(sys.argv[1], sys.argv[2:])
