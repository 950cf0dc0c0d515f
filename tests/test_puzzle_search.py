"""The exhaustive search (``huarong.puzzles.exhaustive``, ``huarong puzzle search``) against a
brute force by the plain-Python reference (:mod:`tests.puzzle_reference`): every placement
of the pieces built cell by cell, the moves of each rule and metric, a breadth-first search
per cluster."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from huarong.puzzles import PuzzleError
from huarong.puzzles.exhaustive import search
from huarong.puzzles.grid import Shape
from huarong.puzzles.specs import board_of, parse_cells, parse_goal, parse_pieces

from .puzzle_reference import Board, State, distances, rectangle


def _rectangle(shape: Shape) -> Shape:
    """The rectangle of a specification's piece as the reference builds it: only its size is
    read from the specification."""
    return rectangle(1 + shape[-1][0], 1 + shape[-1][1])


@dataclass(frozen=True)
class Brute:
    """Every placement of a specification's pieces and its clusters, by the reference."""

    board: Board
    rows: list[tuple[int, int, int]]
    """(states, solved, length: -1 without a solved state) per cluster."""
    distance: dict[State, int]
    """Each state that reaches a goal: moves to the nearest."""
    size: dict[State, int]
    """Each state: its cluster's size."""

    @classmethod
    def of(cls, cells: str, pieces: str, goal: str, metric: str, rules: str) -> Brute:
        rows, columns, walls = parse_cells(cells)
        board = Board(rows, columns, frozenset(divmod(cell, columns) for cell in walls), rules,
                      metric)
        shape, row, column = parse_goal(goal)
        wanted = (_rectangle(shape), "", row, column)
        every = board.placements([_rectangle(piece) for piece, count in parse_pieces(pieces)
                                  for _ in range(count)])
        found: list[tuple[int, int, int]] = []
        distance: dict[State, int] = {}
        size: dict[State, int] = {}
        for graph in board.clusters(every):
            solved = [state for state in graph if wanted in state]
            layer = distances(graph, solved)
            distance.update(layer)
            size.update(dict.fromkeys(graph, len(graph)))
            found.append((len(graph), len(solved), max(layer.values(), default=-1)))
        return cls(board, found, distance, size)


CASES = [
    ("3x3", "2x1,1x2,1x1*2", "1x2@2,1"),
    ("3x4", "2x2,1x2,1x1*2", "2x2@1,2"),
    ("#.../..../...#", "1x2*2,2x1,1x1", "2x1@0,3"),
    ("4x4", "1x3,3x1,2x2,1x1", "1x3@1,1"),
]


@pytest.mark.parametrize("metric", ["unit", "slide", "step"])
@pytest.mark.parametrize("rules", ["free", "length"])
@pytest.mark.parametrize(("board", "pieces", "goal"), CASES)
def test_search_matches_brute_force(board: str, pieces: str, goal: str, metric: str,
                                    rules: str) -> None:
    brute = Brute.of(board, pieces, goal, metric, rules)
    expected, distance, size = brute.rows, brute.distance, brute.size
    result = search(board, pieces, goal, metric, rules)
    found = list(zip(result.states.tolist(), result.solved.tolist(), result.length.tolist(),
                     strict=True))
    assert sorted(found) == sorted(expected)
    assert result.total_states == len(size)
    for row, grid in enumerate(result.board.grids(result.start)):
        state = brute.board.read(grid)
        assert size[state] == result.states[row]
        if result.length[row] >= 0:
            assert distance[state] == result.length[row]
    totals = result.totals()
    assert totals["clusters"] == len(expected)
    longest = max(length for _, _, length in expected)
    assert (totals["hardest"] or {}).get("length", -1) == longest


def test_table_and_files(tmp_path: pytest.TempPathFactory) -> None:
    import duckdb
    import pyarrow.parquet as pq

    result = search("3x4", "2x2,1x2,1x1*2", "2x2@1,2", "slide")
    table = result.table()
    assert table.column_names == ["states", "solved", "length", "start", "difficulty"]
    lengths = table.column("length").to_pylist()
    assert lengths == sorted(lengths, key=lambda n: -1 if n is None else n, reverse=True)
    result.write(tmp_path / "c.parquet")  # type: ignore[operator]
    assert pq.read_table(tmp_path / "c.parquet").equals(table)  # type: ignore[operator]
    result.write(tmp_path / "c.duckdb")  # type: ignore[operator]
    with duckdb.connect(str(tmp_path / "c.duckdb"), read_only=True) as db:  # type: ignore[operator]
        assert db.execute("SELECT sum(states) FROM clusters").fetchone() == (390,)


@pytest.mark.parametrize(("board", "pieces", "goal", "words"), [
    ("3x4", "2x2,L,1x1", "2x2@0,0", "not a piece"),
    ("3x4", "2x2,3y1", "2x2@0,0", "not a piece"),
    ("3x4", "2x2*3,1x1", "2x2@0,0", "cover 13 cells"),
    ("3x4", "2x2,1x1", "1x2@0,0", "none of the pieces"),
    ("3x4", "2x2,1x1", "2x2@2,0", "leaves the"),
    ("3x4", "2x2,1x1", "2x2", "not a goal"),
    ("3x?", "2x2,1x1", "2x2@0,0", "not a letter"),
])
def test_bad_specifications(board: str, pieces: str, goal: str, words: str) -> None:
    with pytest.raises(PuzzleError, match=words):
        search(board, pieces, goal)


def test_command(tmp_path: pytest.TempPathFactory) -> None:
    from click.testing import CliRunner

    from huarong.cli.puzzle_search import search as command

    runner = CliRunner()
    options = ["--board", "3x4", "--pieces", "2x2,1x2,1x1*2", "--goal", "2x2@1,2",
               "--metric", "slide", "-q"]
    answer = runner.invoke(command, [*options, "--json"])
    assert answer.exit_code == 0, answer.output
    brute = Brute.of("3x4", "2x2,1x2,1x1*2", "2x2@1,2", "slide", "free")
    expected, distance, size = brute.rows, brute.distance, brute.size
    totals = json.loads(answer.output)
    assert (totals["clusters"], totals["states"]) == (len(expected), len(size))
    assert distance[brute.board.read(totals["hardest"]["start"])] == totals["hardest"]["length"]
    target = tmp_path / "clusters.parquet"  # type: ignore[operator]
    answer = runner.invoke(command, [*options, "-o", str(target)])
    assert answer.exit_code == 0, answer.output
    assert "hardest: 9 moves" in answer.output
    import pyarrow.parquet as pq

    assert pq.read_table(target).num_rows == len(expected)
    assert not target.with_name("clusters.parquet.checkpoint.npz").exists()


@pytest.mark.parametrize("arguments", [
    ["--board", "3x4", "--pieces", "2x2*4", "--goal", "2x2@0,0"],
    ["--board", "3x4", "--pieces", "2x2,T", "--goal", "2x2@0,0"],
    ["--board", "3x4", "--pieces", "2x2,1x1", "--goal", "1x1@9,9"],
    ["--board", "3x4", "--pieces", "2x2,1x1"],
    ["--board", "3x4", "--pieces", "2x2,1x1", "--goal", "2x2@0,0", "-o", "x.csv"],
    ["--preset", "sbp-4x4", "--board", "3x4"],
])
def test_command_refuses_bad_specifications(arguments: list[str]) -> None:
    from click.testing import CliRunner

    from huarong.cli.puzzle_search import search as command

    answer = CliRunner().invoke(command, arguments)
    assert answer.exit_code == 2
    assert len(answer.output.strip().splitlines()) == 1


def test_resumed_walks_find_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk stops after each cluster, with one record of room and short queues, and
    resumes where it stopped: the same clusters in the same order."""
    from huarong.puzzles import exhaustive

    spec = ("#..../...../.....", "2x2,1x2,2x1,1x1*3", "2x2@1,3", "slide")
    whole = search(*spec)
    monkeypatch.setattr(exhaustive, "_BUDGET", 1)
    monkeypatch.setattr(exhaustive, "_RECORDS", 1)
    monkeypatch.setattr(exhaustive, "_QUEUE", 16)
    pieces = search(*spec)
    for name in ("states", "solved", "length", "start"):
        assert getattr(pieces, name).tolist() == getattr(whole, name).tolist()
    assert len(whole) > 10


def test_command_takes_a_puzzle() -> None:
    """--puzzle: every placement of a puzzle's pieces, as the same pieces by spec."""
    from click.testing import CliRunner

    from huarong.cli.puzzle_search import search as command

    runner = CliRunner()
    by_spec = runner.invoke(command, ["--board", "3x4", "--pieces", "2x2,1x2,1x1*2", "--goal",
                                      "2x2@1,2", "--json", "-q"])
    by_puzzle = runner.invoke(command, ["--puzzle", "AAB./AAC./DD..", "--goal",
                                        "..../..AA/..AA", "--json", "-q"])
    assert by_puzzle.exit_code == 0, by_puzzle.output
    mine, theirs = json.loads(by_puzzle.output), json.loads(by_spec.output)
    assert (mine["clusters"], mine["states"]) == (theirs["clusters"], theirs["states"])
    assert mine["hardest"]["length"] == theirs["hardest"]["length"]
    refused = runner.invoke(command, ["--puzzle", "AAB./AAC./DD..", "--board", "3x4"])
    assert refused.exit_code == 2


@pytest.mark.parametrize(("board", "words"), [("9x8", "at most 64"), ("0x4", "at least one"),
                                              ("#.#/.A.", "only '.'")])
def test_bad_boards(board: str, words: str) -> None:
    with pytest.raises(PuzzleError, match=words):
        search(board, "1x1", "1x1@0,1")


def test_memory_bound() -> None:
    """Klotski's pieces have 1.6e9 codes: their bitset does not fit in 1 MB."""
    with pytest.raises(PuzzleError, match="more than the"):
        search("5x4", "2x2,1x2,2x1*4,1x1*4", "2x2@3,1", memory=1 << 20)


def test_checkpoint_resumes(monkeypatch: pytest.MonkeyPatch, tmp_path: pytest.TempPathFactory
                            ) -> None:
    """A search stopped by Ctrl-C leaves a checkpoint; run again, it finishes with the same
    clusters as a search never stopped, and removes the checkpoint."""
    from huarong.puzzles import exhaustive

    space = board_of("#..../...../.....", "2x2,1x2,2x1,1x1*3", "2x2@1,3",
                                    metric="slide")
    whole = exhaustive.run(space)
    monkeypatch.setattr(exhaustive, "_BUDGET", 1)
    path = tmp_path / "search.npz"  # type: ignore[operator]
    calls = 0

    def stop(phase: str, done: int, total: int) -> None:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        exhaustive.run(space, checkpoint=path, progress=stop)
    assert path.is_file()
    other = board_of("#..../...../.....", "2x2,1x2,2x1,1x1*3", "2x2@1,3")
    with pytest.raises(PuzzleError, match="another search"):
        exhaustive.run(other, checkpoint=path)
    resumed = exhaustive.run(space, checkpoint=path)
    assert not path.is_file()
    for name in ("states", "solved", "length", "start"):
        assert getattr(resumed, name).tolist() == getattr(whole, name).tolist()
