"""Time ``--analy-group`` on the groups of 横刀立马 (1A9BF0C00) and 4FEA13400: each phase of
the batch analysis and the CSV writing, one thread against every core.

    python benchmarks/bench_group_analysis.py [CODE ...]

Prints one table row per (group, threads): the in-memory analysis (search, sweeps), then
``tables s``, the streamed ``--analy-group-integral`` run (analysis again, and the CSVs).
``cpu s`` is the processor time of the whole run, all threads together: on a shared
machine it shows the work done when the wall-clock figures are stretched by other processes.
The first run compiles the kernels; it is done once on a small group before anything is
timed."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from huarong.engine.layout import Layout
from huarong.space.group_analysis import analyze_group
from huarong.space.group_tables import write_group_tables

DEFAULT_CODES = ("1A9BF0C00", "4FEA13400")


def main(codes: list[str]) -> None:
    analyze_group(Layout.from_code("636F53400"))  # compile or load the kernels
    cores = os.cpu_count() or 1
    header = (f"{'group':<10} {'layouts':>8} {'threads':>7} {'search s':>8} {'sweep s':>8} "
              f"{'tables s':>8} {'total s':>8} {'cpu s':>7} {'farthest MB':>11} "
              f"{'solution MB':>11}")
    print(header)
    print("-" * len(header))
    marks: dict[str, float] = {}

    def progress(phase: str, done: int, total: int) -> None:
        if done == total:
            marks[phase] = time.perf_counter()

    for code in codes:
        for threads in sorted({1, cores}):
            start, cpu_start = time.perf_counter(), time.process_time()
            analysis = analyze_group(Layout.from_code(code), progress=progress,
                                     threads=threads)
            analysed = time.perf_counter()
            with tempfile.TemporaryDirectory() as directory:
                farthest = Path(directory) / "farthest.csv"
                solution = Path(directory) / "solution.csv"
                write_group_tables([Layout.from_code(code)], farthest, solution,
                                   integral=True, table_format="original", threads=threads)
                written, cpu_end = time.perf_counter(), time.process_time()
                sizes = farthest.stat().st_size / 1e6, solution.stat().st_size / 1e6
            searched = marks["searching the group"] - start
            print(f"{code:<10} {analysis.size:>8,} {threads:>7} {searched:>8.2f} "
                  f"{analysed - marks['searching the group']:>8.2f} {written - analysed:>8.2f} "
                  f"{written - start:>8.2f} {cpu_end - cpu_start:>7.2f} {sizes[0]:>11.1f} "
                  f"{sizes[1]:>11.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or list(DEFAULT_CODES))
