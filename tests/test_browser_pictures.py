"""What a person sees on the boards of both viewers, in Debian's chromium: every piece drawn
where its cells are (within 1 px), its label not covered, the board's ``data-grid`` the
position the engine reads, and a screenshot of each board beside a stored picture.

Expected positions come from the engine's own notation readers (the Klotski layout's grid,
the catalogue's puzzles); the stored pictures are ``tests/data/pictures/*.png``.  A change of
look updates them on purpose, in the same commit:
``HUARONG_UPDATE_PICTURES=1 python -m pytest tests/test_browser_pictures.py``.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from huarong.engine.layout import Layout

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

PICTURES = Path(__file__).parent / "data" / "pictures"
UPDATE = os.environ.get("HUARONG_UPDATE_PICTURES") == "1"
MEAN_DIFFERENCE = 2.0
"""The most a screenshot's pixels may differ from the stored picture's on average (0-255)."""
CHANGED_SHARE = 0.005
"""The most pixels that may differ by more than :data:`CHANGED_BY`: a misplaced piece, a lost
goal outline or a goal drawn as boxes inside its cells changes several times more."""
CHANGED_BY = 48
HIDDEN_TEXT = (".pb-label, .pb-exit::after { color: transparent !important;"
               " text-shadow: none !important; }")
"""The pictures are compared without the pieces' letters: fonts differ between machines (each
label is checked to be visible on its own)."""
HENG_DAO_LI_MA = "1A9BF0C00"
WALLED = "AB.#/AB../C..#/DD.."
"""A pasted grid with walls: its goal is the 2x1 piece A in the third column, at the bottom."""
WALLED_GOAL = "..../..../..A./..A."


@contextlib.contextmanager
def _page(browser: Browser, url: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1240, "height": 940},
                                  reduced_motion="reduce", device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(url)
        yield page
    finally:
        context.close()


def _settled_layout(page: Page) -> None:
    """Fonts loaded and two frames drawn since: nothing moves any more."""
    page.evaluate("() => document.fonts.ready.then(() => new Promise(done =>"
                  " requestAnimationFrame(() => requestAnimationFrame(done))))")


def _board_drawing(page: Page, board: str) -> dict[str, Any]:
    """The board as drawn, in the page's pixels: its cells (reading order), each element
    carrying ``data-piece``, the goal's outlines, and each label with whether the element at
    its centre is the label itself (or inside it): nothing drawn over it."""
    drawing: dict[str, Any] = page.eval_on_selector(board, """el => {
        const box = node => { const b = node.getBoundingClientRect();
                              return [b.left, b.top, b.right, b.bottom]; };
        return {
            cells: [...el.querySelectorAll('[role=gridcell]')].map(box),
            pieces: [...el.querySelectorAll('[data-piece]')].map(node => ({
                piece: node.dataset.piece, box: box(node),
                parts: [...node.querySelectorAll('.pb-part')].map(box)})),
            outlines: [...el.querySelectorAll('.pb-goal')].map(box),
            labels: [...el.querySelectorAll('.pb-label')].map(label => {
                const [left, top, right, bottom] = box(label);
                const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
                return {piece: label.closest('[data-piece]').dataset.piece,
                        box: [left, top, right, bottom],
                        shown: label === hit || label.contains(hit)};
            }),
        }; }""")
    return drawing


def _union(boxes: list[list[float]]) -> list[float]:
    return [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes)]


def _within_a_pixel(drawn: list[float], expected: list[float]) -> bool:
    return all(abs(a - b) <= 1 for a, b in zip(drawn, expected, strict=True))


def _inside(point: tuple[float, float], box: list[float]) -> bool:
    return box[0] < point[0] < box[2] and box[1] < point[1] < box[3]


OUTLINE_WIDTH = 3
"""The goal outline's line, drawn inside its box (board.css ``.pb-goal``)."""


def _check_board(page: Page, board: str, grid: str, goal: str | None) -> None:
    """Every piece's element covers exactly its cells (its box their union within 1 px; a
    piece not a rectangle drawn as one part on each of its cells), the goal's outline is the
    goal cells' box, and every label is shown, crossed by no line of the outline."""
    drawing = _board_drawing(page, board)
    glyphs = grid.replace("/", "")
    cells = drawing["cells"]
    assert len(cells) == len(glyphs)
    centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in cells]
    covered: list[int] = []
    for piece in drawing["pieces"]:
        own = [i for i, centre in enumerate(centres)
               if _inside(centre, piece["box"]) and glyphs[i] == piece["piece"]]
        assert own and _within_a_pixel(piece["box"], _union([cells[i] for i in own])), piece
        if piece["parts"]:
            assert len(piece["parts"]) == len(own), piece
            for part in piece["parts"]:
                assert any(_within_a_pixel(part, cells[i]) for i in own), piece
        covered += own
    assert sorted(covered) == [i for i, glyph in enumerate(glyphs) if glyph not in ".#"]
    if goal is not None:
        aimed = [i for i, glyph in enumerate(goal.replace("/", "")) if glyph not in ".#"]
        assert len(drawing["outlines"]) == 1
        assert _within_a_pixel(drawing["outlines"][0], _union([cells[i] for i in aimed]))
    labels = drawing["labels"]
    assert len(labels) == len(drawing["pieces"])
    assert all(label["shown"] for label in labels), [
        label for label in labels if not label["shown"]]
    for outline in drawing["outlines"]:
        inner = [outline[0] + OUTLINE_WIDTH, outline[1] + OUTLINE_WIDTH,
                 outline[2] - OUTLINE_WIDTH, outline[3] - OUTLINE_WIDTH]
        for label in labels:
            box = label["box"]
            touches = box[0] < outline[2] and box[2] > outline[0] and box[1] < outline[3] \
                and box[3] > outline[1]
            within = inner[0] <= box[0] and box[2] <= inner[2] and inner[1] <= box[1] \
                and box[3] <= inner[3]
            assert not touches or within, ("the goal's outline crosses a label", label)


def _same_picture(page: Page, selector: str, name: str) -> None:
    """The element's screenshot against ``tests/data/pictures/NAME.png``."""
    from PIL import Image, ImageChops

    page.add_style_tag(content=HIDDEN_TEXT)
    _settled_layout(page)
    shot = Image.open(io.BytesIO(page.locator(selector).screenshot(
        animations="disabled", caret="hide"))).convert("RGB")
    stored = PICTURES / f"{name}.png"
    if UPDATE or not stored.exists():
        PICTURES.mkdir(parents=True, exist_ok=True)
        shot.save(stored)
        if not UPDATE:
            pytest.fail(f"{stored} did not exist: written now, check it and commit it")
        return
    expected = Image.open(stored).convert("RGB")
    assert shot.size == expected.size, f"{name}: {shot.size} drawn, {expected.size} stored"
    counts = ImageChops.difference(shot, expected).convert("L").histogram()
    pixels = sum(counts)
    mean = sum(value * count for value, count in enumerate(counts)) / pixels
    changed = sum(counts[CHANGED_BY + 1:]) / pixels
    assert mean <= MEAN_DIFFERENCE and changed <= CHANGED_SHARE, (
        f"{name}: mean difference {mean:.1f}, {100 * changed:.1f} % of pixels changed; "
        "a change of look on purpose: HUARONG_UPDATE_PICTURES=1")


KLOTSKI_GOAL = "..../..../..../.CC./.CC."
"""The 2x2's place at the gate, the Klotski viewer's goal."""


def _klotski_ready(page: Page) -> None:
    page.wait_for_function(
        "() => document.querySelector('#board').dataset.grid !== undefined"
        " && document.querySelectorAll('#board [data-piece]').length === 10"
        " && !['…', ''].includes(document.querySelector('#remaining').textContent)")
    _settled_layout(page)


def test_the_klotski_board_draws_each_piece_on_its_cells(browser: Browser,
                                                         server_url: str) -> None:
    """横刀立马: each piece's box is the union of the grid cells it covers, within 1 px, and
    its kind and address those of the layout; the goal outlined at the gate; every face
    visible; ``data-grid`` the layout's grid; the board as stored."""
    layout = Layout.parse(HENG_DAO_LI_MA)
    with _page(browser, f"{server_url}/#{HENG_DAO_LI_MA}") as page:
        _klotski_ready(page)
        grid = page.get_attribute("#board", "data-grid")
        assert grid is not None and Layout.from_grid(grid) == layout
        _check_board(page, "#board", grid, KLOTSKI_GOAL)
        placed = page.eval_on_selector_all(
            "#board .piece", "els => els.map(el => [Number(el.dataset.address), el.dataset.kind])")
        assert sorted(map(tuple, placed)) == sorted(
            (piece.address, piece.kind.name.lower()) for piece in layout.pieces)
        _same_picture(page, "#frame", "klotski-heng-dao-li-ma")


PUZZLES = [
    ("century", {"start": "century"}),
    ("rush-hour-hardest", {"start": "rush-hour-hardest"}),
    ("bickford-4x4-9", {"start": "bickford-4x4-9"}),
    ("walled", {"start": WALLED, "goal": WALLED_GOAL, "distinct": "A"}),
]


@pytest.mark.parametrize(("name", "query"), PUZZLES)
def test_a_puzzle_board_draws_each_piece_on_its_cells(browser: Browser, server_url: str,
                                                      name: str, query: dict[str, str]
                                                      ) -> None:
    """Century, Rush Hour's hardest, a Bickford record and a pasted grid with walls: each
    piece's element covers exactly the cells ``data-grid`` gives its letter (and the engine
    reads the same start), walls are cells of the frame, the goal's outline is the engine's
    goal, every label visible, no serious accessibility problem, and the board as stored."""
    from urllib.parse import urlencode

    from huarong.puzzles import load_puzzle

    from .test_browser_explore import _serious_accessibility_problems

    puzzle = load_puzzle(query["start"], query.get("goal"),
                         distinct=query.get("distinct", ""))
    with _page(browser, f"{server_url}/puzzles#{urlencode(query)}") as page:
        page.wait_for_function("() => !['…', ''].includes("
                               "document.querySelector('#remaining').textContent)")
        _settled_layout(page)
        grid = page.get_attribute("#puzzle-board", "data-grid")
        assert grid is not None and puzzle.board.parse(grid) == puzzle.start
        _check_board(page, "#puzzle-board", grid, puzzle.goal)
        walls = page.eval_on_selector_all("#puzzle-board .pb-wall", "els => els.length")
        assert walls == grid.count("#")
        family = "pb-rush-hour" if puzzle.rules == "length" else "pb-blocks"
        assert family in (page.get_attribute("#puzzle-board", "class") or "").split()
        assert not _serious_accessibility_problems(page)
        _same_picture(page, "#puzzle-board", f"puzzle-{name}")


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390)])
@pytest.mark.parametrize("path", ["/#1A9BF0C00", "/puzzles#start=rush-hour-hardest",
                                  "/puzzles#start=century"])
def test_a_phone_shows_the_whole_board_in_either_orientation(
        browser: Browser, server_url: str, path: str, width: int, height: int) -> None:
    """A phone held upright or sideways: the frame and its board lie inside the viewport's
    width, the page does not scroll sideways, and the pieces still cover their cells."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=True, has_touch=True, device_scale_factor=2,
                                  reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(f"{server_url}{path}")
        page.wait_for_function("() => !['…', ''].includes("
                               "document.querySelector('#remaining').textContent)")
        _settled_layout(page)
        board = "#board" if path.startswith("/#") else "#puzzle-board"
        frame = page.eval_on_selector(
            board, "el => { const b = el.parentElement.getBoundingClientRect();"
                   " return [b.left, b.right]; }")
        assert frame[0] >= 0 and frame[1] <= width, frame
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        grid = page.get_attribute(board, "data-grid")
        assert grid is not None
        _check_board(page, board, grid, None)
    finally:
        context.close()
