"""The Klotski layout: one 4x5 board, as an immutable value with every notation.

A :class:`Layout` wraps its 36-bit common code (docs §3), the canonical key everywhere in the
package.  It parses and formats the common code, grid text, the klotski.online 20-digit id
and the klotski engine's short code, each pair round-tripping, and renders itself for a
terminal or as SVG.

The board and the common code itself are in :mod:`huarong.engine.board`, the pictures in
:mod:`huarong.engine.drawing` and the id and short code in :mod:`huarong.engine.ids`; the
names that callers import from here (``COLS``, ``Piece``, the errors, ...) are re-exported.

Cell addresses are ``row * 4 + col`` (0..19), row 0 at the top.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

from huarong.engine.board import (
    CELLS,
    COLS,
    GOAL_ADDRESS,
    ROWS,
    AmbiguousLayoutError,
    Illegal,
    InvalidCodeError,
    InvalidGridError,
    InvalidOnlineIdError,
    InvalidShortCodeError,
    LayoutError,
    Piece,
    PieceKind,
    board_of,
    decoded_pieces,
    encode,
    parse_code_text,
    place,
)
from huarong.engine.drawing import render_segments, render_svg
from huarong.engine.ids import (
    SHORT_CODE_PREFIX,
    code_of_id,
    id_of_code,
    id_of_short_code,
    is_short_code_text,
    short_code_of_code,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "CELLS",
    "COLS",
    "GOAL_ADDRESS",
    "ROWS",
    "AmbiguousLayoutError",
    "InvalidCodeError",
    "InvalidGridError",
    "InvalidOnlineIdError",
    "InvalidShortCodeError",
    "Layout",
    "LayoutError",
    "Piece",
    "PieceKind",
    "children_codes",
    "layouts_of_codes",
]

_KIND_OF_GLYPH: Final = {kind.glyph: kind for kind in PieceKind}
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


@functools.total_ordering
class Layout:
    """One legal Klotski layout.  Immutable; equal, hashed and ordered by its common code."""

    __slots__ = ("_code",)

    _code: int

    def __init__(self, code: str | int) -> None:
        value = parse_code_text(code)
        try:
            decoded_pieces(value)
        except Illegal as error:
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
        return decoded_pieces(self._code)

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
            board = place(pieces)
        except Illegal as error:
            raise LayoutError("piece list", list(pieces), str(error)) from None
        return cls(encode(board))

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
        def kind_at(glyph: str, address: int, covered: list[bool]) -> PieceKind:
            return (_KIND_OF_GLYPH[glyph.upper()] if named_by_kind
                    else _kind_by_shape(glyphs, address, covered))

        def where(glyph: str, address: int) -> str:
            row, col = divmod(address, COLS)
            return f"{glyph!r} at row {row + 1}, column {col + 1}"

        return cls(_code_of_cells(text, glyphs, _EMPTY_INPUT_GLYPHS, kind_at, where,
                                  InvalidGridError))

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
        return cls(_code_of_cells(
            text, digits, "0", lambda digit, _, __: _KIND_OF_ONLINE_DIGIT[digit],
            lambda digit, address: f"digit {digit} at address {address}", InvalidOnlineIdError))

    @classmethod
    def from_short_code(cls, text: str) -> Layout:
        """Parse a short code: the layout's id in base 32, five of the digits
        ``123456789ABCDEFGHJKMNPQRSTUVWXYZ`` (any case), optionally after ``@``."""
        return cls.from_id(id_of_short_code(text))

    @classmethod
    def from_id(cls, layout_id: int) -> Layout:
        """The layout with this id (its rank among all legal codes, 0..29,334,497)."""
        return cls._trusted(code_of_id(layout_id))

    @classmethod
    def parse(cls, text: str) -> Layout:
        """Parse any notation: a 20-digit klotski.online id, grid text, a short code or a
        common code.

        Five characters can be both a short code and a common code with its trailing zeros
        left out (``1A9BF`` is the short code of id 303,438 and the common code
        ``1A9BF0000``).  Five characters legal only one way are read that way; legal both ways
        they raise :class:`AmbiguousLayoutError` naming both readings.  A leading ``@`` always
        means a short code (``@1A9BF``), and all 9 digits (``1A9BF0000``) a common code."""
        stripped = text.strip()
        if stripped.startswith(SHORT_CODE_PREFIX):
            return cls.from_short_code(stripped)
        if len(stripped) == CELLS and stripped.isdigit():
            return cls.from_online_id(stripped)
        if "\n" in stripped or "/" in stripped or len(stripped.replace(" ", "")) == CELLS:
            return cls.from_grid(stripped)
        if is_short_code_text(stripped):
            if all(ch in string.hexdigits for ch in stripped):
                return cls._short_or_common(stripped)
            return cls.from_short_code(stripped)
        return cls.from_code(stripped)

    @classmethod
    def _short_or_common(cls, text: str) -> Layout:
        """Five characters that are both short-code and hex digits (see :meth:`parse`): always
        a legal short code (its first digit is at most F, id 15,728,640 < 29,334,498)."""
        short = cls.from_short_code(text)
        try:
            common = cls.from_code(text)
        except LayoutError:
            return short
        raise AmbiguousLayoutError(text, short.code, common.code)

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

    @property
    def id(self) -> int:
        """The id: the rank of the common code among all legal codes (the database's ``id``,
        0..29,334,497), computed from the code alone."""
        return id_of_code(self._code)

    @property
    def short_code(self) -> str:
        """The klotski engine's short code: the id in base 32, 5 characters (``4WVE1``)."""
        return short_code_of_code(self._code)

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
        return board_of(self._pieces)

    @property
    def cao_address(self) -> int:
        return self._code >> 32

    def count(self, kind: PieceKind) -> int:
        if kind is PieceKind.CAO:
            return 1
        # Each piece but the 2x2 is one 2-bit item of the code, its kind's value, and empty
        # cells and the padding are 0: counting items by bit masks costs no decode.
        items = self._code & _ITEM_BITS
        low, high = items & _LOW_BITS, (items >> 1) & _LOW_BITS
        matching = {PieceKind.HORIZONTAL: low & ~high, PieceKind.VERTICAL: high & ~low,
                    PieceKind.SOLDIER: low & high}[kind]
        return matching.bit_count()

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
        import numpy as np

        from huarong._kernels import klotski

        # The mirror image of a legal layout is legal: nothing to validate.
        return Layout._trusted(int(klotski.mirror_code(np.int64(self._code))))

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
        return render_segments(self._pieces, square_width)

    def render_svg(self, cell_size: int = 60) -> str:
        """A standalone SVG picture of the board."""
        return render_svg(self._pieces, cell_size)

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
_ITEM_BITS: Final = (1 << 32) - 1
_LOW_BITS: Final = 0x5555_5555


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


def _code_of_cells(text: str, glyphs: str, empty: Iterable[str] | str,
                   kind_at: Callable[[str, int, list[bool]], PieceKind],
                   where: Callable[[str, int], str],
                   error: Callable[[str, str], LayoutError]) -> int:
    """The code of the layout of ``text`` whose cells ``glyphs`` mark (one glyph a cell,
    ``empty`` ones none), each piece read from its top-left cell as the kind
    ``kind_at(glyph, address, covered)`` says; ``error(text, reason)`` is raised for a glyph
    whose cells do not form that piece (``where(glyph, address)`` names it) and for pieces
    that make no legal layout."""
    pieces: list[Piece] = []
    covered = [False] * CELLS
    for address, glyph in enumerate(glyphs):
        if covered[address] or glyph in empty:
            continue
        kind = kind_at(glyph, address, covered)
        row, col = divmod(address, COLS)
        cells = kind.cells(address)
        if row + kind.height > ROWS or col + kind.width > COLS or any(
            covered[cell] or glyphs[cell] != glyph for cell in cells
        ):
            raise error(text, f"{where(glyph, address)} does not form a whole "
                              f"{kind.name.lower()} piece")
        for cell in cells:
            covered[cell] = True
        pieces.append(Piece(address, kind))
    try:
        return encode(place(pieces))
    except Illegal as illegal:
        raise error(text, str(illegal)) from None


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
    # An array's tolist() gives Python ints at once, where iterating it makes numpy scalars.
    values = codes.tolist() if hasattr(codes, "tolist") else codes
    return [Layout._trusted(int(code)) for code in values]


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
