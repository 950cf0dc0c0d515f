"""The explorer's speed: first placement and placement from the disk cache for 横刀立马's group
and the largest group, the graph endpoint's response time and size, and the PNG picture.

    python benchmarks/bench_explorer.py [--db PATH] [--only-small]

Uses the database at --db (default $HUARONG_DB) when it exists, else the enumeration.  The
placements are cached in a fresh directory under the current one, removed at the end.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

HENGDAO_LIMA = "1A9BF0C00"
LARGEST = "00006FFF0"
"""The seed of the largest group (964,656 layouts), found with huarong.space.cases."""
T = TypeVar("T")


def _seconds(work: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def _row(code: str, database: Path | None, cache: Path, app: Any, warm: Any) -> str:
    """One table row: the group of ``code`` placed afresh, then from the cache, then asked
    of the app (whose explorer reads the same cache), then drawn."""
    from huarong.engine.layout import Layout
    from huarong.space.explorer import Explorer, render_png

    layout = Layout.parse(code)
    seed = warm.catalog.locate(layout).seed
    first, placed = _seconds(lambda: Explorer(database, cache).placed(seed))
    cached, _ = _seconds(lambda: Explorer(database, cache).placed(seed))
    request, response = _seconds(lambda: app.get(f"/api/groups/{code}/graph"))
    view = warm.view(layout)
    picture, _ = _seconds(lambda: render_png(view, "min-steps", 1200, 800))
    graph = placed.graph
    return (f"| {code} | {graph.size:,} | {graph.edge_count:,} | {first:.2f} | {cached:.2f} | "
            f"{request:.2f} | {len(response.content) / 1e6:.1f} | {picture:.2f} |")


CATALOGUE = ("/api/classes", "/api/classes", "/api/classes/5-4-1",
             "/api/classes/4-5-2/groups?page=0&per_page=100", "/api/records", "/api/records")
"""Each asked twice where the answer is kept until the database changes."""


def _catalogue(app: Any) -> None:
    print("\n| request | status | s | KB |\n|---|---|---|---|")
    for url in CATALOGUE:
        seconds, response = _seconds(lambda: app.get(url))  # noqa: B023 (called at once)
        print(f"| {url} | {response.status_code} | {seconds:.2f} | "
              f"{len(response.content) / 1e3:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--only-small", action="store_true", help="skip the largest group")
    options = parser.parse_args()

    from fastapi.testclient import TestClient

    from huarong.engine.layout import Layout
    from huarong.space.explorer import Explorer
    from huarong.web.app import create_app

    scratch = Path(tempfile.mkdtemp(prefix=".bench-explorer-", dir="."))
    cache = scratch / "explorer"
    os.environ["HUARONG_EXPLORER_CACHE"] = str(cache)  # the app's too
    try:
        warm = Explorer(options.db, cache)
        warm.catalog.locate(Layout.parse(HENGDAO_LIMA))  # the enumeration's labels, once
        warm.placed(int(warm.catalog.locate(Layout.parse("4FEA13400")).seed))  # compile
        app = TestClient(create_app(options.db))
        print(f"database: {warm.catalog.path if warm.catalog.has_database else 'none'}")
        print("| group | layouts | steps | first placement s | from cache s | "
              "graph request s | response MB | PNG 1200x800 s |")
        print("|---|---|---|---|---|---|---|---|")
        for code in (HENGDAO_LIMA, *(() if options.only_small else (LARGEST,))):
            print(_row(code, options.db, cache, app, warm))
        _catalogue(app)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"\npeak memory of this process: {peak:,.0f} MB")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
