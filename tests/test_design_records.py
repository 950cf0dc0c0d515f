"""The design records on boards the general engine cannot rank (full Rush Hour boards of 7x7
and 8x8, whose placements pass 63-bit codes; docs/design-records.md): each start is the
hardest of its cluster by the lane-coded engine, with the figures the run that found it
printed, and needs every vehicle and wall; the plain-Python search agrees (slow: clusters
of hundreds of thousands of states)."""

from __future__ import annotations

import pytest

from huarong.puzzles.design import MAX_STATES, Design
from huarong.puzzles.presets.rush_hour_design import RushHourSpace, rush_hour_space
from huarong.puzzles.tables import TooManyPlacements

from .test_design_evaluator import _reference_profile

# (board size, start, moves, cluster states) as the runs printed them.
RECORDS = {
    "rush-hour-7x7": (7, "NBBH..I/NJ.HCCI/NJDDKLO/AAM.KLO/EEM.PQO/..#.PQ./FFGGPQ.", 66,
                      388_304),
    "rush-hour-8x8": (8, "BB.HEEES/TI.HCCUS/TIFFFVUS/TAAJKVUL/...JKVML/.GGGNOMP/#QR.NO.P/"
                         ".QR.DD#.", 82, 896_223),
}


def _design_of_grid(space: RushHourSpace, grid: str) -> Design:
    """The design a grid shows: each letter's cells as the kind of that shape (A the red
    car), ``#`` a wall."""
    rows = grid.split("/")
    cells: dict[str, list[int]] = {}
    for row, text in enumerate(rows):
        for column, glyph in enumerate(text):
            cells.setdefault(glyph, []).append(row * space.columns + column)
    pieces = []
    for letter, found in cells.items():
        if letter in ".#":
            continue
        anchor = min(found)
        kinds = [k for k in range(len(space.kinds))
                 if sorted(space.cells_of(k, anchor)) == sorted(found)
                 and (k == 0) == (letter == "A")]
        assert len(kinds) == 1, letter
        pieces.append((kinds[0], anchor))
    return Design(frozenset(cells.get("#", ())), tuple(sorted(pieces)))


def _record(name: str) -> tuple[RushHourSpace, Design, int, int]:
    size, grid, moves, states = RECORDS[name]
    space = rush_hour_space(size, size)
    design = _design_of_grid(space, grid)
    assert space.grid(design) == grid
    return space, design, moves, states


@pytest.mark.parametrize("name", RECORDS)
def test_a_full_board_record_is_its_cluster_s_hardest_start(name: str) -> None:
    space, design, moves, states = _record(name)
    with pytest.raises(TooManyPlacements):
        space.puzzle(design)  # why the catalogue's engine cannot check it
    value = space.value(design, states)
    assert (value.states, value.length, value.hardest) == (states, moves, design)
    # Without a vehicle a cluster grows: the limit the search tested it with.
    assert space.minimal(design, moves, MAX_STATES)


@pytest.mark.slow
def test_the_7x7_record_by_the_plain_search() -> None:
    """Three minutes and several GB.  The 8x8 record's plain search agreed too, once by hand
    (2026-12-07: 6 min 40 s, 17.5 GB, too much for a test)."""
    space, design, moves, states = _record("rush-hour-7x7")
    found_states, _, hardest, farthest = _reference_profile(space, design)
    assert (found_states, hardest, farthest) == (states, moves, design)
