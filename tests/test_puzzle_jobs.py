"""Resumable jobs of independent units (huarong.puzzles.jobs)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from huarong.puzzles.jobs import finish, run_job
from huarong.puzzles.model import PuzzleError


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
