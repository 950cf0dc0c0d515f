"""Fit the difficulty model on the Rush Hour study and write what it ships and shows:
``src/huarong/puzzles/difficulty/data/model.json`` (the coefficients) and
``docs/images/difficulty-fit.png`` (leave-one-out predicted against observed median times, one
point per puzzle, coloured by optimal length); print the cross-validated table beside optimal
length alone and the five puzzles on which the model and the length disagree most.  Run from
the repository root (scikit-learn and scipy needed, as in the ``test`` extra):

    PYTHONPATH=src python tools/fit_difficulty.py
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from scipy.stats import rankdata

from huarong.fileio import atomic_writer, write_text_atomically
from huarong.puzzles.difficulty.fitting import (
    CANDIDATES,
    Agreement,
    StudyData,
    agreement,
    cross_validated,
    fit,
    nested_cross_validated,
    study_data,
)
from huarong.puzzles.difficulty.model import (
    MODEL_FEATURES,
    MODEL_FILE,
    SOLVED_FEATURES,
    TIME_FEATURES,
)
from huarong.puzzles.difficulty.study import LABELS, study_puzzles

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "src" / "huarong" / "puzzles" / "difficulty" / "data" / MODEL_FILE
PLOT = ROOT / "docs" / "images" / "difficulty-fit.png"
COLOURS = {7: (46, 134, 193), 11: (39, 174, 96), 14: (230, 126, 34), 16: (192, 57, 43)}
EARLIER = ("optimal_length", "away_nearby", "tempting_share", "mean_moves", "mean_blockers")
CANDIDATE_SETS = {
    "the second model (log_walk_moves in both)": (
        ("optimal_length", "log_walk_moves", "tempting_share"),
        ("optimal_length", "mean_moves", "log_walk_moves")),
    "the first model (five features; share: three)": (EARLIER, (*EARLIER[:2], "mean_moves")),
    "the first model and log_walk_moves": ((*EARLIER, "log_walk_moves"),
                                           (*EARLIER[:2], "mean_moves", "log_walk_moves")),
    "optimal length and log_walk_moves": (("optimal_length", "log_walk_moves"),) * 2,
}
"""Feature sets (time, share) compared with the shipped one by leave-one-out."""


def _row(name: str, figures: Agreement) -> str:
    within = " ".join(f"{w:+.2f}" for w in figures.within)
    return (f"| {name} | {figures.time:.3f} | {figures.solved:.3f} | {figures.mean_within:.3f}"
            f" | {within} |")


def _plot(data: StudyData, predicted_seconds: np.ndarray) -> bytes:
    """Predicted against observed median seconds on log axes, as a PNG."""
    size, margin = 640, 70
    image = Image.new("RGB", (size, size), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    low, high = math.log(5.0), math.log(250.0)

    def at(seconds: float) -> float:
        return margin + (math.log(seconds) - low) / (high - low) * (size - 2 * margin)

    draw.rectangle((margin, margin, size - margin, size - margin), outline="black")
    draw.line((at(5), size - at(5), at(250), size - at(250)), fill=(170, 170, 170))
    for tick in (5, 10, 20, 50, 100, 200):
        x = at(tick)
        draw.line((x, size - margin, x, size - margin + 5), fill="black")
        draw.text((x - 8, size - margin + 8), str(tick), fill="black", font=font)
        draw.line((margin - 5, size - x, margin, size - x), fill="black")
        draw.text((margin - 30, size - x - 6), str(tick), fill="black", font=font)
    draw.text((size / 2 - 110, size - 30), "observed median time to solve (s)", fill="black",
              font=font)
    draw.text((10, 20), "predicted (leave-one-out, s)", fill="black", font=font)
    for observed, predicted, label in zip(data.seconds, predicted_seconds, data.labels,
                                          strict=True):
        x, y = at(float(observed)), size - at(float(predicted))
        draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=COLOURS[int(label)], outline="black")
    for k, label in enumerate(LABELS):
        y = margin + 10 + 18 * k
        draw.ellipse((margin + 10, y, margin + 20, y + 10), fill=COLOURS[label])
        draw.text((margin + 26, y - 1), f"{label - 1} moves (label {label})", fill="black",
                  font=font)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def main() -> None:
    every = study_data(study_puzzles(), ("optimal_length", *CANDIDATES))
    data = StudyData(every.puzzles, MODEL_FEATURES,
                     every.inputs[:, [every.names.index(name) for name in MODEL_FEATURES]])
    model = fit(data)
    time_cv, solved_cv = cross_validated(data)
    ours = agreement(data, time_cv, -solved_cv)
    length = data.labels.astype(np.float64)
    alone = agreement(data, length, length)
    write_text_atomically(MODEL, json.dumps(model.to_json(), indent=1) + "\n")
    with atomic_writer(PLOT, "wb") as stream:
        stream.write(_plot(data, np.exp(time_cv)))
    print("| predictor | Spearman with median time | with solved share | mean within "
          "length | within 6, 10, 13, 15 moves |")
    print("|---|---|---|---|---|")
    print(_row("optimal length alone", alone))
    print(_row("model (leave-one-out)", ours))
    sizes = (len(TIME_FEATURES) - 1, len(SOLVED_FEATURES) - 1)
    nested = nested_cross_validated(every, sizes)
    print(_row("features chosen inside each fold", agreement(every, nested[0], -nested[1])))
    time_all, solved_all = cross_validated(every, every.names, every.names)
    print(_row("every feature, one ridge", agreement(every, time_all, -solved_all)))
    for name, (time_names, solved_names) in CANDIDATE_SETS.items():
        candidate = cross_validated(every, time_names, solved_names)
        print(_row(name + " (leave-one-out)", agreement(every, candidate[0], -candidate[1])))
    for size in range(1, 6):
        if size != sizes[0]:
            other = nested_cross_validated(every, (size, sizes[1]))
            print(_row(f"{size} chosen inside each fold", agreement(every, other[0], -other[1])))
    for name, linear in (("log seconds", model.time), ("solved log-odds", model.solved)):
        terms = ", ".join(f"{feature} {value:+.3f}" for feature, value in
                          zip(model.features, linear.coefficients, strict=True))
        print(f"{name}: {linear.intercept:+.3f}, {terms} (penalty {linear.alpha:.3g})")
    _disagreements(data, time_cv, length)


def _disagreements(data: StudyData, time_cv: np.ndarray, length: np.ndarray) -> None:
    """Print the five puzzles whose ranks by the model and by the length differ most."""
    by_model, by_length = rankdata(time_cv), rankdata(length)
    observed = rankdata(data.seconds)
    print("\nwhere the model and the length disagree most (ranks among 70, 1 the quickest):")
    print("| puzzle | moves | model rank | length rank | people's rank | median s | "
          "solved |")
    print("|---|---|---|---|---|---|---|")
    for k in np.argsort(-np.abs(by_model - by_length), kind="stable")[:5]:
        p = data.puzzles[k]
        print(f"| {p.instance} | {p.label - 1} | {by_model[k]:.0f} | {by_length[k]:.1f} | "
              f"{observed[k]:.0f} | {p.median_seconds:.1f} | {p.solved}/{p.tried} |")


if __name__ == "__main__":
    main()
