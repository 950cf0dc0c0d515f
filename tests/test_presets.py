"""The presets' registry and runner (huarong.puzzles.presets): every module that defines
PRESET is found, the command line offers what it finds, and run_preset drives any object of
the protocol through a resumable job."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from huarong.cli.puzzle_search import search as command
from huarong.puzzles.jobs import Columns
from huarong.puzzles.presets import PresetOption, Settings, preset_options, presets, run_preset


def test_the_registry_finds_each_preset_module() -> None:
    """The two modules of the package that define PRESET, named as --preset takes them."""
    folder = Path(__file__).parents[1] / "src" / "huarong" / "puzzles" / "presets"
    modules = sorted(path.stem for path in folder.glob("*.py")
                     if not path.stem.startswith("_") and "\nPRESET = " in path.read_text())
    assert modules == ["bickford", "rush_hour"]
    assert list(presets()) == ["rush-hour", "sbp-4x4"]
    assert {option.flag for option in preset_options().values()} == {"--compare",
                                                                      "--max-walls"}


def test_the_command_offers_every_preset_and_its_options() -> None:
    text = CliRunner().invoke(command, ["--help"], terminal_width=200).output
    for name, preset in presets().items():
        assert name in text
        for option in preset.options:
            assert f"{option.flag} {option.metavar}" in text


def _square_unit(n: int, calls: list[int]) -> Columns:
    calls.append(n)
    return {"square": np.array([n * n], dtype=np.int64)}


class _Squares:
    """A preset of the protocol, not registered: unit n answers n squared."""

    name = "squares"
    summary = "squares"
    options: tuple[PresetOption, ...] = ()
    outputs: tuple[str, ...] = (".parquet",)
    unit_name = "numbers"

    def __init__(self) -> None:
        self.calls: list[int] = []

    def check(self, settings: Settings) -> None:
        if settings.get("count", 0) < 0:
            raise ValueError("count")

    def units(self, settings: Settings) -> list[int]:
        return list(range(settings["count"]))

    def job_key(self, settings: Settings, units: Sequence[Any]) -> str:
        return f"squares {len(units)}"

    def sizes(self, units: Sequence[Any]) -> None:
        return None

    def worker(self, settings: Settings) -> Any:
        return functools.partial(_square_unit, calls=self.calls)

    def combine(self, units: Sequence[Any], answers: Iterable[tuple[int, Columns]],
                settings: Settings) -> list[int]:
        found = dict(answers)
        return [int(found[index]["square"][0]) for index in range(len(units))]

    def table(self, found: Any) -> Any:
        raise NotImplementedError

    def write(self, found: Any, path: Path) -> int:
        raise NotImplementedError

    def totals(self, found: Any, settings: Settings) -> Any:
        return found

    def report(self, found: Any, totals: Any) -> list[str]:
        return [str(totals)]

    def failed(self, totals: Any) -> bool:
        return False


def test_run_preset_runs_combines_and_resumes(tmp_path: Path) -> None:
    squares = _Squares()
    phases: list[str] = []
    found = run_preset(squares, {"count": 6}, threads=2, directory=tmp_path / "job",
                       progress=lambda phase, done, total: phases.append(phase))
    assert found == [n * n for n in range(6)]
    assert sorted(squares.calls) == list(range(6))
    assert phases[0] == "listing the numbers" and set(phases[1:]) == {"numbers"}
    squares.calls.clear()
    again = run_preset(squares, {"count": 6}, directory=tmp_path / "job")
    assert again == found and squares.calls == []  # every unit read from the checkpoint
    with pytest.raises(ValueError, match="count"):
        run_preset(squares, {"count": -1})
