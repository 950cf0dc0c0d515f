"""Hot loops for one 4x5 Klotski board: the board encoding, steps and mirror images (the
searches over a group are in :mod:`huarong._kernels.group_search`).

Layouts travel as int64 common codes (36 bits, docs §3).  To move pieces a code is unpacked
into a *board*: 3 bits per cell, cell ``a`` at bits ``3a..3a+2``, holding

    0 empty, 1 1x1, 2 horizontal (left half), 3 horizontal (right half),
    4 vertical (top half), 5 vertical (bottom half), 6 2x2 (top-left), 7 2x2 (other cells).

Removing a piece is an XOR with its pattern and placing it another XOR, and a board is packed
back into a code with one table look-up per row, so a step costs a few word operations.

All kernels are private; :mod:`huarong.engine.solver` and :mod:`huarong.engine.analysis` wrap them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from huarong._kernels._jit import kernel

Int = int | np.integer[Any]
"""Scalars a kernel accepts: numba sees int64 either way."""

ROWS = 5
COLS = 4
CELLS = 20
GOAL_HEAD = 13
NO_PARENT = -1

# Piece kinds inside kernels: the code's item values, with the 2x2 as 0.
CAO, HORIZONTAL, VERTICAL, SOLDIER = 0, 1, 2, 3
_WIDTH = np.array([2, 2, 1, 1], dtype=np.int64)
_HEIGHT = np.array([2, 1, 2, 1], dtype=np.int64)
# The board value a piece writes in each of its cells, in row-major order of its cells.
_CELL_VALUES = (
    (6, 7, 7, 7),
    (2, 3),
    (4, 5),
    (1,),
)


def _on_board() -> Iterator[tuple[int, int, int, int]]:
    """(kind, top-left address, width, height) of every placement of a piece that stays on
    the board."""
    for kind in range(4):
        width, height = int(_WIDTH[kind]), int(_HEIGHT[kind])
        for address in range(CELLS):
            row, col = divmod(address, COLS)
            if row + height <= ROWS and col + width <= COLS:
                yield kind, address, width, height


def _build_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per kind and top-left address: the board pattern and the cell mask; 0 when off the
    board.  Masks are *spaced*: cell ``a`` is bit ``3a``, lined up with the board's cells.
    Plus the row packer: a 12-bit board row to (code items, item count)."""
    pattern = np.zeros((4, CELLS), dtype=np.int64)
    mask = np.zeros((4, CELLS), dtype=np.int64)
    for kind, address, width, height in _on_board():
        cells = [address + dy * COLS + dx for dy in range(height) for dx in range(width)]
        for cell, value in zip(cells, _CELL_VALUES[kind], strict=True):
            pattern[kind, address] |= value << (3 * cell)
            mask[kind, address] |= 1 << (3 * cell)
    row_items = np.zeros(1 << 12, dtype=np.int64)
    row_count = np.zeros(1 << 12, dtype=np.int64)
    item_of_value = {0: 0, 1: 3, 2: 1, 4: 2}
    for row_bits in range(1 << 12):
        items = count = 0
        for col in range(COLS):
            value = (row_bits >> (3 * col)) & 7
            if value in item_of_value:
                items = (items << 2) | item_of_value[value]
                count += 1
        row_items[row_bits], row_count[row_bits] = items, count
    return pattern, mask, row_items, row_count


PATTERN, MASK, ROW_ITEMS, ROW_COUNT = _build_tables()


def _build_mirror_rows() -> np.ndarray:
    """A 12-bit board row mirrored left-right: cells reversed, then the halves of each
    horizontal piece and the 2x2's top row put back in left-right order."""
    mirrored = np.zeros(1 << 12, dtype=np.int64)
    halves = {(3, 2): (2, 3), (7, 6): (6, 7)}
    for row_bits in range(1 << 12):
        cells = [(row_bits >> (3 * col)) & 7 for col in range(COLS)][::-1]
        for col in range(COLS - 1):
            pair = (cells[col], cells[col + 1])
            if pair in halves:
                cells[col], cells[col + 1] = halves[pair]
        mirrored[row_bits] = sum(value << (3 * col) for col, value in enumerate(cells))
    return mirrored


MIRROR_ROW = _build_mirror_rows()
ALL_CELLS = sum(1 << (3 * cell) for cell in range(CELLS))


@kernel
def code_to_board(code: Int) -> Int:
    """Unpack a (valid) common code into a 3-bit-per-cell board."""
    head = code >> 32
    board = PATTERN[CAO, head]
    covered = MASK[CAO, head]
    item_index = 0
    for address in range(CELLS):
        if covered & (np.int64(1) << (3 * address)):
            continue
        kind = (code >> (30 - 2 * item_index)) & 3
        item_index += 1
        if kind != 0:
            board |= PATTERN[kind, address]
            covered |= MASK[kind, address]
    return board


@kernel
def board_to_code(board: Int) -> Int:
    """Pack a board into its common code (one table look-up per row)."""
    items = np.int64(0)
    count = np.int64(0)
    head = np.int64(0)
    for row in range(ROWS):
        row_bits = (board >> (12 * row)) & 0xFFF
        n = ROW_COUNT[row_bits]
        items = (items << (2 * n)) | ROW_ITEMS[row_bits]
        count += n
        for col in range(COLS):
            if (row_bits >> (3 * col)) & 7 == 6:
                head = np.int64(row * COLS + col)
    return (head << 32) | (items << (2 * (16 - count)))


@kernel
def occupied_cells(board: Int) -> Int:
    """The spaced mask of the cells holding a piece."""
    return (board | (board >> 1) | (board >> 2)) & ALL_CELLS


def _build_step_tables() -> tuple[np.ndarray, np.ndarray]:
    """Flat per (kind, top-left address) tables, index ``kind * 20 + address``: the up to four
    addresses one unit move away that keep the piece on the board (-1 pads), and per board
    value the offset from that cell back to its piece's top-left (-1 for the 2x2's cells,
    which the search resolves apart)."""
    targets = np.full((4 * CELLS, 4), -1, dtype=np.int64)
    for kind, address, width, height in _on_board():
        row, col = divmod(address, COLS)
        moves = []
        if col > 0:
            moves.append(address - 1)
        if col + width < COLS:
            moves.append(address + 1)
        if row > 0:
            moves.append(address - COLS)
        if row + height < ROWS:
            moves.append(address + COLS)
        targets[kind * CELLS + address, : len(moves)] = moves
    # Board value -> (kind, offset back to the top-left cell); value 0 is an empty cell.
    owner = np.array([[-1, 0], [SOLDIER, 0], [HORIZONTAL, 0], [HORIZONTAL, 1],
                      [VERTICAL, 0], [VERTICAL, COLS], [CAO, 0], [CAO, -1]], dtype=np.int64)
    return targets, owner


UNIT_MOVES, CELL_OWNER = _build_step_tables()
FLAT_PATTERN = PATTERN.reshape(-1).copy()
FLAT_MASK = MASK.reshape(-1).copy()
# Neighbouring cells of each cell (-1 pads), to find the pieces next to an empty cell.
ADJACENT_CELLS = np.array(
    [[c + d for d, ok in ((-COLS, c >= COLS), (COLS, c < CELLS - COLS),
                          (-1, c % COLS > 0), (1, c % COLS < COLS - 1)) if ok]
     + [-1] * (4 - sum((c >= COLS, c < CELLS - COLS, c % COLS > 0, c % COLS < COLS - 1)))
     for c in range(CELLS)], dtype=np.int64)


@kernel
def _cell(board: Int, address: Int) -> Int:
    return (board >> (3 * address)) & 7


@kernel
def board_neighbours(board: Int, out: np.ndarray, stack: np.ndarray) -> Int:
    """Write every board one step from ``board`` into ``out``; return how many.

    One step moves one piece any distance through empty cells, turning corners, so each
    piece next to an empty cell has its reachable positions flood-filled with the piece
    lifted off the board.  ``out`` needs room for 68 boards (the most any layout has),
    ``stack`` for 20 entries."""
    occupied = occupied_cells(board)
    count = 0
    tried = np.int64(0)
    for empty_cell in range(CELLS):
        if occupied & (np.int64(1) << (3 * empty_cell)):
            continue
        for a in range(4):
            cell = ADJACENT_CELLS[empty_cell, a]
            if cell < 0:
                break
            value = _cell(board, cell)
            if value == 0:
                continue
            kind = CELL_OWNER[value, 0]
            if value == 7:
                address = cell - 1
                if address < 0 or _cell(board, address) != 6:
                    address = cell - COLS
                    if _cell(board, address) != 6:
                        address = cell - COLS - 1
            else:
                address = cell - CELL_OWNER[value, 1]
            if tried & (np.int64(1) << address):
                continue
            tried |= np.int64(1) << address
            base = kind * CELLS
            others = occupied & ~FLAT_MASK[base + address]
            lifted = board ^ FLAT_PATTERN[base + address]
            seen = np.int64(1) << address
            stack[0] = address
            top = 1
            while top:
                top -= 1
                position = stack[top]
                for d in range(4):
                    target = UNIT_MOVES[base + position, d]
                    if target < 0:
                        break
                    if seen & (np.int64(1) << target) or FLAT_MASK[base + target] & others:
                        continue
                    seen |= np.int64(1) << target
                    stack[top] = target
                    top += 1
                    out[count] = lifted | FLAT_PATTERN[base + target]
                    count += 1
    return count


@kernel
def neighbours(code: Int, out: np.ndarray, scratch: np.ndarray) -> Int:
    """Like :func:`board_neighbours` on common codes; ``scratch`` needs 20 entries."""
    count = board_neighbours(code_to_board(code), out, scratch)
    for i in range(count):
        out[i] = board_to_code(out[i])
    return count


@kernel
def mirror_code(code: Int) -> Int:
    """The common code of the left-right mirror image of ``code``."""
    board = code_to_board(code)
    mirrored = np.int64(0)
    for address in range(CELLS):
        value = _cell(board, address)
        if value == 0 or CELL_OWNER[value, 1] != 0:
            continue  # not a piece's top-left cell
        kind = CELL_OWNER[value, 0]
        mirrored |= PATTERN[kind, address + COLS - _WIDTH[kind] - 2 * (address % COLS)]
    return board_to_code(mirrored)


@kernel
def mirror_codes(codes: np.ndarray) -> np.ndarray:
    mirrored = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        mirrored[i] = mirror_code(codes[i])
    return mirrored


@kernel
def is_goal_board(board: Int) -> bool:
    return (board >> (3 * GOAL_HEAD)) & 7 == 6
