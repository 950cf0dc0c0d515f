"""The difficulty line in both viewers and the puzzle viewer's ladder by difficulty, checked on
the picture: the line is drawn (ink on the paper) under the board's readouts, above the game's
buttons, and says the grade the model gives in Python (``huarong.puzzles.difficulty``), and
the ladder's "Harder" rung is the family's next puzzle by the predicted times computed here."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING
from urllib.parse import urlencode

import pytest

from huarong.puzzles import catalogue, load_puzzle
from huarong.puzzles.difficulty.model import difficulty

from .test_browser_by_hand import _inked
from .test_browser_puzzles import _settled, _viewer
from .test_difficulty_cli import LONGEST_STUDY, _study_board

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser


def _box(page: Page, selector: str) -> list[float]:
    box: list[float] = page.eval_on_selector(selector, """(e) => {
        const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }""")
    return box


def _drawn_between(page: Page, line: str, above: str, below: str) -> None:
    """The line lies under ``above`` and over ``below``, inside the window, and its letters
    are drawn: the screenshot of its box holds ink."""
    from PIL import Image

    box = _box(page, line)
    assert _box(page, above)[3] <= box[1] + 1 and box[3] <= _box(page, below)[1] + 1
    assert 0 <= box[0] < box[2] <= page.viewport_size["width"] and box[3] > box[1]  # type: ignore[index]
    shot = Image.open(io.BytesIO(page.screenshot(animations="disabled"))).convert("L")
    scale = shot.width / page.viewport_size["width"]  # type: ignore[index]
    assert _inked(shot.crop(tuple(round(v * scale) for v in box)))  # type: ignore[arg-type]


def _told(start: str) -> str:
    found = difficulty(load_puzzle(start))
    return f"Grade {found.grade} of 10, {found.grade_name}:"


def test_the_puzzle_viewer_says_a_study_board_s_grade(browser: Browser, server_url: str
                                                      ) -> None:
    start = "rush:" + _study_board(LONGEST_STUDY)
    with _viewer(browser, f"{server_url}/puzzles#{urlencode({'start': start})}") as page:
        _settled(page)
        page.wait_for_function(
            "() => document.querySelector('#puzzle-difficulty').textContent.startsWith('Grade')")
        text = page.text_content("#puzzle-difficulty") or ""
        assert text.startswith(_told(start)) and "extrapolated" not in text
        _drawn_between(page, "#puzzle-difficulty", "#progress", ".play-controls")


def test_the_klotski_viewer_says_the_grade_and_that_it_extrapolates(browser: Browser,
                                                                   server_url: str) -> None:
    with _viewer(browser, f"{server_url}/#1A9BF0C00") as page:
        page.wait_for_function(
            "() => document.querySelector('#layout-difficulty').textContent.startsWith('Grade')")
        text = page.text_content("#layout-difficulty") or ""
        assert text.startswith(_told("1A9BF0C00")) and "extrapolated" in text
        _drawn_between(page, "#layout-difficulty", "#progress", ".play-controls")


def test_the_ladder_by_difficulty_offers_the_next_puzzle_by_predicted_time(
        browser: Browser, server_url: str) -> None:
    family = sorted((difficulty(entry.puzzle).median_seconds, entry.name, entry.title)
                    for entry in catalogue() if entry.family == "bickford-4x4")
    _, name, _ = family[0]
    _, _, harder = family[1]
    with _viewer(browser, f"{server_url}/puzzles#{urlencode({'start': name})}") as page:
        _settled(page)
        page.select_option("#ladder-order", "difficulty")
        page.wait_for_function("() => document.querySelector('#harder-button').textContent"
                               ".includes('grade')")
        assert (page.text_content("#harder-button") or "").startswith(f"Harder: {harder} (")
        assert page.is_disabled("#easier-button")
        page.click("#harder-button")
        page.wait_for_function(f"() => location.hash.includes('{family[1][1]}')")
