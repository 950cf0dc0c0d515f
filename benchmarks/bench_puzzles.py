"""Benchmark of the general sliding-block engine (``huarong.puzzles``), each row beside its
anchor.

Run: ``python benchmarks/bench_puzzles.py [--repeats 30] [--big]``.  Timings are
wall-clock, best of ``--repeats``, after compilation ("warm"); an engine and its anchor run in
turns.  Rows:

- 横刀立马 (1A9BF0C00, 25,955 layouts, 81 steps): the cluster search and the state graph of
  the general engine (step metric) beside the Klotski engine's group search
  (``group_search.bfs``) and graph (``klotski_graph``); the target is within 2x;
- Fogleman's hardest Rush Hour start (60 moves, a cluster of 2,332): ``solve``, target
  <= 5 ms;
- the 8-puzzle as eight distinct unit pieces (181,440 states, an independent count);
- a big cluster: six distinct unit pieces on an empty 5x5 board, 25!/19! = 127,512,000
  states (with ``--big``; minutes), else five pieces (6,375,600) and the peak memory, from
  which the big run is estimated.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from huarong.puzzles import cluster_codes, cluster_summary, load_puzzle, solve, state_graph
from timing import best_of

KLOTSKI = "1A9BF0C00"
RUSH_HARDEST = "rush:IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM"
EIGHT = "ABC/DEF/GH."


def best_of_pair(repeats: int, ours: Callable[[], Any], anchor: Callable[[], Any]
                 ) -> tuple[float, Any, float, Any]:
    """Like :func:`best_of` for two actions run in turns, so that both see the same load
    (this machine is shared)."""
    mine, theirs = [], []
    for _ in range(repeats):
        mine.append(best_of(1, ours))
        theirs.append(best_of(1, anchor))
    return min(mine)[0], mine[-1][1], min(theirs)[0], theirs[-1][1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.2f} ms"


def peak_gb() -> float:
    """The process's peak resident memory so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def units(count: int) -> str:
    """Grid text: ``count`` distinct unit pieces first in reading order on a 5x5 board."""
    cells = "ABCDEF"[:count] + "." * (25 - count)
    return "/".join(cells[row:row + 5] for row in range(0, 25, 5))


def klotski_rows(table: Table, repeats: int) -> None:
    from huarong._kernels import group_search
    from huarong.engine.state_graph import klotski_graph

    puzzle = load_puzzle(KLOTSKI)
    code = np.int64(int(KLOTSKI, 16))

    def klotski_search() -> int:
        boards, _, _, _ = group_search.bfs(code, group_search.EXPLORE_ALL, np.int64(0),
                                           np.int64(1 << 12))
        return int(boards.shape[0])

    for action in (lambda: cluster_codes(puzzle), klotski_search, lambda: state_graph(puzzle),
                   lambda: klotski_graph(int(code))):
        action()  # compile
    ours, states, anchor, expected = best_of_pair(repeats, lambda: cluster_codes(puzzle),
                                                  klotski_search)
    table.add_row("横刀立马 cluster search (step)", f"{len(states):,} states", ms(ours),
                  f"Klotski group_search.bfs {ms(anchor)} ({expected:,})",
                  f"{ours / anchor:.2f}x (target <= 2x)")
    ours, graph, anchor, expected_graph = best_of_pair(
        repeats, lambda: state_graph(puzzle), lambda: klotski_graph(int(code)))
    table.add_row("横刀立马 state graph", f"{graph.size:,} states, {graph.edge_count:,} moves",
                  ms(ours), f"klotski_graph {ms(anchor)} ({expected_graph.edge_count:,} moves)",
                  f"{ours / anchor:.2f}x")
    ours, summary = best_of(repeats, lambda: cluster_summary(puzzle))
    solution = solve(puzzle)
    table.add_row("横刀立马 group (+ distances to goals)",
                  f"{summary.solved:,} solved, hardest {summary.hardest_length}", ms(ours),
                  f"solve: {solution.length if solution else None} steps (literature 81)", "")


def rush_rows(table: Table, repeats: int) -> None:
    puzzle = load_puzzle(RUSH_HARDEST)
    solve(puzzle)
    seconds, solution = best_of(repeats, lambda: solve(puzzle))
    loaded, _ = best_of(repeats, lambda: solve(load_puzzle(RUSH_HARDEST)))
    states = cluster_summary(puzzle).states
    table.add_row("Rush Hour hardest: solve", f"{solution.length} moves, cluster {states:,}",
                  ms(seconds), "Fogleman: 60 moves, 2,332 states",
                  f"target <= 5 ms; with parsing {ms(loaded)}")


def eight_rows(table: Table, repeats: int) -> None:
    puzzle = load_puzzle(EIGHT, EIGHT, metric="unit", distinct="ABCDEFGH")
    cluster_summary(puzzle)
    seconds, summary = best_of(repeats, lambda: cluster_summary(puzzle))
    table.add_row("8-puzzle: group", f"{summary.states:,} states, hardest "
                  f"{summary.hardest_length}", ms(seconds), "9!/2 = 181,440; 31 moves", "")


def big_rows(table: Table, big: bool) -> None:
    count = 6 if big else 5
    puzzle = load_puzzle(units(count), metric="unit", distinct="ABCDEF"[:count])
    cluster_codes(load_puzzle(units(2), metric="unit", distinct="AB"))
    before = peak_gb()
    shown = time.monotonic()

    def progress(phase: str, done: int, total: int) -> None:
        nonlocal shown
        if time.monotonic() - shown > 10:
            shown = time.monotonic()
            print(f"{phase}: {done:,}/{total:,}", file=sys.stderr)

    began = time.perf_counter()
    states = cluster_codes(puzzle, progress=progress)
    seconds = time.perf_counter() - began
    expected = 1
    for n in range(25, 25 - count, -1):
        expected *= n
    table.add_row(f"{count} distinct units on 5x5: cluster", f"{len(states):,} states",
                  f"{seconds:,.1f} s", f"25!/{25 - count}! = {expected:,}",
                  f"peak {max(peak_gb(), before):.2f} GB; "
                  f"{seconds / len(states) * 1e9:,.0f} ns a state")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--big", action="store_true",
                        help="search the 127,512,000-state cluster (minutes, ~6 GB)")
    args = parser.parse_args()
    table = Table(title="huarong.puzzles")
    for column in ("case", "result", "time", "anchor", "ratio / note"):
        table.add_column(column)
    klotski_rows(table, args.repeats)
    rush_rows(table, args.repeats)
    eight_rows(table, args.repeats)
    big_rows(table, args.big)
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
