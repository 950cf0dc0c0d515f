"""The whole database, built once per test session for every test file that needs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from huarong import database


@pytest.fixture(scope="session")
def database_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return database.build(tmp_path_factory.mktemp("db") / "huarong.duckdb")
