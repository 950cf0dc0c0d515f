"""The NYU Ma lab's Rush Hour study (Li, Bnaya & Ma, CogSci 2019; MIT licence, Copyright (c)
2018 Yichen Li): its 70 boards and, per puzzle, what people did.

The package ships the per-puzzle table (``data/rush_hour_study.csv``, made by
``tools/rush_hour_study.py`` from the study's ``paths.csv`` and ``problems/*.json``) and the
study's licence beside it; :func:`puzzle_figures` derives the table's figures from
``paths.csv``, so a test can check the shipped table against the study's own file.
"""

from __future__ import annotations

import csv
import io
import json
import statistics
from dataclasses import dataclass
from importlib import resources

SIDE = 6
STUDY_TABLE = "rush_hour_study.csv"
TABLE_COLUMNS = ("instance", "label", "board", "tried", "solved", "median_seconds")
LABELS = (7, 11, 14, 16)
"""The study's optimal-length labels: one move more than the engine's optimum (the label
counts driving the red car out)."""


class StudyDataError(ValueError):
    """A study file that does not read as the study's format; the message names the file."""


@dataclass(frozen=True)
class StudyPuzzle:
    """One puzzle of the study: its ``instance`` name, the study's ``label`` (optimal length
    plus one), the ``board`` (36 characters: ``o`` empty, ``A`` the red car, ``B``... the
    others), how many people ``tried`` and ``solved`` it, and the ``median_seconds`` over the
    people who solved it of their time on it, summed over all their attempts."""

    instance: str
    label: int
    board: str
    tried: int
    solved: int
    median_seconds: float

    @property
    def solved_share(self) -> float:
        """The share of the people who tried it who solved it."""
        return self.solved / self.tried


def board_of_problem(text: str, where: str = "problem") -> tuple[str, str]:
    """(instance, 36-character board) of a study problem file's JSON: the red car ``A``,
    the other cars lettered ``B``, ``C``... by their top-left cell."""
    try:
        problem = json.loads(text)
        cars = sorted(problem["cars"], key=lambda car: (not car["player"], car["position"]))
        cells = ["o"] * (SIDE * SIDE)
        for number, car in enumerate(cars):
            step = 1 if car["orientation"] == "horizontal" else SIDE
            for k in range(int(car["length"])):
                cells[int(car["position"]) + k * step] = chr(ord("A") + number)
        return str(problem["id"]), "".join(cells)
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise StudyDataError(f"{where}: not a study problem ({error})") from None


def puzzle_figures(paths_csv: str) -> dict[str, tuple[int, int, int, float]]:
    """Per instance of the study's ``paths.csv`` text: (label, people who tried, people who
    solved, median seconds over the solvers of their attempts' times summed)."""
    rows = csv.reader(io.StringIO(paths_csv))
    header = [name.strip() for name in next(rows)]
    try:
        at = {name: header.index(name) for name in
              ("subject", "instance", "optimal_length", "complete", "rt")}
    except ValueError as error:
        raise StudyDataError(f"paths.csv: {error}") from None
    spent: dict[str, dict[str, float]] = {}
    solvers: dict[str, set[str]] = {}
    labels: dict[str, int] = {}
    for row in rows:
        instance, subject = row[at["instance"]].strip(), row[at["subject"]].strip()
        labels[instance] = int(row[at["optimal_length"]])
        times = spent.setdefault(instance, {})
        times[subject] = times.get(subject, 0.0) + float(row[at["rt"]]) / 1000
        if row[at["complete"]].strip() == "True":
            solvers.setdefault(instance, set()).add(subject)
    figures = {}
    for instance, times in sorted(spent.items()):
        won = solvers.get(instance, set())
        median = statistics.median(times[s] for s in won) if won else float("nan")
        figures[instance] = (labels[instance], len(times), len(won), median)
    return figures


def format_table(puzzles: list[StudyPuzzle]) -> str:
    """The per-puzzle table as CSV text (:data:`TABLE_COLUMNS`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(TABLE_COLUMNS)
    for p in puzzles:
        writer.writerow([p.instance, p.label, p.board, p.tried, p.solved,
                         f"{p.median_seconds:.3f}"])
    return out.getvalue()


def read_table(text: str) -> list[StudyPuzzle]:
    """The per-puzzle table from its CSV text."""
    rows = csv.DictReader(io.StringIO(text))
    if tuple(rows.fieldnames or ()) != TABLE_COLUMNS:
        raise StudyDataError(f"{STUDY_TABLE}: columns {rows.fieldnames}, not {TABLE_COLUMNS}")
    return [StudyPuzzle(row["instance"], int(row["label"]), row["board"], int(row["tried"]),
                        int(row["solved"]), float(row["median_seconds"])) for row in rows]


def study_puzzles() -> list[StudyPuzzle]:
    """The study's 70 puzzles from the package's table, in instance order."""
    data = resources.files("huarong.puzzles.difficulty") / "data" / STUDY_TABLE
    return read_table(data.read_text(encoding="utf-8"))
