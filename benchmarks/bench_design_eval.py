"""Benchmark of the design search's evaluation of Rush Hour candidates, on one core: the
general engine (the anchor: ``DesignSpace.value``, the path before the lane engine) beside
the lane-coded evaluator (``RushHourSpace.value``, :mod:`huarong.puzzles.lanes`).

Run: ``python benchmarks/bench_design_eval.py [--cases 6x6,7x7] [--evaluations 1500]
[--seed 1] [--max-states 1000000] [--methods climb,tabu]``.  Per case, two tables, each
path beside the other:

- the evaluator alone on the same candidates (those one chain of the lane path's search
  below values, in its order; a design met again is answered from the evaluator's memory
  on both paths, a cluster met again in another design is searched again by the engine
  and answered from memory by the lane search): CPU seconds, candidates a second, the
  speed-up over the engine, the clusters valued (the rest past ``--max-states``, or on 7x7
  boards the engine cannot code: 63 bits);
- one chain of the design search (each of ``--methods``: ``climb`` and ``tabu``, Rush
  Hour's default, unless told; minimal starts only, one thread) for ``--evaluations``
  candidates: CPU seconds, candidates a second, the share of the wall time in cluster
  searches, the clusters valued and the best length.  The chains of the two paths part where
  the engine cannot code a board.

CPU seconds (the process's: one chain is one core) are steadier than the wall clock on a
machine other work shares.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from dataclasses import dataclass
from unittest import mock

from rich.console import Console
from rich.table import Table

from huarong.puzzles.design import Design, DesignSpace, Value
from huarong.puzzles.design_evaluate import Evaluator
from huarong.puzzles.design_search import Budget, design
from huarong.puzzles.presets.rush_hour_design import RushHourSpace, rush_hour_space

SIZES = {"6x6": 6, "7x7": 7, "8x8": 8}


@dataclass(frozen=True)
class EngineRushHour(RushHourSpace):
    """Rush Hour valued by the general engine, as before the lane engine."""

    def value(self, design: Design, limit: int) -> Value:
        return DesignSpace.value(self, design, limit)


def _valued(evaluator: Evaluator) -> int:
    return sum(1 for key in evaluator.values if key[0] != "too large")


def candidates(space: RushHourSpace, count: int, seed: int, max_states: int) -> list[Design]:
    """The candidates one chain of the design search values (climb, minimal starts only),
    in its order, a design met again each time (the evaluator's own calls recorded)."""
    met: list[Design] = []
    valued = Evaluator.value

    def recorded(evaluator: Evaluator, candidate: Design) -> tuple[Value, bool]:
        met.append(candidate)
        return valued(evaluator, candidate)

    with mock.patch.object(Evaluator, "value", recorded):
        design(space, Budget(evaluations=count), seed=seed, chains=1, method="climb",
               max_states=max_states)
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default="6x6,7x7")
    parser.add_argument("--evaluations", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-states", type=int, default=1_000_000)
    parser.add_argument("--methods", default="climb,tabu",
                        help="the design search's methods, comma-separated")
    arguments = parser.parse_args()
    evaluators = Table(title=f"Rush Hour evaluator, one core: the same {arguments.evaluations:,} "
                             f"candidates (a search chain's, seed {arguments.seed})")
    searches = Table(title=f"Rush Hour design search, one core, {arguments.evaluations:,} "
                           f"candidates a run (seed {arguments.seed})")
    for column in ("case", "path", "CPU seconds", "candidates/s", "speed-up",
                   "clusters valued"):
        evaluators.add_column(column, justify="left" if column in ("case", "path") else "right")
    for column in ("case", "method", "path", "CPU seconds", "candidates/s", "speed-up",
                   "in cluster searches", "clusters valued", "best"):
        searches.add_column(column, justify="right" if column not in ("case", "method", "path")
                            else "left")
    for case in arguments.cases.split(","):
        size = SIZES[case]
        lanes = rush_hour_space(size, size)
        engine = EngineRushHour(**{field.name: getattr(lanes, field.name)
                                   for field in dataclasses.fields(lanes)})
        design(lanes, Budget(evaluations=20), seed=arguments.seed, chains=1,
               method="climb")  # compiles the kernels outside the timing
        chosen = candidates(lanes, arguments.evaluations, arguments.seed, arguments.max_states)
        anchor = 0.0
        for path, space in (("engine (anchor)", engine), ("lanes", lanes)):
            evaluator = Evaluator(space, arguments.max_states)
            cpu = time.process_time()
            for candidate in chosen:
                evaluator.value(candidate)
            cpu = time.process_time() - cpu
            rate = len(chosen) / cpu
            anchor = anchor or rate
            evaluators.add_row(case, path, f"{cpu:.1f}", f"{rate:,.0f}", f"{rate / anchor:.1f}x",
                               f"{_valued(evaluator):,}")
            Console(stderr=True).print(f"{case} {path} evaluator: {cpu:.1f} s")
        for method in arguments.methods.split(","):
            anchor = 0.0
            for path, space in (("engine (anchor)", engine), ("lanes", lanes)):
                began, cpu = time.perf_counter(), time.process_time()
                result = design(space, Budget(evaluations=arguments.evaluations),
                                seed=arguments.seed, chains=1, method=method,
                                max_states=arguments.max_states)
                wall, cpu = time.perf_counter() - began, time.process_time() - cpu
                rate = result.evaluations / cpu
                anchor = anchor or rate
                best = result.rows[0].value.length if result.rows else None
                searches.add_row(case, method, path, f"{cpu:.1f}", f"{rate:,.0f}",
                                 f"{rate / anchor:.1f}x",
                                 f"{100 * result.evaluator.search_seconds / wall:.0f} %",
                                 f"{_valued(result.evaluator):,}",
                                 "-" if best is None else str(best))
                Console(stderr=True).print(f"{case} {method} {path} search: {cpu:.1f} s")
    Console(width=160).print(evaluators)
    Console(width=160).print(searches)


if __name__ == "__main__":
    main()
