"""The solution viewer page, driven in Debian's chromium through Playwright.

The app runs under uvicorn on a free loopback port in a background thread. Expected values
come from the spec (worked codes, the goal address), the task's figure for 横刀立马 (81 steps)
and the slow pure-Python engine in ``klotski_reference``; the page's drawing is checked against
``Layout``'s own decoding of the code it displays. Screenshots land in artifacts/screenshots/.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import pytest

from huarong.engine.layout import Layout

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


@contextlib.contextmanager
def _serve(database: Path, **options: Any) -> Iterator[str]:
    import uvicorn

    from huarong.web.app import create_app

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(database, **options), host="127.0.0.1",
                                           port=port, log_level="warning"))
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


@contextlib.contextmanager
def launch_chromium() -> Iterator[Browser]:
    """Debian's chromium, headless, through Playwright (skips the test without chromium, a
    system binary; Playwright is of the test extra)."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent (install it with: apt-get install -y chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@contextlib.contextmanager
def _open_page(browser: Browser, url: str, **options: Any) -> Iterator[Page]:
    context = browser.new_context(**{"viewport": {"width": 1240, "height": 940}, **options})
    context.set_default_timeout(TIMEOUT_MS)
    viewer = context.new_page()
    script_errors: list[str] = []
    viewer.on("pageerror", lambda error: script_errors.append(str(error)))
    viewer.goto(url)
    _, _, linked = url.partition("#")
    _wait_ready(viewer, Layout.parse(linked).code if linked else HENG_DAO_LI_MA)
    yield viewer
    context.close()
    assert not script_errors, f"the page threw: {script_errors}"


@pytest.fixture
def page(browser: Browser, server_url: str) -> Iterator[Page]:
    with _open_page(browser, f"{server_url}/") as viewer:
        yield viewer


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
    # the layout may already be on the board: wait for this load's own request
    with page.expect_response(lambda response: "/api/layout?" in response.url):
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
    # let the last slide's readouts settle, and its slide end, before reading the board
    page.wait_for_selector("#celebration", state="visible")
    page.wait_for_function("() => document.querySelector('#board .piece.cao')"
                           ".getAnimations().every(a => a.playState !== 'running')")
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
    # a sentence for a person, not the API's "parameter 'code': ..." prefix
    assert re.fullmatch(r"[A-Z][^\n]*\.", _text(page, "#error")), _text(page, "#error")
    assert "parameter" not in _text(page, "#error")
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
    _wait_ready(page, expected_code)
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
    # the readouts describe the board being built, not the layout before it
    assert (_text(page, "#current-code"), _text(page, "#remaining")) == ("—", "—")
    assert _text(page, "#layout-name") == ""
    # 横刀立马 as drawn in docs §3, each piece placed by its top-left cell
    placements = [("cao", 1), ("vertical", 0), ("vertical", 3), ("vertical", 8),
                  ("vertical", 11), ("horizontal", 9), ("soldier", 13), ("soldier", 14),
                  ("soldier", 16), ("soldier", 19)]
    for kind, address in placements:
        page.click(f"#palette [data-kind={kind}]")
        page.mouse.click(*_cell_centre(page, address))
    page.wait_for_function("() => !document.querySelector('#edit-done').disabled")
    assert HENG_DAO_LI_MA in _text(page, "#edit-status")
    assert _text(page, "#current-code") == HENG_DAO_LI_MA
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


def _moves(page: Page) -> int:
    return int(_text(page, "#moves-made"))


def _wait_moves(page: Page, moves: int) -> None:
    page.wait_for_function(
        "n => document.querySelector('#moves-made').textContent === String(n)", arg=moves)


def _wait_code(page: Page, code: str) -> None:
    page.wait_for_function(
        "code => document.querySelector('#current-code').textContent === code", arg=code)


def _wait_text(page: Page, selector: str, text: str) -> None:
    page.wait_for_function(
        "([selector, text]) => document.querySelector(selector).textContent === text",
        arg=[selector, text])


def _climb_to_a_step(page: Page, *, click: bool = False) -> None:
    """The graded hints' three rungs on one position: how far, which piece, the step."""
    for _ in range(3):
        if click:
            page.click("#hint-button")
        else:
            page.keyboard.press("h")


def test_undo_redo_restart_and_hint_round_trip(page: Page) -> None:
    _load(page, SHORT_PUZZLE)
    optimum = _reference_min_steps(_reference_state(SHORT_PUZZLE))
    assert optimum is not None
    assert _text(page, "#progress") == f"0 moves · {optimum} to go at best"
    # Graded hints: how far, then which piece (outlined), then the step; each one counted.
    page.keyboard.press("h")
    _wait_text(page, "#message", f"Solvable in {optimum} steps from here.")
    page.keyboard.press("h")
    page.wait_for_selector("#board .piece.hinted")
    assert _text(page, "#message").startswith("Move ")
    assert _moves(page) == 0 and _text(page, "#hints-used") == "2"
    page.keyboard.press("h")
    _wait_moves(page, 1)
    assert _text(page, "#hints-used") == "3"
    assert page.locator("#board .piece.hinted").count() == 0
    hinted = _shown_code(page)
    assert reference.is_one_step(_reference_state(SHORT_PUZZLE), _reference_state(hinted))
    assert _reference_min_steps(_reference_state(hinted)) == optimum - 1
    _wait_text(page, "#progress", f"1 move · {optimum - 1} to go at best")

    page.click("#undo-button")
    _wait_code(page, SHORT_PUZZLE)
    assert _moves(page) == 0
    page.keyboard.press("Control+Shift+Z")
    _wait_code(page, hinted)
    page.keyboard.press("Control+z")
    _wait_code(page, SHORT_PUZZLE)
    page.keyboard.press("Control+y")
    _wait_code(page, hinted)
    _climb_to_a_step(page, click=True)
    _wait_moves(page, 2)
    second = _shown_code(page)
    page.keyboard.press("r")
    _wait_code(page, SHORT_PUZZLE)
    assert _moves(page) == 0
    page.click("#redo-button")
    _wait_code(page, hinted)
    page.click("#redo-button")
    _wait_code(page, second)
    assert _moves(page) == 2

    # a dragged move drops what could be redone; undo and redo cross it like any other
    page.keyboard.press("r")
    _wait_code(page, SHORT_PUZZLE)
    _drag(page, 12, 4)
    _wait_moves(page, 1)
    dragged = _shown_code(page)
    assert page.is_disabled("#redo-button")
    page.keyboard.press("Control+z")
    _wait_code(page, SHORT_PUZZLE)
    page.keyboard.press("Control+y")
    _wait_code(page, dragged)


def test_a_drop_that_is_not_a_step_does_nothing(page: Page) -> None:
    _load(page, SHORT_PUZZLE)
    # the vertical piece at rows 3-4, column 0 dropped on the 1x1 beside it, then on the 2x2
    for occupied in (13, 9):
        _drag(page, 12, occupied)
        page.wait_for_timeout(200)
        assert _shown_code(page) == SHORT_PUZZLE and _moves(page) == 0
    assert _drawn_pieces(page) == _pieces_of(SHORT_PUZZLE)


def test_keyboard_moves_and_shortcuts_with_a_button_focused(page: Page) -> None:
    start = Layout.parse(ABOVE_THE_EXIT).code
    _load(page, ABOVE_THE_EXIT)
    page.evaluate("""() => {
        const title = document.querySelector('.masthead h1');
        title.tabIndex = -1;
        title.focus();
    }""")
    page.keyboard.press("Tab")  # the first piece in reading order: the board comes first
    focused = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert focused == "将 1×2, rows 1-2, column 1"

    page.focus('[aria-label="兵 1×1, row 5, column 1"]')
    page.keyboard.press("ArrowRight")
    _wait_moves(page, 1)
    moved = Layout.from_grid("V..V/VSSV/VCCV/VCCV/.S.S").code
    assert _shown_code(page) == moved
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == (
        "兵 1×1, row 5, column 2")
    _wait_text(page, "#announce",
               "Moved 兵 1×1, row 5, column 2: worse. 1 move · 2 to go at best")
    # the same piece again: still one step, as the engine counts (one piece, any distance)
    page.keyboard.press("ArrowRight")
    _wait_code(page, Layout.from_grid("V..V/VSSV/VCCV/VCCV/..SS").code)
    assert _moves(page) == 1
    page.keyboard.press("ArrowDown")  # the edge of the board: nothing moves
    page.keyboard.press("ArrowLeft")
    _wait_code(page, moved)
    assert _moves(page) == 1
    page.keyboard.press("ArrowLeft")  # back where the step started: no step at all
    _wait_code(page, start)
    assert _moves(page) == 0
    page.keyboard.press("ArrowRight")
    _wait_code(page, moved)

    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.focus("#solve-button")
    _climb_to_a_step(page)
    _wait_moves(page, 2)
    _climb_to_a_step(page)
    page.wait_for_selector("#celebration", state="visible")
    assert _text(page, "#progress") == "Solved in 3 moves (optimum 1)"
    assert not any("/api/solve" in url for url in requests)
    page.focus("#undo-button")
    page.keyboard.press(" ")  # Space is play/pause: it does not press the focused Undo
    page.wait_for_timeout(300)
    assert _moves(page) == 3
    page.keyboard.press("Enter")  # Enter does
    _wait_moves(page, 2)
    page.fill("#code-input", "")
    page.keyboard.type("hr ")  # typing is typing: no hint, no restart, no play
    page.wait_for_timeout(300)
    assert page.input_value("#code-input") == "hr " and _moves(page) == 2


BI_YI_HENG_KONG = ("比翼横空", "255CECC00", 28)  # docs §7, the literature's 28 steps


def test_playback_asks_once_keeps_the_address_and_ticks_the_classic(
        page: Page, server_url: str) -> None:
    name, code, steps = BI_YI_HENG_KONG
    page.locator("#classics .classic", has_text=name).click()
    _wait_ready(page, code)
    assert _text(page, "#layout-name").startswith(name)
    page.fill("#speed", page.get_attribute("#speed", "max") or "")
    page.evaluate("""() => {
        window.addressWrites = 0;
        const replace = history.replaceState.bind(history);
        history.replaceState = (...args) => { window.addressWrites++; replace(...args); };
    }""")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.dblclick("#solve-button")
    _wait_text(page, "#step-counter", f"{steps} / {steps}")
    page.wait_for_selector("#celebration", state="visible")
    assert [url for url in requests if "/api/" in url] == [
        f"{server_url}/api/solve?code={code}"]
    assert page.evaluate("() => window.addressWrites") == 0
    assert page.evaluate("() => location.hash") == f"#{code}"
    _wait_text(page, "#progress", f"Solved in {steps} moves (optimum {steps})")
    ticked = page.locator(f'#classics .classic[data-code="{code}"] .tick')
    assert ticked.is_visible()

    page.keyboard.press("Control+z")  # playback steps are moves like any other
    _wait_text(page, "#step-counter", f"{steps - 1} / {steps}")
    assert _moves(page) == steps - 1

    page.reload()
    _wait_ready(page, code)
    page.locator(f'#classics .classic[data-code="{code}"]').wait_for()
    assert ticked.is_visible()
    others = page.locator("#classics .classic.solved")
    assert others.count() == 1


def test_hashchange_loads_the_layout_and_copy_link(browser: Browser, server_url: str) -> None:
    with _open_page(browser, f"{server_url}/",
                    permissions=["clipboard-read", "clipboard-write"]) as page:
        # the name comes with the classics' list, which may load after the board
        _wait_text(page, "#layout-name", "横刀立马 · Sword on Horseback")
        page.evaluate(f"() => {{ location.hash = '#{SHORT_PUZZLE}'; }}")
        _wait_ready(page, SHORT_PUZZLE)
        assert _drawn_pieces(page) == _pieces_of(SHORT_PUZZLE)
        assert _text(page, "#layout-name") == ""
        page.click("#copy-link")
        page.wait_for_function("() => document.querySelector('#message').textContent")
        assert page.evaluate("() => navigator.clipboard.readText()") == (
            f"{server_url}/#{SHORT_PUZZLE}")


@pytest.mark.parametrize(("width", "height"), [(320, 568), (568, 320), (390, 844), (844, 390)])
def test_the_board_fits_phones_and_comes_back_into_view(
        browser: Browser, server_url: str, width: int, height: int) -> None:
    with _open_page(browser, f"{server_url}/", viewport={"width": width, "height": height},
                    is_mobile=True, has_touch=True) as page:
        frame = _box(page, "#frame")
        assert frame["x"] >= 0 and frame["x"] + frame["width"] <= width
        assert frame["height"] <= height
        assert frame["width"] >= min(width, height) * 0.5
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        classic = page.locator("#classics .classic", has_text="峰回路转")
        classic.scroll_into_view_if_needed()
        classic.click()
        _wait_ready(page, "4FEA13400")
        page.wait_for_function("""() => {
            const box = document.querySelector('#frame').getBoundingClientRect();
            return box.top >= -1 && box.bottom <= innerHeight + 1;
        }""")
        _screenshot(page, f"phone-{width}x{height}.png")


def _board_in_view(page: Page) -> bool:
    return bool(page.evaluate("""() => {
        const box = document.querySelector('#frame').getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0
            && box.right <= innerWidth;
    }"""))


def test_a_phone_held_sideways_shows_the_whole_board_without_scrolling(
        browser: Browser, server_url: str) -> None:
    # issue 21 §5: at 844 x 390 the board started 172 px down and ended off screen
    width, height = 844, 390
    with _open_page(browser, f"{server_url}/", viewport={"width": width, "height": height},
                    is_mobile=True, has_touch=True) as page:
        assert page.evaluate("() => [scrollX, scrollY, innerWidth]") == [0, 0, width]
        assert _board_in_view(page)
        assert _box(page, "#frame")["height"] >= 0.8 * height
        classic = page.locator("#classics .classic", has_text="峰回路转")
        classic.scroll_into_view_if_needed()
        scrolled = page.evaluate("() => scrollY")
        assert scrolled > 0, "the classics are below the first screen"
        classic.tap()
        _wait_ready(page, "4FEA13400")
        # the board stayed in view beside the list: nothing had to scroll back to it
        assert page.evaluate("() => scrollY") == scrolled
        assert _board_in_view(page)
        assert _drawn_pieces(page) == _pieces_of("4FEA13400")
        _screenshot(page, "phone-landscape-classic.png")


def test_a_short_code_loads_and_shows_beside_the_common_code(
        page: Page, server_url: str) -> None:
    # issue 21 §3: 1A9BF0C00 is id 4,091,296, short code 4WVE1 in the klotski engine
    # the server always names a layout's short code: its absence is a failure, not a skip
    described = page.request.get(f"{server_url}/api/layout?code={HENG_DAO_LI_MA}").json()
    assert described.get("short_code") == "4WVE1", described
    assert page.locator("#short-code").is_visible()
    assert _text(page, "#short-code") == "4WVE1"
    _load(page, SHORT_PUZZLE)
    assert _text(page, "#short-code") != "4WVE1"
    page.fill("#code-input", "4WVE1")
    with page.expect_response(lambda response: "/api/layout?code=4WVE1" in response.url):
        page.click("#load-button")
    _wait_ready(page, HENG_DAO_LI_MA)
    assert _drawn_pieces(page) == _pieces_of(HENG_DAO_LI_MA)
    assert _text(page, "#short-code") == "4WVE1"
    _climb_to_a_step(page)  # one step on: the start's short code no longer names the board
    _wait_moves(page, 1)
    shown = page.locator("#short-code")
    assert shown.is_hidden() or _text(page, "#short-code") != "4WVE1"


def _serious_accessibility_problems(page: Page) -> list[tuple[str, str]]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [(violation["id"], violation["help"]) for violation in
            results.response["violations"] if violation["impact"] in {"critical", "serious"}]


def test_axe_finds_no_serious_accessibility_problem(page: Page) -> None:
    page.locator("#classics .classic").first.wait_for()
    assert not _serious_accessibility_problems(page)
    grid = page.locator("#board[role=grid]")
    assert grid.locator("[role=row]").count() == 5
    assert grid.locator("[role=row] > [role=gridcell]").count() == 20
    cao = page.locator("#board [role=gridcell] > .piece.cao")
    assert cao.get_attribute("aria-label") == "曹操 2×2, rows 1-2, columns 2-3"
    assert cao.get_attribute("tabindex") == "0"


def test_reduced_motion_turns_animation_off(browser: Browser, server_url: str) -> None:
    url = f"{server_url}/#{Layout.parse(ABOVE_THE_EXIT).code}"
    with _open_page(browser, url, reduced_motion="reduce") as page:
        page.evaluate(RECORD_SLIDES)
        _climb_to_a_step(page)
        page.wait_for_selector("#celebration", state="visible")
        assert page.evaluate("() => window.slides") == []
        assert page.locator("#celebration .confetti").count() == 0
        assert page.eval_on_selector(
            ".seal", "el => getComputedStyle(el).animationName") == "none"


def test_chinese_glyphs_come_from_the_page_and_english_names_fit(page: Page) -> None:
    page.locator("#classics .classic").first.wait_for()
    page.evaluate("() => document.fonts.ready")
    statuses = page.evaluate(
        "() => [...document.fonts].filter(f => f.family.includes('Huarong CJK'))"
        ".map(f => f.status)")
    assert statuses == ["loaded"]
    clipped = page.eval_on_selector_all(
        "#classics .en", "els => els.filter(el => el.scrollWidth > el.clientWidth + 1"
        " || el.scrollHeight > el.clientHeight + 1).map(el => el.textContent)")
    assert not clipped


def test_without_a_database_the_page_says_how_to_get_more(page: Page) -> None:
    page.wait_for_function("() => document.querySelector('#levels-note').textContent")
    assert "huarong db build" in _text(page, "#levels-note")
    assert page.locator("#levels .classic").count() == 0


def test_level_picker_pages_the_database(browser: Browser, standard_database: Path) -> None:
    with _serve(standard_database) as url, _open_page(browser, f"{url}/") as page:
        levels = page.locator("#levels .classic")
        levels.first.wait_for()
        assert "121,285" in _text(page, "#levels-note")
        first = [int(steps) for steps in page.locator("#levels .steps").all_text_contents()]
        assert len(first) == 10 and first == sorted(first)
        page.click("#levels-next")
        _wait_text(page, "#levels-range", "11–20")
        page.fill("#levels-steps", "138")
        page.click("#levels-go")
        page.wait_for_function(
            "() => document.querySelector('#levels .steps').textContent === '138'")
        page.locator("#levels .classic", has_text="4FEA13400").click()
        _wait_ready(page, "4FEA13400")
        assert _text(page, "#remaining") == "138"


def test_documentation_pages_work_offline(browser: Browser, server_url: str) -> None:
    context = browser.new_context()
    elsewhere: list[str] = []

    def local_only(route: Any) -> None:
        if route.request.url.startswith(server_url):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context.route(re.compile(".*"), local_only)
    docs = context.new_page()
    docs.goto(f"{server_url}/docs")
    docs.locator(".swagger-ui .title", has_text="huarong").wait_for()
    docs.locator(".opblock-summary-path", has_text="/api/levels").first.wait_for()
    docs.goto(f"{server_url}/redoc")
    docs.locator("h1", has_text="huarong").wait_for()
    context.close()
    assert not elsewhere


def _reference_verdicts(code: str, piece: reference.Piece) -> dict[int, str]:
    """Every step of ``piece`` from layout ``code`` in the reference engine, by the address
    the piece's top-left goes to, judged by the reference's minimum steps before and after."""
    start = _reference_state(code)
    here = _reference_min_steps(start)
    assert here is not None
    judged = {}
    for child in reference.steps_from(start):
        if piece in child:
            continue
        (_, row, col), = child - start
        after = _reference_min_steps(child)
        assert after is not None
        judged[row * 4 + col] = {-1: "better", 0: "same", 1: "worse"}[after - here]
    return judged


def _targets(page: Page, label: str) -> dict[int, str]:
    page.focus(f'#board .piece[aria-label="{label}"]')
    page.wait_for_function("""label => [...document.querySelectorAll('#board .target')]
        .some(el => el.getAttribute('aria-label').startsWith(`Move ${label} to`))""", arg=label)
    shown = page.eval_on_selector_all("#board .target", """els => els.map(el =>
        [Number(el.dataset.address), el.dataset.verdict, el.textContent.trim()])""")
    assert all(text.endswith(verdict) for _, verdict, text in shown), shown
    return {address: verdict for address, verdict, _ in shown}


def test_each_move_of_the_selected_piece_is_judged(page: Page) -> None:
    code = Layout.parse(ABOVE_THE_EXIT).code
    _load(page, ABOVE_THE_EXIT)
    assert _text(page, "#steps-lost") == "0"
    # a 1x1 beside the exit's path (same), the 2x2 over the exit (better), a 1x1 that can
    # only block the exit (worse); the reference engine judges every step independently
    pieces = {"兵 1×1, row 2, column 2": ("S", 1, 1),
              "曹操 2×2, rows 3-4, columns 2-3": ("C", 2, 1),
              "兵 1×1, row 5, column 1": ("S", 4, 0)}
    colours: dict[str, str] = {}
    for label, piece in pieces.items():
        shown = _targets(page, label)
        assert shown == _reference_verdicts(code, piece), label
        colours.update(page.eval_on_selector_all("#board .target", """els => Object.fromEntries(
            els.map(el => [el.dataset.verdict, getComputedStyle(el).backgroundColor]))"""))
        described = page.eval_on_selector(f'#board .piece[aria-label="{label}"]',
                                          "el => el.getAttribute('aria-describedby')")
        words = _text(page, f"#{described}")
        assert all(verdict in words for verdict in shown.values()), words
    # every verdict shows, each in a colour of its own (besides its word)
    assert len(set(colours.values())) == len(colours) == 3, colours
    # the server's verdict wins where it sends one; else it is judged from the minimum steps
    judged = page.evaluate("""async () => {
        const { verdictOf } = await import('/static/components/game-klotski.js');
        return [verdictOf({ verdict: 'worse', min_steps: 4 }, 5),
                verdictOf({ verdict: null, min_steps: 4 }, 5),
                verdictOf({ min_steps: 4 }, 5), verdictOf({ min_steps: 6 }, 5),
                verdictOf({ min_steps: 5 }, 5), verdictOf({ min_steps: null }, null)];
    }""")
    assert judged == ["worse", None, "better", "worse", "same", None]
    _screenshot(page, "verdicts.png")
    assert not _serious_accessibility_problems(page)

    # a click on a worse move makes it: two steps lost (one made, one more still to go)
    _targets(page, "兵 1×1, row 5, column 1")
    page.click('#board .target[data-address="17"]')
    _wait_moves(page, 1)
    _wait_text(page, "#steps-lost", "2")
    page.wait_for_function(
        "() => document.querySelector('#announce').textContent.includes(': worse.')")

    # moves left only: the steps left and lost show, no move is judged
    page.click("#help-mode input[value=moves-left]")
    page.focus('#board .piece[aria-label="曹操 2×2, rows 3-4, columns 2-3"]')
    page.wait_for_timeout(200)
    assert page.locator("#board .target").count() == 0
    assert _text(page, "#piece-moves") == ""
    assert _text(page, "#remaining") == "2" and _text(page, "#steps-lost") == "2"
    page.keyboard.press("Control+z")
    _wait_moves(page, 0)
    page.keyboard.press("ArrowDown")  # the 2x2 out: the announcement names no verdict
    page.wait_for_selector("#celebration", state="visible")
    assert ":" not in _text(page, "#announce").split(".")[0].split(", ")[-1]
    assert page.evaluate("() => localStorage.getItem('huarong.help')") == "moves-left"
    page.click("#help-mode input[value=verdicts]")


def test_a_klotski_game_s_record_downloads_its_moves_hints_and_times(page: Page) -> None:
    """The Record button of the Klotski viewer: the start, then a key move, three hints
    (the third a step), an undo; each move's verdict and steps left are the reference's."""
    import json

    _load(page, SHORT_PUZZLE)
    printed = page.get_attribute("#print-link", "href")
    assert printed == f"/api/puzzles/card?start={SHORT_PUZZLE}&format=pdf"
    page.focus('[aria-label="兵 1×1, row 1, column 1"]')  # S above an empty cell
    page.keyboard.press("ArrowDown")
    _wait_moves(page, 1)
    _climb_to_a_step(page)
    _wait_moves(page, 2)
    page.click("#undo-button")
    _wait_moves(page, 1)
    page.wait_for_function("() => !['…', ''].includes("
                           "document.querySelector('#remaining').textContent)")
    with page.expect_download() as download:
        page.click("#record-button")
    saved = json.loads(Path(download.value.path()).read_text("utf-8"))
    assert saved["record"] == "huarong play record" and saved["start"] == SHORT_PUZZLE
    assert saved["min_steps"] == _reference_min_steps(_reference_state(SHORT_PUZZLE))
    assert [event["kind"] for event in saved["events"]] == [
        "move", "hint", "hint", "hint", "move", "undo"]
    times = [event["ms"] for event in saved["events"]]
    assert times == sorted(times)
    moves = [event for event in saved["events"] if event["kind"] == "move"]
    assert [move["by"] for move in moves] == ["player", "hint"]
    for move in moves:
        steps_before = _reference_min_steps(_reference_state(move["from"]))
        steps_after = _reference_min_steps(_reference_state(move["to"]))
        assert steps_before is not None and steps_after is not None
        assert reference.is_one_step(_reference_state(move["from"]),
                                     _reference_state(move["to"]))
        assert move["moves_left"] == steps_after
        assert move["verdict"] == ("better" if steps_after < steps_before else
                                   "worse" if steps_after > steps_before else "same")
