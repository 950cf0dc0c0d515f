"""The ways a chain of the design search walks (:data:`METHODS`), one evaluation a step.

- ``anneal``: to a changed start's cluster when it is at least as hard, else with the
  Metropolis probability, less and less often as the budget runs out;
- ``climb``: only to a cluster at least as hard (hill climbing);
- ``tabu``: tabu search.  It tries :data:`NEIGHBOURS` changes of its cluster's hardest start
  and moves to the hardest of their clusters, easier or not, unless it stood there in its
  last :data:`TABU` moves: it walks off a local maximum without walking back;
- ``elites``: a population kept diverse by niches (MAP-Elites): the hardest cluster of each
  niche (the pieces of each kind, the walls, and where the goal piece starts) is kept; each
  step changes an elite picked by a tournament, or crosses two (the rows above a cut from
  one, the rest from the other), and the child replaces its niche's elite when at least as
  hard.  A basin does not take the whole population, so the search does not stagnate in it.

Every method but ``elites`` starts again after some evaluations without a new best, from a
random start or a change of one of its best clusters, as its space's
:class:`~huarong.puzzles.design.Restarts` say.  A chain of any method
that meets only known clusters for long probes its space with random starts (:func:`probe`):
it goes on from the first in a new cluster, or ends when none is (the space is used up).
Every random number comes from the chain's own generator, so a chain with a budget of
evaluations gives the same answer every time and resumes to it.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable

import numpy as np

from huarong.puzzles.design import Design, DesignSpace, Value, mutate, random_design
from huarong.puzzles.design_chain import PROBES, Chain, Elite, Settings, Walk
from huarong.puzzles.design_evaluate import Evaluator

START_TEMPERATURE = 3.0
END_TEMPERATURE = 0.3
"""Moves of hardest length: how much easier an annealing chain may go, at first and at the
end."""
NEIGHBOURS = 8
"""Changes a tabu chain tries before it moves to the hardest."""
TABU = 50
"""Clusters a tabu chain does not go back to: those of its last moves."""
TOURNAMENT = 3
"""Niches drawn to pick the elite to change: the hardest of them."""
CROSSING = 0.2
"""The share of an elite chain's children crossed from two elites."""
FRESH = 0.05
"""The share of an elite chain's children that are random starts."""

Step = Callable[[Walk], None]


def _temperature(spent: float) -> float:
    """The chain's temperature when ``spent`` of its budget (0 to 1) is gone."""
    spent = min(max(spent, 0.0), 1.0)
    return float(START_TEMPERATURE * (END_TEMPERATURE / START_TEMPERATURE) ** spent)


def _restart(walk: Walk) -> Design:
    """A random start, or a change of one of the best clusters of the chain's epoch (the
    hardest of a few drawn), in the shares of the space's
    :class:`~huarong.puzzles.design.Restarts`."""
    chain, rng = walk.chain, walk.rng
    restarts = walk.space.restarts
    if not chain.recent or rng.random() < restarts.random:
        return random_design(walk.space, rng)
    # The best are kept hardest first: the smallest index drawn is the hardest.
    drawn = int(min(rng.integers(len(chain.recent), size=restarts.tournament)))
    return mutate(walk.space, chain.recent[drawn].value.hardest, rng)


def _begin_epoch(walk: Walk) -> None:
    """Every ``epoch`` evaluations (the space's :class:`~huarong.puzzles.design.Restarts`),
    a chain of a local method starts afresh: from a random start, with none of its kept
    clusters to restart from.  Its walks from then on are as a new chain's, except that the
    clusters the run has met count as met: a basin found before makes no new best."""
    chain, epoch = walk.chain, walk.space.restarts.epoch
    if epoch and chain.evaluations and chain.evaluations % epoch == 0:
        chain.current, chain.recent, chain.stalled = None, [], 0


def _local(walk: Walk, *, metropolis: bool) -> None:
    """A step of ``climb`` (or with ``metropolis``, of ``anneal``)."""
    chain, rng = walk.chain, walk.rng
    current = None if chain.stalled >= walk.space.restarts.after else chain.current
    restarted = current is None
    design = _restart(walk) if current is None else mutate(walk.space, current, rng)
    value, best = walk.evaluate(design)
    rise = value.rank - chain.current_length
    if restarted or rise >= 0 or (
            metropolis and rng.random() < math.exp(rise / _temperature(walk.spent()))):
        walk.move(value.hardest, value.rank)
    chain.stalled = 0 if best or restarted else chain.stalled + 1


def anneal(walk: Walk) -> None:
    _begin_epoch(walk)
    _local(walk, metropolis=True)


def climb(walk: Walk) -> None:
    _begin_epoch(walk)
    _local(walk, metropolis=False)


def tabu(walk: Walk) -> None:
    _begin_epoch(walk)
    chain = walk.chain
    if chain.current is None or chain.stalled >= walk.space.restarts.after:
        value, _ = walk.evaluate(_restart(walk))
        walk.move(value.hardest, value.rank)
        chain.stalled, chain.neighbour, chain.tried = 0, None, 0
        chain.tabu = [_tabu_key(value)]
        return
    value, best = walk.evaluate(mutate(walk.space, chain.current, walk.rng))
    key = _tabu_key(value)
    if value.length >= 0 and key not in chain.tabu and (
            chain.neighbour is None or value.rank > chain.neighbour.length):
        chain.neighbour = Elite(value.hardest, value.rank, key)
    chain.stalled = 0 if best else chain.stalled + 1
    chain.tried += 1
    if chain.tried >= NEIGHBOURS:
        if chain.neighbour is not None:
            walk.move(chain.neighbour.design, chain.neighbour.length)
            chain.tabu = [*chain.tabu, chain.neighbour.key][-TABU:]
        chain.neighbour, chain.tried = None, 0


def _tabu_key(value: Value) -> str:
    """A cluster's key as a tabu list holds it (JSON); a cluster too large to value is
    known by its design."""
    if value.key[0] == "too large":
        return json.dumps(["too large", value.hardest.to_json()])
    return json.dumps(value.key)


def niche(space: DesignSpace, design: Design) -> str:
    """A start's niche: how many pieces of each kind, how many walls, and the goal piece's
    anchor."""
    goal_anchor = next(anchor for kind, anchor in design.pieces if kind == 0)
    return json.dumps([design.counts(len(space.kinds)), len(design.walls), goal_anchor])


def _pick(walk: Walk) -> Design:
    """The elite of the hardest of :data:`TOURNAMENT` niches drawn."""
    elites = list(walk.chain.elites.values())
    drawn = walk.rng.integers(len(elites), size=TOURNAMENT)
    return max((elites[int(index)] for index in drawn), key=lambda e: e.length).design


def crossed(space: DesignSpace, first: Design, second: Design, rng: np.random.Generator
            ) -> Design | None:
    """``first``'s walls and pieces above a random row, ``second``'s below it (those that
    fit), and ``first``'s goal piece when the child has none; None when that is no
    start."""
    cut = int(rng.integers(1, space.rows))
    child = Design(frozenset(), ())
    upper = [(kind, anchor) for kind, anchor in first.pieces if anchor // space.columns < cut]
    lower = [(kind, anchor) for kind, anchor in second.pieces
             if anchor // space.columns >= cut]
    walls = [w for w in first.walls if w // space.columns < cut] + [
        w for w in second.walls if w // space.columns >= cut]
    for wall in walls:
        grown = Design(child.walls | {wall}, child.pieces)
        child = grown if space.valid(grown, complete=False) else child
    goal_piece = next(piece for piece in first.pieces if piece[0] == 0)
    for piece in [goal_piece, *upper, *lower]:
        grown = Design(child.walls, tuple(sorted({*child.pieces, piece})))
        child = grown if space.valid(grown, complete=False) else child
    return child if space.valid(child) else None


def elites(walk: Walk) -> None:
    chain, rng, space = walk.chain, walk.rng, walk.space
    if len(chain.elites) < TOURNAMENT or rng.random() < FRESH:
        design = random_design(space, rng)
    elif rng.random() < CROSSING:
        first, second = _pick(walk), _pick(walk)
        design = crossed(space, first, second, rng) or mutate(space, first, rng)
    else:
        design = mutate(space, _pick(walk), rng)
    value, _ = walk.evaluate(design)
    if value.length >= 0:
        place = niche(space, value.hardest)
        held = chain.elites.get(place)
        if held is None or value.rank >= held.length:
            chain.elites[place] = Elite(value.hardest, value.rank)


def probe(walk: Walk) -> None:
    """A step of a chain that met only known clusters for long: a random start, where the
    chain goes on from when its cluster is new; :data:`~huarong.puzzles.design_chain.PROBES`
    in a row in known clusters and the space is used up."""
    chain = walk.chain
    value, _ = walk.evaluate(random_design(walk.space, walk.rng))
    if chain.stale == 0:
        walk.move(value.hardest, value.rank)
        chain.stalled = 0
    chain.probes = 0 if chain.stale == 0 else chain.probes + 1
    chain.used_up = chain.probes >= PROBES


METHODS: dict[str, Step] = {"anneal": anneal, "climb": climb, "tabu": tabu,
                            "elites": elites}
"""The methods by name (see the module's description)."""


def run_chain(space: DesignSpace, evaluator: Evaluator, chain: Chain, settings: Settings, *,
              stop: threading.Event, lock: threading.Lock,
              round_seconds: float | None = None) -> Chain:
    """Run ``chain`` until its share of the budget is spent, its target reached, its space
    used up, ``stop`` set or (with ``round_seconds``) this call has run that long;
    ``chain`` is updated in place, each step under ``lock`` (the chain's own: a checkpoint
    takes it to read the chain)."""
    rng = np.random.default_rng()
    rng.bit_generator.state = chain.random
    now = time.monotonic()
    pause = None if round_seconds is None else now + round_seconds
    step = METHODS[settings.method]

    walk = Walk(space, evaluator, chain, settings, rng, now - chain.seconds)
    while walk.spent() < 1 and not stop.is_set() and (
            pause is None or time.monotonic() < pause):
        with lock:
            (probe if walk.stuck() else step)(walk)
            chain.random = rng.bit_generator.state
    return chain
