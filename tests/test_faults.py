"""Faults of the machine injected at every write point of small jobs: for every N up to the
number of write points of a job, the N-th fails as a full disk (``ENOSPC``) or a failing disk
(``EIO``: an OSError from files and Parquet, DuckDB's ``FatalException`` "Failed to create
checkpoint" from DuckDB).  Each run must end with one line naming the file and the cause, exit
status 1, the old files intact, no temporary file or lock left, and a rerun must equal a clean
run.  Then the one-line messages of the other faults (quota, read-only place, permission,
missing directory, a database another program holds) and the refusals before long work."""

from __future__ import annotations

import errno
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest
from click.testing import Result

from huarong import fileio
from huarong.cli import _common

from .write_points import (
    FIGURES,
    WritePoints,
    install,
    invoke,
    leftovers,
    moments_of,
    pristine_database,
    raising,
    rows,
    synthetic_columns,
    use_synthetic_columns,
)

pytestmark = pytest.mark.big_memory

KINDS = {errno.ENOSPC: "the disk is full", errno.EIO: "input/output error"}
BEFORE = ("before",)  # a fault comes before the operation it stops
LAYERS_CLASS = "7-0-5"  # 40 groups, 626 layouts: one unit, one commit


def assert_one_line_fault(result: Result, cause: str, *paths: Path) -> None:
    """Exit status 1, and the last line of stderr, the only error line, names ``cause`` and
    one of ``paths``; no traceback."""
    lines = result.stderr.splitlines()
    errors = [line for line in lines if line.startswith("huarong: error:")]
    assert result.exit_code == 1, result.output
    assert errors == lines[-1:], result.stderr
    assert cause in errors[0] and any(f" {path}:" in errors[0] for path in paths), errors[0]
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def each_fault(job: Callable[[], Result], moments: int, monkeypatch: pytest.MonkeyPatch,
               prepare: Callable[[], None], check: Callable[[int, int, Result], None]) -> None:
    """For every N up to ``moments``: ``prepare()``, run ``job`` with its N-th write point
    failing, then ``check(N, errno, result)``.  The kinds alternate (every kind meets the
    runs of DuckDB statements, files and renames of each job)."""
    kinds = list(KINDS)
    for moment in range(1, moments + 1):
        number = kinds[moment % len(kinds)]
        prepare()
        with monkeypatch.context() as patch:
            points = WritePoints(moment, raising(number), phases=BEFORE)
            install(points, patch.setattr)
            result = job()
        assert len(points.moments) == moment  # it stopped at the fault
        check(moment, number, result)


# ----- db layers ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return pristine_database(tmp_path_factory)


def test_layers_survive_a_fault_at_every_write_point(
        pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "db" / "small.duckdb"
    db.parent.mkdir()

    def job() -> Result:
        return invoke("db", "layers", LAYERS_CLASS, "--threads", "1", "--db", str(db))

    shutil.copy(pristine, db)
    old = rows(db, FIGURES)
    assert job().exit_code == 0
    clean = rows(db, FIGURES)
    assert clean != old and not leftovers(db.parent)
    shutil.copy(pristine, db)
    moments = moments_of(job, monkeypatch, BEFORE)
    assert moments >= 10  # plan, checkpoint (temporary, Parquet, rename), commit statements

    def fresh() -> None:
        shutil.rmtree(db.parent)
        db.parent.mkdir()
        shutil.copy(pristine, db)

    def check(moment: int, number: int, result: Result) -> None:
        assert_one_line_fault(result, KINDS[number], db)
        assert rows(db, FIGURES) == old, moment  # one transaction: nothing of the class
        assert not leftovers(db.parent), moment
        rerun = job()
        assert rerun.exit_code == 0, rerun.output
        assert rows(db, FIGURES) == clean, moment

    each_fault(job, moments, monkeypatch, fresh, check)


# ----- db build -----------------------------------------------------------------------------
OLD_SEED, NEW_SEED, LAYOUTS = 1, 2, 3000


def test_build_survives_a_fault_at_every_write_point(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``db build --force`` over an old database, its columns synthetic (what is under test
    is the writing, not the 29 million layouts)."""
    db = tmp_path / "db" / "x.duckdb"

    def build(seed: int) -> Result:
        with monkeypatch.context() as patch:
            use_synthetic_columns(LAYOUTS, seed, patch.setattr)
            return invoke("db", "build", "-q", "--force", "--db", str(db))

    def files() -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(db.parent.iterdir())}

    assert build(OLD_SEED).exit_code == 0
    old = files()
    assert build(NEW_SEED).exit_code == 0
    clean = rows(db, "SELECT * FROM layouts ORDER BY id"), rows(db, "SELECT * FROM groups")
    expected = synthetic_columns(LAYOUTS, NEW_SEED)
    assert [row[1] for row in clean[0]] == expected["code"].tolist()
    moments = moments_of(lambda: build(NEW_SEED), monkeypatch, BEFORE)
    assert moments >= 6  # temporary folder, connection, schema, two inserts, rename

    def restore() -> None:
        for name, data in old.items():
            (db.parent / name).write_bytes(data)

    def check(moment: int, number: int, result: Result) -> None:
        assert_one_line_fault(result, KINDS[number], db)
        now = files()
        assert now.keys() == old.keys(), moment  # no temporary file, no lock
        assert now["x.duckdb"] == old["x.duckdb"], moment
        assert build(NEW_SEED).exit_code == 0
        assert (rows(db, "SELECT * FROM layouts ORDER BY id"),
                rows(db, "SELECT * FROM groups")) == clean, moment

    each_fault(lambda: build(NEW_SEED), moments, monkeypatch, restore, check)


# ----- db export ----------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_export_survives_a_fault_at_every_write_point(
        pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    output = tmp_path / "out" / f"layouts{suffix}"
    output.parent.mkdir()
    output.write_bytes(b"the old export\n")

    def job() -> Result:
        return invoke("db", "export", "-o", str(output), "--db", str(pristine))

    assert job().exit_code == 0
    clean = output.read_bytes()
    moments = moments_of(job, monkeypatch, BEFORE)

    def check(moment: int, number: int, result: Result) -> None:
        assert_one_line_fault(result, KINDS[number], output, pristine)
        assert output.read_bytes() == b"the old export\n", moment
        assert [p.name for p in output.parent.iterdir()] == [output.name], moment
        assert job().exit_code == 0 and output.read_bytes() == clean

    def restore() -> None:
        output.write_bytes(b"the old export\n")

    each_fault(job, moments, monkeypatch, restore, check)


# ----- all ----------------------------------------------------------------------------------
def test_all_survives_a_fault_at_every_write_point(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each file of ``huarong all`` is the old one or the new one, whole, after a fault."""
    folder = tmp_path / "all"

    def job(seed: int) -> Result:
        with monkeypatch.context() as patch:
            use_synthetic_columns(400, seed, patch.setattr, groups=3)
            return invoke("all", "-q", "--dir", str(folder))

    def contents() -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}

    assert job(OLD_SEED).exit_code == 0
    old = contents()
    assert job(NEW_SEED).exit_code == 0
    new = contents()
    assert old.keys() == new.keys() and all(old[name] != new[name] for name in old)
    moments = moments_of(lambda: job(NEW_SEED), monkeypatch, BEFORE)

    def restore() -> None:
        shutil.rmtree(folder)
        folder.mkdir()
        for name, data in old.items():
            (folder / name).write_bytes(data)

    def check(moment: int, number: int, result: Result) -> None:
        assert_one_line_fault(result, KINDS[number], folder)
        now = contents()
        assert now.keys() == old.keys(), moment  # no temporary file
        assert all(now[name] in (old[name], new[name]) for name in now), moment
        assert job(NEW_SEED).exit_code == 0 and contents() == new

    each_fault(lambda: job(NEW_SEED), moments, monkeypatch, restore, check)


# ----- the other faults: one line each ------------------------------------------------------
@pytest.mark.parametrize(("number", "words", "advice"), [
    (errno.EDQUOT, "quota", "choose another place with -o"),
    (errno.EROFS, "read-only", "choose another place with -o"),
    (errno.EACCES, "permission denied", "choose a place you may write with -o"),
    (errno.EIO, "input/output error", "check the disk"),
    (errno.ENOSPC, "the disk is full", f"free some space in {Path.cwd()}"),
])
def test_each_fault_of_a_file_is_one_line_with_what_to_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, number: int, words: str,
        advice: str) -> None:
    monkeypatch.chdir(tmp_path)
    # A first run compiles the kernels and writes numba's cache (temporary files renamed,
    # write points too), so that the fault below meets the output file.
    assert invoke("solve", "1A9BF0C00").exit_code == 0
    with monkeypatch.context() as patch:
        install(WritePoints(1, raising(number), phases=BEFORE), patch.setattr)
        result = invoke("solve", "1A9BF0C00", "-o", "solution.txt")
    assert_one_line_fault(result, words, Path("solution.txt"))
    assert advice.replace(str(Path.cwd()), str(tmp_path)) in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_directory_removed_while_writing_is_one_line(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "gone"
    folder.mkdir()
    output = folder / "solution.txt"

    def vanish(point: str, phase: str) -> None:
        shutil.rmtree(folder)

    with monkeypatch.context() as patch:
        install(WritePoints(1, vanish, phases=BEFORE), patch.setattr)
        result = invoke("solve", "1A9BF0C00", "-o", str(output))
    assert_one_line_fault(result, "directory is missing", output)


def test_a_database_another_program_writes_is_one_line(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """DuckDB refuses a file another process has open for writing; a reader waits a moment
    (a commit of ``db layers`` takes seconds), then says who holds it."""
    from huarong.space import database

    monkeypatch.setattr(database, "READER_PATIENCE", 0.0)
    path = tmp_path / "held.duckdb"
    duckdb.connect(str(path)).close()
    real_connect = duckdb.connect

    def held(*args: Any, **kwargs: Any) -> Any:
        raise duckdb.IOException(f'IO Error: Could not set lock on file "{path}": Conflicting '
                                 "lock is held in /usr/bin/python3 (PID 4242) by user me.")

    monkeypatch.setattr(duckdb, "connect", held)
    result = invoke("db", "info", "1A9BF0C00", "--db", str(path))
    monkeypatch.setattr(duckdb, "connect", real_connect)
    assert_one_line_fault(result, "another program has it open for writing", path)
    assert "4242" in result.stderr


def test_debug_shows_the_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HUARONG_DEBUG", "")
    output = tmp_path / "solution.txt"
    results = []
    for debug in ([], ["--debug"]):
        with monkeypatch.context() as patch:
            install(WritePoints(1, raising(errno.EIO), phases=BEFORE), patch.setattr)
            results.append(invoke(*debug, "solve", "1A9BF0C00", "-o", str(output)))
    quiet, shown = results
    assert "Traceback" not in quiet.stderr
    assert "Traceback" in shown.stderr and shown.stderr.splitlines()[-1].startswith(
        "huarong: error: cannot write")
    assert shown.exit_code == 1


# ----- refused before the long work ---------------------------------------------------------
def must_not_run(*args: object, **kwargs: object) -> None:
    raise AssertionError("the long work started")


def small_disk(free: int) -> Callable[[Any], Any]:
    return lambda path: shutil._ntuple_diskusage(10**12, 10**12 - free, free)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("command", "needed"), [
    (["db", "build", "--force"], "0.9 GB"),
    (["db", "layers", "7-0"], "MB"),
    (["db", "export", "-o", "{tmp}/x.csv"], "MB"),
    (["all", "--dir", "{tmp}/all"], "1.6 GB"),
    (["npuzzle", "pdb", "build", "--size", "3x3"], "MB"),
])
def test_a_disk_too_small_is_refused_at_once(
        pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str],
        needed: str) -> None:
    from huarong import npuzzle
    from huarong.space import all_files, build, layers

    db = tmp_path / "small.duckdb"
    shutil.copy(pristine, db)
    monkeypatch.setenv("HUARONG_DB", str(db))
    monkeypatch.setenv("HUARONG_CACHE_DIR", str(tmp_path / "cache"))
    for module, name in ((build, "layout_columns"), (all_files, "layout_columns"),
                         (layers, "run"), (npuzzle, "compact_pattern_database")):
        monkeypatch.setattr(module, name, must_not_run)
    monkeypatch.setattr(shutil, "disk_usage", small_disk(1000))
    result = invoke(*(part.replace("{tmp}", str(tmp_path)) for part in command))
    assert result.exit_code == 1, result.output
    line = result.stderr.splitlines()[-1]
    assert "free" in line and needed in line and "choose another place" in line, line
    assert rows(db, FIGURES) == rows(pristine, FIGURES)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.duckdb"]


def test_messages_say_how_much_to_free() -> None:
    error = fileio.NotEnoughSpace(Path("/data"), 2_500_000_000, 1_000_000_000)
    line = _common.describe_fault(error, "/data/huarong.duckdb", "--db")
    assert line == ("cannot write /data/huarong.duckdb: it needs about 2.5 GB but only "
                    "1.0 GB are free in /data; free 1.5 GB there or choose another place "
                    "with --db")


# ----- npuzzle pdb build --------------------------------------------------------------------
def test_pdb_build_survives_a_fault_at_every_write_point(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 3 x 3 compact databases (two files): a cache that could not be stored is one line
    and exit 1 (solving would rebuild it; ``pdb build`` is asked for the cache)."""
    from huarong.npuzzle import patterns

    cache = tmp_path / "cache"
    monkeypatch.setenv("HUARONG_CACHE_DIR", str(cache))

    def job() -> Result:
        monkeypatch.setattr(patterns, "_loaded_compact", {})  # built again, not remembered
        return invoke("npuzzle", "pdb", "build", "--size", "3x3", "-q")

    assert job().exit_code == 0
    clean = {p.name: p.read_bytes() for p in (cache / "npuzzle").iterdir()}
    assert len(clean) == 2
    moments = moments_of(job, monkeypatch, BEFORE)

    def check(moment: int, number: int, result: Result) -> None:
        assert_one_line_fault(result, "could not be stored", *(cache / "npuzzle").iterdir(),
                              *(cache / "npuzzle" / name for name in clean))
        assert all(p.name in clean and p.read_bytes() == clean[p.name]
                   for p in (cache / "npuzzle").iterdir()), moment
        assert job().exit_code == 0
        assert {p.name: p.read_bytes() for p in (cache / "npuzzle").iterdir()} == clean

    each_fault(job, moments, monkeypatch, lambda: shutil.rmtree(cache, ignore_errors=True),
               check)
