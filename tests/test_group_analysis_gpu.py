"""``analyze-group --gpu`` and ``analyze-multi-group --gpu``: the recording sweeps on a CUDA
GPU write the same files as the CPU sweeps, byte for byte.

Without a GPU the CUDA kernels run under numba's simulator, which must be switched on before
``numba.cuda`` is first imported: the simulated part runs once, in a child process
(``python -m tests.test_group_analysis_gpu OUT``), and writes its tables to OUT; the tests here
compare their checksums with the tables of the CPU sweeps (checked against a search per layout
in ``test_group_analysis.py``), written in this process, and with the checksums the original
database publishes.  The simulator runs a Python thread per GPU thread, so the groups are tiny.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from huarong.cli import main
from huarong.engine.layout import Layout
from huarong.space.group_tables import write_group_tables

from .test_original_files import PUBLISHED_MD5, seed_file

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ("A553A3000", "636F53400", "D35A3EC00", "C18AEB000", "C58763000")
"""Groups of 66, 30, 20, 54 and 72 layouts: goals at several steps, several solutions at the
minimum, a group without goals (636F53400), one of goals only (D35A3EC00); the last is its
own mirror image (its sweeps take 38 sources, one of each mirror pair), the others' mirror
images are other groups."""
TABLES = {"original-integral": ("original", True), "huarong": ("huarong", False)}
"""Tables written, by name: (format, integral)."""
CLASS = "7-0-7"
"""A class whose published checksums the command line on the simulated GPU reproduces."""
ROOM = 5
"""Rows a level first has room for in the simulated run: most levels run their recording
again with more."""
MEMORY = 5_000
"""GPU bytes granted to the simulated sweeps: one word (64 sources) a node, so the group of
66 layouts takes two sweeps."""


def _child(out: Path) -> None:
    """The simulated half: every table the tests below check, written to ``out``."""
    from huarong._kernels import group_analysis_cuda
    from huarong.graph import sweeps_gpu

    group_analysis_cuda.ROOM_FIRST_TRIED = ROOM  # type: ignore[misc]
    sweeps_gpu.UNKNOWN_MEMORY = MEMORY  # type: ignore[misc]
    sweeps: list[int] = []
    rooms: list[int] = []
    real_sweep = group_analysis_cuda.RecordingSweeps.sweep

    def counted(self: group_analysis_cuda.RecordingSweeps, *args: object, **kwargs: object
                ) -> object:
        sweeps.append(self.words)
        result = real_sweep(self, *args, **kwargs)  # type: ignore[arg-type]
        rooms.extend(rows.room.shape[0] for rows in self._rows)
        return result

    group_analysis_cuda.RecordingSweeps.sweep = counted  # type: ignore[assignment,method-assign]
    seeds = [Layout.from_code(code) for code in SEEDS]
    for name, (table_format, integral) in TABLES.items():
        write_group_tables(seeds, out / f"{name}-farthest.csv", out / f"{name}-solution.csv",
                           integral=integral, table_format=table_format,  # type: ignore[arg-type]
                           gpu=True)
    result = CliRunner().invoke(main, [
        "analyze-multi-group", "--gpu", "-q", "--format", "original", str(out / f"{CLASS}.txt"),
        str(out / "class-farthest.csv"), str(out / "class-solution.csv")])
    log = {"problem": sweeps_gpu.problem(), "sweeps": sweeps, "rooms": rooms,
           "cli": [result.exit_code, result.stderr]}
    (out / "log.json").write_text(json.dumps(log))


def _md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gpu-simulated")
    seed_file(out, CLASS)
    environment = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    done = subprocess.run([sys.executable, "-m", "tests.test_group_analysis_gpu", str(out)],
                          cwd=ROOT, env=environment, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.mark.parametrize("name", sorted(TABLES))
def test_tables_equal_the_cpu_tables(simulated: Path, tmp_path: Path, name: str) -> None:
    table_format, integral = TABLES[name]
    farthest, solution = tmp_path / "farthest.csv", tmp_path / "solution.csv"
    write_group_tables([Layout.from_code(code) for code in SEEDS], farthest, solution,
                       integral=integral, table_format=table_format,  # type: ignore[arg-type]
                       threads=1)
    assert _md5(simulated / f"{name}-farthest.csv") == _md5(farthest)
    assert _md5(simulated / f"{name}-solution.csv") == _md5(solution)


def test_command_line_reproduces_the_published_checksums(simulated: Path) -> None:
    log = json.loads((simulated / "log.json").read_text())
    assert log["cli"][0] == 0, log["cli"][1]
    assert (_md5(simulated / "class-farthest.csv"),
            _md5(simulated / "class-solution.csv")) == PUBLISHED_MD5[CLASS]


def test_a_group_bigger_than_a_sweep_takes_several(simulated: Path) -> None:
    """Within the memory granted, one word a node: the group of 66 layouts takes two sweeps
    of 64 sources, the rest one each (twice: two tables)."""
    log = json.loads((simulated / "log.json").read_text())
    assert log["problem"] is None
    assert set(log["sweeps"]) == {1}
    assert len(log["sweeps"]) >= 2 * (len(SEEDS) + 1)


def test_rows_beyond_the_room_are_written_again(simulated: Path) -> None:
    """Room for 5 rows a level first: the levels with more grew it (and the files are
    still the CPU's, above)."""
    rooms = json.loads((simulated / "log.json").read_text())["rooms"]
    assert min(rooms) == ROOM and max(rooms) > ROOM


def test_gpu_flag_without_a_gpu_says_so(tmp_path: Path) -> None:
    """Here (no simulator in this process): one line naming what is missing, exit 2, as
    ``db layers --gpu``; nothing written."""
    from huarong.graph import sweeps_gpu

    problem = sweeps_gpu.problem()
    if problem is None:
        pytest.skip("this machine has a GPU")
    for command in (["analyze-group", SEEDS[0]], ["analyze-multi-group", "-"]):
        result = CliRunner().invoke(main, [*command, "--gpu", str(tmp_path / "f.csv"),
                                           str(tmp_path / "s.csv")], input=SEEDS[0])
        assert result.exit_code == 2
        assert result.stderr.strip().splitlines() == [f"huarong: error: --gpu: {problem}"]
    assert not any(tmp_path.iterdir())


if __name__ == "__main__":
    _child(Path(sys.argv[1]))
