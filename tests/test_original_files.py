"""The original engine's files, byte for byte.

Expected values: the MD5 checksums the original database publishes for its farthest and
solution CSVs and for all codes, its file formats (rows, separators, final newlines) as
the README states them, the published class sizes, and seeds and labels
computed here by the pure-Python grouping of tests/test_cases.py (plain BFS over
klotski_reference), never by huarong."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from huarong.cli import main

from .test_cases import ALL_CODES_MD5, SEED_JIANG_BING, reference_groups, reference_layouts

# class -> (farthest CSV, solution CSV), as published with the original database.
PUBLISHED_MD5 = {
    "0-0-0": ("d444689026f9ef2568809e6186f81e00", "102bf8d24a3d706d0c3f470ccd49ef68"),
    "0-1-0": ("a3c0ed38d89857edaac63bb86bbf13ae", "8b8e61a44af27d7a88a80ff216b6e50f"),
    "1-0-0": ("2bceb9e3e51877a3b481dab3b06183e0", "4ef2431b2a942275bd372fcb60a85d7c"),
    "7-0-7": ("92b8b685b89441f25b539c0d71cebf7a", "d896fbd500b011f186e12dc4c78305de"),
}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stderr


def md5_of(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def horizontal_pieces(code: int) -> int:
    return sum(1 for i in range(16) if (code >> (30 - 2 * i)) & 3 == 1)


def reference_seeds(name: str) -> list[int]:
    """The seed of every group of class ``J-B-S``: its smallest code, groups by size
    descending, then by seed (docs §4)."""
    jiang, bing, style = map(int, name.split("-"))
    groups = [members for members in reference_groups(reference_layouts(jiang, bing))
              if horizontal_pieces(members[0]) == style]
    groups.sort(key=lambda members: (-len(members), members[0]))
    return [members[0] for members in groups]


def seed_file(directory: Path, name: str) -> Path:
    """The class's seed file as the original ``--all`` writes it: no newline after the last
    code (the original engine repeats the last seed when the file ends with one)."""
    path = directory / f"{name}.txt"
    path.write_text("\n".join(f"{code:09X}" for code in reference_seeds(name)))
    return path


@pytest.mark.parametrize("spelling", [["--analy-multi-group"],
                                      ["analyze-multi-group", "-q", "--format", "original"]])
@pytest.mark.parametrize("name", sorted(PUBLISHED_MD5))
def test_group_tables_match_the_published_checksums(tmp_path: Path, name: str,
                                                    spelling: list[str]) -> None:
    farthest, solution = tmp_path / f"farthest_{name}.csv", tmp_path / f"solution_{name}.csv"
    code, err = run(*spelling, str(seed_file(tmp_path, name)), str(farthest), str(solution))
    assert code == 0, err
    assert (md5_of(farthest), md5_of(solution)) == PUBLISHED_MD5[name]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [farthest.name, solution.name, f"{name}.txt"])


def test_the_friendly_format_differs_only_by_its_header_and_one_column(tmp_path: Path) -> None:
    """Same figures in both formats: the huarong tables are the original ones with a header
    line and without the min_solution_num column."""
    seeds = seed_file(tmp_path, "7-0-7")
    original = tmp_path / "of.csv", tmp_path / "os.csv"
    friendly = tmp_path / "hf.csv", tmp_path / "hs.csv"
    assert run("--analy-multi-group", str(seeds), *map(str, original))[0] == 0
    assert run("analyze-multi-group", "-q", str(seeds), *map(str, friendly))[0] == 0
    header, *rows = friendly[0].read_text().splitlines()
    assert header.startswith("code,") and rows == original[0].read_text().splitlines()
    header, *rows = friendly[1].read_text().splitlines()
    assert header.startswith("code,")
    assert rows == [",".join(fields[:2] + fields[3:]) for fields in (
        line.split(",") for line in original[1].read_text().splitlines())]


# ----- --all: the whole space (slow) -----------------------------------------------------
@pytest.fixture(scope="module")
def all_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("all")
    # The legacy spelling passes options through only as one word (--output-dir=DIR).
    code, err = run("--all", f"--output-dir={directory}")
    assert code == 0, err
    return directory


@pytest.mark.slow
def test_all_case_is_every_code_without_a_final_newline(all_files: Path) -> None:
    text = (all_files / "All_Case.txt").read_bytes()
    assert not text.endswith(b"\n")
    # The published checksum is of the codes each followed by a newline.
    assert hashlib.md5(text + b"\n").hexdigest() == ALL_CODES_MD5


@pytest.mark.slow
def test_seed_files_hold_each_group_seed_in_group_num_order(all_files: Path) -> None:
    names = sorted(path.stem for path in all_files.glob("*-*-*.txt"))
    assert len(names) == 203 and "7-0-0" not in names
    for name in (*PUBLISHED_MD5, "7-0-1", "7-0-3", "6-0-2"):
        text = (all_files / f"{name}.txt").read_text()
        assert text == "\n".join(f"{code:09X}" for code in reference_seeds(name)), name
    assert not any((all_files / f"{name}.txt").read_bytes().endswith(b"\n") for name in names)


@pytest.mark.slow
def test_main_csv_rows_match_an_independent_count(all_files: Path) -> None:
    import duckdb

    path = all_files / "main.csv"
    assert not path.read_bytes()[-64:].endswith(b"\n")
    connection = duckdb.connect()
    table = (f"read_csv('{path}', header = false, columns = {{'id': 'INTEGER', "
             "'code': 'VARCHAR', 'jiang': 'INTEGER', 'bing': 'INTEGER', 'style': 'INTEGER', "
             "'group_num': 'INTEGER', 'group_index': 'INTEGER'})")
    counts = dict(((jiang, bing), n) for jiang, bing, n in connection.execute(
        f"SELECT jiang, bing, count(*) FROM {table} GROUP BY ALL").fetchall())
    assert counts == SEED_JIANG_BING
    # Ids count up from 0 in the order of All_Case.txt (checked above against its MD5).
    ids_in_code_order = connection.execute(
        f"SELECT count(*), min(id), max(id), bool_and(id = rank) FROM (SELECT id, "
        f"row_number() OVER (ORDER BY code) - 1 AS rank FROM {table})").fetchone()
    assert ids_in_code_order == (29_334_498, 0, 29_334_497, True)
    # Classes 0-0 and 7-0 row by row against the pure-Python grouping.
    codes = (all_files / "All_Case.txt").read_text().split("\n")
    rank = {code: i for i, code in enumerate(codes)}
    for jiang, bing in ((0, 0), (7, 0)):
        expected = set()
        for style in range(jiang + 1):
            groups = [members for members in reference_groups(reference_layouts(jiang, bing))
                      if horizontal_pieces(members[0]) == style]
            groups.sort(key=lambda members: (-len(members), members[0]))
            for number, members in enumerate(groups):
                for index, code in enumerate(members):
                    expected.add((rank[f"{code:09X}"], f"{code:09X}", jiang, bing, style,
                                  number, index))
        rows = set(connection.execute(
            f"SELECT * FROM {table} WHERE jiang = ? AND bing = ?", [jiang, bing]).fetchall())
        assert rows == expected, (jiang, bing)


# The standard classes, as published with the original database (farthest, solution).
STANDARD_MD5 = {
    "5-4-0": ("2b7e95bccc8235d7bdb1a89d49b1b8d4", "3afebcd6655825930557b4e6b5aa28f2"),
    "5-4-1": ("fbd7b95e56c4d76f62aa0e45b634196f", "6bc9a94401d80d241f181c040e95774f"),
    "5-4-2": ("2d01fd8643302a41b126ad9b3228f65f", "7f5fa11c89b5954721d0b1f6eac640d4"),
    "5-4-3": ("49976c958fa45311e3ef8c667a7d31c7", "82cf01f51ece0d0acd9f7503c452e024"),
    "5-4-4": ("c242db12fac2ea9fbbb730c8494dd33f", "84b1444cc1509504e45a10cf6e15d27b"),
    "5-4-5": ("25b9dfffd697829bf75fa3b4dc09f5e3", "277fb2791e0693d388b7c80833e7d99a"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(STANDARD_MD5))
def test_standard_class_tables_match_the_published_checksums(
        all_files: Path, tmp_path: Path, name: str) -> None:
    """The seeds come from --all's own seed file here (checked above for other classes); a
    wrong seed or order would change the checksums."""
    farthest, solution = tmp_path / "farthest.csv", tmp_path / "solution.csv"
    code, err = run("--analy-multi-group", str(all_files / f"{name}.txt"), str(farthest),
                    str(solution))
    assert code == 0, err
    assert (md5_of(farthest), md5_of(solution)) == STANDARD_MD5[name]
