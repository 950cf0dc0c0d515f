"""A search's results browsed in the explorer (#/searches), driven in Debian's chromium
through Playwright: the rows hardest first, paged, filtered, and a start played in the viewer
by the keyboard.  Expected rows come from the :class:`SearchResult` in the order of a plain
sort, their difficulty from the model on each start loaded alone; the viewer's minimum moves
from the search's length for that start."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from huarong.puzzles import load_puzzle
from huarong.puzzles.difficulty.column import DIFFICULTY_ROWS
from huarong.puzzles.difficulty.model import difficulty
from huarong.puzzles.exhaustive import search

from .puzzle_reference import reference
from .test_browser import _serve
from .test_browser_explore import _serious_accessibility_problems
from .test_browser_puzzles import _viewer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser


GOAL = "..../..AA/..AA"
"""The goal ``2x2@1,2`` of the search below, as grid text."""


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """A 3x4 search written as ``tiny.parquet``, and its rows hardest first."""
    result = search("3x4", "2x2,1x2,2x1,1x1*2", "2x2@1,2", "slide")
    path = tmp_path_factory.mktemp("searches") / "tiny.parquet"
    result.write(path)
    grids = result.board.grids(result.start)
    rows = [{"length": None if result.length[i] < 0 else int(result.length[i]),
             "states": int(result.states[i]), "solved": int(result.solved[i]),
             "start": grids[i]} for i in range(len(result))]
    rows.sort(key=lambda row: (-(row["length"] if row["length"] is not None else -1),
                               -row["states"]))
    for row in rows[:DIFFICULTY_ROWS]:
        if row["length"] is not None:
            alone = difficulty(load_puzzle(row["start"], GOAL, metric="slide", rules="free"))
            row["difficulty"] = f"{_readable(alone.median_seconds)}, grade {alone.grade}"
    return path, rows


def _readable(seconds: float) -> str:
    """A time as the viewers write it (difficulty-line.js), rounding halves up as JS does."""
    def rounded(value: float) -> int:
        return math.floor(value + 0.5)

    if seconds < 90:
        return f"about {max(1, rounded(seconds))} s"
    if seconds < 90 * 60:
        return f"about {rounded(seconds / 60)} min"
    return f"about {rounded(seconds / 3600)} h" if seconds < 36 * 3600 else "over a day"


@pytest.fixture(scope="module")
def server_url(expected: tuple[Path, list[dict[str, Any]]]) -> Iterator[str]:
    with _serve(Path(__file__).parent / "no-such-database.duckdb",
                searches=[expected[0]]) as url:
        yield url


def _rows(page: Page) -> list[list[str]]:
    return [[(cell.text_content() or "").strip() for cell in row.locator("th, td").all()]
            for row in page.locator("#search-rows tbody tr").all()]


def _shown(row: dict[str, Any], rank: int) -> list[str]:
    length = "none" if row["length"] is None else str(row["length"])
    return [str(rank), length, str(row["states"]), str(row["solved"]),
            row.get("difficulty", "–"), row["start"], f"graph of {row['start']}"]


def test_the_rows_hardest_first_paged_filtered_and_a_start_played(
        browser: Browser, server_url: str,
        expected: tuple[Path, list[dict[str, Any]]]) -> None:
    rows = expected[1]
    with _viewer(browser, f"{server_url}/explore#/searches") as page:
        page.click("#searches-list a:text-is('tiny')")
        page.wait_for_function(
            "() => document.querySelectorAll('#search-rows tbody tr').length")
        assert _rows(page) == [_shown(row, rank) for rank, row in enumerate(rows, 1)]
        assert not _serious_accessibility_problems(page)

        # Six a page from the address; Easier by the keyboard turns to the next six.
        page.goto(f"{server_url}/explore#/search/tiny?limit=6")
        page.wait_for_function("() => document.querySelector('#search-range').textContent"
                               ".startsWith('1–6 ')")
        page.focus("#search-next")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('#search-range').textContent"
                               ".startsWith('7–12 ')")
        assert _rows(page) == [_shown(row, rank) for rank, row in enumerate(rows, 1)][6:12]
        assert "offset=6" in page.evaluate("() => location.hash")

        # At least 5 moves: the rows of 5 and more.
        page.fill("#search-min", "5")
        page.press("#search-min", "Enter")
        long_ones = [row for row in rows if row["length"] is not None and row["length"] >= 5]
        page.wait_for_function("n => document.querySelector('#search-range').textContent"
                               ".endsWith(`of ${n}`)", arg=len(long_ones))
        assert [cells[5] for cells in _rows(page)] == [row["start"] for row in long_ones[:6]]

        # The hardest start played in the viewer from the keyboard: its moves to the goal
        # are the search's length.
        hardest = rows[0]
        graph = page.get_attribute("#search-rows tbody tr:first-child a.graph-link", "href")
        assert graph is not None and graph.startswith("#/puzzle?")
        page.focus("#search-rows tbody tr:first-child a.play-link")
        page.keyboard.press("Enter")
        page.wait_for_url("**/puzzles#**")
        page.wait_for_function("() => !['…', ''].includes("
                               "document.querySelector('#remaining').textContent)")
        assert page.get_attribute("#puzzle-board", "data-grid") == hardest["start"]
        assert page.text_content("#remaining") == str(hardest["length"])
        assert page.locator("#goal-board .pb-cell").count() == 12


@pytest.fixture(scope="module")
def rush_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The rush-hour preset's rows of the arrangement of Fogleman's hardest start, written
    as ``rush.parquet`` and served."""
    from huarong.puzzles.presets import rush_hour as rush

    found = rush.search_unit(rush.unit_of(rush.FOGLEMAN_HARDEST[1]))
    path = tmp_path_factory.mktemp("searches") / "rush.parquet"
    rush.RushRows(found["moves"], found["board"].view("S36").ravel(), found["states"],
                  found["solved"]).write(path)
    with _serve(Path(__file__).parent / "no-such-database.duckdb", searches=[path]) as url:
        yield url


def _play_row(page: Page, rank: int) -> None:
    """Plays the listed row of ``rank`` (1: the first shown) in the viewer, and waits until
    the viewer has the server's answer for it."""
    page.click(f"#search-rows tbody tr:nth-child({rank}) a.play-link")
    page.wait_for_url("**/puzzles#**")
    page.wait_for_function("() => !['…', ''].includes("
                           "document.querySelector('#remaining').textContent)")


def test_a_rush_hour_row_plays_its_moves(browser: Browser, rush_url: str) -> None:
    """Fogleman's hardest start, from the preset's file: 60 moves in the viewer."""
    with _viewer(browser, f"{rush_url}/explore#/search/rush") as page:
        page.wait_for_function(
            "() => document.querySelectorAll('#search-rows tbody tr').length")
        assert _rows(page)[0][1:3] == ["60", "2,332"]
        assert "each start its own" in (page.text_content("#search-facts") or "")
        _play_row(page, 1)
        assert page.get_attribute("#puzzle-board", "data-grid") == (
            "IBB#../I..LDD/JAAL../J.KEEM/FFK..M/GGHHHM")
        assert page.text_content("#remaining") == "60"


def test_an_sbp_record_plays_with_its_own_goal_and_distinct_piece(
        browser: Browser, tmp_path: Path) -> None:
    """Bickford's 9-piece record from the sbp-4x4 preset's file: its goal piece A told apart
    from the pieces like it, 132 moves in the viewer (his results file)."""
    from huarong.puzzles.presets.bickford import SbpRecord, records_table
    from huarong.puzzles.results import write_results

    start = "ABB./ACDD/EEFG/HEI."
    records = [SbpRecord(n, 132 if n == 9 else -1, start if n == 9 else None, 0, 0, 0)
               for n in range(1, 16)]
    path = tmp_path / "records.parquet"
    write_results(records_table(records), path)
    with _serve(Path(__file__).parent / "no-such-database.duckdb", searches=[path]) as url, \
            _viewer(browser, f"{url}/explore#/search/records") as page:
        page.wait_for_function(
            "() => document.querySelectorAll('#search-rows tbody tr').length")
        _play_row(page, 1)
        assert page.input_value("#distinct-input") == "A"
        assert page.text_content("#remaining") == "132"


def test_a_designed_start_plays_in_the_viewer(browser: Browser, tmp_path: Path) -> None:
    """A design run's file (Rush Hour on a 5x5 board, found by `puzzle design`): its best
    row opens in the viewer with its own goal and red car, and the viewer's minimum moves
    are the plain-Python reference's for that start."""
    import pyarrow.parquet as pq
    from click.testing import CliRunner

    from huarong.cli.puzzle_design import design

    path = tmp_path / "designed.parquet"
    answer = CliRunner().invoke(design, ["--preset", "rush-hour", "--board", "5x5",
                                         "--budget", "80", "--threads", "1", "-q",
                                         "-o", str(path)])
    assert answer.exit_code == 0, answer.output
    best = pq.read_table(path).to_pylist()[0]
    plain = reference(best["start"], best["goal"], "slide", "length", best["distinct"] or "")
    moves = plain.min_steps()[plain.start]
    assert moves == best["length"]
    with _serve(Path(__file__).parent / "no-such-database.duckdb", searches=[path]) as url, \
            _viewer(browser, f"{url}/explore#/search/designed") as page:
        page.wait_for_function(
            "() => document.querySelectorAll('#search-rows tbody tr').length")
        _play_row(page, 1)
        assert page.get_attribute("#puzzle-board", "data-grid") == best["start"]
        assert page.text_content("#remaining") == str(moves)


def test_a_played_row_s_ladder_steps_to_the_rows_beside_it(
        browser: Browser, server_url: str,
        expected: tuple[Path, list[dict[str, Any]]]) -> None:
    """A row played from the file: Harder opens the row before it (the file is hardest
    first), Easier the row after it; the first row has no harder one."""
    _, rows = expected
    with _viewer(browser, f"{server_url}/explore#/search/tiny") as page:
        page.wait_for_function(
            "() => document.querySelectorAll('#search-rows tbody tr').length")
        _play_row(page, 2)
        page.wait_for_function("() => !document.querySelector('#harder-button').disabled")
        assert f"({rows[0]['length']})" in (page.text_content("#harder-button") or "")
        assert not page.is_disabled("#easier-button")
        page.click("#harder-button")
        page.wait_for_function("start => document.querySelector('#puzzle-board')"
                               ".dataset.grid === start", arg=rows[0]["start"])
        page.wait_for_function("() => document.querySelector('#easier-button').dataset.href"
                               ".includes('row=1')")
        assert page.is_disabled("#harder-button")
