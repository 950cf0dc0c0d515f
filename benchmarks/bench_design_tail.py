"""Benchmark of how often a design-search chain lands high on Rush Hour 6x6: the distinct
clusters it values at or above each of a few lengths, a run per method (and, for tabu, per
number of changes tried a move) and seed, one chain, a budget of evaluations.

Run: ``python benchmarks/bench_design_tail.py [--target rush|rush-no-walls]
[--variants tabu:8,tabu:16,tabu:32,anneal] [--seeds 3] [--evaluations 40000]
[--lengths 44,46,48,50]``.

Why a proxy: the lengths the issue asks for (56 and more with walls, Fogleman's 60) are a
handful of clusters among hundreds of millions, met a few times in a whole benchmark of
``bench_design.py``, too rarely to tell two settings apart in an afternoon.  The clusters of
44-50 moves are met tens of times in 40,000 evaluations (a minute and a half of a core), and
a setting that meets more of them in the same evaluations is one that walks where the
hardest are.  The anchor is Rush Hour's own setting, ``tabu:8``.  The counts
are of every cluster valued (minimal or not); ``best`` is the run's answer (minimal only).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from unittest import mock

from rich.console import Console
from rich.table import Table

from bench_design import rush_no_walls_targets, rush_targets
from huarong.puzzles import design_methods
from huarong.puzzles.design_search import Budget, design

SPACES = {name: make for name, make, *_ in (*rush_targets(), *rush_no_walls_targets())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", choices=sorted(SPACES), default="rush")
    parser.add_argument("--variants", default="tabu:8,tabu:16,tabu:32,anneal",
                        help="methods, tabu's with the changes it tries a move (METHOD[:N])")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--evaluations", type=int, default=40_000)
    parser.add_argument("--lengths", default="44,46,48,50")
    arguments = parser.parse_args()
    lengths = [int(length) for length in arguments.lengths.split(",")]
    runs = Table(title=f"{arguments.target}: clusters valued at the top, one chain, "
                       f"{arguments.evaluations:,} evaluations a run")
    for column in ("variant", "seed", "best", "clusters valued",
                   *(f">= {length}" for length in lengths), "CPU s"):
        runs.add_column(column, justify="left" if column == "variant" else "right")
    totals: dict[str, list[int]] = defaultdict(lambda: [0] * len(lengths))
    for variant in arguments.variants.split(","):
        method, _, tried = variant.partition(":")
        neighbours = int(tried) if tried else design_methods.NEIGHBOURS
        for seed in range(1, arguments.seeds + 1):
            cpu = time.process_time()
            with mock.patch.object(design_methods, "NEIGHBOURS", neighbours):
                result = design(SPACES[arguments.target](),
                                Budget(evaluations=arguments.evaluations), seed=seed, chains=1,
                                method=method)
            cpu = time.process_time() - cpu
            valued = [value.length for value in result.evaluator.values.values()]
            counts = [sum(length >= least for length in valued) for least in lengths]
            totals[variant] = [t + c for t, c in zip(totals[variant], counts, strict=True)]
            best = result.rows[0].value.length if result.rows else -1
            runs.add_row(variant, str(seed), str(best), f"{len(valued):,}",
                         *(str(count) for count in counts), f"{cpu:.0f}")
            Console(stderr=True).print(f"{variant} seed {seed}: best {best}, {counts}")
    Console(width=160).print(runs)
    summary = Table(title="all seeds together (the anchor: tabu:8)")
    for column in ("variant", *(f">= {length}" for length in lengths)):
        summary.add_column(column, justify="left" if column == "variant" else "right")
    for variant, counts in totals.items():
        summary.add_row(variant, *(str(count) for count in counts))
    Console(width=160).print(summary)


if __name__ == "__main__":
    main()
