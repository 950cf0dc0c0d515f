"""The one place numba is configured: cached compilation with a read-only fallback.

Every kernel module in this package decorates its hot loops with :func:`kernel`.  Kernels are
compiled lazily (on first call) and cached on disk; when the cache directory cannot be written
(a read-only install) numba refuses ``cache=True`` at decoration time, so we fall back to plain
in-memory compilation instead of failing.

A long first compilation must not look like a hang: callbacks in
``huarong._kernels.first_compile_callbacks`` run once, when numba starts a real compilation
(cache loads do not trigger it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
from numba.core import event

from huarong._kernels import first_compile_callbacks

F = TypeVar("F", bound=Callable[..., Any])

_compile_seen = False
_compile_lock = threading.Lock()


class _CompileListener(event.Listener):  # type: ignore[misc]
    def on_start(self, event_: Any) -> None:
        # Threads (group analysis sweeps) may start compiling at the same moment: say it once.
        global _compile_seen
        with _compile_lock:
            if _compile_seen:
                return
            _compile_seen = True
        for callback in first_compile_callbacks:
            callback()

    def on_end(self, event_: Any) -> None:
        pass


event.register("numba:compile", _CompileListener())  # type: ignore[no-untyped-call]


def kernel(function: F) -> F:
    """``numba.njit(cache=True)``, or uncached when no cache directory is writable."""
    try:
        return cast(F, numba.njit(cache=True, nogil=True)(function))
    except RuntimeError:
        return cast(F, numba.njit(cache=False, nogil=True)(function))


def inline_kernel(function: F) -> F:
    """Like :func:`kernel`, inlined into its callers (numba's IR inlining).  A call to a
    kernel of a cached module stays a call, and in a hot loop it costs more than its body:
    it keeps the caller's array loads from being hoisted (measured 4x on a decoding loop)."""
    try:
        return cast(F, numba.njit(cache=True, nogil=True, inline="always")(function))
    except RuntimeError:
        return cast(F, numba.njit(cache=False, nogil=True, inline="always")(function))


def parallel_kernel(function: F) -> F:
    """Like :func:`kernel`, for loops written with ``numba.prange``."""
    try:
        return cast(F, numba.njit(cache=True, nogil=True, parallel=True)(function))
    except RuntimeError:
        return cast(F, numba.njit(cache=False, nogil=True, parallel=True)(function))


prange = numba.prange


def _trailing_zeros_in_python(word: Any) -> int:
    return int((int(word) & -int(word)).bit_length() - 1)


def _llvm_trailing_zeros() -> Callable[[Any], Any]:
    # LLVM's cttz: one instruction, where a de Bruijn table look-up costs a multiply and a
    # load (measured 12% of a layer sweep).
    from numba.cpython.unsafe.numbers import trailing_zeros as intrinsic

    return cast(Callable[[Any], Any], intrinsic)


trailing_zeros: Callable[[Any], Any] = (
    _trailing_zeros_in_python if getattr(numba.config, "DISABLE_JIT", False)
    else _llvm_trailing_zeros())
"""The number of zero bits below the lowest set bit of a non-zero int64 word."""


def thread_count() -> int:
    """How many threads parallel kernels use (numba's setting, NUMBA_NUM_THREADS)."""
    return int(numba.get_num_threads())
