"""``huarong puzzle``: solve, group, analyze, draw and list, checked against the plain-Python
breadth-first search of :mod:`tests.puzzle_reference`, written from issue 30's model alone
(pieces of one shape interchangeable, the three metrics, the two rules), and against the
Klotski engine on a Klotski layout; bad input answers one line and exit status 2, no solution
exit status 1."""

from __future__ import annotations

import csv
import itertools
import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from huarong.cli import main

from .puzzle_reference import STEPS, Cell, Puzzle, State, letter_cells, reference

TINY = "AAB./AAC./DEE."
"""A 3x4 puzzle: a 2x2 A, 1x1 B, C and D, a 1x2 E; its goal: the 2x2 at the right edge
(17 unit moves, 13 slides, 12 steps; no solution when E moves only along its length)."""
TINY_GOAL = "..../..AA/..AA"
ROOMY = "AABC/AAD./E..."
"""A puzzle that is solved under both rules."""
HENG_DAO_LI_MA = "1A9BF0C00"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str, code: int = 0) -> Result:
    result = runner.invoke(main, ["puzzle", *args])
    assert result.exit_code == code, result.output
    return result


def solve_json(runner: CliRunner, *args: str) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(run(runner, "solve", *args, "--json").stdout)
    return answer


@pytest.mark.parametrize(("start", "metric", "rules"), [
    (TINY, "unit", "free"), (TINY, "slide", "free"), (TINY, "step", "free"),
    (ROOMY, "unit", "length"), (ROOMY, "slide", "length")])
def test_solve_is_as_short_as_the_reference_and_every_move_is_legal(
        runner: CliRunner, start: str, metric: str, rules: str) -> None:
    puzzle = reference(start, TINY_GOAL, metric, rules)
    answer = solve_json(runner, start, "--goal", TINY_GOAL, "--metric", metric,
                        "--rules", rules)
    path = [puzzle.read_state(grid) for grid in answer["path"]]
    assert answer["length"] == puzzle.min_steps()[puzzle.start] == len(path) - 1
    assert path[0] == puzzle.start and puzzle.solved(path[-1])
    for before, after in itertools.pairwise(path):
        assert after in puzzle.moves(before)
    moves = answer["moves"]
    assert [move["grid"] for move in moves] == answer["path"][1:]


def test_solve_prints_every_position_and_a_klotski_layout_takes_its_engines_steps(
        runner: CliRunner) -> None:
    from huarong.engine.layout import Layout
    from huarong.engine.solver import solve

    steps = len(solve(Layout.parse(HENG_DAO_LI_MA)).path) - 1
    assert solve_json(runner, HENG_DAO_LI_MA)["length"] == steps == 81
    text = run(runner, "solve", TINY, "--goal", TINY_GOAL, "--metric", "unit").stdout
    puzzle = reference(TINY, TINY_GOAL, "unit")
    length = puzzle.min_steps()[puzzle.start]
    assert text.splitlines()[0].startswith(f"{length} moves")
    assert text.count("-- ") == length


def test_no_solution_is_one_line_and_exit_status_1(runner: CliRunner) -> None:
    assert reference(TINY, TINY_GOAL, "slide", "length").min_steps() == {}
    result = run(runner, "solve", TINY, "--goal", TINY_GOAL, "--rules", "length", code=1)
    assert len(result.stdout.splitlines()) == 1 and "no solution" in result.stdout
    assert run(runner, "solve", TINY, "--goal", TINY_GOAL, "--rules", "length", "--json",
               code=1).stdout == result.stdout


@pytest.mark.parametrize("bad", [["solve", "AB./C", "--goal", "..A/."],  # ragged
                                 ["solve", "AB.A/....", "--goal", "...A/...."],  # two parts
                                 ["solve", TINY, "--goal", "..../..../..../..ZZ"],  # no Z
                                 ["cluster", "no-such-puzzle-name"],
                                 ["analyze", TINY, "-o", "figures.txt"]])
def test_bad_input_is_one_line_and_exit_status_2(runner: CliRunner, bad: list[str]) -> None:
    result = run(runner, *bad, code=2)
    assert result.stderr.startswith("huarong: error: ") and len(result.stderr.splitlines()) == 1
    assert result.stdout == ""


def test_cluster_counts_the_cluster_its_goals_and_its_hardest_start(runner: CliRunner
                                                                    ) -> None:
    puzzle = reference(TINY, TINY_GOAL, "slide")
    steps = puzzle.min_steps()
    answer = json.loads(run(runner, "cluster", TINY, "--goal", TINY_GOAL, "--metric", "slide",
                            "--json").stdout)
    assert answer["states"] == len(puzzle.cluster())
    assert answer["solved"] == sum(map(puzzle.solved, puzzle.cluster()))
    hardest = answer["hardest"]
    assert hardest["length"] == max(steps.values())
    assert steps[puzzle.read_state(hardest["start"])] == hardest["length"]
    # START from stdin, one row per line.
    text = runner.invoke(main, ["puzzle", "cluster", "-", "--goal", TINY_GOAL, "--metric",
                                "slide"], input=TINY.replace("/", "\n") + "\n").stdout
    assert f"states: {len(puzzle.cluster()):,}" in text
    # The command's first name answers the same, and is not listed.
    assert json.loads(run(runner, "group", TINY, "--goal", TINY_GOAL, "--metric", "slide",
                          "--json").stdout) == answer
    assert " group " not in run(runner, "--help").stdout


def test_cluster_of_a_klotski_layout_is_its_engines_group(runner: CliRunner) -> None:
    from huarong.engine.layout import Layout
    from huarong.engine.solver import group_size

    answer = json.loads(run(runner, "cluster", HENG_DAO_LI_MA, "--json").stdout)
    assert answer["states"] == group_size(Layout.parse(HENG_DAO_LI_MA))


def test_analyze_gives_the_layer_figures_of_every_state(runner: CliRunner,
                                                        tmp_path: Path) -> None:
    puzzle = reference(TINY, TINY_GOAL, "step")
    graph = puzzle.cluster()
    steps = puzzle.min_steps()
    table = tmp_path / "figures.csv"
    answer = json.loads(run(runner, "analyze", TINY, "--goal", TINY_GOAL, "-q", "--json",
                            "-o", str(table)).stdout)
    away = puzzle.distances([puzzle.start])
    farthest = max(away.values())
    # Docs §5: a solution is a goal that no shortest path from the start reaches through
    # another goal.
    through_goal: dict[State, bool] = {}
    for state in sorted(graph, key=away.__getitem__):
        through_goal[state] = any(puzzle.solved(parent) or through_goal[parent]
                                  for parent in graph[state] if away[parent] == away[state] - 1)
    solutions = [state for state in graph if puzzle.solved(state) and not through_goal[state]]
    nearest = min(away[state] for state in solutions)
    assert answer["start"] == {
        "farthest_steps": farthest,
        "farthest_count": sum(1 for value in away.values() if value == farthest),
        "min_steps": steps[puzzle.start],
        "min_step_solutions": sum(1 for state in solutions if away[state] == nearest),
        "solution_count": len(solutions)}
    assert answer["cluster"]["states"] == len(graph)
    with table.open(newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert len(rows) == len(graph)
    assert {puzzle.read_state(row["state"]): int(row["min_steps"]) for row in rows} == steps


def test_analyze_writes_parquet(runner: CliRunner, tmp_path: Path) -> None:
    import pyarrow.parquet as parquet

    table = tmp_path / "figures.parquet"
    run(runner, "analyze", TINY, "--goal", TINY_GOAL, "-q", "-o", str(table))
    assert parquet.read_table(table).num_rows == len(reference(TINY, TINY_GOAL, "step").cluster())


def test_list_names_the_catalogue_with_sources(runner: CliRunner) -> None:
    entries = json.loads(run(runner, "list", "--json").stdout)
    names = {entry["name"] for entry in entries}
    assert {"century", "dads-puzzle", "pennant"} <= names
    assert all(entry["title"] and entry["source"] for entry in entries)
    assert "century" in run(runner, "list").stdout


def test_draw_writes_a_png_and_an_svg_of_the_cluster(runner: CliRunner, tmp_path: Path) -> None:
    from PIL import Image

    picture = tmp_path / "tiny.png"
    result = run(runner, "draw", TINY, "--goal", TINY_GOAL, "-o", str(picture))
    states = len(reference(TINY, TINY_GOAL, "step").cluster())
    assert f"{states:,} states" in result.stderr
    with Image.open(picture) as image:
        assert image.format == "PNG" and image.size == (1200, 800)
    drawing = tmp_path / "tiny.svg"
    run(runner, "draw", TINY, "--goal", TINY_GOAL, "-o", str(drawing), "--size", "400x300")
    assert ElementTree.parse(drawing).getroot().tag.endswith("svg")
    run(runner, "draw", TINY, "-o", str(tmp_path / "tiny.gif"), code=2)


# ----- huarong puzzle graph ------------------------------------------------------------------

GRAPH_FORMATS = ("graphml", "gexf", "json", "parquet", "csv")


def _read_graph_file(path: Path) -> Any:
    """The file read back by networkx (an edge list's nodes from STEM.nodes.* beside it)."""
    import networkx as nx

    kind = path.suffix[1:]
    if kind == "graphml":
        return nx.read_graphml(path)
    if kind == "gexf":
        return nx.read_gexf(path)
    nodes_file = path.with_name(path.stem + ".nodes" + path.suffix)
    metadata: dict[str, Any] = {}
    if kind == "json":  # node-link, read by hand: networkx renamed its arguments in 3.4
        data = json.loads(path.read_text())
        nodes, edges, metadata = data["nodes"], data["links"], data["graph"]
    elif kind == "parquet":
        import pyarrow.parquet as parquet

        edges = parquet.read_table(path).to_pylist()
        nodes = parquet.read_table(nodes_file).to_pylist()
    else:
        with path.open(newline="") as stream:
            edges = list(csv.DictReader(stream))
        with nodes_file.open(newline="") as stream:
            nodes = list(csv.DictReader(stream))
    graph = nx.Graph(**metadata)
    graph.add_nodes_from((str(row.pop("id")), row) for row in nodes)
    graph.add_edges_from((str(row.pop("source")), str(row.pop("target")), row)
                         for row in edges)
    return graph


def _shift(direction: str) -> Cell:
    """"down 2 left" as (2, -1)."""
    words = direction.split()
    rows = columns = 0
    for at, word in enumerate(words):
        if word in STEPS:
            times = int(words[at + 1]) if at + 1 < len(words) and words[at + 1].isdigit() else 1
            rows += STEPS[word][0] * times
            columns += STEPS[word][1] * times
    return rows, columns


@pytest.fixture(scope="module")
def roomy_steps() -> Puzzle:
    return reference(ROOMY, TINY_GOAL, "step")


@pytest.mark.parametrize("kind", GRAPH_FORMATS)
def test_graph_writes_the_cluster_with_its_attributes_in_every_format(
        roomy_steps: Puzzle, tmp_path: Path, kind: str) -> None:
    puzzle = roomy_steps
    cluster = puzzle.cluster()
    path = tmp_path / f"roomy.{kind}"
    result = run(CliRunner(), "graph", ROOMY, "--goal", TINY_GOAL, "-q", "-o", str(path))
    moves = sum(map(len, cluster.values())) // 2
    assert f"{len(cluster):,} states, {moves:,} moves" in result.stderr
    graph = _read_graph_file(path)
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (len(cluster), moves)
    state_of = {node: puzzle.read_state(str(data["grid"]))
                for node, data in graph.nodes(data=True)}
    assert set(state_of.values()) == set(cluster)
    # as many edges as moves, each a move: the reference's moves, each named by its piece
    assert all(state_of[b] in cluster[state_of[a]] for a, b in graph.edges())
    steps, away = puzzle.min_steps(), puzzle.distances([puzzle.start])
    truth = {"true": True, "false": False, True: True, False: False}
    for node, data in graph.nodes(data=True):
        state = state_of[node]
        assert int(data["min_moves"]) == steps.get(state, -1)
        assert int(data["distance"]) == away[state]
        assert int(data["degree"]) == len(cluster[state])
        assert truth[data["goal"]] == puzzle.solved(state)
    for a, b, data in graph.edges(data=True):
        piece_cells = letter_cells(str(graph.nodes[a]["grid"]))[data["piece"]]
        down, right = _shift(str(data["direction"]))
        moved = {(r + down, c + right) for r, c in piece_cells}
        assert any(puzzle.board.cells(piece) == moved for piece in state_of[b]), (a, b, data)
    if kind in {"graphml", "json"}:
        assert graph.graph["metric"] == "step" and graph.graph["rules"] == "free"
        assert graph.graph["goal"] == TINY_GOAL and graph.graph["start"] == ROOMY


def test_graph_of_a_catalogue_puzzle_names_it_and_bad_files_are_refused(
        runner: CliRunner, tmp_path: Path) -> None:
    import networkx as nx

    path = tmp_path / "pennant.graphml"
    run(runner, "graph", "pennant", "-q", "-o", str(path))
    graph = nx.read_graphml(path)
    assert graph.graph["puzzle"] == "pennant" and graph.graph["metric"] == "step"
    result = run(runner, "graph", TINY, "-o", str(tmp_path / "tiny.txt"), code=2)
    assert result.stderr.startswith("huarong: error: ") and "tiny.txt" in result.stderr
    assert not (tmp_path / "tiny.txt").exists()
    # a cluster past --max-states is refused before its graph fills the memory
    result = run(runner, "graph", TINY, "--goal", TINY_GOAL, "--max-states", "2", "-o",
                 str(tmp_path / "tiny.graphml"), code=2)
    assert "--max-states" in result.stderr and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "tiny.graphml").exists()
    # a character XML cannot hold, in a puzzle file's title, still gives a file readers take
    puzzle = tmp_path / "odd.toml"
    puzzle.write_text('title = "odd \\u0001 title"\nboard = "AB./..."\ngoal = ".AB/..."\n',
                      encoding="utf-8")
    for suffix in (".graphml", ".gexf"):
        run(runner, "graph", str(puzzle), "-q", "-o", str(tmp_path / f"odd{suffix}"))
    read = {suffix: (nx.read_graphml if suffix == ".graphml" else nx.read_gexf)(
        tmp_path / f"odd{suffix}") for suffix in (".graphml", ".gexf")}
    assert read[".graphml"].graph["title"] == "odd  title"
    assert read[".gexf"].number_of_nodes() == read[".graphml"].number_of_nodes() > 1


def test_solve_shows_its_search_on_stderr_and_quiet_shows_nothing(
        runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    """As ``group`` and ``analyze``: progress lines off a terminal, none with ``-q``; the
    solution on stdout either way."""
    from huarong.cli import _common

    monkeypatch.setattr(_common, "PROGRESS_INTERVAL", 0.0)
    monkeypatch.delenv("HUARONG_PROGRESS", raising=False)
    shown = run(runner, "solve", TINY, "--goal", TINY_GOAL, "--metric", "unit")
    lines = shown.stderr.splitlines()
    assert lines and all(line.startswith("huarong: search: ") for line in lines)
    quiet = run(runner, "solve", TINY, "--goal", TINY_GOAL, "--metric", "unit", "-q")
    assert quiet.stderr == "" and quiet.stdout == shown.stdout
