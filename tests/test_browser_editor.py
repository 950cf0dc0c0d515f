"""The puzzle editor (/puzzles/editor), driven in Debian's chromium through Playwright.

A puzzle is drawn with the mouse and a finger; its share link opened in a fresh page must
draw the same puzzle: the same ``data-grid``, every piece's element over its own cells and
the same pixels. Expected answers come from the engine (:func:`huarong.puzzles.solve`,
:func:`huarong.puzzles.cluster_summary`) and the server's own error lines; the downloaded
file is read back by :func:`huarong.puzzles.load_puzzle`.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlencode

import pytest

from huarong.puzzles import cluster_summary, load_puzzle, solve

from .test_browser import TIMEOUT_MS
from .test_browser_explore import _serious_accessibility_problems
from .test_browser_puzzles import TOO_LARGE

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Route

pytestmark = pytest.mark.browser

SHOTS = Path("/work/notes/shots")
# The round trip's drawing on the 4x4 board: a 2x2 (A), a domino (B), a unit square (C) and
# a wall; the goal takes the 2x2 to the bottom-right corner.
DRAWN = "AA.C/AA../BB../#..."
DRAWN_GOAL = "..../..../..AA/..AA"
DITHER = 2
"""The most a colour channel of one picture drawn twice may differ by."""


@contextlib.contextmanager
def _editor(browser: Browser, url: str, *, touch: bool = False, width: int = 1240,
            height: int = 940) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": width, "height": height},
                                  has_touch=touch, accept_downloads=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    script_errors: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("#editor-board .pb-cell")
    yield page
    context.close()
    assert not script_errors, f"the page threw: {script_errors}"


def _answered(page: Page) -> tuple[str, str]:
    """The answer line and the cluster line, once they answer the board drawn now."""
    page.wait_for_function("() => { const a = document.querySelector('#answer');"
                           " return a.dataset.start === document.querySelector("
                           "'#editor-board').dataset.grid; }")
    return page.text_content("#answer") or "", page.text_content("#cluster") or ""


def _cell_centre(page: Page, row: int, column: int) -> tuple[float, float]:
    box = page.locator("#editor-board").bounding_box()
    assert box is not None
    rows, columns = page.eval_on_selector(
        "#editor-board", "el => [el.querySelectorAll('.pb-row').length,"
                         " el.querySelectorAll('.pb-cell').length]")
    columns //= rows
    return (box["x"] + (column + 0.5) * box["width"] / columns,
            box["y"] + (row + 0.5) * box["height"] / rows)


def _stroke(page: Page, cells: tuple[tuple[int, int], ...]) -> list[tuple[float, float]]:
    """The points of a drag through the cells' centres, in small steps."""
    centres = [_cell_centre(page, *cell) for cell in cells]
    return centres[:1] + [(x0 + (x1 - x0) * i / 4, y0 + (y1 - y0) * i / 4)
                          for (x0, y0), (x1, y1) in itertools.pairwise(centres)
                          for i in range(1, 5)]


def _mouse_drag(page: Page, *cells: tuple[int, int]) -> None:
    """A press on the first cell, a drag through the others, a release."""
    first, *rest = _stroke(page, cells)
    page.mouse.move(*first)
    page.mouse.down()
    for point in rest:
        page.mouse.move(*point)
    page.mouse.up()


def _touch_drag(page: Page, *cells: tuple[int, int]) -> None:
    """The same with a finger: touch events sent to chromium as a touchscreen sends them."""
    first, *rest = _stroke(page, cells)
    cdp = page.context.new_cdp_session(page)
    for kind, (x, y) in [("touchStart", first), *(("touchMove", point) for point in rest)]:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def _grid(page: Page) -> str:
    grid = page.get_attribute("#editor-board", "data-grid")
    assert grid is not None
    return grid


def _pieces_misplaced(page: Page) -> list[str]:
    """The pieces whose element's box is not the box of its cells, within 1 px."""
    wrong: list[str] = page.eval_on_selector("#editor-board", """el => {
        const cells = [...el.querySelectorAll('.pb-cell')].map(c => c.getBoundingClientRect());
        const glyphs = el.dataset.grid.replaceAll('/', '');
        return [...el.querySelectorAll('.pb-piece')].flatMap(piece => {
            const own = cells.filter((_, i) => glyphs[i] === piece.dataset.piece);
            const want = {left: Math.min(...own.map(b => b.left)),
                          top: Math.min(...own.map(b => b.top)),
                          right: Math.max(...own.map(b => b.right)),
                          bottom: Math.max(...own.map(b => b.bottom))};
            const got = piece.getBoundingClientRect();
            return ['left', 'top', 'right', 'bottom'].every(
                side => Math.abs(got[side] - want[side]) <= 1) ? [] : [piece.dataset.piece];
        }); }""")
    return wrong


def _board_pixels(page: Page) -> bytes:
    page.mouse.move(0, 0)  # no hover on the board
    return page.locator("#editor-board").screenshot(animations="disabled")


def _same_picture(first: bytes, second: bytes) -> bool:
    """Every pixel alike, but for the one level chromium's dithering of gradients may vary."""
    from PIL import Image, ImageChops

    one, two = (Image.open(io.BytesIO(shot)).convert("RGB") for shot in (first, second))
    if one.size != two.size:
        return False
    return all(high <= DITHER for _, high in ImageChops.difference(one, two).getextrema())


def _engine_answer(start: str, goal: str | None, metric: str = "step",
                   rules: str = "free") -> tuple[str, str]:
    """The answer and cluster lines the editor must show, from the engine."""
    puzzle = load_puzzle(start, goal, metric=metric, rules=rules)
    found = solve(puzzle)
    summary = cluster_summary(puzzle)
    answer = "No solution" if found is None else (
        f"Solvable in {found.length} move{'' if found.length == 1 else 's'}")
    positions = f"{summary.states:,} position{'' if summary.states == 1 else 's'}"
    return answer, f"Cluster of {positions}, {summary.solved:,} solved"


def _server_error(url: str, path: str, params: dict[str, str]) -> str:
    try:
        with urllib.request.urlopen(f"{url}{path}?{urlencode(params)}", timeout=60):
            pass
    except urllib.error.HTTPError as error:
        message: str = json.loads(error.read())["error"]
        return message
    pytest.fail(f"{path} accepted {params}")


def _draw_round_trip_puzzle(page: Page) -> None:
    page.check("input[name=tool][value=block]")
    _mouse_drag(page, (0, 0), (1, 1))
    _mouse_drag(page, (2, 0), (2, 1))
    _mouse_drag(page, (0, 3))
    page.check("input[name=tool][value=wall]")
    _mouse_drag(page, (3, 0))
    page.check("input[name=tool][value=goal]")
    _mouse_drag(page, (0, 1))  # the 2x2 is the goal piece
    assert "ed-chosen" in (page.get_attribute("#editor-board [data-piece=A]", "class") or "")
    _mouse_drag(page, (0, 0), (2, 2))  # its top-left cell dragged to where it must end


def test_a_drawn_puzzle_s_share_link_draws_the_same_puzzle_answered_as_the_engine(
        browser: Browser, server_url: str) -> None:
    expected = _engine_answer(DRAWN, DRAWN_GOAL)
    with _editor(browser, f"{server_url}/puzzles/editor") as page:
        page.fill("#rows-input", "4")
        page.fill("#columns-input", "4")
        _draw_round_trip_puzzle(page)
        assert _grid(page) == DRAWN
        assert page.input_value("#goal-text") == DRAWN_GOAL.replace("/", "\n")
        assert page.input_value("#board-text") == DRAWN.replace("/", "\n")
        assert _answered(page) == expected
        assert not _pieces_misplaced(page)
        link = page.input_value("#share-link")
        drawn = _board_pixels(page)
        play = page.get_attribute("#play-link", "href")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "editor-desktop.png"), full_page=True)
    assert play == f"/puzzles#{link.partition('#')[2]}"
    with _editor(browser, link) as page:
        assert _grid(page) == DRAWN
        assert page.input_value("#goal-text") == DRAWN_GOAL.replace("/", "\n")
        assert _answered(page) == expected
        assert not _pieces_misplaced(page)
        assert _same_picture(_board_pixels(page), drawn)
        assert page.input_value("#share-link") == link


def test_a_piece_of_any_shape_is_drawn_with_a_finger(browser: Browser, server_url: str
                                                     ) -> None:
    with _editor(browser, f"{server_url}/puzzles/editor", touch=True, width=390,
                 height=844) as page:
        page.evaluate("() => { window.pointerKinds = new Set(); document.querySelector("
                      "'#editor-board').addEventListener('pointerdown',"
                      " e => window.pointerKinds.add(e.pointerType)); }")
        page.check("input[name=tool][value=shape]")
        _touch_drag(page, (0, 0), (1, 0), (1, 1))
        assert _grid(page) == "A.../AA../..../...."
        page.check("input[name=tool][value=block]")
        _touch_drag(page, (3, 2), (3, 3))
        assert _grid(page) == "A.../AA../..../..BB"
        assert page.evaluate("() => [...window.pointerKinds]") == ["touch"]
        assert not _pieces_misplaced(page)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        _answered(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "editor-phone.png"), full_page=True)


def test_the_downloaded_file_loads_as_the_puzzle_drawn(browser: Browser, server_url: str,
                                                       tmp_path: Path) -> None:
    address = urlencode({"start": DRAWN, "goal": DRAWN_GOAL, "metric": "slide",
                         "rules": "length", "distinct": "A"})
    with _editor(browser, f"{server_url}/puzzles/editor#{address}") as page:
        page.fill("#title-input", "A corner \"walk\"")
        with page.expect_download() as waiting:
            page.click("#download-button")
        download = waiting.value
        assert download.suggested_filename == "a-corner-walk.toml"
        path = tmp_path / download.suggested_filename
        download.save_as(path)
    loaded = load_puzzle(str(path))
    drawn = load_puzzle(DRAWN, DRAWN_GOAL, metric="slide", rules="length", distinct="A")
    assert (loaded.grid, loaded.goal, loaded.metric, loaded.rules) == (
        drawn.grid, drawn.goal, "slide", "length")
    assert loaded.classes == drawn.classes
    assert (loaded.name, loaded.title) == ("a-corner-walk", "A corner \"walk\"")


def test_axe_finds_no_serious_accessibility_problem(browser: Browser, server_url: str
                                                    ) -> None:
    address = urlencode({"start": DRAWN, "goal": DRAWN_GOAL})
    with _editor(browser, f"{server_url}/puzzles/editor#{address}") as page:
        _answered(page)
        assert not _serious_accessibility_problems(page)
        assert page.get_attribute("#editor-board", "role") == "img"
        assert "goal: piece A to rows 3-4, columns 3-4" in (
            page.get_attribute("#editor-board", "aria-label") or "")


def test_the_text_redraws_the_board_and_bad_puzzles_are_told_in_one_line(
        browser: Browser, server_url: str) -> None:
    with _editor(browser, f"{server_url}/puzzles/editor") as page:
        # A goal shape no piece has: the 2x2's letter on one cell.
        page.fill("#board-text", DRAWN.replace("/", "\n"))
        page.fill("#goal-text", "....\n....\n....\n...A")
        refused = _server_error(server_url, "/api/puzzles/solve",
                                {"start": DRAWN, "goal": "..../..../..../...A"})
        answer, cluster = _answered(page)
        assert _grid(page) == DRAWN
        assert answer.rstrip(".").lower() in refused.lower() and not cluster
        # No way to the goal: the piece walled in.
        page.fill("#goal-text", "")
        page.fill("#board-text", "A#\n#.")
        page.fill("#goal-text", "..\n.A")
        assert _answered(page) == _engine_answer("A#/#.", "../.A")
        assert _answered(page)[0] == "No solution"
        # A cluster larger than the server searches.
        page.fill("#goal-text", "")
        page.fill("#board-text", TOO_LARGE.replace("/", "\n"))
        assert page.input_value("#rows-input") == "6"
        too_large = _server_error(server_url, "/api/puzzles/group", {"start": TOO_LARGE})
        answer, cluster = _answered(page)
        assert answer.startswith("No goal yet")
        assert cluster.rstrip(".").lower() in too_large.lower()
        # Text that is no rectangle is told at once and leaves the drawing as it was.
        page.fill("#board-text", "AB.\nC")
        assert page.is_visible("#text-error")
        assert _grid(page) == TOO_LARGE


def test_a_heavy_answer_is_awaited_and_shown(browser: Browser, server_url: str) -> None:
    """The server's first answer to each search is its 202 "working" (as a search not done
    within the server's wait is answered): the page asks again after the wait it names."""
    address = urlencode({"start": DRAWN, "goal": DRAWN_GOAL})
    with _editor(browser, f"{server_url}/puzzles/editor") as page:
        working: set[str] = set()

        def first_working(route: Route) -> None:
            path = route.request.url.partition("?")[0]
            if path in working:
                route.continue_()
                return
            working.add(path)
            route.fulfill(status=202, json={"status": "working", "location": route.request.url,
                                            "retry_after": 1})

        page.route("**/api/puzzles/*", first_working)
        page.goto(f"{server_url}/puzzles/editor#{address}")
        page.wait_for_function(
            "() => document.querySelector('#answer').textContent === 'working…'")
        assert _answered(page) == _engine_answer(DRAWN, DRAWN_GOAL)
        assert len(working) == 2


def test_the_viewer_opens_its_puzzle_in_the_editor(browser: Browser, server_url: str) -> None:
    address = urlencode({"start": DRAWN, "goal": DRAWN_GOAL, "metric": "unit"})
    with _editor(browser, f"{server_url}/puzzles/editor") as page:
        page.goto(f"{server_url}/puzzles#{address}")
        page.wait_for_function("() => document.querySelector('#edit-link').hash")
        assert page.locator(".site-nav a[href='/puzzles/editor']").count() == 1
        page.click("#edit-link")
        page.wait_for_url("**/puzzles/editor#**")
        page.wait_for_selector("#editor-board .pb-piece")
        assert _grid(page) == DRAWN
        assert page.input_value("#metric-input") == "unit"
        assert _answered(page) == _engine_answer(DRAWN, DRAWN_GOAL, "unit")
