"""One writer per database: a second writer is refused in one line naming the first (pid and
command), or waits with ``--wait``; a lock left by a killed writer is taken over; readers are
never blocked.  The writers are child processes stopped at a write point (a pipe says when
they are there and lets them go on): no sleeps."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import Result

from huarong import fileio

from .write_points import (
    COLUMNS_SEED_VARIABLE,
    FIGURES,
    child,
    invoke,
    pristine_database,
    rows,
    synthetic_columns,
)

SYNTHETIC = (2000, 5)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return pristine_database(tmp_path_factory)


@pytest.fixture(scope="module")
def clean(pristine: Path, tmp_path_factory: pytest.TempPathFactory) -> list[tuple[object, ...]]:
    """The figures of a clean run of :func:`layers_args`."""
    db = tmp_path_factory.mktemp("clean") / "small.duckdb"
    shutil.copy(pristine, db)
    assert invoke(*layers_args(db)).exit_code == 0
    return rows(db, FIGURES)


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    path = tmp_path / "small.duckdb"
    shutil.copy(pristine, path)
    return path


@contextmanager
def stopped(plan: str, *args: str) -> Iterator[subprocess.Popen[str]]:
    """``huarong ARGS`` in a child stopped as ``plan`` says (``pause:POINT``): yields once it
    is there; leaving the block lets it go on (or finds it killed)."""
    environment = {**os.environ, COLUMNS_SEED_VARIABLE: "{}:{}".format(*SYNTHETIC)}
    process = subprocess.Popen(child(plan, *args), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=environment, cwd=Path(__file__).parents[1])
    assert process.stdout is not None and process.stdin is not None
    try:
        assert process.stdout.readline() == "paused\n", process.communicate()[1]
        yield process
    finally:
        if process.poll() is None:
            process.stdin.write("go on\n")
        process.communicate(timeout=300)


def layers_args(db: Path) -> list[str]:
    return ["db", "layers", "7-0-5", "--threads", "1", "--db", str(db)]


def build_args(db: Path) -> list[str]:
    return ["db", "build", "-q", "--force", "--db", str(db)]


def assert_refused_naming(result: Result, holder: subprocess.Popen[str], command: str) -> None:
    line = result.stderr.splitlines()[-1]
    assert result.exit_code == 1 and result.stderr.count("huarong: error:") == 1, result.output
    assert f"pid {holder.pid}: " in line and command in line and "--wait" in line, line


def test_layers_running_refuses_a_build_and_finishes(db: Path, clean: list[object]) -> None:
    with stopped("pause:parquet", *layers_args(db)) as holder:
        assert (db.parent / "small.duckdb.lock").is_file()
        assert_refused_naming(invoke(*build_args(db)), holder, "db layers 7-0-5")
        # Readers are not blocked while the writer works.
        info = invoke("db", "info", "1A9BF0C00", "--db", str(db))
        assert info.exit_code == 2 and "missing from the database" in info.stderr
        assert invoke("db", "query", "SELECT count(*) FROM layouts", "--db",
                      str(db)).stdout.split() == ["count_star()", "3508"]
    assert holder.returncode == 0, holder.stderr
    assert rows(db, FIGURES) == clean
    assert not (db.parent / "small.duckdb.lock").exists()


def test_build_running_refuses_layers_and_finishes(db: Path) -> None:
    with stopped("pause:rename", *build_args(db)) as holder:
        assert_refused_naming(invoke(*layers_args(db)), holder, "db build")
        assert rows(db, "SELECT count(*) FROM layouts") == [(3508,)]  # the old one, readable
    assert holder.returncode == 0, holder.stderr
    codes = synthetic_columns(*SYNTHETIC)["code"].tolist()
    assert [code for (code,) in rows(db, "SELECT code FROM layouts ORDER BY id")] == codes
    assert sorted(p.name for p in db.parent.iterdir()) == [
        "small.duckdb", "small.duckdb.figures", "small.duckdb.minsteps"]


def test_a_second_writer_waits_with_wait(db: Path, clean: list[object]) -> None:
    """The waiting writer says it waits (the handshake), and runs once the first is done;
    its classes were committed by the first, so it has nothing left to do."""
    with stopped("pause:parquet", *layers_args(db)) as holder:
        waiter = subprocess.Popen([sys.executable, "-m", "huarong", *layers_args(db), "--wait"],
                                  stderr=subprocess.PIPE, text=True)
        assert waiter.stderr is not None
        line = waiter.stderr.readline()
        assert "waiting for the other writer" in line and f"pid {holder.pid}:" in line, line
    assert holder.returncode == 0
    _, rest = waiter.communicate(timeout=300)
    assert waiter.returncode == 0 and "already" in rest, rest
    assert rows(db, FIGURES) == clean


def test_a_lock_left_by_a_killed_writer_is_taken_over(db: Path, clean: list[object]) -> None:
    with stopped("pause:parquet", *layers_args(db)) as holder:
        holder.send_signal(signal.SIGKILL)
        assert holder.wait() == -signal.SIGKILL
    lock = db.parent / "small.duckdb.lock"
    assert lock.is_file()  # the kernel's lock went with the process; the file stays
    result = invoke(*layers_args(db))
    assert result.exit_code == 0, result.output
    assert f"took over the lock {lock} left by a process that is gone (pid {holder.pid}:" \
        in result.stderr
    assert rows(db, FIGURES) == clean and not lock.exists()


# ----- the lock itself ----------------------------------------------------------------------
def test_the_lock_names_its_holder_and_goes_on_every_exit(tmp_path: Path) -> None:
    target = tmp_path / "x.duckdb"
    with fileio.writer_lock(target, "huarong db build"):
        record = fileio.lock_path(target).read_text()
        assert f'"pid": {os.getpid()}' in record and "huarong db build" in record
        with fileio.writer_lock(target):  # nested in one process
            pass
        assert fileio.lock_path(target).exists()
    assert not fileio.lock_path(target).exists()
    with pytest.raises(RuntimeError), fileio.writer_lock(target):
        raise RuntimeError
    assert list(tmp_path.iterdir()) == []


def test_a_held_lock_is_refused_to_another_process(tmp_path: Path) -> None:
    target = tmp_path / "x.duckdb"
    probe = ("import sys; from huarong import fileio\n"
             "try:\n    with fileio.writer_lock(sys.argv[1]): print('took it')\n"
             "except fileio.Busy as busy: print(busy.holder['command'], busy.lock)")
    with fileio.writer_lock(target, "the holder"):
        held = subprocess.run([sys.executable, "-c", probe, str(target)], capture_output=True,
                              text=True, check=True)
    free = subprocess.run([sys.executable, "-c", probe, str(target)], capture_output=True,
                          text=True, check=True)
    assert held.stdout == f"the holder {fileio.lock_path(target)}\n"
    assert free.stdout == "took it\n"


def test_a_reader_keeps_answering_while_a_build_replaces_the_file(db: Path) -> None:
    """What ``serve`` does: a connection opened before ``db build --force`` answers from the
    old file throughout; one opened after sees the new file."""
    from huarong.space.database import Database

    with Database.open(db) as before:
        with stopped("pause:rename", *build_args(db)):
            assert before.query("SELECT count(*) FROM layouts").rows == [(3508,)]
        assert before.query("SELECT count(*) FROM layouts").rows == [(3508,)]
    with Database.open(db) as after:
        assert after.query("SELECT count(*) FROM layouts").rows == [(SYNTHETIC[0],)]
