"""The 15-puzzle at the state of the art: IDA* on the 7-8 additive pattern databases with
reflection (``pdb-7-8``) on Korf's 100 instances, beside the published figure it is measured
against.

Run: ``python benchmarks/bench_15puzzle.py [--instances 100] [--compare 10] [--hardest]``.

* The instances and their optimal lengths (R. E. Korf 1985) are in
  ``korf_15puzzle_instances.txt``; their goal has the blank top-left, so each is turned by
  180 degrees and relabelled (tile t -> 16 - t), which keeps every distance, to use the
  databases of the standard goal ``1 .. 15, 0`` (the ones ``huarong npuzzle pdb build``
  makes).  Every solution is checked against the published optimum.
* Anchor: Felner, Korf & Hanan, "Additive Pattern Database Heuristics" (JAIR 22, 2004),
  7-8 partition with its reflection: about 37,000 nodes and 0.018 s per instance, 1.8 s
  for the 100, in C on 2004 hardware.
* ``--compare N`` also runs the first N instances with ``pdb`` (6-6-3 databases);
  ``--hardest`` solves two of the 15-puzzle's 80-move positions (Brüngger et al. 1999).

Timings are wall-clock searches after the databases are loaded and the kernels compiled.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from huarong import npuzzle
from huarong.npuzzle import Board, SolveResult

INSTANCES = Path(__file__).with_name("korf_15puzzle_instances.txt")
GOAL = Board.solved(4, 4)
HARDEST = ("15 14 8 12 10 11 9 13 2 6 5 1 3 7 4 0",
           "15 11 13 12 14 10 8 9 7 2 5 1 3 6 4 0")
"""Two of the 80-move positions, for the goal with the blank top-left like Korf's."""
ANCHOR_SECONDS = 0.018
ANCHOR_NODES = 37_000


def for_standard_goal(cells: list[int]) -> Board:
    """A position for the goal ``0 1 .. 15`` turned by 180 degrees and relabelled (t -> 16 - t):
    as far from the standard goal ``1 .. 15 0`` as it was from its own."""
    return Board(4, 4, tuple((16 - tile) % 16 for tile in reversed(cells)))


def korf_instances() -> list[tuple[int, Board, int]]:
    """(number, board for the standard goal, optimal length) of Korf's 100 instances."""
    found = []
    for line in INSTANCES.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        number, optimum, *cells = (int(word) for word in line.split())
        found.append((number, for_standard_goal(cells), optimum))
    return found


def run(algorithm: str, instances: list[tuple[int, Board, int]]) -> list[SolveResult]:
    results = []
    for number, board, optimum in instances:
        result = npuzzle.solve(board, GOAL, algorithm)
        if result.steps != optimum:
            raise SystemExit(f"instance {number}: {algorithm} found {result.steps} moves, "
                             f"the optimum is {optimum}")
        results.append(result)
    return results


def row(table: Table, name: str, results: list[SolveResult]) -> None:
    seconds = [r.seconds for r in results]
    nodes = [r.nodes_expanded for r in results]
    table.add_row(name, str(len(results)), "yes", f"{sum(seconds):.3f}",
                  f"{statistics.mean(seconds):.4f}", f"{max(seconds):.3f}",
                  f"{statistics.mean(nodes):,.0f}", f"{max(nodes):,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=100)
    parser.add_argument("--compare", type=int, default=0, metavar="N",
                        help="also run the first N instances with pdb (6-6-3)")
    parser.add_argument("--hardest", action="store_true",
                        help="also solve two 80-move positions")
    options = parser.parse_args()
    console = Console(width=150)
    instances = korf_instances()[:options.instances]

    began = time.perf_counter()
    database = npuzzle.compact_pattern_database(GOAL)
    console.print(f"7-8 databases ready in {time.perf_counter() - began:.1f} s "
                  f"({database.entries:,} bytes; a first build includes the BFS)")

    table = Table(title=f"Korf's 15-puzzle instances, all solved optimally "
                        f"(average optimum {statistics.mean(o for *_, o in instances):.2f})")
    for heading in ("method", "instances", "optimal", "total s", "mean s", "worst s",
                    "mean nodes", "most nodes"):
        table.add_column(heading, justify="left" if heading == "method" else "right")
    row(table, "huarong pdb-7-8 (7-8 + reflection)", run("pdb-7-8", instances))
    if options.compare:
        row(table, "huarong pdb (6-6-3 + reflection)", run("pdb", instances[:options.compare]))
    table.add_row("Felner, Korf & Hanan 2004 (7-8 + reflection, C, 2004 hardware)", "100",
                  "yes", f"{100 * ANCHOR_SECONDS:.1f}", f"{ANCHOR_SECONDS:.4f}", "-",
                  f"~{ANCHOR_NODES:,}", "-")
    console.print(table)

    if options.hardest:
        hardest = Table(title="80-move positions (pdb-7-8; given for the goal 0 1 .. 15)")
        for heading in ("position", "moves", "nodes", "seconds"):
            hardest.add_column(heading, justify="left" if heading == "position" else "right")
        for text in HARDEST:
            board = for_standard_goal([int(word) for word in text.split()])
            result = npuzzle.solve(board, GOAL, "pdb-7-8")
            hardest.add_row(text, str(result.steps), f"{result.nodes_expanded:,}",
                            f"{result.seconds:.2f}")
        console.print(hardest)


if __name__ == "__main__":
    main()
