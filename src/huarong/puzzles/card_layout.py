"""Where everything goes on a printable card (:mod:`huarong.puzzles.card`): two A4 portrait
pages at :data:`DPI`, the front's board as large as fits, the back's small boards of the
solution as many to a row as fit (:func:`card_layout`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

DPI = 150
"""Pixels per inch of the pages: fine enough to print, small enough to mail."""
PAGE_WIDTH, PAGE_HEIGHT = 1240, 1754
"""A4 portrait (210 x 297 mm) at :data:`DPI`."""
MARGIN = 75
"""Half an inch of paper left blank around each page, where printers cannot print."""
CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN

FRONT_BOARD_TOP = MARGIN + 140
"""Below the title and the subtitle."""
FRONT_BOARD_BOTTOM = PAGE_HEIGHT - MARGIN - 260
"""Above the number of moves and the lines that explain the rules."""
LARGEST_FRONT_CELL = 160
"""Pixels of a cell of the front's board at most (about 27 mm): a small board stays a board,
not a poster."""

BACK_TOP = MARGIN + 95
"""Where the back's small boards start, below its two lines of heading."""
LARGEST_THUMBNAIL_CELL = 48
SMALLEST_THUMBNAIL_CELL = 4
THUMBNAIL_GAP = 10
"""Pixels between two small boards, across and down."""
NUMBER_HEIGHT = 18
"""Pixels above each small board for its number."""
NUMBER_WIDTH = 32
"""The narrowest a small board's column may be: its number ("138") must fit above it."""
LETTERED_CELL = 14
"""The smallest cell of a small board whose pieces still carry their letters."""


@dataclass(frozen=True)
class CardLayout:
    """Where a card's parts go, in pixels at :data:`DPI` (see :func:`card_layout`).

    The front's board has its top-left cell's corner at (``board_x``, ``board_y``) and cells
    of ``board_cell`` pixels; the back's ``boards`` small boards have cells of
    ``thumbnail_cell`` pixels, ``per_row`` of them to a row, in ``thumbnail_rows`` rows."""

    rows: int
    columns: int
    boards: int
    board_x: int
    board_y: int
    board_cell: int
    thumbnail_cell: int
    per_row: int
    thumbnail_rows: int
    back_height: int

    width: ClassVar[int] = PAGE_WIDTH
    front_height: ClassVar[int] = PAGE_HEIGHT

    @property
    def picture_size(self) -> tuple[int, int]:
        """(width, height) of the PNG or SVG: the front above the back."""
        return self.width, self.front_height + self.back_height

    @property
    def thumbnail_pitch(self) -> tuple[int, int]:
        """Pixels from one small board's corner to the next one's, across and down."""
        return _pitch(self.rows, self.columns, self.thumbnail_cell)

    @property
    def thumbnails_left(self) -> int:
        """The left edge of the back's rows of small boards, centred on the page."""
        across = self.per_row * self.thumbnail_pitch[0] - THUMBNAIL_GAP
        return MARGIN + (CONTENT_WIDTH - across) // 2


def frame_width(cell: int) -> int:
    """Pixels of the dark frame around a board of cells of ``cell`` pixels."""
    return max(1, cell // 10)


def _pitch(rows: int, columns: int, cell: int) -> tuple[int, int]:
    framed = 2 * frame_width(cell)
    return (max(columns * cell + framed, NUMBER_WIDTH) + THUMBNAIL_GAP,
            NUMBER_HEIGHT + rows * cell + framed + THUMBNAIL_GAP)


def card_layout(rows: int, columns: int, length: int) -> CardLayout:
    """Where the parts of the card of a ``rows`` x ``columns`` board with a solution of
    ``length`` moves go.

    Each side is an A4 portrait page of :data:`PAGE_WIDTH` x :data:`PAGE_HEIGHT` pixels
    with a :data:`MARGIN` all round.  The front's board is centred between the title and
    the number of moves, its cells as large as that space allows, at most
    :data:`LARGEST_FRONT_CELL`.

    The back holds ``length + 1`` small boards (0 the start, k the position after move k)
    left to right in rows, each under its number.  Their cell is the largest number of
    pixels, from :data:`LARGEST_THUMBNAIL_CELL` down to :data:`SMALLEST_THUMBNAIL_CELL`, at
    which as many boards as fit across the page, row after row, fit above the bottom margin:
    138 moves of a 5 x 4 board take 12 boards a row, 12 rows of 19-pixel cells (3 mm).
    Only when even the smallest cells overflow does the back grow taller than A4, to hold
    every row.  Pieces carry letters on small boards of cells of :data:`LETTERED_CELL`
    pixels or more."""
    boards = length + 1
    frame = 2 * frame_width(LARGEST_FRONT_CELL)
    board_cell = min((CONTENT_WIDTH - frame) // columns,
                     (FRONT_BOARD_BOTTOM - FRONT_BOARD_TOP - frame) // rows, LARGEST_FRONT_CELL)
    board_x = (PAGE_WIDTH - columns * board_cell) // 2
    board_y = (FRONT_BOARD_TOP + FRONT_BOARD_BOTTOM - rows * board_cell) // 2
    room = PAGE_HEIGHT - MARGIN - BACK_TOP
    cell = LARGEST_THUMBNAIL_CELL
    while True:
        across, down = _pitch(rows, columns, cell)
        per_row = (CONTENT_WIDTH + THUMBNAIL_GAP) // across
        needed = math.ceil(boards / per_row) if per_row else 0
        height = needed * down - THUMBNAIL_GAP
        if (per_row and height <= room) or cell == SMALLEST_THUMBNAIL_CELL:
            break
        cell -= 1
    return CardLayout(rows, columns, boards, board_x, board_y, board_cell, cell, per_row,
                      needed, max(PAGE_HEIGHT, BACK_TOP + height + MARGIN))
