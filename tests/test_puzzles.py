"""The general sliding-block engine against the independent plain-Python breadth-first search
of :mod:`tests.puzzle_reference`, the Klotski engine, the 8-puzzle's 181,440 states and
Fogleman's hardest Rush Hour start."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huarong.engine.layout import Layout
from huarong.engine.state_graph import klotski_graph
from huarong.puzzles import (
    ClusterTooLarge,
    PuzzleError,
    cluster_summary,
    format_state,
    load_puzzle,
    next_moves,
    parse_state,
    puzzle_start_node,
    solve,
    state_graph,
)

from .puzzle_reference import STEPS, Board, anchored, letter_cells, reference


def random_polyomino_grid(rng: random.Random) -> str:
    rows, columns = rng.randint(2, 4), rng.randint(2, 4)
    cells = ["."] * (rows * columns)
    for _ in range(rng.randint(0, 2)):
        cells[rng.randrange(len(cells))] = "#"
    letters = iter("ABCDEFGHIJKLMNOP")
    while "A" not in cells or cells.count(".") > rng.randint(2, 4):
        free = [i for i, g in enumerate(cells) if g == "."]
        piece = [rng.choice(free)]
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            r, c = divmod(rng.choice(piece), columns)
            dr, dc = rng.choice(list(STEPS.values()))
            if 0 <= r + dr < rows and 0 <= c + dc < columns and \
                    cells[(r + dr) * columns + c + dc] == "." and \
                    (r + dr) * columns + c + dc not in piece:
                piece.append((r + dr) * columns + c + dc)
        letter = next(letters)
        for cell in piece:
            cells[cell] = letter
    return "/".join("".join(cells[r * columns:(r + 1) * columns]) for r in range(rows))


def random_goal(rng: random.Random, text: str) -> str | None:
    """A goal naming one or two pieces, each at a random place its shape fits (walls
    aside)."""
    board = Board.of(text)
    goal = [["."] * board.columns for _ in range(board.rows)]
    pieces = letter_cells(text)
    for letter in rng.sample(sorted(pieces), min(len(pieces), rng.randint(1, 2))):
        shape = anchored(pieces[letter])[0]
        spots = [(shape, letter, r, c) for r in range(board.rows) for c in range(board.columns)
                 if board.fits((shape, letter, r, c), ())
                 and all(goal[a][b] == "." for a, b in board.cells((shape, letter, r, c)))]
        if not spots:
            continue
        for r, c in board.cells(rng.choice(spots)):
            goal[r][c] = letter
    text_goal = "/".join("".join(row) for row in goal)
    return None if text_goal.strip("./") == "" else text_goal


@pytest.mark.parametrize("seed", range(48))
def test_random_puzzles_agree_with_the_plain_python_search(seed: int) -> None:
    rng = random.Random(seed)
    rules, metric = rng.choice(["free", "length"]), ("unit", "slide", "step")[seed % 3]
    while True:  # a puzzle whose cluster the plain search covers in a moment
        text = random_polyomino_grid(rng)
        goal = random_goal(rng, text)
        letters = sorted({g for g in text if g.isalpha()})
        distinct = frozenset(rng.sample(letters, rng.randint(0, min(2, len(letters)))))
        puzzle = load_puzzle(text, goal, metric=metric, rules=rules, distinct=distinct)
        with contextlib.suppress(ClusterTooLarge):
            state_graph(puzzle, limit=1500)
            break
    ref = reference(text, goal, metric, rules, distinct)
    cluster = ref.cluster()
    goals = [state for state in cluster if ref.solved(state)]
    to_goal = ref.min_steps()

    summary = cluster_summary(puzzle)
    assert summary.states == len(cluster)
    assert summary.solved == len(goals)
    assert summary.hardest_length == (max(to_goal.values()) if goals else None)
    graph = state_graph(puzzle)
    assert graph.size == len(cluster)
    assert graph.edge_count == sum(map(len, cluster.values())) // 2
    assert int(graph.goal.sum()) == len(goals)
    assert cluster_summary(puzzle, graph=graph) == summary
    if goal is None:
        with pytest.raises(PuzzleError, match="no goal"):
            solve(puzzle)
        return
    solution = solve(puzzle)
    if not goals:
        assert solution is None
        return
    assert solution is not None
    assert solution.length == to_goal[ref.start] == len(solution.moves)
    assert solution.path[0] == text
    assert graph.min_steps[puzzle_start_node(puzzle, graph)] == solution.length
    assert [move.grid for move in solution.moves] == solution.path[1:]
    for before, after in zip(solution.path, solution.path[1:], strict=False):
        assert parse_state(puzzle, after) in {
            int(graph.codes[n]) for n in graph.neighbours(graph.index_of(
                parse_state(puzzle, before)))}


@pytest.mark.parametrize("code", ["1A9BF0C00", "VCCV/VCCV/SHHS/VSSV/V..V",
                                  "SSSV/CCVV/CCVV/.HHV/.SHH", "VCCV/VCCV/VVSV/VVSV/S..S"])
def test_klotski_layouts_agree_with_the_klotski_engine(code: str) -> None:
    layout = Layout.parse(code)
    expected = klotski_graph(layout)
    start_steps = int(expected.min_steps[expected.index_of(int(layout))])
    puzzle = load_puzzle(code)
    summary = cluster_summary(puzzle)
    assert summary.states == expected.size
    assert summary.solved == int(expected.goal.sum())
    assert summary.hardest_length == (int(expected.min_steps.max()) if expected.solvable
                                      else None)
    solution = solve(puzzle)
    assert (solution.length if solution else -1) == start_steps
    graph = state_graph(puzzle)
    assert graph.edge_count == expected.edge_count
    assert sorted(graph.degrees().tolist()) == sorted(expected.degrees().tolist())


def test_klotski_notations_map_to_the_same_puzzle() -> None:
    by_code = load_puzzle("1A9BF0C00")
    assert by_code.grid == "ABBC/ABBC/DEEF/DGHF/I..J"
    assert by_code.goal == "..../..../..../.BB./.BB."
    for other in ("横刀立马", "VCCV/VCCV/VHHV/VSSV/S..S", "sword on horseback"):
        assert load_puzzle(other) == by_code
    assert (by_code.rules, by_code.metric) == ("free", "step")


def test_the_8_puzzle_has_181440_states_and_31_moves_at_most() -> None:
    # Eight distinct tiles on 3x3: half of 9! permutations are reachable; the hardest
    # positions are 31 moves from the goal (Reinefeld 1993).
    puzzle = load_puzzle("ABC/DEF/GH.", "ABC/DEF/GH.", metric="unit", distinct="ABCDEFGH")
    summary = cluster_summary(puzzle)
    assert summary.states == 181_440
    assert summary.solved == 1
    assert summary.hardest_length == 31


def test_fogleman_hardest_rush_hour_start() -> None:
    # Fogleman's database: 60 moves, a cluster of 2,332 states (his article, 2018).
    puzzle = load_puzzle("rush:IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM")
    assert (puzzle.rules, puzzle.metric) == ("length", "slide")
    solution = solve(puzzle)
    assert solution is not None and solution.length == 60
    assert solution.path[-1].split("/")[2].endswith("AA")
    assert cluster_summary(puzzle).states == 2332
    assert load_puzzle("rush:IBBx..I..LDDJAAL..J.KEEMFFK..MGGHHHM") == puzzle


def test_metrics_count_moves_their_way() -> None:
    text = "A../.../..."
    unit = solve(load_puzzle(text, ".../.../..A", metric="unit"))
    slide = solve(load_puzzle(text, ".../.../..A", metric="slide"))
    step = solve(load_puzzle(text, ".../.../..A", metric="step"))
    assert unit and slide and step
    assert (unit.length, slide.length, step.length) == (4, 2, 1)
    assert step.moves[0].distance == 4 and step.moves[0].piece == "A"
    assert slide.moves[0].distance == 2
    turned = solve(load_puzzle("A#/..", "../.A", metric="step"))
    assert turned is not None and turned.moves[0].direction == "down,right"


def test_next_moves_judge_each_move_by_its_distance() -> None:
    puzzle = load_puzzle("1A9BF0C00")
    graph = state_graph(puzzle)
    verdicts = next_moves(puzzle)
    start = int(graph.min_steps[puzzle_start_node(puzzle, graph)])
    assert len(verdicts) == len(graph.neighbours(puzzle_start_node(puzzle, graph)))
    for verdict in verdicts:
        left = int(graph.min_steps[graph.index_of(parse_state(puzzle, verdict.to))])
        assert verdict.min_steps == left
        assert verdict.verdict == ("better" if left < start else
                                   "same" if left == start else "worse")


def test_toml_files(tmp_path: Path) -> None:
    path = tmp_path / "two.toml"
    path.write_text('name = "two"\ntitle = "Two"\nsource = "a test"\nboard = "AB./..."\n'
                    'goal = "..A/..."\nmetric = "unit"\ndistinct = ["A"]\n', encoding="utf-8")
    puzzle = load_puzzle(str(path))
    assert (puzzle.name, puzzle.title, puzzle.metric) == ("two", "Two", "unit")
    assert sorted(k.distinct for k in puzzle.classes) == [False, True]
    solution = solve(puzzle)
    assert solution is not None and solution.length == 3
    path.write_text('board = "AB./..."\ncolour = "red"\n', encoding="utf-8")
    with pytest.raises(PuzzleError, match="unknown key 'colour'"):
        load_puzzle(str(path))


@pytest.mark.parametrize(("start", "goal", "options", "problem"), [
    ("AB/C", None, {}, "ragged grid"),
    ("A./.A", None, {}, "'A' is in two parts"),
    ("AB/..", "Z./..", {}, "'Z', a letter the start lacks"),
    ("AA/..", "A./A.", {}, "goal cells of 'A' are not whole pieces"),
    ("A./..", "A./A.", {}, "overlapping target: the goal asks for 2 pieces"),
    ("A./..", "AA/..", {"distinct": "A"}, "asks for 2 pieces"),
    ("/".join(["." * 9] * 8), None, {}, "72 cells"),
    ("A./..", None, {"metric": "diagonal"}, "unknown metric"),
    ("A./..", None, {"rules": "any"}, "unknown rules"),
    ("A./..", "A../...", {}, "a goal of 2x3 cells"),
    ("rush:AAoo", None, {}, "36 cells"),
    ("nonsense", None, {}, "not a grid"),
    ("A?/..", None, {}, "'?' at row 1, column 2"),
    ("AB./...", ".../...", {}, "the goal names no piece"),
    ("AA./B..", ".../#.B", {}, "a wall in the goal at row 2, column 1"),
    ("rush:" + "o" * 12 + "AA" + "o" * 21 + "#", None, {}, "'#' at row 6, column 6"),
])
def test_bad_input_is_one_line_naming_it(start: str, goal: str | None,
                                         options: dict[str, str], problem: str) -> None:
    with pytest.raises(PuzzleError, match=problem) as caught:
        load_puzzle(start, goal, **options)
    message = str(caught.value)
    assert "\n" not in message
    assert any(message.startswith(repr(given)) for given in (start, goal, *options.values()))


def test_a_puzzle_file_names_its_rule_either_way_and_must_be_utf8(tmp_path: Path) -> None:
    # issue 30 spells the key "rule", the command line "--rules": a file may use either
    for key in ("rule", "rules"):
        path = tmp_path / f"{key}.toml"
        path.write_text(f'board = "AB./..."\ngoal = ".AB/..."\n{key} = "length"\n',
                        encoding="utf-8")
        assert load_puzzle(str(path)).rules == "length"
    both = tmp_path / "both.toml"
    both.write_text('board = "A."\nrule = "free"\nrules = "free"\n', encoding="utf-8")
    with pytest.raises(PuzzleError, match="rule and rules are one key"):
        load_puzzle(str(both))
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'board = "A."\ntitle = "\xe9"\n')
    with pytest.raises(PuzzleError, match="not UTF-8 text") as caught:
        load_puzzle(str(latin))
    assert str(caught.value).startswith(repr(str(latin)))


def test_too_many_placements_to_rank() -> None:
    # 32 distinct 1x1 pieces on an empty 8x8 board: 64!/32! placements.
    text = "/".join(["ABCDEFGH", "IJKLMNOP", "QRSTUVWX", "YZabcdef"] + ["." * 8] * 4)
    with pytest.raises(PuzzleError, match="cannot be ranked in 63 bits"):
        load_puzzle(text, distinct=[g for g in text if g.isalpha()])


_GRIDS = st.builds(random_polyomino_grid, st.randoms(use_true_random=False))


@settings(max_examples=40, deadline=None)
@given(_GRIDS, st.integers(0, 50))
def test_grids_round_trip(text: str, pick: int) -> None:
    puzzle = load_puzzle(text)
    assert format_state(puzzle, puzzle.start) == text
    assert load_puzzle(puzzle.grid) == puzzle
    graph = state_graph(puzzle, limit=100_000)
    code = int(graph.codes[pick % graph.size])
    grid = format_state(puzzle, code)
    assert parse_state(puzzle, grid) == code
    assert format_state(load_puzzle(grid), load_puzzle(grid).start) == grid


def test_geometry_decodes_codes_to_boards() -> None:
    puzzle = load_puzzle("AB#/C..")
    graph = state_graph(puzzle)
    boards = graph.geometry.cells(graph.codes) if graph.geometry.cells else None
    assert boards is not None and boards.shape == (graph.size, 6) and boards.dtype == np.uint8
    for code, board in zip(graph.codes.tolist(), boards, strict=True):
        grid = format_state(puzzle, code).replace("/", "")
        assert [g == "." for g in grid] == (board == 0).tolist()
        assert [g == "#" for g in grid] == (board == 255).tolist()
        # three pieces of one shape, each drawn as a piece of its own
        assert len(set(board.tolist()) - {0, 255}) == 3


def test_analyze_figures_agree_with_the_graph() -> None:
    from huarong.puzzles import analyze

    puzzle = load_puzzle("AB./C..", "..A/...", metric="unit", distinct="A")
    analysis = analyze(puzzle, threads=1)
    graph = analysis.graph
    assert analysis.figures.shape == (5, graph.size)
    figures = analysis.start_figures()
    start = puzzle_start_node(puzzle, graph)
    ref = reference("AB./C..", "..A/...", "unit", distinct="A")
    far = ref.distances([ref.start])
    solution = solve(puzzle)
    assert solution is not None
    assert figures["min_steps"] == int(graph.min_steps[start]) == solution.length
    assert figures["farthest_steps"] == max(far.values())
    assert figures["farthest_count"] == sum(1 for d in far.values() if d == max(far.values()))


def test_the_catalogue_reads_every_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    from huarong.puzzles import catalogue, catalogue_entry, notation

    (tmp_path / "corner.toml").write_text(
        'name = "corner"\ntitle = "Corner"\nsource = "a test"\nboard = "AB./.C./..."\n'
        'goal = ".../.../..A"\nmetric = "slide"\ndistinct = ["A"]\n', encoding="utf-8")
    (tmp_path / "klotski.toml").write_text(
        'name = "klotski"\ntitle = "Sword on Horseback"\nsource = "a test"\n'
        'board = "1A9BF0C00"\n', encoding="utf-8")
    monkeypatch.setattr(notation, "_catalogue_folder", lambda: tmp_path)
    notation._catalogue_files.cache_clear()
    try:
        entries = catalogue()
        assert [entry.name for entry in entries] == ["corner", "klotski"]
        corner = catalogue_entry("corner")
        assert (corner.title, corner.puzzle.metric) == ("Corner", "slide")
        assert load_puzzle("corner") == corner.puzzle
        assert load_puzzle("corner", metric="unit").metric == "unit"
        solution = solve(load_puzzle("klotski"))
        assert solution is not None and solution.length == 81
        with pytest.raises(PuzzleError, match="no such puzzle"):
            catalogue_entry("nowhere")
    finally:
        notation._catalogue_files.cache_clear()
