"""Load test of ``huarong serve`` on loopback: 2,000 klotski.online ``/solution`` requests
from 8 concurrent clients, for the classic layouts and random layouts of their groups.

Starts the server in a subprocess on a free port of 127.0.0.1, waits until it answers, sends
the requests, stops the server and prints a table (targets: p50 <= 20 ms, p99 <= 100 ms).

    python benchmarks/bench_web_load.py [--requests 2000] [--clients 8] [--layouts 300]
"""

from __future__ import annotations

import argparse
import random
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
from rich.console import Console
from rich.table import Table

from huarong.engine.classics import CLASSICS
from huarong.engine.layout import Layout
from huarong.engine.solver import group_codes

_STARTUP_SECONDS = 120.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def layout_ids(random_layouts: int, rng: random.Random) -> list[str]:
    """The classics' ids and random layouts from their groups (solvable ones)."""
    solvable = [classic.layout for classic in CLASSICS if classic.literature_steps]
    codes = sorted({int(code) for classic in solvable for code in group_codes(classic)})
    picked = rng.sample(codes, random_layouts)
    return [layout.online_id for layout in solvable] + [Layout(c).online_id for c in picked]


def wait_until_up(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + _STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            if httpx.get(f"{base}/api/classics", timeout=30).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer within {_STARTUP_SECONDS:.0f} s")


def run(requests: int, clients: int, random_layouts: int) -> None:
    rng = random.Random(2024)
    pool = layout_ids(random_layouts, rng)
    queries = [rng.choice(pool) for _ in range(requests)]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "huarong", "serve", "--port", str(port), "--log-level",
         "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_up(base, server)
        share = [queries[index::clients] for index in range(clients)]

        def client(ids: list[str]) -> list[tuple[float, bool]]:
            timings = []
            with httpx.Client(base_url=base, timeout=30) as session:
                for layout_id in ids:
                    started = time.perf_counter()
                    answer = session.get("/solution", params={"t": "json", "q": layout_id})
                    ok = answer.status_code == 200 and answer.json()["id"] == layout_id
                    timings.append((time.perf_counter() - started, ok))
            return timings

        started = time.perf_counter()
        with ThreadPoolExecutor(clients) as executor:
            results = [timing for part in executor.map(client, share) for timing in part]
        elapsed = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(timeout=30)

    latencies = sorted(seconds * 1000 for seconds, _ in results)
    errors = sum(1 for _, ok in results if not ok)
    percentile = statistics.quantiles(latencies, n=100, method="inclusive")
    table = Table(title=f"/solution load test: {clients} clients on loopback")
    for column in ("requests", "distinct layouts", "errors", "p50 ms", "p90 ms", "p99 ms",
                   "max ms", "requests/s"):
        table.add_column(column, justify="right")
    table.add_row(f"{len(results):,}", f"{len(set(queries)):,}", str(errors),
                  f"{percentile[49]:.1f}", f"{percentile[89]:.1f}", f"{percentile[98]:.1f}",
                  f"{latencies[-1]:.1f}", f"{len(results) / elapsed:,.0f}")
    Console().print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--layouts", type=int, default=300,
                        help="random layouts added to the classics")
    arguments = parser.parse_args()
    run(arguments.requests, arguments.clients, arguments.layouts)


if __name__ == "__main__":
    main()
