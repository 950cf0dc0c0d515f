"""One palette (``engine/palette.json``) for the Python drawings and the browser."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from huarong.engine.classics import CLASSICS
from huarong.engine.palette import PaletteError, palette, palette_bytes, parse_palette
from huarong.web.app import create_app


def test_the_served_palette_is_the_file_the_drawings_read() -> None:
    answer = TestClient(create_app(None)).get("/palette.json")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    assert "max-age" in answer.headers["cache-control"]
    assert answer.content == palette_bytes()
    assert parse_palette(answer.content) == palette()


def test_the_palette_keeps_the_schema_the_browser_reads() -> None:
    document = json.loads(palette_bytes())
    assert len(document["pieces"]) == 8
    assert set(document["klotski"]) == {"cao", "vertical", "horizontal", "soldier"}
    assert set(document["board"]) == {"frame", "floor", "line"}
    assert len(set(document["pieces"])) == 8, "two piece numbers would look alike"


def test_the_svg_board_is_coloured_from_the_palette() -> None:
    svg = CLASSICS[0].layout.render_svg(40)
    fills = set(re.findall(r'fill="(#[0-9a-f]{6})"', svg))
    kinds = palette().klotski
    assert fills == {palette().board.frame, palette().board.floor,
                     kinds.cao, kinds.vertical, kinds.horizontal, kinds.soldier}


@pytest.mark.parametrize(("document", "named"), [
    ('{"pieces": []}', "pieces"),
    ('{"pieces": ["#123456"], "wall": "brown"}', "wall"),
    ('[1]', "JSON object"),
])
def test_a_bad_palette_is_named(document: str, named: str) -> None:
    with pytest.raises(PaletteError, match=named):
        parse_palette(document)
