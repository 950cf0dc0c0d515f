"""The original engine's files, byte for byte.

Expected values: the MD5 checksums the original database publishes for its farthest and
solution CSVs (issue 9), its file formats (rows, separators, final newlines) as the issue
states them, and seed files computed here by the pure-Python grouping of tests/test_cases.py
(plain BFS over klotski_reference), never by huarong."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from huarong.cli import main

from .test_cases import reference_groups, reference_layouts

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
    descending, then by seed (SPEC §4)."""
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
