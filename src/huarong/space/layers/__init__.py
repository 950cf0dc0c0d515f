"""The layer figures of every layout (docs §5) at scale.

:mod:`~huarong.space.layers.graph` builds one group's step graph and sweeps it
(:mod:`huarong.graph.sweeps`);
:mod:`~huarong.space.layers.job` the resumable job behind ``huarong db layers`` (plan, units,
checkpoints, commits); :mod:`~huarong.space.layers.runner` runs a plan here or on Dask."""

from huarong.graph.sweep_common import FIGURE_COLUMNS, SOURCES_PER_SWEEP
from huarong.space.database import ClassKey
from huarong.space.layers.graph import (
    NOT_COMPUTED,
    STANDARD_CLASS,
    Piece,
    class_figures,
    expand_mirrors,
    figure_column,
    figures_of_groups,
    group_figures,
    group_graph,
    mirror_ids,
    sweep_pieces,
)
from huarong.space.layers.job import (
    ClassPlan,
    JobError,
    Unit,
    checkpoint_directory,
    commit_class,
    compute_unit,
    estimate_seconds,
    is_done,
    parse_class,
    plan,
    save_unit,
)
from huarong.space.layers.runner import JobProgress, run

__all__ = [
    "FIGURE_COLUMNS", "NOT_COMPUTED", "SOURCES_PER_SWEEP", "STANDARD_CLASS", "ClassKey",
    "ClassPlan", "JobError", "JobProgress", "Piece", "Unit", "checkpoint_directory",
    "class_figures", "commit_class", "compute_unit", "estimate_seconds", "expand_mirrors",
    "figure_column", "figures_of_groups", "group_figures", "group_graph", "is_done",
    "mirror_ids", "parse_class", "plan", "run", "save_unit", "sweep_pieces",
]
