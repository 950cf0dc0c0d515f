"""The design search (``huarong puzzle design``): the hardest starts of a board too big to
enumerate, by chains of local search over designs (:mod:`huarong.puzzles.design`).

A chain holds a current cluster, represented by its hardest start.  Each step changes a
start a little (a piece moved, added or taken away, a wall placed or taken away) and values
the new start's cluster with the engine; the methods (:mod:`huarong.puzzles.design_methods`:
``anneal``, ``climb``, ``tabu``, ``elites``) differ in where they go next.  Which is best
for which board was measured by ``benchmarks/bench_design.py`` (the design search's page of
the documentation): :func:`default_method`.

Chains run on threads (the engine's kernels release the GIL) and share what they have
valued, or on the workers of a Dask cluster in rounds of :data:`ROUND_SECONDS`, each worker
keeping what it valued; each chain's random numbers come from its own seed, so one chain
with a budget of evaluations gives the same answer every time.  A run saves where its chains
stand in a checkpoint directory (:class:`~huarong.puzzles.jobs.Checkpoint`, a unit a chain)
and resumes from it.  A chain that meets only clusters met before for a long while has used
up its space (a small board) and ends.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from huarong.puzzles.design import MAX_STATES, DesignSpace
from huarong.puzzles.design_chain import KEEP, Budget, Chain, Found, Settings, keep_found
from huarong.puzzles.design_evaluate import OBJECTIVES, Evaluator
from huarong.puzzles.design_methods import METHODS, run_chain
from huarong.puzzles.design_result import DesignResult
from huarong.puzzles.grid import PuzzleError

if TYPE_CHECKING:
    from huarong.puzzles.jobs import Checkpoint

CHECKPOINT_SECONDS = 30.0
ROUND_SECONDS = 10.0
"""On a Dask cluster: how long a chain runs before it reports back (and the run saves)."""
DEFAULT_METHODS = {"rush-hour": "tabu", "pieces": "elites", "puzzle": "elites"}
"""The method a design space gets by default, by where it comes from (a preset's name,
``--pieces`` or ``--puzzle``): the best measured by ``benchmarks/bench_design.py`` (the
design search's page): tabu on Rush Hour (the one method that reaches Fogleman's 60, in 3
of 5 seeds), the population (``elites``) on Klotski's classes, Bickford's records and free
shapes (every truth reached, the soonest)."""

Progress = Callable[[str, int, int], None]

__all__ = ["KEEP", "METHODS", "Budget", "DesignResult", "Found", "default_method", "design"]


def default_method(origin: str) -> str:
    """The method measured best for spaces of this ``origin`` (:data:`DEFAULT_METHODS`)."""
    return DEFAULT_METHODS.get(origin, "anneal")


def design(space: DesignSpace, budget: Budget, *, seed: int = 1, chains: int | None = 1,
           minimal: bool = True, keep: int = KEEP, method: str = "anneal",
           target: int | None = None, max_states: int = MAX_STATES,
           objective: str = "length", cluster: str | None = None, checkpoint: Path | None = None,
           progress: Progress | None = None) -> DesignResult:
    """The hardest starts of ``space`` found by ``chains`` chains (seeded from ``seed``)
    within ``budget``: the ``keep`` best distinct clusters, only minimal starts with
    ``minimal``, by ``method`` (:data:`~huarong.puzzles.design_methods.METHODS`), clusters
    of more than ``max_states``
    states not valued; each chain stops early once it finds a start of ``target`` moves.
    The chains make the ``objective`` as large as they can
    (:data:`~huarong.puzzles.design_evaluate.OBJECTIVES`): the hardest start's fewest moves,
    or its predicted median time to solve for a person.

    The chains run on as many threads, or with ``cluster`` (a Dask scheduler's address) on
    its workers; ``chains=None``: one a core, or one a worker thread of the cluster.  With a
    ``checkpoint`` directory the chains' state is saved there every
    :data:`CHECKPOINT_SECONDS` and when stopped, the same run resumes from it
    (:class:`PuzzleError` when it holds another run), and it is removed when the run
    ends.  Ctrl-C stops the chains after their
    current evaluation and answers what they found (``stopped``)."""
    import os

    from huarong.puzzles.jobs import Checkpoint
    from huarong.workers import connect

    if method not in METHODS:
        raise PuzzleError(method, f"not a design method: one of {', '.join(METHODS)}")
    if objective not in OBJECTIVES:
        raise PuzzleError(objective, f"not an objective: one of {', '.join(OBJECTIVES)}")
    with contextlib.ExitStack() as stack:
        client = None if cluster is None else stack.enter_context(connect(cluster))
        if chains is None:
            chains = (os.cpu_count() or 1) if client is None else max(
                1, sum(client.nthreads().values()))
        key = json.dumps({"space": space.spec(), "seed": seed, "chains": chains,
                          "budget": budget.key(), "minimal": minimal, "keep": keep,
                          "method": method, "target": target, "max_states": max_states,
                          "objective": objective})
        saved = None if checkpoint is None else Checkpoint(checkpoint, key)
        chained = [Chain.from_columns(saved.load(number))
                   if saved is not None and saved.saved(number) else
                   Chain(seed * 1000 + number, dict(np.random.default_rng(
                       np.random.SeedSequence(seed).spawn(chains)[number]).bit_generator.state))
                   for number in range(chains)]
        settings = Settings(None if budget.evaluations is None
                            else math.ceil(budget.evaluations / chains),
                            budget.seconds, minimal, keep, method, target, max_states,
                            objective)
        run = _Run(space, settings, chained, saved, progress)
        if client is None:
            run.on_threads()
        else:
            run.on_cluster(client)
    return run.result()


class _Run:
    """A run's chains as they go: reported, saved and answered the same way whether they
    run on threads or on a Dask cluster."""

    def __init__(self, space: DesignSpace, settings: Settings, chains: list[Chain],
                 checkpoint: Checkpoint | None, progress: Progress | None) -> None:
        self.space, self.settings, self.chains = space, settings, chains
        self.checkpoint, self.progress = checkpoint, progress
        self.evaluator = Evaluator(space, settings.max_states, objective=settings.objective)
        self.locks = [threading.Lock() for _ in chains]
        """Each chain's: held while it takes a step."""
        self.began = time.monotonic()
        self.earlier = max((c.seconds for c in chains), default=0.0)
        self.saved = self.began
        self.stopped = False
        self.stop = threading.Event()
        """Set when the run ends early: Ctrl-C, or a chain reached the target."""

    def snapshot(self) -> list[Chain]:
        """The chains as they stand between two steps."""
        copies = []
        for lock, chain in zip(self.locks, self.chains, strict=True):
            with lock:
                copies.append(Chain.from_json(chain.to_json()))
        return copies

    def save(self) -> None:
        assert self.checkpoint is not None
        for number, chain in enumerate(self.snapshot()):
            self.checkpoint.save(number, chain.columns())

    def waiting(self) -> None:
        """Progress, the end of every chain once one reached the target, and a checkpoint
        when one is due."""
        now = time.monotonic()
        # Read without the chains' locks (a step may hold one for seconds): figures a step
        # old at most.
        done = sum(c.evaluations for c in self.chains)
        best = max((c.best[0].value.length for c in list(self.chains) if c.best), default=-1)
        if self.settings.target is not None and best >= self.settings.target:
            self.stop.set()
        if self.progress is not None:
            rate = done / max(1e-9, now - self.began + self.earlier)
            phase = f"best {best if best >= 0 else '-'}, {rate:,.1f} evaluations/s"
            if self.settings.evaluations is not None:
                self.progress(phase, done, self.settings.evaluations * len(self.chains))
            else:
                assert self.settings.seconds is not None
                self.progress(phase, int(now - self.began + self.earlier),
                              int(self.settings.seconds))
        if self.checkpoint is not None and now - self.saved >= CHECKPOINT_SECONDS:
            self.save()
            self.saved = now

    def on_threads(self) -> None:
        from huarong.workers import as_finished

        def work(number: int) -> Chain:
            return run_chain(self.space, self.evaluator, self.chains[number], self.settings,
                             stop=self.stop, lock=self.locks[number])

        try:
            for _ in as_finished(work, range(len(self.chains)), threads=len(self.chains),
                                 waiting=self.waiting):
                pass
            self.waiting()  # the last figures, whatever the polls saw
        except KeyboardInterrupt:
            self.stopped = True
        finally:
            self.stop.set()

    def on_cluster(self, client: Any) -> None:
        """Rounds of :data:`ROUND_SECONDS`: each chain not done goes to a worker with its
        state and comes back with the new one."""
        from huarong.workers import on_cluster

        try:
            while True:
                pending = [index for index, chain in enumerate(self.chains)
                           if self.settings.spent(chain, chain.seconds) < 1]
                if not pending or self.stop.is_set():
                    break
                stream = contextlib.closing(on_cluster(client, lambda index: client.submit(
                    _round, self.space, self.settings, self.chains[index].to_json(),
                    pure=False), pending))
                with stream as answers:
                    for position, answer in answers:
                        with self.locks[pending[position]]:
                            self.chains[pending[position]] = Chain.from_json(answer)
                        self.waiting()
            self.waiting()
        except KeyboardInterrupt:
            self.stopped = True

    def result(self) -> DesignResult:
        from huarong.puzzles.jobs import finish

        ended = self.snapshot()
        if self.checkpoint is not None:
            if self.stopped:
                self.save()
            else:
                finish(self.checkpoint.directory)
        rows: list[Found] = []
        for chain in ended:
            for found in chain.best:
                keep_found(rows, found, self.settings.keep)
        return DesignResult(self.space, self.evaluator, rows,
                            sum(c.evaluations for c in ended), sum(c.clusters for c in ended),
                            max(c.seconds for c in ended), self.stopped,
                            all(c.used_up for c in ended))


@functools.lru_cache(maxsize=4)
def _worker_evaluator(space: DesignSpace, max_states: int, objective: str) -> Evaluator:
    """A Dask worker's evaluator of ``space``: kept between rounds, so a cluster a chain
    met on this worker is not searched again."""
    return Evaluator(space, max_states, objective=objective)


def _round(space: DesignSpace, settings: Settings, chain: dict[str, Any]) -> dict[str, Any]:
    """One round of a chain on a Dask worker: its state after :data:`ROUND_SECONDS`."""
    return run_chain(space, _worker_evaluator(space, settings.max_states, settings.objective),
                     Chain.from_json(chain), settings,
                     stop=threading.Event(), lock=threading.Lock(),
                     round_seconds=ROUND_SECONDS).to_json()
