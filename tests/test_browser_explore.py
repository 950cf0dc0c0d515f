"""The explorer's pages (/explore), driven in Debian's chromium through Playwright.

Expected values come from the spec (203 classes, 29,334,498 layouts, the longest minimum of
138 steps), from small counts worked by hand, and from the slow pure-Python engine in
``klotski_reference``, whose breadth-first search counts 横刀立马's group (layouts and steps)
independently of the server. The graph is drawn in software WebGL here, seconds a frame, so
the tests are few and each does several things.
"""

from __future__ import annotations

import contextlib
import itertools
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from huarong.engine.layout import Layout

from . import klotski_reference as reference
from .test_browser import TIMEOUT_MS, _screenshot, _serve, _wait_ready

if TYPE_CHECKING:
    from playwright.sync_api import Browser, FloatRect, Page

pytestmark = [pytest.mark.browser, pytest.mark.big_memory]

HENG_DAO_LI_MA = "1A9BF0C00"  # docs §3 worked example
CLASSES = 203  # docs §4
LAYOUTS = 29_334_498  # docs §4
LONGEST_MIN_STEPS = 138  # docs §7: the most steps any layout needs
DESKTOP = {"width": 1240, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def explore_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app without a database, its placements cached under the test's directory."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        with _serve(Path(__file__).parent / "no-such-database.duckdb") as url:
            yield url


@pytest.fixture(scope="module")
def heng_dao_li_ma_group() -> tuple[set[reference.State], int]:
    """横刀立马's group by breadth-first search in the reference engine: its layouts and its
    number of steps (each step joins two layouts and counts once)."""
    start = reference.from_grid(Layout.parse(HENG_DAO_LI_MA).grid())
    seen = {start}
    frontier = [start]
    ends = 0
    while frontier:
        state = frontier.pop()
        for child in reference.steps_from(state):
            ends += 1
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return seen, ends // 2


@contextlib.contextmanager
def _explore(browser: Browser, url: str, script: str | None = None,
             **options: Any) -> Iterator[Page]:
    context = browser.new_context(**{"viewport": DESKTOP, **options})
    context.set_default_timeout(TIMEOUT_MS * 4)
    page = context.new_page()
    if script:
        page.add_init_script(script)
    script_errors: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))
    page.goto(url)
    yield page
    context.close()
    assert not script_errors, f"the page threw: {script_errors}"


def _cells(page: Page, selector: str) -> list[list[str]]:
    rows: list[list[str]] = page.eval_on_selector_all(
        f"{selector} tbody tr",
        "rows => rows.map(row => [...row.cells].map(cell => cell.textContent.trim()))")
    return rows


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def _serious_accessibility_problems(page: Page) -> list[tuple[str, str]]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [(violation["id"], violation["help"]) for violation in
            results.response["violations"] if violation["impact"] in {"critical", "serious"}]


def _drawn(page: Page) -> dict[str, str]:
    page.wait_for_function("() => document.querySelector('#group-graph').dataset.draws")
    drawn: dict[str, str] = page.eval_on_selector("#group-graph", "el => ({...el.dataset})")
    return drawn


class Graph:
    """The server's binary graph (HRG2, docs/explorer.md), read here without the page's code."""

    def __init__(self, data: bytes) -> None:
        assert data[:4] == b"HRG2"
        self.nodes, self.edges, self.start, self.flags, _, _, name_length = \
            struct.unpack_from("<7I", data, 4)
        at = 32 + name_length + -name_length % 8
        words = struct.unpack_from(f"<{self.nodes}q", data, at)
        self.codes = [f"{code:09X}" for code in words]
        at += 8 * self.nodes
        self.positions = struct.unpack_from(f"<{2 * self.nodes}f", data, at)
        at += 8 * self.nodes
        self.edge_words = struct.unpack_from(f"<{2 * self.edges}I", data, at)
        at += 8 * self.edges  # two uint32 per edge: a multiple of 8
        self.min_steps = struct.unpack_from(f"<{self.nodes}i", data, at)

    def pairs(self) -> list[tuple[int, int]]:
        """The steps, as pairs of node indices."""
        return list(zip(self.edge_words[::2], self.edge_words[1::2], strict=True))

    def near(self, index: int, radius: float) -> set[str]:
        """The codes of the nodes within ``radius`` (placement units) of node ``index``."""
        x, y = self.positions[2 * index], self.positions[2 * index + 1]
        return {code for code, px, py in zip(self.codes, self.positions[::2],
                                              self.positions[1::2], strict=True)
                if (px - x) ** 2 + (py - y) ** 2 <= radius ** 2}


def _screen_point(page: Page, graph: Graph, index: int) -> tuple[float, float, float]:
    """Where node ``index`` is drawn, in page pixels, and the pixels per placement unit (the
    view is published as ``data-view``: [pixels per unit, x offset, y offset])."""
    scale, left, top = page.eval_on_selector("#group-graph", "el => JSON.parse(el.dataset.view)")
    box = page.locator("#graph-box").bounding_box()
    assert box is not None
    x, y = graph.positions[2 * index], graph.positions[2 * index + 1]
    return box["x"] + left + x * scale, box["y"] + top + y * scale, scale


def _box(page: Page, selector: str) -> FloatRect:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not displayed"
    return box


def _card_code(page: Page) -> str:
    page.locator("#graph-card").wait_for()
    code = page.get_attribute("#graph-card", "data-code")
    assert code is not None
    return code


def test_classes_table_sorts_and_leads_to_a_class_page(browser: Browser, explore_url: str) -> None:
    with _explore(browser, f"{explore_url}/explore") as page:
        page.wait_for_function(
            f"() => document.querySelectorAll('#explore-classes tbody tr').length === {CLASSES}")
        rows = _cells(page, "#explore-classes")
        by_name = {row[0]: row for row in rows}
        assert len(by_name) == CLASSES
        assert sum(_number(row[4]) for row in rows) == LAYOUTS
        # the 2x2 alone fits 3 x 4 places; with one 1x1 beside it, 16 cells each
        assert _number(by_name["0-0-0"][4]) == 12
        assert _number(by_name["0-1-0"][4]) == 12 * 16
        page.click("#explore-classes th:nth-child(5) button")  # layouts, largest first
        assert page.get_attribute("#explore-classes th:nth-child(5)", "aria-sort") == (
            "descending")
        layouts = [_number(row[4]) for row in _cells(page, "#explore-classes")]
        assert layouts == sorted(layouts, reverse=True)
        assert page.locator("#records").is_visible()
        assert "huarong db build" in (page.text_content("#records-note") or "")
        assert not _serious_accessibility_problems(page)

        page.click("#explore-classes a:text-is('5-4-1')")
        page.wait_for_function("() => document.querySelectorAll('#class-groups tbody tr').length")
        assert page.evaluate("() => location.hash") == "#/class/5-4-1"
        bars = page.eval_on_selector_all(
            "#class-histogram rect title", "titles => titles.map(t => t.textContent)")
        counted = sum(_number(title.split(": ")[1].split()[0]) for title in bars)
        assert counted == _number(by_name["5-4-1"][4])
        groups = _cells(page, "#class-groups")
        sizes = [_number(row[1]) for row in groups]
        assert len(groups) == min(100, _number(by_name["5-4-1"][5]))
        assert sizes == sorted(sizes, reverse=True)
        assert not _serious_accessibility_problems(page)
        _screenshot(page, "explore-class.png")
        page.click("#groups-next")
        page.wait_for_function("() => document.querySelector('#groups-range').textContent"
                               ".startsWith('101')")
        # a group's link opens its graph
        page.locator("#class-groups tbody th a").first.click()
        page.wait_for_function("() => location.hash.startsWith('#/group/')")
        _drawn(page)

        page.goto(f"{explore_url}/explore#/class/9-9-9")
        page.locator("#explore-error").wait_for()
        assert "9-9-9" in (page.text_content("#explore-error") or "")


def test_group_graph_counts_hover_and_click_onto_the_board_and_the_viewer(
        browser: Browser, explore_url: str,
        heng_dao_li_ma_group: tuple[set[reference.State], int]) -> None:
    layouts, steps = heng_dao_li_ma_group
    with _explore(browser, f"{explore_url}/explore#/group/{HENG_DAO_LI_MA}") as page:
        drawn = _drawn(page)
        assert (int(drawn["nodes"]), int(drawn["edges"])) == (len(layouts), steps)
        assert page.locator("#graph-legend").text_content() is not None
        assert "minimum steps" in (page.text_content("#graph-legend") or "")
        # no animation: nothing is drawn again while nothing changes
        page.wait_for_timeout(1000)
        assert _drawn(page)["draws"] == drawn["draws"]
        _screenshot(page, "explore-group.png")

        answer = page.request.get(
            f"{explore_url}/api/groups/{HENG_DAO_LI_MA}/graph?format=binary")
        graph = Graph(answer.body())
        summary = page.request.get(f"{explore_url}/api/groups/{HENG_DAO_LI_MA}").json()
        goal = summary["shortest_path"][-1]
        x, y, scale = _screen_point(page, graph, goal)
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.mouse.move(x, y)
        shown = _card_code(page)
        # the layout under the pointer (another drawn within a pixel of it would be fair too)
        assert shown in graph.near(goal, 1 / scale)
        state = reference.from_grid(Layout.from_code(shown).grid())
        assert state in layouts
        assert reference.is_goal(state) or shown != graph.codes[goal]
        assert not requests, "hovering asked the server"

        page.select_option("#group-colour", "distance")
        page.wait_for_function(
            "n => document.querySelector('#group-graph').dataset.draws > n",
            arg=int(drawn["draws"]))
        assert "chosen layout" in (page.text_content("#graph-legend") or "")
        assert page.is_disabled("#group-colour option[value=farthest]")
        assert not _serious_accessibility_problems(page)

        # a drag pans (and opens nothing); the layout stays under the pointer's new place
        page.mouse.down()
        page.mouse.move(x + 60, y + 40, steps=6)
        page.mouse.up()
        moved_x, moved_y, _ = _screen_point(page, graph, goal)
        assert (moved_x, moved_y) == (pytest.approx(x + 60), pytest.approx(y + 40))
        assert "#/group/" in page.url
        page.mouse.click(moved_x, moved_y)  # the layout goes on the board, then to the viewer
        page.wait_for_function(
            "code => document.querySelector('#play-board').dataset.code === code", arg=shown)
        assert page.get_attribute("#graph-marks", "data-board") == str(graph.codes.index(shown))
        page.click("#board-play")
        page.wait_for_url(f"{explore_url}/#{shown}")
        _wait_ready(page, shown)
        assert page.text_content("#remaining") == str(graph.min_steps[graph.codes.index(shown)])
        # and back from the viewer to the group of the layout on its board
        page.click("#group-link")
        page.wait_for_url(f"{explore_url}/explore#/group/{shown}")
        assert int(_drawn(page)["nodes"]) == len(layouts)


def test_a_phone_pans_and_taps_the_graph(browser: Browser, explore_url: str) -> None:
    with _explore(browser, f"{explore_url}/explore#/group/{HENG_DAO_LI_MA}", viewport=PHONE,
                  is_mobile=True, has_touch=True) as page:
        _drawn(page)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        graph = Graph(page.request.get(
            f"{explore_url}/api/groups/{HENG_DAO_LI_MA}/graph?format=binary").body())
        before = page.eval_on_selector("#group-graph", "el => el.dataset.view")
        page.click("#zoom-out")  # about the middle: every point stays in the box
        page.wait_for_function("v => document.querySelector('#group-graph').dataset.view !== v",
                               arg=before)
        x, y, scale = _screen_point(page, graph, graph.start)
        page.touchscreen.tap(x, y)
        shown = _card_code(page)
        assert shown in graph.near(graph.start, 1 / scale)
        assert "on the board" in (page.text_content("#graph-card") or "")
        assert page.get_attribute("#play-board", "data-code") == shown
        # the board and the graph stack, each as wide as the page allows
        graph_box, board = _box(page, "#graph-box"), _box(page, "#play-board")
        assert board["y"] >= graph_box["y"] + graph_box["height"]
        assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
        page.locator("#board-play").tap()
        page.wait_for_url(f"{explore_url}/#{shown}")
        _wait_ready(page, shown)


def test_records_are_one_click_from_play(browser: Browser, standard_database: Path) -> None:
    with _serve(standard_database) as url, _explore(browser, f"{url}/explore") as page:
        page.locator("#records table").first.wait_for()
        title = page.locator("#records h3").first.text_content() or ""
        assert "longest minimum" in title.lower()
        rows = _cells(page, "#records-list .record:first-child")
        assert rows and all(_number(row[2]) == LONGEST_MIN_STEPS for row in rows)
        # this database lacks the layer figures, and the page says which command fills them
        assert "huarong db layers --all" in (page.text_content("#records-note") or "")
        first = rows[0][0]
        page.locator("#records .play-link").first.click()
        _wait_ready(page, first)
        assert page.text_content("#remaining") == str(LONGEST_MIN_STEPS)


# Holds back the page's requests whose address matches a pattern until window.release() is
# called; window.settled counts the held answers that have since arrived.
HOLD_REQUESTS = """
window.held = [];
window.settled = 0;
const realFetch = window.fetch;
window.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (!window.holdPattern || !new RegExp(window.holdPattern).test(url)) {
        return realFetch(input, init);
    }
    return new Promise(resolve => window.held.push(() => resolve(
        realFetch(input, init).finally(() => { window.settled += 1; }))));
};
window.release = () => { window.held.splice(0).forEach(go => go()); };
"""
ALONE = "000000000"  # the 2x2 alone at the top left: class 0-0-0, a group of 12 (3 x 4 places)
WITH_A_SOLDIER = "0C0000000"  # and one 1x1 in the first free cell: class 0-1-0
CLASS_DRAWN = """() => !document.querySelector('#page-class').hidden
    && document.querySelector('#class-title').textContent.startsWith('Class 0-1-0')
    && document.querySelector('#groups-range').textContent.includes('of')"""
GROUP_DRAWN = """() => !document.querySelector('#page-group').hidden
    && document.querySelector('#group-title').textContent.includes('class 0-1-0')
    && document.querySelector('#graph-status').hidden"""


def _late_answer_is_ignored(page: Page, pattern: str, first: str, second: str,
                            drawn: str) -> str:
    """Opens page ``first`` with its answers matching ``pattern`` held back, moves on to
    ``second`` until ``drawn`` (a script) holds, then lets the held answers arrive: the page
    must still show ``second``."""
    page.evaluate("p => { window.holdPattern = p; }", pattern)
    page.evaluate("h => { location.hash = h; }", first)
    page.wait_for_function("() => window.held.length > 0")
    held: int = page.evaluate("() => window.settled + window.held.length")
    page.evaluate("h => { location.hash = h; }", second)
    page.wait_for_function(drawn)
    before = page.inner_text("main")
    page.evaluate("() => window.release()")
    page.wait_for_function("n => window.settled === n", arg=held)
    page.wait_for_timeout(300)  # the late answer's own drawing, were it to happen
    after = page.inner_text("main")
    assert after == before
    return after


def test_a_late_answer_for_an_earlier_page_does_not_overwrite_the_current_one(
        browser: Browser, explore_url: str) -> None:
    with _explore(browser, f"{explore_url}/explore#/class/0-1-0", script=HOLD_REQUESTS) as page:
        page.wait_for_function(CLASS_DRAWN)
        shown = _late_answer_is_ignored(page, r"/api/classes/0-0-0\?", "#/class/0-0-0",
                                        "#/class/0-1-0", CLASS_DRAWN)
        assert "Class 0-1-0" in shown and "Class 0-0-0" not in shown
        shown = _late_answer_is_ignored(page, rf"/api/groups/{ALONE}[/?]",
                                        f"#/group/{ALONE}", f"#/group/{WITH_A_SOLDIER}",
                                        GROUP_DRAWN)
        assert "of class 0-1-0" in shown
        assert _drawn(page)["nodes"] != "12"


def _board_on_graph(page: Page, graph: Graph) -> tuple[str, list[str]]:
    """The board's layout and the trail on the graph, as codes (read from the page's marks)."""
    board = page.get_attribute("#play-board", "data-code") or ""
    trail = (page.get_attribute("#graph-marks", "data-trail") or "").split()
    at = page.get_attribute("#graph-marks", "data-board") or ""
    assert graph.codes[int(at)] == board, "the marker is where the board is"
    return board, [graph.codes[int(index)] for index in trail]


def test_the_board_beside_the_graph_steps_solves_and_marks_bottlenecks(
        browser: Browser, explore_url: str) -> None:
    import networkx as nx

    with _explore(browser, f"{explore_url}/explore#/group/{HENG_DAO_LI_MA}") as page:
        _drawn(page)
        graph = Graph(page.request.get(
            f"{explore_url}/api/groups/{HENG_DAO_LI_MA}/graph?format=binary").body())
        assert _board_on_graph(page, graph) == (HENG_DAO_LI_MA, [HENG_DAO_LI_MA])
        # a step by the keys, then one by a drag: the marker follows and leaves a trail
        page.focus('#play-board .piece[aria-label="兵 1×1, row 4, column 2"]')
        page.keyboard.press("ArrowDown")
        down = Layout.from_grid("VCCV/VCCV/VHHV/V.SV/SS.S").code
        piece = _box(page, '#play-board .piece[aria-label="兵 1×1, row 4, column 3"]')
        page.mouse.move(piece["x"] + piece["width"] / 2, piece["y"] + piece["height"] / 2)
        page.mouse.down()
        page.mouse.move(piece["x"] - piece["width"] / 2, piece["y"] + piece["height"] / 2,
                        steps=8)
        page.mouse.up()
        left = Layout.from_grid("VCCV/VCCV/VHHV/VS.V/SS.S").code
        assert _board_on_graph(page, graph) == (left, [HENG_DAO_LI_MA, down, left])

        # solve from here: a shortest way, step by step on the board and on the graph
        page.fill("#board-speed", page.get_attribute("#board-speed", "max") or "")
        page.click("#board-solve")
        page.wait_for_function(
            "() => document.querySelector('#board-status').textContent.includes('a goal')"
            " && !document.querySelector('#board-status').textContent.includes('to a goal')")
        _screenshot(page, "explore-board-solved.png")
        goal, trail = _board_on_graph(page, graph)
        states = [reference.from_grid(Layout.from_code(code).grid()) for code in trail]
        assert reference.is_goal(states[-1]) and trail[-1] == goal
        assert all(reference.is_one_step(a, b) for a, b in itertools.pairwise(states))
        assert len(trail) - 3 == graph.min_steps[graph.codes.index(left)]

        # the bottlenecks: the page draws every bridge that networkx finds in the group
        page.check("#group-bottlenecks")
        page.wait_for_function(
            "() => document.querySelector('#graph-legend').textContent.includes('Bottlenecks')")
        edges = nx.Graph()
        edges.add_nodes_from(range(graph.nodes))
        edges.add_edges_from(graph.pairs())
        bridges = sum(1 for _ in nx.bridges(edges))
        assert page.get_attribute("#graph-marks", "data-bridges") == str(bridges)
        note = page.text_content("#bottleneck-note") or ""
        cut_vertices = sum(1 for _ in nx.articulation_points(edges))
        assert f"{cut_vertices:,} cut vertices, {bridges:,} bridges" in note
        _screenshot(page, "explore-bottlenecks.png")
        assert not _serious_accessibility_problems(page)
        page.uncheck("#group-bottlenecks")
        assert "minimum steps" in (page.text_content("#graph-legend") or "")
