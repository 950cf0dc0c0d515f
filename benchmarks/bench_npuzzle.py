"""Benchmark of ``huarong.npuzzle`` against the fastest Python peer available from PyPI.

Run: ``python benchmarks/bench_npuzzle.py [--instances 20] [--seed 2024]``.  The peer is
``slidingpuzzle`` (pure Python); when it is not installed its rows say so and are skipped.
Timings are wall-clock on this machine, after compilation and pattern-database loading
("warm"); the first-use pattern-database build is timed separately.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from huarong import npuzzle
from huarong.npuzzle import Board

EIGHT_31 = "8 6 7 2 5 4 3 0 1"
FIFTEEN_45 = "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15"
FIFTEEN_GOAL = Board(4, 4, tuple(range(16)))


def best_of(repeats: int, action: Callable[[], Any]) -> tuple[float, Any]:
    """Smallest wall time of ``repeats`` runs and the last run's value."""
    best = float("inf")
    value = None
    for _ in range(repeats):
        began = time.perf_counter()
        value = action()
        best = min(best, time.perf_counter() - began)
    return best, value


def peer_eight(board: Board) -> tuple[float, int] | None:
    try:
        import slidingpuzzle  # type: ignore[import-untyped]
    except ImportError:
        return None
    rows = [list(board.tiles[r * 3:(r + 1) * 3]) for r in range(3)]
    seconds, result = best_of(3, lambda: slidingpuzzle.search(
        slidingpuzzle.from_rows(*rows), "a*", heuristic=slidingpuzzle.manhattan_distance))
    return seconds, len(result.solution)


def random_fifteen(count: int, seed: int) -> list[Board]:
    """Uniformly random solvable boards: shuffle, keep the solvable half."""
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        tiles = list(range(16))
        rng.shuffle(tiles)
        board = Board(4, 4, tuple(tiles))
        if npuzzle.is_solvable(board, FIFTEEN_GOAL):
            boards.append(board)
    return boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2024)
    options = parser.parse_args()
    console = Console()

    table = Table(title="huarong npuzzle benchmark (wall-clock, warm)")
    for heading in ("instance", "solver", "steps", "nodes", "time"):
        table.add_column(heading, justify="left" if heading in ("instance", "solver")
                         else "right")

    eight = Board.parse(EIGHT_31)
    eight_goal = Board.solved(3, 3)
    ours: dict[str, float] = {}
    for algorithm in ("astar-manhattan", "astar-linear", "idastar", "bibfs", "bfs"):
        npuzzle.solve(eight, eight_goal, algorithm)
        seconds, result = best_of(5, functools.partial(npuzzle.solve, eight, eight_goal,
                                                       algorithm))
        ours[algorithm] = seconds
        table.add_row("3x3, 31 moves", f"huarong {algorithm}", str(result.steps),
                      f"{result.nodes_expanded:,}", f"{seconds * 1000:.2f} ms")
    peer = peer_eight(eight)
    if peer is None:
        table.add_row("3x3, 31 moves", "slidingpuzzle a* (Manhattan)", "-", "-",
                      "not installed: skipped")
    else:
        peer_seconds, peer_steps = peer
        table.add_row("3x3, 31 moves", "slidingpuzzle a* (Manhattan)", str(peer_steps), "-",
                      f"{peer_seconds * 1000:.1f} ms")
        for algorithm in ("astar-manhattan", "astar-linear"):
            table.add_row("", f"speed-up of huarong {algorithm}", "", "",
                          f"{peer_seconds / ours[algorithm]:,.0f}x")

    began = time.perf_counter()
    npuzzle.pattern_database(FIFTEEN_GOAL, progress=None)
    table.add_row("4x4 pattern databases (6-6-3)", "load or first build", "", "",
                  f"{time.perf_counter() - began:.2f} s")

    fifteen = Board.parse(FIFTEEN_45)
    npuzzle.solve(fifteen, FIFTEEN_GOAL, "pdb")
    seconds, result = best_of(3, lambda: npuzzle.solve(fifteen, FIFTEEN_GOAL, "pdb"))
    table.add_row("4x4, 45 moves", "huarong pdb (IDA*)", str(result.steps),
                  f"{result.nodes_expanded:,}", f"{seconds:.3f} s")
    table.add_row("4x4, 45 moves", "slidingpuzzle", "-", "-",
                  "not run: its A*/IDA* would take hours")

    times = []
    for index, board in enumerate(random_fifteen(options.instances, options.seed)):
        began = time.perf_counter()
        result = npuzzle.solve(board, FIFTEEN_GOAL, "pdb")
        elapsed = time.perf_counter() - began
        times.append(elapsed)
        table.add_row(f"4x4 random #{index + 1}: {board.line()}", "huarong pdb (IDA*)",
                      str(result.steps), f"{result.nodes_expanded:,}", f"{elapsed:.3f} s")
    table.add_row(f"4x4 random x{len(times)} (seed {options.seed})", "median / max", "", "",
                  f"{statistics.median(times):.3f} s / {max(times):.3f} s")
    console.print(table)


if __name__ == "__main__":
    main()
