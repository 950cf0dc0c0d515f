"""Core engine speed: warm solves, a group search, an analysis, and a cold CLI process.

    python benchmarks/bench_core.py [--repeat N]

Each warm figure is the best of N runs after one warm-up call (kernels compiled or loaded from
the cache first).  The cold CLI figure is a whole `huarong solve 1A9BF0C00` process with the
kernel cache already on disk: interpreter start, imports, cache load, solve and printing.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from huarong.engine.analysis import analyze
from huarong.engine.layout import Layout
from huarong.engine.solver import group_codes, solve


def best_of(repeat: int, work: Callable[[], object]) -> float:
    work()
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        timings.append(time.perf_counter() - started)
    return min(timings)


def cold_cli_seconds(repeat: int) -> float:
    command = shutil.which("huarong")
    args = [command] if command else [sys.executable, "-m", "huarong"]
    args += ["solve", "1A9BF0C00", "--compact"]
    subprocess.run(args, check=True, capture_output=True)  # fills the kernel cache
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        timings.append(time.perf_counter() - started)
    return min(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20)
    repeat = parser.parse_args().repeat
    hengdao, fengui = Layout.from_code("1A9BF0C00"), Layout.from_code("4FEA13400")

    rows = [
        ("solve 1A9BF0C00 (81 steps), warm", best_of(repeat, lambda: solve(hengdao)), 0.002),
        ("solve 4FEA13400 (138 steps), warm", best_of(repeat, lambda: solve(fengui)), 0.004),
        ("group BFS of 1A9BF0C00 (25,955 layouts)",
         best_of(repeat, lambda: group_codes(hengdao)), None),
        ("analyze 1A9BF0C00 (layer model)", best_of(max(3, repeat // 4),
                                                    lambda: analyze(hengdao)), None),
        ("cold `huarong solve 1A9BF0C00` process", cold_cli_seconds(max(3, repeat // 4)), 1.0),
    ]
    table = Table(title="huarong core engine (best of runs)")
    table.add_column("benchmark")
    table.add_column("time", justify="right")
    table.add_column("target", justify="right")
    for name, seconds, target in rows:
        shown = f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"
        table.add_row(name, shown, "" if target is None else f"≤ {target * 1e3:g} ms")
    Console().print(table)


if __name__ == "__main__":
    main()
