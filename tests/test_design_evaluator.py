"""The Rush Hour design space's evaluator on lane-coded keys (:mod:`huarong.puzzles.lanes`)
against the general engine (``DesignSpace.value``, ``DesignSpace.minimal``) on random
boards of 6x6, 7x7 and 8x8, against a plain breadth-first search on full 7x7 boards (whose
general state codes do not fit 63 bits), and Fogleman's minimality on its kernels against
the test on his notation."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest

from huarong.puzzles.cluster import ClusterTooLarge
from huarong.puzzles.design import Design, DesignSpace, Value, mutate, random_design
from huarong.puzzles.design_evaluate import Evaluator
from huarong.puzzles.grid import WALL, PuzzleError
from huarong.puzzles.lanes import LaneBoard, LaneSearch
from huarong.puzzles.presets.rush_hour import fogleman_minimal
from huarong.puzzles.presets.rush_hour_design import RushHourSpace, rush_hour_space
from huarong.puzzles.tables import TooManyPlacements

from . import puzzle_reference as reference

LIMIT = 20_000


def _lighter(space: RushHourSpace, most: int) -> RushHourSpace:
    """The space with at most ``most`` vehicles of each kind: boards the general engine codes."""
    return dataclasses.replace(space, kinds=tuple(
        dataclasses.replace(kind, high=min(kind.high, most)) for kind in space.kinds))


def _designs(space: DesignSpace, seed: int, count: int) -> Iterator[Design]:
    """``count`` designs of a random walk, as a search meets them."""
    rng = np.random.default_rng(seed)
    design = random_design(space, rng)
    for _ in range(count):
        design = mutate(space, design, rng)
        yield design


@pytest.mark.parametrize(("size", "most", "seed"), [(6, 20, 1), (7, 3, 2), (8, 3, 3)])
def test_lane_values_equal_the_general_engine_s(size: int, most: int, seed: int) -> None:
    space = _lighter(rush_hour_space(size, size), most)
    compared = minimal_compared = 0
    for design in _designs(space, seed, 80):
        try:
            general = DesignSpace.value(space, design, LIMIT)
        except PuzzleError:  # past the limit, or codes past 63 bits: nothing to compare
            continue
        lanes = space.value(design, LIMIT)
        puzzle = space.puzzle(design)
        assert space.grid(design) == puzzle.board.format(puzzle.start)  # without a code
        assert (lanes.length, lanes.states, lanes.solved) == (
            general.length, general.states, general.solved), design
        assert lanes.hardest == general.hardest, design  # without a goal too
        compared += 1
        if general.length > 0 and minimal_compared < 6 and not space.fogleman:
            assert space.minimal(general.hardest, general.length, LIMIT) == \
                DesignSpace.minimal(space, general.hardest, general.length, LIMIT)
            minimal_compared += 1
    assert compared >= 20


def test_every_piece_minimality_equals_the_general_engine_s_on_6x6() -> None:
    """The every-piece test on Fogleman's board (his own test is the space's default): on
    random starts, and on one where every piece matters (``tests/test_rush_hour.py``'s
    ``BBBoooooDoooAADoooooxooooooooooooooo``, 3 moves: the truck, the car, the wall)."""
    space = dataclasses.replace(rush_hour_space(), fogleman=False)
    needed = Design(frozenset({20}), ((0, 12), (2, 0), (3, 8)))
    assert space.value(needed, LIMIT).length == 3
    assert space.minimal(needed, 3, LIMIT) and DesignSpace.minimal(space, needed, 3, LIMIT)
    assert not space.minimal(needed, 2, LIMIT)  # without the wall: 2 moves, not fewer
    tested = 0
    for design in _designs(space, 4, 100):
        value = Evaluator(space, LIMIT).value(design)[0]
        if value.length < 1:
            continue
        assert space.minimal(value.hardest, value.length, LIMIT) == DesignSpace.minimal(
            space, value.hardest, value.length, LIMIT)
        tested += 1
    assert tested >= 10


def test_fogleman_minimality_equals_his_test_on_his_notation() -> None:
    space = rush_hour_space()
    assert space.fogleman
    tested = 0
    for design in _designs(space, 5, 200):
        value = Evaluator(space, LIMIT).value(design)[0]
        if value.length < 1:
            continue
        board = space.grid(value.hardest).replace("/", "").replace(WALL, "x")
        assert space.minimal(value.hardest, value.length, LIMIT) == fogleman_minimal(
            board, value.length)
        tested += 1
    assert tested >= 10


def _reference_profile(space: RushHourSpace, design: Design) -> tuple[int, int, int, Design]:
    """(states, solved states, hardest length, hardest start) by the plain search of
    ``tests.puzzle_reference``; of the farthest states, the first by the general engine's
    code order: class by class (kinds in order), each its anchors largest first."""
    board = space.lane_board(design)
    cells = ["."] * (space.rows * space.columns)
    for wall in board.walls:
        cells[wall] = "#"
    for index, (kind, anchor) in enumerate(design.pieces):
        for cell in space.cells_of(kind, anchor):
            cells[cell] = "A" if kind == 0 else chr(ord("a") + index)
    grid = "/".join("".join(cells[r * space.columns:(r + 1) * space.columns])
                    for r in range(space.rows))
    goal = ["."] * len(cells)
    for cell in space.goal_cells:
        goal[cell] = "A"
    goal_grid = "/".join("".join(goal[r * space.columns:(r + 1) * space.columns])
                         for r in range(space.rows))
    puzzle = reference.reference(grid, goal_grid, "slide", "length", distinct="A")
    steps = puzzle.min_steps()
    hardest = max(steps.values())
    kind_of = {(kind.shape, kind.distinct): k for k, kind in enumerate(space.kinds)}

    def design_of(state: frozenset[reference.Piece]) -> Design:
        return Design(design.walls, tuple(sorted(
            (kind_of[(shape, bool(name))], row * space.columns + column)
            for shape, name, row, column in state)))

    def code_order(found: Design) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(sorted((a for k, a in found.pieces if k == kind), reverse=True))
                     for kind in range(len(space.kinds)))

    farthest = min((design_of(state) for state, moves in steps.items() if moves == hardest),
                   key=code_order)
    solved = sum(moves == 0 for moves in steps.values())
    return len(puzzle.cluster()), solved, hardest, farthest


def test_full_7x7_boards_against_a_plain_search() -> None:
    """Full 7x7 boards, whose general codes do not fit 63 bits: the lane values equal a plain
    breadth-first search's."""
    space = rush_hour_space(7, 7)
    search = LaneSearch()
    compared = 0
    for design in _designs(space, 6, 400):
        board = space.lane_board(design)
        try:
            space.puzzle(design)
        except TooManyPlacements:
            pass
        else:
            continue  # its general code fits: the test above compares those
        assert space.grid(design).count(".") == 49 - len(design.walls) - sum(
            len(space.cells_of(*piece)) for piece in design.pieces)
        try:
            profile = search.profile(board, limit=3_000)
        except ClusterTooLarge:
            continue
        if profile.hardest_length < 0:
            continue
        value = space.value(design, 3_000)
        assert (value.states, value.solved, value.length, value.hardest) == \
            _reference_profile(space, design)
        compared += 1
        if compared == 4:
            break
    assert compared == 4


def test_a_cluster_past_the_limit_is_counted_not_finished() -> None:
    board = LaneBoard(6, 6, frozenset(), ((False, 2, 2, 0), (True, 5, 2, 0)), (1, 2), 4)
    assert LaneSearch().profile(board).states == 5 * 5 - 2  # red car beside or under it
    with pytest.raises(ClusterTooLarge, match="more than 10 states"):
        LaneSearch().profile(board, limit=10)


@pytest.mark.parametrize(("vehicles", "class_end", "problem"), [
    (((False, 2, 2, 0), (False, 2, 2, 1)), (1, 2), "overlaps"),
    (((False, 2, 1, 0),), (1,), "two cells long"),
    (((False, 2, 2, 5),), (1,), "two cells long"),
    (((False, 2, 2, 0), (True, 0, 2, 3)), (2,), "classes"),
])
def test_bad_boards_are_refused_naming_them(vehicles: tuple[tuple[bool, int, int, int], ...],
                                            class_end: tuple[int, ...], problem: str) -> None:
    with pytest.raises(PuzzleError, match=problem):
        LaneBoard(6, 6, frozenset(), vehicles, class_end, 4)


def test_a_general_search_past_its_limit_leaves_its_arrays_fit_for_the_next() -> None:
    """Klotski's start (a cluster of 25,955 states: the database's) searched with a limit of
    1,000 stops; the arrays it leaves for the thread's next search give that one the whole
    cluster."""
    from huarong.puzzles import load_puzzle
    from huarong.puzzles.cluster import cluster_summary

    puzzle = load_puzzle("1A9BF0C00")  # Klotski's start, by its common code
    with pytest.raises(ClusterTooLarge, match="more than 1,000 states"):
        cluster_summary(puzzle, limit=1_000)
    assert cluster_summary(puzzle).states == 25_955


def test_a_cluster_met_again_is_answered_from_memory() -> None:
    """A start in a cluster searched lately gets that cluster's answer without a search
    (nothing more remembered), equal to a fresh search's."""
    space = rush_hour_space()
    design = next(d for d in _designs(space, 7, 200)
                  if Evaluator(space, LIMIT).value(d)[0].length > 0)
    search = LaneSearch()
    first = search.profile(space.lane_board(design))
    remembered = search.recent_states
    other = space.lane_board(space.value(design, LIMIT).hardest)
    again = search.profile(other)
    assert search.recent_states == remembered == first.states
    assert again == LaneSearch().profile(other)
    assert (again.states, again.hardest_length) == (first.states, first.hardest_length)


def test_a_design_met_again_is_answered_without_its_space() -> None:
    """A design the evaluator valued lately is answered from memory, as met, with the value
    the space gave it; a design past the limit is valued again each time (its key is
    itself)."""
    calls: list[Design] = []

    @dataclasses.dataclass(frozen=True)
    class Counted(RushHourSpace):
        def value(self, design: Design, limit: int) -> Value:
            calls.append(design)
            return super().value(design, limit)

    base = rush_hour_space()
    space = Counted(**{field.name: getattr(base, field.name)
                       for field in dataclasses.fields(base)})
    evaluator = Evaluator(space, LIMIT)
    designs = list(_designs(base, 11, 60))
    firsts = [evaluator.value(design) for design in designs]
    remembered: set[Design] = set()
    searched = 0
    for design, (value, _) in zip(designs, firsts, strict=True):
        searched += design not in remembered
        if value.key[0] != "too large":
            remembered.add(design)
    assert remembered and len(calls) == searched
    for design, (value, _) in zip(designs, firsts, strict=True):
        again, seen = evaluator.value(design)
        assert seen
        if design in remembered:
            assert again is evaluator.values[value.key]
            assert again == base.value(design, LIMIT)
    assert len(calls) == searched + sum(design not in remembered for design in designs)
