"""Regenerate the CJK subset webfonts: the viewer's and the documentation site's.

A headless chromium or a Linux install without CJK fonts draws Chinese names and piece marks as
empty boxes, so the viewer and the docs site each ship the few glyphs they use, cut from Noto
CJK SC (SIL Open Font License 1.1; Debian's ``fonts-noto-cjk``):

- the viewer, ``src/huarong/web/static/cjk-subset.woff2``: Noto Serif CJK SC Bold, every CJK
  character in the page's static files and in the classic layouts' names;
- the docs site, ``docs/stylesheets/cjk-subset.woff2``: Noto Sans CJK SC Regular (the site's
  body text is a regular sans), every CJK character in ``docs/**/*.md``, ``mkdocs.yml`` and the
  Python sources (their docstrings are the API reference's pages).

Run after changing either's Chinese text (a test fails when a glyph is missing):

    apt-get install fonts-noto-cjk
    python tools/make_webfont.py [viewer|docs|all] [--font PATH.ttc] [--index N]
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "huarong" / "web" / "static"
DOCS = ROOT / "docs"
NOTO = Path("/usr/share/fonts/opentype/noto")
SIMPLIFIED_CHINESE = 2  # the face's index in Debian's collections: JP, KR, SC, TC, HK
COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")
CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
"""CJK radicals, punctuation, kana, ideographs, compatibility ideographs, full-width forms."""


def _glyphs(texts: list[str]) -> str:
    return "".join(sorted(set(CJK.findall("".join(texts)))))


def page_glyphs() -> str:
    """Every CJK character the viewer can show, sorted."""
    from huarong.engine.classics import CLASSICS

    texts = [path.read_text("utf-8") for path in sorted(STATIC.rglob("*.*"))
             if path.suffix in {".html", ".js", ".css"}]
    texts += [classic.name for classic in CLASSICS]
    return _glyphs(texts)


def site_glyphs() -> str:
    """Every CJK character the documentation site can show, sorted."""
    sources = [*sorted(DOCS.rglob("*.md")), ROOT / "mkdocs.yml",
               *sorted((ROOT / "src" / "huarong").rglob("*.py"))]
    return _glyphs([path.read_text("utf-8") for path in sources])


class Target(NamedTuple):
    """A subset to make: where it goes, the face it is cut from, the glyphs it holds."""

    output: Path
    font: Path
    glyphs: Callable[[], str]


TARGETS = {
    "viewer": Target(STATIC / "cjk-subset.woff2", NOTO / "NotoSerifCJK-Bold.ttc", page_glyphs),
    "docs": Target(DOCS / "stylesheets" / "cjk-subset.woff2", NOTO / "NotoSansCJK-Regular.ttc",
                   site_glyphs),
}


def make(target: Target, font_path: Path, index: int) -> str:
    """Writes target's subset (atomically) and the font's licence beside it; says what it
    wrote."""
    glyphs = target.glyphs()
    font = TTCollection(str(font_path)).fonts[index]
    settings = subset.Options()
    settings.flavor = "woff2"
    settings.layout_features = ["*"]
    settings.name_IDs = ["*"]
    settings.notdef_outline = True
    subsetter = subset.Subsetter(settings)
    subsetter.populate(text=glyphs)
    subsetter.subset(font)
    temporary = target.output.with_suffix(".tmp")
    font.flavor = "woff2"
    font.save(str(temporary))
    temporary.replace(target.output)
    if COPYRIGHT.exists():
        licence = target.output.with_name("cjk-subset-LICENSE.txt")
        opener = gzip.open if COPYRIGHT.suffix == ".gz" else open
        with opener(COPYRIGHT, "rb") as source, licence.open("wb") as copy:
            shutil.copyfileobj(source, copy)
    size = target.output.stat().st_size
    return f"{target.output.relative_to(ROOT)}: {len(glyphs)} glyphs, {size:,} bytes"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("which", nargs="?", choices=[*TARGETS, "all"], default="all")
    parser.add_argument("--font", type=Path, help="the collection to cut from (one target)")
    parser.add_argument("--index", type=int, default=SIMPLIFIED_CHINESE)
    options = parser.parse_args()
    chosen = list(TARGETS) if options.which == "all" else [options.which]
    if options.font and len(chosen) > 1:
        parser.error("--font needs one target: viewer or docs")
    for name in chosen:
        print(make(TARGETS[name], options.font or TARGETS[name].font, options.index))


if __name__ == "__main__":
    main()
