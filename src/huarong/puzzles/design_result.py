"""What a design search (:mod:`huarong.puzzles.design_search`) answers: the best distinct
clusters it found, its figures, and the result file it writes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from huarong.puzzles.design import Design, DesignSpace, spec_of_counts
from huarong.puzzles.design_chain import Found
from huarong.puzzles.design_evaluate import Evaluator
from huarong.puzzles.results import results_table, totals_of, write_results

if TYPE_CHECKING:
    import pyarrow as pa


@dataclass(frozen=True, eq=False)
class DesignResult:
    """A run's answer: the best distinct clusters (``rows``, hardest first), the
    ``evaluations`` made, the distinct ``clusters`` valued, the ``seconds`` taken, whether
    it was ``stopped`` (Ctrl-C) before its budget was spent and whether its chains
    ``used_up`` the space (met only clusters met before for a long while)."""

    space: DesignSpace
    evaluator: Evaluator
    rows: list[Found]
    evaluations: int
    clusters: int
    seconds: float
    stopped: bool = False
    used_up: bool = False

    def summary(self) -> dict[str, Any]:
        """``{"length", "start", "states", "evaluations", "clusters", "seconds"}``: the
        best hardest length, its start as grid text and its cluster's size (null without
        one), and what the run did."""
        best = self.rows[0] if self.rows else None
        return {"length": None if best is None else best.value.length,
                "start": None if best is None else self.evaluator.grid(best.value.hardest),
                "states": None if best is None else best.value.states,
                "evaluations": self.evaluations, "clusters": self.clusters,
                "seconds": round(self.seconds, 1)}

    def table(self) -> pa.Table:
        """The rows as a result file's table: each row its start's cluster, its own goal,
        distinct piece and pieces, and how it was found."""
        columns: dict[str, list[Any]] = {name: [] for name in (
            "states", "solved", "length", "start", "goal", "distinct", "pieces", "walls",
            "minimal", "seed", "evaluation")}
        kinds = len(self.space.kinds)
        for row in self.rows:
            design = row.value.hardest
            start = self.evaluator.grid(design)
            for name, item in (
                    ("states", row.value.states), ("solved", row.value.solved),
                    ("length", row.value.length), ("start", start),
                    ("goal", self.evaluator.goal(design)),
                    ("distinct", _goal_letter(self.space, start, design)),
                    ("pieces", spec_of_counts(self.space, design.counts(kinds))),
                    ("walls", len(design.walls)), ("minimal", row.minimal),
                    ("seed", row.seed), ("evaluation", row.evaluation)):
                columns[name].append(item)
        summary = self.summary()
        totals = totals_of(self.clusters, sum(f.value.states for f in self.rows),
                           None if summary["length"] is None
                           else (summary["length"], summary["start"]))
        return results_table(columns, self.space.file_puzzle(), totals)

    def write(self, path: str | Path) -> None:
        """The table to a ``.parquet`` or ``.duckdb`` file, atomically."""
        write_results(self.table(), path)


def _goal_letter(space: DesignSpace, start: str, design: Design) -> str | None:
    """The goal piece's letter in the start's grid when it is distinct, else None."""
    if not space.kinds[0].distinct:
        return None
    anchor = next(a for kind, a in design.pieces if kind == 0)
    return start.replace("/", "")[space.cells_of(0, anchor)[0]]
