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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import Result

from .write_points import (
    COLUMNS_SEED_VARIABLE,
    FIGURES,
    child,
    invoke,
    leftovers,
    moments_of,
    pristine_database,
    rows,
    use_synthetic_columns,
)

SEED = 26
OLD, NEW = 1, 2
LAYOUTS = 2000


def kill_at(moment: int, args: list[str], synthetic_seed: int | None = None) -> None:
    """Run ``huarong ARGS`` in a child killed (SIGKILL) at ``moment``."""
    environment = dict(os.environ)
    if synthetic_seed is not None:
        environment[COLUMNS_SEED_VARIABLE] = f"{LAYOUTS}:{synthetic_seed}"
    done = subprocess.run(child(f"kill:{moment}", *args), env=environment,
                          cwd=Path(__file__).parents[1], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == -signal.SIGKILL, (moment, done.stderr)


def kill_each(trials: list[tuple[int, list[str], int | None]]) -> None:
    """:func:`kill_at` for every trial, two children at a time (each trial has its own
    files; the children mostly wait for the loaded machine)."""
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda trial: kill_at(*trial), trials))


def rerun_cleans_up(result: Result, left: list[Path]) -> None:
    """The rerun succeeded, removed each temporary file the killed run left and said so."""
    assert result.exit_code == 0, result.output
    for path in left:
        if path.name.endswith(".tmp") and path.parent.exists():
            assert not path.exists() and f"removed {path}" in result.stderr, result.stderr


def moments_drawn(count: int, total: int) -> list[int]:
    return sorted(random.Random(SEED).sample(range(1, total + 1), min(count, total)))


TRIALS = [pytest.param(1), pytest.param(4, marks=pytest.mark.slow)]
"""How many times the default trials of each writer: more in the slow run."""


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return pristine_database(tmp_path_factory)


@pytest.mark.parametrize("scale", TRIALS)
def test_layers_killed_anywhere(pristine: Path, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch, scale: int) -> None:
    """``db layers`` of two classes, each a unit checkpointed and a commit: every class is
    afterwards all NULL or all computed, and the rerun completes them."""
    def database(moment: int) -> Path:
        return tmp_path / str(moment) / "small.duckdb"

    def args(db: Path) -> list[str]:
        return ["db", "layers", "7-0-3", "7-0-5", "--threads", "1", "--db", str(db)]

    def fresh(db: Path) -> Path:
        db.parent.mkdir(exist_ok=True)
        shutil.copy(pristine, db)
        return db

    db = fresh(database(0))
    old = rows(db, FIGURES)
    assert invoke(*args(db)).exit_code == 0
    clean = rows(db, FIGURES)
    styles = dict(rows(db, "SELECT id, style FROM layouts"))
    total = moments_of(lambda: invoke(*args(fresh(db))), monkeypatch)
    moments = moments_drawn(4 * scale, total)
    kill_each([(moment, args(fresh(database(moment))), None) for moment in moments])
    for moment in moments:
        db = database(moment)
        now = rows(db, FIGURES)
        for style in set(styles.values()):  # each class whole or untouched
            ids = [i for i, (row_id, *_) in enumerate(clean) if styles[row_id] == style]
            assert [now[i] for i in ids] in ([old[i] for i in ids], [clean[i] for i in ids])
        left = leftovers(db.parent)
        rerun_cleans_up(invoke(*args(db)), left)
        assert rows(db, FIGURES) == clean, moment
        assert not leftovers(db.parent), moment


@pytest.mark.parametrize("scale", TRIALS)
def test_build_killed_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               scale: int) -> None:
    """``db build --force`` over an old database (synthetic columns): the old file whole or
    the new one whole."""
    def database(moment: int) -> Path:
        return tmp_path / str(moment) / "x.duckdb"

    def args(db: Path) -> list[str]:
        return ["db", "build", "-q", "--force", "--db", str(db)]

    def build(db: Path, seed: int) -> Result:
        with monkeypatch.context() as patch:
            use_synthetic_columns(LAYOUTS, seed, patch.setattr)
            return invoke(*args(db))

    def everything(db: Path) -> tuple[list[tuple[object, ...]], ...]:
        return rows(db, "SELECT * FROM layouts ORDER BY id"), rows(db, "SELECT * FROM groups")

    db = database(0)
    assert build(db, OLD).exit_code == 0
    old_files = {p.name: p.read_bytes() for p in db.parent.iterdir()}
    old = everything(db)
    assert build(db, NEW).exit_code == 0
    new = everything(db)
    total = moments_of(lambda: build(db, NEW), monkeypatch)
    moments = moments_drawn(5 * scale, total)
    for moment in moments:
        database(moment).parent.mkdir()
        for name, data in old_files.items():
            (database(moment).parent / name).write_bytes(data)
    kill_each([(moment, args(database(moment)), NEW) for moment in moments])
    for moment in moments:
        db = database(moment)
        assert everything(db) in (old, new), moment
        left = leftovers(db.parent)
        rerun_cleans_up(build(db, NEW), left)
        assert everything(db) == new and not leftovers(db.parent), moment


@pytest.mark.parametrize("scale", TRIALS)
def test_export_killed_anywhere(pristine: Path, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch, scale: int) -> None:
    def output(moment: int) -> Path:
        return tmp_path / str(moment) / "layouts.parquet"

    def args(target: Path) -> list[str]:
        return ["db", "export", "-o", str(target), "--db", str(pristine)]

    output(0).parent.mkdir()
    assert invoke(*args(output(0))).exit_code == 0
    new = output(0).read_bytes()
    total = moments_of(lambda: invoke(*args(output(0))), monkeypatch)
    moments = moments_drawn(4 * scale, total)
    for moment in moments:
        output(moment).parent.mkdir()
        output(moment).write_bytes(b"old")
    kill_each([(moment, args(output(moment)), None) for moment in moments])
    for moment in moments:
        target = output(moment)
        assert target.read_bytes() in (b"old", new), moment
        left = leftovers(target.parent)
        rerun_cleans_up(invoke(*args(target)), left)
        assert target.read_bytes() == new
        assert [p.name for p in target.parent.iterdir()] == [target.name]


@pytest.mark.parametrize("scale", TRIALS)
def test_all_killed_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             scale: int) -> None:
    def folder(moment: int) -> Path:
        return tmp_path / str(moment)

    def args(place: Path) -> list[str]:
        return ["all", "-q", "--dir", str(place)]

    def run(place: Path, seed: int) -> Result:
        with monkeypatch.context() as patch:
            use_synthetic_columns(LAYOUTS, seed, patch.setattr)
            return invoke(*args(place))

    def contents(place: Path) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(place.iterdir())}

    assert run(folder(0), OLD).exit_code == 0
    old = contents(folder(0))
    assert run(folder(0), NEW).exit_code == 0
    new = contents(folder(0))
    total = moments_of(lambda: run(folder(0), NEW), monkeypatch)
    moments = moments_drawn(4 * scale, total)
    for moment in moments:
        folder(moment).mkdir()
        for name, data in old.items():
            (folder(moment) / name).write_bytes(data)
    kill_each([(moment, args(folder(moment)), NEW) for moment in moments])
    for moment in moments:
        place = folder(moment)
        left = leftovers(place)
        now = {name: data for name, data in contents(place).items() if name in old}
        assert all(data in (old[name], new[name]) for name, data in now.items()), moment
        rerun_cleans_up(run(place, NEW), left)
        assert contents(place) == new, moment


def test_only_the_temporary_files_of_dead_processes_are_removed(tmp_path: Path) -> None:
    from huarong import fileio

    dead = tmp_path / ".x.txt.999999999.k2j_a.tmp"  # above any pid Linux gives
    dead.write_text("left by a killed run")
    dead_folder = tmp_path / ".x.txt.999999998.zz.tmp"
    (dead_folder / "inside").mkdir(parents=True)
    live = tmp_path / f".x.txt.{os.getpid()}.abc.tmp"
    live.write_text("being written")
    other = tmp_path / ".y.txt.999999999.k2j_a.tmp"
    other.write_text("another target's")
    notices: list[str] = []
    fileio.notice_listeners.append(notices.append)
    try:
        fileio.write_text_atomically(tmp_path / "x.txt", "new\n")
    finally:
        fileio.notice_listeners.remove(notices.append)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [live.name, other.name, "x.txt"])
    assert sorted(notices) == [
        f"removed {dead_folder}, left by an interrupted run (process 999999998 is gone)",
        f"removed {dead}, left by an interrupted run (process 999999999 is gone)"]
