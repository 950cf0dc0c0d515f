"""``analyze-group`` / ``analyze-multi-group`` and the original engine's ``--analy-group``
spellings, through click's CliRunner.

Expected figures come from huarong.engine.analysis.analyze (one layer-model search per layout, a
different algorithm from the batch sweep) and from the docs. definitions."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from huarong.cli import main
from huarong.engine.analysis import analyze
from huarong.engine.layout import Layout

# A 102-layout group with 27 goal layouts, and a 30-layout group without any.
WITH_GOALS = "8A53A3000"
WITHOUT_GOALS = "636F53400"


def _run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.stdout, result.stderr


def _table(path: Path) -> list[list[str]]:
    return [line.split(",") for line in path.read_text().splitlines()]


def _codes(field: str) -> list[str]:
    return [entry.split("(")[0] for entry in field.split("-") if entry]


def _check_against_analyze(farthest: Path, solution: Path, seed: str,
                           original: bool = False) -> None:
    """The figures of both tables; ``original``: no header and a min_solution_num column."""
    group = sorted(code for code in (layout.code for layout in _group(seed)))
    skip = 0 if original else 1
    far_rows, sol_rows = _table(farthest)[skip:], _table(solution)[skip:]
    assert [row[0] for row in far_rows] == group
    assert [row[0] for row in sol_rows] == group
    for far_row, sol_row in zip(far_rows, sol_rows, strict=True):
        single = analyze(Layout.from_code(far_row[0]))
        assert int(far_row[1]) == single.farthest_steps
        assert int(far_row[2]) == len(single.farthest_layouts)
        assert _codes(far_row[3]) == sorted(layout.code for layout in single.farthest_layouts)
        assert int(sol_row[1]) == (-1 if single.min_steps is None else single.min_steps)
        if original:
            assert int(sol_row.pop(2)) == len(single.min_step_solutions)
        assert _codes(sol_row[2]) == sorted(x.code for x in single.min_step_solutions)
        assert int(sol_row[3]) == len(single.solutions)
    assert farthest.read_bytes().endswith(b"\n") and solution.read_bytes().endswith(b"\n")


def _group(seed: str) -> list[Layout]:
    from huarong.engine.solver import group

    return group(Layout.from_code(seed))


@pytest.mark.parametrize(("spelling", "original"), [
    (["analyze-group", "-q"], False), (["--analy-group"], True),
    (["analyze-group", "--format", "original"], True)])
def test_analyze_group_writes_both_tables(tmp_path, spelling, original):
    farthest, solution = tmp_path / "farthest.csv", tmp_path / "solution.csv"
    code, _, err = _run([*spelling, WITH_GOALS.lower(), str(farthest), str(solution)])
    assert code == 0, err
    assert "102 layouts" in err
    _check_against_analyze(farthest, solution, WITH_GOALS, original)
    assert len(_table(solution)[0]) == (5 if original else 4)


@pytest.mark.parametrize(("spelling", "original"), [
    (["analyze-group", "--integral"], False), (["--analy-group-integral"], True)])
def test_integral_lists_every_solution_with_its_steps(tmp_path, spelling, original):
    farthest, solution = tmp_path / "farthest.csv", tmp_path / "solution.csv"
    code, _, err = _run([*spelling, WITH_GOALS, str(farthest), str(solution)])
    assert code == 0, err
    rows = _table(solution)
    if not original:
        header, *rows = rows
        assert header[-1] == "solutions"
    assert len(rows) == 102
    for row in rows:
        single = analyze(Layout.from_code(row[0]))
        listed = [entry.rstrip(")").split("(") for entry in row[-1].split("-") if entry]
        # Nearest first, then by code: the original engine's order.
        assert [(c, int(s)) for c, s in listed] == sorted(
            ((x.code, s) for x, s in single.solutions), key=lambda entry: (entry[1], entry[0]))


@pytest.mark.parametrize("integral", [[], ["--integral"]])
def test_multi_group_concatenates_groups_in_seed_order(tmp_path, integral):
    seeds = tmp_path / "5-4-0.txt"
    seeds.write_text(f"# two groups\n{WITHOUT_GOALS}\n\n{WITH_GOALS}\n")
    farthest, solution = tmp_path / "farthest.csv", tmp_path / "solution.csv"
    code, _, err = _run(["analyze-multi-group", *integral, "-q", str(seeds), str(farthest),
                         str(solution)])
    assert code == 0, err
    first = sorted(layout.code for layout in _group(WITHOUT_GOALS))
    second = sorted(layout.code for layout in _group(WITH_GOALS))
    assert [row[0] for row in _table(farthest)[1:]] == first + second
    assert [row[0] for row in _table(solution)[1:]] == first + second


@pytest.mark.parametrize("spelling", ["--analy-multi-group", "--analy-multi-group-integral"])
def test_legacy_multi_group_spellings(tmp_path, spelling):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text(f"{WITHOUT_GOALS}\n")
    farthest, solution = tmp_path / "f.csv", tmp_path / "s.csv"
    code, _, err = _run([spelling, str(seeds), str(farthest), str(solution)])
    assert code == 0, err
    integral = spelling.endswith("integral")
    # No solution: -1 steps, none at that distance, an empty list, 0 solutions.
    assert {line.split(",", 1)[1] for line in solution.read_text().splitlines()} == {
        "-1,0,,0," if integral else "-1,0,,0"}
    _check_against_analyze(farthest, solution, WITHOUT_GOALS, original=True)


def _assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err


def test_bad_code_is_one_line_error(tmp_path):
    code, _, err = _run(["--analy-group", "1A9BF0CZZ", str(tmp_path / "f"), str(tmp_path / "s")])
    _assert_one_line_error(code, err, "1A9BF0CZZ")


def test_missing_seeds_file_is_one_line_error(tmp_path):
    missing = tmp_path / "nope.txt"
    code, _, err = _run(["--analy-multi-group", str(missing), str(tmp_path / "f"),
                         str(tmp_path / "s")])
    _assert_one_line_error(code, err, "nope.txt")


def test_bad_seed_line_names_file_line_and_code(tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text(f"{WITH_GOALS}\n\n1A9BF0C01\n")
    code, _, err = _run(["analyze-multi-group", str(seeds), str(tmp_path / "f"),
                         str(tmp_path / "s")])
    _assert_one_line_error(code, err, "seeds.txt", "line 3", "1A9BF0C01")


@pytest.mark.parametrize("which", [0, 1])
def test_unwritable_output_is_one_line_error_and_leaves_nothing(tmp_path, which):
    outputs = [str(tmp_path / "farthest.csv"), str(tmp_path / "solution.csv")]
    outputs[which] = str(tmp_path / "no-such-dir" / "out.csv")
    code, _, err = _run(["--analy-group", WITH_GOALS, *outputs])
    _assert_one_line_error(code, err, outputs[which])
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_wrong_argument_count_is_one_line_error(tmp_path):
    code, _, err = _run(["--analy-group", WITH_GOALS, str(tmp_path / "f.csv")])
    _assert_one_line_error(code, err)
