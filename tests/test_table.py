"""The table of minimum steps (issue 21 §2): its values against the whole-class BFS of
:mod:`huarong.space.cases`, its walks against the search (the very same path), damaged tables
refused in one line, and the command line and the web server answering the same with it as
without it."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from huarong.cli import main
from huarong.engine.layout import Layout
from huarong.engine.solver import solve
from huarong.space import cases
from huarong.space import table as steps_table
from huarong.space.database import Database
from huarong.space.table import NOT_KNOWN, MinStepsTable, TableError, table_path, write_table
from huarong.web.app import create_app

pytestmark = pytest.mark.big_memory

LAYOUT_COUNT = 29_334_498
HENGDAO, HARDEST = "1A9BF0C00", "4FEA13400"  # 81 and 138 steps (docs §3, §7)
STUCK = "1AAEF0C00"  # a standard layout whose group holds no goal (tests/test_web.py)
# Small classes of every shape of class: few and many 2-cell pieces, few and many soldiers.
OTHER_CLASSES = [(0, 0), (0, 1), (1, 0), (0, 14), (2, 0), (7, 0), (1, 1), (3, 0), (6, 0),
                 (4, 0), (0, 12), (5, 0), (2, 1), (6, 1), (3, 1)]


@pytest.fixture(scope="module")
def standard() -> tuple[np.ndarray, np.ndarray]:
    """The codes and minimum steps of the standard class, by the whole-class BFS."""
    codes, min_steps, _ = cases.min_steps_of_class(5, 4)
    return codes, min_steps


@pytest.fixture(scope="module")
def database(standard_database: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the standard-class database with its table written beside it by
    ``huarong db table``."""
    copy = tmp_path_factory.mktemp("with-table") / "standard.duckdb"
    shutil.copyfile(standard_database, copy)
    result = CliRunner().invoke(main, ["db", "table", "-q", "--db", str(copy)])
    assert result.exit_code == 0, result.output
    assert table_path(copy).is_file()
    return copy


@pytest.fixture(scope="module")
def table(database: Path) -> MinStepsTable:
    return MinStepsTable.open(table_path(database))


def test_the_table_holds_every_standard_layouts_min_steps(
        table: MinStepsTable, standard: tuple[np.ndarray, np.ndarray]) -> None:
    codes, min_steps = standard
    assert codes.shape == (363_480,)
    entries = np.frombuffer(table.path.read_bytes(), dtype=np.uint8,
                            offset=steps_table.HEADER_SIZE)
    held = entries[cases.layout_ids(codes)].astype(np.int16)
    held[held == 255] = -1
    assert np.array_equal(held, min_steps)
    # Every other layout is marked as not held.
    assert int((entries == 254).sum()) == LAYOUT_COUNT - codes.shape[0]
    for code, steps in zip(codes[::9973].tolist(), min_steps[::9973].tolist(), strict=True):
        assert table.min_steps(Layout(code)) == (None if steps < 0 else steps)


def test_walks_give_the_searchs_own_path(table: MinStepsTable,
                                         standard: tuple[np.ndarray, np.ndarray]) -> None:
    codes, _ = standard
    rng = random.Random(21)
    picked = [Layout(int(codes[i])) for i in rng.sample(range(codes.shape[0]), 300)]
    picked += [Layout(HENGDAO), Layout(HARDEST), Layout(STUCK), Layout("DAAF4CC00")]
    for layout in picked:
        walked, searched = table.solve(layout), solve(layout)
        assert walked is not None
        assert walked.path == searched.path, layout.code
    assert table.solve(Layout(HARDEST)).steps == 138  # type: ignore[union-attr]


def test_walk_lengths_match_the_table_on_many_layouts(
        table: MinStepsTable, standard: tuple[np.ndarray, np.ndarray]) -> None:
    codes, min_steps = standard
    for i in range(0, codes.shape[0], 97):
        solution = table.solve(Layout._trusted(int(codes[i])))
        assert solution is not None
        assert (solution.steps if solution.solvable else -1) == min_steps[i]


def test_walks_in_other_classes_give_the_searchs_path(tmp_path: Path) -> None:
    min_steps = np.full(LAYOUT_COUNT, NOT_KNOWN, dtype=np.int16)
    chosen: list[np.ndarray] = []
    for jiang, bing in OTHER_CLASSES:
        codes, steps, _ = cases.min_steps_of_class(jiang, bing)
        min_steps[cases.layout_ids(codes)] = steps
        chosen.append(codes)
    with MinStepsTable.open(write_table(tmp_path / "some.minsteps", min_steps)) as other:
        rng = random.Random(25)
        for codes in chosen:
            for i in rng.sample(range(codes.shape[0]), min(25, codes.shape[0])):
                layout = Layout(int(codes[i]))
                walked = other.solve(layout)
                assert walked is not None and walked.path == solve(layout).path, layout.code


def test_layouts_the_table_does_not_hold_are_searched(table: MinStepsTable) -> None:
    outside = Layout.from_grid("VCCV/VCCV/HH../HHSS/SSSS")  # 4 two-cell pieces, 6 soldiers
    assert not table.holds(outside)
    assert table.solve(outside) is None
    with pytest.raises(KeyError, match=outside.code):
        table.min_steps(outside)
    assert steps_table.solve(outside, table).path == solve(outside).path


def _damaged(tmp_path: Path, table: MinStepsTable, how: str) -> Path:
    data = bytearray(table.path.read_bytes())
    if how == "truncated":
        data = data[:-1000]
    elif how == "magic":
        data[:8] = b"DUCKDB\0\0"
    else:
        data[steps_table.HEADER_SIZE + 4_091_296] ^= 1
    target = tmp_path / f"{how}.minsteps"
    target.write_bytes(bytes(data))
    return target


@pytest.mark.parametrize(("how", "reason"), [("truncated", "truncated"),
                                             ("magic", "not a huarong table"),
                                             ("flipped", "checksum")])
def test_damaged_tables_are_refused_in_one_line(tmp_path: Path, table: MinStepsTable,
                                                how: str, reason: str) -> None:
    damaged = _damaged(tmp_path, table, how)
    with pytest.raises(TableError) as caught:
        MinStepsTable.open(damaged)
    message = str(caught.value)
    assert reason in message and str(damaged) in message and "huarong db table" in message
    assert "\n" not in message


def test_the_writer_refuses_what_the_table_cannot_hold(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="holds 29,334,498"):
        write_table(tmp_path / "x", np.zeros(10, dtype=np.int16))
    too_many = np.zeros(LAYOUT_COUNT, dtype=np.int16)
    too_many[5] = 254
    with pytest.raises(ValueError, match="do not fit"):
        write_table(tmp_path / "x", too_many)
    assert not (tmp_path / "x").exists()


def _run(*args: str, database: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), env={"HUARONG_DB": str(database)})
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("command", [["solve", HARDEST], ["solve", HENGDAO, "--json"],
                                     ["solve", STUCK], ["hint", HARDEST],
                                     ["hint", "--json", HENGDAO], ["hint", STUCK]])
def test_the_command_line_answers_the_same_with_the_table(database: Path, tmp_path: Path,
                                                          command: list[str]) -> None:
    without = _run(*command, database=tmp_path / "none.duckdb")
    assert _run(*command, database=database) == without


def test_with_the_table_nothing_is_searched(database: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from huarong.engine import solver
    from huarong.web.heavy import HeavyAnswers

    def no_search(*args: object) -> None:
        raise AssertionError("searched although the table holds the layout")

    monkeypatch.setattr(solver, "solve", no_search)
    # A group search would be a worker's job.
    monkeypatch.setattr(HeavyAnswers, "run", no_search)
    assert _run("solve", HARDEST, "-c", database=database)[0] == 0
    assert _run("hint", HARDEST, database=database)[0] == 0
    client = TestClient(create_app(database))
    for url, params in [("/solution", {"t": "json", "q": HENGDAO}),
                        ("/api/next", {"code": HARDEST}), ("/api/classics", {})]:
        assert client.get(url, params=params).status_code == 200, url


def test_a_damaged_table_is_said_once_and_searched_around(database: Path, tmp_path: Path,
                                                          table: MinStepsTable) -> None:
    copy = tmp_path / "damaged.duckdb"
    shutil.copyfile(database, copy)
    table_path(copy).write_bytes(_damaged(tmp_path, table, "flipped").read_bytes())
    code, out, err = _run("solve", HENGDAO, "-c", database=copy)
    assert (code, out) == _run("solve", HENGDAO, "-c", database=tmp_path / "none.duckdb")[:2]
    assert err.count("\n") == 1 and "ignoring the table" in err and "checksum" in err


def test_db_info_shows_the_short_code_and_the_table(database: Path, tmp_path: Path) -> None:
    code, out, _ = _run("db", "info", HENGDAO, "--json", database=database)
    fields = json.loads(out)
    assert code == 0 and fields["short_code"] == "4WVE1" and fields["id"] == 4_091_296
    assert fields["table"] == str(table_path(database)) and fields["min_steps"] == 81
    bare = tmp_path / "bare.duckdb"
    shutil.copyfile(database, bare)
    code, out, _ = _run("db", "info", HENGDAO, database=bare)
    assert code == 0 and "huarong db table writes it" in out and "4WVE1" in out


def test_db_table_without_a_database_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = _run("db", "table", database=tmp_path / "none.duckdb")
    assert code == 2 and "no database" in err


def test_database_reads_its_min_steps_by_id(database: Path,
                                            standard: tuple[np.ndarray, np.ndarray]) -> None:
    codes, min_steps = standard
    with Database.open(database) as opened:
        by_id = opened.min_steps_by_id()
    assert np.array_equal(by_id[cases.layout_ids(codes)], min_steps)
    assert int((by_id == NOT_KNOWN).sum()) == LAYOUT_COUNT - codes.shape[0]


def test_the_web_server_answers_the_same_with_the_table(database: Path) -> None:
    with_table = TestClient(create_app(database))
    without = TestClient(create_app(Path(__file__).parent / "no-such-database.duckdb"))
    mirrored = Layout(HARDEST).mirror().code
    for url, params in [("/solution", {"t": "json", "q": HARDEST}),
                        ("/solution", {"t": "json", "q": mirrored}),
                        ("/api/solve", {"code": HENGDAO}), ("/api/solve", {"code": STUCK}),
                        ("/api/next", {"code": HARDEST}), ("/api/next", {"code": STUCK}),
                        ("/api/classics", {})]:
        answer = with_table.get(url, params=params)
        assert answer.status_code == 200
        assert answer.json() == without.get(url, params=params).json(), url


@pytest.mark.slow
def test_the_whole_database_comes_with_its_table(database_path: Path) -> None:
    with MinStepsTable.open(table_path(database_path)) as whole:
        steps, _ = cases.min_steps_all()
        entries = np.frombuffer(whole.path.read_bytes(), dtype=np.uint8,
                                offset=steps_table.HEADER_SIZE).astype(np.int16)
        entries[entries == 255] = -1
        assert np.array_equal(entries, steps)
        rng = random.Random(2026)
        for rank in rng.sample(range(LAYOUT_COUNT), 100):
            layout = Layout.from_id(rank)
            assert whole.solve(layout).path == solve(layout).path  # type: ignore[union-attr]


def test_a_database_reached_through_a_link_finds_its_table(database: Path,
                                                            tmp_path: Path) -> None:
    """``db build`` through a symbolic link replaces the file it points to and writes the
    table beside that file; whoever opens the link finds the same table."""
    link = tmp_path / "link.duckdb"
    link.symlink_to(database)
    found = steps_table.open_beside(link)
    assert found is not None and found.path == table_path(database)
