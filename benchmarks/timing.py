"""Timing shared by the benchmark scripts (run as ``python benchmarks/NAME.py``, so this
module sits beside them on the import path)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(repeats: int, action: Callable[[], Any]) -> tuple[float, Any]:
    """Smallest wall time of ``repeats`` runs and the last run's value."""
    best = float("inf")
    value = None
    for _ in range(repeats):
        began = time.perf_counter()
        value = action()
        best = min(best, time.perf_counter() - began)
    return best, value
