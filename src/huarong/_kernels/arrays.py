"""The one way the kernels make room: a search's arrays grow by doubling, so that filling an
array costs a constant time an item, copies included.

A search tests for room itself and calls :func:`grown` only when its array is full: an array
variable that a hot loop reassigns costs numba two atomic reference counts each time."""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels._jit import kernel

Int = int | np.integer[Any]


@kernel
def grown(array: np.ndarray, used: Int, needed: Int) -> np.ndarray:
    """``array`` when it has room for ``needed`` items; else a new array of its dtype, at
    least twice as long and ``needed`` long, holding its first ``used`` items (the rest
    unset)."""
    if needed <= array.shape[0]:
        return array
    bigger = np.empty(max(needed, 2 * array.shape[0]), dtype=array.dtype)
    bigger[:used] = array[:used]
    return bigger
