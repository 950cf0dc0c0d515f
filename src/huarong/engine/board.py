"""The board and the common code: cells, piece kinds, placing pieces, and the 36-bit common
code (docs §3) packed from and unpacked into pieces, with the errors that name a bad input.

The value type built on this, :class:`~huarong.engine.layout.Layout`, and its text notations
live in :mod:`huarong.engine.layout`; pictures in :mod:`huarong.engine.drawing`.

Cell addresses are ``row * 4 + col`` (0..19), row 0 at the top.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Sequence
from typing import ClassVar, Final, NamedTuple

ROWS: Final = 5
COLS: Final = 4
CELLS: Final = ROWS * COLS
GOAL_ADDRESS: Final = 13
"""Top-left address of the 2x2 piece in a solved layout (bottom row, middle)."""

CODE_DIGITS: Final = 9
_ITEMS: Final = 16
_VALID_HEADS: Final = frozenset({0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14})


class PieceKind(enum.IntEnum):
    """The four piece shapes; the value is the piece's 2-bit item in the common code
    (the 2x2 is stored apart, as the code's first digit, and uses the spare value 0)."""

    CAO = 0
    HORIZONTAL = 1
    VERTICAL = 2
    SOLDIER = 3

    @property
    def glyph(self) -> str:
        return _GLYPHS[self]

    @property
    def width(self) -> int:
        return 2 if self in (PieceKind.CAO, PieceKind.HORIZONTAL) else 1

    @property
    def height(self) -> int:
        return 2 if self in (PieceKind.CAO, PieceKind.VERTICAL) else 1

    def cells(self, address: int) -> tuple[int, ...]:
        """The cells a piece of this kind covers with its top-left cell at ``address``."""
        return _cells(self, address)


@functools.cache
def _cells(kind: PieceKind, address: int) -> tuple[int, ...]:
    # Writing a solution string asks this thousands of times per path, for 80 distinct pairs.
    return tuple(address + dy * COLS + dx for dy in range(kind.height) for dx in range(kind.width))


_GLYPHS: Final = {
    PieceKind.CAO: "C",
    PieceKind.HORIZONTAL: "H",
    PieceKind.VERTICAL: "V",
    PieceKind.SOLDIER: "S",
}


class Piece(NamedTuple):
    """One piece of a layout: its kind and the address of its top-left cell.  A named tuple,
    ordered by address then kind, so that the sets of pieces that tell one step from another
    hash and compare at C speed."""

    address: int
    kind: PieceKind

    @property
    def cells(self) -> tuple[int, ...]:
        return _cells(self.kind, self.address)


class LayoutError(ValueError):
    """A text or number that is not a legal layout; the message names the input and why."""

    def __init__(self, notation: str, text: object, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"invalid {notation} {_quoted(text)}: {reason}")


_QUOTE_LIMIT: Final = 60


def _quoted(text: object) -> str:
    """``repr(text)``, cut to about 60 characters so that a huge input stays one line."""
    shown = repr(text)
    if len(shown) <= _QUOTE_LIMIT:
        return shown
    return f"{shown[:_QUOTE_LIMIT - 3]}... ({len(str(text)):,} characters)"


class _NotationError(LayoutError):
    """A text that is not a legal layout in the subclass's ``notation``."""

    notation: ClassVar[str]

    def __init__(self, text: object, reason: str) -> None:
        super().__init__(self.notation, text, reason)


class InvalidCodeError(_NotationError):
    notation = "common code"


class InvalidGridError(_NotationError):
    notation = "grid"


class InvalidOnlineIdError(_NotationError):
    notation = "klotski.online id"


class InvalidShortCodeError(_NotationError):
    notation = "short code"


class AmbiguousLayoutError(LayoutError):
    """Five characters that are both a legal short code and a legal common code (trailing
    zeros left out): the message names both readings and how to write each."""

    def __init__(self, text: str, as_short_code: str, as_common_code: str) -> None:
        self.as_short_code = as_short_code
        self.as_common_code = as_common_code
        super().__init__(
            "layout", text,
            f"ambiguous: as a short code it is the layout {as_short_code}, as a common code "
            f"{as_common_code}; write @{text.strip().upper()} for the short code or all 9 "
            f"digits {as_common_code} for the common code")


class Illegal(Exception):
    """Internal: the reason a piece list is not a legal layout."""


def place(pieces: Sequence[Piece]) -> list[Piece | None]:
    """The owner of every cell; raises Illegal for overlaps, pieces off the board, a wrong
    number of 2x2 pieces, or fewer than two empty cells."""
    board: list[Piece | None] = [None] * CELLS
    caos = sum(1 for piece in pieces if piece.kind is PieceKind.CAO)
    if caos != 1:
        raise Illegal(f"a layout needs exactly one 2x2 piece, found {caos}")
    for piece in pieces:
        row, col = divmod(piece.address, COLS)
        if not 0 <= piece.address < CELLS or row + piece.kind.height > ROWS or (
            col + piece.kind.width > COLS
        ):
            raise Illegal(f"{piece.kind.name.lower()} piece at address {piece.address} "
                           "sticks out of the board")
        for cell in piece.cells:
            if board[cell] is not None:
                raise Illegal(f"pieces overlap at address {cell}")
            board[cell] = piece
    empty = board.count(None)
    if empty < 2:
        raise Illegal(f"a layout needs at least 2 empty cells, found {empty}")
    return board


def encode(board: Sequence[Piece | None]) -> int:
    """The common code of a legal board (cell owners by address)."""
    cao = next(piece for piece in board if piece is not None and piece.kind is PieceKind.CAO)
    items = 0
    count = 0
    for address, owner in enumerate(board):
        if owner is None:
            count += 1
        elif owner.address == address and owner.kind is not PieceKind.CAO:
            items |= int(owner.kind) << (30 - 2 * count)
            count += 1
    return (cao.address << 32) | items


def decode(code: int) -> tuple[Piece, ...]:
    """The pieces of a common code; raises Illegal when the code is not a layout's own code."""
    if not 0 <= code < 1 << 36:
        raise Illegal("a common code has 36 bits (9 hex digits)")
    head = code >> 32
    if head not in _VALID_HEADS:
        raise Illegal(f"{head:X} is not a possible 2x2 address (0,1,2,4,5,6,8,9,A,C,D,E)")
    pieces = [Piece(head, PieceKind.CAO)]
    covered = [False] * CELLS
    for cell in pieces[0].cells:
        covered[cell] = True
    item_index = 0
    for address in range(CELLS):
        if covered[address]:
            continue
        item = (code >> (30 - 2 * item_index)) & 3
        item_index += 1
        if item == 0:
            continue
        piece = Piece(address, PieceKind(item))
        row, col = divmod(address, COLS)
        if row + piece.kind.height > ROWS or col + piece.kind.width > COLS:
            raise Illegal(f"{piece.kind.name.lower()} piece at address {address} "
                           "sticks out of the board")
        for cell in piece.cells:
            if covered[cell]:
                raise Illegal(f"pieces overlap at address {cell}")
            covered[cell] = True
        pieces.append(piece)
    unused_bits = 2 * (_ITEMS - item_index)
    if code & ((1 << unused_bits) - 1):
        raise Illegal("the padding after the last cell is not zero")
    empty = covered.count(False)
    if empty < 2:
        raise Illegal(f"a layout needs at least 2 empty cells, found {empty}")
    return tuple(pieces)


def parse_code_text(text: str | int) -> int:
    """The integer value of a common code given as an int or as up to 9 hex digits."""
    if isinstance(text, int):
        if not 0 <= text < 1 << 36:
            raise InvalidCodeError(text, "a common code has 36 bits (9 hex digits)")
        return text
    digits = text.strip()
    if digits[:2] in ("0x", "0X"):
        digits = digits[2:]
    if not digits:
        raise InvalidCodeError(text, "empty code")
    if len(digits) > CODE_DIGITS:
        raise InvalidCodeError(text, f"{len(digits)} digits, a common code has at most 9")
    bad = next((ch for ch in digits if ch not in "0123456789abcdefABCDEF"), None)
    if bad is not None:
        raise InvalidCodeError(text, f"{bad!r} is not a hex digit")
    # Trailing zeros may be omitted: "1A9BF0C" is "1A9BF0C00".
    return int(digits.ljust(CODE_DIGITS, "0"), 16)


@functools.lru_cache(maxsize=4096)
def decoded_pieces(code: int) -> tuple[Piece, ...]:
    """The pieces of a common code (cached: layouts decode lazily and often)."""
    return decode(code)


@functools.lru_cache(maxsize=4096)
def board_of(pieces: tuple[Piece, ...]) -> tuple[Piece | None, ...]:
    """The piece covering each cell (None for empty), by address."""
    board: list[Piece | None] = [None] * CELLS
    for piece in pieces:
        for cell in piece.cells:
            board[cell] = piece
    return tuple(board)
