"""The viewer of any puzzle (/puzzles) and the explorer's drawing of any puzzle's state graph
(/explore#/puzzle?...), driven in Debian's chromium through Playwright.

Expected values come from the plain-Python breadth-first search of ``puzzle_reference``: the
minimum moves the page shows, the moves it lists, that every move the page makes is a legal
move of the puzzle, and the states and moves of the graph the explorer draws. The page's
board is read back from its ``data-grid``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlencode

import pytest

from .puzzle_reference import Puzzle, reference
from .test_browser import TIMEOUT_MS, _screenshot
from .test_browser_explore import (
    Graph,
    _card_code,
    _drawn,
    _screen_point,
    _serious_accessibility_problems,
)
from .test_puzzles_cli import TINY, TINY_GOAL

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

TINY_HASH = urlencode({"start": TINY, "goal": TINY_GOAL, "metric": "slide"})
HENG_DAO_LI_MA_STEPS = 81  # the task's figure for 横刀立马, as in test_browser
TOO_LARGE = "AB..../CC..../D...../DEE.../FFF.../......"
"""A 6x6 puzzle whose cluster holds more states than the server searches."""


@pytest.fixture(scope="module")
def tiny() -> Puzzle:
    return reference(TINY, TINY_GOAL, "slide")


@contextlib.contextmanager
def _viewer(browser: Browser, url: str, *, touch: bool = False) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1240, "height": 940}, has_touch=touch)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    script_errors: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))
    page.goto(url)
    yield page
    context.close()
    assert not script_errors, f"the page threw: {script_errors}"


def _settled(page: Page) -> tuple[str, int | None]:
    """The board's grid and the minimum moves shown, once the server has answered."""
    page.wait_for_function("() => !['…', ''].includes("
                           "document.querySelector('#remaining').textContent)")
    grid = page.get_attribute("#puzzle-board", "data-grid")
    remaining = page.text_content("#remaining")
    assert grid is not None and remaining is not None
    return grid, None if remaining == "–" else int(remaining)


def test_a_pasted_puzzle_plays_with_hints_keys_and_undo_to_its_goal(
        browser: Browser, server_url: str, tiny: Puzzle) -> None:
    steps = tiny.min_steps()
    with _viewer(browser, f"{server_url}/puzzles#{TINY_HASH}") as page:
        grid, remaining = _settled(page)
        assert tiny.read_state(grid) == tiny.start and remaining == steps[tiny.start]
        assert page.locator("#puzzle-board [role=row]").count() == 3
        assert page.locator("#puzzle-board [role=gridcell]").count() == 12
        assert len(_goal_cells(page, "#puzzle-board")) == 4
        assert page.locator("#goal-board .pb-cell").count() == 12
        assert page.locator("#moves .move").count() == len(set(tiny.moves(tiny.start)))
        # A key on a focused piece: B (top right of the 2x2) slides right.
        page.focus("#puzzle-board .pb-piece[data-piece=B]")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('#moves-made').textContent === '1'")
        moved, after = _settled(page)
        assert tiny.read_state(moved) in set(tiny.moves(tiny.start))
        assert after == steps[tiny.read_state(moved)]
        assert page.text_content("#verdict") in {"closer", "no closer", "farther"}
        page.keyboard.press("Control+z")
        page.wait_for_function("() => document.querySelector('#moves-made').textContent === '0'")
        # A move chosen from the list with the keyboard; the focus stays in the list.
        page.focus("#moves .move")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('#moves-made').textContent === '1'")
        assert tiny.read_state(_settled(page)[0]) in set(tiny.moves(tiny.start))
        assert page.evaluate("() => document.activeElement.matches('#moves .move')")
        page.click("#restart-button")
        page.wait_for_function("() => document.querySelector('#moves-made').textContent === '0'")
        # Graded hints: how far, then which piece (outlined), then the move.
        page.click("#hint-button")
        page.wait_for_function("text => document.querySelector('#message').textContent"
                               " === text", arg=f"Solvable in {steps[tiny.start]} moves from here.")
        page.click("#hint-button")
        page.wait_for_selector("#puzzle-board .pb-piece.hinted")
        named = page.get_attribute("#puzzle-board .pb-piece.hinted", "data-piece")
        assert page.text_content("#message") == f"Move piece {named}."
        assert page.text_content("#moves-made") == "0"
        page.click("#hint-button")
        # Hints to the goal: every move legal and one closer, three hints a move.
        previous = tiny.start
        for move in range(1, steps[tiny.start] + 1):
            page.wait_for_function(
                "n => document.querySelector('#moves-made').textContent === String(n)", arg=move)
            grid, remaining = _settled(page)
            state = tiny.read_state(grid)
            assert state in set(tiny.moves(previous)) and remaining == steps[state]
            assert page.text_content("#hints-used") == str(3 * move)
            previous = state
            if remaining:
                for _ in range(3):
                    page.keyboard.press("h")
        assert tiny.solved(previous)
        assert "Solved" in (page.text_content("#progress") or "")
        _screenshot(page, "puzzle-solved.png")


def test_the_form_and_the_catalogue_load_puzzles_and_bad_input_is_told(
        browser: Browser, server_url: str) -> None:
    with _viewer(browser, f"{server_url}/puzzles#{TINY_HASH}") as page:
        _settled(page)
        page.fill("#start-input", "AB./C")
        page.click("#load-button")
        error = page.locator("#error[role=alert]")
        error.wait_for()
        assert "ragged" in (error.text_content() or "")
        page.fill("#start-input", "AB\nCB\n.D")
        page.fill("#goal-input", "..\n..\nA.")
        page.select_option("#metric-input", "unit")
        page.click("#load-button")
        page.wait_for_function(
            "() => document.querySelector('#puzzle-board').dataset.grid === 'AB/CB/.D'")
        _, remaining = _settled(page)
        small = reference("AB/CB/.D", "../../A.", "unit")
        assert remaining == small.min_steps()[small.start]
        assert error.is_hidden()
        # A catalogue entry: 横刀立马, a Klotski classic, on the 4x5 board.
        page.click("#catalogue button[data-name=heng-dao-li-ma]")
        page.wait_for_function(
            "() => document.querySelectorAll('#puzzle-board [role=gridcell]').length === 20")
        assert _settled(page)[1] == HENG_DAO_LI_MA_STEPS
        assert "heng-dao-li-ma" in page.url


def test_axe_finds_no_serious_accessibility_problem(browser: Browser, server_url: str
                                                    ) -> None:
    from axe_playwright_python.sync_playwright import Axe

    with _viewer(browser, f"{server_url}/puzzles#{TINY_HASH}") as page:
        _settled(page)
        results = Axe().run(page)
        serious = [(violation["id"], violation["help"]) for violation in
                   results.response["violations"]
                   if violation["impact"] in {"critical", "serious"}]
        assert not serious
        handle = page.locator("#puzzle-board .pb-piece[data-piece=A]")
        assert handle.get_attribute("aria-label") == "piece A, rows 1-2, columns 1-2"
        assert handle.get_attribute("tabindex") == "0"


def _moves(puzzle: Puzzle) -> tuple[int, int]:
    """The states of the puzzle's cluster and the moves between them (each counted once)."""
    cluster = puzzle.cluster()
    return len(cluster), sum(map(len, cluster.values())) // 2


def test_the_explorer_draws_any_puzzles_state_graph(browser: Browser, server_url: str,
                                                    tiny: Puzzle) -> None:
    with _viewer(browser, f"{server_url}/puzzles#{TINY_HASH}") as page:
        _settled(page)
        page.click("#graph-link")
        page.wait_for_url("**/explore#/puzzle?**")
        drawn = _drawn(page)
        assert (int(drawn["nodes"]), int(drawn["edges"])) == _moves(tiny)
        start_moves = tiny.min_steps()[tiny.start]
        assert f"needs {start_moves} moves" in (page.text_content("#group-summary") or "")
        # the start's shortest way out, a board per position, as long as the reference's
        assert page.locator("#group-path li svg.mini").count() == start_moves + 1
        assert page.is_hidden("#board-panel") and page.is_hidden("#bottlenecks-choice")
        # pointing at the start shows its board: 3x4 cells, 9 of them taken by pieces
        query = urlencode({"start": TINY, "goal": TINY_GOAL, "metric": "slide",
                           "position": TINY})
        graph = Graph(page.request.get(f"{server_url}/api/puzzles/graph?{query}").body())
        x, y, scale = _screen_point(page, graph, graph.start)
        page.mouse.move(x, y)
        assert _card_code(page).lstrip("0") in {code.lstrip("0") for code in
                                                graph.near(graph.start, 1 / scale)}
        board = page.locator("#graph-card svg.mini")
        assert board.get_attribute("viewBox") == "0 0 4 3"
        assert board.locator("rect").count() == 9
        assert not _serious_accessibility_problems(page)
        _screenshot(page, "explore-puzzle.png")

        # a catalogue puzzle, by the explorer's address alone
        entries = page.request.get(f"{server_url}/api/puzzles").json()
        dads = next(entry for entry in entries if entry["name"] == "dads-puzzle")
        page.goto(f"{server_url}/explore#/puzzle?start=dads-puzzle")
        page.wait_for_function("() => document.querySelector('#group-title').textContent"
                               ".includes('dads-puzzle')")
        drawn = _drawn(page)
        expected = _moves(reference(dads["start"], dads["start"], dads["metric"],
                                    dads["rules"]))
        assert (int(drawn["nodes"]), int(drawn["edges"])) == expected

        # a cluster too large to search is told, with the commands that take any size
        page.goto(f"{server_url}/explore#/puzzle?{urlencode({'start': TOO_LARGE})}")
        error = page.locator("#explore-error")
        error.wait_for()
        assert "Too large to draw here" in (error.text_content() or "")
        assert "huarong puzzle graph" in (error.text_content() or "")


GOAL_LINE = (0x4F, 0xC3, 0xF7)
"""The goal's outline colour (board.css ``.pb-goal``)."""


def _near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=True))


@pytest.mark.parametrize("name", ["century", "rush-hour-hardest", "bickford-4x4-9",
                                  "design-5x5"])
def test_the_goal_is_drawn_as_its_piece_s_outline_over_no_label(
        browser: Browser, server_url: str, name: str) -> None:
    """What a person sees: the goal drawn as a dashed line along the outline of the goal's
    cells (the catalogue entry's goal, as the engine reads it), nowhere inside it, every piece's
    label visible (the element at its centre is the label itself).  The goal's cells were
    once drawn as pills shifted half a cell over the pieces: the Klotski viewer's move
    marks took their class."""
    import io

    from PIL import Image

    from huarong.puzzles import catalogue_entry

    goal_text = catalogue_entry(name).puzzle.goal
    assert goal_text is not None
    goal = goal_text.split("/")
    aimed = {(r, c) for r, row in enumerate(goal) for c, glyph in enumerate(row)
             if glyph not in ".#"}
    with _viewer(browser, f"{server_url}/puzzles#start={name}") as page:
        _settled(page)
        columns = len(goal[0])
        cells = page.eval_on_selector_all(
            "#puzzle-board .pb-cell", "els => els.map(el => { const b = el.getBoundingClientRect();"
            " return [b.left, b.top, b.right, b.bottom, null]; })")
        assert {divmod(i, columns) for i in _goal_cells(page, "#puzzle-board")} == aimed
        assert page.locator("#puzzle-board .target").count() == 0
        boxes = [cells[r * columns + c] for r, c in aimed]
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
        shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
        scale = shot.width / page.viewport_size["width"]  # type: ignore[index]

        def goal_line_along(points: list[tuple[float, float]]) -> int:
            return sum(_near(shot.getpixel((round(x * scale), round(y * scale))), GOAL_LINE)
                       for x, y in points)

        for r, c in aimed:
            x0, y0, x1, y1, _ = cells[r * columns + c]
            # Each side of a goal cell on the goal's outline is drawn in places (dashed) ...
            along = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
            sides = {(-1, 0): [(x0 + f * (x1 - x0), y0 + 2) for f in along],
                     (1, 0): [(x0 + f * (x1 - x0), y1 - 2) for f in along],
                     (0, -1): [(x0 + 2, y0 + f * (y1 - y0)) for f in along],
                     (0, 1): [(x1 - 2, y0 + f * (y1 - y0)) for f in along]}
            for (dr, dc), points in sides.items():
                if (r + dr, c + dc) not in aimed:
                    assert goal_line_along(points) >= 2, (r, c, dr, dc)
            # ... and its middle holds none of it.
            centre = [((x0 + x1) / 2 + dx, (y0 + y1) / 2 + dy)
                      for dx in (-6, 0, 6) for dy in (-6, 0, 6)]
            assert goal_line_along(centre) == 0, (r, c, "centre")
        assert left < right and top < bottom
        labels = page.eval_on_selector_all(
            "#puzzle-board .pb-label",
            "els => els.map(el => { const b = el.getBoundingClientRect();"
            " const hit = document.elementFromPoint((b.left + b.right) / 2,"
            " (b.top + b.bottom) / 2); return [el.closest('[data-piece]').dataset.piece,"
            " hit === el]; })")
        assert labels and all(shown for _, shown in labels), labels
        _screenshot(page, f"puzzle-{name}.png")


@pytest.mark.parametrize("path", ["/", "/puzzles#start=century", "/explore", "/docs",
                                  "/redoc"])
def test_no_app_page_asks_anything_of_another_machine(browser: Browser, server_url: str,
                                                      path: str) -> None:
    """Every page the server serves, its scripts, styles, fonts and answers: no request
    leaves the machine (the API's reference pages included: their libraries are served)."""
    from typing import Any
    from urllib.parse import urlsplit

    here = urlsplit(server_url).netloc
    outside: set[str] = set()

    def screened(route: Any) -> None:
        url = route.request.url
        if url.startswith(("data:", "blob:", "about:")) or urlsplit(url).netloc == here:
            route.continue_()
        else:
            outside.add(url)
            route.abort()

    context = browser.new_context()
    try:
        page = context.new_page()
        page.route("**/*", screened)
        page.goto(f"{server_url}{path}", wait_until="networkidle")
    finally:
        context.close()
    assert not outside, sorted(outside)[:5]


def test_the_spoiler_free_mode_shows_only_the_moves_left(
        browser: Browser, server_url: str, tiny: Puzzle) -> None:
    """"Moves left only": the moves are listed without a verdict or their moves to go, a move
    made gets no verdict, the moves left stay; the choice outlives a reload."""
    steps = tiny.min_steps()
    with _viewer(browser, f"{server_url}/puzzles#{TINY_HASH}") as page:
        _settled(page)
        assert any("to go" in text for text in page.locator("#moves .move").all_text_contents())
        page.check("#help-mode input[value=moves-left]")
        page.wait_for_function("() => [...document.querySelectorAll('#moves .move')].every("
                               "b => !b.textContent.includes('to go'))")
        texts = page.locator("#moves .move").all_text_contents()
        assert texts and not any(word in text for text in texts
                                 for word in ("closer", "farther", "to go"))
        page.click("#moves .move >> nth=0")
        page.wait_for_function("() => document.querySelector('#moves-made').textContent === '1'")
        grid, remaining = _settled(page)
        assert page.text_content("#verdict") == "–"
        assert remaining == steps[tiny.read_state(grid)]
        page.reload()
        _settled(page)
        assert page.is_checked("#help-mode input[value=moves-left]")
        page.check("#help-mode input[value=verdicts]")


def test_a_game_s_record_downloads_its_moves_hints_and_times(
        browser: Browser, server_url: str, tiny: Puzzle) -> None:
    """The Record button: JSON of the puzzle and every action in order, with times that never
    go back; each move's verdict and moves left are the reference's for its two positions."""
    import json

    steps = tiny.min_steps()
    with _viewer(browser, f"{server_url}/puzzles#{TINY_HASH}") as page:
        _settled(page)
        page.click("#moves .move >> nth=-1")
        page.wait_for_function("() => document.querySelector('#moves-made').textContent === '1'")
        _settled(page)
        for _ in range(3):
            page.click("#hint-button")
        page.wait_for_function("() => document.querySelector('#moves-made').textContent === '2'")
        _settled(page)
        page.click("#undo-button")
        page.wait_for_function("() => document.querySelector('#moves-made').textContent === '1'")
        with page.expect_download() as download:
            page.click("#record-button")
        saved = json.loads(Path(download.value.path()).read_text("utf-8"))
    assert saved["record"] == "huarong play record"
    assert tiny.read_state(saved["start"]) == tiny.start
    assert saved["min_steps"] == steps[tiny.start]
    kinds = [event["kind"] for event in saved["events"]]
    assert kinds == ["move", "hint", "hint", "hint", "move", "undo"]
    times = [event["ms"] for event in saved["events"]]
    assert times == sorted(times)
    moves = [event for event in saved["events"] if event["kind"] == "move"]
    assert [move["by"] for move in moves] == ["player", "hint"]
    assert [event["rung"] for event in saved["events"] if event["kind"] == "hint"] == [
        "distance", "piece", "move"]
    for move in moves:
        before, after = tiny.read_state(move["from"]), tiny.read_state(move["to"])
        assert after in tiny.moves(before)
        change = steps[after] - steps[before]
        assert move["verdict"] == {-1: "better", 0: "same", 1: "worse"}[change]
        assert move["moves_left"] == steps[after]


@pytest.mark.parametrize(("name", "side"), [("rush-hour-hardest", "right"),
                                            ("century", "bottom"), ("bickford-4x4-9", None)])
def test_the_exit_is_a_gap_in_the_frame_beside_the_goal(
        browser: Browser, server_url: str, name: str, side: str | None) -> None:
    """Rush Hour's exit beside the red car's row, Century's under its goal (centred on the
    bottom edge), none for a goal in a corner: the gap spans exactly the goal's cells along
    the edge, and on the screen the page shows through it where the frame beside it is
    dark walnut."""
    import io

    from PIL import Image

    from huarong.puzzles import catalogue_entry

    goal_text = catalogue_entry(name).puzzle.goal
    assert goal_text is not None
    goal = goal_text.split("/")
    columns = len(goal[0])
    aimed = [(r, c) for r, row in enumerate(goal) for c, glyph in enumerate(row)
             if glyph not in ".#"]
    with _viewer(browser, f"{server_url}/puzzles#start={name}") as page:
        _settled(page)
        gaps = page.eval_on_selector_all(
            "#puzzle-board .pb-exit", "els => els.map(el => { const b = "
            "el.getBoundingClientRect();"
            " return [el.className, b.left, b.top, b.right, b.bottom]; })")
        if side is None:
            assert gaps == []
            return
        assert len(gaps) == 1 and gaps[0][0] == f"pb-exit pb-exit-{side}"
        cells = page.eval_on_selector_all(
            "#puzzle-board .pb-cell", "els => els.map(el => { const b = el.getBoundingClientRect();"
            " return [b.left, b.top, b.right, b.bottom]; })")
        board = page.eval_on_selector(  # the frame round the board, the gap cut in it
            "#puzzle-board", "el => { const b = el.parentElement.getBoundingClientRect();"
            " return [b.left, b.top, b.right, b.bottom]; }")
        boxes = [cells[r * columns + c] for r, c in aimed]
        _, left, top, right, bottom = gaps[0]
        if side == "right":
            assert abs(right - board[2]) <= 1
            assert abs(top - min(b[1] for b in boxes)) <= 1
            assert abs(bottom - max(b[3] for b in boxes)) <= 1
            inside, beside = ((left + right) / 2, (top + bottom) / 2), (
                (left + right) / 2, min(b[1] for b in cells) + 4)
        else:
            assert abs(bottom - board[3]) <= 1
            assert abs(left - min(b[0] for b in boxes)) <= 1
            assert abs(right - max(b[2] for b in boxes)) <= 1
            inside, beside = ((left + right) / 2, (top + bottom) / 2), (
                min(b[0] for b in cells) + 4, (top + bottom) / 2)
        shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
        scale = shot.width / page.viewport_size["width"]  # type: ignore[index]

        def brightness(point: tuple[float, float]) -> int:
            pixel = shot.getpixel((round(point[0] * scale), round(point[1] * scale)))
            return sum(pixel[:3])  # type: ignore[index]

        assert brightness(inside) > 500 > 300 > brightness(beside)


def test_print_opens_the_card_of_the_position_on_the_board(
        browser: Browser, server_url: str, tiny: Puzzle) -> None:
    """The Print link follows the board: after a move it asks for the card of the position
    reached, a PDF of two pages."""
    import re
    from urllib.parse import parse_qs, urlsplit

    with _viewer(browser, f"{server_url}/puzzles#{TINY_HASH}") as page:
        _settled(page)
        page.click("#moves .move >> nth=0")
        page.wait_for_function("() => document.querySelector('#moves-made').textContent === '1'")
        grid, _ = _settled(page)
        href = page.get_attribute("#print-link", "href")
        assert href is not None and page.get_attribute("#print-link", "target") == "_blank"
        asked = parse_qs(urlsplit(href).query)
        assert asked["position"] == [grid] and asked["format"] == ["pdf"]
        card = page.request.get(f"{server_url}{href}")
        assert card.status == 200 and card.headers["content-type"] == "application/pdf"
        assert len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", card.body())) == 2


def test_the_ladder_climbs_a_family_and_a_random_start_has_the_length_asked(
        browser: Browser, server_url: str, tiny: Puzzle) -> None:
    """Bickford's 7-piece record: Harder opens the 11-piece record (64 moves, his table),
    Easier from there the 7-piece again; a random start of the tiny puzzle between 1 and 2
    moves is a position of its cluster that the reference solves in 1 or 2."""
    from .test_puzzle_catalogue import PUBLISHED

    with _viewer(browser, f"{server_url}/puzzles#start=bickford-4x4-7") as page:
        _settled(page)
        page.wait_for_function("() => !document.querySelector('#harder-button').disabled")
        assert "(64)" in (page.text_content("#harder-button") or "")
        page.click("#harder-button")
        page.wait_for_function("() => location.hash.includes('bickford-4x4-11')")
        assert _settled(page)[1] == PUBLISHED["bickford-4x4-11"][0]
        page.wait_for_function(
            "() => document.querySelector('#easier-button').dataset.name === 'bickford-4x4-7'")
    steps = tiny.min_steps()
    with _viewer(browser, f"{server_url}/puzzles#{TINY_HASH}") as page:
        _settled(page)
        assert page.is_disabled("#harder-button") and page.is_disabled("#easier-button")
        page.fill("#random-low", "1")
        page.fill("#random-high", "2")
        page.click("#random-button")
        page.wait_for_function("() => location.hash.includes('position')")
        grid, remaining = _settled(page)
        assert remaining in (1, 2) and steps[tiny.read_state(grid)] == remaining


def _goal_cells(page: Page, board: str) -> set[int]:
    """The board's cells (by reading order) inside the goal's outline as drawn: inside an
    outline's box, or inside one of its parts where the goal is not a rectangle."""
    inside: list[int] = page.eval_on_selector(board, """el => {
        const outlines = [...el.querySelectorAll('.pb-goal')].flatMap(outline => {
            const parts = outline.querySelectorAll('.pb-part');
            return [...(parts.length ? parts : [outline])].map(p => p.getBoundingClientRect());
        });
        return [...el.querySelectorAll('.pb-cell')].flatMap((cell, i) => {
            const b = cell.getBoundingClientRect();
            const [x, y] = [(b.left + b.right) / 2, (b.top + b.bottom) / 2];
            return outlines.some(o => o.left < x && x < o.right && o.top < y && y < o.bottom)
                ? [i] : [];
        }); }""")
    return set(inside)


def _cell_of(page: Page, letter: str) -> dict[str, float]:
    """The box of the first cell (in reading order) of piece ``letter`` on the board."""
    grid = page.get_attribute("#puzzle-board", "data-grid")
    assert grid is not None
    box = page.locator("#puzzle-board .pb-cell").nth(grid.replace("/", "").index(letter))
    drawn = box.bounding_box()
    assert drawn is not None
    return drawn


def _drag(page: Page, letter: str, rows: int, columns: int, *, touch: bool = False) -> None:
    """A drag of piece ``letter`` by that many cells, in small steps: with the mouse, or with
    a finger (touch events sent to chromium as a touchscreen sends them)."""
    box = _cell_of(page, letter)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    points = [(x + columns * box["width"] * i / 8, y + rows * box["height"] * i / 8)
              for i in range(9)]
    if not touch:
        page.mouse.move(x, y)
        page.mouse.down()
        page.wait_for_timeout(100)  # the piece's moves are asked for on the press
        for px, py in points[1:]:
            page.mouse.move(px, py)
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(100)
    for px, py in points[1:]:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                              "touchPoints": [{"x": px, "y": py}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
@pytest.mark.parametrize(("start", "goal", "metric", "corner"), [
    (TINY, TINY_GOAL, "slide", False),
    ("A../.B./...", ".../.../..A", "step", True),
])
def test_a_piece_dragged_lands_where_it_can_move(browser: Browser, server_url: str,
                                                 start: str, goal: str, metric: str,
                                                 corner: bool, touch: bool) -> None:
    """A slide dragged its longest way along its line, a step dragged round a corner, by the
    mouse and by a finger: the board shows the position of that move in the server's own
    list, one the reference reaches in one move from the start; a drag back to where the
    piece started moves nothing."""
    from urllib.parse import urlencode

    plain = reference(start, goal, metric)
    address = urlencode({"start": start, "goal": goal, "metric": metric})
    with _viewer(browser, f"{server_url}/puzzles#{address}", touch=touch) as page:
        _settled(page)
        page.evaluate("() => { window.pointerKinds = new Set(); document.addEventListener("
                      "'pointerdown', e => window.pointerKinds.add(e.pointerType), true); }")
        moves = page.evaluate(
            "query => fetch('/api/puzzles/next?' + query).then(r => r.json())"
            ".then(next => next.moves)", address)
        chosen = max((move for move in moves if ("," in move["direction"]) == corner),
                     key=lambda move: move["distance"])
        letter = chosen["piece"]
        before = [(r, c) for r, row in enumerate(start.split("/"))
                  for c, glyph in enumerate(row) if glyph == letter]
        after = [(r, c) for r, row in enumerate(chosen["to"].split("/"))
                 for c, glyph in enumerate(row) if glyph == letter]
        rows, columns = after[0][0] - before[0][0], after[0][1] - before[0][1]
        _drag(page, letter, 0, 0, touch=touch)
        page.wait_for_timeout(200)
        assert page.text_content("#moves-made") == "0"
        assert page.get_attribute("#puzzle-board", "data-grid") == start
        _drag(page, letter, rows, columns, touch=touch)
        page.wait_for_function("() => document.querySelector('#moves-made').textContent === '1'")
        grid, _ = _settled(page)
        assert plain.read_state(grid) in set(plain.moves(plain.start))
        assert grid == chosen["to"]
        kinds = page.evaluate("() => [...window.pointerKinds]")
        assert kinds == ["touch" if touch else "mouse"]
