"""The design search (``huarong puzzle design``): the hardest starts of a board too big to
enumerate, by chains of local search over designs (:mod:`huarong.puzzles.design`).

A chain holds a current cluster, represented by its hardest start.  Each step changes that
start a little (a piece moved, added or taken away, a wall placed or taken away), values the
new start's cluster with the engine and moves there when it is at least as hard; a chain
that finds nothing harder for :data:`RESTART_AFTER` steps starts again, from a random design
or from one of its best clusters.

Two methods, measured against each other by ``benchmarks/bench_design.py --methods`` (the
design search's page of the documentation):

- ``anneal`` (the default) also moves to an easier cluster, with the Metropolis probability,
  less and less often as the budget runs out.  It reaches every truth of the checks,
  the small boards of the tests included.
- ``climb`` never does (hill climbing with those restarts).  On Rush Hour with walls its
  five 10-minute seeds reached 58, 51, 48, 48 and 46 moves against annealing's 51, 49, 49,
  49 and 51: the same mean, a far better best, so the Rush Hour preset climbs (a designer
  runs several seeds and keeps the best); on a 3x3 board of the tests it stays on a local
  maximum for its whole budget (3 moves of 4).

Chains run on threads (the engine's kernels release the GIL) and share what they have
valued, or on the workers of a Dask cluster in rounds of :data:`ROUND_SECONDS`, each worker
keeping what it valued; each chain's random numbers come from its own seed, so one chain
with a budget of evaluations gives the same answer every time.  A run saves where its chains
stand in a checkpoint (JSON) and resumes from it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from huarong.puzzles.design import (
    MAX_STATES,
    Design,
    DesignSpace,
    Value,
    mutate,
    random_design,
    spec_of_counts,
)
from huarong.puzzles.design_evaluate import Evaluator
from huarong.puzzles.grid import PuzzleError
from huarong.puzzles.results import results_table, totals_of, write_results

if TYPE_CHECKING:
    import pyarrow as pa

RESTART_AFTER = 100
"""Steps of a chain without a new best before it starts again."""
KEEP = 100
"""The best distinct clusters a run keeps."""
START_TEMPERATURE = 3.0
END_TEMPERATURE = 0.3
"""Moves of hardest length: how much easier a chain may go, at first and at the end."""
CHECKPOINT_SECONDS = 30.0
ROUND_SECONDS = 10.0
"""On a Dask cluster: how long a chain runs before it reports back (and the run saves)."""
METHODS = ("anneal", "climb")
"""``anneal``: Metropolis moves to easier clusters as well; ``climb``: only to clusters at
least as hard."""

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class Budget:
    """How long a run goes: ``evaluations`` in all (shared out among the chains) or
    ``seconds`` of wall time."""

    evaluations: int | None = None
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``10m``, ``90s``, ``1h`` (wall time) or ``5000`` (evaluations)."""
        cleaned = text.strip().lower()
        units = {"s": 1, "m": 60, "h": 3600}
        try:
            if cleaned[-1:] in units:
                seconds = float(cleaned[:-1]) * units[cleaned[-1]]
                if seconds > 0:
                    return cls(seconds=seconds)
            elif int(cleaned) > 0:
                return cls(evaluations=int(cleaned))
        except ValueError:
            pass
        raise PuzzleError(text, "not a budget: a time as 90s, 10m or 1h, or a number of "
                                "evaluations as 5000")

    def key(self) -> str:
        return f"{self.evaluations} evaluations" if self.evaluations else f"{self.seconds} s"


@dataclass
class Found:
    """A cluster a run keeps: its value, whether its hardest start is ``minimal``, and the
    chain ``seed``, ``evaluation`` and ``seconds`` (of that chain) that found it."""

    value: Value
    minimal: bool
    seed: int
    evaluation: int
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        v = self.value
        return {"length": v.length, "states": v.states, "solved": v.solved,
                "hardest": v.hardest.to_json(), "key": json.dumps(v.key),
                "minimal": self.minimal, "seed": self.seed, "evaluation": self.evaluation,
                "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Found:
        key = json.loads(data["key"])
        value = Value(data["length"], data["states"], data["solved"],
                      Design.from_json(data["hardest"]),
                      (tuple(key[0]), tuple(key[1]), key[2]))
        return cls(value, data["minimal"], data["seed"], data["evaluation"], data["seconds"])


@dataclass
class Chain:
    """Where one chain stands: its ``seed``, random state, ``evaluations`` and ``seconds``
    spent, its ``current`` cluster's hardest start and length, steps since its last new
    best, and the best clusters it kept."""

    seed: int
    random: dict[str, Any]
    evaluations: int = 0
    seconds: float = 0.0
    current: Design | None = None
    current_length: int = -1
    stalled: int = 0
    best: list[Found] = field(default_factory=list)
    clusters: int = 0
    """Clusters this chain was the first to value (in its evaluator)."""

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "random": self.random, "evaluations": self.evaluations,
                "seconds": self.seconds,
                "current": None if self.current is None else self.current.to_json(),
                "current_length": self.current_length, "stalled": self.stalled,
                "best": [f.to_json() for f in self.best], "clusters": self.clusters}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Chain:
        return cls(data["seed"], data["random"], data["evaluations"], data["seconds"],
                   None if data["current"] is None else Design.from_json(data["current"]),
                   data["current_length"], data["stalled"],
                   [Found.from_json(f) for f in data["best"]], data["clusters"])


def _keep(best: list[Found], found: Found, keep: int) -> bool:
    """Put ``found`` among the ``keep`` best (hardest, then larger) unless its cluster is
    there; whether it went in."""
    if any(f.value.key == found.value.key for f in best):
        return False
    best.append(found)
    best.sort(key=lambda f: (-f.value.length, -f.value.states, f.seed, f.evaluation))
    del best[keep:]
    return found in best


def _temperature(spent: float) -> float:
    """The chain's temperature when ``spent`` of its budget (0 to 1) is gone."""
    spent = min(max(spent, 0.0), 1.0)
    return float(START_TEMPERATURE * (END_TEMPERATURE / START_TEMPERATURE) ** spent)


@dataclass(frozen=True)
class Settings:
    """What every chain of a run is given: its share of the budget (``evaluations`` or
    ``seconds``), ``minimal``, how many clusters to ``keep``, the ``method`` and the
    ``target`` length at which it stops (None: none); clusters past ``max_states`` are not
    valued."""

    evaluations: int | None
    seconds: float | None
    minimal: bool = True
    keep: int = KEEP
    method: str = "anneal"
    target: int | None = None
    max_states: int = MAX_STATES

    def spent(self, chain: Chain, seconds: float) -> float:
        """The share of its budget ``chain`` has spent (at least 1 when done), ``seconds``
        into it."""
        if self.target is not None and chain.best and chain.best[0].value.length >= self.target:
            return 1.0
        if self.evaluations is not None:
            return chain.evaluations / max(1, self.evaluations)
        assert self.seconds is not None
        return seconds / self.seconds


def run_chain(space: DesignSpace, evaluator: Evaluator, chain: Chain, settings: Settings, *,
              stop: threading.Event, lock: threading.Lock,
              round_seconds: float | None = None) -> Chain:
    """Run ``chain`` until its share of the budget is spent, its target reached, ``stop``
    set or (with ``round_seconds``) this call has run that long; ``chain`` is updated in
    place under ``lock`` after each evaluation (a checkpoint may read it)."""
    rng = np.random.default_rng()
    rng.bit_generator.state = chain.random
    now = time.monotonic()
    began = now - chain.seconds
    pause = None if round_seconds is None else now + round_seconds
    minimal, keep = settings.minimal, settings.keep

    def spent() -> float:
        return settings.spent(chain, time.monotonic() - began)

    while spent() < 1 and not stop.is_set() and (pause is None or time.monotonic() < pause):
        if chain.current is None or chain.stalled >= RESTART_AFTER:
            design = (random_design(space, rng) if not chain.best or rng.random() < 0.5
                      else mutate(space, chain.best[int(rng.integers(len(chain.best)))]
                                  .value.hardest, rng))
            chain_restarted = True
        else:
            design = mutate(space, chain.current, rng)
            chain_restarted = False
        value, seen = evaluator.value(design)
        kept = False
        if not seen and value.length >= 0 and (
                len(chain.best) < keep or value.length >= chain.best[-1].value.length):
            is_minimal = not minimal or evaluator.minimal(value.hardest, value.length)
            if is_minimal:
                found = Found(value, minimal, chain.seed, chain.evaluations + 1,
                              time.monotonic() - began)
                with lock:
                    kept = _keep(chain.best, found, keep) and chain.best[0] is found
        rise = value.length - chain.current_length
        with lock:
            chain.evaluations += 1
            chain.clusters += not seen
            chain.seconds = time.monotonic() - began
            if chain_restarted or rise >= 0 or (
                    settings.method == "anneal"
                    and rng.random() < math.exp(rise / _temperature(spent()))):
                chain.current, chain.current_length = value.hardest, value.length
            chain.stalled = 0 if kept or chain_restarted else chain.stalled + 1
            chain.random = rng.bit_generator.state
    return chain


@dataclass(frozen=True, eq=False)
class DesignResult:
    """A run's answer: the best distinct clusters (``rows``, hardest first), the
    ``evaluations`` made, the distinct ``clusters`` valued, the ``seconds`` taken and
    whether it was ``stopped`` (Ctrl-C) before its budget was spent."""

    space: DesignSpace
    evaluator: Evaluator
    rows: list[Found]
    evaluations: int
    clusters: int
    seconds: float
    stopped: bool = False

    def summary(self) -> dict[str, Any]:
        """``{"length", "start", "states", "evaluations", "clusters", "seconds"}``: the
        best hardest length, its start as grid text and its cluster's size (null without
        one), and what the run did."""
        best = self.rows[0] if self.rows else None
        return {"length": None if best is None else best.value.length,
                "start": None if best is None else self.evaluator.grid(best.value.hardest),
                "states": None if best is None else best.value.states,
                "evaluations": self.evaluations, "clusters": self.clusters,
                "seconds": round(self.seconds, 1)}

    def table(self) -> pa.Table:
        """The rows as a result file's table: each row its start's cluster, its own goal,
        distinct piece and pieces, and how it was found."""
        columns: dict[str, list[Any]] = {name: [] for name in (
            "states", "solved", "length", "start", "goal", "distinct", "pieces", "walls",
            "minimal", "seed", "evaluation")}
        kinds = len(self.space.kinds)
        for row in self.rows:
            design = row.value.hardest
            start = self.evaluator.grid(design)
            for name, item in (
                    ("states", row.value.states), ("solved", row.value.solved),
                    ("length", row.value.length), ("start", start),
                    ("goal", self.evaluator.goal(design)),
                    ("distinct", _goal_letter(self.space, start, design)),
                    ("pieces", spec_of_counts(self.space, design.counts(kinds))),
                    ("walls", len(design.walls)), ("minimal", row.minimal),
                    ("seed", row.seed), ("evaluation", row.evaluation)):
                columns[name].append(item)
        summary = self.summary()
        totals = totals_of(self.clusters, sum(f.value.states for f in self.rows),
                           None if summary["length"] is None
                           else (summary["length"], summary["start"]))
        return results_table(columns, self.space.file_puzzle(), totals)

    def write(self, path: str | Path) -> None:
        """The table to a ``.parquet`` or ``.duckdb`` file, atomically."""
        write_results(self.table(), path)


def _goal_letter(space: DesignSpace, start: str, design: Design) -> str | None:
    """The goal piece's letter in the start's grid when it is distinct, else None."""
    if not space.kinds[0].distinct:
        return None
    anchor = next(a for kind, a in design.pieces if kind == 0)
    return start.replace("/", "")[space.cells_of(0, anchor)[0]]


def design(space: DesignSpace, budget: Budget, *, seed: int = 1, chains: int | None = 1,
           minimal: bool = True, keep: int = KEEP, method: str = "anneal",
           target: int | None = None, max_states: int = MAX_STATES,
           cluster: str | None = None, checkpoint: Path | None = None,
           progress: Progress | None = None) -> DesignResult:
    """The hardest starts of ``space`` found by ``chains`` chains (seeded from ``seed``)
    within ``budget``: the ``keep`` best distinct clusters, only minimal starts with
    ``minimal``, by ``method`` (:data:`METHODS`), clusters of more than ``max_states``
    states not valued; each chain stops early once it finds a start of ``target`` moves.

    The chains run on as many threads, or with ``cluster`` (a Dask scheduler's address) on
    its workers; ``chains=None``: one a core, or one a worker thread of the cluster.  With a
    ``checkpoint`` path the chains' state is saved there every :data:`CHECKPOINT_SECONDS`
    and when stopped, the same run resumes from it (:class:`PuzzleError` when it holds
    another run), and it is removed when the run ends.  Ctrl-C stops the chains after their
    current evaluation and answers what they found (``stopped``)."""
    import os

    from huarong.workers import connect

    if method not in METHODS:
        raise PuzzleError(method, f"not a design method: one of {', '.join(METHODS)}")
    with contextlib.ExitStack() as stack:
        client = None if cluster is None else stack.enter_context(connect(cluster))
        if chains is None:
            chains = (os.cpu_count() or 1) if client is None else max(
                1, sum(client.nthreads().values()))
        key = json.dumps({"space": space.spec(), "seed": seed, "chains": chains,
                          "budget": budget.key(), "minimal": minimal, "keep": keep,
                          "method": method, "target": target, "max_states": max_states})
        chained = _resumed(checkpoint, key) if checkpoint is not None else None
        if chained is None:
            chained = [Chain(seed * 1000 + number, dict(np.random.default_rng(
                np.random.SeedSequence(seed).spawn(chains)[number]).bit_generator.state))
                for number in range(chains)]
        settings = Settings(None if budget.evaluations is None
                            else math.ceil(budget.evaluations / chains),
                            budget.seconds, minimal, keep, method, target, max_states)
        run = _Run(space, settings, chained, key, checkpoint, progress)
        if client is None:
            run.on_threads()
        else:
            run.on_cluster(client)
    return run.result()


class _Run:
    """A run's chains as they go: reported, saved and answered the same way whether they
    run on threads or on a Dask cluster."""

    def __init__(self, space: DesignSpace, settings: Settings, chains: list[Chain], key: str,
                 checkpoint: Path | None, progress: Progress | None) -> None:
        self.space, self.settings, self.chains = space, settings, chains
        self.key, self.checkpoint, self.progress = key, checkpoint, progress
        self.evaluator = Evaluator(space, settings.max_states)
        self.lock = threading.Lock()
        self.began = time.monotonic()
        self.earlier = max((c.seconds for c in chains), default=0.0)
        self.saved = self.began
        self.stopped = False
        self.stop = threading.Event()
        """Set when the run ends early: Ctrl-C, or a chain reached the target."""

    def snapshot(self) -> list[Chain]:
        with self.lock:
            return [Chain.from_json(c.to_json()) for c in self.chains]

    def waiting(self) -> None:
        """Progress, the end of every chain once one reached the target, and a checkpoint
        when one is due."""
        now = time.monotonic()
        with self.lock:
            done = sum(c.evaluations for c in self.chains)
            best = max((c.best[0].value.length for c in self.chains if c.best), default=-1)
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
            _save(self.checkpoint, self.key, self.snapshot())
            self.saved = now

    def on_threads(self) -> None:
        from huarong.workers import as_finished

        def work(chain: Chain) -> Chain:
            return run_chain(self.space, self.evaluator, chain, self.settings,
                             stop=self.stop, lock=self.lock)

        try:
            for _ in as_finished(work, self.chains, threads=len(self.chains),
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
                        with self.lock:
                            self.chains[pending[position]] = Chain.from_json(answer)
                        self.waiting()
            self.waiting()
        except KeyboardInterrupt:
            self.stopped = True

    def result(self) -> DesignResult:
        ended = self.snapshot()
        if self.checkpoint is not None:
            if self.stopped:
                _save(self.checkpoint, self.key, ended)
            else:
                self.checkpoint.unlink(missing_ok=True)
        rows: list[Found] = []
        for chain in ended:
            for found in chain.best:
                _keep(rows, found, self.settings.keep)
        return DesignResult(self.space, self.evaluator, rows,
                            sum(c.evaluations for c in ended), sum(c.clusters for c in ended),
                            max(c.seconds for c in ended), self.stopped)


@functools.lru_cache(maxsize=4)
def _worker_evaluator(space: DesignSpace, max_states: int) -> Evaluator:
    """A Dask worker's evaluator of ``space``: kept between rounds, so a cluster a chain
    met on this worker is not searched again."""
    return Evaluator(space, max_states)


def _round(space: DesignSpace, settings: Settings, chain: dict[str, Any]) -> dict[str, Any]:
    """One round of a chain on a Dask worker: its state after :data:`ROUND_SECONDS`."""
    return run_chain(space, _worker_evaluator(space, settings.max_states),
                     Chain.from_json(chain), settings,
                     stop=threading.Event(), lock=threading.Lock(),
                     round_seconds=ROUND_SECONDS).to_json()


def _save(path: Path, key: str, chains: list[Chain]) -> None:
    from huarong.fileio import write_text_atomically

    write_text_atomically(path, json.dumps({"key": key,
                                            "chains": [c.to_json() for c in chains]}))


def _resumed(path: Path, key: str) -> list[Chain] | None:
    """The chains of a checkpoint of this run; None when there is none."""
    if not path.is_file():
        return None
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved["key"] != key:
            raise PuzzleError(str(path), "the checkpoint of another design run: remove it "
                                         "or run that one")
        return [Chain.from_json(c) for c in saved["chains"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        if isinstance(error, PuzzleError):
            raise
        raise PuzzleError(str(path), f"not a design checkpoint: {error}") from None
