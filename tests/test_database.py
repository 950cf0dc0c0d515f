"""The DuckDB database of every layout: build (once, slow), look-ups, queries, export.

Figures come from docs §4, seed 000, the issue (25,422 groups, the largest 964,656), the
performance notes (横刀立马's group: 25,955 layouts) and the one-layout solver."""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from huarong.engine.layout import Layout
from huarong.engine.solver import group_codes, solve
from huarong.space import build, cases, database
from huarong.space.database import Database, DatabaseError, DatabaseMissingError

from .test_cases import SEED_JIANG_BING


@pytest.fixture(scope="module")
def db(database_path: Path) -> Database:
    return Database.open(database_path)


# ----- fast: errors, paths, atomic build --------------------------------------------------
def test_missing_database_says_to_build(tmp_path: Path) -> None:
    with pytest.raises(DatabaseMissingError, match="huarong db build"):
        Database.open(tmp_path / "absent.duckdb")


def test_default_path_follows_the_environment(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setenv("HUARONG_DB", str(tmp_path / "x.duckdb"))
    assert database.default_path() == tmp_path / "x.duckdb"
    monkeypatch.delenv("HUARONG_DB")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert database.default_path() == tmp_path / ".local/share/huarong/huarong.duckdb"


def test_failed_build_leaves_nothing_behind(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "layout_columns", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build.build(tmp_path / "huarong.duckdb")
    assert list(tmp_path.iterdir()) == []


def test_existing_database_is_kept_without_force(tmp_path: Path) -> None:
    target = tmp_path / "huarong.duckdb"
    target.write_bytes(b"old")
    with pytest.raises(DatabaseError, match="--force"):
        build.build(target)
    assert target.read_bytes() == b"old"


# ----- the whole database (slow) --------------------------------------------------------
@pytest.mark.slow
def test_every_layout_once(db: Database) -> None:
    result = db.query("SELECT count(*), count(DISTINCT code), min(id), max(id), "
                      "count(DISTINCT label) FROM layouts")
    n = cases.LAYOUT_COUNT
    assert result.rows == [(n, n, 0, n - 1, n)]


@pytest.mark.slow
def test_class_and_group_figures(db: Database) -> None:
    rows = db.query("SELECT jiang, bing, count(*) FROM layouts GROUP BY ALL").rows
    assert {(j, b): c for j, b, c in rows} == SEED_JIANG_BING
    assert db.query("SELECT count(*) FROM (SELECT DISTINCT jiang, bing, style "
                    "FROM layouts)").rows == [(203,)]
    assert db.query("SELECT count(*), max(size), sum(size) FROM groups").rows == [
        (25_422, 964_656, cases.LAYOUT_COUNT)]
    # Every group's rows agree with its groups row: size, seed, numbering from 0.
    assert db.query("""
        SELECT count(*) FROM groups g JOIN (
            SELECT jiang, bing, style, group_num, count(*) AS n, min(code) AS seed,
                   max(group_index) AS last, max(group_size) AS size
            FROM layouts GROUP BY ALL) l USING (jiang, bing, style, group_num)
        WHERE l.n = g.size AND l.seed = g.seed AND l.last = g.size - 1 AND l.size = g.size
        """).rows == [(25_422,)]


@pytest.mark.slow
def test_info_of_hengdaolima(db: Database) -> None:
    record = db.info("1A9BF0C00")
    assert (record.jiang, record.bing, record.style) == (5, 4, 1)
    assert record.group_size == 25_955
    assert record.min_steps == 81
    assert record.label.startswith("5-4-1-")
    assert record.id == cases.layout_id("1A9BF0C00")


@pytest.mark.slow
def test_info_of_random_layouts_matches_the_solver(db: Database) -> None:
    codes = cases.all_codes()
    for rank in random.Random(4).sample(range(cases.LAYOUT_COUNT), 8):
        layout = Layout.from_code(int(codes[rank]))
        record = db.info(layout)
        members = [int(m) for m in group_codes(layout)]
        solution = solve(layout)
        assert record.id == rank
        assert record.group_size == len(members)
        assert record.group_index == members.index(int(layout))
        assert record.min_steps == solution.steps
        assert (record.min_step_solutions == 0) == (not solution.solvable)


@pytest.mark.slow
def test_info_is_the_stored_row(db: Database) -> None:
    """``info`` reads the figures only the database knows and takes the rest (id, class,
    symmetry, mirror) from the layout: together they are the row ``db build`` stored."""
    columns = ", ".join(f'"{name}"' for name in database.LAYOUT_COLUMNS if name != "code")
    for rank in random.Random(7).sample(range(cases.LAYOUT_COUNT), 40):
        stored = db.query(f"SELECT {columns} FROM layouts WHERE id = {rank}").rows[0]
        layout = Layout.from_code(int(cases.all_codes()[rank]))
        assert db.info(layout) == database.LayoutRecord(layout, *stored)


@pytest.mark.slow
def test_hex_macro_and_bad_sql(db: Database) -> None:
    assert db.query("SELECT hex(code), hex FROM layouts WHERE id = 0").rows == [
        ("000000000", "000000000")]
    with pytest.raises(DatabaseError, match="no_such_table"):
        db.query("SELECT * FROM no_such_table")
    with pytest.raises(DatabaseError):
        db.query("DELETE FROM layouts")


@pytest.mark.slow
def test_export_parquet(db: Database, tmp_path: Path) -> None:
    target = tmp_path / "layouts.parquet"
    db.export(target, "parquet")
    exported = pq.read_metadata(target)
    assert exported.num_rows == cases.LAYOUT_COUNT
    assert list(tmp_path.iterdir()) == [target]
