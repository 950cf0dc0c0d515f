"""The ``difficulty`` column of result files: the model's prediction for a row's start, read
back from the file and compared with the difficulty of that start loaded on its own."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from huarong.puzzles import load_puzzle
from huarong.puzzles.difficulty.model import difficulty
from huarong.puzzles.exhaustive import search
from huarong.puzzles.results import open_search_file, results_table, totals_of

GOAL = "..../..AA/..AA"
"""The goal ``2x2@1,2`` of the search below, as grid text."""


def test_search_file_holds_the_difficulty_of_its_rows(tmp_path: Path) -> None:
    result = search("3x4", "2x2,1x2,1x1*2", "2x2@1,2", "slide")
    result.write(tmp_path / "c.parquet")
    rows = pq.read_table(tmp_path / "c.parquet").to_pylist()
    assert len(rows) == 3
    for row in rows:
        alone = difficulty(load_puzzle(row["start"], GOAL, metric="slide", rules="free"))
        assert row["difficulty"] == pytest.approx(alone.median_seconds, rel=1e-12)
    # The browser still opens the file: the column is one of its own.
    assert open_search_file(tmp_path / "c.parquet").rows == 3


def test_only_the_hardest_rows_get_a_difficulty() -> None:
    result = search("3x4", "2x2,1x2,1x1*2", "2x2@1,2", "slide")
    spec = result.board.spec()
    starts = ["AA../AABB/.CD.", "AA../AAC./D.BB", "AAC./AA../DBB."]
    columns = {"states": [128, 134, 5], "solved": [22, 21, 0], "length": [8, 9, -1],
               "start": starts}
    table = results_table(columns, spec, totals_of(3, 267, None), difficulty_rows=1)
    found = table.column("difficulty").to_pylist()
    # The 9-move row is the hardest; the 8-move one is past the one row asked for.
    assert found[0] is None and found[2] is None
    alone = difficulty(load_puzzle(starts[1], GOAL, metric="slide", rules="free"))
    assert found[1] == pytest.approx(alone.median_seconds, rel=1e-12)
    everything = results_table(columns, spec, totals_of(3, 267, None), difficulty_rows=5)
    # A row without a solved state never gets one.
    assert everything.column("difficulty").to_pylist()[2] is None
    assert everything.column("difficulty").to_pylist()[0] is not None


def test_a_rush_hour_row_with_its_own_goal() -> None:
    start = "BB...C/.....C/AA.D../...D../..EE../......"
    board = "rush:" + start.replace("/", "").replace(".", "o")
    spec = load_puzzle(board).board.spec()
    spec["goal"] = None
    goal = "....../....../....AA/....../....../......"
    columns = {"states": [10], "solved": [1], "length": [3], "start": [start],
               "goal": [goal], "distinct": ["A"]}
    table = results_table(columns, spec, totals_of(1, 10, (3, start)))
    expected = difficulty(load_puzzle(board))
    assert table.column("difficulty").to_pylist() == [
        pytest.approx(expected.median_seconds, rel=1e-12)]


def test_a_full_7x7_rush_hour_row_gets_null_and_the_file_is_written(tmp_path: Path) -> None:
    """A 7x7 board of 21 vehicles has more placements than the general engine's 63-bit
    codes rank (so ``load_puzzle`` refuses it): its row's difficulty is null, and the design
    search's result file is still written, as it was not when the error escaped."""
    from huarong.puzzles.presets.rush_hour_design import rush_hour_space
    from huarong.puzzles.results import write_results
    from huarong.puzzles.tables import TooManyPlacements

    start = "BBBCC.D/EEFFG.D/HIJ.GKL/HIJAAKL/MMNNOOP/QQRRS.P/TTUUS.."
    goal = "......./......./......./.....AA/......./......./......."
    with pytest.raises(TooManyPlacements, match="cannot be ranked in 63 bits"):
        load_puzzle(start, goal, metric="slide", rules="length").tables  # noqa: B018
    columns = {"states": [100], "solved": [1], "length": [10], "start": [start],
               "goal": [goal], "distinct": ["A"]}
    table = results_table(columns, rush_hour_space(7, 7).file_puzzle(),
                          totals_of(1, 100, (10, start)))
    assert table.column("difficulty").to_pylist() == [None]
    write_results(table, tmp_path / "r.parquet")
    assert open_search_file(tmp_path / "r.parquet").rows == 1
