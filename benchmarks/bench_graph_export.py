"""Graph files and bottlenecks: every format written for 横刀立马's group (1A9BF0C00, 25,955
layouts) and the largest group (00006FFF0, 964,656 layouts, 7,749,758 steps), and the
bottlenecks of both, python-igraph (the one used) against networkx.

    python benchmarks/bench_graph_export.py [--only-small] [--no-networkx]

Every figure comes from a child process of its own, so its peak memory (the child's maximum
resident size) is that one task's, the group's search included.  The anchors are issue 31's:
the largest group's GraphML in 60 s within 1.5 GB, its bottlenecks in 60 s.  Files are
written in a fresh directory under the current one, removed at the end.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HENGDAO_LIMA = "1A9BF0C00"
LARGEST = "00006FFF0"
SUFFIXES = (".graphml", ".gexf", ".json", ".parquet", ".csv")
LIMIT_SECONDS = 60
LIMIT_MB = 1500


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _write(code: str, target: str) -> dict[str, float]:
    from huarong.engine.layout import Layout
    from huarong.graph.files import write_graph_file
    from huarong.space.graph_files import group_table

    start = time.perf_counter()
    table = group_table(Layout.parse(code))
    built = time.perf_counter()
    written = write_graph_file(target, table)
    done = time.perf_counter()
    return {"seconds": done - start, "table": built - start, "write": done - built,
            "mb": sum(path.stat().st_size for path in written) / 1e6}


def _igraph(code: str) -> dict[str, float]:
    from huarong.engine.layout import Layout
    from huarong.space.graph_files import group_bottlenecks

    start = time.perf_counter()
    _, found = group_bottlenecks(Layout.parse(code))
    return {"seconds": time.perf_counter() - start,
            "articulation": len(found.articulation_points), "bridges": len(found.bridges),
            "basins": len(found.basins)}


def _networkx(code: str) -> dict[str, float]:
    import networkx as nx

    from huarong.engine.state_graph import klotski_graph

    start = time.perf_counter()
    graph = klotski_graph(int(code, 16))
    linked = nx.Graph()
    linked.add_nodes_from(range(graph.size))
    linked.add_edges_from(graph.edge_pairs().tolist())
    articulation = list(nx.articulation_points(linked))
    bridges = list(nx.bridges(linked))
    return {"seconds": time.perf_counter() - start, "articulation": len(articulation),
            "bridges": len(bridges)}


TASKS = {"write": _write, "igraph": _igraph, "networkx": _networkx}


def _child(task: str, *arguments: str) -> dict[str, float]:
    """Run one task in a child process; its figures and its peak memory."""
    done = subprocess.run([sys.executable, __file__, "--task", task, *arguments],
                          capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only-small", action="store_true", help="Only 1A9BF0C00's group.")
    parser.add_argument("--no-networkx", action="store_true",
                        help="Leave networkx out (several GB on the largest group).")
    parser.add_argument("--task", nargs="+", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.task:
        task, *arguments = options.task
        figures = TASKS[task](*arguments)
        print(json.dumps({**figures, "peak_mb": _peak_mb()}))
        return
    codes = [HENGDAO_LIMA] if options.only_small else [HENGDAO_LIMA, LARGEST]
    folder = Path(tempfile.mkdtemp(prefix="bench-graph-", dir="."))
    try:
        print(f"anchor: the largest group's GraphML <= {LIMIT_SECONDS} s and <= {LIMIT_MB} MB "
              f"peak, its bottlenecks <= {LIMIT_SECONDS} s (issue 31)\n")
        print("| group | format | s (all) | s (attributes) | s (writing) | MB written | "
              "peak MB |\n|---|---|---|---|---|---|---|")
        for code in codes:
            for suffix in SUFFIXES:
                row = _child("write", code, str(folder / f"{code}{suffix}"))
                print(f"| {code} | {suffix[1:]} | {row['seconds']:.1f} | {row['table']:.1f} | "
                      f"{row['write']:.1f} | {row['mb']:.0f} | {row['peak_mb']:.0f} |",
                      flush=True)
        print("\n| group | library | s | peak MB | cut vertices | bridges |\n"
              "|---|---|---|---|---|---|")
        for code in codes:
            for library in ("igraph", *(() if options.no_networkx else ("networkx",))):
                row = _child(library, code)
                print(f"| {code} | {library} | {row['seconds']:.1f} | {row['peak_mb']:.0f} | "
                      f"{row['articulation']:.0f} | {row['bridges']:.0f} |", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
