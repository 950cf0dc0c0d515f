"""Hot loops for the statistics of many layouts at once: mirror images in bulk."""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.klotski import (
    CAO,
    CELLS,
    COLS,
    HORIZONTAL,
    PATTERN,
    SOLDIER,
    VERTICAL,
    board_to_code,
    code_to_board,
)

_NOT_A_TOP_LEFT = -1
# The piece kind whose top-left cell holds each board value (see klotski's board encoding).
_KIND_STARTING_AT = np.array(
    [_NOT_A_TOP_LEFT, SOLDIER, HORIZONTAL, _NOT_A_TOP_LEFT, VERTICAL, _NOT_A_TOP_LEFT, CAO,
     _NOT_A_TOP_LEFT], dtype=np.int64)
_WIDTH = np.array([2, 2, 1, 1], dtype=np.int64)


@kernel
def mirror_code(code: np.int64) -> np.int64:
    """The common code of a layout's left-right mirror image."""
    board = code_to_board(code)
    mirrored = np.int64(0)
    for address in range(CELLS):
        kind = _KIND_STARTING_AT[(board >> (3 * address)) & 7]
        if kind != _NOT_A_TOP_LEFT:
            mirrored |= PATTERN[kind, address + COLS - _WIDTH[kind] - 2 * (address % COLS)]
    return board_to_code(mirrored)


@kernel
def mirror_codes(codes: np.ndarray) -> np.ndarray:
    """:func:`mirror_code` of every code of an int64 array."""
    mirrored = np.empty_like(codes)
    for index in range(codes.shape[0]):
        mirrored[index] = mirror_code(codes[index])
    return mirrored
