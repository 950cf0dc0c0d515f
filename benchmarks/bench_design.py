"""Benchmark of the design search (``huarong puzzle design``,
``huarong.puzzles.design_search``) on truths known by enumeration, each row beside its
anchor.

Run: ``python benchmarks/bench_design.py [--cases rush,rush-no-walls,bickford-7,bickford-9]
[--seeds 5] [--budget SECONDS] [--threads N]``.  Each case runs once per seed (seeds 1 to
``--seeds``) with ``--threads`` chains (default: every core) for its budget (the issue's:
10 minutes for Rush Hour, 5 for Bickford's records; ``--budget`` overrides all), and prints:
the best hardest length found beside the truth, the seconds to first reach that best, the
evaluations a second and the share of the wall time the engine's cluster searches took
(all threads together, so it may pass 100 % on several threads).

Anchors (the truths, each from an exhaustive search):

- ``rush``: Rush Hour 6x6 with walls, M. Fogleman's hardest (60 moves; his database);
  target: every seed at least 50 within 10 minutes, 60 in at least one;
- ``rush-no-walls``: without walls, 51 moves (``huarong puzzle search --preset rush-hour
  --max-walls 0``); target: every seed at least 45 within 10 minutes;
- ``bickford-7``, ``bickford-9``: the pieces of N. Bickford's 4x4 records with 7 and 9 pieces
  (the catalogue's), 62 and 132 moves; target: reached in at least 3 of 5 seeds within 5
  minutes.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from huarong.puzzles import load_puzzle
from huarong.puzzles.design import DesignSpace
from huarong.puzzles.design_search import Budget, design
from huarong.puzzles.design_spaces import rush_hour_space, space_of_puzzle

CASES: dict[str, tuple[Callable[[], DesignSpace], int, float]] = {
    "rush": (rush_hour_space, 60, 600.0),
    "rush-no-walls": (lambda: rush_hour_space(walls=(0, 0)), 51, 600.0),
    "bickford-7": (lambda: space_of_puzzle(load_puzzle("bickford-4x4-7")), 62, 300.0),
    "bickford-9": (lambda: space_of_puzzle(load_puzzle("bickford-4x4-9")), 132, 300.0),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds a run (default: each case's)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    arguments = parser.parse_args()
    table = Table(title="design search: the best found beside the truth")
    for name in ("case", "seed", "best", "truth", "reached at s", "budget s",
                 "evaluations/s", "cluster searches", "clusters"):
        table.add_column(name, justify="left" if name == "case" else "right")
    for case in arguments.cases.split(","):
        make, truth, seconds = CASES[case]
        seconds = arguments.budget or seconds
        for seed in range(1, arguments.seeds + 1):
            result = design(make(), Budget(seconds=seconds), seed=seed,
                            chains=arguments.threads)
            best = result.rows[0] if result.rows else None
            table.add_row(case, str(seed), "-" if best is None else str(best.value.length),
                          str(truth), "-" if best is None else f"{best.seconds:.0f}",
                          f"{seconds:.0f}", f"{result.evaluations / result.seconds:.1f}",
                          f"{100 * result.evaluator.search_seconds / result.seconds:.0f} %",
                          f"{result.clusters:,}")
            Console(stderr=True).print(f"{case} seed {seed}: best "
                                       f"{'-' if best is None else best.value.length}")
    Console(width=150).print(table)


if __name__ == "__main__":
    main()
