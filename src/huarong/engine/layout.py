"""The Klotski layout: one 4x5 board, as an immutable value with every notation.

A :class:`Layout` wraps its 36-bit common code (docs §3), the canonical key everywhere in the
package.  It parses and formats the common code, grid text and the klotski.online 20-digit id,
each pair round-tripping, and renders itself for a terminal or as SVG.

Cell addresses are ``row * 4 + col`` (0..19), row 0 at the top.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    import numpy as np

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
        return tuple(
            address + dy * COLS + dx for dy in range(self.height) for dx in range(self.width)
        )


_GLYPHS: Final = {
    PieceKind.CAO: "C",
    PieceKind.HORIZONTAL: "H",
    PieceKind.VERTICAL: "V",
    PieceKind.SOLDIER: "S",
}
_KIND_OF_GLYPH: Final = {glyph: kind for kind, glyph in _GLYPHS.items()}
EMPTY_GLYPH: Final = "."
_EMPTY_INPUT_GLYPHS: Final = frozenset(".0_-·")

# klotski.online writes one digit per cell: 0 empty, 1 1x1, 2 vertical, 3 horizontal, 4 2x2.
_ONLINE_DIGIT: Final = {
    PieceKind.SOLDIER: "1",
    PieceKind.VERTICAL: "2",
    PieceKind.HORIZONTAL: "3",
    PieceKind.CAO: "4",
}
_KIND_OF_ONLINE_DIGIT: Final = {digit: kind for kind, digit in _ONLINE_DIGIT.items()}


@dataclass(frozen=True, order=True)
class Piece:
    """One piece of a layout: its kind and the address of its top-left cell."""

    address: int
    kind: PieceKind

    @property
    def cells(self) -> tuple[int, ...]:
        return self.kind.cells(self.address)


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


class InvalidCodeError(LayoutError):
    def __init__(self, text: object, reason: str) -> None:
        super().__init__("common code", text, reason)


class InvalidGridError(LayoutError):
    def __init__(self, text: object, reason: str) -> None:
        super().__init__("grid", text, reason)


class InvalidOnlineIdError(LayoutError):
    def __init__(self, text: object, reason: str) -> None:
        super().__init__("klotski.online id", text, reason)


class _Illegal(Exception):
    """Internal: the reason a piece list is not a legal layout."""


def _place(pieces: Sequence[Piece]) -> list[Piece | None]:
    """The owner of every cell; raises _Illegal for overlaps, pieces off the board, a wrong
    number of 2x2 pieces, or fewer than two empty cells."""
    board: list[Piece | None] = [None] * CELLS
    caos = sum(1 for piece in pieces if piece.kind is PieceKind.CAO)
    if caos != 1:
        raise _Illegal(f"a layout needs exactly one 2x2 piece, found {caos}")
    for piece in pieces:
        row, col = divmod(piece.address, COLS)
        if not 0 <= piece.address < CELLS or row + piece.kind.height > ROWS or (
            col + piece.kind.width > COLS
        ):
            raise _Illegal(f"{piece.kind.name.lower()} piece at address {piece.address} "
                           "sticks out of the board")
        for cell in piece.cells:
            if board[cell] is not None:
                raise _Illegal(f"pieces overlap at address {cell}")
            board[cell] = piece
    empty = board.count(None)
    if empty < 2:
        raise _Illegal(f"a layout needs at least 2 empty cells, found {empty}")
    return board


def _encode(board: Sequence[Piece | None]) -> int:
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


def _decode(code: int) -> tuple[Piece, ...]:
    """The pieces of a common code; raises _Illegal when the code is not a layout's own code."""
    if not 0 <= code < 1 << 36:
        raise _Illegal("a common code has 36 bits (9 hex digits)")
    head = code >> 32
    if head not in _VALID_HEADS:
        raise _Illegal(f"{head:X} is not a possible 2x2 address (0,1,2,4,5,6,8,9,A,C,D,E)")
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
            raise _Illegal(f"{piece.kind.name.lower()} piece at address {address} "
                           "sticks out of the board")
        for cell in piece.cells:
            if covered[cell]:
                raise _Illegal(f"pieces overlap at address {cell}")
            covered[cell] = True
        pieces.append(piece)
    unused_bits = 2 * (_ITEMS - item_index)
    if code & ((1 << unused_bits) - 1):
        raise _Illegal("the padding after the last cell is not zero")
    empty = covered.count(False)
    if empty < 2:
        raise _Illegal(f"a layout needs at least 2 empty cells, found {empty}")
    return tuple(pieces)


def _parse_code_text(text: str | int) -> int:
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


@functools.total_ordering
class Layout:
    """One legal Klotski layout.  Immutable; equal, hashed and ordered by its common code."""

    __slots__ = ("_code",)

    _code: int

    def __init__(self, code: str | int) -> None:
        value = _parse_code_text(code)
        try:
            _decoded_pieces(value)
        except _Illegal as error:
            raise InvalidCodeError(code, str(error)) from None
        object.__setattr__(self, "_code", value)

    @classmethod
    def _trusted(cls, code: int) -> Layout:
        """A layout from a code the kernels produced: no validation, pieces decoded lazily.
        Building a million layouts of a big group must not cost a million decodes."""
        layout = object.__new__(cls)
        object.__setattr__(layout, "_code", code)
        return layout

    @property
    def _pieces(self) -> tuple[Piece, ...]:
        return _decoded_pieces(self._code)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Layout is immutable")

    # ----- construction -------------------------------------------------------------------
    @classmethod
    def from_code(cls, code: str | int) -> Layout:
        """Parse a common code: up to 9 hex digits (trailing zeros optional) or an int."""
        return cls(code)

    @classmethod
    def from_pieces(cls, pieces: Sequence[Piece]) -> Layout:
        """Build a layout from its pieces (any order); raises LayoutError when illegal."""
        try:
            board = _place(pieces)
        except _Illegal as error:
            raise LayoutError("piece list", list(pieces), str(error)) from None
        return cls(_encode(board))

    @classmethod
    def from_grid(cls, text: str) -> Layout:
        """Parse grid text: 5 rows of 4 cells, rows on lines (or separated by ``/``), cells
        optionally separated by spaces.  ``C V H S`` name the piece kinds and ``. 0 _ -`` an
        empty cell; any other glyph is read by shape: the same glyph on a 2x2 square is the
        2x2 piece, on two cells stacked a vertical piece, side by side a horizontal one."""
        # Spaces, tabs and the \r of CRLF line ends are not cells.
        rows = [re.sub(r"[ \t\r]", "", row) for row in re.split(r"[\n/|]", text)]
        rows = [row for row in rows if row]
        if len(rows) != ROWS:
            raise InvalidGridError(text, f"{len(rows)} rows, a grid has 5 rows of 4 cells")
        for number, line in enumerate(rows):
            if len(line) != COLS:
                shown = f"{line!r} " if len(line) <= 2 * COLS else ""
                raise InvalidGridError(text, f"row {number + 1} {shown}has {len(line):,} "
                                             "cells, not 4")
        glyphs = "".join(rows)
        named_by_kind = _named_by_kind(text, glyphs)
        pieces: list[Piece] = []
        covered = [False] * CELLS
        for address, glyph in enumerate(glyphs):
            if covered[address] or glyph in _EMPTY_INPUT_GLYPHS:
                continue
            kind = (_KIND_OF_GLYPH[glyph.upper()] if named_by_kind
                    else _kind_by_shape(glyphs, address, covered))
            row, col = divmod(address, COLS)
            cells = kind.cells(address)
            if row + kind.height > ROWS or col + kind.width > COLS or any(
                covered[cell] or glyphs[cell] != glyph for cell in cells
            ):
                raise InvalidGridError(
                    text, f"{glyph!r} at row {row + 1}, column {col + 1} does not form a "
                          f"whole {kind.name.lower()} piece")
            for cell in cells:
                covered[cell] = True
            pieces.append(Piece(address, kind))
        try:
            return cls(_encode(_place(pieces)))
        except _Illegal as error:
            raise InvalidGridError(text, str(error)) from None

    @classmethod
    def from_online_id(cls, text: str) -> Layout:
        """Parse a klotski.online id: 20 digits, one per cell (0 empty, 1 1x1, 2 vertical,
        3 horizontal, 4 the 2x2)."""
        digits = text.strip()
        if len(digits) != CELLS or not digits.isdigit():
            raise InvalidOnlineIdError(text, "an id is exactly 20 digits 0-4")
        bad = next((d for d in digits if d not in "01234"), None)
        if bad is not None:
            raise InvalidOnlineIdError(text, f"digit {bad!r} is not one of 0-4")
        pieces: list[Piece] = []
        covered = [False] * CELLS
        for address, digit in enumerate(digits):
            if covered[address] or digit == "0":
                continue
            kind = _KIND_OF_ONLINE_DIGIT[digit]
            row, col = divmod(address, COLS)
            cells = kind.cells(address)
            if row + kind.height > ROWS or col + kind.width > COLS or any(
                covered[cell] or digits[cell] != digit for cell in cells
            ):
                raise InvalidOnlineIdError(
                    text, f"digit {digit} at address {address} does not form a whole "
                          f"{kind.name.lower()} piece")
            for cell in cells:
                covered[cell] = True
            pieces.append(Piece(address, kind))
        try:
            return cls(_encode(_place(pieces)))
        except _Illegal as error:
            raise InvalidOnlineIdError(text, str(error)) from None

    @classmethod
    def parse(cls, text: str) -> Layout:
        """Parse any notation: a 20-digit klotski.online id, grid text, or a common code."""
        stripped = text.strip()
        if len(stripped) == CELLS and stripped.isdigit():
            return cls.from_online_id(stripped)
        if "\n" in stripped or "/" in stripped or len(stripped.replace(" ", "")) == CELLS:
            return cls.from_grid(stripped)
        return cls.from_code(stripped)

    @staticmethod
    def is_valid_code(code: str | int) -> bool:
        """Whether ``code`` is the common code of a legal layout."""
        try:
            Layout.from_code(code)
        except LayoutError:
            return False
        return True

    # ----- notations ----------------------------------------------------------------------
    @property
    def code(self) -> str:
        """The common code: 9 upper-case hex digits."""
        return f"{self._code:09X}"

    def __int__(self) -> int:
        return self._code

    def __index__(self) -> int:
        return self._code

    @property
    def online_id(self) -> str:
        """The klotski.online 20-digit id."""
        return "".join(
            EMPTY_DIGIT if owner is None else _ONLINE_DIGIT[owner.kind] for owner in self.board
        )

    def grid(self, separator: str = " ") -> str:
        """Grid text: 5 lines of 4 cells, ``C V H S`` for the pieces and ``.`` for empty."""
        board = self.board
        return "\n".join(
            separator.join(
                EMPTY_GLYPH if owner is None else owner.kind.glyph
                for owner in board[row * COLS:(row + 1) * COLS]
            )
            for row in range(ROWS)
        )

    # ----- contents -----------------------------------------------------------------------
    @property
    def pieces(self) -> tuple[Piece, ...]:
        """The pieces, the 2x2 first, then in address order."""
        return self._pieces

    @property
    def board(self) -> tuple[Piece | None, ...]:
        """The piece covering each cell (None for empty), by address."""
        return _board_of(self._pieces)

    @property
    def cao_address(self) -> int:
        return self._code >> 32

    def count(self, kind: PieceKind) -> int:
        return sum(1 for piece in self._pieces if piece.kind is kind)

    @property
    def jiang_num(self) -> int:
        """Number of 2-cell pieces, both orientations."""
        return self.count(PieceKind.HORIZONTAL) + self.count(PieceKind.VERTICAL)

    @property
    def bing_num(self) -> int:
        """Number of 1x1 pieces."""
        return self.count(PieceKind.SOLDIER)

    @property
    def style_num(self) -> int:
        """Number of horizontal 2-cell pieces."""
        return self.count(PieceKind.HORIZONTAL)

    @property
    def empty_cells(self) -> int:
        return CELLS - sum(len(piece.cells) for piece in self._pieces)

    @property
    def is_standard(self) -> bool:
        """Five 2-cell pieces and four 1x1 pieces, as in the classic sets."""
        return self.jiang_num == 5 and self.bing_num == 4

    @property
    def is_solved(self) -> bool:
        """The 2x2 piece sits at the exit: bottom row, middle."""
        return self.cao_address == GOAL_ADDRESS

    def mirror(self) -> Layout:
        """The left-right mirror image."""
        return Layout(_encode(_place([
            Piece(piece.address + (COLS - piece.kind.width) - 2 * (piece.address % COLS),
                  piece.kind)
            for piece in self._pieces
        ])))

    # ----- steps (a numba kernel, imported on first use) -----------------------------------
    def children(self) -> list[Layout]:
        """Every layout one step away (one piece moved any distance), sorted by code.
        Searches (solving, paths, groups) live in :mod:`huarong.engine.solver`, which builds on
        this module, never the other way round."""
        return layouts_of_codes(children_codes(self))

    # ----- rendering ----------------------------------------------------------------------
    def render_text(self, square_width: int = 2) -> str:
        """Box-drawing picture of the board, each cell ``square_width`` characters wide."""
        return "\n".join("".join(text for text, _ in line)
                         for line in self.render_segments(square_width))

    def render_segments(self, square_width: int = 2) -> list[list[tuple[str, Piece | None]]]:
        """The box-drawing picture as lines of (text, piece) runs, so a front end can colour
        each piece's interior."""
        return _render_segments(self._pieces, square_width)

    def render_svg(self, cell_size: int = 60) -> str:
        """A standalone SVG picture of the board."""
        return _render_svg(self._pieces, cell_size)

    # ----- value semantics ----------------------------------------------------------------
    def __repr__(self) -> str:
        return f"Layout.from_code({self.code!r})"

    def __str__(self) -> str:
        return self.grid()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and other._code == self._code

    def __lt__(self, other: Layout) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self._code < other._code

    def __hash__(self) -> int:
        return hash(self._code)

    def __reduce__(self) -> tuple[type[Layout], tuple[int]]:
        return (Layout, (self._code,))


EMPTY_DIGIT: Final = "0"


def children_codes(layout: Layout) -> np.ndarray:
    """The codes of the layouts one step from ``layout``, ascending (int64 array)."""
    import numpy as np

    from huarong._kernels import klotski

    out = np.empty(80, dtype=np.int64)
    count = klotski.neighbours(np.int64(int(layout)), out, np.empty(20, dtype=np.int64))
    return np.sort(out[:count])


_MOST_STRAY_CELLS: Final = 2
"""A grid of C V H S with at most this many other filled cells has stray characters; with
more, its letters are arbitrary piece names read by shape."""


def _named_by_kind(text: str, glyphs: str) -> bool:
    """Whether grid cells name piece kinds (``C V H S``) rather than pieces by shape
    (``abbc/abbc/deef/dghf/i..j``); a stray character in a kind grid is an error naming its
    row and column, not a silent switch to reading by shape."""
    filled = [(address, glyph) for address, glyph in enumerate(glyphs)
              if glyph not in _EMPTY_INPUT_GLYPHS]
    stray = [(address, glyph) for address, glyph in filled
             if glyph.upper() not in _KIND_OF_GLYPH]
    if not stray:
        return True
    if len(stray) > _MOST_STRAY_CELLS:
        return False
    address, glyph = stray[0]
    row, col = divmod(address, COLS)
    raise InvalidGridError(text, f"{glyph!r} at row {row + 1}, column {col + 1} is not one of "
                                 "C V H S (pieces) or . (empty)")


def layouts_of_codes(codes: Iterable[int | np.integer[Any]]) -> list[Layout]:
    """Layouts of codes that the engine itself produced (already legal): built without
    re-validating each, which matters for groups of up to 964,656 layouts."""
    return [Layout._trusted(int(code)) for code in codes]


def _kind_by_shape(glyphs: str, address: int, covered: list[bool]) -> PieceKind:
    """The kind of a piece drawn with an arbitrary glyph, read from the cells it fills."""
    glyph = glyphs[address]
    row, col = divmod(address, COLS)

    def same(cell_row: int, cell_col: int) -> bool:
        cell = cell_row * COLS + cell_col
        return (cell_row < ROWS and cell_col < COLS and not covered[cell]
                and glyphs[cell] == glyph)

    right, below = same(row, col + 1), same(row + 1, col)
    if right and below and same(row + 1, col + 1):
        return PieceKind.CAO
    if below:
        return PieceKind.VERTICAL
    if right:
        return PieceKind.HORIZONTAL
    return PieceKind.SOLDIER


@functools.lru_cache(maxsize=4096)
def _decoded_pieces(code: int) -> tuple[Piece, ...]:
    return _decode(code)


@functools.lru_cache(maxsize=4096)
def _board_of(pieces: tuple[Piece, ...]) -> tuple[Piece | None, ...]:
    board: list[Piece | None] = [None] * CELLS
    for piece in pieces:
        for cell in piece.cells:
            board[cell] = piece
    return tuple(board)


# ----- rendering -----------------------------------------------------------------------------
# Box-drawing junctions by their arms (up, right, down, left).
_JUNCTIONS: Final = {
    (0, 0, 0, 0): " ", (1, 0, 1, 0): "│", (0, 1, 0, 1): "─",
    (0, 1, 1, 0): "┌", (0, 0, 1, 1): "┐", (1, 1, 0, 0): "└", (1, 0, 0, 1): "┘",
    (1, 1, 1, 0): "├", (1, 0, 1, 1): "┤", (0, 1, 1, 1): "┬", (1, 1, 0, 1): "┴",
    (1, 1, 1, 1): "┼", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╶", (0, 0, 1, 0): "╷",
    (0, 0, 0, 1): "╴",
}


def _render_segments(
    pieces: tuple[Piece, ...], square_width: int
) -> list[list[tuple[str, Piece | None]]]:
    if square_width < 1:
        raise ValueError(f"square width {square_width} must be at least 1")
    board = _board_of(pieces)
    height = max(1, square_width // 2)

    def owner(row: int, col: int) -> Piece | str | None:
        if 0 <= row < ROWS and 0 <= col < COLS:
            return board[row * COLS + col]
        return "outside"

    def wall_right_of(row: int, col: int) -> bool:
        """A vertical wall between (row, col) and (row, col + 1)."""
        left, right = owner(row, col), owner(row, col + 1)
        return left != right or (left is None and (col == -1 or col == COLS - 1))

    def wall_below(row: int, col: int) -> bool:
        """A horizontal wall between (row, col) and (row + 1, col)."""
        top, bottom = owner(row, col), owner(row + 1, col)
        return top != bottom or (top is None and (row == -1 or row == ROWS - 1))

    lines: list[list[tuple[str, Piece | None]]] = []
    for row in range(-1, ROWS):
        # The line of junctions and horizontal walls below `row`.
        line: list[tuple[str, Piece | None]] = []
        for col in range(-1, COLS):
            arms = (
                int(wall_right_of(row, col)) if row >= 0 else 0,
                int(wall_below(row, col + 1)) if col + 1 < COLS else 0,
                int(wall_right_of(row + 1, col)) if row + 1 < ROWS else 0,
                int(wall_below(row, col)) if col >= 0 else 0,
            )
            line.append((_JUNCTIONS[arms], None))
            if col + 1 < COLS:
                fill = "─" if wall_below(row, col + 1) else " "
                below = owner(row + 1, col + 1)
                line.append((fill * square_width,
                             None if fill != " " or isinstance(below, str) else below))
        lines.append(line)
        if row + 1 >= ROWS:
            break
        for sub in range(height):
            cell_line: list[tuple[str, Piece | None]] = []
            for col in range(-1, COLS):
                wall = "│" if wall_right_of(row + 1, col) else " "
                right = owner(row + 1, col + 1)
                cell_line.append((wall, None if wall != " " or isinstance(right, str)
                                  else right))
                if col + 1 < COLS:
                    piece = board[(row + 1) * COLS + col + 1]
                    text = " " * square_width
                    if piece is not None and sub == height // 2:
                        text = _label(piece, row + 1, col + 1, square_width)
                    cell_line.append((text, piece))
            lines.append(cell_line)
    return lines


def _label(piece: Piece, row: int, col: int, square_width: int) -> str:
    """The piece's glyph, written once, in its top-left cell."""
    if row * COLS + col != piece.address:
        return " " * square_width
    return piece.kind.glyph.center(square_width)[:square_width]


PIECE_COLOURS: Final = {
    PieceKind.CAO: "#d1495b",
    PieceKind.VERTICAL: "#2e86ab",
    PieceKind.HORIZONTAL: "#edae49",
    PieceKind.SOLDIER: "#66a182",
}


def _render_svg(pieces: tuple[Piece, ...], cell_size: int) -> str:
    if cell_size < 4:
        raise ValueError(f"cell size {cell_size} must be at least 4")
    gap = max(1, cell_size // 15)
    frame = cell_size // 4
    width, height = COLS * cell_size + 2 * frame, ROWS * cell_size + 2 * frame
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" rx="{frame}" fill="#5b3a29"/>',
        f'<rect x="{frame}" y="{frame}" width="{COLS * cell_size}" '
        f'height="{ROWS * cell_size}" fill="#f3e9d2"/>',
        f'<rect x="{frame + cell_size}" y="{height - frame}" width="{2 * cell_size}" '
        f'height="{frame}" fill="#f3e9d2"/>',
    ]
    for piece in pieces:
        row, col = divmod(piece.address, COLS)
        x, y = frame + col * cell_size + gap, frame + row * cell_size + gap
        w = piece.kind.width * cell_size - 2 * gap
        h = piece.kind.height * cell_size - 2 * gap
        parts.append(
            f'<rect class="piece {piece.kind.name.lower()}" x="{x}" y="{y}" width="{w}" '
            f'height="{h}" rx="{cell_size // 8}" fill="{PIECE_COLOURS[piece.kind]}" '
            f'stroke="#3b2a20" stroke-width="{gap}"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
