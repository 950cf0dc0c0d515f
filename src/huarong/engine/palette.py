"""The colours every picture of a board uses, read from ``palette.json`` beside this module.

The same file is served to the browser (``GET /palette.json``), so the terminal, the SVG, the
printable card and the web pages colour a piece alike.  Colours are ``#rrggbb`` strings."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

_HEX_COLOUR = re.compile(r"#[0-9a-f]{6}")


class PaletteError(ValueError):
    """``palette.json`` holds something other than the promised colours."""


@dataclass(frozen=True)
class KlotskiColours:
    """The four Klotski piece kinds."""

    cao: str
    vertical: str
    horizontal: str
    soldier: str


@dataclass(frozen=True)
class BoardColours:
    """The tray a board sits in: its frame, its floor and the lines around a piece."""

    frame: str
    floor: str
    line: str


@dataclass(frozen=True)
class CardColours:
    """The printable card's paper, text and grid."""

    background: str
    text: str
    quiet_text: str
    frame: str
    grid: str
    empty: str
    fold: str
    goal_outline: str


@dataclass(frozen=True)
class Palette:
    """``pieces`` colour the pieces of a general puzzle by number (the first for the pieces
    the goal names, then again from the start when there are more); ``wall`` a fixed cell."""

    pieces: tuple[str, ...]
    wall: str
    klotski: KlotskiColours
    board: BoardColours
    card: CardColours


def palette_bytes() -> bytes:
    """The file as stored, for serving it unchanged."""
    return (resources.files("huarong.engine") / "palette.json").read_bytes()


def _colour(value: Any, where: str) -> str:
    if not isinstance(value, str) or not _HEX_COLOUR.fullmatch(value):
        raise PaletteError(f"palette.json: {where} is {value!r}, not a #rrggbb colour")
    return value


def _section(document: dict[str, Any], name: str, fields: tuple[str, ...]) -> dict[str, str]:
    section = document.get(name)
    if not isinstance(section, dict) or set(section) != set(fields):
        raise PaletteError(f"palette.json: {name!r} must hold exactly {', '.join(fields)}")
    return {field: _colour(section[field], f"{name}.{field}") for field in fields}


def parse_palette(text: str | bytes) -> Palette:
    """The palette a JSON document describes; :class:`PaletteError` names what is wrong."""
    document = json.loads(text)
    if not isinstance(document, dict):
        raise PaletteError("palette.json: not a JSON object")
    pieces = document.get("pieces")
    if not isinstance(pieces, list) or not pieces:
        raise PaletteError("palette.json: 'pieces' must be a non-empty list of colours")
    return Palette(
        pieces=tuple(_colour(colour, f"pieces[{index}]") for index, colour in enumerate(pieces)),
        wall=_colour(document.get("wall"), "wall"),
        klotski=KlotskiColours(**_section(document, "klotski",
                                          ("cao", "vertical", "horizontal", "soldier"))),
        board=BoardColours(**_section(document, "board", ("frame", "floor", "line"))),
        card=CardColours(**_section(document, "card", (
            "background", "text", "quiet_text", "frame", "grid", "empty", "fold",
            "goal_outline"))))


@cache
def palette() -> Palette:
    """The package's palette, read once."""
    return parse_palette(palette_bytes())
