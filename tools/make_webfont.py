"""Regenerate the viewer's CJK subset webfont, ``src/huarong/static/cjk-subset.woff2``.

A headless chromium or a Linux install without CJK fonts draws the page's Chinese names and
piece marks as empty boxes, so the page ships the few glyphs it uses, cut from Noto Serif CJK
SC Bold (SIL Open Font License 1.1; Debian's ``fonts-noto-cjk``).  The glyphs are every CJK
character in the page's static files and in the classic layouts' names.  Run after changing
either:

    apt-get install fonts-noto-cjk
    python tools/make_webfont.py [--font PATH.ttc] [--index N]
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "huarong" / "static"
OUTPUT = STATIC / "cjk-subset.woff2"
LICENSE = STATIC / "cjk-subset-LICENSE.txt"
FONT = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
SIMPLIFIED_CHINESE = 2  # the face's index in Debian's collection: JP, KR, SC, TC, HK
COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")
CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
"""CJK radicals, punctuation, kana, ideographs, compatibility ideographs, full-width forms."""


def page_glyphs() -> str:
    """Every CJK character the page can show, sorted."""
    from huarong.engine.classics import CLASSICS

    texts = [path.read_text("utf-8") for path in sorted(STATIC.glob("*.*"))
             if path.suffix in {".html", ".js", ".css"}]
    texts += [classic.name for classic in CLASSICS]
    return "".join(sorted(set(CJK.findall("".join(texts)))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--font", type=Path, default=FONT)
    parser.add_argument("--index", type=int, default=SIMPLIFIED_CHINESE)
    options = parser.parse_args()
    glyphs = page_glyphs()
    font = TTCollection(str(options.font)).fonts[options.index]
    settings = subset.Options()
    settings.flavor = "woff2"
    settings.layout_features = ["*"]
    settings.name_IDs = ["*"]
    settings.notdef_outline = True
    subsetter = subset.Subsetter(settings)
    subsetter.populate(text=glyphs)
    subsetter.subset(font)
    temporary = OUTPUT.with_suffix(".tmp")
    font.flavor = "woff2"
    font.save(str(temporary))
    temporary.replace(OUTPUT)
    if COPYRIGHT.exists():
        opener = gzip.open if COPYRIGHT.suffix == ".gz" else open
        with opener(COPYRIGHT, "rb") as source, LICENSE.open("wb") as target:
            shutil.copyfileobj(source, target)
    print(f"{OUTPUT.relative_to(ROOT)}: {len(glyphs)} glyphs, {OUTPUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
