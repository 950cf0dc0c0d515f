"""Regenerate the package's table of the Rush Hour study (``src/huarong/puzzles/difficulty/
data/rush_hour_study.csv``) from the study's files: ``paths.csv`` (every attempt) and
``problems/*.json`` (the boards), both under the MIT licence (Copyright (c) 2018 Yichen Li)
that ``data/LICENSE`` keeps beside the table.  Run from the repository root:

    PYTHONPATH=src python tools/rush_hour_study.py ../shared/data/rush-hour-human-study

(the study's files as copied unchanged from the repository ``sherrybao222/RushHour``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from huarong.fileio import write_text_atomically
from huarong.puzzles.difficulty.study import (
    STUDY_TABLE,
    StudyPuzzle,
    board_of_problem,
    format_table,
    puzzle_figures,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "huarong" / "puzzles" / "difficulty" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("study", type=Path, help="the study's folder")
    folder = parser.parse_args().study
    figures = puzzle_figures((folder / "paths.csv").read_text(encoding="utf-8"))
    boards = dict(board_of_problem(path.read_text(encoding="utf-8"), str(path))
                  for path in sorted((folder / "problems").glob("*.json")))
    if set(boards) != set(figures):
        raise SystemExit(f"boards and attempts name different puzzles: "
                         f"{sorted(set(boards) ^ set(figures))}")
    puzzles = []
    for name in sorted(figures):
        label, tried, solved, median = figures[name]
        puzzles.append(StudyPuzzle(name, label, boards[name], tried, solved, median))
    write_text_atomically(DATA / STUDY_TABLE, format_table(puzzles))
    write_text_atomically(DATA / "LICENSE", (folder / "LICENSE").read_text(encoding="utf-8"))
    print(f"{len(puzzles)} puzzles -> {DATA / STUDY_TABLE}")


if __name__ == "__main__":
    main()
