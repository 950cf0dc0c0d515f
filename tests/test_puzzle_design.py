"""The design search (huarong puzzle design) on boards small enough to enumerate: it finds
the hardest length the exhaustive search finds, its minimal starts pass a brute force of
every piece removed (the plain-Python reference), one seed gives one answer, a stopped run
resumes, and what it writes plays."""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from huarong.cli.puzzle_design import design as command
from huarong.puzzles import PuzzleError, load_puzzle, solve
from huarong.puzzles.design import random_design
from huarong.puzzles.design_evaluate import Evaluator
from huarong.puzzles.design_search import Budget, design
from huarong.puzzles.design_spaces import rush_hour_space, space_of, space_of_puzzle
from huarong.puzzles.exhaustive import search
from huarong.puzzles.results import open_search_file

from .puzzle_reference import reference

CASES = [
    ("3x3", "2x1,1x2,1x1*2", "1x2@2,1"),
    ("3x4", "2x2,1x2,1x1*2", "2x2@1,2"),
    ("#.../..../...#", "1x2*2,2x1,1x1", "2x1@0,3"),
    ("4x4", "2x2,1x2,2x1,1x1*3", "2x2@2,2"),
]


@pytest.mark.parametrize(("metric", "rules"), [("unit", "free"), ("slide", "free"),
                                               ("step", "free"), ("slide", "length")])
@pytest.mark.parametrize(("cells", "pieces", "goal"), CASES)
def test_design_finds_the_exhaustive_hardest(cells: str, pieces: str, goal: str, metric: str,
                                             rules: str) -> None:
    truth = search(cells, pieces, goal, metric, rules).totals()["hardest"]
    found = design(space_of(cells, pieces, goal, metric=metric, rules=rules),
                   Budget(evaluations=400), minimal=False).summary()
    assert found["length"] == (None if truth is None else truth["length"])


def test_ranges_find_the_hardest_of_every_count() -> None:
    """With ranges of pieces the answer is the hardest of the searches of each count."""
    truth = max(search("3x3", f"2x2,1x1*{units},1x2*{dominoes}" if dominoes else
                       f"2x2,1x1*{units}", "2x2@1,1", "slide").totals()["hardest"]["length"]
                for units, dominoes in itertools.product(range(1, 5), range(2))
                if 4 + units + 2 * dominoes <= 8)
    found = design(space_of("3x3", "2x2,1x1*1-4,1x2*0-1", "2x2@1,1", metric="slide"),
                   Budget(evaluations=600), minimal=False).summary()
    assert found["length"] == truth


def test_minimality_agrees_with_a_brute_force() -> None:
    """Whether every piece of a start matters (without any one piece but the goal piece, it
    is solved in fewer moves) agrees with the reference's breadth-first searches, on random
    starts (where pieces often do not matter); a minimal run keeps only minimal starts."""
    space = space_of("4x4", "2x2,1x2*0-1,1x1*0-4", "2x2@2,2", metric="slide")
    evaluator = Evaluator(space)
    rng = np.random.default_rng(5)
    verdicts = set()
    for _ in range(25):
        start_design = random_design(space, rng)
        start, goal = evaluator.grid(start_design), evaluator.goal(start_design)
        length = _moves(start, goal)
        if length is None:
            continue
        goal_letter = next(glyph for glyph in goal if glyph.isalpha())
        brute = all((_moves(start.replace(letter, "."), goal) or 0) < length
                    for letter in set(start) - {".", "#", "/", goal_letter})
        assert evaluator.minimal(start_design, length) == brute, start
        verdicts.add(brute)
    assert verdicts == {True, False}
    kept = design(space, Budget(evaluations=200), keep=60)
    assert kept.rows and all(
        kept.evaluator.minimal(row.value.hardest, row.value.length) for row in kept.rows)


def _moves(start: str, goal: str) -> int | None:
    puzzle = reference(start, goal, metric="slide")
    return puzzle.min_steps().get(puzzle.start)


def test_one_seed_one_answer() -> None:
    space = space_of("4x4", "2x2,1x2*0-2,2x1*0-2,1x1*0-3", "2x2@2,2")
    first, second = (design(space, Budget(evaluations=150), seed=7).summary()
                     for _ in range(2))
    other = design(space, Budget(evaluations=150), seed=8)
    for answer in (first, second):
        answer.pop("seconds")
    assert first == second
    assert other.evaluations == first["evaluations"] == 150


def test_a_stopped_run_resumes_to_the_same_answer(tmp_path: Path) -> None:
    """Ctrl-C (a KeyboardInterrupt from the progress callback, at the first report with
    some evaluations made, or at the last report if the run ends first) stops the chain,
    saves it, and the same run resumes to the answer of a run never stopped."""
    space = space_of("4x4", "2x2,1x2*0-2,2x1*0-2,1x1*0-3", "2x2@2,2")
    budget = Budget(evaluations=1500)
    whole = design(space, budget, seed=3)
    checkpoint = tmp_path / "run.checkpoint"
    interrupted = False

    def interrupt(phase: str, done: int, total: int) -> None:
        nonlocal interrupted
        if done and not interrupted:
            interrupted = True
            raise KeyboardInterrupt

    stopped = design(space, budget, seed=3, checkpoint=checkpoint, progress=interrupt)
    assert stopped.stopped and checkpoint.is_dir() and stopped.evaluations <= 1500
    resumed = design(space, budget, seed=3, checkpoint=checkpoint)
    assert not checkpoint.exists() and resumed.evaluations == 1500
    assert [(r.value.key, r.value.length) for r in resumed.rows] == [
        (r.value.key, r.value.length) for r in whole.rows]
    other = tmp_path / "other.checkpoint"
    interrupted = False
    design(space, budget, seed=3, checkpoint=other, progress=interrupt)
    with pytest.raises(PuzzleError, match="checkpoint of another search"):
        design(space, Budget(evaluations=200), seed=3, checkpoint=other)


def test_what_it_writes_plays(tmp_path: Path) -> None:
    """The result file's rows, played by the engine with their own goal and distinct piece,
    have the rows' lengths; the command's JSON names the best."""
    target = tmp_path / "rush.parquet"
    answer = CliRunner().invoke(command, ["--preset", "rush-hour", "--board", "5x5",
                                          "--budget", "200", "--threads", "1", "-q",
                                          "--json", "-o", str(target)])
    assert answer.exit_code == 0, answer.output
    best = json.loads(answer.stdout)
    assert set(best) == {"length", "start", "states", "evaluations", "clusters", "seconds"}
    opened = open_search_file(target)
    rows = opened.page(0, 5).rows
    assert rows[0]["length"] == best["length"] and rows[0]["start"] == best["start"]
    for row in rows:
        played = load_puzzle(row["start"], row["goal"], rules=opened.puzzle["rules"],
                             metric=opened.puzzle["metric"], distinct=row["distinct"])
        solution = solve(played)
        assert solution is not None and solution.length == row["length"]


def test_rush_hour_space_keeps_fogleman_s_lanes() -> None:
    space = rush_hour_space()
    result = design(space, Budget(evaluations=40))
    for row in result.rows:
        grid = result.evaluator.grid(row.value.hardest).split("/")
        red = grid[2]
        assert red.count("#") <= 2 and all(len(set(line) - {"."}) for line in grid)
        assert sum(line.count("#") for line in grid) <= 2


@pytest.mark.parametrize("arguments", [
    ["--board", "3x3", "--pieces", "2x2,T", "--goal", "2x2@0,0"],
    ["--board", "3x3", "--pieces", "2x2", "--goal", "1x1@0,0"],
    ["--board", "3x3", "--pieces", "2x2"],
    ["--board", "3x3", "--pieces", "2x2", "--goal", "2x2@0,0", "--budget", "soon"],
    ["--board", "3x3", "--pieces", "2x2", "--goal", "2x2@0,0", "--walls", "3-1"],
    ["--board", "3x3", "--pieces", "2x2", "--goal", "2x2@0,0", "-o", "out.csv"],
    ["--preset", "rush-hour", "--pieces", "1x2"],
    ["--board", "3x3", "--pieces", "2x2", "--goal", "2x2@0,0", "--empty", "4-2"],
    ["--board", "3x3", "--pieces", "2x2", "--goal", "2x2@0,0", "--empty", "0"],
    ["--board", "3x3", "--pieces", "2x2", "--goal", "2x2@0,0", "--cluster",
     "tcp://127.0.0.1:9"],
])
def test_bad_specifications_exit_2_in_one_line(arguments: list[str]) -> None:
    answer = CliRunner().invoke(command, arguments)
    assert answer.exit_code == 2
    assert len(answer.output.strip().splitlines()) == 1, answer.output


def test_climbing_finds_the_exhaustive_hardest_too() -> None:
    """The second method (never to an easier cluster), on the 4x4 case of every metric."""
    cells, pieces, goal = CASES[3]
    for metric in ("unit", "slide", "step"):
        truth = search(cells, pieces, goal, metric).totals()["hardest"]["length"]
        found = design(space_of(cells, pieces, goal, metric=metric), Budget(evaluations=400),
                       minimal=False, method="climb").summary()
        assert found["length"] == truth, metric


def test_a_target_ends_every_chain() -> None:
    """Once a chain finds a start of the target length the run ends: both chains stop long
    before their budget, with the exhaustive answer."""
    cells, pieces, goal = CASES[3]
    truth = search(cells, pieces, goal, "slide").totals()["hardest"]["length"]
    found = design(space_of(cells, pieces, goal, metric="slide"),
                   Budget(evaluations=1_000_000), chains=2, minimal=False, target=truth)
    assert found.summary()["length"] == truth and found.evaluations < 100_000


def test_starts_leave_as_many_cells_empty_as_asked() -> None:
    space = dataclasses.replace(space_of("4x4", "2x2,1x2*0-4,2x1*0-4,1x1*0-6", "2x2@2,2"),
                                empty=(2, 2))
    rng = np.random.default_rng(3)
    evaluator = Evaluator(space)
    for _ in range(20):
        assert evaluator.grid(random_design(space, rng)).count(".") == 2
    result = design(space, Budget(evaluations=150), minimal=False)
    assert result.rows and all(result.evaluator.grid(row.value.hardest).count(".") == 2
                               for row in result.rows)
    with pytest.raises(PuzzleError, match="leaves 13-13 cells empty"):
        dataclasses.replace(space, empty=(13, 13))


def test_clusters_past_the_limit_are_not_valued() -> None:
    """With a limit of 40 states no row holds a larger cluster, though the space has many
    (the same run without the limit finds some)."""
    space = space_of("4x4", "2x2,1x2*0-2,1x1*0-3", "2x2@2,2")
    limited = design(space, Budget(evaluations=150), minimal=False, max_states=40)
    assert limited.rows and max(row.value.states for row in limited.rows) <= 40
    free = design(space, Budget(evaluations=150), minimal=False)
    assert max(row.value.states for row in free.rows) > 40


def test_a_full_puzzle_starts_from_its_own_start() -> None:
    """Pieces that fill all but two cells (Century's) rarely pack at random: the chains
    begin from changes of the puzzle's own start, every one a start of those pieces."""
    space = space_of_puzzle(load_puzzle("century"))
    rng = np.random.default_rng(1)
    evaluator = Evaluator(space)
    for _ in range(10):
        start = random_design(space, rng, tries=0)
        assert space.valid(start) and evaluator.grid(start).count(".") == 2
    without = dataclasses.replace(space, example=None)
    with pytest.raises(PuzzleError, match="no start of these pieces fits"):
        random_design(without, rng, tries=0)


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    """The address of a Dask scheduler with two worker threads in this process."""
    import distributed

    with distributed.LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0",
            silence_logs=40) as local:
        yield local.scheduler_address


def test_chains_on_a_dask_cluster_find_the_hardest(dask_scheduler: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A chain a worker thread, in rounds (shortened here), each round's state sent back:
    the exhaustive answer, the budget's evaluations, and the command line the same."""
    import huarong.puzzles.design_search as design_search

    monkeypatch.setattr(design_search, "ROUND_SECONDS", 0.5)
    cells, pieces, goal = CASES[3]
    truth = search(cells, pieces, goal, "step").totals()["hardest"]["length"]
    found = design(space_of(cells, pieces, goal), Budget(evaluations=400), chains=None,
                   minimal=False, cluster=dask_scheduler)
    assert found.summary()["length"] == truth and found.evaluations == 400
    answer = CliRunner().invoke(command, ["--board", cells, "--pieces", pieces, "--goal", goal,
                                          "--budget", "200", "--no-minimal", "-q", "--json",
                                          "--cluster", dask_scheduler])
    assert answer.exit_code == 0, answer.output
    assert json.loads(answer.stdout)["evaluations"] == 200
