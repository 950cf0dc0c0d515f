"""The catalogue of named puzzles: every file parses into an entry named after it, with a
source and no stored answer, the Klotski classics of the viewer are all there, and the engine's
optimal lengths equal the figures the sources publish (the figures are copied here from the
sources, in the metric each source counts in, never from our code)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from huarong.engine.classics import CLASSICS
from huarong.engine.layout import Layout
from huarong.puzzles import catalogue, catalogue_entry, cluster_summary, load_puzzle, solve
from tests.puzzle_reference import reference

FOLDER = Path(__file__).resolve().parents[1] / "src" / "huarong" / "puzzles" / "catalogue"
FILES = sorted(FOLDER.glob("*.toml"))
KEYS = {"name", "title", "source", "board", "goal", "rules", "metric", "distinct"}

STEP, SLIDE, UNIT = "step", "slide", "unit"
STORER_CENTURY = "J. A. Storer, Century and Super-Century (cs.brandeis.edu)"
STORER_PUZZLES = "J. A. Storer, Century Puzzles (cs.brandeis.edu)"
STORER_DADS = "J. A. Storer, Dad's Puzzler (cs.brandeis.edu)"
BICKFORD = "N. Bickford, Sliding Block Puzzles, Part 3 (2012), table of the best 4x4 puzzles"

# name: (minimum moves, the metric the source counts them in, the source)
PUBLISHED: dict[str, tuple[int, str, str]] = {
    # "a minimal solution of 99 rectilinear moves" (100 with the initial half-unit move)
    "century": (99, STEP, STORER_CENTURY),
    # "149 rectilinear steps" after the initial half-unit move (Winning Ways' 150)
    "century-and-a-half": (149, STEP, STORER_PUZZLES),
    "supercentury": (138, STEP, STORER_CENTURY),
    "new-century": (230, STEP, STORER_PUZZLES),
    "pennant": (59, STEP, STORER_DADS),
    "dads-puzzle": (59, STEP, STORER_DADS),
    "rush-hour-hardest": (60, SLIDE, "M. Fogleman, Solving Rush Hour, the Puzzle (2018)"),
    "rush-hour-collette": (93, UNIT, "S. Collette, J.-F. Raskin, F. Servais (2006)"),
    "bickford-4x4-2": (4, STEP, BICKFORD),
    "bickford-4x4-3": (9, STEP, BICKFORD),
    # The blog's table says 19; the results file of his search, which gives this layout,
    # says 22 (SbpUtilities, results-4x4.txt, file 0-2-2-0-...).
    "bickford-4x4-4": (22, STEP, "N. Bickford, SbpUtilities, results-4x4.txt"),
    "bickford-4x4-5": (36, STEP, BICKFORD),
    "bickford-4x4-6": (51, STEP, BICKFORD),
    "bickford-4x4-7": (62, STEP, BICKFORD),
    "bickford-4x4-8": (89, STEP, BICKFORD),
    "bickford-4x4-9": (132, STEP, BICKFORD),
    "bickford-4x4-10": (81, STEP, BICKFORD),
    "bickford-4x4-11": (64, STEP, BICKFORD),
    "bickford-4x4-12": (73, STEP, BICKFORD),
    "bickford-4x4-13": (61, STEP, BICKFORD),
    "bickford-4x4-14": (25, STEP, BICKFORD),
    "bickford-4x4-15": (21, STEP, BICKFORD),
}

# The minimum steps of fayaa.com's table of classic layouts (发芽网, "mini"), by layout number.
FAYAA: dict[str, int | None] = {
    "heng-dao-li-ma": 81, "zhi-hui-ruo-ding": 70, "jiang-yong-cao-ying": 72,
    "qi-tou-bing-jin": 60, "bing-fen-san-lu": 72, "yu-sheng-xi-li": 47, "zuo-you-bu-bing": 54,
    "tao-hua-yuan-zhong": 70, "yi-lu-jin-jun": 58, "yi-lu-shun-feng": 39, "wei-er-bu-jian": 62,
    "jie-zu-xian-deng": 32, "cha-chi-nan-fei": 62, "shou-kou-ru-ping": 81,
    "ceng-ceng-she-fang": 102, "shui-xie-bu-tong": 79, "si-jiang-lian-guan": 39,
    "yong-chuang-wu-guan": 34, "wu-jiang-bi-gong": 36, "xiao-yan-chu-chao": 103,
    "bi-yi-heng-kong": 28, "jia-dao-cang-bing": 75, "si-mian-chu-ge": 56,
    "qian-hu-hou-yong": 22, "bing-lin-cao-ying": 34, "jin-zai-zhi-chi": 98,
    "feng-hui-lu-zhuan": 138, "tun-bing-dong-lu": 71,
    "zou-tou-wu-lu": None,  # no solution
}


def test_every_file_parses_into_an_entry_named_after_it() -> None:
    entries = catalogue()
    names = [entry.name for entry in entries]
    assert sorted(names) == sorted(path.stem for path in FILES)
    assert len(set(names)) == len(names)
    for entry in entries:
        assert entry.puzzle.name == entry.name
        assert catalogue_entry(entry.name) == entry


def test_every_entry_names_its_source_and_stores_no_answer() -> None:
    for path in FILES:
        spec = tomllib.loads(path.read_text("utf-8"))
        assert set(spec) <= KEYS, path.name
        assert spec["name"] == path.stem
        assert spec["title"].strip(), path.name
        # A source says who published the layout and where: a URL or a citation with a year.
        source = spec["source"]
        assert "http" in source or any(char.isdigit() for char in source), path.name


def test_the_viewers_klotski_classics_are_all_there() -> None:
    by_board = {}
    for path in FILES:
        spec = tomllib.loads(path.read_text("utf-8"))
        by_board[spec["board"]] = spec
    codes = {Layout.from_grid(classic.grid).code: classic for classic in CLASSICS}
    for code, classic in codes.items():
        assert code in by_board, classic.name
        assert by_board[code]["title"] == f"{classic.name} ({classic.name_en})"
    assert {by_board[code]["name"] for code in codes} == set(FAYAA)


@pytest.mark.parametrize(("name", "figure"), list(PUBLISHED.items()), ids=list(PUBLISHED))
def test_the_engine_finds_the_published_length(name: str,
                                               figure: tuple[int, str, str]) -> None:
    moves, metric, source = figure
    puzzle = catalogue_entry(name).puzzle
    assert puzzle.metric == metric, f"{source} counts in the {metric} metric"
    solution = solve(puzzle)
    assert solution is not None
    assert solution.length == moves, source


@pytest.mark.parametrize(("name", "steps"), list(FAYAA.items()), ids=list(FAYAA))
def test_the_engine_finds_the_klotski_classics_published_steps(name: str,
                                                               steps: int | None) -> None:
    solution = solve(catalogue_entry(name).puzzle)
    assert (None if solution is None else solution.length) == steps


def test_fogleman_hardest_cluster_has_the_published_size() -> None:
    # "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332": moves, board, cluster size.
    assert cluster_summary(catalogue_entry("rush-hour-hardest").puzzle).states == 2332


def test_collettes_start_takes_fogleman_49_moves() -> None:
    # fogleman/rush README: "solvable: true, # moves: 49, # steps: 93".
    puzzle = catalogue_entry("rush-hour-collette").puzzle.with_options(metric=SLIDE)
    solution = solve(puzzle)
    assert solution is not None
    assert solution.length == 49


# The design search's records (docs/design-records.md): (moves, cluster states) as the run
# that found each printed them.  `puzzle cluster` must agree, and on the clusters small enough
# for it, so must the plain-Python reference.
DESIGN_RECORDS: dict[str, tuple[int, int]] = {
    "design-5x5": (184, 50_566),
    "design-6x6": (137, 71_852),
    "design-pe766": (93, 3_700),
    "design-rush-hour-7x7": (51, 35_369),
    "design-rush-hour-7x7-full": (66, 388_304),  # full boards: the lane engine searches them
    "design-rush-hour-8x8": (82, 896_223),
    "design-rush-hour-walls": (58, 9_192),
    "design-4x5-free": (190, 30_331),
    "design-6x6-free": (156, 574_362),
    "design-5x5-free": (268, 690_908),
}
REFERENCE_LIMIT = 10_000
"""The largest cluster the plain-Python reference checks here (seconds each)."""


@pytest.mark.parametrize(("name", "record"), list(DESIGN_RECORDS.items()),
                         ids=list(DESIGN_RECORDS))
def test_a_design_record_is_its_cluster_s_hardest_start(name: str,
                                                       record: tuple[int, int]) -> None:
    moves, states = record
    puzzle = catalogue_entry(name).puzzle
    summary = cluster_summary(puzzle)
    assert (summary.states, summary.hardest_length) == (states, moves)
    solution = solve(puzzle)
    assert solution is not None and solution.length == moves
    if states <= REFERENCE_LIMIT:
        spec = tomllib.loads((FOLDER / f"{name}.toml").read_text("utf-8"))
        grid = "/".join(spec["board"].split())
        goal = "/".join(spec["goal"].split())
        plain = reference(grid, goal, spec["metric"], spec["rules"], spec.get("distinct", ()))
        steps = plain.min_steps()
        assert len(plain.cluster()) == states
        assert steps[plain.start] == moves == max(steps.values())


@pytest.mark.parametrize("name", ["design-4x5-free", "design-6x6-free", "design-5x5-free",
                                  "design-6x6"])
def test_a_design_record_needs_every_piece(name: str) -> None:
    """Without any one piece but the goal piece the record's start is solved in fewer moves
    (the design search's minimality, checked here by solving each smaller start)."""
    moves, _ = DESIGN_RECORDS[name]
    spec = tomllib.loads((FOLDER / f"{name}.toml").read_text("utf-8"))
    grid = "/".join(spec["board"].split())
    goal = "/".join(spec["goal"].split())
    goal_letter = next(glyph for glyph in goal if glyph.isalpha())
    for letter in sorted(set(grid) - {".", "#", "/", goal_letter}):
        smaller = load_puzzle(grid.replace(letter, "."), goal, metric=spec["metric"],
                              rules=spec["rules"])
        solution = solve(smaller)
        assert solution is not None and solution.length < moves, letter
