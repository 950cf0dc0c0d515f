"""Memory and speed of the streamed group tables (``huarong analyze-group``), and the largest
group (00006FFF0, 964,656 layouts) projected from a sample of its sweeps.

    python benchmarks/bench_group_streaming.py [--largest-seconds S] [--threads N]

1. Whole runs of ``huarong --analy-group[-integral]`` in a fresh process on mid-size groups:
   wall time, layouts per second, peak memory (the child's maximum resident set) and the
   size of the tables, beside the in-memory ``analyze_group`` of the same group.
2. The largest group streamed for S seconds (default 90): resident memory sampled every few
   seconds, then SIGTERM: how long the process takes to stop and what it leaves behind.
3. The largest group's sweeps timed on a sample of batches spread over the sweep order (one
   thread each), projected to the whole group on N threads (default: every core).
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

MID_GROUPS = ("1A9BF0C00", "4FEA13400")
LARGEST = "00006FFF0"
SAMPLED_BATCHES = 8


def _wait(process: subprocess.Popen[bytes]) -> tuple[int, float]:
    """Exit status and peak memory (MB) of a child."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_maxrss / 1024


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "huarong", *args]


def whole_runs() -> None:
    print(f"{'group':<10} {'run':<22} {'layouts':>8} {'wall s':>7} {'layouts/s':>9} "
          f"{'peak MB':>8} {'tables MB':>9}")
    in_memory = ("import sys, resource; from huarong.space.group_analysis import analyze_group; "
                 "from huarong.engine.layout import Layout; "
                 "analyze_group(Layout.from_code(sys.argv[1]))")
    for code in MID_GROUPS:
        for label, spelling in (("--analy-group", "--analy-group"),
                                ("--analy-group-integral", "--analy-group-integral"),
                                ("analyze_group (memory)", None)):
            with tempfile.TemporaryDirectory(dir=".") as directory:
                farthest, solution = Path(directory) / "f.csv", Path(directory) / "s.csv"
                command = (_cli(spelling, code, str(farthest), str(solution)) if spelling
                           else [sys.executable, "-c", in_memory, code])
                started = time.perf_counter()
                process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
                status, peak = _wait(process)
                wall = time.perf_counter() - started
                size = (sum(p.stat().st_size for p in (farthest, solution)) / 1e6
                        if spelling else 0.0)
                lines = (sum(1 for _ in farthest.open("rb")) if spelling
                         else _group_size(code))
            assert status == 0, f"{label} {code} failed with {status}"
            print(f"{code:<10} {label:<22} {lines:>8,} {wall:>7.1f} {lines / wall:>9,.0f} "
                  f"{peak:>8.0f} {size:>9.1f}", flush=True)


def _group_size(code: str) -> int:
    from huarong.engine.layout import Layout
    from huarong.engine.solver import group

    return len(group(Layout.from_code(code)))


def largest_streamed(seconds: float) -> None:
    print(f"\n{LARGEST} streamed for {seconds:.0f} s (resident MB every few seconds):")
    with tempfile.TemporaryDirectory(dir=".") as directory:
        process = subprocess.Popen(_cli("--analy-group", LARGEST, f"{directory}/f.csv",
                                        f"{directory}/s.csv"), stderr=subprocess.DEVNULL)
        started = time.perf_counter()
        samples = []
        while time.perf_counter() - started < seconds:
            time.sleep(5)
            samples.append(_resident_mb(process.pid))
        print("  " + " ".join(f"{mb:.0f}" for mb in samples))
        sent = time.perf_counter()
        process.send_signal(signal.SIGTERM)
        status, peak = _wait(process)
        stopped = time.perf_counter() - sent
        left = os.listdir(directory)
    print(f"  peak {peak:.0f} MB; SIGTERM: exit status {status} after {stopped:.2f} s; "
          f"files left: {left or 'none'}")


def _resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def largest_projected(threads: int) -> None:
    from huarong._kernels import group_analysis as sweep
    from huarong.engine.layout import Layout
    from huarong.space.group_analysis import group_graph, sweep_order

    started = time.perf_counter()
    graph = group_graph(Layout.from_code(LARGEST))
    searched = time.perf_counter() - started
    order = sweep_order(graph, sweep.SOURCES_PER_BATCH)
    batches = -(-order.shape[0] // sweep.SOURCES_PER_BATCH)
    times = []
    for index in np.linspace(0, batches - 1, SAMPLED_BATCHES).astype(int).tolist():
        sources = order[index * sweep.SOURCES_PER_BATCH:
                              (index + 1) * sweep.SOURCES_PER_BATCH]
        before = time.perf_counter()
        sweep.sweep_batch(graph.offsets, graph.targets, graph.goal, sources)
        times.append(time.perf_counter() - before)
    mean = sum(times) / len(times)
    print(f"\n{LARGEST}: {graph.size:,} layouts, {batches:,} batches; group search "
          f"{searched:.1f} s; {SAMPLED_BATCHES} sampled batches, one thread: "
          f"{min(times):.2f}-{max(times):.2f} s, mean {mean:.2f} s")
    for count in sorted({1, threads}):
        print(f"  projected sweeps on {count} thread(s): {mean * batches / count / 3600:.1f} h")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--largest-seconds", type=float, default=90.0)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=".") as directory:  # compile or load the kernels
        subprocess.run(_cli("--analy-group", "636F53400", f"{directory}/f.csv",
                            f"{directory}/s.csv"), check=True, stderr=subprocess.DEVNULL)
    whole_runs()
    largest_streamed(options.largest_seconds)
    largest_projected(options.threads)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  (this process, with the largest group's step graph: peak {peak:.0f} MB)")


if __name__ == "__main__":
    main()
