"""Counts-only layer sweeps (``huarong db layers``): wall time per (source, layout) pair on
every core of this machine, beside the recording group analysis's figures of issue 10 and
the targets.

    python benchmarks/bench_layers.py [--largest-sources N]

Pairs are counted as size² per group (every source against every layout), so the mirror
saving shows as speed.  The largest group (964,656 layouts) is timed on its first N sources
(default 512) and projected to the whole group.  Kernels are compiled or loaded on a small
group before anything is timed."""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from huarong.engine.layout import Layout
from huarong.graph import sweeps_gpu
from huarong.graph.sweeps import layer_figures
from huarong.space import cases, layers

LARGEST_GROUP_SIZE = 964_656


def _pairs_of(jiang: int, bing: int, style: int | None) -> tuple[int, int]:
    groups = cases.label_groups()
    cls = cases.classes()
    firsts = groups.first_ids
    chosen = (cls.jiang[firsts] == jiang) & (cls.bing[firsts] == bing)
    if style is not None:
        chosen &= cls.style[firsts] == style
    sizes = groups.sizes[chosen].astype(np.int64)
    return int(sizes.sum()), int((sizes * sizes).sum())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--largest-sources", type=int, default=512)
    options = parser.parse_args()
    threads = os.cpu_count() or 1
    layers.group_figures(int(Layout.from_code("636F53400")))  # compile or load the kernels
    mirror_id = layers.mirror_ids(cases.all_codes())
    header = (f"{'work':<26} {'layouts':>9} {'pairs':>9} {'wall s':>8} {'ns/pair':>8} "
              f"{'today':>10} {'target':>16}")
    print(f"{threads} threads")
    print(header)
    print("-" * len(header))

    def row(name: str, layouts: int, pairs: float, seconds: float, today: str,
            target: str) -> None:
        print(f"{name:<26} {layouts:>9,} {pairs:>9.3g} {seconds:>8.2f} "
              f"{seconds / pairs * 1e9:>8.2f} {today:>10} {target:>16}", flush=True)

    seed = int(Layout.from_code("4FEA13400"))
    started = time.perf_counter()
    codes, _ = layers.group_figures(seed, threads=threads)
    size = int(codes.shape[0])
    row("group of 4FEA13400", size, size * size, time.perf_counter() - started, "3.0 ns",
        "<= 1.0 ns")
    for jiang, bing, style, name, today, target in (
            (4, 3, 0, "class 4-3-0", "13 ns", "<= 1.5 ns"),
            (4, 4, 4, "class 4-4-4", "13 ns", "<= 1.5 ns"),
            (5, 4, None, "standard classes 5-4-*", "-", "<= 10 s in all")):
        layouts, pairs = _pairs_of(jiang, bing, style)
        started = time.perf_counter()
        layers.class_figures(jiang, bing, mirror_id, style=style, threads=threads)
        row(name, layouts, pairs, time.perf_counter() - started, today, target)

    largest = cases.label_groups()
    biggest = int(np.argmax(largest.sizes))
    graph, sources = layers.group_graph(int(cases.all_codes()[largest.first_ids[biggest]]),
                                        int(largest.sizes[biggest]))
    count = min(options.largest_sources, int(sources.shape[0]))
    started = time.perf_counter()
    layer_figures(graph, sources[:count], threads=threads)
    seconds = time.perf_counter() - started
    whole = seconds / count * sources.shape[0]
    row(f"largest group, {count} src", graph.size, count * graph.size, seconds,
        "50-64 ns", "<= 30 min whole")
    print(f"largest group ({graph.size:,} layouts, {sources.shape[0]:,} sources after "
          f"mirror pairs): projected {whole / 60:.1f} min on {threads} threads")
    _gpu_rows(threads)


def _gpu_rows(threads: int) -> None:
    """The kernels on the GPU (``db layers --gpu``), or why not."""
    from gpu_whole_space import kernel_rows  # beside this script

    problem = sweeps_gpu.problem()
    if problem is not None:
        print(f"GPU: no GPU ({problem})")
        return
    kernel_rows(512, threads)


if __name__ == "__main__":
    main()
