"""Shared fixtures: the whole database (built once per session, in a subprocess), and a
temporary directory inside the checkout instead of /tmp, removed when the session ends."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

_OWN_BASETEMP = "_huarong_own_basetemp"


def pytest_configure(config: pytest.Config) -> None:
    # Everything a test writes (tmp_path, tempfile, DuckDB spills) stays under the checkout
    # and goes away at the end, so a run leaves nothing in /tmp.
    if config.option.basetemp is None:
        base = Path(config.rootpath) / ".pytest-tmp"
        shutil.rmtree(base, ignore_errors=True)
        config.option.basetemp = str(base / "tmp")
        scratch = base / "scratch"
        scratch.mkdir(parents=True)
        os.environ["TMPDIR"] = str(scratch)
        tempfile.tempdir = str(scratch)
        setattr(config, _OWN_BASETEMP, base)


def pytest_unconfigure(config: pytest.Config) -> None:
    base = getattr(config, _OWN_BASETEMP, None)
    if base is not None:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def database_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole database, built by ``huarong db build`` in a child process: its ~2 GB
    peak is freed when the child ends instead of staying in the test process."""
    target = tmp_path_factory.mktemp("db") / "huarong.duckdb"
    subprocess.run([sys.executable, "-m", "huarong", "db", "build", "-q", "--db", str(target)],
                   check=True)
    return target
