"""Load test of ``huarong serve`` on loopback: 2,000 klotski.online ``/solution`` requests
from 8 concurrent clients, for the classic layouts and random layouts of their groups.

Starts the server in a subprocess on a free port of 127.0.0.1, waits until it answers, sends
the requests, stops the server and prints a table (targets: p50 <= 20 ms, p99 <= 100 ms).

    python benchmarks/bench_web_load.py [--requests 2000] [--clients 8] [--layouts 300]

``--mixed`` (issue 41, heavy answers never starve light ones) needs the database: 4 light
clients ask ``/solution``, ``/api/layout`` and ``/api/next`` of random layouts for
``--seconds``, alone; then one client ``/api/layout`` alone; then the 4 again while 2 heavy
clients ask bottlenecks and graph files of big groups, each of a group not asked before (the
server's cache directory is fresh), and a heavy answer is asked twice.  ``--light-only``
leaves out the heavy clients and the second ask.

    python benchmarks/bench_web_load.py --mixed [--seconds 60] [--db PATH] [--light-only]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
from rich.console import Console
from rich.table import Table

from huarong.engine.classics import CLASSICS
from huarong.engine.ids import LAYOUT_COUNT
from huarong.engine.layout import Layout
from huarong.engine.solver import group_codes

_STARTUP_SECONDS = 120.0
LIGHT_CLIENTS = 4
HEAVY_CLIENTS = 2
LAYOUT_ALONE_REQUESTS = 300
BIG_GROUPS = (50_000, 300_000)
"""Sizes of the groups the heavy clients ask: big, within the server's default group limit."""
HEAVY_KINDS = ("bottlenecks", "graph.parquet", "graph.gexf")

Timings = list[tuple[float, bool]]
"""(seconds, answered 200) of each request."""
Row = tuple[str, Timings, tuple[float, float | None] | None, str]
"""A phase: its name, timings, target p50 and p99 in ms (None: none) and old main's figures."""


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


@contextmanager
def serving(database: Path | None = None, environment: dict[str, str] | None = None
            ) -> Iterator[str]:
    """A ``huarong serve`` on a free port (``--db database`` when given): its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "huarong", "serve", "--port", str(port), "--log-level",
               "warning", *(["--db", str(database)] if database else [])]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, **(environment or {})})
    try:
        wait_until_up(base, server)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


def run(requests: int, clients: int, random_layouts: int) -> None:
    rng = random.Random(2024)
    pool = layout_ids(random_layouts, rng)
    queries = [rng.choice(pool) for _ in range(requests)]
    with serving() as base:
        share = [queries[index::clients] for index in range(clients)]

        def client(ids: list[str]) -> Timings:
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


def light_requests(layout: Layout) -> list[tuple[str, dict[str, str]]]:
    return [("/solution", {"t": "json", "q": layout.online_id}),
            ("/api/layout", {"code": layout.code}), ("/api/next", {"code": layout.code})]


def light_client(base: str, layouts: list[Layout], seconds: float, seed: int
                 ) -> Timings:
    """Each request of a client asking the three light answers of random layouts one after
    the other, for ``seconds``."""
    rng = random.Random(seed)
    timings = []
    stop_at = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=60) as session:
        while time.monotonic() < stop_at:
            for path, params in light_requests(rng.choice(layouts)):
                started = time.perf_counter()
                status = session.get(path, params=params).status_code
                timings.append((time.perf_counter() - started, status == 200))
    return timings


def heavy_answer(session: httpx.Client, url: str) -> int:
    """Ask ``url`` until the answer is there (a 202 says to ask again after Retry-After),
    reading the body as sent (gzip stays packed, as a browser saving the file keeps it)."""
    while True:
        with session.stream("GET", url) as answer:
            for _ in answer.iter_raw():
                pass
        if answer.status_code != 202:
            return answer.status_code
        time.sleep(float(answer.headers.get("retry-after", "1")))


def heavy_client(base: str, asks: queue.SimpleQueue[str], stop_at: float) -> Timings:
    """Each heavy answer asked until ``stop_at``, from ``asks``."""
    timings = []
    with httpx.Client(base_url=base, timeout=600) as session:
        while time.monotonic() < stop_at and not asks.empty():
            started = time.perf_counter()
            status = heavy_answer(session, asks.get())
            timings.append((time.perf_counter() - started, status == 200))
    return timings


def big_groups(database: Path | None, rng: random.Random) -> list[str]:
    """The seeds of the database's big groups, shuffled, so that a run asks about groups in
    an order of its own; exits when there is no database."""
    from huarong.space.database import Database, DatabaseError

    low, high = BIG_GROUPS
    try:
        with Database.open(database) as opened:
            rows = opened.query(
                f"SELECT seed FROM groups WHERE size BETWEEN {low} AND {high}").rows
    except DatabaseError as error:
        raise SystemExit(f"--mixed needs the database: {error}") from None
    seeds = [f"{seed:09X}" for (seed,) in rows]
    rng.shuffle(seeds)
    return seeds


def percentiles_ms(timings: Timings) -> tuple[float, float]:
    milliseconds = sorted(seconds * 1000 for seconds, _ in timings)
    if len(milliseconds) < 2:
        return milliseconds[0], milliseconds[0]
    cuts = statistics.quantiles(milliseconds, n=100, method="inclusive")
    return cuts[49], cuts[98]


def light_phase(base: str, layouts: list[Layout], seconds: float, seed: int) -> Timings:
    """The light clients, each in a process of its own as separate users are: in threads of
    one process they would also wait for each other's interpreter lock, and that wait would
    be counted as the server's."""
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(LIGHT_CLIENTS, mp_context=spawn) as executor:
        parts = [executor.submit(light_client, base, layouts, seconds, seed + index)
                 for index in range(LIGHT_CLIENTS)]
        return [timing for part in parts for timing in part.result()]


def mixed_phase(base: str, layouts: list[Layout], seconds: float, asks: queue.SimpleQueue[str]
                ) -> tuple[Timings, Timings]:
    """The light clients for ``seconds`` while the heavy ones ask; the heavy answers asked
    before the end are waited for."""
    stop_at = time.monotonic() + seconds
    with ThreadPoolExecutor(LIGHT_CLIENTS + HEAVY_CLIENTS) as executor:
        heavy = [executor.submit(heavy_client, base, asks, stop_at)
                 for _ in range(HEAVY_CLIENTS)]
        light = light_phase(base, layouts, seconds, 2)
        return light, [timing for part in heavy for timing in part.result()]


def second_asks(base: str, urls: list[str]) -> list[tuple[str, float, bool]]:
    """Each URL asked until answered, then timed when asked again."""
    timings = []
    with httpx.Client(base_url=base, timeout=600) as session:
        for url in urls:
            heavy_answer(session, url)
            started = time.perf_counter()
            status = heavy_answer(session, url)
            timings.append((url, time.perf_counter() - started, status == 200))
    return timings


def run_mixed(seconds: float, database: Path | None, light_only: bool) -> None:
    rng = random.Random()
    seed = rng.randrange(1 << 32)
    rng.seed(seed)
    layouts = [Layout.from_id(rng.randrange(LAYOUT_COUNT)) for _ in range(3000)]
    seeds = big_groups(database, rng)
    asks: queue.SimpleQueue[str] = queue.SimpleQueue()
    for index, group in enumerate([] if light_only else seeds[2:]):
        asks.put(f"/api/groups/{group}/{HEAVY_KINDS[index % len(HEAVY_KINDS)]}")
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-web-cache-") as cache, serving(
            database, {"HUARONG_EXPLORER_CACHE": cache}) as base:
        for layout in layouts[:5]:  # the first requests load the tables and kernels
            for path, params in light_requests(layout):
                httpx.get(base + path, params=params, timeout=120)
        alone = light_phase(base, layouts, seconds, 1)
        rows.append((f"A: {LIGHT_CLIENTS} light clients alone", alone, (3, 15), "7.9 / 61"))
        one = []
        with httpx.Client(base_url=base, timeout=60) as session:
            for layout in rng.sample(layouts, LAYOUT_ALONE_REQUESTS):
                started = time.perf_counter()
                status = session.get("/api/layout", params={"code": layout.code}).status_code
                one.append((time.perf_counter() - started, status == 200))
        rows.append(("C: /api/layout alone, 1 client", one, (2, None), "29 / -"))
        if not light_only:
            light, heavy = mixed_phase(base, layouts, seconds, asks)
            rows.append((f"B: {LIGHT_CLIENTS} light + {HEAVY_CLIENTS} heavy clients", light,
                         (5, 25), "15.5 / 3,580"))
            rows.append(("B: the heavy answers (uncached)", heavy, None, "-"))
            for url, spent, ok in second_asks(base, [f"/api/groups/{seeds[0]}/bottlenecks",
                                                     f"/api/groups/{seeds[1]}/graph.parquet"]):
                rows.append((f"second ask: {url.rsplit('/', 1)[1]}", [(spent, ok)], (500, None),
                             "-"))
    print_mixed(rows, seconds, seed)


def print_mixed(rows: list[Row], seconds: float, seed: int) -> None:
    table = Table(title=f"Light answers beside heavy ones ({seconds:.0f} s a phase, "
                        f"layouts of seed {seed})")
    for column in ("phase", "requests", "errors", "p50 ms", "p99 ms", "target p50 / p99 ms",
                   "old main p50 / p99 ms", "met"):
        table.add_column(column, justify="left" if column == "phase" else "right")
    for name, timings, target, anchor in rows:
        p50, p99 = percentiles_ms(timings)
        errors = sum(1 for _, ok in timings if not ok)
        met = "-" if target is None else "yes" if errors == 0 and p50 <= target[0] and (
            target[1] is None or p99 <= target[1]) else "no"
        shown = "-" if target is None else " / ".join(
            "-" if limit is None else f"<= {limit:,}" for limit in target)
        table.add_row(name, f"{len(timings):,}", str(errors), f"{p50:,.1f}", f"{p99:,.1f}",
                      shown, anchor, met)
    Console(width=max(Console().width, 120)).print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--layouts", type=int, default=300,
                        help="random layouts added to the classics")
    parser.add_argument("--mixed", action="store_true",
                        help="light clients alone and beside heavy ones (needs the database)")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="--mixed: how long each phase of light clients asks")
    parser.add_argument("--db", type=Path, default=None,
                        help="--mixed: the database (default $HUARONG_DB or the standard place)")
    parser.add_argument("--light-only", action="store_true",
                        help="--mixed: without the heavy clients and the second ask")
    arguments = parser.parse_args()
    if arguments.mixed:
        run_mixed(arguments.seconds, arguments.db, arguments.light_only)
    else:
        run(arguments.requests, arguments.clients, arguments.layouts)


if __name__ == "__main__":
    main()
