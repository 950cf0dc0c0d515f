"""Timings of the whole-database pipeline; prints a table.

    python benchmarks/bench_database.py [--skip-build]

Targets (2-core machine): enumeration <= 0.5 s warm, group labelling <= 8 s, db build
<= 90 s and <= 6 GB peak, database file <= 400 MB, db info <= 5 ms warm in-process."""

from __future__ import annotations

import random
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def main() -> None:
    from huarong import cases, database
    from huarong._kernels import cases as kernels

    rows: list[tuple[str, str, str]] = []
    table, offsets = cases._index_tables()
    kernels.enumerate_codes(table, offsets)  # compile / warm
    seconds, _ = timed(lambda: kernels.enumerate_codes(table, offsets))
    rows.append(("enumerate 29,334,498 codes (warm)", f"{seconds:.2f} s", "<= 0.5 s"))
    codes = cases.all_codes()
    sample = codes[random.Random(1).sample(range(codes.shape[0]), 1_000_000)]
    seconds, _ = timed(lambda: cases.layout_ids(sample))
    rows.append(("perfect index, per lookup", f"{seconds * 1e3:.0f} ns", "~120 ns"))
    seconds, _ = timed(cases.label_groups)
    rows.append(("label groups of all layouts", f"{seconds:.1f} s", "<= 8 s"))
    if "--skip-build" not in sys.argv:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "huarong.duckdb"
            seconds, _ = timed(lambda: database.build(path))
            rows.append(("db build (after the two rows above)", f"{seconds:.1f} s", "<= 90 s"))
            rows.append(("database file", f"{path.stat().st_size / 1e6:.0f} MB", "<= 400 MB"))
            with database.Database.open(path) as db:
                picks = random.Random(2).sample(codes.tolist(), 200)
                db.info(int(picks[0]))
                seconds, _ = timed(lambda: [db.info(int(code)) for code in picks])
            rows.append(("db info, random code (warm)", f"{seconds / 200 * 1e3:.2f} ms",
                         "<= 5 ms"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    rows.append(("peak memory of this process", f"{peak:.1f} GB", "<= 6 GB"))
    width = max(len(name) for name, _, _ in rows)
    print(f"{'measure':<{width}}  {'reached':>10}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>10}  {target}")


if __name__ == "__main__":
    main()
