"""Rush Hour boards beyond the general engine's 63-bit codes (:mod:`huarong.puzzles.lane_puzzle`):
``cluster_summary``, ``solve`` and ``solution_length`` answer from the lane engine what the
general engine answers on the boards both take (random 6x6 and light 7x7 boards), each
solution replayed move by move on the grid; the full 7x7 and 8x8 design records give the
figures of ``tests/test_design_records.py``; the tools that need the general engine's codes
refuse such a board in one line."""

from __future__ import annotations

import dataclasses
import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from huarong.puzzles import (
    Puzzle,
    catalogue_entry,
    cluster_summary,
    load_puzzle,
    solve,
)
from huarong.puzzles.cluster import ClusterTooLarge, solution_length
from huarong.puzzles.grid import Grid
from huarong.puzzles.lane_puzzle import LanePuzzle, lane_puzzle
from huarong.puzzles.presets.rush_hour_design import rush_hour_space
from huarong.puzzles.puzzle import read_board
from huarong.puzzles.tables import TooManyPlacements

from .test_design_evaluator import _designs, _lighter
from .test_design_records import RECORDS

LIMIT = 20_000
CATALOGUE = {"rush-hour-7x7": "design-rush-hour-7x7-full",
             "rush-hour-8x8": "design-rush-hour-8x8"}


def _goal_grid(rows: int, columns: int) -> str:
    """The red car A at the right edge of row (rows - 1) // 2: the design records' goal."""
    cells = ["."] * (rows * columns)
    row = (rows - 1) // 2
    cells[row * columns + columns - 2] = cells[row * columns + columns - 1] = "A"
    return "/".join("".join(cells[r * columns:(r + 1) * columns]) for r in range(rows))


def _both(grid: str, goal: str, metric: str) -> tuple[Puzzle, LanePuzzle]:
    """The general engine's puzzle of ``grid`` and the lane puzzle of the same board."""
    general = load_puzzle(grid, goal, rules="length", metric=metric, distinct="A")
    lanes = lane_puzzle(*read_board(grid, goal=goal, rules="length", metric=metric,
                                    distinct={"A"}))
    assert lanes is not None
    return general, lanes


def _replay(path: list[str], moves: list[tuple[str, str, int]], goal: str,
            unit: bool) -> None:
    """Each move, by the rules on the grid alone: one piece slides along its length by
    ``distance`` cells over empty cells (one with ``unit``), its letter kept, nothing else
    changes; the last grid covers the goal's cells with the goal's letter."""
    offsets = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
    for (before, after), (letter, direction, distance) in zip(itertools.pairwise(path),
                                                              moves, strict=True):
        old, new = Grid.read(before), Grid.read(after)
        columns = old.columns
        cells = [i for i, glyph in enumerate(old.cells) if glyph == letter]
        rows_of = {i // columns for i in cells}
        along_rows = len(rows_of) == 1  # a horizontal vehicle
        dr, dc = offsets[direction]
        assert (dc != 0) == along_rows and distance >= 1 and (distance == 1 or not unit)
        moved = []
        for cell in cells:
            row, column = divmod(cell, columns)
            moved.append((row + dr * distance) * columns + column + dc * distance)
        swept = {(divmod(c, columns)[0] + dr * k) * columns + divmod(c, columns)[1] + dc * k
                 for c in cells for k in range(1, distance + 1)} - set(cells)
        assert all(old.cells[c] == "." for c in swept), (before, letter, direction)
        expected = list(old.cells)
        for cell in cells:
            expected[cell] = "."
        for cell in moved:
            expected[cell] = letter
        assert "".join(expected) == new.cells, (before, after)
    final = Grid.read(path[-1]).cells
    assert all(final[i] == glyph for i, glyph in enumerate(Grid.read(goal).cells)
               if glyph.isalpha())


@pytest.mark.parametrize(("size", "most", "seed", "metric"),
                         [(6, 20, 11, "slide"), (6, 20, 12, "unit"), (6, 20, 14, "step"),
                          (7, 3, 13, "slide")])
def test_the_lane_puzzle_answers_as_the_general_engine(size: int, most: int, seed: int,
                                                       metric: str) -> None:
    space = _lighter(rush_hour_space(size, size), most)
    goal = _goal_grid(size, size)
    compared = 0
    for design in _designs(space, seed, 60):
        grid = space.grid(design)
        general, lanes = _both(grid, goal, metric)
        try:
            expected = cluster_summary(general, limit=LIMIT)
        except ClusterTooLarge:
            continue
        found = cluster_summary(lanes)
        assert (found.states, found.solved, found.hardest_length, found.hardest_start) == (
            expected.states, expected.solved, expected.hardest_length,
            expected.hardest_start), grid
        solution, optimal = solve(lanes), solve(general)
        assert (solution is None) == (optimal is None)
        if solution is not None and optimal is not None:
            assert solution.length == optimal.length == solution_length(lanes)
            assert solution.path[0] == grid
            _replay(solution.path, [(m.piece, m.direction, m.distance) for m in solution.moves],
                    goal, metric == "unit")
        compared += 1
    assert compared >= 20


@pytest.mark.parametrize("record", list(RECORDS))
def test_a_full_board_record_gives_its_figures_by_the_catalogue(record: str) -> None:
    """The records' figures come from the design records' test (the lane engine in the
    design search, and a plain search); here through the catalogue's entry, as ``huarong
    puzzle cluster`` and ``solve`` read it."""
    _, grid, moves, states = RECORDS[record]
    puzzle = catalogue_entry(CATALOGUE[record]).puzzle
    assert isinstance(puzzle, LanePuzzle) and puzzle.grid == grid
    with pytest.raises(TooManyPlacements):
        puzzle.tables  # noqa: B018 -- the general engine cannot code it
    summary = cluster_summary(puzzle)
    assert (summary.states, summary.hardest_length, summary.hardest_start) == (
        states, moves, grid)
    solution = solve(puzzle)
    assert solution is not None and solution.length == moves
    _replay(solution.path, [(m.piece, m.direction, m.distance) for m in solution.moves],
            puzzle.goal or "", unit=False)


def test_the_7x7_record_without_a_distinct_red_car_fits_the_general_engine() -> None:
    """Without the red car told apart from the other cars across (the goal row holds no
    other), the 7x7 record's codes fit 63 bits: the general engine's own search agrees."""
    _, grid, moves, states = RECORDS["rush-hour-7x7"]
    general = load_puzzle(grid, _goal_grid(7, 7), rules="length", metric="slide")
    assert not isinstance(general, LanePuzzle)
    summary = cluster_summary(general)
    assert (summary.states, summary.hardest_length, summary.hardest_start) == (
        states, moves, grid)


def test_options_keep_a_lane_puzzle_or_give_the_general_engine_s_refusal() -> None:
    puzzle = load_puzzle(CATALOGUE["rush-hour-7x7"])
    unit = puzzle.with_options(metric="unit")
    assert isinstance(unit, LanePuzzle) and unit.lanes.unit and unit.name == puzzle.name
    with pytest.raises(TooManyPlacements, match="cannot be ranked in 63 bits"):
        puzzle.with_options(rules="free")
    with pytest.raises(ClusterTooLarge, match="more than 1,000 states"):
        cluster_summary(puzzle, limit=1_000)
    assert dataclasses.replace(puzzle, name=None).grid == puzzle.grid


def test_a_full_board_with_a_goal_the_lane_engine_cannot_take_is_refused_naming_it() -> None:
    _, grid, _, _ = RECORDS["rush-hour-8x8"]
    goal = _goal_grid(8, 8)
    with pytest.raises(TooManyPlacements, match="one vehicle, alone of its class") as refused:
        load_puzzle(grid, goal, rules="length", metric="slide")  # A one of many cars across
    assert refused.value.text == goal
    with pytest.raises(TooManyPlacements):
        load_puzzle(grid, goal, rules="free", metric="slide", distinct="A")


@pytest.mark.parametrize("command", [["analyze"], ["difficulty"], ["graph", "-o", "g.graphml"],
                                     ["draw", "-o", "g.png"]])
def test_the_tools_that_need_the_general_graph_refuse_in_one_line(command: list[str],
                                                                  tmp_path: Path) -> None:
    """Exit status 2 and one line naming the board, no traceback, nothing written."""
    name = CATALOGUE["rush-hour-7x7"]
    done = subprocess.run([sys.executable, "-m", "huarong", "puzzle", command[0], name, "-q",
                           *command[1:]], capture_output=True, text=True, cwd=tmp_path,
                          check=False)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "7x7 board of pieces" in lines[0] and "63 bits" in lines[0]
    assert not list(tmp_path.iterdir())


def test_the_cli_prints_the_cluster_and_solution_of_a_full_board() -> None:
    _, grid, moves, states = RECORDS["rush-hour-7x7"]
    name = CATALOGUE["rush-hour-7x7"]
    cluster = subprocess.run([sys.executable, "-m", "huarong", "puzzle", "group", name, "-q"],
                             capture_output=True, text=True, check=True).stdout
    assert cluster.splitlines()[:3] == [f"states: {states:,}", "solved: 28,780",
                                        f"hardest: {moves} moves from"]
    assert "/".join(cluster.splitlines()[3:]) == grid
    solved = subprocess.run([sys.executable, "-m", "huarong", "puzzle", "solve", name, "-q"],
                            capture_output=True, text=True, check=True).stdout.splitlines()
    assert solved[0] == f"{moves} moves (slide metric, length rules)"
    assert sum(line.startswith("-- ") for line in solved) == moves


def test_a_full_board_typed_on_the_command_line_takes_its_red_car_by_distinct() -> None:
    """The 8x8 record as grid text: with ``--distinct A`` it is solved in its moves; without,
    its red car is one of many cars across and the board is refused in one line."""
    _, grid, moves, _ = RECORDS["rush-hour-8x8"]
    typed = [sys.executable, "-m", "huarong", "puzzle", "solve", grid, "--goal",
             _goal_grid(8, 8), "--rules", "length", "--metric", "slide", "-q"]
    solved = subprocess.run([*typed, "--distinct", "A"], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    assert solved[0] == f"{moves} moves (slide metric, length rules)"
    refused = subprocess.run(typed, capture_output=True, text=True, check=False)
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "one vehicle, alone of its class" in refused.stderr


@pytest.mark.parametrize("route", ["solve", "cluster", "difficulty"])
def test_the_api_refuses_a_full_board_in_one_line(route: str) -> None:
    """The API's answers come from the general engine's state graph: a full board is a bad
    query there (400), said in one line naming it."""
    from huarong.web.app import create_app
    from tests.patient_client import PatientClient

    from .test_puzzles_api import get

    client = PatientClient(create_app(Path(__file__).parent / "no-such-database.duckdb"))
    refused = get(client, f"/api/puzzles/{route}", 400, start="design-rush-hour-8x8")
    assert "\n" not in refused["error"] and "63 bits" in refused["error"]
    assert refused["input"] == "design-rush-hour-8x8"
