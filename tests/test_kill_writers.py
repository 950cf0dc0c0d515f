"""``kill -9`` at random moments of every writer: a child runs the command and sends itself
SIGKILL just before or just after one of its write points (a DuckDB connection or statement,
a Parquet file, a temporary file or folder, a write, a rename), the moment drawn with a fixed
seed from those a clean run passes.  Afterwards the old file or the new one is there whole,
never a mix; a rerun removes what the killed run left (and says so) and ends equal to a clean
run, with no temporary file or lock left."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner, Result

from huarong.cli import main

from .write_points import (
    COLUMNS_SEED_VARIABLE,
    WritePoints,
    child,
    install,
    pristine_database,
    use_synthetic_columns,
)

SEED = 26
FIGURES = "SELECT id, farthest_steps, farthest_count, solution_count FROM layouts ORDER BY id"
OLD, NEW = 1, 2
LAYOUTS = 2000


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    connection = duckdb.connect(str(path), read_only=True)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith((".tmp", ".lock"))]


def moments_of(job: Callable[[], Result], monkeypatch: pytest.MonkeyPatch) -> int:
    points = WritePoints()
    with monkeypatch.context() as patch:
        install(points, patch.setattr)
        assert job().exit_code == 0
    return len(points.moments)


def kill_at(moment: int, args: list[str], synthetic_seed: int | None = None) -> None:
    """Run ``huarong ARGS`` in a child killed (SIGKILL) at ``moment``."""
    environment = dict(os.environ)
    if synthetic_seed is not None:
        environment[COLUMNS_SEED_VARIABLE] = f"{LAYOUTS}:{synthetic_seed}"
    done = subprocess.run(child(f"kill:{moment}", *args), env=environment,
                          cwd=Path(__file__).parents[1], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == -signal.SIGKILL, (moment, done.stderr)


def rerun_cleans_up(result: Result, left: list[Path]) -> None:
    """The rerun succeeded, removed each temporary file the killed run left and said so."""
    assert result.exit_code == 0, result.output
    for path in left:
        if path.name.endswith(".tmp") and path.parent.exists():
            assert not path.exists() and f"removed {path}" in result.stderr, result.stderr


def moments_drawn(count: int, total: int, rng: random.Random) -> list[int]:
    return sorted(rng.sample(range(1, total + 1), min(count, total)))


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return pristine_database(tmp_path_factory)


def test_layers_killed_anywhere(pristine: Path, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``db layers 7-0``: seven classes, each a unit checkpointed and a commit; every class
    is afterwards all NULL or all computed, and the rerun completes them."""
    db = tmp_path / "db" / "small.duckdb"
    db.parent.mkdir()
    args = ["db", "layers", "7-0", "--threads", "1", "--db", str(db)]
    shutil.copy(pristine, db)
    old = rows(db, FIGURES)
    assert invoke(*args).exit_code == 0
    clean = rows(db, FIGURES)
    styles = dict(rows(db, "SELECT id, style FROM layouts"))
    shutil.copy(pristine, db)
    total = moments_of(lambda: invoke(*args), monkeypatch)
    for moment in moments_drawn(10, total, random.Random(SEED)):
        shutil.rmtree(db.parent)
        db.parent.mkdir()
        shutil.copy(pristine, db)
        kill_at(moment, args)
        now = rows(db, FIGURES)
        for style in set(styles.values()):  # each class whole or untouched
            ids = [i for i, (row_id, *_) in enumerate(clean) if styles[row_id] == style]
            assert [now[i] for i in ids] in ([old[i] for i in ids], [clean[i] for i in ids])
        left = leftovers(db.parent)
        rerun = invoke(*args)
        rerun_cleans_up(rerun, left)
        assert rows(db, FIGURES) == clean, moment
        assert not leftovers(db.parent), moment


def test_build_killed_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``db build --force`` over an old database (synthetic columns): the old file whole or
    the new one whole."""
    db = tmp_path / "db" / "x.duckdb"
    args = ["db", "build", "-q", "--force", "--db", str(db)]

    def build(seed: int) -> Result:
        with monkeypatch.context() as patch:
            use_synthetic_columns(LAYOUTS, seed, patch.setattr)
            return invoke(*args)

    def everything() -> tuple[list[tuple[object, ...]], ...]:
        return rows(db, "SELECT * FROM layouts ORDER BY id"), rows(db, "SELECT * FROM groups")

    assert build(OLD).exit_code == 0
    old_files = {p.name: p.read_bytes() for p in db.parent.iterdir()}
    old = everything()
    assert build(NEW).exit_code == 0
    new = everything()
    total = moments_of(lambda: build(NEW), monkeypatch)
    for moment in moments_drawn(8, total, random.Random(SEED)):
        for name, data in old_files.items():
            (db.parent / name).write_bytes(data)
        kill_at(moment, args, NEW)
        assert everything() in (old, new), moment
        left = leftovers(db.parent)
        rerun_cleans_up(build(NEW), left)
        assert everything() == new and not leftovers(db.parent), moment


def test_export_killed_anywhere(pristine: Path, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    output = tmp_path / "out" / "layouts.parquet"
    output.parent.mkdir()
    args = ["db", "export", "-o", str(output), "--db", str(pristine)]
    assert invoke(*args).exit_code == 0
    new = output.read_bytes()
    total = moments_of(lambda: invoke(*args), monkeypatch)
    for moment in moments_drawn(4, total, random.Random(SEED)):
        output.write_bytes(b"old")
        kill_at(moment, args)
        assert output.read_bytes() in (b"old", new), moment
        left = leftovers(output.parent)
        rerun_cleans_up(invoke(*args), left)
        assert output.read_bytes() == new
        assert [p.name for p in output.parent.iterdir()] == [output.name]


def test_all_killed_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "all"
    args = ["all", "-q", "--dir", str(folder)]

    def run(seed: int) -> Result:
        with monkeypatch.context() as patch:
            use_synthetic_columns(LAYOUTS, seed, patch.setattr)
            return invoke(*args)

    def contents() -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}

    assert run(OLD).exit_code == 0
    old = contents()
    assert run(NEW).exit_code == 0
    new = contents()
    total = moments_of(lambda: run(NEW), monkeypatch)
    for moment in moments_drawn(4, total, random.Random(SEED)):
        shutil.rmtree(folder)
        folder.mkdir()
        for name, data in old.items():
            (folder / name).write_bytes(data)
        kill_at(moment, args, NEW)
        left = leftovers(folder)
        now = {name: data for name, data in contents().items() if name in old}
        assert all(data in (old[name], new[name]) for name, data in now.items()), moment
        rerun_cleans_up(run(NEW), left)
        assert contents() == new, moment
