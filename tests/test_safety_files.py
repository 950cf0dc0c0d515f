"""Output files, locks and signals: what is not a regular file is never replaced, a bad output
directory fails before any work, temporary files go away on every exit path (SIGTERM and
Ctrl-C included), and a second build of one database is refused."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from huarong import fileio
from huarong.cli import main
from huarong.space import all_files, build


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


# ----- the atomic writer ------------------------------------------------------------------
def test_a_symlink_stays_a_link_and_its_target_is_replaced(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    fileio.write_text_atomically(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "made.txt")
    fileio.write_text_atomically(link, "x\n")
    assert link.is_symlink() and (tmp_path / "made.txt").read_text() == "x\n"


def read_fifo(path: Path, into: list[bytes]) -> threading.Thread:
    def reader() -> None:
        with path.open("rb") as stream:
            into.append(stream.read())

    thread = threading.Thread(target=reader)
    thread.start()
    return thread


def test_a_fifo_is_written_directly_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    thread = read_fifo(fifo, received)
    fileio.write_text_atomically(fifo, "through the pipe\n")
    thread.join(10)
    assert received == [b"through the pipe\n"]
    assert fifo.is_fifo() and [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError):
        fileio.write_text_atomically(tmp_path, "x")


# ----- -o on the command line -------------------------------------------------------------
def test_dash_writes_stdout() -> None:
    code, out, _ = run("solve", "1A9BF0C00", "-c", "-o", "-")
    assert code == 0 and out.startswith("1A9BF0C00: minimum 81 steps")
    assert not Path("-").exists()


def test_percent_means_code_dot_txt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, _ = run("--cal", "1a9bf0c", "%")
    assert code == 0
    assert (tmp_path / "1A9BF0C00.txt").read_text().startswith("1A9BF0C00: minimum 81 steps")


def test_solve_into_a_fifo_through_the_cli(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    thread = read_fifo(fifo, received)
    code, _, _ = run("solve", "1A9BF0C00", "-c", "-o", str(fifo))
    thread.join(10)
    assert code == 0 and received[0].startswith(b"1A9BF0C00: minimum 81 steps")
    assert fifo.is_fifo()


def test_missing_output_directory_fails_before_any_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from huarong.engine import solver

    def must_not_run(*args: object) -> None:
        raise AssertionError("solved before checking the output")

    monkeypatch.setattr(solver, "solve", must_not_run)
    blocker = tmp_path / "file"
    blocker.write_text("")
    for output in (tmp_path / "missing" / "x.txt", blocker / "x.txt", tmp_path):
        code, _, err = run("solve", "1A9BF0C00", "-o", str(output))
        assert code == 2 and err.count("\n") == 1 and str(output) in err


# ----- db build: lock, target checks, signals -----------------------------------------------
def must_not_compute(*args: object, **kwargs: object) -> None:
    raise AssertionError("the build started")


def test_second_build_is_refused_naming_the_lock(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import fcntl

    monkeypatch.setattr(build, "layout_columns", must_not_compute)
    target = tmp_path / "x.duckdb"
    lock = tmp_path / "x.duckdb.lock"
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        code, _, err = run("db", "build", "--db", str(target))
    assert code == 1 and err.count("\n") == 1
    assert "another process" in err and str(lock) in err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_unwritable_target_is_reported_before_building(monkeypatch: pytest.MonkeyPatch) -> None:
    # /proc refuses new files even to root, so this holds whoever runs the tests.
    monkeypatch.setattr(build, "layout_columns", must_not_compute)
    code, _, err = run("db", "build", "--db", "/proc/huarong.duckdb")
    assert code == 1 and err.count("\n") == 1 and "/proc/huarong.duckdb" in err


_SLOW_BUILD = """
import signal, sys, time
from huarong.space import build
from huarong.cli import main

# A shell starts background jobs with Ctrl-C ignored, and children inherit that: act as if
# run from a terminal whoever started the tests.
signal.signal(signal.SIGINT, signal.default_int_handler)

def slow(*args, **kwargs):
    print("computing", flush=True)
    time.sleep(60)

build.layout_columns = slow
main(["db", "build", "-q", "--db", sys.argv[1]])
"""


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signalled_build_leaves_nothing_behind(tmp_path: Path, signum: int,
                                                 status: int) -> None:
    folder = tmp_path / "db"
    folder.mkdir()
    child = subprocess.Popen([sys.executable, "-c", _SLOW_BUILD, str(folder / "x.duckdb")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline() == "computing\n"
    names = [p.name for p in folder.iterdir()]
    assert "x.duckdb.lock" in names and any(n.startswith(".x.duckdb.") for n in names)
    started = time.monotonic()
    child.send_signal(signum)
    _, err = child.communicate(timeout=30)
    assert child.returncode == status, err
    assert time.monotonic() - started < 5
    assert list(folder.iterdir()) == []
    assert "Traceback" not in err and len(err.split()) == 2  # "huarong: terminated"


# ----- all / all-code: where, how much, --dir ----------------------------------------------
def test_all_says_where_and_how_much_first(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[Path] = []

    def fake_write_all_files(directory: Path, progress: object,
                             file_format: str = "huarong") -> list[Path]:
        written.append(Path(directory))
        return [Path(directory) / "All_Case.txt", Path(directory) / "main.csv"]

    monkeypatch.setattr(all_files, "write_all_files", fake_write_all_files)
    target = tmp_path / "new" / "place"
    code, _, err = run("all", "--dir", str(target))
    assert code == 0 and written == [target] and target.is_dir()
    assert err.splitlines()[0] == (f"huarong: writing All_Case.txt, main.csv and 203 class "
                                   f"files to {target} (about 1.6 GB)")


def test_all_code_refuses_a_disk_too_small_before_any_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from huarong.space import cases

    monkeypatch.setattr(cases, "all_codes", must_not_compute)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(  # type: ignore[attr-defined]
        10**10, 10**10 - 10**6, 10**6))
    code, _, err = run("all-code", "codes.txt", "--dir", str(tmp_path))
    assert code == 1 and err.count("\n") == 1 and "0.3 GB" in err and "--dir" in err
    assert list(tmp_path.iterdir()) == []
