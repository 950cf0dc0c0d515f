"""Issue 21 §4: ``db query`` and ``db export`` print no progress bar of DuckDB's, and ``db
build`` treats its output as every other output (huarong.fileio): a symbolic link is followed
and stays a link, what is not a regular file is refused in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from huarong.cli import main
from huarong.space import build, database, figures, table
from huarong.space.database import Database

BAR_SETTING = "SELECT current_setting('enable_progress_bar') AS bar"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def in_a_terminal(*args: str) -> str:
    """What ``python ARGS`` prints with its standard output on a terminal: DuckDB draws its
    bar only there."""
    import pty

    leader, follower = pty.openpty()
    try:
        finished = subprocess.run([sys.executable, *args], stdout=follower,
                                  stderr=subprocess.PIPE, check=True)
        os.close(follower)
        follower = -1
        printed = bytearray()
        while True:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # Linux: the terminal is closed once everything is read
                break
            if not chunk:
                break
            printed += chunk
    finally:
        os.close(leader)
        if follower >= 0:
            os.close(follower)
    assert finished.returncode == 0
    return printed.decode()


def test_duckdb_draws_its_bar_in_a_terminal() -> None:
    # What the readers below switch off: DuckDB's default on a terminal.
    printed = in_a_terminal("-c", "import duckdb\n"
                                  f"print(duckdb.connect().execute({BAR_SETTING!r}).fetchall())")
    assert printed.split() == ["[(True,)]"]


def test_every_reader_of_the_database_is_quiet(standard_database: Path) -> None:
    # db export runs COPY on the connection itself, db query streams on a cursor of it (a
    # cursor starts without the bar in DuckDB 2.0; the connection drew it over long exports)
    printed = in_a_terminal("-c", "from huarong.space.database import Database\n"
                                  f"opened = Database.open({str(standard_database)!r})\n"
                                  f"print(opened.query({BAR_SETTING!r}).rows)\n"
                                  f"print(opened.stream({BAR_SETTING!r}).batches.__next__()"
                                  ".column(0).to_pylist())")
    assert printed.split() == ["[(False,)]", "[False]"]


def _two_layouts(progress: Any = None, min_steps: bool = True) -> dict[str, np.ndarray]:
    """Stands in for the computation of every layout: two rows in the real columns."""
    columns: dict[str, np.ndarray] = {name: np.zeros(2, dtype=np.int32)
                                      for name in database.LAYOUT_COLUMNS}
    columns["id"] = np.arange(2, dtype=np.int32)
    columns["code"] = np.array([0x1A9BF0C00, 0x4FEA13400], dtype=np.int64)
    columns["symmetric"] = np.zeros(2, dtype=bool)
    columns.update(groups_first_id=np.array([0, 1]), groups_size=np.array([1, 1]),
                   groups_num=np.array([0, 1]), groups_has_solution=np.array([True, True]))
    return columns


@pytest.fixture
def cheap_build(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """``db build`` without its hour of work; the tables it writes are listed."""
    written: list[Path] = []
    monkeypatch.setattr(build, "layout_columns", _two_layouts)
    monkeypatch.setattr(build, "check_free_space", lambda path, needed: None)
    monkeypatch.setattr(table, "write_table",
                        lambda path, min_steps: written.append(Path(path)) or Path(path))
    monkeypatch.setattr(figures, "write_figures", lambda path, opened, progress=None:
                        written.append(Path(path)) or Path(path))
    return written


@pytest.mark.parametrize("existing", [False, True])
def test_build_through_a_link_replaces_the_file_it_names(
        tmp_path: Path, cheap_build: list[Path], existing: bool) -> None:
    real = tmp_path / "disk" / "huarong.duckdb"
    real.parent.mkdir()
    if existing:
        real.write_bytes(b"an old database")
    link = tmp_path / "huarong.duckdb"
    link.symlink_to(real)
    code, _, err = run("db", "build", "-q", "--force", "--db", str(link))
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    with Database.open(link) as built:
        assert built.query("SELECT hex FROM layouts ORDER BY id").rows == [
            ("1A9BF0C00",), ("4FEA13400",)]
    assert cheap_build == [table.table_path(real), figures.figures_path(real)]
    assert sorted(path.name for path in real.parent.iterdir()) == ["huarong.duckdb"]


def test_build_onto_a_fifo_is_refused_in_one_line(tmp_path: Path, cheap_build: list[Path]
                                                  ) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, out, err = run("db", "build", "-q", "--db", str(fifo))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and str(fifo) in err and "not a regular file" in err
    assert cheap_build == [] and sorted(tmp_path.iterdir()) == [fifo]


def test_build_onto_a_directory_is_refused_in_one_line(tmp_path: Path,
                                                       cheap_build: list[Path]) -> None:
    code, _, err = run("db", "build", "-q", "--force", "--db", str(tmp_path))
    assert code == 2
    assert err.count("\n") == 1 and "is a directory" in err
    assert list(tmp_path.iterdir()) == []
