"""Searches by other people's definitions (``huarong puzzle search --preset NAME``), one
module per preset, each behind the small protocol :class:`Preset`: its options, its units,
the work of a unit, how the units' answers combine, and what the combined answer is as a
result file, as JSON and as text.

Every module of this package that defines ``PRESET`` is a preset (:func:`presets` finds
them), so a new preset is its own module, its kernel and its tests: the command line lists,
runs and checks the options of whatever it finds here; a preset that also offers a design
space (:class:`DesignPreset`) serves ``huarong puzzle design --preset`` too
(:func:`design_presets`).  The units run as one resumable job
(:func:`~huarong.puzzles.jobs.run_job`: threads or Dask workers, a checkpoint directory).
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from huarong.puzzles.jobs import Columns, run_job

if TYPE_CHECKING:
    import pyarrow as pa

    from huarong.puzzles.design import DesignSpace

Progress = Callable[[str, int, int], None]
"""``progress(phase, done, total)``."""

Settings = Mapping[str, Any]
"""A preset's option values by :attr:`PresetOption.name` (an option not given is absent)."""


@dataclass(frozen=True)
class PresetOption:
    """An option of ``huarong puzzle search`` that only some presets take: its keyword
    ``name`` (``max_walls``), ``flag`` (``--max-walls``), value ``kind`` (int or str),
    ``metavar`` and ``help``."""

    name: str
    flag: str
    kind: type
    metavar: str
    help: str


class Preset(Protocol):
    """A search by another author's definitions.

    ``name`` is what ``--preset`` takes, ``summary`` one sentence for the help, ``options``
    the extra options it takes, ``outputs`` the suffixes ``-o`` may have and ``unit_name``
    what progress calls its units."""

    name: str
    summary: str
    options: tuple[PresetOption, ...]
    outputs: tuple[str, ...]
    unit_name: str

    def check(self, settings: Settings) -> None:
        """Refuse bad option values (:class:`~huarong.puzzles.PuzzleError`) before any
        work."""

    def units(self, settings: Settings) -> Sequence[Any]:
        """The job's units (plain data: Dask sends them to other processes)."""

    def job_key(self, settings: Settings, units: Sequence[Any]) -> str:
        """What a checkpoint of this job holds: units saved under another key are not
        taken."""

    def sizes(self, units: Sequence[Any]) -> Sequence[float] | None:
        """The units' sizes, the biggest started first; None: as listed."""

    def worker(self, settings: Settings) -> Callable[[Any], Columns]:
        """The work of one unit: a module-level function or a ``functools.partial`` of one
        (Dask pickles it)."""

    def combine(self, units: Sequence[Any], answers: Iterable[tuple[int, Columns]],
                settings: Settings) -> Any:
        """The units' answers (index, columns; in any order) as the preset's answer."""

    def table(self, found: Any) -> pa.Table:
        """The answer as a result file's table
        (:func:`~huarong.puzzles.results.results_table`)."""

    def write(self, found: Any, path: Path) -> int:
        """The answer to ``path``, one of :attr:`outputs`, atomically; the rows written."""

    def totals(self, found: Any, settings: Settings) -> Any:
        """The answer's figures as ``--json`` prints them (JSON values)."""

    def report(self, found: Any, totals: Any) -> list[str]:
        """The answer as lines for a terminal."""

    def failed(self, totals: Any) -> bool:
        """Whether the answer disagrees with what it was checked against (exit status 1)."""


class DesignPreset(Preset, Protocol):
    """A preset that also offers a design space (``huarong puzzle design --preset NAME``):
    ``design_help`` says what the space is, for the help."""

    design_help: str

    def design_space(self, rows: int | None, columns: int | None,
                     walls: tuple[int, int] | None) -> DesignSpace:
        """The space of designs by the preset's definitions on a ``rows`` x ``columns``
        board (None: the preset's own) adding ``walls`` walls (None: the preset's
        range)."""


@functools.cache
def presets() -> dict[str, Preset]:
    """Every preset of this package, by name."""
    found: dict[str, Preset] = {}
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("_"):
            continue
        preset = getattr(importlib.import_module(f"{__name__}.{module.name}"), "PRESET", None)
        if preset is not None:
            found[preset.name] = preset
    return dict(sorted(found.items()))


def design_presets() -> dict[str, DesignPreset]:
    """The presets that offer a design space, by name."""
    return {name: cast("DesignPreset", preset) for name, preset in presets().items()
            if hasattr(preset, "design_space")}


def preset_options() -> dict[str, PresetOption]:
    """The extra options of every preset, by name (presets sharing one share its meaning)."""
    return {option.name: option for preset in presets().values() for option in preset.options}


def run_preset(preset: Preset, settings: Settings, *, threads: int = 1,
               directory: Path | None = None, cluster: str | None = None,
               progress: Progress | None = None) -> Any:
    """The preset's answer: its units run on ``threads`` threads or on the Dask scheduler
    at ``cluster``, each finished unit saved in the checkpoint ``directory`` (resumed when
    run again; the caller removes it, :func:`~huarong.puzzles.jobs.finish`)."""
    preset.check(settings)
    if progress is not None:
        progress(f"listing the {preset.unit_name}", 0, 1)
    units = preset.units(settings)
    answers = run_job(units, preset.worker(settings), threads=threads, sizes=preset.sizes(units),
                      directory=directory, key=preset.job_key(settings, units),
                      cluster=cluster,
                      progress=None if progress is None else functools.partial(
                          progress, preset.unit_name))
    return preset.combine(units, answers, settings)
