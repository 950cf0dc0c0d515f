"""Benchmark of the difficulty model (``huarong.puzzles.difficulty``): the features and the
grade of a start, from its notation to the answer (the cluster's search included), beside
the anchor of each row, an optimal solution of the same start (``solve``).

Run: ``python benchmarks/bench_difficulty.py [--repeats 20]`` (a few seconds).  Timings are
wall-clock, best of ``--repeats``, after compilation ("warm"); the two run in turns.  Rows:

- a 6x6 Rush Hour start: the study's puzzle prb10166 (15 moves, a cluster of 15,112 states),
  and Fogleman's hardest start (60 moves, 2,332 states); target <= 50 ms;
- 横刀立马 (1A9BF0C00: 81 steps, a group of 25,955 layouts); target <= 200 ms.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from huarong.puzzles import load_puzzle, solve
from huarong.puzzles.difficulty.model import difficulty
from timing import best_of

ROWS = (
    ("Rush Hour prb10166 (study, 15 moves)",
     "rush:BBBoooooCDooAACDoooooDoEFGHHIEFGooIE", 0.050),
    ("Rush Hour, Fogleman's hardest (60 moves)",
     "rush:IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM", 0.050),
    ("横刀立马 1A9BF0C00 (81 steps)", "1A9BF0C00", 0.200),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=20)
    repeats = parser.parse_args().repeats
    table = Table(title=f"difficulty: features and grade, best of {repeats} (warm)")
    for column in ("start", "states", "grade", "difficulty", "anchor: solve", "target",
                   "met"):
        table.add_column(column, justify="left" if column == "start" else "right")
    for name, start, target in ROWS:
        difficulty(load_puzzle(start))  # compiles the kernels
        ours, found = best_of(repeats, lambda start=start: difficulty(load_puzzle(start)))
        anchor, _ = best_of(repeats, lambda start=start: solve(load_puzzle(start)))
        table.add_row(name, f"{found.features.cluster_size:,}",
                      f"{found.grade} {found.grade_name}", f"{ours * 1000:.1f} ms",
                      f"{anchor * 1000:.1f} ms", f"<= {target * 1000:.0f} ms",
                      "yes" if ours <= target else "no")
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
