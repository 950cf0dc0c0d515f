"""Time ``--analy-group`` on the groups of 横刀立马 (1A9BF0C00) and 4FEA13400: each phase of
the batch analysis and the CSV writing, one thread against every core, and on the CUDA GPU.

    python benchmarks/bench_group_analysis.py [--gpu] [CODE ...]

Prints one table row per (group, threads): the in-memory analysis (search, sweeps), then
``tables s``, the streamed ``--analy-group-integral`` run (analysis again, and the CSVs).
``cpu s`` is the processor time of the whole run, all threads together: on a shared
machine it shows the work done when the wall-clock figures are stretched by other processes.
With ``--gpu`` (numba-cuda and a GPU, or ``NUMBA_ENABLE_CUDASIM=1`` for tiny groups), a row
``gpu`` follows each group's CPU rows, and ``same`` says whether its CSVs equal the CPU's byte
for byte.  The first run compiles the kernels; it is done once on a small group before
anything is timed."""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

from huarong.engine.layout import Layout
from huarong.space.group_analysis import analyze_group
from huarong.space.group_tables import write_group_tables

DEFAULT_CODES = ("1A9BF0C00", "4FEA13400")
WARM_UP = "636F53400"


def _md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def main(arguments: list[str]) -> None:
    gpu = "--gpu" in arguments
    codes = [code for code in arguments if code != "--gpu"] or list(DEFAULT_CODES)
    analyze_group(Layout.from_code(WARM_UP))  # compile or load the kernels
    if gpu:
        analyze_group(Layout.from_code(WARM_UP), gpu=True)
    cores = os.cpu_count() or 1
    header = (f"{'group':<10} {'layouts':>8} {'threads':>7} {'search s':>8} {'sweep s':>8} "
              f"{'tables s':>8} {'total s':>8} {'cpu s':>7} {'farthest MB':>11} "
              f"{'solution MB':>11} {'same':>4}")
    print(header)
    print("-" * len(header))
    marks: dict[str, float] = {}

    def progress(phase: str, done: int, total: int) -> None:
        if done == total:
            marks[phase] = time.perf_counter()

    for code in codes:
        checksums: dict[str, tuple[str, str]] = {}
        runs: list[tuple[str, int | None]] = [(str(count), count) for count in sorted({1, cores})]
        for label, workers in runs + ([("gpu", None)] if gpu else []):
            on_gpu = workers is None
            start, cpu_start = time.perf_counter(), time.process_time()
            analysis = analyze_group(Layout.from_code(code), progress=progress,
                                     threads=workers, gpu=on_gpu)
            analysed = time.perf_counter()
            with tempfile.TemporaryDirectory() as directory:
                farthest = Path(directory) / "farthest.csv"
                solution = Path(directory) / "solution.csv"
                write_group_tables([Layout.from_code(code)], farthest, solution,
                                   integral=True, table_format="original", threads=workers,
                                   gpu=on_gpu)
                written, cpu_end = time.perf_counter(), time.process_time()
                sizes = farthest.stat().st_size / 1e6, solution.stat().st_size / 1e6
                checksums[label] = _md5(farthest), _md5(solution)
            same = "yes" if checksums[label] == checksums["1"] else "NO"
            searched = marks["searching the group"] - start
            print(f"{code:<10} {analysis.size:>8,} {label:>7} {searched:>8.2f} "
                  f"{analysed - marks['searching the group']:>8.2f} {written - analysed:>8.2f} "
                  f"{written - start:>8.2f} {cpu_end - cpu_start:>7.2f} {sizes[0]:>11.1f} "
                  f"{sizes[1]:>11.1f} {same:>4}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
