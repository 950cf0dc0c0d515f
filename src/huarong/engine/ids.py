"""A layout's id and its short code.

The *id* of a layout is the rank of its common code among all 29,334,498 legal codes sorted
ascending (the database's ``id`` column).  The perfect index of :mod:`huarong._kernels.cases`
computes it from the code alone, and :func:`code_of_id` inverts it the same way, so it is a
property of one layout and lives here in the engine: the space (:mod:`huarong.space.cases`)
handles the ids of all layouts at once, in bulk, on top of it.

The *short code* is how the klotski C++ engine and its Python binding name a layout: the id
written in base 32 with the digits ``123456789ABCDEFGHJKMNPQRSTUVWXYZ`` (no 0, I, L or O),
most significant first, padded to 5 (``1A9BF0C00`` is id 4,091,296, short code ``4WVE1``;
id 0 is ``11111``).  Read case-insensitively, with or without a leading ``@``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from huarong.engine.board import InvalidShortCodeError

if TYPE_CHECKING:
    import numpy as np

LAYOUT_COUNT: Final = 29_334_498
SHORT_CODE_DIGITS: Final = "123456789ABCDEFGHJKMNPQRSTUVWXYZ"
SHORT_CODE_LENGTH: Final = 5
SHORT_CODE_PREFIX: Final = "@"
"""Marks a short code where five characters could also be read as a common code."""
_DIGIT_VALUE: Final = {digit: value for value, digit in enumerate(SHORT_CODE_DIGITS)}


@functools.cache
def index_tables() -> tuple[np.ndarray, np.ndarray]:
    """The perfect index's completion counts (12 MB) and per-2x2-address offsets."""
    from huarong._kernels import cases

    table = cases.completion_table()
    return table, cases.head_offsets(table)


@functools.cache
def rank_index() -> tuple[np.ndarray, np.ndarray]:
    """The perfect index code -> id as a small automaton (see ``rank_automaton``)."""
    from huarong._kernels import cases

    index: tuple[np.ndarray, np.ndarray] = cases.rank_automaton(*index_tables())
    return index


@functools.cache
def _digit_bytes() -> np.ndarray:
    import numpy as np

    return np.array(list(SHORT_CODE_DIGITS.encode("ascii")), dtype=np.uint8)


@functools.cache
def _short_code_kernel() -> Callable[[int], int]:
    """The kernel writing a common code's short code, its tables bound: pages name every
    child of a layout by short code, and the call takes 0.5 us where finding its tables and
    imports anew each time took 2 us more."""
    from huarong._kernels import cases

    automaton, heads = rank_index()
    digits = _digit_bytes()
    kernel = cases.short_code_of_code
    return lambda code: int(kernel(code, automaton, heads, digits, SHORT_CODE_LENGTH))


def _spelled(packed: int) -> str:
    return packed.to_bytes(SHORT_CODE_LENGTH, "big").decode("ascii")


def id_of_code(code: int) -> int:
    """The id of a common code, or -1 when it is not the code of a legal layout."""
    import numpy as np

    from huarong._kernels import cases

    if not 0 <= code < 1 << 36:
        return -1
    return int(cases.rank_of(np.int64(code), *rank_index()))


def code_of_id(layout_id: int) -> int:
    """The common code of the layout with id ``layout_id``; ValueError when out of range."""
    import numpy as np

    from huarong._kernels import table

    if not 0 <= layout_id < LAYOUT_COUNT:
        raise ValueError(f"layout id {layout_id} is out of range 0..{LAYOUT_COUNT - 1:,}")
    completions, offsets = index_tables()
    return int(table.code_of_rank(np.int64(layout_id), completions, offsets))


def short_code_of_id(layout_id: int) -> str:
    """The short code of an id (see the module docstring)."""
    import numpy as np

    from huarong._kernels import cases

    if not 0 <= layout_id < LAYOUT_COUNT:
        raise ValueError(f"layout id {layout_id} is out of range 0..{LAYOUT_COUNT - 1:,}")
    return _spelled(int(cases.short_code_of_rank(np.int64(layout_id), _digit_bytes(),
                                                 SHORT_CODE_LENGTH)))


def short_code_of_code(code: int) -> str:
    """The short code of a common code; ValueError when it is not a legal layout's."""
    packed = _short_code_kernel()(code) if 0 <= code < 1 << 36 else -1
    if packed < 0:
        raise ValueError(f"{code:X} is not the common code of a legal layout")
    return _spelled(packed)


def is_short_code_text(text: str) -> bool:
    """Whether ``text`` is spelled like a short code: five of its digits, any case, after an
    optional ``@`` (its value may still be out of range)."""
    digits = text.strip().removeprefix(SHORT_CODE_PREFIX).upper()
    return len(digits) == SHORT_CODE_LENGTH and all(ch in _DIGIT_VALUE for ch in digits)


def id_of_short_code(text: str) -> int:
    """The id a short code names; :class:`~huarong.engine.board.InvalidShortCodeError`
    naming the input and the fault."""
    digits = text.strip().removeprefix(SHORT_CODE_PREFIX).upper()
    if len(digits) != SHORT_CODE_LENGTH:
        raise InvalidShortCodeError(text, f"{len(digits)} characters, a short code has "
                                          f"{SHORT_CODE_LENGTH}")
    bad = next((ch for ch in digits if ch not in _DIGIT_VALUE), None)
    if bad is not None:
        raise InvalidShortCodeError(text, f"{bad!r} is not a short-code digit "
                                          f"({SHORT_CODE_DIGITS})")
    value = 0
    for ch in digits:
        value = value * len(SHORT_CODE_DIGITS) + _DIGIT_VALUE[ch]
    if value >= LAYOUT_COUNT:
        raise InvalidShortCodeError(text, f"it stands for id {value:,}, past the last layout "
                                          f"(id {LAYOUT_COUNT - 1:,}, short code "
                                          f"{short_code_of_id(LAYOUT_COUNT - 1)})")
    return value
