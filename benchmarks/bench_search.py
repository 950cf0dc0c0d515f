"""Benchmark of the exhaustive search (``huarong puzzle search``,
``huarong.puzzles.exhaustive``), each row beside its anchor.

Run: ``python benchmarks/bench_search.py [--repeats 5] [--sbp] [--rush-fraction F]``.
Timings are wall-clock, best of ``--repeats``, after compilation ("warm").  Each search is
split into its parts:

- enumeration: the walk over every placement (a second walk, every state already found);
- graph: the clusters' breadth-first searches (a search without distances, less the walk);
- distances: the searches from the solved states (the whole search, less the two above).

Rows:

- a small search, the issue's "3x4 board with four pieces": target well under a second;
- Klotski's pieces on its 5x4 board (横刀立马's set: one 2x2, one 1x2, four 2x1, four 1x1),
  every placement; anchor: the cluster of 横刀立马 by ``huarong.puzzles.group`` (the
  one-cluster search), found among the clusters with the same states and hardest length;
- with ``--big``: seven pieces on an empty 5x5 board (``2x2,1x2*2,2x1*2,1x1*3``, 1.3e9
  codes): one cluster of 17,027,296 states (once; about half a minute);
- with ``--sbp``: the ``sbp-4x4`` preset (every partition of the 4x4 board, on every core,
  once; about a minute and a half on two idle cores), beside Bickford's three hours for the
  same search (a 2012 PC, the only published time).  Its enumeration column is the walk
  over the partitions (twice: counting, then writing the seeds) and the sort into groups;
  the CPU time of all threads is printed too, as the machine may be shared.
- with ``--rush-fraction F``: the ``rush-hour`` preset on every k-th choice of the six rows'
  contents (k = 1/F, every column arrangement for each), once per part: enumeration (the
  seeds: solved placements no other piece can move left or up from), graph (the clusters'
  searches), distances (from the solved states, the hardest start), minimality (his test:
  his solver's searches without each piece its solution leaves unmoved); each part's time,
  and the counts, divided by F for the whole search, beside Fogleman's "about 3 hours" and
  his 2,577,412 rows.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from huarong.puzzles import cluster_summary, load_puzzle
from huarong.puzzles.exhaustive import SearchResult, code_bitset, run
from huarong.puzzles.specs import board_of
from timing import best_of

SMALL = ("3x4", "2x2,1x2,1x1*2", "2x2@1,2")
KLOTSKI = ("5x4", "2x2,1x2,2x1*4,1x1*4", "2x2@3,1")
BIG = ("5x5", "2x2,1x2*2,2x1*2,1x1*3", "2x2@3,3")
HENG_DAO_LI_MA = "1A9BF0C00"


def parts(spec: tuple[str, str, str], repeats: int) -> tuple[dict[str, float], SearchResult]:
    """The whole search's time and its three parts, and its result."""
    space = board_of(*spec)
    run(space)  # compile
    whole, result = best_of(repeats, lambda: run(space))
    bare, _ = best_of(repeats, lambda: run(space, distances=False))

    def walk() -> None:
        seen = code_bitset(space)
        run(space, seen=seen, distances=False)
        began = time.perf_counter()
        run(space, seen=seen)
        walks.append(time.perf_counter() - began)

    walks: list[float] = []
    for _ in range(repeats):
        walk()
    enumeration = min(walks)
    return {"whole": whole, "enumeration": enumeration, "graph": bare - enumeration,
            "distances": whole - bare}, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--big", action="store_true", help="Also run the 5x5 board.")
    parser.add_argument("--sbp", action="store_true", help="Also run the sbp-4x4 preset.")
    parser.add_argument("--rush-fraction", type=float, default=None, metavar="F",
                        help="Also run this share of the rush-hour preset (as 0.0001).")
    arguments = parser.parse_args()
    table = Table(title="exhaustive search (warm, best of runs)")
    for column in ("search", "clusters", "states", "hardest", "whole s", "enumeration s",
                   "graph s", "distances s", "anchor"):
        table.add_column(column, justify="left" if column in ("search", "anchor") else "right")

    for name, spec, anchor in (("small 3x4, four pieces", SMALL, "target < 1 s"),
                               ("Klotski's pieces, 5x4", KLOTSKI, None)):
        times, result = parts(spec, arguments.repeats)
        totals = result.totals()
        if anchor is None:
            summary = cluster_summary(load_puzzle(HENG_DAO_LI_MA))
            same = bool(((result.states == summary.states)
                         & (result.length == summary.hardest_length)).any())
            anchor = (f"group(横刀立马): {summary.states:,} states, hardest "
                      f"{summary.hardest_length}: {'found' if same else 'MISSING'}")
        hardest = totals["hardest"]["length"] if totals["hardest"] else "-"
        table.add_row(name, f"{totals['clusters']:,}", f"{totals['states']:,}", str(hardest),
                      f"{times['whole']:.4f}", f"{times['enumeration']:.4f}",
                      f"{times['graph']:.4f}", f"{times['distances']:.4f}", anchor)

    if arguments.big:
        began = time.perf_counter()
        totals = run(board_of(*BIG)).totals()
        took = time.perf_counter() - began
        table.add_row("5x5, seven pieces", f"{totals['clusters']:,}", f"{totals['states']:,}",
                      str(totals["hardest"]["length"]), f"{took:.1f}", "", "", "",
                      "one cluster, 1.3e9 codes")
    if arguments.sbp:
        import os

        from huarong.puzzles.presets.bickford import BICKFORD_LENGTHS, sbp_4x4, sbp_seeds

        sbp_4x4(rows=3, columns=3)  # compile
        began = time.perf_counter()
        sbp_seeds()
        enumeration = time.perf_counter() - began
        began, cpu = time.perf_counter(), time.process_time()
        records = sbp_4x4(threads=os.cpu_count() or 1)
        took, cpu = time.perf_counter() - began, time.process_time() - cpu
        same = [r.length for r in records] == list(BICKFORD_LENGTHS)
        table.add_row("sbp-4x4 preset (every partition)",
                      f"{sum(r.clusters for r in records):,}",
                      f"{sum(r.states for r in records):,}",
                      str(max(r.length for r in records)), f"{took:.1f} (CPU {cpu:.0f})",
                      f"{enumeration:.1f}", "", "",
                      f"Bickford 2012: ~3 h; his 15 lengths: {'all' if same else 'NOT'} equal")
    Console().print(table)
    if arguments.rush_fraction is not None:
        Console().print(rush_table(arguments.rush_fraction))


def rush_table(fraction: float) -> Table:
    """The rush-hour preset on a share of the search, part by part, scaled to the whole."""
    import numpy as np

    from huarong._kernels import rush_hour as kernels
    from huarong.puzzles.presets import rush_hour as rush

    chosen = rush.sample(fraction)
    rush.search_unit(rush.unit_of(rush.FOGLEMAN_HARDEST[1]))  # compile
    share = len(chosen) / sum(1 for unit in rush.units() for _ in unit.arrangements())
    table = Table(title=f"rush-hour preset: {len(chosen):,} row choices, {share:.2e} of the "
                        "search (one thread; whole = measured / share)")
    for column in ("part", "measured s", "whole s", "whole h", "counts, whole", "anchor"):
        table.add_column(column, justify="left" if column in ("part", "anchor") else "right")
    names = {kernels.ENUMERATE: "enumeration", kernels.CLUSTERS: "graph (clusters)",
             kernels.DISTANCES: "distances", kernels.FOGLEMAN: "minimality (his test)"}
    previous = 0.0
    total = 0.0
    for mode, name in names.items():
        tallies = np.zeros(4, dtype=np.int64)
        began = time.perf_counter()
        for unit in chosen:
            rush.search_unit(unit, mode, tallies)
        took = time.perf_counter() - began
        part = took - previous
        previous = took
        total = took
        seeds, clusters, states, rows = (int(x) / share for x in tallies)
        counts = {kernels.ENUMERATE: f"{seeds:.3g} seeds",
                  kernels.CLUSTERS: f"{clusters:.3g} clusters, {states:.3g} states",
                  kernels.DISTANCES: "",
                  kernels.FOGLEMAN: f"{rows:,.0f} rows"}[mode]
        anchor = f"Fogleman: {rush.FOGLEMAN_ROWS:,} rows" if mode == kernels.FOGLEMAN else ""
        table.add_row(name, f"{part:.1f}", f"{part / share:,.0f}", f"{part / share / 3600:.2f}",
                      counts, anchor)
    table.add_row("whole", f"{total:.1f}", f"{total / share:,.0f}",
                  f"{total / share / 3600:.2f}", "", "Fogleman 2018: about 3 h")
    return table


if __name__ == "__main__":
    main()
