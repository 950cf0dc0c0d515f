"""Benchmark of the design search's evaluation of Rush Hour candidates, on one core: the
general engine (the anchor: ``DesignSpace.value``, the path before the lane engine) beside
the lane-coded evaluator (``RushHourSpace.value``, :mod:`huarong.puzzles.lanes`).

Run: ``python benchmarks/bench_design_eval.py [--cases 6x6,7x7] [--evaluations 1500]
[--seed 1]``.  Each case runs one chain of the design search (``climb``, minimal starts
only, one thread) for ``--evaluations`` candidates, once per path, from the same seed.  On
6x6 both paths value every candidate alike, so both chains walk the same candidates; on 7x7
the engine cannot code heavy boards (63 bits) and leaves them unvalued, so the chains part.
The times are the process's CPU seconds (one chain: one core), steadier than the wall
clock on a machine other work shares.  It prints, per case and path: the CPU seconds, the
candidates a second of the whole search, the candidates a second of the evaluator alone
(candidates over the CPU seconds in cluster searches: the CPU seconds times their share of
the wall time), the share of the wall time in cluster searches, the candidates valued (the rest
past ``--max-states`` or uncodable) and the best length found.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default="6x6,7x7")
    parser.add_argument("--evaluations", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-states", type=int, default=1_000_000)
    arguments = parser.parse_args()
    table = Table(title=f"Rush Hour design evaluation, one core, {arguments.evaluations:,} "
                        f"candidates a run (climb, seed {arguments.seed})")
    for column in ("case", "path", "CPU seconds", "candidates/s", "evaluator candidates/s",
                   "in cluster searches", "clusters valued", "best"):
        table.add_column(column, justify="left" if column in ("case", "path") else "right")
    for case in arguments.cases.split(","):
        size = SIZES[case]
        lanes = rush_hour_space(size, size)
        engine = EngineRushHour(**{name: getattr(lanes, name) for name in
                                   lanes.__dataclass_fields__})
        warm = design(lanes, Budget(evaluations=20), seed=arguments.seed, chains=1,
                      method="climb")  # compiles the kernels outside the timing
        del warm
        for path, space in (("engine (anchor)", engine), ("lanes", lanes)):
            began, cpu = time.perf_counter(), time.process_time()
            result = design(space, Budget(evaluations=arguments.evaluations),
                            seed=arguments.seed, chains=1, method="climb",
                            max_states=arguments.max_states)
            wall, cpu = time.perf_counter() - began, time.process_time() - cpu
            searches = max(result.evaluator.search_seconds, 1e-9)
            best = result.rows[0].value.length if result.rows else None
            table.add_row(case, path, f"{cpu:.1f}", f"{result.evaluations / cpu:,.0f}",
                          f"{result.evaluations / (cpu * searches / wall):,.0f}",
                          f"{100 * searches / wall:.0f} %",
                          f"{_valued(result.evaluator):,}", "-" if best is None else str(best))
            Console(stderr=True).print(f"{case} {path}: {cpu:.1f} s")
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
