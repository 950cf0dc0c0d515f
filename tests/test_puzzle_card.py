"""``huarong puzzle card``: the printable card read back from each format (PNG pixels, SVG
elements, PDF pages), its length checked against the plain-Python breadth-first search of
:mod:`tests.puzzle_reference`; no solution answers exit status 1, bad input one line and exit
status 2, and neither leaves a file behind."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from PIL import Image

from huarong.cli import main
from huarong.cli.puzzle import puzzle
from huarong.cli.puzzle_card import card
from huarong.puzzles import load_puzzle
from huarong.puzzles.card import (
    BACKGROUND,
    EMPTY_COLOUR,
    GOAL_OUTLINE_COLOUR,
    TEXT_COLOUR,
    WALL_COLOUR,
    piece_colours,
)
from huarong.puzzles.card_layout import (
    BACK_TOP,
    DPI,
    LETTERED_CELL,
    MARGIN,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    THUMBNAIL_GAP,
    card_layout,
)
from huarong.puzzles.grid import Grid

from .puzzle_reference import reference

WALLED = "AAB./AAC./DEE./##.."
"""A 4x4 board with two walls, a 2x2 A to bring to the lower right (12 slides)."""
WALLED_GOAL = "..../..../..AA/..AA"
TINY = "AAB./AAC./DEE."
"""A 3x4 board, its 2x2 A to the right edge: 13 slides, none when E moves only along its
length."""
TINY_GOAL = "..../..AA/..AA"
DADS = ("AABB/AACC/DE../FGHH/FGII", "..../..../..../AA../AA..")
"""The catalogue's dads-puzzle, start and goal (step metric, free rules)."""
CENTURY = ("ABBC/DBBE/DF.E/GF.H/IIJJ", "..../..../..../.BB./.BB.")
"""The catalogue's century, start and goal (step metric, free rules)."""
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def runner() -> CliRunner:
    assert puzzle.commands["card"] is card
    return CliRunner()


def run(runner: CliRunner, *args: str, code: int = 0) -> Result:
    result = runner.invoke(main, ["puzzle", "card", *args])
    assert result.exit_code == code, result.output
    return result


def shortest(start: str, goal: str, metric: str = "step", rules: str = "free") -> int:
    model = reference(start, goal, metric, rules)
    return model.min_steps()[model.start]


def test_png_is_the_promised_size_and_colours_each_cell_of_the_front(
        runner: CliRunner, tmp_path: Path) -> None:
    output = tmp_path / "card.png"
    run(runner, WALLED, "--goal", WALLED_GOAL, "--metric", "slide", "-o", str(output))
    layout = card_layout(4, 4, shortest(WALLED, WALLED_GOAL, "slide"))
    colours = piece_colours(load_puzzle(WALLED, WALLED_GOAL, metric="slide"))
    with Image.open(output) as image:
        assert image.size == layout.picture_size == (PAGE_WIDTH, 2 * PAGE_HEIGHT)
        front = image.convert("RGB")
    cells = WALLED.replace("/", "")
    sizes = {glyph: cells.count(glyph) for glyph in cells}
    for address, glyph in enumerate(cells):
        row, column = divmod(address, 4)
        centre = (layout.board_x + (column + 0.5) * layout.board_cell,
                  layout.board_y + (row + 0.5) * layout.board_cell)
        pixel = front.getpixel((int(centre[0]), int(centre[1])))
        if glyph == "#":
            assert pixel == WALL_COLOUR, address
        elif glyph == ".":
            assert pixel == EMPTY_COLOUR, address
        elif sizes[glyph] > 1:  # a piece of one cell has its letter at the centre
            assert pixel == colours[glyph] not in (WALL_COLOUR, EMPTY_COLOUR), address
    assert colours["A"] != colours["B"] != colours["E"]


@pytest.mark.parametrize(("start", "goal", "metric"), [
    (TINY, TINY_GOAL, "slide"), (TINY, TINY_GOAL, "unit"), (*DADS, "step")])
def test_svg_back_holds_a_board_per_position_of_an_optimal_solution(
        runner: CliRunner, tmp_path: Path, start: str, goal: str, metric: str) -> None:
    output = tmp_path / "card.svg"
    run(runner, start, "--goal", goal, "--metric", metric, "-o", str(output))
    length = shortest(start, goal, metric)
    root = ElementTree.parse(output).getroot()
    rows, columns = len(start.split("/")), len(start.split("/")[0])
    width, height = card_layout(rows, columns, length).picture_size
    assert root.get("viewBox") == f"0 0 {width} {height}"
    back = root.find(f"{SVG}g[@class='back']")
    assert back is not None
    moves = [board.get("data-move") for board in back.iter(f"{SVG}g")
             if board.get("class") == "thumbnail"]
    assert moves == [str(move) for move in range(length + 1)]
    front = root.find(f"{SVG}g[@class='front']")
    assert front is not None
    assert len(front.findall(f"{SVG}g[@class='board']")) == 1
    assert f"{length} moves" in [text.text for text in front.iter(f"{SVG}text")]


def test_the_title_is_the_catalogues_then_title_then_the_grid(runner: CliRunner,
                                                               tmp_path: Path) -> None:
    def front_texts(*args: str) -> list[str | None]:
        output = tmp_path / "card.svg"
        run(runner, *args, "-o", str(output))
        return [text.text for text in ElementTree.parse(output).getroot().iter(f"{SVG}text")]

    assert "Dad's Puzzle" in front_texts("dads-puzzle")
    assert f"{shortest(*DADS)} moves" in front_texts("dads-puzzle")
    assert "Rosa & Ben's <card>" in front_texts("dads-puzzle", "--title", "Rosa & Ben's <card>")
    assert TINY in front_texts(TINY, "--goal", TINY_GOAL)


def test_pdf_has_two_a4_pages_front_and_back(runner: CliRunner, tmp_path: Path) -> None:
    output = tmp_path / "card.pdf"
    run(runner, TINY, "--goal", TINY_GOAL, "-o", str(output))
    data = output.read_bytes()
    assert data.startswith(b"%PDF-")
    # Page objects, not the /Pages tree that lists them.
    assert len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", data)) == 2
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    a4 = (PAGE_WIDTH * 72 / DPI, PAGE_HEIGHT * 72 / DPI)  # points
    assert [(float(width), float(height)) for width, height in boxes] == [a4, a4]
    assert a4 == pytest.approx((595.3, 841.9), abs=0.2)


def test_a_138_move_solution_fits_one_page_and_longer_ones_grow_the_back() -> None:
    layout = card_layout(5, 4, 138)
    across, down = layout.thumbnail_pitch
    assert layout.back_height == PAGE_HEIGHT
    assert layout.per_row * layout.thumbnail_rows >= 139 > layout.per_row * (
        layout.thumbnail_rows - 1)
    assert layout.thumbnails_left >= MARGIN
    assert layout.thumbnails_left + layout.per_row * across - THUMBNAIL_GAP <= (
        PAGE_WIDTH - MARGIN)
    assert BACK_TOP + layout.thumbnail_rows * down - THUMBNAIL_GAP <= PAGE_HEIGHT - MARGIN
    assert layout.thumbnail_cell >= LETTERED_CELL  # still lettered
    longest = card_layout(8, 8, 5000)
    assert longest.back_height > PAGE_HEIGHT
    assert longest.per_row * longest.thumbnail_rows >= 5001


def test_no_solution_is_one_line_exit_1_and_leaves_the_old_file(runner: CliRunner,
                                                                tmp_path: Path) -> None:
    assert reference(TINY, TINY_GOAL, "slide", "length").min_steps() == {}
    output = tmp_path / "card.png"
    output.write_bytes(b"an older card")
    result = run(runner, TINY, "--goal", TINY_GOAL, "--metric", "slide", "--rules", "length",
                 "-o", str(output), code=1)
    assert result.stderr.splitlines() == [f"{TINY}: no solution (its cluster holds no goal)"]
    assert result.stdout == ""
    assert output.read_bytes() == b"an older card"
    assert [path.name for path in tmp_path.iterdir()] == ["card.png"]


@pytest.mark.parametrize(("args", "words"), [
    (("AB./C", "-o", "{dir}/card.png"), "a ragged grid"),
    ((TINY, "--goal", TINY_GOAL, "-o", "{dir}/card.gif"), "must end in .png, .svg or .pdf"),
    ((TINY, "-o", "{dir}/card.svg"), "no goal"),
    (("no-such-puzzle", "-o", "{dir}/card.pdf"), "no-such-puzzle"),
    ((TINY, "--goal", TINY_GOAL, "-o", "{dir}/missing/card.png"), "cannot write"),
])
def test_bad_input_is_one_line_exit_2_and_leaves_nothing(
        runner: CliRunner, tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    result = run(runner, *(arg.format(dir=tmp_path) for arg in args), code=2)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("huarong: error: "), result.stderr
    assert words in lines[0]
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_every_letter_of_centurys_front_is_inked_the_goals_edge_too(
        runner: CliRunner, tmp_path: Path) -> None:
    """Century's I and J lie across the goal's outline, their middles on its edge: around
    each piece's middle the PNG holds pixels of the two colours letters are written in (dark
    on a light piece, light on a dark one), and more of them than of the outline's red."""
    output = tmp_path / "century.png"
    run(runner, "century", "-o", str(output))
    puzzle = load_puzzle("century")
    grid = Grid.read(CENTURY[0])
    layout = card_layout(grid.rows, grid.columns, shortest(*CENTURY))
    colours = piece_colours(puzzle)
    with Image.open(output) as image:
        front = image.convert("RGB")
    half = layout.board_cell // 4
    for letter, cells in grid.pieces(grid.text).items():
        rows = [address // grid.columns + 0.5 for address in cells]
        columns = [address % grid.columns + 0.5 for address in cells]
        centre = (round(layout.board_x + sum(columns) / len(cells) * layout.board_cell),
                  round(layout.board_y + sum(rows) / len(cells) * layout.board_cell))
        box = front.crop((centre[0] - half, centre[1] - half, centre[0] + half,
                          centre[1] + half))
        counts = {colour: count for count, colour in box.getcolors(box.width * box.height)}
        ink = counts.get(TEXT_COLOUR, 0) + counts.get(BACKGROUND, 0)
        assert colours[letter] in counts, letter
        assert ink > max(20, counts.get(GOAL_OUTLINE_COLOUR, 0) // 4), (letter, counts)
