"""numba.cuda as the GPU kernels use it (numba-cuda, the ``gpu`` extra): the only module that
imports ``numba.cuda``, with what every kernel of :mod:`huarong._kernels.layers_cuda_levels`
and :mod:`huarong._kernels.group_analysis_cuda` shares: the decorators, a thread's cell of a
grid, a launch's grid, the lowest set bit of a word, zeroing, and the checks of the arrays a
launch is given."""

from __future__ import annotations

from typing import Any

import numpy as np

if not hasattr(np, "row_stack"):
    # numba-cuda 0.30.4 registers an overload of np.row_stack when it compiles a kernel, and
    # numpy 2.5 removed it: the alias lets it start.
    np.row_stack = np.vstack  # type: ignore[attr-defined]

from numba import cuda

__all__ = ["THREADS_A_BLOCK", "cell", "check", "cuda", "cuda_kernel", "device_function", "grid",
           "lowest_bit", "zero"]

THREADS_A_BLOCK = 256


def cuda_kernel(function: Any, **options: bool) -> Any:
    """``cuda.jit(cache=True)``, uncached where no cache directory is writable (as
    :func:`huarong._kernels._jit.kernel`).  Typed Any: a launch is written
    ``kernel[blocks, threads](...)``, which no stub describes."""
    try:
        return cuda.jit(cache=True, **options)(function)
    except RuntimeError:
        return cuda.jit(cache=False, **options)(function)


def device_function(function: Any) -> Any:
    return cuda_kernel(function, device=True)


@device_function
def lowest_bit(word: np.int64) -> np.int64:
    """The index of the lowest set bit of a non-zero word.  Not cuda.ffs: numba's simulator
    takes its argument for 32 bits.  Each half is non-negative, so nothing overflows."""
    low = word & 0xFFFFFFFF
    if low != 0:
        return np.int64(cuda.popc(~low & (low - 1)))
    high = (word >> 32) & 0xFFFFFFFF
    return np.int64(32 + cuda.popc(~high & (high - 1)))


@device_function
def cell(rows: np.int64, columns: np.int64) -> tuple[np.int64, np.int64]:
    """This thread's (row, column) in a rows × columns grid; row -1 beyond it."""
    t = cuda.grid(1)
    if t >= rows * columns:
        return np.int64(-1), np.int64(0)
    return np.int64(t // columns), np.int64(t % columns)


@cuda_kernel
def zero(words: Any) -> None:
    row, column = cell(words.shape[0], words.shape[1])
    if row >= 0:
        words[row, column] = 0


def grid(threads: int) -> tuple[int, int]:
    """(blocks, threads a block) covering ``threads``: small launches in small blocks."""
    block = min(THREADS_A_BLOCK, max(32, -(-threads // 32) * 32))
    return max(1, -(-threads // block)), block


def check(name: str, array: np.ndarray, dtype: type, ndim: int) -> None:
    """ValueError naming ``name`` unless ``array`` is a numpy array of this dtype and ndim."""
    if not isinstance(array, np.ndarray) or array.dtype != dtype or array.ndim != ndim:
        raise ValueError(f"{name}: want a {ndim}-d {np.dtype(dtype).name} array")
