"""``huarong draw``: the picture's size and colours checked with Pillow, the SVG's elements,
and bad input answered with one line and exit status 2."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from huarong.cli import main
from huarong.engine.layout import Layout
from huarong.graph.picture import pixel_positions
from huarong.space.explorer import Explorer
from tests import klotski_reference as reference
from tests.test_explorer_data import reference_min_steps, solvable_small_group

pytestmark = pytest.mark.big_memory

VIRIDIS_LOW = (68, 1, 84)
VIRIDIS_HIGH = (253, 231, 37)
"""The ends of the viridis colour map (matplotlib's published values)."""
RED = (228, 0, 43)


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("HUARONG_DB", str(tmp_path / "absent.duckdb"))
    monkeypatch.setenv("HUARONG_EXPLORER_CACHE", str(tmp_path / "cache"))
    return CliRunner()


def small_group() -> dict[int, int]:
    """The minimum steps of each layout (by code) of a small solvable group."""
    return reference_min_steps(reference.distances(
        reference.from_grid(Layout(solvable_small_group()).grid())))


def goal_of_small_group() -> tuple[str, int]:
    """A goal layout of a small solvable group, and the group's size (by the reference)."""
    steps = small_group()
    return f"{min(code for code, n in steps.items() if n == 0):09X}", len(steps)


def draw_png(runner: CliRunner, code: str, output: Path, *options: str
             ) -> tuple[Image.Image, np.ndarray]:
    """Draw the group of ``code``; the image and its RGB pixels."""
    result = runner.invoke(main, ["draw", code, "-o", str(output), *options])
    assert result.exit_code == 0, result.output
    image = Image.open(output)
    return image, np.asarray(image.convert("RGB"))


def start_colour(pixels: np.ndarray, code: str, cache: Path) -> tuple[int, ...]:
    """The colour of the start's own dot, inside its red ring."""
    view = Explorer(None, cache).view(Layout.parse(code))
    height, width, _ = pixels.shape
    x, y = pixel_positions(view.placed.positions, width, height)[view.start].tolist()
    ring = pixels[int(y) - 12:int(y) + 13, int(x) - 12:int(x) + 13]
    assert (ring == RED).all(axis=2).sum() >= 8  # the ring is there
    return tuple(pixels[int(y), int(x)].tolist())


def test_png_has_the_size_asked_and_colours_the_goal_viridis_low(runner: CliRunner,
                                                                 tmp_path: Path) -> None:
    goal, _ = goal_of_small_group()
    image, pixels = draw_png(runner, goal, tmp_path / "group.png", "--size", "640x400")
    assert image.format == "PNG" and image.size == (640, 400)
    # The start is a goal (minimum steps 0): the low end of the map.
    assert start_colour(pixels, goal, tmp_path / "cache") == VIRIDIS_LOW
    # The legend's bar runs from one end of viridis to the other.
    colours = {tuple(p) for p in pixels.reshape(-1, 3).tolist()}
    assert VIRIDIS_HIGH in colours and VIRIDIS_LOW in colours


def test_the_farthest_from_a_goal_is_high_by_min_steps_and_low_by_distance(
        runner: CliRunner, tmp_path: Path) -> None:
    steps = small_group()
    farthest = f"{max(steps, key=lambda code: (steps[code], -code)):09X}"
    cache = tmp_path / "cache"
    image, pixels = draw_png(runner, farthest, tmp_path / "steps.png")
    assert image.size == (1200, 800)
    assert start_colour(pixels, farthest, cache) == VIRIDIS_HIGH
    _, pixels = draw_png(runner, farthest, tmp_path / "distance.png", "--color", "distance")
    assert start_colour(pixels, farthest, cache) == VIRIDIS_LOW


def test_svg_has_a_dot_per_layout(runner: CliRunner, tmp_path: Path) -> None:
    goal, size = goal_of_small_group()
    output = tmp_path / "group.svg"
    result = runner.invoke(main, ["draw", goal, "-o", str(output), "--size", "500x300"])
    assert result.exit_code == 0, result.output
    root = ElementTree.parse(output).getroot()
    assert (root.get("width"), root.get("height")) == ("500", "300")
    circles = root.findall("{http://www.w3.org/2000/svg}circle")
    assert len(circles) == size + 1  # and the ring around the start
    assert sum(circle.get("fill") == "#440154" for circle in circles) >= 1


def test_basin_colouring_marks_the_cut_vertices_networkx_finds(runner: CliRunner,
                                                               tmp_path: Path) -> None:
    import networkx

    goal, size = goal_of_small_group()
    reference_graph = networkx.Graph()
    for state in reference.distances(reference.from_grid(Layout(solvable_small_group()).grid())):
        for neighbour in reference.steps_from(state):
            reference_graph.add_edge(state, neighbour)
    cut_vertices = len(list(networkx.articulation_points(reference_graph)))
    bridges = len(list(networkx.bridges(reference_graph)))
    assert cut_vertices and bridges  # the group has both, so the marks are tested
    output = tmp_path / "basins.svg"
    result = runner.invoke(main, ["draw", goal, "-o", str(output), "--color", "basin"])
    assert result.exit_code == 0, result.output
    root = ElementTree.parse(output).getroot()
    circles = root.findall("{http://www.w3.org/2000/svg}circle")
    assert len(circles) == size + cut_vertices + 1
    assert sum(circle.get("fill") == "rgb(0, 0, 0)" for circle in circles) == cut_vertices
    marked = [path for path in root.findall("{http://www.w3.org/2000/svg}path")
              if path.get("stroke") == "rgb(0, 0, 0)"]
    assert sum(len(path.get("d", "").split("M")) - 1 for path in marked) == bridges


@pytest.mark.parametrize(("arguments", "named"), [
    (["1A9BF0C00", "-o", "{tmp}/x.gif"], "x.gif"),
    (["1A9BF0C00", "-o", "{tmp}/x.png", "--size", "1200x"], "1200x"),
    (["1A9BF0C00", "-o", "{tmp}/x.png", "--size", "100x100"], "100x100"),
    (["1A9BF0C01", "-o", "{tmp}/x.png"], "1A9BF0C01"),
    (["1A9BF0C00", "-o", "{tmp}/x.png", "--color", "red"], "red"),
    (["1A9BF0C00", "-o", "{tmp}/missing/x.png"], "missing"),
])
def test_bad_input_is_one_line_and_exit_2(runner: CliRunner, tmp_path: Path,
                                          arguments: list[str], named: str) -> None:
    result = runner.invoke(main, ["draw", *(a.format(tmp=tmp_path) for a in arguments)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and "error" in lines[0]
    assert not list(tmp_path.glob("**/x.*"))
