"""How much of a GPU sweep's level is frontier: the figure behind the ``list`` kernel of
:mod:`huarong._kernels.layers_cuda` (issue 32).  No GPU needed.

    python benchmarks/frontier_density.py [--group SEED] [--words W ...]

For word ``w`` of a sweep (the clustered sources ``64 w`` to ``64 w + 63`` of the group, as
``db layers`` orders them), one breadth-first search a source gives every layout's distance
from each; a layout is on the word's frontier at a level when some source of the word is at
that distance from it.  The table gives the levels the word's sweep takes (its largest
eccentricity, plus one) and the mean levels a layout is on the word's frontier: their ratio
is the share of (layout, word)s a level of ``push`` or ``pull`` finds on the frontier, the
rest being passed over for nothing.  Default: words 0 and 100 of the largest group
(964,656 layouts), about a minute on one core.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from huarong.engine.layout import Layout
from huarong.space import cases
from huarong.space.layers.graph import build_group_graph


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--group", default=None, metavar="SEED",
                        help="the group (default: the largest)")
    parser.add_argument("--words", type=int, nargs="+", default=[0, 100], metavar="W")
    options = parser.parse_args()
    started = time.perf_counter()
    if options.group is None:
        codes, groups = cases.all_codes(), cases.label_groups()
        largest = int(np.argmax(groups.sizes))
        graph, sources = build_group_graph(int(codes[groups.first_ids[largest]]),
                                           int(groups.sizes[largest]))
    else:
        graph, sources = build_group_graph(int(Layout.from_code(options.group)))
    print("| word | sources | levels of its sweep | mean levels a layout is on its frontier "
          "| share of a level on the frontier |")
    print("| --- | --- | --- | --- | --- |")
    for word in options.words:
        chosen = sources[64 * word:64 * word + 64]
        if chosen.size == 0:
            raise SystemExit(f"word {word}: the group has {sources.shape[0]} sources")
        distances = np.sort(np.stack([graph.distances([int(source)]) for source in chosen]),
                            axis=0)
        on_frontier = 1 + np.count_nonzero(np.diff(distances, axis=0), axis=0)
        levels = int(distances.max()) + 1
        print(f"| {word} | {chosen.size} | {levels} | {on_frontier.mean():.2f} "
              f"| {on_frontier.mean() / levels:.0%} |", flush=True)
    print(f"\n{graph.size:,} layouts, {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
