"""Reading puzzles: grid text, Rush Hour strings, Klotski layouts, TOML files and catalogue
names, and the catalogue itself."""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from huarong.engine.layout import COLS, Layout, LayoutError, PieceKind
from huarong.puzzles.grid import (
    EMPTY,
    Metric,
    PuzzleError,
    Rules,
    check_metric,
    check_rules,
    join_rows,
)
from huarong.puzzles.lane_puzzle import lane_puzzle
from huarong.puzzles.puzzle import Puzzle, puzzle_of, read_board
from huarong.puzzles.tables import TooManyPlacements

RUSH_PREFIX = "rush:"
_KLOTSKI_GOAL_ROWS = (3, 4)
_KLOTSKI_GOAL_COLUMNS = (1, 2)
_KLOTSKI_KINDS = frozenset("CVHS")
_CATALOGUE_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_TOML_KEYS = frozenset({"name", "title", "source", "board", "goal", "rule", "rules", "metric",
                        "distinct"})


FAMILIES = ("classics", "rush-hour", "bickford-4x4", "design", "klotski")
"""The catalogue's families, in the catalogue page's order: the West's classics, Rush Hour,
Bickford's 4x4 records, the design search's records, the Klotski classics."""


@dataclass(frozen=True)
class CatalogueEntry:
    """A named puzzle of the catalogue, with where it was published."""

    name: str
    title: str
    source: str
    puzzle: Puzzle

    @property
    def family(self) -> str:
        """One of :data:`FAMILIES`: the Klotski classics are fayaa.com's table, the others
        known by their names' first word."""
        if "fayaa.com" in self.source:
            return "klotski"
        return next((family for family in FAMILIES[1:4] if self.name.startswith(family)),
                    "classics")


def load_puzzle(start: str, goal: str | None = None, *, metric: str | None = None,
                rules: str | None = None, distinct: Iterable[str] = ()) -> Puzzle:
    """A puzzle from any notation.

    ``start`` is grid text (rows on lines or joined by ``/``; ``.`` empty, ``#`` wall, one
    letter per piece), ``rush:`` and a 36-character Rush Hour string (``o`` or ``.`` empty,
    ``x`` wall, ``A`` the red car, whose goal is the right edge of its row; rules
    ``length``, metric ``slide``), a Klotski common code, klotski.online id, short code,
    classic name or 5x4 grid of ``C V H S`` (goal: the 2x2 at the exit), a catalogue name
    or the path of a ``.toml`` file.  ``goal`` (grid text), ``metric``, ``rules`` override
    the notation's; ``distinct`` letters name pieces not interchangeable with others of their
    shape.  Plain grids default to rules ``free`` and metric ``step``, without a goal."""
    options = _Options(goal, None if metric is None else check_metric(metric),
                       None if rules is None else check_rules(rules), tuple(distinct))
    text = start.strip()
    if text.lower().startswith(RUSH_PREFIX):
        return _rush(text, options)
    if text.endswith(".toml") and "\n" not in text:
        return _toml_file(Path(text), options)
    if "/" not in text and "\n" not in text:
        return _named(text, options)
    klotski = _klotski_grid(text)
    if klotski is not None:
        return _klotski(klotski, options)
    return options.build(text, None, "free", "step")


@dataclass(frozen=True)
class _Options:
    goal: str | None
    metric: Metric | None
    rules: Rules | None
    distinct: tuple[str, ...]

    def build(self, text: str, goal: str | None, rules: Rules, metric: Metric, *,
              distinct: Iterable[str] = (), empty: str = EMPTY, wall: str = "#") -> Puzzle:
        """The puzzle of the grid ``text``; a Rush Hour board beyond the general engine's
        codes as a :class:`~huarong.puzzles.lane_puzzle.LanePuzzle`."""
        board, pieces = read_board(text, goal=self.goal if self.goal is not None else goal,
                                   rules=self.rules or rules, metric=self.metric or metric,
                                   distinct={*distinct, *self.distinct}, empty=empty,
                                   wall=wall)
        try:
            return puzzle_of(board, pieces, text)
        except TooManyPlacements:
            found = lane_puzzle(board, pieces)
            if found is None:
                raise
            return found

    def over(self, puzzle: Puzzle) -> Puzzle:
        """``puzzle`` with these options applied."""
        if self.distinct:
            rebuilt = self.build(puzzle.grid, puzzle.goal, puzzle.rules, puzzle.metric,
                                 distinct=[letter for k in puzzle.classes if k.distinct
                                           for letter in k.letters])
            puzzle = dataclasses.replace(rebuilt, name=puzzle.name, title=puzzle.title,
                                         source=puzzle.source)
        return puzzle.with_options(goal=self.goal, metric=self.metric, rules=self.rules)


def _rush(text: str, options: _Options) -> Puzzle:
    from huarong._kernels.rush_hour_board import RED_CAR, SIDE
    from huarong.puzzles.presets.rush_hour import read_board

    try:
        grid = read_board(text[len(RUSH_PREFIX):].strip())
    except PuzzleError as error:
        raise PuzzleError(text, error.problem) from None
    car = [cell for cell, glyph in enumerate(grid.cells) if glyph == RED_CAR]
    rows = {cell // SIDE for cell in car}
    if len(car) < 2 or len(rows) != 1:
        raise PuzzleError(text, f"the red car {RED_CAR!r} must lie along one row")
    row = rows.pop()
    goal = [EMPTY] * (SIDE * SIDE)
    for offset in range(len(car)):
        goal[(row + 1) * SIDE - 1 - offset] = RED_CAR
    try:
        return options.build(grid.text, join_rows(goal, SIDE), "length", "slide",
                             distinct=[RED_CAR])
    except PuzzleError as error:
        raise PuzzleError(text, error.problem) from None


def _named(text: str, options: _Options) -> Puzzle:
    """A catalogue name, a Klotski classic's name or a Klotski code or id."""
    from huarong.engine.classics import CLASSICS

    if _CATALOGUE_NAME.fullmatch(text) and text in _catalogue_files():
        return options.over(catalogue_entry(text).puzzle)
    wanted = text.casefold()
    classic = next((c.layout for c in CLASSICS if wanted in (c.name, c.name_en.casefold())),
                   None)
    if classic is not None:
        return _klotski(classic, options)
    try:
        return _klotski(Layout.parse(text), options)
    except LayoutError as error:
        raise PuzzleError(text, "not a grid (rows joined by /), a rush: string, a Klotski "
                                f"layout ({error}), a catalogue name or a .toml file"
                          ) from None


def _klotski_grid(text: str) -> Layout | None:
    """The Klotski layout of a 5x4 grid of ``C V H S``, None for any other grid."""
    rows = [row for row in (re.sub(r"[ \t\r]", "", line) for line in re.split(r"[\n/]", text))
            if row]
    letters = {glyph for row in rows for glyph in row if glyph.isalpha()}
    if len(rows) != 5 or any(len(row) != 4 for row in rows) or not letters <= _KLOTSKI_KINDS:
        return None
    try:
        return Layout.from_grid(text)
    except LayoutError as error:
        raise PuzzleError(text, str(error)) from None


def _klotski(layout: Layout, options: _Options) -> Puzzle:
    """A Klotski layout in the general model: pieces lettered in reading order, the goal the
    2x2 at the exit."""
    letters: dict[int, str] = {}
    cells = []
    for owner in layout.board:
        if owner is None:
            cells.append(EMPTY)
            continue
        letter = letters.setdefault(owner.address, chr(ord("A") + len(letters)))
        cells.append(letter)
    cao = letters[next(p.address for p in layout.pieces if p.kind is PieceKind.CAO)]
    goal = [EMPTY] * len(cells)
    for row in _KLOTSKI_GOAL_ROWS:
        for column in _KLOTSKI_GOAL_COLUMNS:
            goal[row * COLS + column] = cao
    return options.build(join_rows(cells, COLS), join_rows(goal, COLS), "free", "step")


def _toml_file(path: Path, options: _Options) -> Puzzle:
    try:
        data = path.read_text(encoding="utf-8")
    except OSError as error:
        raise PuzzleError(str(path), f"cannot read it: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise PuzzleError(str(path), f"not UTF-8 text (byte {error.start})") from None
    return _from_toml(data, str(path), options)


def _from_toml(data: str, where: str, options: _Options) -> Puzzle:
    try:
        spec = tomllib.loads(data)
    except tomllib.TOMLDecodeError as error:
        raise PuzzleError(where, f"not TOML: {error}") from None
    unknown = sorted(set(spec) - _TOML_KEYS)
    if unknown:
        raise PuzzleError(where, f"unknown key {unknown[0]!r}: the keys are "
                                 f"{', '.join(sorted(_TOML_KEYS))}")
    if not isinstance(spec.get("board"), str):
        raise PuzzleError(where, "no board: a puzzle file needs board = \"grid text\"")
    for key in ("name", "title", "source", "goal", "rule", "rules", "metric"):
        if key in spec and not isinstance(spec[key], str):
            raise PuzzleError(where, f"{key} must be a string")
    if "rule" in spec and "rules" in spec:
        raise PuzzleError(where, "give the rule once: rule and rules are one key")
    marked = spec.get("distinct", [])
    if not (isinstance(marked, list) and all(isinstance(x, str) for x in marked)):
        raise PuzzleError(where, "distinct must be a list of letters")
    try:
        puzzle = load_puzzle(spec["board"], spec.get("goal"), metric=spec.get("metric"),
                             rules=spec.get("rule", spec.get("rules")), distinct=marked)
    except PuzzleError as error:
        raise PuzzleError(where, f"{error}") from None
    named = dataclasses.replace(puzzle, name=spec.get("name"), title=spec.get("title"),
                                source=spec.get("source"))
    return options.over(named)


# ----- the catalogue ------------------------------------------------------------------------
def _catalogue_folder() -> Traversable:
    """Where the catalogue's files are: package data of :mod:`huarong.puzzles`."""
    return resources.files("huarong.puzzles") / "catalogue"


@functools.cache
def _catalogue_files() -> dict[str, str]:
    """Catalogue name -> the TOML text of its file (file name ``NAME.toml``)."""
    folder = _catalogue_folder()
    if not folder.is_dir():
        return {}
    return {item.name.removesuffix(".toml"): item.read_text(encoding="utf-8")
            for item in sorted(folder.iterdir(), key=lambda item: item.name)
            if item.name.endswith(".toml")}


def catalogue_entry(name: str) -> CatalogueEntry:
    """The catalogue's puzzle of that name; :class:`PuzzleError` when there is none."""
    files = _catalogue_files()
    if name not in files:
        raise PuzzleError(name, f"no such puzzle in the catalogue ({', '.join(files)})")
    return _entry(name, files[name])


@functools.cache
def _entry(name: str, data: str) -> CatalogueEntry:
    puzzle = _from_toml(data, f"catalogue/{name}.toml", _Options(None, None, None, ()))
    if puzzle.name != name or not puzzle.title or not puzzle.source:
        raise PuzzleError(f"catalogue/{name}.toml", f"a catalogue entry needs name = "
                                                     f"{name!r}, a title and a source")
    return CatalogueEntry(name, puzzle.title, puzzle.source, puzzle)


def catalogue() -> list[CatalogueEntry]:
    """Every catalogue puzzle, by name."""
    return [catalogue_entry(name) for name in _catalogue_files()]
