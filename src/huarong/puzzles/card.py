"""A printable card of a puzzle for teachers and clubs: on the front the start board, its title
and the length of an optimal solution; on the back that solution as a strip of small numbered
boards.

A card is two A4 portrait pages at :data:`DPI` (:func:`card_layout` says where everything
goes); :func:`draw_card` writes it as PNG or SVG (the front above the back in one picture) or
as a PDF of two pages.  Both pages are built as boxes and captions in pixels and drawn once,
as SVG, which libraries convert: resvg renders the PNG, svglib and ReportLab make the PDF.

Each piece is a block of its class's colour with its letter: pieces of one shape are
interchangeable, so they share a colour, and the classes the goal names are red.  Walls are
dark cells; the cells the goal asks to cover are outlined in dark red.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Literal

from huarong.engine.palette import palette
from huarong.puzzles.card_layout import (
    BACK_TOP,
    CONTENT_WIDTH,
    DPI,
    LETTERED_CELL,
    MARGIN,
    NUMBER_HEIGHT,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    THUMBNAIL_GAP,
    CardLayout,
    card_layout,
    frame_width,
)
from huarong.puzzles.cluster import PuzzleSolution
from huarong.puzzles.grid import EMPTY, WALL, Grid
from huarong.puzzles.puzzle import Puzzle

if TYPE_CHECKING:
    from typing import TypeAlias

    from PIL import ImageFont

    Font: TypeAlias = ImageFont.FreeTypeFont | ImageFont.ImageFont

CardFormat = Literal["png", "svg", "pdf"]
"""The file formats :func:`draw_card` writes."""
CARD_FORMATS: tuple[CardFormat, ...] = ("png", "svg", "pdf")

RGB = tuple[int, int, int]

def _rgb(colour: str) -> RGB:
    """A ``#rrggbb`` colour of the shared palette as Pillow's triple."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


_PALETTE = palette()
BACKGROUND = _rgb(_PALETTE.card.background)
TEXT_COLOUR = _rgb(_PALETTE.card.text)
QUIET_TEXT_COLOUR = _rgb(_PALETTE.card.quiet_text)
FRAME_COLOUR = _rgb(_PALETTE.card.frame)
WALL_COLOUR = _rgb(_PALETTE.wall)
GRID_COLOUR = _rgb(_PALETTE.card.grid)
EMPTY_COLOUR = _rgb(_PALETTE.card.empty)
FOLD_COLOUR = _rgb(_PALETTE.card.fold)
GOAL_COLOUR = _rgb(_PALETTE.pieces[0])
"""The pieces the goal names: the palette's first piece colour, as in the browser."""
GOAL_OUTLINE_COLOUR = _rgb(_PALETTE.card.goal_outline)
PIECE_COLOURS: tuple[RGB, ...] = tuple(_rgb(colour) for colour in _PALETTE.pieces[1:])
"""The other classes' colours, in the order of the puzzle's classes (then again)."""

_METRIC_WORDS = {"unit": "a move slides one piece by one cell",
                 "slide": "a move slides one piece any distance in one direction",
                 "step": "a move takes one piece anywhere it can reach alone"}
_CJK = re.compile(r"([\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+)")
"""Characters Pillow's own font lacks: CJK punctuation, ideographs and full-width forms."""


# ----- what a page holds ----------------------------------------------------------------
@dataclass(frozen=True)
class _Box:
    """A filled rectangle: ``x``, ``y`` its top-left corner, in pixels."""

    x: int
    y: int
    width: int
    height: int
    fill: RGB


@dataclass(frozen=True)
class _Caption:
    """One line of text centred on (``x``, ``y``)."""

    x: int
    y: int
    text: str
    size: int
    colour: RGB = TEXT_COLOUR


@dataclass(frozen=True)
class _Group:
    """Marks that belong together: a ``role`` (``front``, ``back``, ``board``, ``thumbnail``:
    the SVG's class) and, for a small board of the back, the ``move`` it shows."""

    role: str
    marks: tuple[_Mark, ...]
    move: int | None = None


_Mark = _Box | _Caption | _Group


@dataclass(frozen=True)
class _Page:
    width: int
    height: int
    marks: tuple[_Mark, ...]


# ----- colours --------------------------------------------------------------------------
def _goal_letters(puzzle: Puzzle) -> frozenset[str]:
    """The letters of the puzzle's goal grid (each stands for its piece's class)."""
    if puzzle.goal is None:
        return frozenset()
    return frozenset(glyph for glyph in Grid.read(puzzle.goal).cells if glyph.isalpha())


def piece_colours(puzzle: Puzzle) -> dict[str, RGB]:
    """The colour of each piece of the puzzle by its letter in the start's grid (a piece
    keeps its letter along a solution): :data:`GOAL_COLOUR` for the classes the goal names,
    else one of :data:`PIECE_COLOURS` per class."""
    wanted = _goal_letters(puzzle)
    colours: dict[str, RGB] = {}
    others = 0
    for piece_class in puzzle.classes:
        if wanted.intersection(piece_class.letters):
            colour = GOAL_COLOUR
        else:
            colour = PIECE_COLOURS[others % len(PIECE_COLOURS)]
            others += 1
        colours.update(dict.fromkeys(piece_class.letters, colour))
    return colours


def _text_colour(fill: RGB) -> RGB:
    red, green, blue = fill
    return TEXT_COLOUR if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else BACKGROUND


# ----- boards ---------------------------------------------------------------------------
def _board_marks(grid: str, x: int, y: int, cell: int, colours: dict[str, RGB],
                 goal: str | None, *, letters: bool) -> tuple[_Mark, ...]:
    """The board of grid text ``grid`` with its top-left cell's corner at (``x``, ``y``) and
    cells of ``cell`` pixels, framed; pieces in ``colours``, with their ``letters`` or not;
    the cells ``goal`` (grid text) names outlined."""
    board = Grid.read(grid)
    rows, columns, glyphs = board.rows, board.columns, board.cells
    frame = frame_width(cell)
    marks: list[_Mark] = [
        _Box(x - frame, y - frame, columns * cell + 2 * frame, rows * cell + 2 * frame,
             FRAME_COLOUR),
        _Box(x, y, columns * cell, rows * cell, GRID_COLOUR)]
    gap = max(1, cell // 14)

    def glyph_at(row: int, column: int) -> str:
        inside = 0 <= row < rows and 0 <= column < columns
        return glyphs[row * columns + column] if inside else WALL

    for address, glyph in enumerate(glyphs):
        row, column = divmod(address, columns)
        left, top = x + column * cell, y + row * cell
        if glyph == WALL:
            marks.append(_Box(left, top, cell, cell, WALL_COLOUR))
        elif glyph == EMPTY:
            marks.append(_Box(left + 1, top + 1, cell - 2, cell - 2, EMPTY_COLOUR))
        else:
            # A piece's cells meet without a seam: only its outer sides keep a gap.
            inset_left = 0 if glyph_at(row, column - 1) == glyph else gap
            inset_top = 0 if glyph_at(row - 1, column) == glyph else gap
            inset_right = 0 if glyph_at(row, column + 1) == glyph else gap
            inset_bottom = 0 if glyph_at(row + 1, column) == glyph else gap
            marks.append(_Box(left + inset_left, top + inset_top,
                              cell - inset_left - inset_right, cell - inset_top - inset_bottom,
                              colours[glyph]))
    if goal is not None:
        marks += _outline(Grid.read(goal), x, y, cell)
    if letters:  # over the outline: a letter on the goal's edge (Century's I) stays whole
        size = max(8, int(cell * 0.5))
        for letter, cells in board.pieces(grid).items():
            row_at, column_at = _letter_point(cells, columns)
            marks.append(_Caption(x + round(column_at * cell), y + round(row_at * cell), letter,
                                  size, _text_colour(colours[letter])))
    return tuple(marks)


def _letter_point(cells: Sequence[int], columns: int) -> tuple[float, float]:
    """Where a piece's letter goes, in cells from the board's corner: the middle of a
    rectangle; on another shape, whose middle may fall on a gap or outside it (an L, a U),
    the middle of its cell nearest to that."""
    centres = [(address // columns + 0.5, address % columns + 0.5) for address in cells]
    row = sum(r for r, _ in centres) / len(centres)
    column = sum(c for _, c in centres) / len(centres)
    height = 1 + max(r for r, _ in centres) - min(r for r, _ in centres)
    width = 1 + max(c for _, c in centres) - min(c for _, c in centres)
    if len(centres) == round(height * width):
        return row, column
    return min(centres, key=lambda centre: (centre[0] - row) ** 2 + (centre[1] - column) ** 2)


def _outline(goal: Grid, x: int, y: int, cell: int) -> list[_Mark]:
    """Bars along every side between a cell the goal names and one it does not (or the
    board's edge)."""
    width = max(2, cell // 12)
    half = width // 2
    wanted = {address for address, glyph in enumerate(goal.cells) if glyph.isalpha()}
    bars: list[_Mark] = []
    for address in sorted(wanted):
        row, column = divmod(address, goal.columns)
        left, top = x + column * cell, y + row * cell
        if row == 0 or address - goal.columns not in wanted:
            bars.append(_Box(left - half, top - half, cell + width, width, GOAL_OUTLINE_COLOUR))
        if row == goal.rows - 1 or address + goal.columns not in wanted:
            bars.append(_Box(left - half, top + cell - half, cell + width, width,
                             GOAL_OUTLINE_COLOUR))
        if column == 0 or address - 1 not in wanted:
            bars.append(_Box(left - half, top - half, width, cell + width, GOAL_OUTLINE_COLOUR))
        if column == goal.columns - 1 or address + 1 not in wanted:
            bars.append(_Box(left + cell - half, top - half, width, cell + width,
                             GOAL_OUTLINE_COLOUR))
    return bars


# ----- the two pages --------------------------------------------------------------------
def _moves(length: int) -> str:
    return f"{length} move" if length == 1 else f"{length} moves"


def _front_page(puzzle: Puzzle, solution: PuzzleSolution, title: str, layout: CardLayout,
                cjk_font: str | os.PathLike[str] | None = None) -> _Page:
    """The front: the title, the board's size, the start board, the number of moves and
    what a move and the goal are."""
    colours = piece_colours(puzzle)
    centre = PAGE_WIDTH // 2
    subtitle = f"{puzzle.rows} rows x {puzzle.columns} columns"
    if puzzle.name is not None and puzzle.name != title:
        subtitle = f"{puzzle.name}, {subtitle}"
    pieces = "piece" if len(_goal_letters(puzzle)) == 1 else "pieces"
    rules = [f"{puzzle.metric} metric: {_METRIC_WORDS[puzzle.metric]}",
             f"Goal: the red {pieces} into the outlined cells"]
    if puzzle.rules == "length":
        rules.append("A long piece moves only along its length")
    bottom = PAGE_HEIGHT - MARGIN
    marks: tuple[_Mark, ...] = (
        _fitted_caption(centre, MARGIN + 30, title, 56, cjk_font),
        _Caption(centre, MARGIN + 90, subtitle, 24, QUIET_TEXT_COLOUR),
        _Group("board", _board_marks(puzzle.grid, layout.board_x, layout.board_y,
                                     layout.board_cell, colours, puzzle.goal, letters=True)),
        _Caption(centre, bottom - 200, _moves(solution.length), 80),
        *(_Caption(centre, bottom - 120 + 40 * line, words, 26, QUIET_TEXT_COLOUR)
          for line, words in enumerate(rules)))
    return _Page(PAGE_WIDTH, layout.front_height, marks)


def _back_page(puzzle: Puzzle, solution: PuzzleSolution, title: str, layout: CardLayout,
               cjk_font: str | os.PathLike[str] | None = None) -> _Page:
    """The back: the solution's boards, numbered, as :func:`card_layout` places them."""
    colours = piece_colours(puzzle)
    cell = layout.thumbnail_cell
    across, down = layout.thumbnail_pitch
    frame = frame_width(cell)
    board_width = puzzle.columns * cell + 2 * frame
    marks: list[_Mark] = [
        _fitted_caption(PAGE_WIDTH // 2, MARGIN + 20, f"{title}: solution", 36, cjk_font),
        _Caption(PAGE_WIDTH // 2, MARGIN + 60,
                 f"{_moves(solution.length)} ({puzzle.metric} metric). Board 0 is the start, "
                 "board k the position after move k.", 20, QUIET_TEXT_COLOUR)]
    for move, grid in enumerate(solution.path):
        row, column = divmod(move, layout.per_row)
        left = layout.thumbnails_left + column * across
        top = BACK_TOP + row * down
        # Centred in its column: a narrow board under a wider number.
        board_x = left + (across - THUMBNAIL_GAP - board_width) // 2 + frame
        marks.append(_Group("thumbnail", (
            _Caption(left + (across - THUMBNAIL_GAP) // 2, top + NUMBER_HEIGHT // 2 - 1,
                     str(move), 13),
            *_board_marks(grid, board_x, top + NUMBER_HEIGHT + frame, cell, colours,
                          puzzle.goal, letters=cell >= LETTERED_CELL)), move))
    return _Page(PAGE_WIDTH, layout.back_height, tuple(marks))


def _fitted_caption(x: int, y: int, text: str, largest: int,
                    cjk_font: str | os.PathLike[str] | None) -> _Caption:
    """A centred caption as large as fits the page's width, down to half of ``largest``;
    past that, cut short with "..."."""
    for size in range(largest, largest // 2 - 1, -2):
        if _text_width(text, size, cjk_font) <= CONTENT_WIDTH:
            return _Caption(x, y, text, size)
    size = largest // 2
    while len(text) > 1 and _text_width(text + "...", size, cjk_font) > CONTENT_WIDTH:
        text = text[:-1]
    return _Caption(x, y, text.rstrip() + "...", size)


# ----- text in pixels ------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _font(size: int, path: str | None) -> Font:
    """Pillow's own font (Latin letters only), or the font at ``path`` for CJK text."""
    from PIL import ImageFont

    if path is not None:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass  # a FreeType built without WOFF2: those characters come out as boxes
    return ImageFont.load_default(size=size)


def _runs(text: str, size: int, cjk_font: str | os.PathLike[str] | None
          ) -> list[tuple[str, Font]]:
    """``text`` cut into runs, each with the font that holds its characters."""
    path = None if cjk_font is None else os.fspath(cjk_font)
    # The split keeps the CJK runs it cuts at: they are its odd parts.
    return [(part, _font(size, path if index % 2 else None))
            for index, part in enumerate(_CJK.split(text)) if part]


def _text_width(text: str, size: int, cjk_font: str | os.PathLike[str] | None) -> float:
    return sum(font.getlength(run) for run, font in _runs(text, size, cjk_font))


# ----- the formats ----------------------------------------------------------------------
def _flat(marks: Sequence[_Mark]) -> list[_Box | _Caption]:
    flat: list[_Box | _Caption] = []
    for mark in marks:
        flat += _flat(mark.marks) if isinstance(mark, _Group) else [mark]
    return flat


def _shifted(marks: Sequence[_Mark], down: int) -> tuple[_Mark, ...]:
    return tuple(dataclasses.replace(mark, marks=_shifted(mark.marks, down))
                 if isinstance(mark, _Group) else dataclasses.replace(mark, y=mark.y + down)
                 for mark in marks)


def _stacked(front: _Page, back: _Page) -> _Page:
    """One page: the front above the back, a grey fold line between them."""
    return _Page(front.width, front.height + back.height, (
        _Group("front", front.marks),
        _Box(0, front.height - 1, front.width, 2, FOLD_COLOUR),
        _Group("back", _shifted(back.marks, front.height))))


def _hex(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _svg_text(caption: _Caption, cjk_family: str | None) -> str:
    """A caption's text element; with ``cjk_family``, its CJK runs in that font family."""
    text = escape(caption.text)
    if cjk_family is not None:
        text = "".join(f'<tspan font-family="{cjk_family}">{part}</tspan>' if index % 2
                       else part for index, part in enumerate(_CJK.split(text)))
    # The baseline set below the caption's middle, as no converter reads dominant-baseline
    # alike.
    return (f'<text x="{caption.x}" y="{caption.y + round(0.35 * caption.size)}" '
            f'font-size="{caption.size}" fill="{_hex(caption.colour)}" '
            f'text-anchor="middle">{text}</text>')


def _svg_marks(marks: Sequence[_Mark], cjk_family: str | None) -> str:
    parts = []
    for mark in marks:
        if isinstance(mark, _Group):
            move = "" if mark.move is None else f' data-move="{mark.move}"'
            parts.append(f'<g class="{mark.role}"{move}>'
                         f'{_svg_marks(mark.marks, cjk_family)}</g>')
        elif isinstance(mark, _Box):
            parts.append(f'<rect x="{mark.x}" y="{mark.y}" width="{mark.width}" '
                         f'height="{mark.height}" fill="{_hex(mark.fill)}"/>')
        else:
            parts.append(_svg_text(mark, cjk_family))
    return "".join(parts)


def _svg(page: _Page, *, unit: Literal["mm", "pt", "px"] = "mm",
         cjk_family: str | None = None) -> str:
    """The page as SVG in pixels at :data:`DPI`, its size said in ``unit``: millimetres or
    points print at :data:`DPI`, pixels render one to one."""
    per_pixel = {"mm": 25.4 / DPI, "pt": 72 / DPI, "px": 1}[unit]
    width, height = (f"{pixels * per_pixel:.2f}".rstrip("0").rstrip(".") + unit
                     for pixels in (page.width, page.height))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
            f'height="{height}" viewBox="0 0 {page.width} {page.height}" '
            'font-family="sans-serif" shape-rendering="crispEdges">'
            f'<rect width="100%" height="100%" fill="{_hex(BACKGROUND)}"/>'
            f"{_svg_marks(page.marks, cjk_family)}</svg>\n")


def _png(page: _Page, cjk_font: str | os.PathLike[str] | None) -> bytes:
    """The page rendered by resvg, one pixel a pixel, with the system's fonts and
    ``cjk_font`` if resvg reads it (TrueType or OpenType; not WOFF2)."""
    import resvg_py

    fonts = ([os.fspath(cjk_font)] if cjk_font is not None
             and os.fspath(cjk_font).lower().endswith((".ttf", ".otf", ".ttc")) else None)
    return bytes(resvg_py.svg_to_bytes(svg_string=_svg(page, unit="px"), font_files=fonts,
                                       shape_rendering="crisp_edges"))


_PDF_CJK_FONT = "STSong-Light"
"""A CJK font every PDF reader supplies (Adobe's standard Chinese font): not embedded."""


def _pdf(pages: Sequence[_Page], title: str) -> bytes:
    """The pages as one PDF, vector, each page the size its SVG says in points: svglib reads
    the SVG into ReportLab's drawing, which ReportLab writes."""
    from reportlab.graphics import renderPDF
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas
    from svglib.svglib import svg2rlg

    if _PDF_CJK_FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(_PDF_CJK_FONT))
    output = io.BytesIO()
    document = canvas.Canvas(output, invariant=True)
    document.setTitle(title)
    for page in pages:
        drawing = svg2rlg(io.StringIO(_svg(page, unit="pt", cjk_family=_PDF_CJK_FONT)))
        if drawing is None:  # svglib's answer to SVG it cannot read: ours always reads
            raise ValueError("svglib could not read the card's SVG")
        document.setPageSize((drawing.width, drawing.height))
        renderPDF.draw(drawing, document, 0, 0)
        document.showPage()
    document.save()
    return output.getvalue()


def draw_card(puzzle: Puzzle, solution: PuzzleSolution, card_format: CardFormat, *,
              title: str | None = None, cjk_font: str | os.PathLike[str] | None = None
              ) -> bytes:
    """The card of ``puzzle`` and its optimal ``solution`` as the bytes of a PNG or SVG file
    (the front above the back) or of a PDF of two pages (front, back).

    Its title is ``title``, else the puzzle's (a catalogue entry's), else its start's grid.
    The card is drawn once, as SVG; resvg renders the PNG (CJK characters with the system's
    fonts, or the TrueType or OpenType font file ``cjk_font``), svglib and ReportLab turn it
    into the vector PDF (CJK characters in the reader's standard Chinese font); an SVG
    leaves fonts to its reader.  ``cjk_font`` also measures CJK text, for a title to fit."""
    if card_format not in CARD_FORMATS:
        raise ValueError(f"card format {card_format!r} is not one of {', '.join(CARD_FORMATS)}")
    shown = title or puzzle.title or puzzle.grid
    layout = card_layout(puzzle.rows, puzzle.columns, solution.length)
    front = _front_page(puzzle, solution, shown, layout, cjk_font)
    back = _back_page(puzzle, solution, shown, layout, cjk_font)
    if card_format == "svg":
        return _svg(_stacked(front, back)).encode("utf-8")
    if card_format == "png":
        return _png(_stacked(front, back), cjk_font)
    return _pdf((front, back), shown)
