"""The difficulty model: two ridge regressions on standardised features (three each, two of
them shared), fitted on the Rush Hour study (``tools/fit_difficulty.py``, :mod:`.fitting`)
and shipped as coefficients in ``data/model.json``; predictions here need numpy only.

- the log of the median time to solve, in seconds, of a first-time player;
- the log-odds of the share of the people who try it who solve it;
- a grade 1-10 from the predicted time, named as ThinkFun names its cards' levels.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from huarong.graph import StateGraph
from huarong.puzzles.difficulty.features import DifficultyFeatures, difficulty_features
from huarong.puzzles.puzzle import Puzzle

MODEL_FILE = "model.json"
TIME_FEATURES = ("optimal_length", "log_walk_spread", "tempting_share")
"""The features the time's regression reads: optimal length and the two that forward
selection adds to it on the study (see the docs)."""
SOLVED_FEATURES = ("optimal_length", "log_walk_nearby", "mean_moves")
"""The features the solved share's regression reads, chosen the same way on its own
target."""
MODEL_FEATURES = tuple(dict.fromkeys(TIME_FEATURES + SOLVED_FEATURES))
"""Every feature the model reads, in the order of its coefficients (a regression's
coefficients of the features it does not read are 0)."""
GRADE_SECONDS = (15.0, 22.0, 32.0, 45.0, 65.0, 90.0, 130.0, 190.0, 280.0)
"""Predicted median seconds at which grades 2, 3, ... 10 begin."""
GRADE_NAMES = ("Beginner", "Beginner", "Intermediate", "Intermediate", "Advanced", "Advanced",
               "Expert", "Expert", "Grand Master", "Grand Master")
"""The name of each grade 1-10, after ThinkFun's levels of its Rush Hour cards."""
STUDY_BOARD = (6, 6, "length")
"""Rows, columns and rules of the study's boards: other puzzles are extrapolations."""


@dataclass(frozen=True)
class Linear:
    """One fitted regression on the standardised features."""

    intercept: float
    coefficients: tuple[float, ...]
    alpha: float

    def __call__(self, standardised: np.ndarray) -> float:
        return float(self.intercept + standardised @ np.array(self.coefficients))


@dataclass(frozen=True)
class DifficultyModel:
    """The shipped model: the features' ``mean`` and ``scale`` on the study, the ``time``
    regression (log seconds), the ``solved`` one (log-odds), and the study's ``low`` and
    ``high`` value of each feature."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    time: Linear
    solved: Linear

    def to_json(self) -> dict[str, Any]:
        return {"features": list(self.features), "mean": list(self.mean),
                "scale": list(self.scale), "low": list(self.low), "high": list(self.high),
                "time": _linear_json(self.time), "solved": _linear_json(self.solved)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DifficultyModel:
        return cls(tuple(data["features"]), tuple(data["mean"]), tuple(data["scale"]),
                   tuple(data["low"]), tuple(data["high"]), _linear(data["time"]),
                   _linear(data["solved"]))

    def standardised(self, values: np.ndarray) -> np.ndarray:
        standardised: np.ndarray = (values - np.array(self.mean)) / np.array(self.scale)
        return standardised


def _linear_json(linear: Linear) -> dict[str, Any]:
    return {"intercept": linear.intercept, "coefficients": list(linear.coefficients),
            "alpha": linear.alpha}


def _linear(data: dict[str, Any]) -> Linear:
    return Linear(float(data["intercept"]), tuple(float(c) for c in data["coefficients"]),
                  float(data["alpha"]))


@functools.cache
def shipped_model() -> DifficultyModel:
    """The model in the package's ``data/model.json``."""
    data = resources.files("huarong.puzzles.difficulty") / "data" / MODEL_FILE
    return DifficultyModel.from_json(json.loads(data.read_text(encoding="utf-8")))


def model_inputs(features: DifficultyFeatures, names: tuple[str, ...] = MODEL_FEATURES
                 ) -> np.ndarray:
    """The model's features of one start, in order (float64)."""
    values = features.as_dict()
    return np.array([float(values[name] or 0.0) for name in names], dtype=np.float64)


@dataclass(frozen=True)
class Difficulty:
    """How hard a start is for a person: the predicted ``median_seconds`` to solve it of the
    people who solve it on a first try, the predicted ``solved_share`` of those who try, the
    ``grade`` (1-10) and its ``grade_name``, whether the model ``extrapolates`` (a puzzle
    unlike the study's, or a feature outside the study's range or missing, as ``outside``
    names), and the ``features``."""

    median_seconds: float
    solved_share: float
    grade: int
    grade_name: str
    extrapolates: bool
    outside: tuple[str, ...]
    features: DifficultyFeatures

    def as_dict(self) -> dict[str, Any]:
        return {"median_seconds": self.median_seconds, "solved_share": self.solved_share,
                "grade": self.grade, "grade_name": self.grade_name,
                "extrapolates": self.extrapolates, "outside": list(self.outside),
                "features": self.features.as_dict()}


def grade_of(seconds: float) -> int:
    """The grade 1-10 of a predicted median time."""
    return 1 + int(np.searchsorted(np.array(GRADE_SECONDS), seconds, side="right"))


def predict(features: DifficultyFeatures, *, like_study: bool = True,
            model: DifficultyModel | None = None) -> Difficulty:
    """The model's difficulty of a start with these features (``like_study``: its board and
    rules are the study's, a 6x6 Rush Hour board).  A feature the puzzle lacks (None: no
    blocking graph) is taken at the study's mean, and named in ``outside``."""
    model = model or shipped_model()
    given = features.as_dict()
    missing = tuple(name for name in model.features if given[name] is None)
    values = np.array([model.mean[k] if name in missing else float(given[name] or 0.0)
                       for k, name in enumerate(model.features)], dtype=np.float64)
    standardised = model.standardised(values)
    log_seconds = model.time(standardised)
    seconds = math.exp(min(log_seconds, 700.0))
    share = 1.0 / (1.0 + math.exp(-max(min(model.solved(standardised), 700.0), -700.0)))
    outside = missing + tuple(name for name, value, low, high in
                              zip(model.features, values, model.low, model.high, strict=True)
                              if not low <= value <= high)
    grade = grade_of(seconds)
    return Difficulty(seconds, share, grade, GRADE_NAMES[grade - 1],
                      bool(outside) or not like_study, outside, features)


def difficulty(puzzle: Puzzle, graph: StateGraph | None = None, *,
               limit: int | None = None) -> Difficulty:
    """The predicted difficulty of the puzzle's start (its cluster's state ``graph`` searched
    when not given, :class:`~huarong.puzzles.cluster.ClusterTooLarge` past ``limit``
    states)."""
    features = difficulty_features(puzzle, graph, limit=limit)
    like_study = (puzzle.rows, puzzle.columns, puzzle.rules) == STUDY_BOARD
    return predict(features, like_study=like_study)
