"""Timings of the whole-database pipeline; prints a table.

    python benchmarks/bench_database.py [--skip-build]

Targets (2-core machine): enumeration <= 0.5 s warm, group labelling <= 8 s, db build
<= 90 s and <= 6 GB peak, database file <= 400 MB, db info <= 5 ms warm in-process."""

from __future__ import annotations

import os
import random
import resource
import subprocess
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
    from huarong._kernels import cases as kernels
    from huarong.engine import ids
    from huarong.space import cases, database

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows: list[tuple[str, str, str]] = []
    table, offsets = ids.index_tables()
    kernels.enumerate_codes(table, offsets)  # compile / warm
    seconds, _ = timed(lambda: kernels.enumerate_codes(table, offsets))
    rows.append(("enumerate 29,334,498 codes (warm)", f"{seconds:.2f} s", "<= 0.5 s"))
    codes = cases.all_codes()
    sample = codes[random.Random(1).sample(range(codes.shape[0]), 1_000_000)]
    cases.layout_ids(sample[:10])  # build the index, load the kernel
    seconds, _ = timed(lambda: cases.layout_ids(sample))
    rows.append(("perfect index, per lookup", f"{seconds * 1e3:.0f} ns", "~120 ns"))
    seconds, _ = timed(cases.label_groups)
    rows.append(("label groups of all layouts", f"{seconds:.1f} s", "<= 8 s"))
    # Again, classes and kernels loaded: the union-find over the 81 searched classes alone.
    seconds, _ = timed(lambda: cases._label_groups(None))
    rows.append(("label groups again (classes known)", f"{seconds:.1f} s", ""))
    seconds, _ = timed(cases.min_steps_all)
    rows.append(("minimum steps of all layouts", f"{seconds:.1f} s", ""))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    rows.append(("peak memory of the rows above", f"{peak:.1f} GB", ""))
    if "--skip-build" not in sys.argv:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "huarong.duckdb"
            # A fresh process, as `huarong db build` runs (kernels already compiled).
            build = [sys.executable, "-c",
                     f"from huarong.space.build import build; build({str(path)!r})"]
            seconds, _ = timed(lambda: subprocess.run(build, check=True))
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1e6
            rows.append(("db build, whole, in a fresh process", f"{seconds:.1f} s", "<= 90 s"))
            rows.append(("peak memory of the build", f"{peak:.1f} GB", "<= 6 GB"))
            rows.append(("database file", f"{path.stat().st_size / 1e6:.0f} MB", "<= 400 MB"))
            with database.Database.open(path) as db:
                picks = random.Random(2).sample(codes.tolist(), 200)
                db.info(int(picks[0]))
                seconds, _ = timed(lambda: [db.info(int(code)) for code in picks])
            rows.append(("db info, random code (warm)", f"{seconds / 200 * 1e3:.2f} ms",
                         "<= 5 ms"))
    width = max(len(name) for name, _, _ in rows)
    print(f"{'measure':<{width}}  {'reached':>10}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>10}  {target}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
