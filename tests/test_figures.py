"""The figures file beside the database (huarong.space.figures): what it holds against the
database's own rows, the layer figures still read from the database, damaged files refused,
and the server answering the same rows with and without it."""

from __future__ import annotations

import logging
import random
import shutil
from pathlib import Path

import duckdb
import numpy as np
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from huarong.cli import main
from huarong.engine.ids import LAYOUT_COUNT
from huarong.engine.layout import Layout
from huarong.space import figures as figures_file
from huarong.space.database import HAS_LAYER_FIGURES, Database
from huarong.space.figures import FiguresError, GroupFigures, figures_path
from huarong.space.rows import layer_classes_not_stamped, read_record

from .small_database import class_database

pytestmark = pytest.mark.big_memory  # the class database labels all 29 M layouts' groups

CLASS = (7, 0)  # 3,508 layouts of 7 styles in 382 groups, 3,200 without a goal


LAYER_FIGURES = ("UPDATE layouts SET farthest_steps = group_index % 97, "
                 "farthest_count = id % 13 + 1, "
                 "solution_count = CASE WHEN id % 5 = 0 THEN NULL ELSE group_size END "
                 "WHERE style = {style}")
"""Made-up layer figures for one class-style, some of them NULL: the point is where they are
read (``db layers`` computes real ones, a test below)."""


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of one class, two of its styles with layer figures, and its tables
    written by ``huarong db table``."""
    path = class_database(tmp_path_factory.mktemp("figures") / "class.duckdb", CLASS)
    with duckdb.connect(str(path)) as connection:
        for style in (1, 2):
            connection.execute(LAYER_FIGURES.format(style=style))
    result = CliRunner().invoke(main, ["db", "table", "-q", "--db", str(path)])
    assert result.exit_code == 0, result.output
    assert str(figures_path(path)) in result.output
    return path


@pytest.fixture(scope="module")
def codes(database: Path) -> list[int]:
    with Database.open(database) as opened:
        return [row[0] for row in opened.query("SELECT code FROM layouts ORDER BY id").rows]


def _with_layer_figures(source: Path, target: Path, style: int) -> Path:
    """A copy of ``source`` (its tables too) where class-style ``style`` gains layer figures
    after the figures file was written, as when ``db layers`` is stopped before its end."""
    for suffix in ("", figures_file.SUFFIX, ".minsteps"):
        shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
    with duckdb.connect(str(target)) as connection:
        connection.execute(LAYER_FIGURES.format(style=style))
    return target


def test_the_figures_are_the_database_rows(database: Path, codes: list[int]) -> None:
    """Every layout of the class, field by field, against the database's columns."""
    with Database.open(database) as opened, GroupFigures.open(figures_path(database)) as held:
        assert held.rows == len(codes) == 3_508
        assert held.group_count == opened.query("SELECT count(*) FROM groups").rows[0][0]
        stored = opened.query("SELECT code, group_num, group_index, group_size, min_steps, "
                              "min_step_solutions, farthest_steps, farthest_count, "
                              "solution_count FROM layouts ORDER BY id").rows
        assert held.layer_rows == sum(row[6] is not None for row in stored) > 0
        for code, *figures in stored:
            built = held.of(Layout(code))
            assert built is not None and list(built) == figures, f"{code:09X}"
        # Goals and none; layer figures and none; a NULL among layer figures.
        assert 0 < sum(row[4] is None for row in stored) < len(stored)
        assert sum(row[8] is None and row[6] is not None for row in stored) > 0
        assert held.layer_classes == opened.layer_classes() == {
            (CLASS[0], CLASS[1], style) for style in (1, 2)}
        for code in random.Random(3).sample(codes, 300):
            layout = Layout(code)
            assert read_record(opened, layout, held) == opened.info(layout)
        # A layout of another class: the database has no row of it.
        assert held.of(Layout.from_code("1A9BF0C00")) is None


def test_layer_figures_newer_than_the_file_are_read_from_the_database(
        database: Path, codes: list[int], tmp_path: Path) -> None:
    copy = _with_layer_figures(database, tmp_path / "layers.duckdb", style=3)
    with Database.open(copy) as opened, GroupFigures.open(figures_path(copy)) as held:
        assert held.layer_rows < opened.row_count(HAS_LAYER_FIGURES)
        assert opened.layer_classes() == {(CLASS[0], CLASS[1], style) for style in (1, 2, 3)}
        # The file's stamp names the classes it holds: the one computed since is read from
        # the database.
        newer = layer_classes_not_stamped(opened, held)
        assert newer == {(CLASS[0], CLASS[1], 3)}
        picked = random.Random(5).sample(codes, 600)
        for code in picked:
            layout = Layout(code)
            assert read_record(opened, layout, held, newer) == opened.info(layout)
        # Told no class is newer, the file answers alone, and style 3 has no layer figures
        # in it: the database was asked for the classes named.
        style_3 = next(Layout(code) for code in picked if Layout(code).style_num == 3)
        assert read_record(opened, style_3, held).farthest_steps is None
        assert opened.info(style_3).farthest_steps is not None


def test_db_layers_writes_the_figures_again(database: Path, tmp_path: Path) -> None:
    copy = tmp_path / "layers.duckdb"
    for suffix in ("", figures_file.SUFFIX):
        shutil.copyfile(f"{database}{suffix}", f"{copy}{suffix}")
    result = CliRunner().invoke(main, ["db", "layers", "7-0", "--db", str(copy)])
    assert result.exit_code == 0, result.output
    with Database.open(copy) as opened, GroupFigures.open(figures_path(copy)) as held:
        stored = opened.query("SELECT code, farthest_steps, farthest_count, solution_count "
                              "FROM layouts").rows
        assert held.layer_rows == len(stored) == 3_508
        assert held.layer_classes == set(opened.query(
            "SELECT DISTINCT jiang, bing, style FROM layouts").rows)
        for code, *layers in stored:
            built = held.of(Layout(code))
            assert built is not None
            assert list(built[-3:]) == layers


def _damaged(source: Path, target: Path, how: str) -> Path:
    shutil.copyfile(source, target)
    with target.open("r+b") as stream:
        if how == "truncated":
            stream.truncate(target.stat().st_size - 1000)
        elif how == "magic":
            stream.write(b"DUCKDB\0\0")
        else:
            stream.seek(figures_file.HEADER_SIZE + figures_file.RECORD.itemsize * 123_456 + 2)
            stream.write(b"\1")
    return target


@pytest.mark.parametrize(("how", "reason"), [("truncated", "truncated"),
                                             ("magic", "not a huarong figures file"),
                                             ("flipped", "checksum")])
def test_damaged_figures_are_refused_in_one_line(database: Path, tmp_path: Path, how: str,
                                                 reason: str) -> None:
    damaged = _damaged(figures_path(database), tmp_path / f"{how}.figures", how)
    with pytest.raises(FiguresError) as caught:
        GroupFigures.open(damaged)
    message = str(caught.value)
    assert "\n" not in message and reason in message and str(damaged) in message
    assert "huarong db table" in message


def test_a_figure_the_file_cannot_hold_is_refused(tmp_path: Path, database: Path) -> None:
    copy = tmp_path / "wide.duckdb"
    shutil.copyfile(database, copy)
    with duckdb.connect(str(copy)) as connection:
        connection.execute("UPDATE layouts SET min_step_solutions = 70000 WHERE id = "
                           "(SELECT min(id) FROM layouts)")
    result = CliRunner().invoke(main, ["db", "table", "-q", "--db", str(copy)])
    assert result.exit_code == 2
    assert "min_step_solutions from 0 to 70000 does not fit" in result.output
    assert not figures_path(copy).exists()


def _rows(database: Path, codes: list[int]) -> tuple[list[object], dict[str, object]]:
    """The rows ``/api/layout`` answers and ``/api/health``, from a server started anew (its
    workers are not started: light answers need none)."""
    from huarong.web.app import create_app

    client = TestClient(create_app(database, workers=1))
    rows = [client.get("/api/layout", params={"code": f"{code:09X}"}).json()["database"]
            for code in codes]
    return rows, client.get("/api/health").json()


def test_the_server_answers_the_same_rows_from_the_figures(
        database: Path, codes: list[int], tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """With the figures file, as written and with layer figures newer than it, against the
    same database without the file; then with a damaged file."""
    picked = random.Random(8).sample(codes, 100)
    newer = _with_layer_figures(database, tmp_path / "newer.duckdb", style=3)
    for source in (database, newer):
        bare = tmp_path / f"bare-{source.name}"
        shutil.copyfile(source, bare)
        expected, health = _rows(bare, picked)
        assert health["figures_file"] is None and health["database"] == str(bare)
        answered, health = _rows(source, picked)
        assert health["figures_file"] == str(figures_path(source))
        assert answered == expected
    styles = {row["label"].split("-")[2]: row["farthest_steps"] for row in expected}  # type: ignore[index]
    assert styles["3"] is not None and styles["4"] is None
    # A damaged file is said once in the log and the rows come from the database.
    _damaged(figures_path(database), figures_path(bare), "flipped")
    with caplog.at_level(logging.WARNING, logger="huarong.space.rows"):
        answered, health = _rows(bare, picked)
    assert answered == expected and health["figures_file"] is None
    assert [record.message.count("checksum") for record in caplog.records] == [1]


def test_figures_written_while_the_server_runs_are_read(database: Path,
                                                        tmp_path: Path) -> None:
    """As ``db layers`` writes them after its last commit: the database does not change."""
    from huarong.web.app import create_app

    copy = tmp_path / "later.duckdb"
    shutil.copyfile(database, copy)
    client = TestClient(create_app(copy, workers=1))
    assert client.get("/api/health").json()["figures_file"] is None
    shutil.copyfile(figures_path(database), figures_path(copy))
    assert client.get("/api/health").json()["figures_file"] == str(figures_path(copy))


def test_figures_of_another_database_are_not_used(database: Path, tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    other = tmp_path / "other.duckdb"
    shutil.copyfile(database, other)
    shutil.copyfile(figures_path(database), figures_path(other))
    with duckdb.connect(str(other)) as connection:
        connection.execute("DELETE FROM layouts WHERE id = (SELECT min(id) FROM layouts)")
    with caplog.at_level(logging.WARNING, logger="huarong.space.rows"):
        _, health = _rows(other, [])
    assert health["figures_file"] is None
    assert any("written from another database" in record.message for record in caplog.records)


@pytest.mark.slow
def test_the_whole_database_comes_with_its_figures(database_path: Path) -> None:
    """Every id's record of ``db build``'s figures file against the database's columns."""
    with Database.open(database_path) as opened:
        columns = opened.query("SELECT count(*) FROM layouts").rows[0][0]
        assert columns == LAYOUT_COUNT
        records = np.fromfile(figures_path(database_path), dtype=figures_file.RECORD,
                              count=LAYOUT_COUNT, offset=figures_file.HEADER_SIZE)
        for batch in opened.stream("SELECT id, group_index, group_num, min_step_solutions, "
                                   "coalesce(min_steps, 255) FROM layouts",
                                   batch_rows=1 << 22).batches:
            ids = batch.column(0).to_numpy()
            for position, name in enumerate(figures_file.RECORD.names or (), start=1):
                assert np.array_equal(records[name][ids], batch.column(position).to_numpy())
