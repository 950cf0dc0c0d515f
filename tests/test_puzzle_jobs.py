"""Resumable jobs of independent units (huarong.puzzles.jobs)."""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from huarong.puzzles.grid import PuzzleError
from huarong.puzzles.jobs import finish, run_job

pytestmark = pytest.mark.big_memory


def squares(n: int) -> dict[str, np.ndarray]:
    return {"value": np.arange(n, dtype=np.int64) ** 2}


def test_every_unit_once_on_threads() -> None:
    got = dict(run_job(list(range(20)), squares, threads=3, sizes=list(range(20))))
    assert sorted(got) == list(range(20))
    for n, columns in got.items():
        assert columns["value"].tolist() == [k * k for k in range(n)]


def test_resume_skips_saved_units(tmp_path: Path) -> None:
    directory = tmp_path / "job"
    calls: list[int] = []

    def failing_after_three(n: int) -> dict[str, np.ndarray]:
        if len(calls) >= 3:
            raise RuntimeError("stopped")
        calls.append(n)
        return squares(n)

    with pytest.raises(RuntimeError):
        for _ in run_job(list(range(8)), failing_after_three, directory=directory, key="k"):
            pass
    first = list(calls)
    calls.clear()

    def counting(n: int) -> dict[str, np.ndarray]:
        calls.append(n)
        return squares(n)

    seen: list[tuple[int, int]] = []
    got = dict(run_job(list(range(8)), counting, directory=directory, key="k",
                       progress=lambda done, total: seen.append((done, total))))
    assert sorted(got) == list(range(8))
    assert sorted(calls) == sorted(set(range(8)) - set(first))
    assert seen[-1] == (8, 8)
    assert got[5]["value"].tolist() == [0, 1, 4, 9, 16]
    finish(directory)
    assert not directory.exists()


def test_checkpoint_of_another_job_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "job"
    list(run_job([1, 2], squares, directory=directory, key="one"))
    with pytest.raises(PuzzleError, match="another search"):
        list(run_job([1, 2], squares, directory=directory, key="two"))


# ----- on a Dask cluster ---------------------------------------------------------------------
CALLS: list[tuple[object, int]] = []
GATE = threading.Event()


def counted_squares(run: object, n: int) -> dict[str, np.ndarray]:
    """:func:`squares`, noting ``(run, n)`` (the workers of a ``processes=False`` cluster
    run in this process)."""
    CALLS.append((run, n))
    return squares(n)


def gated_squares(n: int) -> dict[str, np.ndarray]:
    """:func:`squares`, at once for 0 and 1, the others once :data:`GATE` opens."""
    if n >= 2:
        GATE.wait(10)
    return squares(n)


def dies(n: int) -> dict[str, np.ndarray]:
    """The worker process ends on unit 3."""
    if n == 3:
        os._exit(1)
    return squares(n)


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The address of a Dask scheduler with two worker threads in this process."""
    import distributed

    # ":0": the scheduler's HTTP server on a free port (with None, on 8787 or a warning)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0", silence_logs=40) as local:
        yield local.scheduler_address


def test_cluster_answers_as_threads(cluster: str) -> None:
    units = list(range(30))
    on_cluster = dict(run_job(units, squares, cluster=cluster, sizes=units))
    assert on_cluster.keys() == dict(run_job(units, squares, threads=2)).keys() == set(units)
    for n, columns in on_cluster.items():
        assert columns["value"].tolist() == [k * k for k in range(n)]


def test_resume_across_backends(tmp_path: Path, cluster: str) -> None:
    """A cluster run stopped after three units resumes on threads, and a threads run stopped
    after three units resumes on the cluster: the second run computes only the units not
    saved.  (A unit already running when the first run stops may still end: the calls are
    told apart by run.)"""
    units = list(range(10))
    for number, (first, second) in enumerate((({"cluster": cluster}, {"threads": 2}),
                                              ({"threads": 1}, {"cluster": cluster}))):
        directory = tmp_path / f"job-{number}"
        job = run_job(units, functools.partial(counted_squares, (number, "first")),
                      directory=directory, key="k", **first)
        saved = {next(job)[0] for _ in range(3)}
        job.close()  # cancels the units still out
        assert len(list(directory.glob("unit-*.npz"))) == 3
        run = (number, "second")
        got = dict(run_job(units, functools.partial(counted_squares, run),
                           directory=directory, key="k", **second))
        assert sorted(got) == units
        assert sorted(n for who, n in CALLS if who == run) == sorted(set(units) - saved)
        assert got[7]["value"].tolist() == [k * k for k in range(7)]


def test_units_out_are_bounded_and_cancelled_when_stopped(cluster: str) -> None:
    from distributed import Client

    from huarong.workers import on_cluster

    GATE.clear()
    with Client(cluster, set_as_default=False) as client:
        futures: list[Any] = []

        def submit(n: int) -> Any:
            futures.append(client.submit(gated_squares, n, pure=False))
            return futures[-1]

        results = on_cluster(client, submit, list(range(20)), ahead=4)
        taken = {next(results)[0] for _ in range(2)}
        assert taken == {0, 1} and len(futures) == 6  # four out beside those taken
        results.close()
        GATE.set()
        assert [future.status for future in futures[2:]] == ["cancelled"] * 4


def test_work_that_does_not_pickle_is_refused_at_once(cluster: str) -> None:
    with pytest.raises(TypeError, match="does not pickle"):
        run_job([1, 2], lambda n: squares(n), cluster=cluster)


def test_unreachable_scheduler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from huarong import workers as scheduler

    monkeypatch.setattr(scheduler, "CONNECT_TIMEOUT", "0.2s")
    with pytest.raises(scheduler.SchedulerUnreachable,
                       match=re.escape("cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'")):
        list(run_job([1], squares, cluster="tcp://127.0.0.1:1", directory=tmp_path / "job"))
    assert not (tmp_path / "job").exists()


def test_workers_dying_end_the_job() -> None:
    """A unit that kills its worker process (as the out-of-memory killer would)."""
    import distributed
    from dask import config

    from huarong.workers import ClusterLost

    with config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                     dashboard_address=":0", worker_dashboard_address=None,
                                     silence_logs=50) as local, \
            pytest.raises(ClusterLost, match=r"Dask workers died running task .*dies"):
        list(run_job(list(range(6)), dies, cluster=local.scheduler_address))


# ----- puzzle search --preset on a cluster ----------------------------------------------------
def _search(*arguments: str) -> tuple[int, str]:
    from click.testing import CliRunner

    from huarong.cli.puzzle_search import search

    answer = CliRunner().invoke(search, list(arguments))
    return answer.exit_code, answer.output


@pytest.fixture
def small_sbp(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sbp-4x4 preset with the pieces 2x2 and 1x2 only."""
    from huarong.puzzles.grid import rectangle
    from huarong.puzzles.presets import bickford

    listed = bickford.PRESET.units
    monkeypatch.setattr(bickford.PRESET, "units", lambda settings: listed(
        {**settings, "shapes": (rectangle(2, 2), rectangle(1, 2))}))


@pytest.mark.usefixtures("small_sbp")
def test_preset_on_a_cluster_as_on_threads(tmp_path: Path, cluster: str) -> None:
    answers = []
    for name, backend in (("cluster", ["--cluster", cluster]), ("threads", ["--threads", "2"])):
        output = tmp_path / f"{name}.parquet"
        code, text = _search("--preset", "sbp-4x4", *backend, "-o", str(output), "--json",
                             "-q")
        assert code == 0, text
        answers.append(json.loads(text[text.index("["):]))
        assert output.is_file() and not Path(f"{output}.checkpoint").exists()
    assert answers[0] == answers[1]
    # With 2x2 and 1x2 pieces only, a lone 2x2 is one move from the corner: its hardest
    # start is 1; two pieces cannot block it for more than two moves.
    assert [row["length"] for row in answers[0][:2]] == [1, 2]


def _lost(*_: object, **__: object) -> None:
    from huarong.workers import ClusterLost

    raise ClusterLost("Dask workers died running task 'x', 4 times")


@pytest.mark.parametrize(("arguments", "code", "words"), [
    (["--board", "3x4", "--pieces", "2x2", "--goal", "2x2@1,2", "--cluster", "tcp://x:1"], 2,
     "sets of pieces of a --preset"),
    (["--preset", "sbp-4x4", "--cluster", "tcp://127.0.0.1:1"], 2,
     "cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'"),
    (["--preset", "sbp-4x4", "lost"], 1, "4 times; finished seed groups are kept in"),
    (["--preset", "sbp-4x4", "--cluster", "tcp://127.0.0.1:1", "no dask"], 2,
     "--cluster needs Dask: pip install 'huarong[cluster]'"),
])
def test_cluster_faults_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    arguments: list[str], code: int, words: str) -> None:
    """--cluster without a preset; an unreachable scheduler; workers lost (the preset's run raising
    what the job raises then, asked for by a last argument ``lost``); Dask not installed
    (``no dask``)."""
    from huarong import workers as scheduler
    from huarong.puzzles import presets

    monkeypatch.setattr(scheduler, "CONNECT_TIMEOUT", "0.2s")
    if arguments[-1] == "lost":
        monkeypatch.setattr(presets, "run_preset", _lost)
        arguments = arguments[:-1]
    if arguments[-1] == "no dask":
        monkeypatch.setitem(sys.modules, "distributed", None)
        arguments = arguments[:-1]
    got, text = _search(*arguments, "-o", str(tmp_path / "out.parquet"), "-q")
    assert got == code, text
    assert len(text.strip().splitlines()) == 1 and words in text
