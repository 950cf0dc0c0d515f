"""The GPU layer sweeps (``huarong db layers --gpu``, issue 32) on a machine with a CUDA GPU:
each kernel of :data:`huarong._kernels.layers_cuda.KERNELS` (int64 and int32 offsets) on the
largest group, the small groups of every class packed together, the group graphs built on
every core, and the GPU's figures against the CPU's.  One table.

    python benchmarks/gpu_whole_space.py [--sources N] [--group SEED] [--check SEED]
        [--no-small] [--db PATH] [--classes J-B ...]

- Kernels: the first N clustered sources of the largest group (964,656 layouts; default
  16,384 sources, four segments of 4,096), or of the group of ``--group``, ns a (source,
  layout) pair; every kernel's figures equal the first's, and on the group of ``--check``
  (default 1A9BF0C00, 25,955 layouts) the CPU's.
- Small groups (unless ``--no-small``): every searched group under
  :data:`huarong.space.layers.job.GPU_BIG_GROUP` layouts, of every class, graphs built on
  every core (timed), then swept in the batches ``db layers --gpu`` makes (timed): the rate
  ``--plan --gpu`` uses for them.
- With ``--db``: the classes ``--classes`` (default 5-4, which ``db build`` computes on the
  CPU) swept on the GPU and compared layout by layout with the database.

The last line names the fastest kernel (``fastest kernel: NAME``), for
``HUARONG_GPU_KERNEL``.  Without numba-cuda or a GPU it prints what is missing and stops;
under numba's simulator (``NUMBA_ENABLE_CUDASIM=1``) it runs, slowly: tiny groups only
(``--group 82029F400 --check C58763000 --no-small``)."""

from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

import numpy as np

from huarong.engine.layout import Layout
from huarong.graph import sweeps_gpu
from huarong.graph.sweeps import sweep_graphs
from huarong.space import cases, layers
from huarong.space.layers.graph import build_group_graph, joined, with_mirrors
from huarong.space.layers.job import GPU_BIG_GROUP
from huarong.space.layers.runner import GPU_BATCH_PIECES
from huarong.workers import as_finished

REPEATS = 2
"""Runs of each kernel on the timed group; the best counts."""


def _row(what: str, figure: str) -> None:
    print(f"| {what} | {figure} |", flush=True)


def _searched_groups() -> tuple[np.ndarray, np.ndarray]:
    """(seeds, sizes) of the groups ``db layers --all`` searches: of two mirror-image groups
    the one with the smaller seed."""
    codes = cases.all_codes()
    groups = cases.label_groups()
    firsts = groups.first_ids
    mirror_seed = codes[firsts[groups.group[layers.mirror_ids(codes[firsts])]]]
    searched = codes[firsts] <= mirror_seed
    return codes[firsts][searched], groups.sizes[searched].astype(np.int64)


def kernel_rows(count: int, threads: int, group: str | None = None,
                check: str = "1A9BF0C00") -> str:
    """One row a kernel on the group of ``group`` (default: the largest), the best of
    :data:`REPEATS` runs, each checked on the group of ``check`` against the CPU; returns the
    fastest kernel's name."""
    from huarong._kernels.layers_cuda import KERNEL_VARIABLE, KERNELS

    started = time.perf_counter()
    if group is None:
        seeds, sizes = _searched_groups()
        largest = int(np.argmax(sizes))
        graph, clustered = build_group_graph(int(seeds[largest]), int(sizes[largest]))
        named = "the largest group"
    else:
        graph, clustered = build_group_graph(int(Layout.from_code(group)))
        named = f"group {group}"
    _row(f"graph of {named} ({graph.size:,} layouts), one thread",
         f"{time.perf_counter() - started:.2f} s")
    sources = np.ascontiguousarray(clustered[:count])
    middle, middle_sources = build_group_graph(int(Layout.from_code(check)))
    [cpu] = sweep_graphs([(middle, middle_sources)], threads=threads)
    first: np.ndarray | None = None
    timings: dict[str, float] = {}
    for kernel in [name + suffix for name in KERNELS for suffix in ("", "32")]:
        os.environ[KERNEL_VARIABLE] = kernel
        [checked] = sweep_graphs([(middle, middle_sources)], backend="gpu")  # compiles too
        seconds = math.inf
        for _ in range(REPEATS):
            started = time.perf_counter()
            [figures] = sweep_graphs([(graph, sources)], backend="gpu")
            seconds = min(seconds, time.perf_counter() - started)
        first = figures if first is None else first
        same = figures.tobytes() == first.tobytes() and checked.tobytes() == cpu.tobytes()
        if same:
            timings[kernel] = seconds
        _row(f"kernel {kernel}: {named}, {sources.shape[0]:,} sources",
             f"{seconds:.2f} s, {seconds / (sources.shape[0] * graph.size) * 1e9:.4f} ns a "
             f"pair, {'equal' if same else 'DIFFERENT'}")
    del os.environ[KERNEL_VARIABLE]
    if not timings:
        raise SystemExit("no kernel gives the CPU's figures")
    return min(timings, key=lambda name: timings[name])


def small_rows(threads: int) -> None:
    """The small groups of every class: graphs on every core, then packed sweeps."""
    seeds, sizes = _searched_groups()
    small = np.flatnonzero(sizes < GPU_BIG_GROUP)
    started = time.perf_counter()
    built = dict(as_finished(lambda at: build_group_graph(int(seeds[at]), int(sizes[at])),
                             small.tolist(), threads=threads))
    jobs = [built[index] for index in range(small.shape[0])]
    _row(f"graphs of the {small.shape[0]:,} small groups, {threads} threads",
         f"{time.perf_counter() - started:.2f} s")
    pairs = sum(graph.size * sources.shape[0] for graph, sources in jobs)
    started = time.perf_counter()
    for first in range(0, len(jobs), GPU_BATCH_PIECES):
        sweep_graphs(jobs[first:first + GPU_BATCH_PIECES], backend="gpu")
    seconds = time.perf_counter() - started
    _row(f"small groups swept, {-(-len(jobs) // GPU_BATCH_PIECES)} batches",
         f"{seconds:.2f} s, {seconds / pairs * 1e9:.3f} ns a pair ({pairs:.3g} pairs)")


def _stored_figures(database: Path, jiang: int, bing: int) -> tuple[np.ndarray, np.ndarray]:
    """(ids, (5, n) figures) of the class's layouts whose figures the database holds."""
    import duckdb

    connection = duckdb.connect(str(database), read_only=True)
    try:
        rows = connection.execute(
            "SELECT id, " + ", ".join(f"coalesce({name}, -1)" for name in
                                      layers.FIGURE_COLUMNS)
            + " FROM layouts WHERE jiang = ? AND bing = ? AND farthest_steps IS NOT NULL "
            "ORDER BY id", [jiang, bing]).fetchnumpy()
    finally:
        connection.close()
    return (np.asarray(rows["id"]),
            np.stack([np.asarray(column) for name, column in rows.items() if name != "id"]))


def compare_rows(database: Path, classes: list[str]) -> None:
    """The classes swept on the GPU against the figures the database holds."""
    seeds, sizes = _searched_groups()
    cls = cases.classes()
    codes = cases.all_codes()
    for text in classes:
        jiang, bing = (int(part) for part in text.split("-")[:2])
        mine = np.isin(seeds, codes[(cls.jiang == jiang) & (cls.bing == bing)])
        jobs = [build_group_graph(int(seed), int(size))
                for seed, size in zip(seeds[mine], sizes[mine], strict=True)]
        found_codes, figures = joined(with_mirrors(jobs, sweep_graphs(jobs, backend="gpu")))
        found_ids = cases.layout_ids(found_codes)
        ids, stored = _stored_figures(database, jiang, bing)
        order = np.argsort(found_ids)
        equal = (np.array_equal(found_ids[order], ids)
                 and np.array_equal(figures[:, order], stored))
        _row(f"class {text} on the GPU against the database ({ids.shape[0]:,} layouts)",
             "equal" if equal else "DIFFERENT")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sources", type=int, default=16_384)
    parser.add_argument("--group", default=None, metavar="SEED",
                        help="the group the kernels are timed on (default: the largest)")
    parser.add_argument("--check", default="1A9BF0C00", metavar="SEED",
                        help="the group each kernel's figures are checked on against the CPU")
    parser.add_argument("--no-small", action="store_true", help="skip the small groups")
    parser.add_argument("--db", type=Path, default=None,
                        help="a database whose figures of --classes are compared")
    parser.add_argument("--classes", nargs="+", default=["5-4"], metavar="J-B")
    options = parser.parse_args()
    problem = sweeps_gpu.problem()
    if problem is not None:
        print(f"no GPU: {problem}")
        return
    threads = os.cpu_count() or 1
    from numba import cuda

    name = getattr(cuda.get_current_device(), "name", "numba's simulator")
    _row("card", name.decode() if isinstance(name, bytes) else str(name))
    fastest = kernel_rows(options.sources, threads, options.group, options.check)
    if not options.no_small:
        small_rows(threads)
    if options.db is not None:
        compare_rows(options.db, options.classes)
    print(f"fastest kernel: {fastest}")


if __name__ == "__main__":
    main()
