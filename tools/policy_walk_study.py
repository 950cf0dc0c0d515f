"""A sixth round of issue 49: the expected moves of a player model fitted to people's own
moves.  Replays the study's ``moves.csv`` on the engine's cluster of each puzzle, fits a
conditional logit of the move chosen at each state (scipy's BFGS), walks the cluster with that
policy (the blocking walk's absorbing-chain solve with these weights) and cross-validates the
time and share models with the walk's figures, the policy refitted without the held-out
puzzle's moves in every fold.  Prints the table of the sixth round in ``docs/difficulty.md``
(nothing of it is shipped: none reached the time's target).  Run from the repository root
(about nine minutes on two shared cores, most of it the 142 policies' walks):

    PYTHONPATH=src python tools/policy_walk_study.py ../shared/data/rush-hour-human-study

(the study's files under the MIT licence, Copyright (c) 2018 Yichen Li).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.stats import spearmanr

from huarong.graph import StateGraph
from huarong.puzzles import load_puzzle
from huarong.puzzles.cluster import puzzle_start_node, state_graph
from huarong.puzzles.difficulty import walk
from huarong.puzzles.difficulty.fitting import (
    CANDIDATES,
    StudyData,
    _ridge_error,
    _ridge_system,
    _standardised_design,
    agreement,
    forward_selected,
    study_data,
)
from huarong.puzzles.difficulty.model import SOLVED_FEATURES, TIME_FEATURES
from huarong.puzzles.difficulty.study import LABELS, StudyPuzzle, board_of_problem, study_puzzles
from huarong.puzzles.puzzle import Puzzle

MOVE_FEATURES = ("optimal", "optimal_far", "losing", "losing_far", "goal_piece", "blocking",
                 "long_slide")


@dataclass(eq=False)
class PuzzleMoves:
    """One puzzle's cluster as the policy sees it and people's choices on it: how often
    each state was left by a move (``visits``) and each move chosen (``chosen``), and the
    recorded moves that were not one move of the cluster (``lost``)."""

    offsets: np.ndarray
    targets: np.ndarray
    solved: np.ndarray
    start: int
    features: np.ndarray  # (edges, MOVE_FEATURES)
    visits: np.ndarray
    chosen: np.ndarray
    lost: int


def _moved_pieces(cells: np.ndarray, offsets: np.ndarray, targets: np.ndarray,
                  strides: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every move: the number of the piece it moves (the numbering of the state it
    leaves: the piece on a cell it empties) and the cells it slides (the nearest and
    farthest cell it newly covers, against the piece's first and last cell)."""
    sources = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    before, after = cells[sources], cells[targets]
    index = np.arange(cells.shape[1])
    piece = np.where((before != 0) & (after == 0), before, 0).max(axis=1)
    covered = (before == 0) & (after != 0)
    low = np.where(covered, index, cells.shape[1]).min(axis=1)
    high = np.where(covered, index, -1).max(axis=1)
    own = before == piece[:, None]
    first = np.where(own, index, cells.shape[1]).min(axis=1)
    last = np.where(own, index, -1).max(axis=1)
    ahead = np.where(low > first, high - last, first - low)
    return piece, ahead // strides[piece]


def _edge_features(puzzle: Puzzle, graph: StateGraph, cells: np.ndarray) -> np.ndarray:
    """The move features (:data:`MOVE_FEATURES`) of every move of the cluster: whether it
    takes a move off the distance to the goal, and the same times the log of that distance
    (people see the best move better near the goal); whether it adds one, likewise; whether
    it moves the goal piece; a piece of the blocking graph of the state it leaves; more than
    one cell."""
    lines = walk._lines(puzzle)
    assert lines is not None
    strides, goal_piece, _, _ = lines
    offsets = graph.offsets.astype(np.int64)
    targets = graph.targets.astype(np.int64)
    pieces, slides = _moved_pieces(cells, offsets, targets, strides)
    members = walk.blocking_members(puzzle, cells)
    assert members is not None
    sources = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    distance = graph.min_steps.astype(np.float64)
    change = distance[targets] - distance[sources]
    far = np.log(np.maximum(distance[sources], 1.0))
    goal = pieces == goal_piece
    features: np.ndarray = np.c_[change < 0, (change < 0) * far, change > 0,
                                 (change > 0) * far, goal, members[sources, pieces] & ~goal,
                                 slides > 1].astype(np.float64)
    return features


def _replay(study: Path) -> dict[str, list[list[tuple[str, str]]]]:
    """Per instance, each person's trials as lists of (car id, new top-left cell)."""
    trials: dict[str, list[list[tuple[str, str]]]] = {}
    last: tuple[str, str, str] | None = None
    with (study / "moves.csv").open(newline="") as stream:
        rows = csv.reader(stream)
        header = [name.strip() for name in next(rows)]
        at = {name: header.index(name) for name in ("subject", "instance", "move",
                                                     "trial_number")}
        for row in rows:
            # The drive out after a win is recorded apart, as trial 0: it ends the trial.
            trial = row[at["trial_number"]].strip()
            key = (row[at["subject"]], row[at["instance"]], trial)
            if key != last and not (trial == "0" and last is not None and last[:2] == key[:2]):
                trials.setdefault(key[1], []).append([])
                last = key
            car, cell = row[at["move"]].split("@")
            if not cell.isdigit():  # a few drags recorded without their cell
                continue
            trials[key[1]][-1].append((car, cell))
    return trials


def puzzle_moves(p: StudyPuzzle, problem: dict[str, Any], trials: list[list[tuple[str, str]]]
                 ) -> PuzzleMoves:
    """The puzzle's cluster and people's ``trials`` on it (:func:`_replay`) replayed there;
    ``problem`` the study's JSON of the board, naming its cars."""
    puzzle = load_puzzle("rush:" + p.board)
    graph = state_graph(puzzle)
    start = puzzle_start_node(puzzle, graph)
    cells = puzzle.board.cell_pieces(graph.codes)
    class_of = np.array([0] + [c + 1 for c, k in enumerate(puzzle.classes)
                               for _ in range(k.size)], dtype=np.uint8)
    keys = {row.tobytes(): k for k, row in enumerate(class_of[cells])}
    instance, board = board_of_problem(json.dumps(problem))
    assert instance == p.instance and board == p.board
    cars = sorted(problem["cars"], key=lambda car: (not car["player"], car["position"]))
    lettered = puzzle.board.lettered(puzzle.start)
    car_class = {car["id"]: lettered[chr(ord("A") + n)][0] + 1 for n, car in enumerate(cars)}
    car_step = {car["id"]: 1 if car["orientation"] == "horizontal" else 6 for car in cars}
    car_length = {car["id"]: int(car["length"]) for car in cars}
    offsets = graph.offsets.astype(np.int64)
    targets = graph.targets.astype(np.int64)
    solved = graph.goal.astype(np.bool_)
    visits = np.zeros(graph.size)
    chosen = np.zeros(len(targets))
    lost = 0
    for trial in trials:
        place = {car["id"]: int(car["position"]) for car in cars}
        node = start
        for car, cell in trial:
            place[car] = int(cell)
            key = np.zeros(36, dtype=np.uint8)
            for name, first in place.items():
                step = car_step[name]
                key[first:first + step * car_length[name]:step] = car_class[name]
            after = keys.get(key.tobytes())
            if after is None:  # not a state of the cluster: the rest of the trial is lost
                lost += 1
                break
            if after == node:  # a drag that left the board as it was
                continue
            edges = np.flatnonzero(targets[offsets[node]:offsets[node + 1]] == after)
            if len(edges) == 0:  # more than one move at once
                lost += 1
            elif not solved[node]:
                visits[node] += 1
                chosen[offsets[node] + edges[0]] += 1
            node = after
    return PuzzleMoves(offsets, graph.targets.astype(np.int32), solved, start,
                       _edge_features(puzzle, graph, cells), visits, chosen, lost)


@dataclass(eq=False)
class Choices:
    """The choices of some puzzles, kept to the visited states' moves."""

    features: np.ndarray
    chosen: np.ndarray
    segment: np.ndarray  # the visited state each move leaves, numbered from 0
    visits: np.ndarray


def choices(moves: list[PuzzleMoves]) -> list[Choices]:
    """Each puzzle's choices, so that a fold's fit is a concatenation."""
    found = []
    for m in moves:
        nodes = np.flatnonzero(m.visits)
        counts = m.offsets[nodes + 1] - m.offsets[nodes]
        first = np.repeat(m.offsets[nodes] - np.cumsum(counts) + counts, counts)
        edges = first + np.arange(int(counts.sum()))
        found.append(Choices(m.features[edges], m.chosen[edges],
                             np.repeat(np.arange(len(nodes)), counts), m.visits[nodes]))
    return found


def fit_policy(parts: list[Choices]) -> tuple[np.ndarray, float]:
    """Maximum-likelihood weights of the conditional logit on the choices ``parts`` (scipy's
    BFGS with the gradient), and the log-likelihood per choice."""
    features = np.concatenate([c.features for c in parts])
    chosen = np.concatenate([c.chosen for c in parts])
    visits = np.concatenate([c.visits for c in parts])
    shift = np.cumsum([0] + [len(c.visits) for c in parts[:-1]])
    segment = np.concatenate([c.segment + s for c, s in zip(parts, shift, strict=True)])
    observed = chosen @ features

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        score = features @ theta
        weight = np.exp(score - score.max())
        total = np.bincount(segment, weight)
        mean = (np.stack([np.bincount(segment, weight * f) for f in features.T], 1)
                / total[:, None])
        log_total = np.log(total) + score.max()
        value = -(chosen @ score - visits @ log_total)
        return float(value), -(observed - visits @ mean)

    found = minimize(loss, np.zeros(features.shape[1]), jac=True, method="BFGS")
    theta: np.ndarray = found.x
    return theta, -float(found.fun) / float(visits.sum())


def policy_figures(m: PuzzleMoves, theta: np.ndarray) -> tuple[float, float]:
    """(ln expected moves, ln spread) of the policy's walk from the start."""
    from huarong._kernels import walk as kernels

    score = m.features @ theta
    weights = np.exp(score - score.max())
    moves, squares, residual = kernels.walk_moments(m.offsets, m.targets, weights, m.solved,
                                                    walk.TOLERANCE, walk.MAX_ROUNDS)
    assert residual <= walk.TOLERANCE, residual
    x = float(moves[m.start])
    return math.log(x), 0.5 * math.log(max(float(squares[m.start]) - x * x, 1.0))


VARIANTS = {
    "fitted to people's moves (all seven move features)": MOVE_FEATURES,
    "without the distance to the goal (a fitted blocking walk)": ("goal_piece", "blocking",
                                                                  "long_slide"),
}
"""The policies walked: the move features each reads (the others' weights are 0)."""


def fold_figures(moves: list[PuzzleMoves], parts: list[Choices], keep: tuple[str, ...]
                 ) -> np.ndarray:
    """(folds, puzzles, 2): the policy's figures of every puzzle, the policy fitted without
    puzzle ``fold``'s moves (the last fold: with every puzzle's)."""
    columns = [MOVE_FEATURES.index(name) for name in keep]
    kept = [Choices(c.features[:, columns], c.chosen, c.segment, c.visits) for c in parts]
    figures = np.empty((len(moves) + 1, len(moves), 2))
    for fold in range(len(moves) + 1):
        theta = np.zeros(len(MOVE_FEATURES))
        theta[columns], likelihood = fit_policy([c for k, c in enumerate(kept) if k != fold])
        if fold == len(moves):
            uniform = sum(float(c.visits @ np.log(np.bincount(c.segment))) for c in parts)
            print("  policy on every puzzle:",
                  ", ".join(f"{n} {t:+.3f}" for n, t in zip(MOVE_FEATURES, theta, strict=True)
                            if n in keep),
                  f"(log-likelihood per choice {likelihood:.3f}; a uniform choice "
                  f"{-uniform / sum(float(c.visits.sum()) for c in parts):.3f})")
        for k, m in enumerate(moves):
            figures[fold, k] = policy_figures(m, theta)
    return figures


def _fold_predictions(inputs: np.ndarray, target: np.ndarray, size: int | None
                      ) -> tuple[np.ndarray, list[list[int]]]:
    """Leave-one-out predictions where fold ``i`` reads ``inputs[i]`` (puzzles, features):
    all of its features (``size`` None) or optimal length (column 0) and ``size`` more chosen
    by forward selection on the other puzzles; the ridge's penalty chosen on them too.  With
    the columns each fold read."""
    predicted = np.empty(len(target))
    read = []
    for left_out in range(len(target)):
        train = np.arange(len(target)) != left_out
        fold = inputs[left_out]
        chosen = (list(range(fold.shape[1])) if size is None
                  else forward_selected(fold[train], target[train], size))
        alpha = _ridge_error(fold[train][:, chosen], target[train])[1]
        mean, scale, design, normal = _ridge_system(fold[train][:, chosen], alpha)
        weights = np.linalg.solve(normal, design.T @ target[train])
        predicted[left_out] = (_standardised_design(fold[left_out:left_out + 1, chosen], mean,
                                                    scale) @ weights)[0]
        read.append(chosen)
    return predicted, read


POLICY = ("log_policy_moves", "log_policy_spread")
ROWS: dict[str, tuple[tuple[str, ...] | int, tuple[str, ...] | int]] = {
    "the shipped model (no policy)": (TIME_FEATURES, SOLVED_FEATURES),
    "length + policy moves": (("optimal_length", POLICY[0]),) * 2,
    "length + policy moves + its spread": (("optimal_length", *POLICY),) * 2,
    "length + policy moves + tempting_share; share + policy moves": (
        ("optimal_length", POLICY[0], "tempting_share"), (*SOLVED_FEATURES, POLICY[0])),
    "the shipped + policy moves": ((*TIME_FEATURES, POLICY[0]), (*SOLVED_FEATURES, POLICY[0])),
    "the shipped + policy spread": ((*TIME_FEATURES, POLICY[1]),
                                    (*SOLVED_FEATURES, POLICY[1])),
    "policy spread in place of log_walk_spread; moves in place of log_walk_nearby": (
        ("optimal_length", POLICY[1], "tempting_share"),
        ("optimal_length", POLICY[0], "mean_moves")),
    "nested: 2 chosen inside each fold, the policy's two among the candidates": (2, 2),
    "nested: 3 chosen": (3, 3),
}
"""Rows of the table: the time's and the share's features, or how many a nested choice adds
to optimal length."""


def report(every: StudyData, figures: np.ndarray) -> None:
    """Print the cross-validated figures of the models with the policy's figures: Spearman
    with the median time, with the solved share, within the length groups (their mean, then
    each)."""
    folds = figures[:-1]  # fold i's policy never saw puzzle i's moves
    base = np.broadcast_to(every.inputs, (len(folds), *every.inputs.shape))
    inputs = np.concatenate([base, folds], axis=2)
    names = (*every.names, *POLICY)
    for label, (time_names, solved_names) in ROWS.items():
        predictions = []
        policy_read = []
        for wanted, target in ((time_names, every.log_seconds),
                               (solved_names, every.solved_logit)):
            if isinstance(wanted, int):
                predicted, read = _fold_predictions(inputs, target, wanted)
            else:
                predicted, read = _fold_predictions(
                    inputs[:, :, [names.index(name) for name in wanted]], target, None)
                read = [[names.index(wanted[k]) for k in chosen] for chosen in read]
            predictions.append(predicted)
            policy_read.append(sum(any(names[k] in POLICY for k in chosen) for chosen in read))
        found = agreement(every, predictions[0], -predictions[1])
        print(f"| {label} | {found.time:.3f} | {found.solved:.3f} | {found.mean_within:.3f} | "
              + " ".join(f"{w:+.2f}" for w in found.within)
              + f" | {policy_read[0]}, {policy_read[1]} |")


def solvers_moves(study: Path, puzzles: list[StudyPuzzle]) -> np.ndarray:
    """Per puzzle, the median over the people who solved it of their moves on it, summed
    over their attempts (``paths.csv``)."""
    with (study / "paths.csv").open(newline="") as stream:
        rows = csv.reader(stream)
        header = [name.strip() for name in next(rows)]
        at = {name: header.index(name) for name in ("subject", "instance", "human_length",
                                                    "complete")}
        made: dict[tuple[str, str], int] = {}
        solvers = set()
        for row in rows:
            key = (row[at["instance"]].strip(), row[at["subject"]].strip())
            made[key] = made.get(key, 0) + int(row[at["human_length"]])
            if row[at["complete"]].strip() == "True":
                solvers.add(key)
    return np.array([statistics.median(made[key] for key in solvers if key[0] == p.instance)
                     for p in puzzles])


def compare_moves(every: StudyData, figures: np.ndarray, people: np.ndarray) -> None:
    """How the policy's expected moves (the policy fitted on every puzzle) order people's."""
    expected = np.exp(figures[-1, :, 0])
    within = [spearmanr(expected[every.labels == label], people[every.labels == label]
                        ).statistic for label in LABELS]
    print(f"  expected moves / solvers' median moves: median "
          f"{float(np.median(expected / people)):.2f}; Spearman "
          f"{spearmanr(expected, people).statistic:.3f}, within the length groups "
          + ", ".join(f"{w:+.2f}" for w in within))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("study", type=Path)
    args = parser.parse_args()
    began = time.time()
    trials = _replay(args.study)
    puzzles = study_puzzles()
    moves = []
    for p in puzzles:
        problem = json.loads((args.study / "problems" / f"{p.instance}.json").read_text())
        moves.append(puzzle_moves(p, problem, trials.get(p.instance, [])))
    print(f"replayed in {time.time() - began:.1f} s: "
          f"{sum(int(m.visits.sum()) for m in moves)} choices, "
          f"{sum(m.lost for m in moves)} moves not found")
    parts = choices(moves)
    every = study_data(puzzles, ("optimal_length", *CANDIDATES))
    people = solvers_moves(args.study, puzzles)
    print("| model | with time | with share | within | within 6, 10, 13, 15 moves | folds "
          "reading the policy (time, share) |")
    for label, keep in VARIANTS.items():
        began = time.time()
        print(f"{label}:")
        figures = fold_figures(moves, parts, keep)
        compare_moves(every, figures, people)
        print(f"  ({time.time() - began:.0f} s for the 71 policies' walks)")
        report(every, figures)


if __name__ == "__main__":
    main()
