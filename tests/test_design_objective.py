"""``puzzle design --objective difficulty``: the chains make the hardest start's predicted time
to solve for a person as large as they can.  On a small board the search finds the most
difficult cluster that the exhaustive search and its result file's ``difficulty`` column
(:mod:`huarong.puzzles.difficulty.column`, each start valued alone) name."""

from __future__ import annotations

import json
import math

from click.testing import CliRunner

from huarong.cli.puzzle_design import design as command
from huarong.puzzles.design_search import Budget, design
from huarong.puzzles.design_spaces import space_of
from huarong.puzzles.exhaustive import search
from huarong.puzzles.grid import rectangle

CELLS, GOAL, METRIC = "3x4", "1x2@2,2", "slide"
PIECES = "1x2*2,2x1*2,1x1*2"
COUNTS = [(rectangle(1, 2), 2), (rectangle(2, 1), 2), (rectangle(1, 1), 2)]


def test_the_search_finds_the_most_difficult_cluster_of_the_exhaustive_search() -> None:
    table = search(CELLS, COUNTS, GOAL, METRIC).table().to_pydict()
    seconds = [s for s in table["difficulty"] if s is not None]
    assert len(seconds) == sum(length is not None for length in table["length"])  # all valued
    found = design(space_of(CELLS, PIECES, GOAL, metric=METRIC), Budget(evaluations=600),
                   minimal=False, method="elites", objective="difficulty")
    assert found.rows[0].value.score == round(100 * math.log(max(seconds)))
    ranks = [row.value.rank for row in found.rows]
    assert ranks == sorted(ranks, reverse=True)


def test_the_command_takes_the_objective_and_refuses_another() -> None:
    arguments = ["--board", CELLS, "--pieces", PIECES, "--goal", GOAL, "--metric", METRIC,
                 "--budget", "300", "--no-minimal", "--threads", "1", "-q", "--json"]
    chosen = CliRunner().invoke(command, [*arguments, "--objective", "difficulty"])
    assert chosen.exit_code == 0, chosen.output
    assert json.loads(chosen.stdout)["length"] >= 0
    refused = CliRunner().invoke(command, [*arguments, "--objective", "fun"])
    assert refused.exit_code == 2 and "fun" in refused.output
