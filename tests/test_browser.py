"""The solution viewer page, driven in Debian's chromium through Playwright.

The app runs under uvicorn on a free loopback port in a background thread. Expected values
come from the spec (worked codes, the goal address), the task's figure for 横刀立马 (81 steps)
and the slow pure-Python engine in ``klotski_reference``; the page's drawing is checked against
``Layout``'s own decoding of the code it displays. Screenshots land in artifacts/screenshots/.
"""

from __future__ import annotations

import itertools
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import pytest

from huarong.layout import Layout

from . import klotski_reference as reference

if TYPE_CHECKING:
    from playwright.sync_api import Browser, FloatRect, Page

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"
HENG_DAO_LI_MA = "1A9BF0C00"  # docs §3 worked example
HENG_DAO_LI_MA_STEPS = 81
GOAL_ADDRESS = 13  # docs §2: the 2x2's top-left in a solved layout
# One step from the goal: the 2x2 sits right above the exit with both exit cells free.
ABOVE_THE_EXIT = "V..V/VSSV/VCCV/VCCV/S..S"
# A short puzzle (docs §3 worked example) so the reference engine answers quickly.
SHORT_PUZZLE = "5DC02F800"
TIMEOUT_MS = 30_000


class Slide(TypedDict):
    """One piece animation recorded in the page: the piece's kind and its (row, col) stops."""

    kind: str
    cells: list[tuple[int, int]]


KIND_GLYPH = {"cao": "C", "vertical": "V", "horizontal": "H", "soldier": "S"}
# Records the cells every piece animation passes through, as (row, col) per keyframe.
RECORD_SLIDES = """() => {
    window.slides = [];
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (frames, options) {
        if (this.classList.contains('piece')) {
            window.slides.push({kind: this.dataset.kind, cells: frames.map(
                f => [Math.round(parseFloat(f.top) / 20), Math.round(parseFloat(f.left) / 25)])});
        }
        return animate.call(this, frames, options);
    };
}"""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    uvicorn = pytest.importorskip("uvicorn")
    from huarong.web import create_app

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail(f"the web app did not start on 127.0.0.1:{port}")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent (install it with: apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser, server_url: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1240, "height": 940})
    context.set_default_timeout(TIMEOUT_MS)
    viewer = context.new_page()
    script_errors: list[str] = []
    viewer.on("pageerror", lambda error: script_errors.append(str(error)))
    viewer.goto(f"{server_url}/")
    _wait_ready(viewer, HENG_DAO_LI_MA)
    yield viewer
    context.close()
    assert not script_errors, f"the page threw: {script_errors}"


def _wait_ready(page: Page, code: str) -> None:
    """Waits until ``code`` is on the board and its remaining steps have been fetched."""
    page.wait_for_function(
        """code => document.querySelector('#current-code').textContent === code
                   && document.querySelector('#remaining').textContent !== '…'""",
        arg=code)


def _screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name))


def _load(page: Page, text: str) -> None:
    page.fill("#code-input", text)
    # the layout may already be on the board: wait for this load's own hint request
    with page.expect_response(lambda response: "/api/next?" in response.url):
        page.click("#load-button")
    _wait_ready(page, Layout.parse(text).code)


def _drawn_pieces(page: Page) -> set[tuple[int, str]]:
    drawn = page.eval_on_selector_all(
        "#board .piece", "els => els.map(el => [Number(el.dataset.address), el.dataset.kind])")
    return {(address, kind) for address, kind in drawn}


def _pieces_of(code: str) -> set[tuple[int, str]]:
    return {(piece.address, piece.kind.name.lower()) for piece in Layout.from_code(code).pieces}


def _text(page: Page, selector: str) -> str:
    text = page.text_content(selector)
    assert text is not None, f"{selector} is missing"
    return text


def _box(page: Page, selector: str) -> FloatRect:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not displayed"
    return box


def _shown_code(page: Page) -> str:
    return _text(page, "#current-code")


def _cell_centre(page: Page, address: int) -> tuple[float, float]:
    box = _box(page, "#board")
    row, col = divmod(address, 4)
    return box["x"] + (col + 0.5) * box["width"] / 4, box["y"] + (row + 0.5) * box["height"] / 5


def _drag(page: Page, from_address: int, to_address: int) -> None:
    start = _cell_centre(page, from_address)
    end = _cell_centre(page, to_address)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=12)
    page.mouse.up()


def _reference_min_steps(state: reference.State) -> int | None:
    """Breadth-first search to the nearest goal with the pure-Python engine."""
    depth = {state: 0}
    queue = deque([state])
    while queue:
        current = queue.popleft()
        if reference.is_goal(current):
            return depth[current]
        for child in reference.steps_from(current):
            if child not in depth:
                depth[child] = depth[current] + 1
                queue.append(child)
    return None


def _reference_state(code: str) -> reference.State:
    return reference.from_grid(Layout.from_code(code).grid())


def _replay_slides(start: reference.State, slides: list[Slide]) -> reference.State:
    """Replays recorded slides on the reference engine, checking that every slide moves one
    piece by unit moves through cells that are empty at that moment."""
    state = start
    for slide in slides:
        glyph = KIND_GLYPH[slide["kind"]]
        (first_row, first_col), (last_row, last_col) = slide["cells"][0], slide["cells"][-1]
        piece = (glyph, first_row, first_col)
        assert piece in state, f"no {slide['kind']} at {slide['cells'][0]}"
        others = state - {piece}
        taken = {cell for other in others for cell in reference.cells(other)}
        for (row, col), (next_row, next_col) in itertools.pairwise(slide["cells"]):
            assert abs(next_row - row) + abs(next_col - col) == 1
            assert reference.fits((glyph, next_row, next_col), taken)
        state = others | {(glyph, last_row, last_col)}
    return state


def test_classics_list_names_and_loads_layouts(page: Page) -> None:
    entries = page.locator("#classics [data-code]")
    entries.first.wait_for()
    assert entries.count() >= 21
    names = page.locator("#classics .zh").all_text_contents()
    assert all(name.strip() for name in names)
    page.locator("#classics [data-code]", has_text="横刀立马").click()
    _wait_ready(page, HENG_DAO_LI_MA)
    assert _drawn_pieces(page) == _pieces_of(HENG_DAO_LI_MA)


def test_a_bad_link_shows_its_error_over_the_default_board(page: Page, server_url: str) -> None:
    page.goto(f"{server_url}/#NOT-A-CODE")
    page.reload()
    _wait_ready(page, HENG_DAO_LI_MA)
    error = page.locator("#error")
    error.wait_for(state="visible")
    assert "NOT-A-CODE" in _text(page, "#error")


def test_solution_animates_to_the_goal(page: Page) -> None:
    _load(page, HENG_DAO_LI_MA)
    assert _text(page, "#remaining") == str(HENG_DAO_LI_MA_STEPS)
    page.fill("#speed", page.get_attribute("#speed", "max") or "")
    page.evaluate(RECORD_SLIDES)
    page.click("#solve-button")
    page.wait_for_function(
        "() => parseInt(document.querySelector('#step-counter').textContent) >= 40")
    _screenshot(page, "solve-mid-animation.png")
    assert _text(page, "#step-counter").endswith(f" / {HENG_DAO_LI_MA_STEPS}")
    mid_code = _shown_code(page)
    assert not mid_code.startswith("D")

    final_counter = f"{HENG_DAO_LI_MA_STEPS} / {HENG_DAO_LI_MA_STEPS}"
    page.wait_for_function(
        "text => document.querySelector('#step-counter').textContent === text",
        arg=final_counter, timeout=90_000)
    # let the last slide's readouts settle before reading the board
    page.wait_for_selector("#celebration", state="visible")
    goal_code = _shown_code(page)
    assert goal_code.startswith("D")
    assert _drawn_pieces(page) == _pieces_of(goal_code)
    assert _text(page, "#remaining") == "0"

    slides: list[Slide] = page.evaluate("() => window.slides")
    assert len(slides) == HENG_DAO_LI_MA_STEPS
    end = _replay_slides(_reference_state(HENG_DAO_LI_MA), slides)
    assert end == _reference_state(goal_code)
    turns = [s for s in slides if len({row for row, _ in s["cells"]}) > 1
             and len({col for _, col in s["cells"]}) > 1]
    assert turns, "a minimum-step 横刀立马 solution turns corners; some slide should too"

    board = _box(page, "#board")
    cao = _box(page, "#board .piece.cao")
    assert page.get_attribute("#board .piece.cao", "data-address") == str(GOAL_ADDRESS)
    cell_width, cell_height = board["width"] / 4, board["height"] / 5
    assert cao["x"] == pytest.approx(board["x"] + cell_width, abs=2)
    assert cao["height"] == pytest.approx(2 * cell_height, abs=2)
    assert cao["y"] + cao["height"] == pytest.approx(board["y"] + board["height"], abs=2)
    assert cao["width"] == pytest.approx(2 * cell_width, abs=2)
    _screenshot(page, "solve-end.png")

    page.click("#step-back")
    page.wait_for_function(
        "text => document.querySelector('#step-counter').textContent === text",
        arg=f"{HENG_DAO_LI_MA_STEPS - 1} / {HENG_DAO_LI_MA_STEPS}")
    before_goal = _shown_code(page)
    assert not before_goal.startswith("D")
    assert _drawn_pieces(page) == _pieces_of(before_goal)
    assert reference.is_one_step(_reference_state(before_goal), _reference_state(goal_code))
    assert page.locator("#celebration").is_hidden()

    page.click("#step-forward")
    page.wait_for_function(
        "text => document.querySelector('#step-counter').textContent === text",
        arg=final_counter)
    assert _shown_code(page) == goal_code


@pytest.mark.parametrize("bad_input", ["1A9BF0CZZ", "2442244223322112100"])
def test_bad_input_shows_the_error_inline(page: Page, bad_input: str) -> None:
    with pytest.raises(ValueError):
        Layout.parse(bad_input)
    page.fill("#code-input", bad_input)
    page.click("#load-button")
    error = page.locator("#error")
    error.wait_for(state="visible")
    assert bad_input in _text(page, "#error")
    assert _shown_code(page) == HENG_DAO_LI_MA
    _screenshot(page, "bad-input.png")


def test_dragging_a_piece_updates_the_remaining_steps(page: Page) -> None:
    _load(page, SHORT_PUZZLE)
    start = _reference_state(SHORT_PUZZLE)
    assert _text(page, "#remaining") == str(_reference_min_steps(start))
    # docs §3 draws 5DC02F800 with a vertical piece at rows 3-4, column 0, free cells above.
    moved = (start - {("V", 3, 0)}) | {("V", 1, 0)}
    assert reference.is_one_step(start, moved)
    expected_code = Layout.from_grid(reference.to_grid(moved)).code

    _drag(page, 12, 4)
    page.wait_for_function(
        "code => document.querySelector('#current-code').textContent === code",
        arg=expected_code)
    assert _text(page, "#remaining") == str(_reference_min_steps(moved))
    assert _text(page, "#moves-made") == "1"
    assert _drawn_pieces(page) == _pieces_of(expected_code)


def test_dragging_the_2x2_out_celebrates(page: Page) -> None:
    _load(page, ABOVE_THE_EXIT)
    start = _reference_state(Layout.parse(ABOVE_THE_EXIT).code)
    assert _text(page, "#remaining") == str(_reference_min_steps(start))
    assert page.locator("#celebration").is_hidden()
    _drag(page, 9, GOAL_ADDRESS)
    page.wait_for_selector("#celebration", state="visible")
    assert _text(page, "#celebration").strip() == "solved!"
    assert _shown_code(page).startswith("D")
    assert _text(page, "#remaining") == "0"
    _screenshot(page, "drag-solved.png")


def test_editor_builds_a_layout_cell_by_cell(page: Page) -> None:
    page.click("#edit-button")
    page.click("#edit-clear")
    assert page.is_disabled("#edit-done")
    # 横刀立马 as drawn in docs §3, each piece placed by its top-left cell
    placements = [("cao", 1), ("vertical", 0), ("vertical", 3), ("vertical", 8),
                  ("vertical", 11), ("horizontal", 9), ("soldier", 13), ("soldier", 14),
                  ("soldier", 16), ("soldier", 19)]
    for kind, address in placements:
        page.click(f"#palette [data-kind={kind}]")
        page.mouse.click(*_cell_centre(page, address))
    page.wait_for_function("() => !document.querySelector('#edit-done').disabled")
    assert HENG_DAO_LI_MA in _text(page, "#edit-status")
    _screenshot(page, "editor.png")

    page.mouse.click(*_cell_centre(page, 19))  # take a 1x1 away: still a legal layout
    page.wait_for_function(
        "() => document.querySelector('#edit-status').textContent.includes('Valid')")
    shown = _text(page, "#edit-status")
    expected = Layout.from_grid("VCCV/VCCV/VHHV/VSSV/S...").code
    assert expected in shown
    page.click("#edit-done")
    _wait_ready(page, expected)
    assert _drawn_pieces(page) == _pieces_of(expected)
