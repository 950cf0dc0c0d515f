"""Benchmark of ``huarong.npuzzle`` against the fastest Python peer available from PyPI.

Run: ``python benchmarks/bench_npuzzle.py [--instances 20] [--seed 2024] [--large 5]``.  The
peer is ``slidingpuzzle`` (pure Python); when it is not installed its rows say so and are
skipped.  Timings are wall-clock on this machine, after compilation and pattern-database
loading ("warm"); the first-use pattern-database build is timed separately.

The last rows time the line-by-line reduction (``auto`` beyond 4 x 4, not optimal) on
uniformly shuffled 5 x 5, 7 x 7 and 11 x 11 boards, each answer replayed to the goal; beside
its length stands the Manhattan distance, a lower bound on the optimum, for scale.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time

from rich.console import Console
from rich.table import Table

from huarong import npuzzle
from huarong.npuzzle import Board
from timing import best_of

EIGHT_31 = "8 6 7 2 5 4 3 0 1"
FIFTEEN_45 = "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15"
FIFTEEN_GOAL = Board(4, 4, tuple(range(16)))


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


def shuffled(rows: int, cols: int, count: int, seed: int) -> list[Board]:
    """Uniformly random boards that reach the standard goal."""
    rng = random.Random(seed)
    goal = Board.solved(rows, cols)
    boards: list[Board] = []
    while len(boards) < count:
        tiles = list(goal.tiles)
        rng.shuffle(tiles)
        board = Board(rows, cols, tuple(tiles))
        if npuzzle.is_solvable(board, goal):
            boards.append(board)
    return boards


def manhattan(board: Board) -> int:
    return sum(abs(cell // board.cols - (tile - 1) // board.cols)
               + abs(cell % board.cols - (tile - 1) % board.cols)
               for cell, tile in enumerate(board.tiles) if tile)


def reduction_rows(table: Table, count: int, seed: int) -> None:
    """The reduction on shuffled boards: median and worst time, median length."""
    npuzzle.solve(Board.solved(4, 4).moved("U"), algorithm="reduction")
    for side in (5, 7, 11):
        goal = Board.solved(side, side)
        times, lengths, bounds = [], [], []
        for board in shuffled(side, side, count, seed):
            began = time.perf_counter()
            result = npuzzle.solve(board, goal, "reduction")
            times.append(time.perf_counter() - began)
            replay = board
            for move in result.moves:
                replay = replay.moved(move)
            if replay != goal or result.optimal:
                raise SystemExit(f"{board.line()}: the reduction's answer is wrong")
            lengths.append(len(result.moves))
            bounds.append(manhattan(board))
        table.add_row(f"{side}x{side} shuffled x{count} (seed {seed})",
                      "huarong reduction (NOT optimal)",
                      f"{statistics.median(lengths):,.0f} (Manhattan "
                      f"{statistics.median(bounds):,.0f})", "median",
                      f"{statistics.median(times) * 1000:.1f} ms / worst "
                      f"{max(times) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--large", type=int, default=5, metavar="N",
                        help="shuffled boards of each large size for the reduction")
    options = parser.parse_args()
    console = Console(width=150)

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
    reduction_rows(table, options.large, options.seed)
    console.print(table)


if __name__ == "__main__":
    main()
