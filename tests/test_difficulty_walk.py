"""The difficulty features of the blocking walk (the walk that prefers the blocking graph's
pieces), ``log_walk_moves``, ``log_walk_spread`` and ``log_walk_nearby``: the kernel's
blocking graph of every state against :func:`blocking_graph` of that state as a start, and
the walk's moments against a plain reference on small puzzles (the reference model of
:mod:`tests.puzzle_reference`, dense linear solves)."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from huarong.puzzles import load_puzzle
from huarong.puzzles.cluster import state_graph
from huarong.puzzles.difficulty.blocking import blocking_graph
from huarong.puzzles.difficulty.features import difficulty_features
from huarong.puzzles.difficulty.model import difficulty
from huarong.puzzles.difficulty.study import study_puzzles
from huarong.puzzles.difficulty.walk import PREFERRED, blocking_members
from tests import puzzle_reference as ref

GOAL = "....../....../....AA/....../....../......"
CASES = [
    # (start, goal, metric): rules "length", the piece A distinct, as in Rush Hour
    ("B..C/BAAC/...E/...E/..DD/....", "..../..AA/..../..../..../....", "slide"),
    ("B..C/BAAC/B.DD/....", "..../..AA/..../....", "unit"),
    ("BB.C/.AAC/D..C/D.EE/....", "..../..AA/..../..../....", "slide"),
]
FOGLEMAN = "rush:IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM"
"""Fogleman's hardest start (60 moves, 2,332 states): a board with a wall."""


def _study_case() -> tuple[str, str, str]:
    board = next(p.board for p in study_puzzles() if p.instance == "prb55384")
    rows = "/".join(board[k:k + 6] for k in range(0, 36, 6)).replace("o", ".")
    return rows, GOAL, "slide"


def _text(board: ref.Board, state: ref.State) -> tuple[str, dict[ref.Piece, str]]:
    """Grid text of a reference state and each piece's letter (a distinct piece its name)."""
    spare = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    letters = {piece: piece[1] or next(spare) for piece in sorted(state)}
    rows = [["."] * board.columns for _ in range(board.rows)]
    for piece, letter in letters.items():
        for r, c in board.cells(piece):
            rows[r][c] = letter
    return "/".join("".join(row) for row in rows), letters


def reference_walk(start: str, goal: str, metric: str) -> tuple[float, float, float]:
    """(ln of the expected moves from the start, ln of their standard deviation from the
    start, ln of the expected moves' median over the unsolved states at most the optimal
    length from the start) of the walk of docs/difficulty.md: each move weighted PREFERRED
    when it moves A or a piece of the blocking graph of the state it leaves; dense solves of
    x = 1 + P x and of the expected square m = 1 + P (2 x + m) off the solved states."""
    puzzle = ref.reference(start, goal, metric, "length", "A")
    graph = puzzle.cluster()
    states = sorted(graph, key=sorted)
    number = {state: k for k, state in enumerate(states)}
    chance = np.zeros((len(states), len(states)))
    for state in states:
        if puzzle.solved(state):
            continue
        text, letters = _text(puzzle.board, state)
        found = blocking_graph(load_puzzle(text, goal, metric=metric, rules="length",
                                           distinct="A"))
        assert found is not None
        preferred = {"A", *(letter for level in found.levels for letter in level)}
        weights = {}
        for other in graph[state]:
            (moved,) = state - other
            weights[other] = PREFERRED if letters[moved] in preferred else 1.0
        total = sum(weights.values())
        for other, weight in weights.items():
            chance[number[state], number[other]] = weight / total
    unsolved = np.array([0.0 if puzzle.solved(s) else 1.0 for s in states])
    expected = np.linalg.solve(np.eye(len(states)) - chance, unsolved)
    squares = np.linalg.solve(np.eye(len(states)) - chance,
                              unsolved * (1.0 + 2.0 * chance @ expected))
    at = number[puzzle.start]
    variance = squares[at] - expected[at] ** 2
    from_start = puzzle.distances([puzzle.start])
    length = puzzle.min_steps()[puzzle.start]
    nearby = [expected[number[s]] for s in states
              if from_start[s] <= length and not puzzle.solved(s)]
    return (math.log(expected[at]), 0.5 * math.log(max(variance, 1.0)),
            math.log(statistics.median(nearby)))


@pytest.mark.parametrize("case", [*CASES, None], ids=["slide", "unit", "chain", "study"])
def test_walk_figures_match_the_reference(case: tuple[str, str, str] | None) -> None:
    start, goal, metric = case or _study_case()
    puzzle = load_puzzle(start, goal, metric=metric, rules="length", distinct="A")
    found = difficulty_features(puzzle)
    moves, spread, nearby = reference_walk(start, goal, metric)
    assert found.log_walk_moves == pytest.approx(moves, rel=1e-6)
    assert found.log_walk_spread == pytest.approx(spread, rel=1e-5)
    assert found.log_walk_nearby == pytest.approx(nearby, rel=1e-6)
    assert moves > math.log(found.optimal_length)


@pytest.mark.parametrize("case", [*CASES, None, FOGLEMAN],
                         ids=["slide", "unit", "chain", "study", "walled"])
def test_blocking_members_of_every_state_match_the_blocking_graph(
        case: tuple[str, str, str] | str | None) -> None:
    if isinstance(case, str):
        puzzle = load_puzzle(case)
        goal, metric = str(puzzle.goal), "slide"
    else:
        start, goal, metric = case or _study_case()
        puzzle = load_puzzle(start, goal, metric=metric, rules="length", distinct="A")
    graph = state_graph(puzzle)
    cells = puzzle.board.cell_pieces(graph.codes)
    members = blocking_members(puzzle, cells)
    assert members is not None
    for node, code in enumerate(graph.codes):
        text = puzzle.board.format(int(code))
        found = blocking_graph(load_puzzle(text, goal, metric=metric, rules="length",
                                           distinct="A"))
        assert found is not None
        letters = [glyph for glyph in text if glyph != "/"]
        expected = {int(cells[node, k]) for k, letter in enumerate(letters)
                    if any(letter in level for level in found.levels)}
        assert set(np.flatnonzero(members[node]).tolist()) == expected, text


def test_puzzles_without_a_blocking_graph_have_no_walk() -> None:
    klotski = difficulty(load_puzzle("1A9BF0C00"))
    assert klotski.features.log_walk_moves is None
    assert klotski.features.log_walk_spread is None
    assert klotski.features.log_walk_nearby is None
    assert {"log_walk_spread", "log_walk_nearby"} <= set(klotski.outside)
    assert klotski.extrapolates
    free = load_puzzle("AA.B/AAC./D..E", "..AA/..AA/....", metric="step", rules="free")
    assert difficulty_features(free).log_walk_moves is None
    assert difficulty_features(free).log_walk_spread is None
    assert difficulty_features(free).log_walk_nearby is None
