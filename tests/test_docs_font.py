"""The documentation site's CJK subset webfont (docs/stylesheets/): it holds every Chinese
character the site shows, so a machine without CJK fonts draws no empty boxes."""

from __future__ import annotations

import re
from pathlib import Path

from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
STYLES = ROOT / "docs" / "stylesheets"
# ideographs, CJK punctuation and full-width forms: what a Latin font lacks
CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def test_the_site_font_holds_every_chinese_glyph_the_docs_show() -> None:
    # the pages, the site's description, and the docstrings the API reference renders
    sources = [*ROOT.joinpath("docs").rglob("*.md"), ROOT / "mkdocs.yml",
               *ROOT.joinpath("src", "huarong").rglob("*.py")]
    shown = set(CHINESE.findall("".join(path.read_text("utf-8") for path in sources)))
    assert {"华", "容", "道", "横", "刀", "立", "马"} <= shown
    with STYLES.joinpath("cjk-subset.woff2").open("rb") as woff2:
        covered = {chr(point) for point in TTFont(woff2).getBestCmap()}
    assert not sorted(shown - covered), "rerun: python tools/make_webfont.py docs"
    assert len(covered) < 300  # a subset, not the whole font
    assert STYLES.joinpath("cjk-subset-LICENSE.txt").read_text("utf-8").count("OFL") > 0


def test_the_site_stylesheet_uses_the_font_for_text_and_code() -> None:
    css = STYLES.joinpath("extra.css").read_text("utf-8")
    assert 'url("cjk-subset.woff2")' in css
    for stack in ("--md-text-font-family", "--md-code-font-family"):
        declared = re.search(rf"{stack}:([^;]*);", css)
        assert declared and '"Huarong CJK"' in declared.group(1), stack
