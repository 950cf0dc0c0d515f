"""Shared fixtures: the whole database (built once per session, in a subprocess), and a
temporary directory inside the checkout instead of /tmp, removed when the session ends."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from huarong.fileio import process_alive

if TYPE_CHECKING:
    from playwright.sync_api import Browser

_OWN_BASETEMP = "_huarong_own_basetemp"
_RUN_PREFIX = "run-"


def _remove_abandoned_runs(parent: Path) -> None:
    """Folders of runs whose process is gone (killed before it could clean up); a run still
    going, in another terminal, keeps its own."""
    for folder in parent.glob(f"{_RUN_PREFIX}*"):
        pid = folder.name[len(_RUN_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and not process_alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def pytest_configure(config: pytest.Config) -> None:
    # Everything a test writes (tmp_path, tempfile, DuckDB spills) stays under the checkout
    # and goes away at the end, so a run leaves nothing in /tmp.  Each run has a folder of its
    # own, so two runs in one checkout never delete each other's files.
    if config.option.basetemp is None:
        parent = Path(config.rootpath) / ".pytest-tmp"
        parent.mkdir(exist_ok=True)
        _remove_abandoned_runs(parent)
        base = Path(tempfile.mkdtemp(prefix=f"{_RUN_PREFIX}{os.getpid()}-", dir=parent))
        config.option.basetemp = str(base / "tmp")
        scratch = base / "scratch"
        scratch.mkdir()
        os.environ["TMPDIR"] = str(scratch)
        tempfile.tempdir = str(scratch)
        setattr(config, _OWN_BASETEMP, base)


def pytest_unconfigure(config: pytest.Config) -> None:
    base = getattr(config, _OWN_BASETEMP, None)
    if base is not None:
        shutil.rmtree(base, ignore_errors=True)
        with contextlib.suppress(OSError):  # another run's folder is still there
            base.parent.rmdir()


BIG_MEMORY_FILES = frozenset({
    "test_api_contract.py", "test_browser_explore.py", "test_cases.py", "test_cli_database.py",
    "test_cli_draw.py", "test_explorer_api.py", "test_explorer_data.py", "test_faults.py",
    "test_figures.py", "test_layers.py", "test_layers_job.py", "test_puzzle_jobs.py",
    "test_stats.py", "test_table.py"})
"""The files marked big_memory: the scheduler below reads this list (it sees test ids, not
markers), and the collection checks that it names exactly the marked files."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The files marked big_memory run first, file by file, before the rest of the suite
    # (compiled kernels, imported libraries, caches) has grown the process: the suite's peak
    # memory is then one file's peak (arrays over all layouts, a Dask cluster) on a small
    # process, not on a large one.
    items.sort(key=lambda item: item.get_closest_marker("big_memory") is None)
    marked = {item.path.name for item in items if item.get_closest_marker("big_memory")}
    collected = {item.path.name for item in items}
    if marked != BIG_MEMORY_FILES & collected:
        raise pytest.UsageError(f"tests/conftest.py's BIG_MEMORY_FILES must name the files "
                                f"marked big_memory: {sorted(marked ^ BIG_MEMORY_FILES)}")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under xdist (`-n 2`, pyproject.toml) a worker takes whole files, so that a file's
    module fixtures (a browser, a server, the whole-space arrays) are made once; and one
    worker takes every big_memory file, one after another, so that two of them never hold
    their memory at once while the other worker runs the rest."""
    from xdist.scheduler import LoadFileScheduling

    class BigMemoryOnOneWorker(LoadFileScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            return "big_memory" if Path(file).name in BIG_MEMORY_FILES else file

    return BigMemoryOnOneWorker(config, log)


@pytest.fixture(autouse=True, scope="module")
def _whole_space_results_released() -> Iterator[None]:
    """After each test file, let go of the arrays over all 29,334,498 layouts that the
    library keeps for the life of a process (codes, classes, groups, minimum steps): a file
    that needs them computes them again, and the suite stays within 2 GB instead of carrying
    every file's results into the next."""
    yield
    import gc

    from huarong.space import cases
    from huarong.space.explorer import catalog
    from huarong.space.layers import graph

    cases._all_codes.cache_clear()
    cases.classes.cache_clear()
    cases._groups.clear()
    cases._min_steps.clear()
    catalog._enumeration_classes.cache_clear()
    catalog._enumeration_class_steps.cache_clear()
    graph._group_graph.cache_clear()
    gc.collect()


@pytest.fixture(scope="session")
def database_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole database, built by ``huarong db build`` in a child process: its ~2 GB
    peak is freed when the child ends instead of staying in the test process."""
    target = tmp_path_factory.mktemp("db") / "huarong.duckdb"
    subprocess.run([sys.executable, "-m", "huarong", "db", "build", "-q", "--db", str(target)],
                   check=True)
    return target


@pytest.fixture(scope="session")
def standard_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database in the real schema holding only the standard class (5-4) with its ids and
    minimum steps, the figures the level picker reads (other figures are zero or null):
    building all 29 million layouts is a slow test."""
    import duckdb
    import pyarrow as pa

    from huarong.space import cases, database

    codes, min_steps, _ = cases.min_steps_of_class(5, 4)
    rows = pa.table({"id": cases.layout_ids(codes), "code": codes, "min_steps": min_steps})
    path = tmp_path_factory.mktemp("standard") / "standard.duckdb"
    with duckdb.connect(str(path)) as connection:
        connection.execute(database._SCHEMA)
        connection.register("rows", rows)
        connection.execute(
            "INSERT INTO layouts (id, code, jiang, bing, style, group_num, group_index, "
            "group_size, min_steps, min_step_solutions, \"symmetric\", mirror_id) "
            "SELECT id, code, 5, 4, 0, 0, 0, 0, NULLIF(min_steps, -1), 0, false, 0 FROM rows")
    return path


# The browser tests' two fixtures (tests/test_browser*.py; a file may define its own).
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium through Playwright (the test skips without it)."""
    from tests.test_browser import launch_chromium

    with launch_chromium() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """The app without a database (whatever $HUARONG_DB says): the classics only."""
    from tests.test_browser import _serve

    with _serve(Path(__file__).parent / "no-such-database.duckdb") as url:
        yield url
