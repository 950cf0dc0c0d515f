"""Benchmark of the design search (``huarong puzzle design``,
``huarong.puzzles.design_search``) on truths known by enumeration, each row beside its
anchor.

Run: ``python benchmarks/bench_design.py [--cases rush,rush-no-walls,bickford-7,bickford-9,
klotski-classes] [--methods anneal,climb] [--seeds 5] [--first-seed 1] [--budget SECONDS]
[--threads N] [--classes 20]``. Each case runs once per method and seed (``--seeds`` seeds
from ``--first-seed``) with ``--threads`` chains (default: every core) for its budget (the
issue's: 10 minutes for Rush Hour, 5 for Bickford's records, 2 for a Klotski class;
``--budget`` overrides all), and stops once it reaches the truth. It prints: the best
hardest length found beside the truth, the seconds to first reach that best, the evaluations
a second and the share of the wall time the engine's cluster searches took (all threads
together, so it may pass 100 % on several threads); then, per case and method, how many
seeds reached the truth.

Anchors (the truths, each from an exhaustive search):

- ``rush``: Rush Hour 6x6 with walls, M. Fogleman's hardest (60 moves; his database);
  target: every seed at least 50 within 10 minutes, 60 in at least one;
- ``rush-no-walls``: without walls, 51 moves (``huarong puzzle search --preset rush-hour
  --max-walls 0``); target: every seed at least 45 within 10 minutes;
- ``bickford-7``, ``bickford-9``: the pieces of N. Bickford's 4x4 records with 7 and 9 pieces
  (the catalogue's), 62 and 132 moves; target: reached in at least 3 of 5 seeds within 5
  minutes;
- ``klotski-classes``: the ``--classes`` jiang-bing-style classes of Klotski with the longest
  minimum steps (the database's figures, computed here first: about a minute), each class's
  pieces on the 5x4 board with ``--no-minimal``; target: each class's longest minimum
  reached in at least 4 of 5 seeds within 2 minutes.
"""

from __future__ import annotations

import argparse
import os
from collections import defaultdict
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.table import Table

from huarong.puzzles import load_puzzle
from huarong.puzzles.design import DesignSpace
from huarong.puzzles.design_search import METHODS, Budget, design
from huarong.puzzles.design_spaces import rush_hour_space, space_of, space_of_puzzle

Case = tuple[str, Callable[[], DesignSpace], int, float, bool]
"""(name, its space, the truth, the issue's budget in seconds, minimal starts only)."""

CASES: dict[str, Case] = {
    "rush": ("rush", rush_hour_space, 60, 600.0, True),
    "rush-no-walls": ("rush-no-walls", lambda: rush_hour_space(walls=(0, 0)), 51, 600.0,
                      True),
    "bickford-7": ("bickford-7", lambda: space_of_puzzle(load_puzzle("bickford-4x4-7")), 62,
                   300.0, True),
    "bickford-9": ("bickford-9", lambda: space_of_puzzle(load_puzzle("bickford-4x4-9")),
                   132, 300.0, True),
}


def klotski_classes(count: int) -> Iterator[Case]:
    """The ``count`` Klotski classes (jiang, bing, style) of the longest minimum steps, by
    the database's own computation (every layout's minimum)."""
    import numpy as np

    from huarong.space import cases

    Console(stderr=True).print("klotski-classes: every layout's minimum steps ...")
    classes = cases.classes()
    steps, _ = cases.min_steps_all()
    longest = np.full(1 << 12, -1, dtype=np.int64)
    np.maximum.at(longest, classes.key(), steps)
    for key in np.argsort(-longest, kind="stable")[:count].tolist():
        jiang, bing, style = key >> 8, (key >> 4) & 15, key & 15
        pieces = ",".join(["2x2"] + [f"{shape}*{n}" for shape, n in (
            ("2x1", jiang - style), ("1x2", style), ("1x1", bing)) if n])
        yield (f"klotski {jiang}-{bing}-{style}",
               lambda pieces=pieces: space_of("5x4", pieces, "2x2@3,1"),
               int(longest[key]), 120.0, False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--methods", default="anneal",
                        help=f"comma-separated, of {', '.join(METHODS)}")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=1,
                        help="the seeds run are this one and the next --seeds - 1")
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds a run (default: each case's)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--classes", type=int, default=20,
                        help="klotski-classes: how many of the hardest classes")
    arguments = parser.parse_args()
    chosen: list[Case] = []
    for name in arguments.cases.split(","):
        chosen.extend(klotski_classes(arguments.classes) if name == "klotski-classes"
                      else [CASES[name]])
    table = Table(title="design search: the best found beside the truth")
    for column in ("case", "method", "seed", "best", "truth", "reached at s", "budget s",
                   "evaluations/s", "cluster searches", "clusters"):
        table.add_column(column, justify="left" if column in ("case", "method") else "right")
    reached: dict[tuple[str, str], int] = defaultdict(int)
    for name, make, truth, seconds, minimal in chosen:
        seconds = arguments.budget or seconds
        for method in arguments.methods.split(","):
            for seed in range(arguments.first_seed, arguments.first_seed + arguments.seeds):
                result = design(make(), Budget(seconds=seconds), seed=seed,
                                chains=arguments.threads, minimal=minimal, method=method,
                                target=truth)
                best = result.rows[0] if result.rows else None
                reached[name, method] += best is not None and best.value.length >= truth
                wall = max(result.seconds, 1e-9)
                table.add_row(name, method, str(seed),
                              "-" if best is None else str(best.value.length), str(truth),
                              "-" if best is None else f"{best.seconds:.0f}",
                              f"{seconds:.0f}", f"{result.evaluations / wall:.1f}",
                              f"{100 * result.evaluator.search_seconds / wall:.0f} %",
                              f"{result.clusters:,}")
                Console(stderr=True).print(f"{name} {method} seed {seed}: best "
                                           f"{'-' if best is None else best.value.length}"
                                           f" of {truth}")
    Console(width=160).print(table)
    summary = Table(title="seeds that reached the truth")
    for column in ("case", "method", "reached"):
        summary.add_column(column)
    for (name, method), count in reached.items():
        summary.add_row(name, method, f"{count} of {arguments.seeds}")
    Console(width=160).print(summary)


if __name__ == "__main__":
    main()
