"""What ``huarong db layers --plan`` projects against the time the job then takes.

    python benchmarks/bench_layers_plan.py [CLASS ...]

For each class (default 4-6-4: 587 groups, one of 23,704 layouts and 586 of at most 512;
5-4-1: 898 groups, the largest that of 横刀立马 with 25,955 layouts), a database of its
jiang-bing alone is made, then the plan's estimate on one thread is printed beside the
measured run on one thread.  The promise: within a factor of two.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.small_database import class_database

from huarong.space import layers

DEFAULT_CLASSES = ("4-6-4", "5-4-1")


def main(names: list[str]) -> None:
    print(f"{'class':<7} {'estimate s':>10} {'measured s':>10} {'ratio':>6}  within 2x")
    for name in names or DEFAULT_CLASSES:
        (key,) = layers.parse_class(name)
        with tempfile.TemporaryDirectory(dir=".") as directory:
            path = class_database(Path(directory) / "class.duckdb", key[:2])
            plans = layers.plan(path, [key])
            estimate = layers.estimate_seconds(plans, cores=1)
            started = time.perf_counter()
            layers.run(path, plans, threads=1)
            measured = time.perf_counter() - started
        ratio = measured / estimate
        print(f"{name:<7} {estimate:>10.1f} {measured:>10.1f} {ratio:>6.2f}  "
              f"{'yes' if 0.5 <= ratio <= 2 else 'NO'}")


if __name__ == "__main__":
    main(sys.argv[1:])
