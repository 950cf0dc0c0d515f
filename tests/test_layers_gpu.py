"""The GPU layer sweeps (``huarong db layers --gpu``) against the CPU sweeps.

Without a GPU the CUDA kernels run under numba's simulator, which must be switched on before
``numba.cuda`` is first imported: the simulated part runs once, in a child process
(``python -m tests.test_layers_gpu OUT``), and writes what it computed to OUT; the tests here
compare that with the CPU sweeps (:func:`huarong.space.layers.group_figures`, checked against
a per-layout search in ``test_layers.py``), computed in this process.  The simulator runs a
Python thread per GPU thread, so the groups are tiny (tens to a hundred layouts).  A test on a
real GPU runs where one is present.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest

from huarong.engine.layout import Layout
from huarong.space import layers

ROOT = Path(__file__).resolve().parent.parent
GROUP_SEEDS = ("82029F400", "ADD520000", "C55348000", "C58763000", "A51CD1C00")
"""Groups of 33-104 layouts: two self-mirror, three not; with goals, solutions at several
steps (more solutions than those at the minimum), several solutions at the minimum."""
LAUNCH_MEMORY = 17_000
"""Bytes a launch in the figures run: too few for two words a node on the group of 104
sources, so they take two segments; and two groups a launch where they fit."""
CLASSES = ("7-0-6", "7-0-7")
"""44 + 2 groups, 268 layouts: the unit path, its checkpoints and the command line."""
CPU_CHECKPOINTED = (7, 0, 6)
DEFAULT_KERNEL = "push"
"""huarong._kernels.layers_cuda.DEFAULT_KERNEL (not imported here: that imports numba.cuda,
which must come after the simulator is switched on)."""
WIDE_MEMORY = 1 << 20
"""Bytes a launch in the wide runs: two words a node on the group of 104 sources, in one
segment, so lanes of the second word too."""
_SWEEPS = [("pull", "pull", ("82029F400", "C58763000"), LAUNCH_MEMORY),
           ("list", "list", ("82029F400", "C58763000"), LAUNCH_MEMORY),
           ("list-wide", "list", ("82029F400",), WIDE_MEMORY),
           (f"{DEFAULT_KERNEL}-wide", DEFAULT_KERNEL, ("82029F400",), WIDE_MEMORY),
           (DEFAULT_KERNEL, DEFAULT_KERNEL, GROUP_SEEDS, LAUNCH_MEMORY)]
"""The runs of the group figures: (name, kernel, the groups it sweeps, bytes a launch).  The
kernels but the default on a group cut into two segments whose mirror group's figures follow
from its own, and a self-mirror one (the simulator is slow); the new kernel and the default on
the first with two words a node; the default, last, on every group."""
PACKED_KERNELS = (DEFAULT_KERNEL, "list")
"""The kernels that sweep both classes at once, their small groups in one launch."""


def _child(out: Path) -> None:
    """The simulated half: everything the tests below check, written to ``out``."""
    from click.testing import CliRunner

    from huarong._kernels import layers_cuda
    from huarong.cli import main
    from huarong.graph import sweeps_gpu
    from huarong.space.layers import job, runner
    from tests.small_database import class_database

    launches: list[list[int]] = []
    real_count_sweeps = layers_cuda.count_sweeps

    def recorded(*arrays: np.ndarray) -> np.ndarray:
        launches.append([int(arrays[4].shape[0]), int(arrays[4].shape[1])])
        return real_count_sweeps(*arrays)

    layers_cuda.count_sweeps = recorded  # type: ignore[assignment]
    log: dict[str, Any] = {"problem": sweeps_gpu.problem(),
                           "default_kernel": layers_cuda.DEFAULT_KERNEL}

    pieces = []
    for code in GROUP_SEEDS:
        graph, sources = layers.group_graph(int(Layout.from_code(code)))
        pieces.append(layers.Piece(int(Layout.from_code(code)), graph.size, 0,
                                   sources.shape[0]))
    log["sweep_launches"] = {}
    for name, kernel, codes_swept, memory in _SWEEPS:
        os.environ[layers_cuda.KERNEL_VARIABLE] = kernel
        del launches[:]
        parts = layers.sweep_pieces([pieces[GROUP_SEEDS.index(code)] for code in codes_swept],
                                    1, backend="gpu", memory=memory)
        for code, (codes, figures) in zip(codes_swept, parts, strict=True):
            np.save(out / f"group-{code}-{name}-codes.npy", codes)
            np.save(out / f"group-{code}-{name}-figures.npy", figures)
        log["sweep_launches"][name] = launches[:]
    log["group_launches"] = launches[:]
    # The job's plumbing from here on, on the kernel the simulator runs fastest (the two give
    # the same figures: above); the classes sharing a launch on the default.
    os.environ[layers_cuda.KERNEL_VARIABLE] = "pull"

    # The unit path: every unit of the classes on the GPU, kept to compare with the CPU's.
    keys = [key for text in CLASSES for key in layers.parse_class(text)]
    first = class_database(out / "cpu-then-gpu.duckdb", (7, 0))
    plans = layers.plan(first, keys)
    del launches[:]
    for class_plan in plans:
        for unit in class_plan.units:
            codes, figures = job.compute_unit(unit, gpu=True)
            np.save(out / f"unit-{unit.name}-codes.npy", codes)
            np.save(out / f"unit-{unit.name}-figures.npy", figures)
    log["unit_launches"] = launches[:]
    log["units"] = [unit.name for p in plans for unit in p.units]

    # CPU checkpoints resumed by a GPU run of the command line...
    directory = layers.checkpoint_directory(first)
    log["cpu_checkpointed"] = []
    for class_plan in plans:
        if class_plan.key == CPU_CHECKPOINTED:
            for unit in class_plan.units:
                layers.save_unit(directory, unit, *job.compute_unit(unit))
                log["cpu_checkpointed"].append(unit.name)
    computed: list[str] = []
    real_save = runner.save_unit

    def watched(directory: Path, unit: layers.Unit, *args: Any) -> Any:
        computed.append(unit.name)
        return real_save(directory, unit, *args)

    runner.save_unit = watched  # type: ignore[assignment]
    result = CliRunner().invoke(main, ["db", "layers", *CLASSES, "--gpu", "--db", str(first)])
    log["cli"] = [result.exit_code, result.stderr]
    log["computed_by_cli"] = computed[:]
    runner.save_unit = real_save  # type: ignore[assignment]

    # Both classes at once: their small groups share one launch.
    for kernel in PACKED_KERNELS:
        both = class_database(out / f"both-{kernel}.duckdb", (7, 0))
        del launches[:]
        if kernel == DEFAULT_KERNEL:  # named by nobody: the default, with int32 offsets
            del os.environ[layers_cuda.KERNEL_VARIABLE]
        else:
            os.environ[layers_cuda.KERNEL_VARIABLE] = kernel
        layers.run(both, layers.plan(both, keys), threads=2, gpu=True)
        log[f"both_launches_{kernel}"] = launches[:]
    os.environ[layers_cuda.KERNEL_VARIABLE] = "pull"
    log["both_groups"] = sum(len(unit.pieces) for p in plans for unit in p.units)

    # ... and GPU checkpoints resumed by a CPU run.
    second = class_database(out / "gpu-then-cpu.duckdb", (7, 0))
    directory = layers.checkpoint_directory(second)
    for class_plan in layers.plan(second, keys):
        for unit in class_plan.units[::2]:
            layers.save_unit(directory, unit, *job.compute_unit(unit, gpu=True))
    layers.run(second, layers.plan(second, keys), threads=1)
    _child_on_dask(out, log)
    (out / "log.json").write_text(json.dumps(log))


def _child_on_dask(out: Path, log: dict[str, Any]) -> None:
    """Units of groups above the size go to the worker with the GPU resource, swept there on
    the GPU; a cluster without one is refused."""
    from distributed import Client, LocalCluster

    from huarong.space.layers import runner
    from tests.small_database import class_database

    keys = layers.parse_class("7-0-7")
    path = class_database(out / "dask.duckdb", (7, 0))
    log["dask_units"] = [unit.name for p in layers.plan(path, keys) for unit in p.units]
    runner.GPU_GROUP_SIZE = 44  # the class's one searched group: 44 layouts
    submitted: list[list[Any]] = []
    for resources in ({}, {"GPU": 1}):
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                          dashboard_address=None, resources=resources) as cluster, \
                Client(cluster) as client:
            real_submit = client.submit

            def submit(function: Any, *args: Any, real: Any = real_submit,
                       **kwargs: Any) -> Any:
                submitted.append([args[0].name, kwargs.get("resources"), kwargs.get("gpu")])
                return real(function, *args, **kwargs)

            client.submit = submit  # type: ignore[method-assign]
            try:
                layers.run(path, layers.plan(path, keys), client=client, gpu=True)
            except layers.JobError as error:
                log["dask_refused"] = str(error)
    log["dask_submitted"] = submitted


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gpu-simulated")
    environment = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    done = subprocess.run([sys.executable, "-m", "tests.test_layers_gpu", str(out)],
                          cwd=ROOT, env=environment, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def _log(out: Path) -> dict[str, Any]:
    log: dict[str, Any] = json.loads((out / "log.json").read_text())
    return log


@pytest.mark.parametrize(("name", "code"), [(name, code) for name, _, codes, _ in _SWEEPS
                                             for code in codes])
def test_group_figures_equal_the_cpu_sweep(simulated: Path, code: str, name: str) -> None:
    """All five figures of every layout of the group (and of its mirror group), to the
    byte, in the same order, with every kernel."""
    cpu_codes, cpu_figures = layers.group_figures(int(Layout.from_code(code)), threads=1)
    codes = np.load(simulated / f"group-{code}-{name}-codes.npy")
    figures = np.load(simulated / f"group-{code}-{name}-figures.npy")
    graph, _ = layers.group_graph(int(Layout.from_code(code)))
    if graph.mirror is None:  # group_figures gives the group only, sweep_pieces both
        order = np.argsort(codes, kind="stable")
        codes, figures = codes[order], figures[:, order]
        mine = np.isin(codes, graph.codes)
        codes, figures = codes[mine], figures[:, mine]
    assert codes.tobytes() == cpu_codes.tobytes()
    assert figures.dtype == cpu_figures.dtype
    assert figures.tobytes() == cpu_figures.tobytes()


@pytest.mark.parametrize("name", [name for name, *_ in _SWEEPS if name.endswith("-wide")])
def test_wide_runs_take_two_words_a_node(simulated: Path, name: str) -> None:
    """One launch of one segment of 128 lanes: the 104 sources of the group span two words."""
    assert _log(simulated)["sweep_launches"][name] == [[1, 128]]


def test_the_chosen_groups_exercise_every_figure() -> None:
    """The groups above are worth comparing: solutions beyond the minimum steps, several at
    the minimum, sources without a solution, farthest layouts more than one."""
    figures = np.concatenate([layers.group_figures(int(Layout.from_code(code)), threads=1)[1]
                              for code in GROUP_SEEDS], axis=1)
    assert (figures[4] > figures[3]).any()
    assert (figures[3] > 1).any()
    assert (figures[1] > 1).any()


def test_sources_cut_into_segments_and_groups_packed(simulated: Path) -> None:
    """Within 17 kB a launch, the group of 104 sources gets one word a node, so two segments
    of 64 lanes; groups of few sources share a launch."""
    launches = _log(simulated)["group_launches"]
    sources = sum(layers.group_graph(int(Layout.from_code(code)))[1].shape[0]
                  for code in GROUP_SEEDS)
    segments = sum(count for count, _ in launches)
    assert sum(count * lanes for count, lanes in launches) >= sources
    assert segments > len(GROUP_SEEDS)
    assert len(launches) < segments


def test_small_groups_take_one_launch(simulated: Path) -> None:
    """The 46 groups of the classes' units fit one launch a unit."""
    log = _log(simulated)
    assert len(log["unit_launches"]) == len(log["units"])
    assert max(count for count, _ in log["unit_launches"]) > 20


@pytest.mark.parametrize("kernel", PACKED_KERNELS)
def test_classes_share_a_launch(simulated: Path, expected: dict[int, tuple[int, ...]],
                                kernel: str) -> None:
    """``db layers --gpu`` of two classes: every searched group of both in one launch, and
    the figures stored are the CPU's."""
    log = _log(simulated)
    assert [count for count, _ in log[f"both_launches_{kernel}"]] == [log["both_groups"]]
    assert _stored(simulated / f"both-{kernel}.duckdb") == expected


def test_units_equal_the_cpu_units(simulated: Path, tmp_path: Path) -> None:
    from tests.small_database import class_database

    path = class_database(tmp_path / "db.duckdb", (7, 0))
    plans = layers.plan(path, [key for text in CLASSES for key in layers.parse_class(text)])
    names = []
    for class_plan in plans:
        for unit in class_plan.units:
            codes, figures = layers.compute_unit(unit)
            names.append(unit.name)
            assert np.load(simulated / f"unit-{unit.name}-codes.npy").tobytes() == \
                codes.tobytes()
            gpu_figures = np.load(simulated / f"unit-{unit.name}-figures.npy")
            assert gpu_figures.dtype == figures.dtype
            assert gpu_figures.tobytes() == figures.tobytes()
    assert names == _log(simulated)["units"]


def _stored(path: Path) -> dict[int, tuple[int, ...]]:
    connection = duckdb.connect(str(path), read_only=True)
    try:
        rows = connection.execute(
            "SELECT id, farthest_steps, farthest_count, solution_count FROM layouts "
            "WHERE jiang = 7 AND bing = 0 AND style IN (6, 7)").fetchall()
    finally:
        connection.close()
    return {row[0]: tuple(row[1:]) for row in rows}


@pytest.fixture(scope="module")
def expected() -> dict[int, tuple[int, ...]]:
    """Figures of the layouts of the classes, group by group on the CPU."""
    from huarong.space import cases

    codes = cases.all_codes()
    cls = cases.classes()
    groups = cases.label_groups()
    ids = np.flatnonzero((cls.jiang == 7) & (cls.bing == 0) & np.isin(cls.style, (6, 7)))
    figures: dict[int, tuple[int, ...]] = {}
    for group in np.unique(groups.group[ids]).tolist():
        group_codes, group_figures = layers.group_figures(int(codes[groups.first_ids[group]]),
                                                          threads=1)
        for layout_id, row in zip(cases.layout_ids(group_codes).tolist(),
                                  group_figures.T.tolist(), strict=True):
            figures[layout_id] = (row[0], row[1], row[4])
    assert len(figures) == 268
    return figures


def test_gpu_command_resumes_cpu_checkpoints(simulated: Path,
                                             expected: dict[int, tuple[int, ...]]) -> None:
    log = _log(simulated)
    code, err = log["cli"]
    assert code == 0, err
    assert "268/268 layouts" in err
    checkpointed = set(log["cpu_checkpointed"])
    assert checkpointed
    assert sorted(log["computed_by_cli"]) == sorted(set(log["units"]) - checkpointed)
    path = simulated / "cpu-then-gpu.duckdb"
    assert _stored(path) == expected
    assert not any(layers.checkpoint_directory(path).rglob("*.parquet"))


def test_cpu_run_resumes_gpu_checkpoints(simulated: Path,
                                         expected: dict[int, tuple[int, ...]]) -> None:
    assert _stored(simulated / "gpu-then-cpu.duckdb") == expected


def test_dask_sends_big_groups_to_the_gpu_worker(simulated: Path,
                                                 expected: dict[int, tuple[int, ...]]) -> None:
    log = _log(simulated)
    assert "--resources GPU=1" in log["dask_refused"]
    assert log["dask_submitted"] == [[name, {"GPU": 1}, True] for name in log["dask_units"]]
    stored = _stored(simulated / "dask.duckdb")
    seven = {key: value for key, value in expected.items() if key in stored
             and stored[key] != (None, None, None)}
    assert len(seven) == 88 and all(stored[key] == value for key, value in seven.items())


def test_simulator_counts_as_a_gpu(simulated: Path) -> None:
    assert _log(simulated)["problem"] is None
    assert _log(simulated)["default_kernel"] == DEFAULT_KERNEL


def test_gpu_flag_without_a_gpu_says_so() -> None:
    """Here (no simulator in this process): one line naming what is missing, exit 2."""
    from click.testing import CliRunner

    from huarong.cli import main
    from huarong.graph import sweeps_gpu

    problem = sweeps_gpu.problem()
    if problem is None:
        pytest.skip("this machine has a GPU")
    result = CliRunner().invoke(main, ["db", "layers", "7-0-7", "--gpu", "--db", "nowhere"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [f"huarong: error: --gpu: {problem}"]
    result = CliRunner().invoke(main, ["db", "layers", "7-0-7", "--gpu", "--workers", "2"])
    assert result.exit_code == 2 and "--workers" in result.stderr


@pytest.mark.parametrize("memory", [10_000, 1 << 20, 1 << 30])
def test_launch_plan_covers_every_source_once_within_memory(memory: int) -> None:
    """Segments of at most 64 × words sources, words a power of two no more than the sources
    need, each job's sources covered once in order, a launch within ``memory`` unless it is
    one segment alone; segments of one launch share their words."""
    from huarong._kernels.layers_cuda import BYTES_A_NODE, BYTES_A_NODE_WORD
    from huarong._kernels.layers_cuda_levels import MAX_WORDS
    from huarong.graph import sweeps_gpu

    jobs = [(964_656, 482_328), (81_340, 81_340), (300, 150), (40, 40), (4, 2), (90, 65)] \
        + [(12, 12)] * 50
    covered: dict[int, list[tuple[int, int]]] = {}
    for launch in sweeps_gpu.plan_launches(jobs, memory):
        assert launch.words in {2 ** k for k in range(7)} and launch.words <= MAX_WORDS
        nodes = 0
        for segment in launch.segments:
            size, sources = jobs[segment.job]
            assert 0 < segment.stop - segment.start <= 64 * launch.words
            assert launch.words == 1 or 64 * launch.words // 2 < sources
            covered.setdefault(segment.job, []).append((segment.start, segment.stop))
            nodes += size
        if len(launch.segments) > 1:
            assert nodes * (launch.words * BYTES_A_NODE_WORD + BYTES_A_NODE) <= memory
    for job, (_, sources) in enumerate(jobs):
        spans = sorted(covered[job])
        assert spans[0][0] == 0 and spans[-1][1] == sources
        assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))
    if memory == 1 << 30:  # the fifty groups of twelve share one launch
        assert len({id(launch) for launch in sweeps_gpu.plan_launches(jobs, memory)
                    for segment in launch.segments if jobs[segment.job] == (12, 12)}) == 1


def _real_gpu() -> bool:
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return False
    from huarong.graph import sweeps_gpu

    return sweeps_gpu.problem() is None


@pytest.mark.skipif(not _real_gpu(), reason="no CUDA GPU")
@pytest.mark.parametrize("kernel", [DEFAULT_KERNEL + "32", "list", "list32"])
@pytest.mark.parametrize("code", ["1A9BF0C00", "4FEA13400"])
def test_real_gpu_equals_the_cpu_sweep(code: str, kernel: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Two groups named in issue 23, all five figures, with the default kernel and the
    newest."""
    monkeypatch.setenv("HUARONG_GPU_KERNEL", kernel)
    graph, sources = layers.group_graph(int(Layout.from_code(code)))
    piece = layers.Piece(int(Layout.from_code(code)), graph.size, 0, sources.shape[0])
    [(codes, figures)] = layers.sweep_pieces([piece], 1, backend="gpu")
    [(cpu_codes, cpu_figures)] = layers.sweep_pieces([piece], os.cpu_count() or 1)
    assert codes.tobytes() == cpu_codes.tobytes()
    assert figures.tobytes() == cpu_figures.tobytes()


if __name__ == "__main__":
    _child(Path(sys.argv[1]))
