"""What a chain of the design search (:mod:`huarong.puzzles.design_search`) holds and is
given: its budget, the clusters it keeps, where it stands (saved in a checkpoint and
restored from it), and one evaluation made and recorded the same way by every method
(:mod:`huarong.puzzles.design_methods`)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from huarong.puzzles.design import MAX_STATES, Design, DesignSpace, Value
from huarong.puzzles.design_evaluate import Evaluator
from huarong.puzzles.grid import PuzzleError

KEEP = 100
"""The best distinct clusters a run keeps."""
USED_UP_AFTER = 300
USED_UP_SHARE = 20
"""A chain whose last evaluations met only clusters the run had met before, at least
:data:`USED_UP_AFTER` of them and :data:`USED_UP_SHARE` times the clusters the run knows,
probes its space with random starts (:data:`PROBES`)."""
PROBES = 200
"""Random starts in a row, all in clusters the run had met, after which a chain has used up
what its space holds (a small board) and ends; one in a new cluster is where the chain goes
on from (it was stuck, the space is not used up)."""


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
        return {"length": v.length, "score": v.score, "states": v.states, "solved": v.solved,
                "hardest": v.hardest.to_json(), "key": json.dumps(v.key),
                "minimal": self.minimal, "seed": self.seed, "evaluation": self.evaluation,
                "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Found:
        key = json.loads(data["key"])
        value = Value(data["length"], data["states"], data["solved"],
                      Design.from_json(data["hardest"]),
                      (tuple(key[0]), tuple(key[1]), key[2]), data.get("score"))
        return cls(value, data["minimal"], data["seed"], data["evaluation"], data["seconds"])


@dataclass
class Elite:
    """A cluster a chain holds on to (in a niche of its population, or as the best
    neighbour met so far): its hardest start, length (the objective's rank,
    :attr:`~huarong.puzzles.design.Value.rank`) and key (as JSON)."""

    design: Design
    length: int
    key: str = ""

    def to_json(self) -> list[Any]:
        return [self.design.to_json(), self.length, self.key]

    @classmethod
    def from_json(cls, data: list[Any]) -> Elite:
        return cls(Design.from_json(data[0]), data[1], data[2])


@dataclass
class Chain:
    """Where one chain stands: its ``seed``, random state, ``evaluations`` and ``seconds``
    spent, its ``current`` cluster's hardest start and length, evaluations since its last
    new best (``stalled``) and since it last met a cluster new to the run (``stale``; of
    those, the random ``probes`` of a stuck chain; ``used_up`` once they are many), the
    best clusters it kept (``best``, its answer; ``recent``, those of its epoch, which its
    restarts start from: the same until a first epoch ends), the clusters it last stood on
    (``tabu``, as keys) with the best ``neighbour`` of its current cluster met so far and
    how many it ``tried``, and its population (``elites``, by niche)."""

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
    stale: int = 0
    probes: int = 0
    used_up: bool = False
    tabu: list[str] = field(default_factory=list)
    neighbour: Elite | None = None
    tried: int = 0
    elites: dict[str, Elite] = field(default_factory=dict)
    recent: list[Found] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "random": self.random, "evaluations": self.evaluations,
                "seconds": self.seconds,
                "current": None if self.current is None else self.current.to_json(),
                "current_length": self.current_length, "stalled": self.stalled,
                "best": [f.to_json() for f in self.best], "clusters": self.clusters,
                "stale": self.stale, "probes": self.probes, "used_up": self.used_up,
                "tabu": self.tabu,
                "neighbour": None if self.neighbour is None else self.neighbour.to_json(),
                "tried": self.tried,
                "elites": [[niche, elite.to_json()] for niche, elite in self.elites.items()],
                "recent": [f.to_json() for f in self.recent]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Chain:
        return cls(data["seed"], data["random"], data["evaluations"], data["seconds"],
                   None if data["current"] is None else Design.from_json(data["current"]),
                   data["current_length"], data["stalled"],
                   [Found.from_json(f) for f in data["best"]], data["clusters"],
                   data["stale"], data["probes"], data["used_up"], list(data["tabu"]),
                   None if data["neighbour"] is None else Elite.from_json(data["neighbour"]),
                   data["tried"],
                   {niche: Elite.from_json(elite) for niche, elite in data["elites"]},
                   [Found.from_json(f) for f in data.get("recent", data["best"])])

    def columns(self) -> dict[str, np.ndarray]:
        """The chain as a unit of a resumable job (:mod:`huarong.puzzles.jobs`)."""
        return {"chain": np.frombuffer(json.dumps(self.to_json()).encode(), dtype=np.uint8)}

    @classmethod
    def from_columns(cls, columns: dict[str, np.ndarray]) -> Chain:
        return cls.from_json(json.loads(columns["chain"].tobytes().decode()))


def keep_found(best: list[Found], found: Found, keep: int) -> bool:
    """Put ``found`` among the ``keep`` best (hardest, then larger) unless its cluster is
    there; whether it went in."""
    if any(f.value.key == found.value.key for f in best):
        return False
    best.append(found)
    best.sort(key=_order)
    del best[keep:]
    return found in best


def _order(found: Found) -> tuple[int, int, int, int]:
    """Where a cluster stands among the kept: the hardest first, then the larger, then the
    first found."""
    return (-found.value.rank, -found.value.states, found.seed, found.evaluation)


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
    objective: str = "length"

    def spent(self, chain: Chain, seconds: float) -> float:
        """The share of its budget ``chain`` has spent (at least 1 when done: its budget
        gone, its target reached or its space used up), ``seconds`` into it."""
        if chain.used_up or (self.target is not None and chain.best
                             and chain.best[0].value.length >= self.target):
            return 1.0
        if self.evaluations is not None:
            return chain.evaluations / max(1, self.evaluations)
        assert self.seconds is not None
        return seconds / self.seconds


@dataclass
class Walk:
    """One chain on its way: what it is given and the evaluation every method makes (a
    step runs holding the chain's lock, so a checkpoint sees the chain between steps)."""

    space: DesignSpace
    evaluator: Evaluator
    chain: Chain
    settings: Settings
    rng: np.random.Generator
    began: float

    def spent(self) -> float:
        return self.settings.spent(self.chain, time.monotonic() - self.began)

    def evaluate(self, design: Design) -> tuple[Value, bool]:
        """The value of ``design``'s cluster, recorded (counted, kept among the chain's best
        and its epoch's when it is hard enough and minimal if asked); whether it became the
        best of the chain's epoch."""
        chain, settings = self.chain, self.settings
        value, seen = self.evaluator.value(design)
        best = False

        def kept_in(kept: list[Found]) -> bool:
            # One found now ranks after every kept one of its rank and states.
            return value.length >= 0 and (len(kept) < settings.keep or (
                -value.rank, -value.states) < _order(kept[-1])[:2]) and all(
                f.value.key != value.key for f in kept)

        # A cluster met before may be new to the epoch (so a resumed run, which met none,
        # keeps what the first run kept); only a cluster that would be kept is tested for
        # minimality (the costly part), once.
        to_best, to_recent = not seen and kept_in(chain.best), kept_in(chain.recent)
        if (to_best or to_recent) and (not settings.minimal or self.evaluator.minimal(
                value.hardest, value.length, value.key)):
            found = Found(value, settings.minimal, chain.seed, chain.evaluations + 1,
                          time.monotonic() - self.began)
            if to_best:
                keep_found(chain.best, found, settings.keep)
            best = to_recent and keep_found(chain.recent, found, settings.keep) and (
                chain.recent[0] is found)
        # A cluster too large to value is a new one each time (its key is the design).
        fresh = not seen or value.key[0] == "too large"
        chain.evaluations += 1
        chain.clusters += not seen
        chain.stale = 0 if fresh else chain.stale + 1
        chain.seconds = time.monotonic() - self.began
        return value, best

    def stuck(self) -> bool:
        """Whether the chain met only known clusters for long enough to probe its space."""
        return self.chain.stale >= max(USED_UP_AFTER,
                                       USED_UP_SHARE * len(self.evaluator.values))

    def move(self, design: Design, length: int) -> None:
        """The chain stands on the cluster of ``design`` (its hardest start) now."""
        self.chain.current, self.chain.current_length = design, length
