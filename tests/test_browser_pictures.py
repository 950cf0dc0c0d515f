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

from .test_browser import _serve, launch_chromium

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
HIDDEN_TEXT = ".handle, .face { color: transparent !important; text-shadow: none !important; }"
"""The pictures are compared without the pieces' letters: fonts differ between machines (each
label is checked to be visible on its own)."""
HENG_DAO_LI_MA = "1A9BF0C00"
WALLED = "AB.#/AB../C..#/DD.."
"""A pasted grid with walls: its goal is the 2x1 piece A in the third column, at the bottom."""
WALLED_GOAL = "..../..../..A./..A."


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launch_chromium() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with _serve(Path(__file__).parent / "no-such-database.duckdb") as url:
        yield url


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


def _boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    boxes: list[dict[str, Any]] = page.eval_on_selector_all(selector, """els => els.map(el => {
        const b = el.getBoundingClientRect();
        return {piece: el.dataset.piece, address: el.dataset.address ?? null,
                kind: el.dataset.kind ?? null, box: [b.left, b.top, b.right, b.bottom]};
    })""")
    return boxes


def _union(boxes: list[list[float]]) -> list[float]:
    return [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes)]


def _labels_shown(page: Page, selector: str) -> list[tuple[str, bool]]:
    """Each label's piece, and whether the element at the label's centre is the label (or
    inside it): nothing drawn over it."""
    return [tuple(pair) for pair in page.eval_on_selector_all(selector, """els => els.map(el => {
        const b = el.getBoundingClientRect();
        const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
        return [el.closest('[data-piece]').dataset.piece, el === hit || el.contains(hit)];
    })""")]


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


def test_the_klotski_board_draws_each_piece_on_its_cells(browser: Browser,
                                                         server_url: str) -> None:
    """横刀立马: each piece's box is the union of the grid cells it covers, within 1 px; every
    face is visible; ``data-grid`` is the layout's grid."""
    layout = Layout.parse(HENG_DAO_LI_MA)
    with _page(browser, f"{server_url}/#{HENG_DAO_LI_MA}") as page:
        page.wait_for_function(
            "() => document.querySelector('#board').dataset.grid !== undefined"
            " && document.querySelectorAll('#board .piece').length === 10"
            " && !['…', ''].includes(document.querySelector('#remaining').textContent)")
        _settled_layout(page)
        grid = page.get_attribute("#board", "data-grid")
        assert grid is not None and Layout.from_grid(grid) == layout
        # The pieces' containing block is the board's padding box, 4 cells by 5: measured
        # in the same frame as the pieces.
        (left, top, width, height), pieces = page.eval_on_selector("#board", """el => {
            const b = el.getBoundingClientRect();
            const pieces = [...el.querySelectorAll('.piece')].map(piece => {
                const p = piece.getBoundingClientRect();
                return {piece: piece.dataset.piece, address: piece.dataset.address,
                        kind: piece.dataset.kind, box: [p.left, p.top, p.right, p.bottom]};
            });
            return [[b.left + el.clientLeft, b.top + el.clientTop, el.clientWidth,
                     el.clientHeight], pieces]; }""")
        cell_width, cell_height = width / 4, height / 5
        across = {"cao": 2, "vertical": 1, "horizontal": 2, "soldier": 1}
        down = {"cao": 2, "vertical": 2, "horizontal": 1, "soldier": 1}
        for piece in pieces:
            row, column = divmod(int(piece["address"]), 4)
            kind = piece["kind"]
            expected = [left + column * cell_width, top + row * cell_height,
                        left + (column + across[kind]) * cell_width,
                        top + (row + down[kind]) * cell_height]
            assert all(abs(a - b) <= 1 for a, b in zip(piece["box"], expected, strict=True)), (
                piece, expected)
        letters = "".join(grid.split("/"))
        for piece in pieces:
            assert letters[int(piece["address"])] == piece["piece"]
        shown = _labels_shown(page, "#board .piece .face")
        assert len(shown) == 10 and all(visible for _, visible in shown), shown
        _same_picture(page, "#board", "klotski-heng-dao-li-ma")


@pytest.mark.parametrize(("name", "query"), [
    ("century", {"start": "century"}),
    ("rush-hour-hardest", {"start": "rush-hour-hardest"}),
    ("bickford-4x4-9", {"start": "bickford-4x4-9"}),
    ("walled", {"start": WALLED, "goal": WALLED_GOAL, "distinct": "A"}),
])
def test_a_puzzle_board_draws_each_piece_on_its_cells(browser: Browser, server_url: str,
                                                      name: str, query: dict[str, str]
                                                      ) -> None:
    """Century, Rush Hour's hardest, a Bickford record and a pasted grid with walls: the
    cells drawn with each piece's letter are exactly the cells ``data-grid`` gives it (and
    the engine's reading of the start: same board), every label visible, the goal's cells
    those of the engine's goal, and the board as stored."""
    from urllib.parse import urlencode

    from huarong.puzzles import load_puzzle

    puzzle = load_puzzle(query["start"], query.get("goal"),
                         distinct=query.get("distinct", ""))
    with _page(browser, f"{server_url}/puzzles#{urlencode(query)}") as page:
        page.wait_for_function("() => !['…', ''].includes("
                               "document.querySelector('#remaining').textContent)")
        _settled_layout(page)
        grid = page.get_attribute("#puzzle-board", "data-grid")
        assert grid is not None and puzzle.board.parse(grid) == puzzle.start
        rows = grid.split("/")
        columns = len(rows[0])
        cells = _boxes(page, "#puzzle-board .pcell")
        assert len(cells) == len(rows) * columns
        letters = {glyph for row in rows for glyph in row} - {".", "#"}
        for letter in letters:
            drawn = [cell["box"] for cell in cells if cell["piece"] == letter]
            expected = [cells[r * columns + c]["box"] for r, row in enumerate(rows)
                        for c, glyph in enumerate(row) if glyph == letter]
            assert drawn == expected and _union(drawn) == _union(expected), letter
        walls = page.eval_on_selector_all("#puzzle-board .pcell.wall", "els => els.length")
        assert walls == sum(row.count("#") for row in rows)
        shown = _labels_shown(page, "#puzzle-board .handle")
        assert sorted(letter for letter, _ in shown) == sorted(letters)
        assert all(visible for _, visible in shown), shown
        assert puzzle.goal is not None
        goal_cells = {r * columns + c for r, row in enumerate(puzzle.goal.split("/"))
                      for c, glyph in enumerate(row) if glyph not in ".#"}
        marked = page.eval_on_selector_all(
            "#puzzle-board .pcell", "els => els.flatMap((el, i) =>"
            " el.classList.contains('goal-cell') ? [i] : [])")
        assert set(marked) == goal_cells
        _same_picture(page, "#puzzle-board", f"puzzle-{name}")
