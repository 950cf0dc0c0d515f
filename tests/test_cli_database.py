"""``huarong db ...``, ``huarong all`` and ``huarong all-code`` through click's CliRunner.

Expected values: the MD5 of all codes (the issue), docs §4 counts, seed 000's file layout,
and a pure-Python grouping of class 7-0 (tests/test_cases.py)."""

from __future__ import annotations

import csv
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from huarong.cli import main

from .test_cases import ALL_CODES_MD5, reference_groups, reference_layouts

pytestmark = pytest.mark.big_memory


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def md5_of(path: Path, tail: bytes = b"") -> str:
    """The MD5 of the file, with ``tail`` after it."""
    digest = hashlib.md5()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 24), b""):
            digest.update(block)
    digest.update(tail)
    return digest.hexdigest()


# ----- fast -----------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["db", "info", "1A9BF0C"], ["db", "query", "SELECT 1"],
                                     ["db", "export"]])
def test_missing_database_is_one_line_exit_2(tmp_path: Path, command: list[str]) -> None:
    code, out, err = run(*command, "--db", str(tmp_path / "none.duckdb"))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "huarong db build" in err and "none.duckdb" in err


def test_bad_layout_is_one_line_exit_2(tmp_path: Path) -> None:
    code, _, err = run("db", "info", "3A9BF0C00", "--db", str(tmp_path / "x.duckdb"))
    assert code == 2 and err.count("\n") == 1 and "3A9BF0C00" in err


def test_build_refuses_an_existing_file_without_force(tmp_path: Path) -> None:
    target = tmp_path / "db.duckdb"
    target.write_text("keep me")
    code, _, err = run("db", "build", "--db", str(target))
    assert code == 2 and "--force" in err
    assert target.read_text() == "keep me"


@pytest.mark.parametrize(("spelling", "final_newline"), [
    (["all-code"], True), (["--all-code"], False)])
def test_all_code_writes_every_code(tmp_path: Path, spelling: list[str],
                                    final_newline: bool) -> None:
    # In a child process: the whole space in memory stays out of the test process.
    target = tmp_path / "All_Case.txt"
    subprocess.run([sys.executable, "-m", "huarong", *spelling, str(target)], check=True,
                   capture_output=True)
    # The published checksum is of the codes each followed by a newline; the original
    # engine's file has none after the last.  Read in blocks: the file is 290 MB.
    with target.open("rb") as stream:
        stream.seek(-1, 2)
        assert (stream.read() == b"\n") == final_newline
    assert md5_of(target, b"" if final_newline else b"\n") == ALL_CODES_MD5
    assert list(tmp_path.iterdir()) == [target]


def test_all_code_into_a_missing_directory_is_exit_2(tmp_path: Path) -> None:
    code, _, err = run("all-code", str(tmp_path / "no" / "such" / "file.txt"))
    assert code == 2 and err.count("\n") == 1 and "file.txt" in err


@pytest.mark.parametrize("sql", ["", "   "])
def test_an_empty_query_is_bad_input(standard_database: Path, sql: str) -> None:
    code, out, err = run("db", "query", sql, "--db", str(standard_database))
    assert (code, out) == (2, "") and err.count("\n") == 1 and "SQL is empty" in err


# ----- with the whole database (slow) -------------------------------------------------------
@pytest.fixture(scope="module")
def db_path(database_path: Path) -> str:
    return str(database_path)


@pytest.mark.slow
def test_db_info_json(db_path: str) -> None:
    code, out, _ = run("db", "info", "1A9BF0C", "--json", "--db", db_path)
    assert code == 0
    record = json.loads(out)
    assert record["code"] == "1A9BF0C00"
    assert record["min_steps"] == 81 and record["group_size"] == 25_955
    assert record["label"].startswith("5-4-1-")


@pytest.mark.slow
def test_db_info_text_names_every_field(db_path: str) -> None:
    code, out, _ = run("db", "info", "VCCV/VCCV/VHHV/VSSV/S..S", "--db", db_path)
    assert code == 0
    for field in ("label", "group_num", "group_index", "group_size", "min_steps"):
        assert field in out


@pytest.mark.slow
def test_db_query_table_json_csv_and_bad_sql(db_path: str) -> None:
    sql = "SELECT jiang, bing, count(*) AS n FROM layouts WHERE jiang = 7 GROUP BY ALL"
    code, out, _ = run("db", "query", sql, "--db", db_path)
    assert code == 0 and "3508" in out
    code, out, _ = run("db", "query", sql, "--json", "--db", db_path)
    assert json.loads(out) == [{"jiang": 7, "bing": 0, "n": 3508}]
    code, out, _ = run("db", "query", sql, "--csv", "--db", db_path)
    assert out.splitlines() == ["jiang,bing,n", "7,0,3508"]
    code, _, err = run("db", "query", "SELEC nonsense", "--db", db_path)
    assert code == 2 and err.count("\n") == 1 and "SELEC nonsense" in err


@pytest.mark.slow
def test_db_export_csv(db_path: str, tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    code, _, _ = run("db", "export", "--format", "csv", "--output", str(target),
                     "--db", db_path)
    assert code == 0
    with target.open() as stream:
        header = next(csv.reader(stream))
        rows = sum(1 for _ in stream)
    assert header[:2] == ["id", "code"] and "label" in header and rows == 29_334_498


@pytest.mark.slow
def test_all_writes_the_seeds_files(tmp_path: Path) -> None:
    """The friendly format (the original one: tests/test_original_files.py).  Run in a child
    process, so its memory goes away with it."""
    done = subprocess.run([sys.executable, "-m", "huarong", "all", "-q", "--dir", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert md5_of(tmp_path / "All_Case.txt") == ALL_CODES_MD5
    class_files = sorted(p.name for p in tmp_path.glob("*-*-*.txt"))
    assert len(class_files) == 203 and "7-0-0.txt" not in class_files
    with (tmp_path / "main.csv").open() as stream:
        reader = csv.reader(stream)
        header = next(reader)
        first = next(reader)
        rows = 1 + sum(1 for _ in reader)
    assert header == ["id", "code", "jiang_num", "bing_num", "style_num", "group_num",
                      "group_index", "label"]
    assert first[1] == "000000000" and rows == 29_334_498
    # Class 7-0: one seed (smallest code) per group, by size descending then seed.
    per_style: dict[int, list[list[int]]] = {}
    for members in reference_groups(reference_layouts(7, 0)):
        style = sum(1 for i in range(16) if (members[0] >> (30 - 2 * i)) & 3 == 1)
        per_style.setdefault(style, []).append(members)
    for style, groups in per_style.items():
        groups.sort(key=lambda members: (-len(members), members[0]))
        expected = "".join(f"{members[0]:09X}\n" for members in groups)
        assert (tmp_path / f"7-0-{style}.txt").read_text() == expected
