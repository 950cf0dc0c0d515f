"""Answers from the table of minimum steps beside the search: an in-process solve, and cold
klotski.online ``/solution`` requests to ``huarong serve`` from 8 clients, each request a
layout not asked before (no cache helps).

Targets (issue 21 §2): a solve at most 100 µs; ``/solution`` p50 at most 2 ms, p99 at most
10 ms.  Without ``--db`` the table is written for the standard class only (its 363,480
layouts, from :func:`huarong.space.cases.min_steps_of_class`) into a scratch folder of the
current directory, removed at the end; with ``--db`` the table beside that database is used.

    python benchmarks/bench_table.py [--db PATH] [--solves 300] [--requests 2000] [--clients 8]
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import numpy as np
from rich.console import Console
from rich.table import Table

from bench_web_load import free_port, wait_until_up
from huarong.engine.layout import Layout
from huarong.engine.solver import solve
from huarong.space import cases
from huarong.space.table import NOT_KNOWN, MinStepsTable, table_path, write_table

_WARM_UP = 20
"""Requests each server answers before it is timed."""


def standard_table(database: Path) -> None:
    """Write the standard class's table beside ``database`` (which need not exist)."""
    codes, min_steps, _ = cases.min_steps_of_class(5, 4)
    steps = np.full(cases.LAYOUT_COUNT, NOT_KNOWN, dtype=np.int16)
    steps[cases.layout_ids(codes)] = min_steps
    write_table(table_path(database), steps)


def best_micros(function: Callable[[], object], repeat: int) -> float:
    """The best of ``repeat`` timings, in µs (the least disturbed by other processes)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best * 1e6


Row = tuple[str, str, str, str]
"""What was measured, then its p50, p99 and max."""


def row(name: str, values: list[float], digits: int) -> Row:
    cut = statistics.quantiles(values, n=100, method="inclusive")
    p50, p99, most = (f"{value:,.{digits}f}" for value in (cut[49], cut[98], max(values)))
    return name, p50, p99, most


def solve_row(name: str, way: Callable[[Layout], object], layouts: list[Layout], repeat: int
              ) -> Row:
    """Solving each layout, in µs, each timed best-of."""
    way(layouts[0])  # compiled / loaded once, as in a running process
    timings = [best_micros(functools.partial(way, layout), repeat) for layout in layouts]
    return row(name, timings, 0)


def load_row(name: str, database: Path, queries: list[str], clients: int, warm_up: list[str]
             ) -> Row:
    """``/solution`` for every query once, in ms, after the
    ``warm_up`` queries (other layouts) have loaded the server's kernels and tables."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "huarong", "serve", "--port", str(port), "--log-level",
         "warning", "--db", str(database)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_up(base, server)
        for layout_id in warm_up:
            httpx.get(f"{base}/solution", params={"t": "json", "q": layout_id}, timeout=60)

        def client(ids: list[str]) -> list[float]:
            timings = []
            with httpx.Client(base_url=base, timeout=60) as session:
                for layout_id in ids:
                    started = time.perf_counter()
                    answer = session.get("/solution", params={"t": "json", "q": layout_id})
                    timings.append(time.perf_counter() - started)
                    if answer.status_code != 200 or answer.json()["id"] != layout_id:
                        raise SystemExit(f"bad answer for {layout_id}: {answer.text}")
            return timings

        with ThreadPoolExecutor(clients) as executor:
            latencies = [seconds * 1000 for part in executor.map(
                client, [queries[index::clients] for index in range(clients)])
                for seconds in part]
    finally:
        server.terminate()
        server.wait(timeout=30)
    return row(f"/solution cold, {name}", latencies, 2)


def run(database: Path | None, solves: int, requests: int, clients: int) -> None:
    with tempfile.TemporaryDirectory(dir=".", prefix=".bench-table-") as scratch:
        if database is None:
            database = Path(scratch) / "standard.duckdb"
            standard_table(database)
        with MinStepsTable.open(table_path(database)) as table:
            rng = random.Random(2026)
            codes = cases.class_codes(5, 4)
            picked = [Layout(int(code)) for code in codes[rng.sample(
                range(codes.shape[0]), solves + requests + _WARM_UP)]]
            named = [Layout.from_code("1A9BF0C00"), Layout.from_code("4FEA13400")]
            standard = named + picked[:solves]
            solve_table = [solve_row(f"standard: {name}", way, standard, repeat=5)
                           for name, way in (("table walk", table.solve), ("search", solve))]
            # Any class: only the walk (a search of the largest groups takes seconds).
            anywhere = [layout for layout in (Layout.from_id(rank) for rank in rng.sample(
                range(cases.LAYOUT_COUNT), solves)) if table.holds(layout)]
            if anywhere:
                solve_table.append(solve_row(f"any class ({len(anywhere)}): table walk",
                                             table.solve, anywhere, repeat=5))
        queries = [layout.online_id for layout in picked[solves:]]
        warm_up, queries = queries[:_WARM_UP], queries[_WARM_UP:]
        load = [load_row(name, path, queries, clients, warm_up)
                for name, path in (("search", Path(scratch) / "none.duckdb"),
                                   ("table", database))]

    console = Console()
    solved = Table(title=f"In-process solve of {solves + 2} random standard layouts and "
                         f"{solves} of any class (each the best of 5 runs)")
    served = Table(title=f"/solution: {requests:,} distinct standard layouts, "
                         f"{clients} clients on loopback")
    for output, unit, rows in ((solved, "µs", solve_table), (served, "ms", load)):
        output.add_column("what")
        for column in ("p50", "p99", "max"):
            output.add_column(f"{column} {unit}", justify="right")
        for row in rows:
            output.add_row(*row)
        console.print(output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None,
                        help="a database with its table beside it (default: a scratch table "
                             "of the standard class)")
    parser.add_argument("--solves", type=int, default=300)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    arguments = parser.parse_args()
    run(arguments.db, arguments.solves, arguments.requests, arguments.clients)


if __name__ == "__main__":
    main()
