"""Fitting the difficulty model on the Rush Hour study and cross-validating it: scikit-learn's
ridge regression with its own choice of the penalty (``RidgeCV``), on standardised features.
scikit-learn is imported here only, by ``tools/fit_difficulty.py`` and the tests: predictions
(:mod:`.model`) need numpy alone."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from huarong.puzzles.difficulty.features import DifficultyFeatures, difficulty_features
from huarong.puzzles.difficulty.model import (
    MODEL_FEATURES,
    SOLVED_FEATURES,
    TIME_FEATURES,
    DifficultyModel,
    Linear,
    model_inputs,
)
from huarong.puzzles.difficulty.study import LABELS, StudyPuzzle

ALPHAS = tuple(float(a) for a in np.logspace(-2, 3, 31))
"""The ridge penalties ``RidgeCV`` chooses from (by its leave-one-out error)."""


@dataclass(frozen=True, eq=False)
class StudyData:
    """The study's puzzles as the model sees them: ``inputs`` (puzzles, features), the targets
    ``log_seconds`` and ``solved_logit``, and the observed figures."""

    puzzles: list[StudyPuzzle]
    names: tuple[str, ...]
    inputs: np.ndarray

    @property
    def seconds(self) -> np.ndarray:
        return np.array([p.median_seconds for p in self.puzzles])

    @property
    def shares(self) -> np.ndarray:
        return np.array([p.solved_share for p in self.puzzles])

    @property
    def labels(self) -> np.ndarray:
        return np.array([p.label for p in self.puzzles])

    @property
    def log_seconds(self) -> np.ndarray:
        logged: np.ndarray = np.log(self.seconds)
        return logged

    @property
    def solved_logit(self) -> np.ndarray:
        """The empirical log-odds of solving (half a person added to each side, so that a
        puzzle everyone solved has a finite value)."""
        solved = np.array([p.solved for p in self.puzzles], dtype=np.float64)
        tried = np.array([p.tried for p in self.puzzles], dtype=np.float64)
        logit: np.ndarray = np.log((solved + 0.5) / (tried - solved + 0.5))
        return logit


def study_data(puzzles: list[StudyPuzzle], names: tuple[str, ...] = MODEL_FEATURES
               ) -> StudyData:
    """The features ``names`` of every study puzzle, computed by the engine."""
    from huarong.puzzles import load_puzzle

    inputs = np.array([model_inputs(difficulty_features(load_puzzle("rush:" + p.board)),
                                    names) for p in puzzles])
    return StudyData(puzzles, names, inputs)


def _pipeline() -> object:
    from sklearn.linear_model import RidgeCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), RidgeCV(alphas=ALPHAS))


def _columns(data: StudyData, names: tuple[str, ...]) -> list[int]:
    return [data.names.index(name) for name in names]


def fit(data: StudyData) -> DifficultyModel:
    """The model fitted on all the study's puzzles (``data`` of :data:`MODEL_FEATURES`): the
    time on :data:`TIME_FEATURES`, the solved share on :data:`SOLVED_FEATURES` (0 for the
    others)."""
    from sklearn.base import clone

    time_columns = _columns(data, TIME_FEATURES)
    solved_columns = _columns(data, SOLVED_FEATURES)
    fitted = []
    for target, columns in ((data.log_seconds, time_columns),
                            (data.solved_logit, solved_columns)):
        pipeline = clone(_pipeline())
        pipeline.fit(data.inputs[:, columns], target)
        fitted.append(pipeline)
    scaler = clone(fitted[0][0]).fit(data.inputs)

    def linear(pipeline: object, columns: list[int]) -> Linear:
        ridge = pipeline[-1]  # type: ignore[index]
        coefficients = np.zeros(len(data.names))
        coefficients[columns] = ridge.coef_
        return Linear(float(ridge.intercept_), tuple(float(c) for c in coefficients),
                      float(ridge.alpha_))

    return DifficultyModel(data.names, tuple(float(m) for m in scaler.mean_),
                           tuple(float(s) for s in scaler.scale_),
                           tuple(float(v) for v in data.inputs.min(axis=0)),
                           tuple(float(v) for v in data.inputs.max(axis=0)),
                           linear(fitted[0], time_columns),
                           linear(fitted[1], solved_columns))


def cross_validated(data: StudyData, time_features: tuple[str, ...] = TIME_FEATURES,
                    solved_features: tuple[str, ...] = SOLVED_FEATURES
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-out predictions of the log seconds (on ``time_features``) and the solve
    log-odds (on ``solved_features``): each puzzle's prediction from the model fitted
    (penalty chosen too) on the 69 others."""
    from sklearn.model_selection import LeaveOneOut, cross_val_predict

    def predicted(names: tuple[str, ...], target: np.ndarray) -> np.ndarray:
        found: np.ndarray = cross_val_predict(_pipeline(), data.inputs[:, _columns(data, names)],
                                              target, cv=LeaveOneOut())
        return found

    return (predicted(time_features, data.log_seconds),
            predicted(solved_features, data.solved_logit))


@dataclass(frozen=True)
class Agreement:
    """Spearman correlations of predictions with people's figures: of the predicted time with
    the median time, of the predicted failure (a score that grows as fewer solve) with the
    solved share, and of the predicted time with the median time within each length group
    (and their mean)."""

    time: float
    solved: float
    within: tuple[float, ...]

    @property
    def mean_within(self) -> float:
        return float(np.mean(self.within))


def agreement(data: StudyData, time_prediction: np.ndarray, failure_prediction: np.ndarray
              ) -> Agreement:
    """How predictions order the study's puzzles against people's figures (a failure
    prediction: any score that grows as fewer people solve, as minus the predicted log-odds
    of solving)."""
    from scipy.stats import spearmanr

    def rho(x: np.ndarray, y: np.ndarray) -> float:
        if np.ptp(x) == 0:
            return 0.0
        return float(spearmanr(x, y).statistic)

    within = tuple(rho(time_prediction[data.labels == label],
                       data.seconds[data.labels == label]) for label in LABELS)
    return Agreement(rho(time_prediction, data.seconds), rho(failure_prediction, data.shares),
                     within)


# ----- selection inside the folds -------------------------------------------------------------
CANDIDATES = tuple(name for name in DifficultyFeatures.__dataclass_fields__
                   if name != "optimal_length")
"""The features a selection inside the folds chooses from (optimal length always in)."""


def _standardised_design(inputs: np.ndarray, mean: np.ndarray, scale: np.ndarray
                         ) -> np.ndarray:
    """The standardised ``inputs`` with a column of ones before them (the intercept)."""
    design: np.ndarray = np.c_[np.ones(len(inputs)), (inputs - mean) / scale]
    return design


def _ridge_system(inputs: np.ndarray, alpha: float
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(mean, scale, design, design's normal matrix plus the penalty) of a ridge on the
    standardised ``inputs``, the intercept unpenalised."""
    mean, scale = inputs.mean(axis=0), inputs.std(axis=0)
    scale[scale == 0] = 1.0
    design = _standardised_design(inputs, mean, scale)
    penalty = np.eye(design.shape[1]) * alpha
    penalty[0, 0] = 0.0
    return mean, scale, design, design.T @ design + penalty


def _ridge_loo(inputs: np.ndarray, target: np.ndarray, alpha: float) -> np.ndarray:
    """Leave-one-out predictions of a ridge regression on standardised ``inputs`` (intercept
    unpenalised), in closed form: each residual over one less its leverage.  The scaling is
    the whole sample's, as in ``RidgeCV``'s own choice of the penalty."""
    _, _, design, normal = _ridge_system(inputs, alpha)
    hat = design @ np.linalg.solve(normal, design.T)
    predicted: np.ndarray = target - (target - hat @ target) / (1.0 - np.diag(hat))
    return predicted


def _ridge_error(inputs: np.ndarray, target: np.ndarray) -> tuple[float, float]:
    """(the smallest leave-one-out mean squared error over :data:`ALPHAS`, its penalty)."""
    return min((float(np.mean((_ridge_loo(inputs, target, a) - target) ** 2)), a)
               for a in ALPHAS)


def forward_selected(inputs: np.ndarray, target: np.ndarray, size: int) -> list[int]:
    """Columns of ``inputs`` chosen greedily: column 0 (optimal length), then ``size`` more,
    each the one that lowers the ridge's leave-one-out error most."""
    chosen = [0]
    for _ in range(size):
        rest = [k for k in range(inputs.shape[1]) if k not in chosen]
        chosen.append(min(rest, key=lambda k: _ridge_error(inputs[:, [*chosen, k]],
                                                           target)[0]))
    return chosen


def nested_cross_validated(data: StudyData, sizes: tuple[int, int]
                           ) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-out predictions of the log seconds and the solve log-odds where everything
    is chosen on the 69 other puzzles: the ``sizes`` features besides optimal length (for
    the time, for the share; :func:`forward_selected`, among :data:`CANDIDATES`; ``data``
    must hold optimal length and then the candidates) and the penalty.  Unlike
    :func:`cross_validated`, no choice made on the puzzle predicted flatters it."""
    predictions = []
    for target, size in zip((data.log_seconds, data.solved_logit), sizes, strict=True):
        predicted = np.empty(len(target))
        for left_out in range(len(target)):
            train = np.arange(len(target)) != left_out
            chosen = forward_selected(data.inputs[train], target[train], size)
            inputs = data.inputs[:, chosen]
            alpha = _ridge_error(inputs[train], target[train])[1]
            mean, scale, design, normal = _ridge_system(inputs[train], alpha)
            weights = np.linalg.solve(normal, design.T @ target[train])
            predicted[left_out] = (_standardised_design(inputs[left_out:left_out + 1], mean,
                                                        scale) @ weights)[0]
        predictions.append(predicted)
    return predictions[0], predictions[1]
