"""All numba code of huarong, one module per feature; nothing outside this package imports
numba.  Public modules import these lazily, so starting the command line stays instant.

``first_compile_callbacks`` lives here, outside the numba-importing modules, so the command
line can ask to be told about a slow first compilation without importing numba itself."""

from collections.abc import Callable

first_compile_callbacks: list[Callable[[], None]] = []
