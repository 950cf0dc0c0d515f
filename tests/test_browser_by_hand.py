"""Defects first seen by hand in chromium, each checked on the picture a person sees
(screenshot pixels and the boxes of what is drawn), not only on the page's elements:

- a wall inside an L-shaped piece's box is a wall: a press there grabs nothing;
- the catalogue's list numbers show whole ("10.", not "0.") and count in the order of the
  names read with their numbers ("2 pieces" before "10 pieces");
- every piece of Century shows its letter, the bottom domino inside the goal's outline too,
  along a whole optimal solution.

Expected values come from elsewhere: the grids below (a press and a drag move a piece or not,
as the engine's ``data-grid`` tells), the catalogue's names as Python sorts them by number,
and Century's optimal solution as the server plays it.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING
from urllib.parse import urlencode

import pytest

from .test_browser_puzzles import _settled, _viewer

if TYPE_CHECKING:
    from PIL import Image
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

L_AROUND_A_WALL = "AAB./A#B./CC.D"
"""The issue's board: the wall at row 2, column 2 lies inside A's box (rows 1-2, columns 1-2)."""
L_WITH_ROOM = ".AA./.A#./...."
"""An L whose box holds a wall (row 2, column 3), with room to slide one cell left."""
INK = 90
"""How much darker than the paper behind it a pixel of a letter or a number is (0-255)."""


def _cell_box(page: Page, row: int, column: int) -> list[float]:
    columns = len((page.get_attribute("#puzzle-board", "data-grid") or "").split("/")[0])
    box: list[float] = page.eval_on_selector_all(
        "#puzzle-board .pb-cell", """(cells, i) => { const b = cells[i].getBoundingClientRect();
            return [b.left, b.top, b.right, b.bottom]; }""", row * columns + column)
    return box


def _centre(box: list[float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _screenshot(page: Page) -> Image.Image:
    from PIL import Image

    return Image.open(io.BytesIO(page.screenshot(animations="disabled"))).convert("L")


def _brightness(shot: Image.Image, box: list[float], scale: float) -> float:
    """The mean brightness of the middle half of a cell as drawn."""
    from PIL import ImageStat

    left, top, right, bottom = box
    inset_x, inset_y = (right - left) / 4, (bottom - top) / 4
    crop = shot.crop((round((left + inset_x) * scale), round((top + inset_y) * scale),
                      round((right - inset_x) * scale), round((bottom - inset_y) * scale)))
    return float(ImageStat.Stat(crop).mean[0])


def _inked(crop: Image.Image) -> bool:
    """Whether a crop (grey) holds a letter's ink: a pixel much darker than the lightest."""
    darkest, paper = crop.getextrema()
    assert isinstance(darkest, int) and isinstance(paper, int)
    return darkest < paper - INK


def _press_and_drag(page: Page, start: tuple[float, float], columns: float, size: float) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.wait_for_timeout(150)  # the piece's moves are asked for on the press
    for step in range(1, 9):
        page.mouse.move(start[0] + columns * size * step / 8, start[1])
    page.mouse.up()
    page.wait_for_timeout(250)


def test_a_press_on_a_wall_inside_a_piece_s_box_grabs_nothing(browser: Browser,
                                                                server_url: str) -> None:
    """The issue's board: at the wall's centre the element hit is no part of A, and a press
    there focuses and lifts nothing. An L with room to move: a drag from the wall leaves the
    picture as it was (the empty cell left of A stays dark), while the same drag from A's own
    cell slides A there (that cell turns to wood)."""
    with _viewer(browser, f"{_puzzles(server_url)}#{urlencode({'start': L_AROUND_A_WALL})}"
                 ) as page:
        assert _settled(page)[0] == L_AROUND_A_WALL
        wall = _centre(_cell_box(page, 1, 1))
        hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)"
                            "?.closest('[data-piece]')?.dataset.piece ?? null", list(wall))
        assert hit is None
        page.mouse.move(*wall)
        page.mouse.down()
        page.mouse.move(wall[0] + 3, wall[1] + 3)
        lifted = page.evaluate("() => [document.querySelectorAll('.dragging').length,"
                               " document.activeElement?.dataset?.piece ?? null]")
        page.mouse.up()
        assert lifted == [0, None]

    with _viewer(browser, f"{_puzzles(server_url)}#{urlencode({'start': L_WITH_ROOM})}"
                 ) as page:
        assert _settled(page)[0] == L_WITH_ROOM
        scale = page.evaluate("() => devicePixelRatio")
        wall_box, corner, left_of_a = (_cell_box(page, 1, 2), _cell_box(page, 0, 1),
                                       _cell_box(page, 1, 0))
        size = wall_box[2] - wall_box[0]
        before = _brightness(_screenshot(page), left_of_a, scale)
        _press_and_drag(page, _centre(wall_box), -1, size)
        assert page.get_attribute("#puzzle-board", "data-grid") == L_WITH_ROOM
        assert page.text_content("#moves-made") == "0"
        assert _brightness(_screenshot(page), left_of_a, scale) == pytest.approx(before, abs=8)
        _press_and_drag(page, _centre(corner), -1, size)
        page.wait_for_function("() => document.querySelector('#moves-made').textContent === '1'")
        assert _settled(page)[0] == "AA../A.#./...."
        page.wait_for_timeout(300)
        assert _brightness(_screenshot(page), left_of_a, scale) > before + 40


def _puzzles(server_url: str) -> str:
    return f"{server_url}/puzzles"


def _by_number(name: str) -> list[tuple[int, int | str]]:
    return [(0, int(part)) if part.isdigit() else (1, part)
            for part in re.split(r"(\d+)", name) if part]


def test_the_catalogue_numbers_whole_and_counts_by_number(browser: Browser,
                                                         server_url: str) -> None:
    """Every entry's number is its place ("10." whole, inside the list's box, its tens digit
    inked on the screenshot), and the entries come in the order of their names with numbers
    read as numbers: Bickford's 2 pieces before its 10."""
    from huarong.puzzles import catalogue

    expected = sorted((entry.name for entry in catalogue()), key=_by_number)
    with _viewer(browser, _puzzles(server_url)) as page:
        _settled(page)
        names = page.eval_on_selector_all("#catalogue button",
                                          "els => els.map(b => b.dataset.name)")
        assert names == expected
        assert names.index("bickford-4x4-2") < names.index("bickford-4x4-10")
        page.eval_on_selector_all("#catalogue li", "items => items[11].scrollIntoView()")
        drawn = page.eval_on_selector("#catalogue", """list => {
            const box = b => [b.left, b.top, b.right, b.bottom];
            const outer = box(list.getBoundingClientRect());
            return {list: outer, numbers: [...list.querySelectorAll('.catalogue-number')].map(
                n => ({text: n.textContent, box: box(n.getBoundingClientRect())}))}; }""")
        assert [number["text"] for number in drawn["numbers"]] == [
            f"{place}." for place in range(1, len(expected) + 1)]
        left, _, right, _ = drawn["list"]
        assert all(left <= n["box"][0] and n["box"][2] <= right for n in drawn["numbers"])
        shot = _screenshot(page)
        scale = page.evaluate("() => devicePixelRatio")
        tenth = drawn["numbers"][9]["box"]  # "10.": its first third holds the tens digit
        width = (tenth[2] - tenth[0]) / 3
        crop = shot.crop((round(tenth[0] * scale), round(tenth[1] * scale),
                          round((tenth[0] + width) * scale), round(tenth[3] * scale)))
        assert _inked(crop), "the tens digit of 10. is not drawn"


def test_every_century_piece_shows_its_letter_along_a_solution(browser: Browser,
                                                              server_url: str) -> None:
    """Century's start and every position of its optimal solution drawn by the viewer's board
    (a second board of the page, so the game's own is left alone): each
    piece's label holds its letter, the element at the label's centre is the label (nothing
    over it), and where a domino lies inside the goal's outline its letter is inked on the
    screenshot."""
    with _viewer(browser, f"{_puzzles(server_url)}#start=century") as page:
        _settled(page)
        start = page.get_attribute("#puzzle-board", "data-grid")
        solution = page.evaluate("() => fetch('/api/puzzles/solve?start=century')"
                                 ".then(r => r.json()).then(s => s.moves.map(m => m.grid))")
        goal = page.evaluate("() => fetch('/api/puzzles/next?start=century')"
                             ".then(r => r.json()).then(n => n.goal)")
        aimed = {(r, c) for r, row in enumerate(goal.split("/")) for c, glyph in enumerate(row)
                 if glyph != "."}
        inked = 0
        for grid in [start, *solution]:
            page.evaluate("""async grid => {
                const { gridPositions } = await import('/static/components/game-grid.js');
                const next = await fetch('/api/puzzles/next?start=century').then(r => r.json());
                if (!window.century) {
                    const frame = document.createElement('div');
                    frame.className = 'pb-frame';
                    frame.append(document.createElement('div'));
                    document.querySelector('.boards').prepend(frame);
                    const { createBoard } = await import('/static/components/piece-board.js');
                    window.century = createBoard(frame.firstChild);
                    frame.firstChild.id = 'century';
                }
                gridPositions(() => next).draw(window.century, grid, {});
            }""", grid)
            labels = page.eval_on_selector_all("#century .pb-label", """els => els.map(el => {
                const b = el.getBoundingClientRect();
                const hit = document.elementFromPoint((b.left + b.right) / 2,
                                                      (b.top + b.bottom) / 2);
                return {piece: el.closest('[data-piece]').dataset.piece, text: el.textContent,
                        box: [b.left, b.top, b.right, b.bottom],
                        shown: hit === el || el.contains(hit)}; })""")
            assert all(label["text"] == label["piece"] and label["shown"] for label in labels), (
                grid, labels)
            rows = grid.split("/")
            dominoes = {glyph for glyph in set(grid) - set("./#")
                        if sum(row.count(glyph) for row in rows) == 2
                        and all((r, c) in aimed for r, row in enumerate(rows)
                                for c, g in enumerate(row) if g == glyph)}
            if not dominoes:
                continue
            shot = _screenshot(page)
            scale = page.evaluate("() => devicePixelRatio")
            for label in labels:
                if label["piece"] not in dominoes:
                    continue
                box = label["box"]
                crop = shot.crop(tuple(round(value * scale) for value in box))
                assert _inked(crop), (grid, label)
                inked += 1
        assert inked, "no position of the solution put a domino inside the goal's outline"
