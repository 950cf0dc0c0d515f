"""Ladders by difficulty: a catalogue family ordered by the model's predicted time, checked
against each puzzle's difficulty loaded by its name, and the rungs beside one."""

from __future__ import annotations

from huarong.puzzles import catalogue, load_puzzle, state_graph
from huarong.puzzles.difficulty.ladder import easier_and_harder, family_ladder
from huarong.puzzles.difficulty.model import difficulty

FAMILY = "bickford-4x4"


def test_family_ordered_by_predicted_time() -> None:
    names = [e.name for e in catalogue() if e.family == FAMILY]
    seconds = {name: difficulty(load_puzzle(name)).median_seconds for name in names}
    ladder = family_ladder(FAMILY)
    assert sorted(r.name for r in ladder) == sorted(names)
    assert [r.median_seconds for r in ladder] == sorted(seconds.values())
    for rung in ladder:
        assert rung.median_seconds == seconds[rung.name]
    easier, harder = easier_and_harder(ladder, ladder[1].name)
    assert (easier, harder) == (ladder[0], ladder[2])
    assert easier_and_harder(ladder, ladder[0].name)[0] is None
    assert easier_and_harder(ladder, ladder[-1].name)[1] is None
    assert easier_and_harder(ladder, "no-such-puzzle") == (None, None)


def test_puzzles_past_the_limit_are_left_out() -> None:
    sizes = {e.name: state_graph(e.puzzle).size for e in catalogue() if e.family == FAMILY}
    limit = sorted(sizes.values())[len(sizes) // 2]
    kept = {r.name for r in family_ladder(FAMILY, limit)}
    assert kept == {name for name, size in sizes.items() if size <= limit}
