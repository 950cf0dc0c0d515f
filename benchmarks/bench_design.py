"""Benchmark of the design search (``huarong puzzle design``,
``huarong.puzzles.design_search``): each method on each target whose truth is known by
enumeration, several seeds, each row beside its anchor (the truth).

Run: ``python benchmarks/bench_design.py [--targets rush,rush-no-walls,bickford,klotski]
[--methods anneal,climb,tabu,elites] [--seeds 5] [--first-seed 1] [--minutes M |
--evaluations N] [--threads 1] [--classes 40] [--class-seed 1]``.  Each target runs once per
method and seed with ``--threads`` chains for its budget (the issue's: 10 minutes for Rush
Hour, 2 for a Bickford record, 30 s for a Klotski class; ``--minutes`` sets every run's, or
``--evaluations`` a number of evaluations, the same search whatever else the machine runs)
and stops once it reaches the truth.  It prints a row per run (target, method, seed, best,
truth, seconds and evaluations to first reach that best, evaluations a second, the share of
the wall time in the engine's cluster searches), then per target and method the seeds that
reached the truth and the mean best.

Targets (the truths, each from an exhaustive search):

- ``rush``: Rush Hour 6x6 with walls, M. Fogleman's hardest, 60 moves (his database);
- ``rush-no-walls``: without walls, 51 moves (``huarong puzzle search --preset rush-hour
  --max-walls 0``);
- ``bickford``: each of N. Bickford's 4x4 records in the catalogue (``bickford-4x4-2`` to
  ``-15``), from its own pieces: its length (his exhaustive SBPSearcher);
- ``klotski``: ``--classes`` Klotski classes (jiang, bing, style) drawn at random with
  ``--class-seed`` from all those of the database, each class's pieces on the 5x4 board with
  ``--no-minimal``: its longest minimum steps (the database's figures, computed here first:
  about a minute).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.table import Table

from huarong.puzzles import load_puzzle, solve
from huarong.puzzles.design import DesignSpace
from huarong.puzzles.design_search import METHODS, Budget, design
from huarong.puzzles.design_spaces import rush_hour_space, space_of, space_of_puzzle

Target = tuple[str, Callable[[], DesignSpace], int, float, bool]
"""(name, its space, the truth, the issue's budget in seconds, minimal starts only)."""

BICKFORD = [f"bickford-4x4-{pieces}" for pieces in range(2, 16)]


def rush_targets() -> Iterator[Target]:
    yield "rush", rush_hour_space, 60, 600.0, True


def rush_no_walls_targets() -> Iterator[Target]:
    yield "rush-no-walls", lambda: rush_hour_space(walls=(0, 0)), 51, 600.0, True


def bickford_targets() -> Iterator[Target]:
    for name in BICKFORD:
        puzzle = load_puzzle(name)
        solution = solve(puzzle)
        assert solution is not None
        yield (name, lambda puzzle=puzzle: space_of_puzzle(puzzle), solution.length, 120.0,
               True)


def klotski_targets(count: int, seed: int) -> Iterator[Target]:
    """``count`` Klotski classes (jiang, bing, style) drawn with ``seed``, each with its
    longest minimum steps by the database's own computation (every layout's minimum)."""
    import numpy as np

    from huarong.space import cases

    Console(stderr=True).print("klotski: every layout's minimum steps ...")
    classes = cases.classes()
    steps, _ = cases.min_steps_all()
    longest = np.full(1 << 12, -1, dtype=np.int64)
    np.maximum.at(longest, classes.key(), steps)
    present = np.flatnonzero(longest >= 0)
    drawn = np.random.default_rng(seed).choice(present, size=min(count, len(present)),
                                               replace=False)
    for key in sorted(drawn.tolist(), key=lambda k: -int(longest[k])):
        jiang, bing, style = key >> 8, (key >> 4) & 15, key & 15
        pieces = ",".join(["2x2"] + [f"{shape}*{n}" for shape, n in (
            ("2x1", jiang - style), ("1x2", style), ("1x1", bing)) if n])
        yield (f"klotski {jiang}-{bing}-{style}",
               lambda pieces=pieces: space_of("5x4", pieces, "2x2@3,1"),
               int(longest[key]), 30.0, False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--targets", default="rush,rush-no-walls,bickford,klotski")
    parser.add_argument("--methods", default=",".join(METHODS),
                        help=f"comma-separated, of {', '.join(METHODS)}")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=1,
                        help="the seeds run are this one and the next --seeds - 1")
    parser.add_argument("--minutes", type=float, default=None,
                        help="minutes a run (default: each target's, the issue's)")
    parser.add_argument("--evaluations", type=int, default=None,
                        help="evaluations a run instead of a time")
    parser.add_argument("--threads", type=int, default=1, help="chains a run")
    parser.add_argument("--classes", type=int, default=40,
                        help="klotski: how many classes, drawn at random")
    parser.add_argument("--class-seed", type=int, default=1,
                        help="klotski: the seed of the draw")
    arguments = parser.parse_args()
    makers: dict[str, Callable[[], Iterator[Target]]] = {
        "rush": rush_targets, "rush-no-walls": rush_no_walls_targets,
        "bickford": bickford_targets,
        "klotski": lambda: klotski_targets(arguments.classes, arguments.class_seed)}
    chosen = [target for name in arguments.targets.split(",") for target in makers[name]()]
    methods = arguments.methods.split(",")
    table = Table(title=f"design search: the best found beside the truth ({arguments.threads} "
                        "chain(s) a run)")
    for column in ("target", "method", "seed", "best", "truth", "time to best s",
                   "evaluation of best", "budget", "evaluations/s", "cluster searches",
                   "clusters"):
        table.add_column(column, justify="left" if column in ("target", "method") else "right")
    reached: dict[tuple[str, str], int] = defaultdict(int)
    bests: dict[tuple[str, str], list[int]] = defaultdict(list)
    for name, make, truth, seconds, minimal in chosen:
        seconds = 60 * arguments.minutes if arguments.minutes else seconds
        budget = (Budget(evaluations=arguments.evaluations) if arguments.evaluations
                  else Budget(seconds=seconds))
        for method in methods:
            for seed in range(arguments.first_seed, arguments.first_seed + arguments.seeds):
                result = design(make(), budget, seed=seed,
                                chains=arguments.threads, minimal=minimal, method=method,
                                target=truth)
                best = result.rows[0] if result.rows else None
                length = -1 if best is None else best.value.length
                reached[name, method] += length >= truth
                bests[name, method].append(length)
                wall = max(result.seconds, 1e-9)
                table.add_row(name, method, str(seed), "-" if best is None else str(length),
                              str(truth), "-" if best is None else f"{best.seconds:.0f}",
                              "-" if best is None else f"{best.evaluation:,}", budget.key(),
                              f"{result.evaluations / wall:.1f}",
                              f"{100 * result.evaluator.search_seconds / wall:.0f} %",
                              f"{result.clusters:,}")
                at = 0.0 if best is None else best.seconds
                Console(stderr=True).print(f"{name} {method} seed {seed}: best {length} of "
                                           f"{truth} at {at:.0f} s, evaluation "
                                           f"{0 if best is None else best.evaluation:,} of "
                                           f"{result.evaluations:,}")
    Console(width=160).print(table)
    summary = Table(title="per target and method")
    for column in ("target", "method", "seeds reaching the truth", "mean best"):
        summary.add_column(column)
    for (name, method), count in reached.items():
        found = bests[name, method]
        summary.add_row(name, method, f"{count} of {len(found)}",
                        f"{sum(found) / len(found):.1f}")
    Console(width=160).print(summary)


if __name__ == "__main__":
    main()
