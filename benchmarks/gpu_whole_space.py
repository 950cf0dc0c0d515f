"""The GPU layer sweeps (``huarong db layers --gpu``, issue 23) on a machine with a CUDA GPU:
ns per pair on the three groups the issue names, then the whole space's wall time, checked
against the CPU sweeps.

    python benchmarks/gpu_whole_space.py [--db PATH] [--skip-whole-space] [--classes J-B-S ..]

- Groups: the groups of 1A9BF0C00 and 4FEA13400 and the largest group (964,656 layouts), each
  swept whole on the GPU; ns per pair counted both ways: per size² (as bench_layers.py does, so
  the mirror saving shows as speed) and per (source searched, layout).  The first two are
  checked against the CPU sweep on every source, the largest on its first 512.
- Whole space: every group of every class on the GPU, class by class as ``db layers --all``
  cuts them (graph building, done on the CPU, timed apart), nothing written.  With ``--db``,
  every class whose figures that database already holds (from the CPU path: ``db layers``
  without ``--gpu``) is compared layout by layout.

Without numba-cuda or without a GPU it prints what is missing and stops."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from huarong.engine.layout import Layout
from huarong.space import cases, layers
from huarong.space.layers import gpu
from huarong.space.layers.graph import joined

CPU_CHECK_SOURCES = 512


def group_rows(threads: int) -> None:
    """One row a group of the issue: GPU time, ns per pair, whether the CPU agrees."""
    small = layers.group_graph(int(Layout.from_code("636F53400")))
    gpu.sweep_jobs([(small, np.ascontiguousarray(small.sources))])  # compile or load kernels
    groups = cases.label_groups()
    largest = int(cases.all_codes()[groups.first_ids[int(np.argmax(groups.sizes))]])
    print(f"{'group':<22} {'layouts':>9} {'sources':>9} {'GPU s':>8} {'ns/size²':>9} "
          f"{'ns/src·layout':>14} {'= CPU':>12}")
    for name, seed in (("1A9BF0C00", int(Layout.from_code("1A9BF0C00"))),
                       ("4FEA13400", int(Layout.from_code("4FEA13400"))),
                       ("largest", largest)):
        graph = layers.group_graph(seed)
        sources = np.ascontiguousarray(graph.sources)
        started = time.perf_counter()
        [figures] = gpu.sweep_jobs([(graph, sources)])
        seconds = time.perf_counter() - started
        checked = sources.shape[0] if name != "largest" else CPU_CHECK_SOURCES
        _, cpu = layers.sweep(graph, 0, checked, threads=threads)
        same = figures[:, :checked].tobytes() == cpu.tobytes()
        print(f"{name:<22} {graph.size:>9,} {sources.shape[0]:>9,} {seconds:>8.2f} "
              f"{seconds / graph.size ** 2 * 1e9:>9.3f} "
              f"{seconds / (sources.shape[0] * graph.size) * 1e9:>14.3f} "
              f"{('yes' if same else 'NO'):>5} ({checked:,})", flush=True)


def _stored_figures(database: Path, key: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(ids, (5, n) figures) of the class's layouts whose figures the database holds."""
    import duckdb

    connection = duckdb.connect(str(database), read_only=True)
    try:
        rows = connection.execute(
            "SELECT id, " + ", ".join(f"coalesce({name}, -1)" for name in
                                      layers.FIGURE_COLUMNS)
            + " FROM layouts WHERE jiang = ? AND bing = ? AND style = ? "
            "AND farthest_steps IS NOT NULL ORDER BY id", list(key)).fetchnumpy()
    finally:
        connection.close()
    return (np.asarray(rows["id"]),
            np.stack([np.asarray(column) for name, column in rows.items() if name != "id"]))


def whole_space(database: Path | None, only: list[tuple[int, int, int]] | None = None
                ) -> None:
    """Every class (or the classes ``only``) swept on the GPU, compared with ``database``."""
    codes = cases.all_codes()
    groups = cases.label_groups()
    cls = cases.classes()
    firsts = groups.first_ids
    mirror_id = layers.mirror_ids(codes[firsts])
    mirror_seed = codes[firsts[groups.group[mirror_id]]]
    searched = codes[firsts] <= mirror_seed
    keys = only or sorted(set(zip(cls.jiang[firsts].tolist(), cls.bing[firsts].tolist(),
                                  cls.style[firsts].tolist(), strict=True)))
    graph_seconds = sweep_seconds = 0.0
    compared = differing = 0
    for key in keys:
        chosen = np.flatnonzero(searched & (cls.jiang[firsts] == key[0])
                                & (cls.bing[firsts] == key[1]) & (cls.style[firsts] == key[2]))
        started = time.perf_counter()
        jobs = []
        for group in chosen.tolist():
            graph = layers.group_graph(int(codes[firsts[group]]))
            jobs.append((graph, np.ascontiguousarray(graph.sources)))
        graph_seconds += time.perf_counter() - started
        started = time.perf_counter()
        results = gpu.sweep_jobs(jobs)
        sweep_seconds += time.perf_counter() - started
        if database is None:
            continue
        ids, stored = _stored_figures(database, key)
        if ids.shape[0] == 0:
            continue
        found_codes, figures = joined([
            layers.expand_mirrors(graph.codes[sources], result,
                                  _mirror_codes(graph.codes[sources]), graph.self_mirror)
            for (graph, sources), result in zip(jobs, results, strict=True)])
        found_ids = cases.layout_ids(found_codes)
        order = np.argsort(found_ids)
        mine = np.isin(found_ids[order], ids)
        equal = np.array_equal(figures[:, order][:, mine], stored)
        compared += 1
        differing += not equal
        print(f"class {'-'.join(map(str, key))}: {ids.shape[0]:,} layouts compared, "
              f"{'equal' if equal else 'DIFFER'}", flush=True)
    print(f"whole space: sweeps {sweep_seconds:.1f} s on the GPU, graphs {graph_seconds:.1f} s "
          f"on the CPU; {compared} classes compared with the database, {differing} differ")


def _mirror_codes(codes: np.ndarray) -> np.ndarray:
    from huarong._kernels import klotski

    mirrored: np.ndarray = klotski.mirror_codes(codes)
    return mirrored


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, default=None,
                        help="a database whose CPU-computed classes are compared")
    parser.add_argument("--skip-whole-space", action="store_true")
    parser.add_argument("--classes", nargs="+", default=None, metavar="J-B[-S]",
                        help="only these classes instead of the whole space")
    options = parser.parse_args()
    problem = gpu.problem()
    if problem is not None:
        print(f"no GPU: {problem}")
        return
    group_rows(os.cpu_count() or 1)
    if not options.skip_whole_space:
        whole_space(options.db, None if options.classes is None else
                    [key for text in options.classes for key in layers.parse_class(text)])


if __name__ == "__main__":
    main()
