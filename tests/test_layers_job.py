"""``huarong db layers``: plan, resume after an interruption or kill -9, one transaction per
class, a Dask cluster.

A small database holding only the classes 7-0-* (3,508 layouts, 382 groups; built from
``huarong.space.cases`` in seconds, with the schema of the real one) stands in for the whole one.
Expected figures come from :func:`huarong.space.layers.group_figures`, which the kernel tests
check against a per-layout reference search."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pytest
from click.testing import CliRunner

from huarong.cli import main
from huarong.space import cases, layers
from huarong.space.layers import runner as layer_run

from .small_database import class_database

pytestmark = pytest.mark.big_memory

CLASS = (7, 0)
LAYOUTS = 3_508


@pytest.fixture(scope="module")
def expected() -> dict[int, tuple[int, int, int]]:
    """id -> (farthest_steps, farthest_count, solution_count) of every layout of 7-0."""
    codes = cases.all_codes()
    cls = cases.classes()
    groups = cases.label_groups()
    ids = np.flatnonzero((cls.jiang == CLASS[0]) & (cls.bing == CLASS[1]))
    figures: dict[int, tuple[int, int, int]] = {}
    for group in np.unique(groups.group[ids]).tolist():
        group_codes, group_figures = layers.group_figures(
            int(codes[groups.first_ids[group]]), threads=1)
        for layout_id, row in zip(cases.layout_ids(group_codes).tolist(),
                                  group_figures.T.tolist(), strict=True):
            figures[layout_id] = (row[0], row[1], row[4])
    assert len(figures) == LAYOUTS
    return figures


@pytest.fixture
def small_db(tmp_path: Path) -> Path:
    return class_database(tmp_path / "small.duckdb", CLASS)


def _stored(path: Path) -> dict[int, tuple[int | None, int | None, int | None]]:
    connection = duckdb.connect(str(path), read_only=True)
    try:
        rows = connection.execute("SELECT id, farthest_steps, farthest_count, solution_count "
                                  "FROM layouts").fetchall()
    finally:
        connection.close()
    return {row[0]: row[1:] for row in rows}


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_layers_fills_the_classes(small_db: Path,
                                  expected: dict[int, tuple[int, int, int]]) -> None:
    code, _, err = _run("db", "layers", "7-0", "--threads", "2", "--db", str(small_db))
    assert code == 0, err
    assert _stored(small_db) == expected
    assert "3,508/3,508 layouts" in err and "pairs/s" in err
    assert not any(layers.checkpoint_directory(small_db).rglob("*.parquet"))
    code, _, err = _run("db", "layers", "7-0", "--db", str(small_db))
    assert code == 0 and "already" in err


def test_plan_counts_groups_layouts_and_pairs(small_db: Path) -> None:
    code, out, _ = _run("db", "layers", "7-0-3", "7-0-5", "--plan", "--db", str(small_db))
    assert code == 0
    lines = out.splitlines()
    total = next(line for line in lines if line.startswith("total")).split()
    # 7-0-3: 84 groups, 1,036 layouts; 7-0-5: 40 groups, 626 layouts (SELECTed directly).
    assert total[1:3] == ["124", "1,662"]
    assert "estimated time" in lines[-1]
    assert _stored(small_db)[int(np.flatnonzero(cases.classes().jiang == 7)[0])] == (
        None, None, None)


def test_gpu_plan_says_where_its_rates_come_from(small_db: Path) -> None:
    """Planned without a GPU (the rates are measured figures, not measured now)."""
    code, out, err = _run("db", "layers", "7-0-3", "--plan", "--gpu", "--db", str(small_db))
    assert code == 0, err
    estimate, source = out.splitlines()[-2:]
    assert estimate.startswith("estimated time on the GPU: ")
    assert source.startswith("the rates were measured on an NVIDIA ")


def _count_computed(monkeypatch: pytest.MonkeyPatch) -> list[layers.Unit]:
    """The units the job computes from now on (not those it takes from checkpoints)."""
    computed: list[layers.Unit] = []
    real_compute = layer_run.compute_unit

    def counting(unit: layers.Unit, *args: object, **kwargs: object) -> object:
        computed.append(unit)
        return real_compute(unit, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(layer_run, "compute_unit", counting)
    return computed


def test_interrupted_run_resumes(small_db: Path, monkeypatch: pytest.MonkeyPatch,
                                 expected: dict[int, tuple[int, int, int]]) -> None:
    """Ctrl-C after the first class: that class is in, the others untouched (NULL, never
    half a class); the rerun computes only the other classes' units and finishes with the
    same figures."""
    real_commit = layers.commit_class
    commits: list[str] = []

    def commit_then_stop(*args: object) -> None:
        real_commit(*args)  # type: ignore[arg-type]
        commits.append("done")
        if len(commits) == 1:
            raise KeyboardInterrupt

    all_units = [unit for plan in layers.plan(small_db, None) for unit in plan.units]
    monkeypatch.setattr(layer_run, "commit_class", commit_then_stop)
    code, _, err = _run("db", "layers", "7-0", "--db", str(small_db))
    assert code == 130 and "resume" in err
    stored = _stored(small_db)
    filled = {i for i, row in stored.items() if row[0] is not None}
    cls = cases.classes()
    assert filled == {i for i in stored if cls.style[i] == 1}  # the first class, whole
    monkeypatch.setattr(layer_run, "commit_class", real_commit)
    computed = _count_computed(monkeypatch)
    code, _, err = _run("db", "layers", "7-0", "--db", str(small_db))
    assert code == 0, err
    assert _stored(small_db) == expected
    assert sorted(unit.name for unit in computed) == sorted(
        unit.name for unit in all_units if unit.key[2] != 1)


def test_checkpoints_of_a_run_cut_differently_are_ignored(
        small_db: Path, expected: dict[int, tuple[int, int, int]]) -> None:
    """A file left in a class's checkpoints by a run whose units were cut otherwise (an
    earlier version's), here with wrong figures for every layout of the class, is neither
    taken as this run's work nor read at the commit, and goes with the others."""
    import pyarrow.parquet as pq

    (class_plan,) = layers.plan(small_db, [(7, 0, 3)])
    folder = layers.checkpoint_directory(small_db) / class_plan.name
    folder.mkdir(parents=True)
    ids = [i for i in expected if cases.classes().style[i] == 3]
    stale = {"id": np.array(ids, dtype=np.int32)}
    for name in layers.FIGURE_COLUMNS:
        stale[name] = np.full(len(ids), 7, dtype=np.int16 if name.endswith("steps")
                              else np.int32)
    pq.write_table(pa.table(stale), folder / f"{class_plan.units[0].pieces[0].seed:09X}-0.parquet")
    code, _, err = _run("db", "layers", "7-0-3", "--db", str(small_db))
    assert code == 0, err
    stored = _stored(small_db)
    assert {i: stored[i] for i in ids} == {i: expected[i] for i in ids}
    assert not folder.exists()


def test_a_checkpointed_unit_is_not_computed_again(
        small_db: Path, monkeypatch: pytest.MonkeyPatch,
        expected: dict[int, tuple[int, int, int]]) -> None:
    """The run stops between the first unit's checkpoint and its class's commit; the rerun
    takes that unit from its checkpoint and computes only the others."""
    all_units = [unit for plan in layers.plan(small_db, None) for unit in plan.units]

    def stop_before_commit(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(layer_run, "commit_class", stop_before_commit)
    code, _, _ = _run("db", "layers", "7-0", "--db", str(small_db))
    assert code == 130
    checkpoints = layers.checkpoint_directory(small_db)
    assert [layers.is_done(checkpoints, unit) for unit in all_units] == [
        unit == all_units[0] for unit in all_units]
    monkeypatch.setattr(layer_run, "commit_class", layers.commit_class)
    computed = _count_computed(monkeypatch)
    code, _, err = _run("db", "layers", "7-0", "--db", str(small_db))
    assert code == 0, err
    assert [unit.name for unit in computed] == [unit.name for unit in all_units[1:]]
    assert _stored(small_db) == expected


def test_driver_killed_then_rerun(small_db: Path, monkeypatch: pytest.MonkeyPatch,
                                  expected: dict[int, tuple[int, int, int]]) -> None:
    """SIGKILL once a checkpoint was written (its class may have been committed just before
    the signal); the rerun computes exactly the units without one and ends complete."""
    environment = {**os.environ, "HUARONG_DB": str(small_db)}
    command = [sys.executable, "-m", "huarong", "db", "layers", "7-0", "--threads", "1"]
    process = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    checkpoints = layers.checkpoint_directory(small_db)
    deadline = time.monotonic() + 120  # a guard against a hang, not a measure of speed
    while not any(checkpoints.rglob("*.parquet")) and process.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    assert process.wait() == -signal.SIGKILL  # killed, not finished
    plans = layers.plan(small_db, None)
    left = [unit for plan in plans for unit in plan.units
            if not layers.is_done(checkpoints, unit)]
    computed = _count_computed(monkeypatch)
    code, _, err = _run("db", "layers", "7-0", "--threads", "1", "--db", str(small_db))
    assert code == 0, err
    assert sorted(unit.name for unit in computed) == sorted(unit.name for unit in left)
    assert _stored(small_db) == expected


def test_two_dask_workers_give_the_same_figures(
        small_db: Path, expected: dict[int, tuple[int, int, int]]) -> None:
    code, _, err = _run("db", "layers", "7-0", "--workers", "2", "--db", str(small_db))
    assert code == 0, err
    assert _stored(small_db) == expected


def test_without_dask_names_the_extra(small_db: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    code, _, err = _run("db", "layers", "7-0", "--workers", "2", "--db", str(small_db))
    assert code == 2
    assert err.count("\n") == 1 and "huarong[cluster]" in err


@pytest.mark.parametrize("args, message", [
    (["8-0"], "class 8-0 does not exist"),
    (["5-x"], "bad class '5-x'"),
    (["4-3-7"], "style 7 does not exist"),
    ([], "--standard or --all"),
])
def test_bad_classes_exit_2(small_db: Path, args: list[str], message: str) -> None:
    code, _, err = _run("db", "layers", *args, "--db", str(small_db))
    assert code == 2
    assert message in err


def test_missing_database_exit_2(tmp_path: Path) -> None:
    code, _, err = _run("db", "layers", "7-0", "--db", str(tmp_path / "none.duckdb"))
    assert code == 2 and "huarong db build" in err


def test_dask_worker_killed_mid_run(small_db: Path,
                                    expected: dict[int, tuple[int, int, int]]) -> None:
    """One of two workers is killed (SIGKILL) once the first unit is back and the others are
    out: its units run again elsewhere and the figures come out complete."""
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        victims = list(client.run(os.getpid).values())[:1]

        def kill_once(layouts: int, layouts_total: int, pairs: int, pairs_total: int
                      ) -> None:
            if pairs > 0 and pairs < pairs_total and victims:
                os.kill(victims.pop(), signal.SIGKILL)

        layers.run(small_db, layers.plan(small_db, None), progress=kill_once, client=client)
    assert not victims  # the kill happened before the last unit was back
    assert _stored(small_db) == expected
