"""The design search's methods beyond anneal and climb (tabu, elites): each finds the
exhaustive search's hardest length on a board small enough to enumerate, gives one answer
a seed, and a stopped run resumes to the answer of a run never stopped (its tabu list and
population saved with it).  A chain's epochs (``Restarts.epoch``) begin afresh: restarts
only from what the epoch found, the run's answer kept whole."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from huarong.puzzles import design_chain
from huarong.puzzles.design import DesignSpace, Restarts, Value, random_design
from huarong.puzzles.design_methods import crossed
from huarong.puzzles.design_search import Budget, design
from huarong.puzzles.design_spaces import space_of
from huarong.puzzles.exhaustive import search

BOARD = ("4x4", "2x2,1x2,2x1,1x1*3", "2x2@2,2")
RANGES = ("4x4", "2x2,1x2*0-2,2x1*0-2,1x1*0-3", "2x2@2,2")


@pytest.mark.parametrize("method", ["tabu", "elites"])
@pytest.mark.parametrize("metric", ["unit", "step"])
def test_methods_find_the_exhaustive_hardest(method: str, metric: str) -> None:
    cells, pieces, goal = BOARD
    truth = search(cells, pieces, goal, metric).totals()["hardest"]["length"]
    found = design(space_of(cells, pieces, goal, metric=metric), Budget(evaluations=400),
                   minimal=False, method=method)
    assert found.summary()["length"] == truth


@pytest.mark.parametrize("method", ["tabu", "elites"])
def test_one_seed_one_answer_and_a_stopped_run_resumes(method: str, tmp_path: Path) -> None:
    space = space_of(*RANGES)
    budget = Budget(evaluations=300)
    whole = design(space, budget, seed=4, method=method)
    again = design(space, budget, seed=4, method=method)
    assert [(r.value.key, r.evaluation) for r in again.rows] == [
        (r.value.key, r.evaluation) for r in whole.rows]
    checkpoint = tmp_path / "run.checkpoint"
    calls = 0

    def interrupt(phase: str, done: int, total: int) -> None:
        nonlocal calls
        calls += 1
        if done and calls == 2:
            raise KeyboardInterrupt

    stopped = design(space, budget, seed=4, method=method, checkpoint=checkpoint,
                     progress=interrupt)
    assert stopped.stopped and checkpoint.is_dir() and stopped.evaluations < 300
    resumed = design(space, budget, seed=4, method=method, checkpoint=checkpoint)
    assert resumed.evaluations == 300 and not checkpoint.exists()
    assert [(r.value.key, r.value.length) for r in resumed.rows] == [
        (r.value.key, r.value.length) for r in whole.rows]


def test_a_crossed_start_is_a_start_of_its_parents_pieces() -> None:
    """A child holds the first parent's pieces above its cut and the second's below (those
    that fit), and one goal piece; every child is a valid start."""
    space = space_of(*RANGES)
    rng = np.random.default_rng(2)
    children = 0
    for _ in range(40):
        first, second = random_design(space, rng), random_design(space, rng)
        child = crossed(space, first, second, rng)
        if child is None:
            continue
        children += 1
        assert space.valid(child)
        assert set(child.pieces) <= set(first.pieces) | set(second.pieces)
        assert sum(kind == 0 for kind, _ in child.pieces) == 1
    assert children


EPOCH = 60


@pytest.mark.parametrize("method", ["tabu", "anneal", "climb"])
def test_each_epoch_restarts_only_from_what_it_found(method: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Before each evaluation, the clusters the chain restarts from (``recent``) were all
    found in its epoch (none at an epoch's first evaluation), while its answer (``best``)
    keeps every epoch's; without epochs the two are one.  A stopped run resumes to the
    answer of a run never stopped."""
    space = space_of(*RANGES)
    seen: list[tuple[int, list[int], list[int]]] = []
    evaluate = design_chain.Walk.evaluate

    def watched(walk: design_chain.Walk, design: object) -> tuple[Value, bool]:
        chain = walk.chain
        seen.append((chain.evaluations, [f.evaluation for f in chain.recent],
                     [f.evaluation for f in chain.best]))
        return evaluate(walk, design)  # type: ignore[arg-type]

    monkeypatch.setattr(design_chain.Walk, "evaluate", watched)
    design(space, Budget(evaluations=200), seed=3, method=method, minimal=False)
    assert seen and all(recent == best for _, recent, best in seen)

    seen.clear()
    monkeypatch.setattr(DesignSpace, "restarts", Restarts(after=20, epoch=EPOCH))
    whole = design(space, Budget(evaluations=200), seed=3, method=method, minimal=False)
    for done, recent, _ in seen:
        began = done - done % EPOCH
        assert all(found > began for found in recent)
    assert any(done > EPOCH and any(found <= EPOCH for found in best)
               for done, _, best in seen)
    assert [recent for done, recent, _ in seen if done and done % EPOCH == 0] == [[], [], []]

    checkpoint = tmp_path / "run.checkpoint"

    def interrupt(phase: str, done: int, total: int) -> None:
        if done > 90:
            raise KeyboardInterrupt

    stopped = design(space, Budget(evaluations=200), seed=3, method=method, minimal=False,
                     checkpoint=checkpoint, progress=interrupt)
    assert stopped.stopped and stopped.evaluations < 200
    resumed = design(space, Budget(evaluations=200), seed=3, method=method, minimal=False,
                     checkpoint=checkpoint)
    assert [(r.value.key, r.evaluation) for r in resumed.rows] == [
        (r.value.key, r.evaluation) for r in whole.rows]
