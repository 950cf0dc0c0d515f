"""Free shapes in ``--pieces`` (``any1-3``: any polyomino of 1 to 3 cells, with counts or
ranges): the polyominoes against their known numbers, the design search against the
exhaustive search of every set of pieces the spec allows, and ranges past what the board
holds cut to it."""

from __future__ import annotations

import itertools

import pytest
from click.testing import CliRunner

from huarong.cli.puzzle_design import design as command
from huarong.puzzles import PuzzleError
from huarong.puzzles.design_search import Budget, design
from huarong.puzzles.design_spaces import space_of
from huarong.puzzles.exhaustive import search
from huarong.puzzles.grid import rectangle
from huarong.puzzles.specs import parse_design_pieces, polyominoes


def test_polyominoes_are_the_fixed_polyominoes() -> None:
    """OEIS A001168: 1, 2, 6, 19, 63, 216 fixed polyominoes of 1 to 6 cells; each one
    connected, in its bounding box's corner, and told apart from the others."""
    assert [len(polyominoes(cells)) for cells in range(1, 7)] == [1, 2, 6, 19, 63, 216]
    for shape in polyominoes(4):
        assert min(r for r, _ in shape) == 0 and min(c for _, c in shape) == 0
        assert list(shape) == sorted(set(shape))
        reached = {shape[0]}
        for _ in shape:
            reached |= {cell for cell in shape for r, c in reached
                        if abs(cell[0] - r) + abs(cell[1] - c) == 1}
        assert reached == set(shape)


def _exhaustive_hardest(cells: str, pieces: str, goal: str, metric: str) -> int:
    """The hardest length of every set of pieces the spec allows, each by the exhaustive
    search."""
    rows, columns = (int(n) for n in cells.split("x"))
    ranges, groups = parse_design_pieces(pieces, rows, columns, rows * columns)
    ((shapes, low, high),) = groups
    fixed = [(shape, fewest) for shape, fewest, _ in ranges if shape not in shapes]
    best = -1
    for number in range(low, high + 1):
        for chosen in itertools.combinations_with_replacement(shapes, number):
            counts = fixed + [(shape, chosen.count(shape)) for shape in set(chosen)]
            if sum(len(shape) * count for shape, count in counts) > rows * columns:
                continue
            hardest = search(cells, counts, goal, metric).totals()["hardest"]
            best = max(best, -1 if hardest is None else hardest["length"])
    return best


@pytest.mark.parametrize(("cells", "pieces", "goal", "metric"), [
    ("3x4", "1x2,any1-3*1-3", "1x2@2,2", "step"),
    ("4x4", "2x2,any1-2*2-5", "2x2@2,2", "slide"),
])
def test_free_shapes_find_the_exhaustive_hardest(cells: str, pieces: str, goal: str,
                                                 metric: str) -> None:
    truth = _exhaustive_hardest(cells, pieces, goal, metric)
    found = design(space_of(cells, pieces, goal, metric=metric), Budget(evaluations=800),
                   minimal=False, method="elites")
    assert found.summary()["length"] == truth


def test_named_shapes_keep_their_counts() -> None:
    """``2x2,any1-4``: the 2x2 named once is the goal piece alone, the free shapes are the
    other polyominoes of 1 to 4 cells (1 + 2 + 6 + 19 - 1) that fit a 4x5 board."""
    ranges, groups = parse_design_pieces("2x2,any1-4", 5, 4, 20)
    assert not groups
    square = [r for r in ranges if r[0] == rectangle(2, 2)]
    assert square == [(rectangle(2, 2), 1, 1)]
    assert len(ranges) == 1 + 27
    assert all(max(r for r, _ in shape) < 5 and max(c for _, c in shape) < 4
               for shape, _, _ in ranges)


def test_ranges_past_the_board_are_cut_to_it() -> None:
    """A 4x4 board holds a 2x2 and 12 unit squares: ``1x1*0-999999`` is 0-12."""
    ranges, _ = parse_design_pieces("2x2,1x1*0-999999", 4, 4, 16)
    assert ranges[1] == (rectangle(1, 1), 0, 12)
    _, groups = parse_design_pieces("2x2,any1-2*0-999", 4, 4, 16)
    assert groups[0][1:] == (0, 12)
    with pytest.raises(PuzzleError, match="cover 20 cells"):
        parse_design_pieces("2x2,1x1*16", 4, 4, 16)


@pytest.mark.parametrize("pieces", ["2x2,any0-2", "2x2,any1-9", "2x2,any1-2,any2-3",
                                    "2x2,any3*5-2", "2x2,any1*13"])
def test_bad_free_shapes_exit_2_in_one_line(pieces: str) -> None:
    answer = CliRunner().invoke(command, ["--board", "4x4", "--pieces", pieces,
                                          "--goal", "2x2@2,2"])
    assert answer.exit_code == 2, answer.output
    assert len(answer.output.strip().splitlines()) == 1, answer.output


def test_a_used_up_space_ends() -> None:
    """A 2x2 and unit squares on a 3x3 board hold a handful of clusters: the run ends long
    before its budget, saying so, with the exhaustive answer."""
    truth = max(search("3x3", f"2x2,1x1*{units}" if units else "2x2", "2x2@1,1",
                       "slide").totals()["hardest"]["length"] for units in range(0, 6))
    found = design(space_of("3x3", "2x2,1x1*0-99", "2x2@1,1", metric="slide"),
                   Budget(evaluations=1_000_000), minimal=False)
    assert found.used_up and found.evaluations < 10_000
    assert found.summary()["length"] == truth
