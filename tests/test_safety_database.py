"""Databases under misuse: foreign and damaged files, queries of any size in bounded memory,
terminal versus pipe output, closed pipes, and the export format.

A tiny database (the real schema, three layouts) stands in for the whole one: these are
properties of the command line, not of the data."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from huarong.cli import database as cli_database
from huarong.cli import main
from huarong.space import database

ROWS = [  # id, code, jiang, bing, style, group_num, group_index, group_size, min_steps, sol.,
    # farthest_steps, farthest_count, solution_count, symmetric, mirror_id (its own: the
    # mirror images are not in this tiny table)
    (0, 0x000000000, 0, 0, 0, 0, 0, 1, None, 0, None, None, None, True, 0),
    (1, 0x1A9BF0C00, 5, 4, 1, 0, 100, 25_955, 81, 1, None, None, None, True, 1),
    (2, 0xDAAF4CC00, 5, 4, 1, 0, 200, 25_955, 0, 1, None, None, None, False, 2),
]


@pytest.fixture
def tiny(tmp_path: Path) -> str:
    import duckdb

    path = tmp_path / "tiny.duckdb"
    connection = duckdb.connect(str(path))
    database.create_tables(connection)
    connection.executemany(f"INSERT INTO layouts ({database.quoted_columns()}) "
                           f"VALUES ({', '.join('?' * len(database.LAYOUT_COLUMNS))})", ROWS)
    connection.close()
    return str(path)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


# ----- foreign and damaged files ----------------------------------------------------------
def foreign_files(folder: Path) -> dict[str, Path]:
    import duckdb

    text = folder / "notes.duckdb"
    text.write_text("hello\n")
    lite = folder / "lite.db"
    with sqlite3.connect(lite) as connection:
        connection.execute("CREATE TABLE layouts (id INTEGER)")
    other = folder / "other.duckdb"
    connection = duckdb.connect(str(other))
    connection.execute("CREATE TABLE layouts (id INTEGER)")
    connection.close()
    empty = folder / "empty.duckdb"
    empty.write_bytes(b"")
    return {"text": text, "sqlite": lite, "no groups table": other, "empty": empty}


@pytest.mark.parametrize("command", [["db", "info", "1A9BF0C"], ["db", "query", "SELECT 1"],
                                     ["db", "export", "-o", "-"]])
def test_foreign_or_damaged_file_is_one_line_exit_2(tmp_path: Path,
                                                    command: list[str]) -> None:
    for kind, path in foreign_files(tmp_path).items():
        code, _, err = run(*command, "--db", str(path))
        assert code == 2, kind
        assert err.count("\n") == 1 and str(path) in err, (kind, err)
        assert "download" not in err  # DuckDB must not try to fetch a sqlite reader


def test_missing_table_names_it(tmp_path: Path) -> None:
    path = foreign_files(tmp_path)["no groups table"]
    code, _, err = run("db", "info", "1A9BF0C", "--db", str(path))
    assert code == 2 and "no table groups" in err and "db build --force" in err


# ----- db query ---------------------------------------------------------------------------
def test_piped_output_and_csv_keep_every_row_and_whole_values(tiny: str) -> None:
    sql = "SELECT range AS n, repeat('x', 500) AS long FROM range(120)"
    code, out, _ = run("db", "query", sql, "--db", tiny)
    rows = list(csv.reader(io.StringIO(out), delimiter="\t"))
    assert code == 0 and rows[0] == ["n", "long"] and len(rows) == 121
    assert rows[-1] == ["119", "x" * 500]
    code, out, _ = run("db", "query", sql, "--csv", "--db", tiny)
    assert list(csv.reader(io.StringIO(out)))[1:] == [[str(i), "x" * 500] for i in range(120)]


def test_json_is_an_array_of_every_row(tiny: str) -> None:
    code, out, _ = run("db", "query", "SELECT hex, min_steps FROM layouts ORDER BY id",
                       "--json", "--db", tiny)
    assert code == 0 and json.loads(out) == [
        {"hex": "000000000", "min_steps": None}, {"hex": "1A9BF0C00", "min_steps": 81},
        {"hex": "DAAF4CC00", "min_steps": 0}]
    code, out, _ = run("db", "query", "SELECT 1 WHERE false", "--json", "--db", tiny)
    assert code == 0 and json.loads(out) == []


def test_limit(tiny: str) -> None:
    code, out, _ = run("db", "query", "SELECT range FROM range(1000)", "--limit", "7", "--csv",
                       "--db", tiny)
    assert code == 0 and out.split() == ["range", *map(str, range(7))]


def test_terminal_shows_fifty_rows_and_counts_the_rest(
        tiny: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_database, "_stdout_is_terminal", lambda: True)
    code, out, _ = run("db", "query", "SELECT range + 1000 AS n FROM range(130)", "--db", tiny)
    assert code == 0
    assert "1049" in out and "1050" not in out
    assert out.rstrip().endswith("... and 80 more rows (all of them with --csv, --json or "
                                 "through a pipe)")


def test_a_big_result_streams_in_bounded_memory(tiny: str, tmp_path: Path) -> None:
    # A million rows held as Python tuples would take well over 50 MB.
    tracemalloc.start()
    try:
        code, out, _ = run("db", "query", "SELECT range AS n FROM range(1000000)", "--csv",
                           "--db", tiny)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert code == 0 and out.count("\n") == 1_000_001
    assert peak - len(out) * 2 < 20_000_000


def test_an_error_while_streaming_is_one_line(tiny: str) -> None:
    sql = "SELECT CASE WHEN range > 50000 THEN error('too far') ELSE range END FROM range(10**5)"
    code, _, err = run("db", "query", sql, "--csv", "--db", tiny)
    assert code == 2 and err.count("\n") == 1 and "too far" in err


def test_a_closed_pipe_ends_quietly(tiny: str) -> None:
    shell = (f"{sys.executable} -m huarong db query 'SELECT range FROM range(10000000)' "
             f"--db {tiny} | head -n 2")
    done = subprocess.run(["bash", "-o", "pipefail", "-c", shell], capture_output=True,
                          text=True, timeout=120)
    assert done.stdout == "range\n0\n" and done.stderr == ""
    assert done.returncode == 141  # 128 + SIGPIPE, as for any tool whose reader left


# ----- db export --------------------------------------------------------------------------
def test_export_format_follows_the_extension(tiny: str, tmp_path: Path) -> None:
    target = tmp_path / "x.csv"
    code, _, _ = run("db", "export", "-o", str(target), "--db", tiny)
    rows = list(csv.reader(target.open()))
    assert code == 0 and rows[0][:2] == ["id", "code"] and len(rows) == 4
    parquet = tmp_path / "y.parquet"
    assert run("db", "export", "-o", str(parquet), "--db", tiny)[0] == 0
    assert pq.read_table(parquet).num_rows == 3
    forced = tmp_path / "z.csv"
    assert run("db", "export", "-o", str(forced), "--format", "parquet", "--db", tiny)[0] == 0
    assert pq.read_table(forced).num_rows == 3
    code, _, err = run("db", "export", "-o", str(tmp_path / "x.txt"), "--db", tiny)
    assert code == 2 and "--format" in err


def test_export_to_stdout_is_csv(tiny: str) -> None:
    code, out, _ = run("db", "export", "-o", "-", "--db", tiny)
    hengdaolima = f"1,{0x1A9BF0C00},5,4,1,0,100,25955,81,1,,,,true,1,1A9BF0C00,5-4-1-0-100"
    assert code == 0 and out.splitlines()[2] == hengdaolima


def test_separated_output_is_exactly_pythons_csv(tiny: str) -> None:
    # 20,000 rows over several batches: integers, plain strings, and strings that need
    # quoting (a comma, a quote, a newline, a tab) in some batches only.
    sql = ("SELECT range AS n, 'v' || range AS s, CASE WHEN range % 7919 = 0 THEN "
           "'a,b \"c\"' || chr(10) || chr(9) ELSE NULL END AS odd FROM range(20000)")
    expected_rows = [(n, f"v{n}", 'a,b "c"\n\t' if n % 7919 == 0 else None)
                     for n in range(20000)]
    for flags, delimiter in (([], "\t"), (["--csv"], ",")):
        code, out, _ = run("db", "query", sql, *flags, "--db", tiny)
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
        writer.writerow(["n", "s", "odd"])
        writer.writerows(expected_rows)
        assert code == 0 and out == buffer.getvalue()
