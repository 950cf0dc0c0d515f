"""The puzzle routes (``/api/puzzles`` and below, the ``/puzzles`` page) through the app's
TestClient: answers checked against the plain-Python breadth-first search of
``test_puzzles_cli`` and against the Klotski engine, the explorer's binary form read here
byte by byte, errors in the app's JSON shape, and the cluster limit (413)."""

from __future__ import annotations

import dataclasses
import itertools
import struct
from pathlib import Path
from typing import Any

import pytest

from huarong.web import puzzle_jobs
from huarong.web.app import create_app
from huarong.web.puzzle_queries import PuzzleQuery
from huarong.web.puzzles_api import MAX_STATES
from tests.patient_client import PatientClient as TestClient

from .test_puzzles_cli import HENG_DAO_LI_MA, ROOMY, TINY, TINY_GOAL, reference

NO_DATABASE = Path(__file__).parent / "no-such-database.duckdb"
SMALL_LIMIT = 1000
"""The cluster limit of the test's server: 横刀立马's group (25,955 layouts) is past it."""
TINY_QUERY = {"start": TINY, "goal": TINY_GOAL, "metric": "slide"}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(NO_DATABASE, max_group_size=SMALL_LIMIT))


def get(client: TestClient, path: str, status: int = 200, **params: str) -> Any:
    answer = client.get(path, params=params)
    assert answer.status_code == status, answer.text
    return answer.json()


def test_solve_is_as_short_as_the_reference_and_says_when_there_is_none(
        client: TestClient) -> None:
    puzzle = reference(TINY, TINY_GOAL, "slide")
    answer = get(client, "/api/puzzles/solve", **TINY_QUERY)
    assert answer["solvable"] and answer["length"] == puzzle.min_steps()[puzzle.start]
    assert puzzle.read_state(answer["start"]) == puzzle.start
    path = [puzzle.read_state(grid) for grid in answer["path"]]
    assert all(after in set(puzzle.moves(before))
               for before, after in itertools.pairwise(path))
    assert puzzle.solved(path[-1])
    stuck = get(client, "/api/puzzles/solve", **TINY_QUERY, rules="length")
    assert (stuck["solvable"], stuck["length"], stuck["path"]) == (False, None, [])


def test_solve_reads_its_answer_from_the_clusters_graph_without_a_second_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One breadth-first search, the cluster's graph's: the answer read from it is
    :func:`huarong.puzzles.solve`'s solution, and a later position of the cluster is answered
    from the same graph."""
    from huarong.puzzles import catalogue_entry, cluster, solve

    expected = solve(catalogue_entry("rush-hour-hardest").puzzle)
    assert expected is not None and expected.length == 60
    searched = cluster._search
    searches: list[tuple[Any, ...]] = []

    def counted(*args: Any, **options: Any) -> Any:
        searches.append(args)
        return searched(*args, **options)

    monkeypatch.setattr(cluster, "_search", counted)
    # The server's worker processes run these jobs; here they run in this process, where
    # the searches are counted.
    puzzle_jobs._worker_clusters.cache_clear()
    named = PuzzleQuery("rush-hour-hardest", None, None, None)
    answer = puzzle_jobs.cluster_job("solve", named, MAX_STATES)
    assert len(searches) == 1
    assert answer == {"start": expected.path[0], "solvable": True,
                      **dataclasses.asdict(expected)}
    later = puzzle_jobs.cluster_job("solve", dataclasses.replace(
        named, position=expected.path[1]), MAX_STATES)
    assert len(searches) == 1 and later["length"] == expected.length - 1
    served = get(TestClient(create_app(NO_DATABASE)), "/api/puzzles/solve",
                 start="rush-hour-hardest")
    assert served == answer


def test_cluster_counts_the_cluster_as_the_reference_does(client: TestClient) -> None:
    puzzle = reference(ROOMY, TINY_GOAL, "unit", "length")
    answer = get(client, "/api/puzzles/cluster", start=ROOMY, goal=TINY_GOAL, metric="unit",
                 rules="length")
    # The former address answers the same.
    assert get(client, "/api/puzzles/group", start=ROOMY, goal=TINY_GOAL, metric="unit",
               rules="length") == answer
    cluster = puzzle.cluster()
    assert answer["states"] == len(cluster)
    assert answer["solved"] == sum(map(puzzle.solved, cluster))
    assert answer["hardest"]["length"] == max(puzzle.min_steps().values())


def test_next_gives_every_move_with_its_verdict(client: TestClient) -> None:
    puzzle = reference(TINY, TINY_GOAL, "slide")
    steps = puzzle.min_steps()
    answer = get(client, "/api/puzzles/next", **TINY_QUERY)
    here = steps[puzzle.start]
    assert (answer["rows"], answer["columns"], answer["goal"]) == (3, 4, TINY_GOAL)
    assert answer["min_steps"] == here and not answer["solved"]
    reached = {puzzle.read_state(move["to"]): move for move in answer["moves"]}
    assert set(reached) == set(puzzle.moves(puzzle.start))
    for state, move in reached.items():
        assert move["min_steps"] == steps[state]
        assert move["verdict"] == ("better" if steps[state] < here else
                                   "same" if steps[state] == here else "worse")
    # From a later position of the same puzzle, as the viewer asks.
    onward = next(move for move in answer["moves"] if move["verdict"] == "better")
    later = get(client, "/api/puzzles/next", **TINY_QUERY, position=onward["to"])
    assert later["min_steps"] == here - 1
    assert puzzle.read_state(later["start"]) == puzzle.read_state(onward["to"])


def test_next_on_a_klotski_layout_agrees_with_the_klotski_engine() -> None:
    from huarong.engine.layout import Layout
    from huarong.engine.solver import solve

    client = TestClient(create_app(NO_DATABASE))
    answer = get(client, "/api/puzzles/next", start=HENG_DAO_LI_MA)
    layout = Layout.parse(HENG_DAO_LI_MA)
    assert answer["min_steps"] == len(solve(layout).path) - 1
    assert len(answer["moves"]) == len(layout.children())
    assert {move["min_steps"] for move in answer["moves"]} == {
        len(solve(child).path) - 1 for child in layout.children()}


def test_graph_is_the_cluster_in_the_explorers_binary_form(client: TestClient) -> None:
    puzzle = reference(TINY, TINY_GOAL, "slide")
    cluster = puzzle.cluster()
    answer = client.get("/api/puzzles/graph", params=TINY_QUERY)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/octet-stream"
    data = answer.content
    # HRG2, then uint32 nodes, edges, start, flags, rows, columns, name length.
    assert data[:4] == b"HRG2"
    nodes, edges, start, _, rows, columns, _ = struct.unpack_from("<7I", data, 4)
    assert nodes == len(cluster) and start < nodes and (rows, columns) == (3, 4)
    assert edges == sum(len(children) for children in cluster.values()) // 2


@pytest.mark.parametrize(("path", "params", "status", "told"), [
    ("/api/puzzles/solve", {"start": "AB./C", "goal": "A../."}, 400, "ragged"),
    ("/api/puzzles/solve", {"start": TINY}, 400, "no goal"),
    ("/api/puzzles/cluster", {"start": "puzzle.toml"}, 400, "not read over HTTP"),
    ("/api/puzzles/next", {**TINY_QUERY, "position": "AAB./AAC./D.EE/...."}, 400,
     "position"),
    ("/api/puzzles/solve", {"start": TINY, "metric": "diagonal"}, 400, "metric"),
    ("/api/puzzles/cluster", {"start": HENG_DAO_LI_MA}, 413, f"{SMALL_LIMIT:,}"),
    ("/api/puzzles/graph", {"start": HENG_DAO_LI_MA}, 413, f"{SMALL_LIMIT:,}"),
])
def test_refusals_answer_one_line_of_json(client: TestClient, path: str,
                                          params: dict[str, str], status: int,
                                          told: str) -> None:
    answer = client.get(path, params=params)
    assert answer.status_code == status
    body = answer.json()
    assert set(body) == {"error", "input"} and told in body["error"]
    assert "\n" not in body["error"]


def test_a_busy_server_answers_503_with_retry_after() -> None:
    app = create_app(NO_DATABASE)
    app.state.answers.max_jobs = -1  # every worker's queue full
    answer = TestClient(app).get("/api/puzzles/solve", params=TINY_QUERY)
    assert answer.status_code == 503 and "Retry-After" in answer.headers


def test_catalogue_and_viewer_page(client: TestClient) -> None:
    entries = get(client, "/api/puzzles")
    names = {entry["name"] for entry in entries}
    assert {"century", "dads-puzzle", "pennant"} <= names
    century = next(entry for entry in entries if entry["name"] == "century")
    assert (century["rows"], century["columns"]) == (5, 4)
    page = client.get("/puzzles")
    assert page.status_code == 200
    assert 'src="/static/pages/puzzle-viewer/puzzle-viewer.js"' in page.text


def test_distinct_tells_a_piece_apart_from_those_like_it(client: TestClient) -> None:
    """``AB.`` over an empty row, goal ``A`` at the top right: with A and B alike, B's slide
    right reaches the goal (1 move); with A distinct, B first makes way (down), then A
    slides right (2 moves).  A letter not on the board is refused."""
    query = {"start": "AB./...", "goal": "..A/...", "metric": "slide"}
    assert get(client, "/api/puzzles/solve", **query)["length"] == 1
    assert get(client, "/api/puzzles/solve", **query, distinct="A")["length"] == 2
    # Two 1x1 pieces on six cells: 15 placements alike, 6 * 5 told apart.
    assert get(client, "/api/puzzles/cluster", **query)["states"] == 15
    assert get(client, "/api/puzzles/cluster", **query, distinct="A")["states"] == 30
    nxt = get(client, "/api/puzzles/next", **query, distinct="A")
    assert nxt["min_steps"] == 2
    answer = get(client, "/api/puzzles/solve", 400, **query, distinct="Z")
    assert answer["input"] in ("Z", "AB./...")


def test_a_card_comes_as_svg_png_or_pdf_and_a_puzzle_without_solution_has_none(
        client: TestClient) -> None:
    """/api/puzzles/card: the SVG's back holds a small board per position of a solution as
    short as the reference's; PNG and PDF are those files; from a position (the viewer's
    Print) the card is that position's; no solution answers 409 in JSON."""
    import re
    from xml.etree import ElementTree

    svg_name = "{http://www.w3.org/2000/svg}"
    plain = reference(TINY, TINY_GOAL, "slide")
    length = plain.min_steps()[plain.start]
    answer = client.get("/api/puzzles/card", params=TINY_QUERY)
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
    boards = [board for board in ElementTree.fromstring(answer.content).iter(f"{svg_name}g")
              if board.get("class") == "thumbnail"]
    assert len(boards) == length + 1
    png = client.get("/api/puzzles/card", params={**TINY_QUERY, "format": "png"})
    assert png.headers["content-type"] == "image/png"
    assert png.content.startswith(b"\x89PNG\r\n\x1a\n")
    pdf = client.get("/api/puzzles/card", params={**TINY_QUERY, "format": "pdf"})
    assert pdf.headers["content-type"] == "application/pdf"
    assert len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf.content)) == 2
    closer = next(move["to"] for move in get(client, "/api/puzzles/next", **TINY_QUERY)["moves"]
                  if plain.min_steps()[plain.read_state(move["to"])] == length - 1)
    moved = client.get("/api/puzzles/card", params={**TINY_QUERY, "position": closer})
    assert len([board for board in ElementTree.fromstring(moved.content).iter(
        f"{svg_name}g") if board.get("class") == "thumbnail"]) == length
    refused = get(client, "/api/puzzles/card", 409, start="AB/CC", goal="CC/..")
    assert "no goal can be reached" in refused["error"]
    get(client, "/api/puzzles/card", 400, **TINY_QUERY, format="gif")


def test_a_catalogue_puzzle_s_ladder_is_its_family_by_published_lengths() -> None:
    """Bickford's 4x4 records by his published lengths (tests/test_puzzle_catalogue.py):
    61 (13 pieces) below the 7-piece record's 62, 64 (11 pieces) above it; the 2-piece
    record is the bottom, the 9-piece record (132) the top.  (A server whose limit is below
    a puzzle's cluster leaves that puzzle off its ladder.)"""
    from .test_puzzle_catalogue import PUBLISHED

    client = TestClient(create_app(NO_DATABASE, max_group_size=20_000))

    family = sorted((moves, name) for name, (moves, _, _) in PUBLISHED.items()
                    if name.startswith("bickford-4x4-"))
    for place, (moves, name) in enumerate(family):
        rungs = get(client, "/api/puzzles/ladder", name=name)
        assert rungs["family"] == "bickford-4x4" and rungs["length"] == moves
        below = rungs["easier"] and (rungs["easier"]["length"], rungs["easier"]["name"])
        above = rungs["harder"] and (rungs["harder"]["length"], rungs["harder"]["name"])
        assert below == (family[place - 1] if place else None)
        assert above == (family[place + 1] if place + 1 < len(family) else None)
    assert get(client, "/api/puzzles/ladder", name="century")["family"] == "classics"
    assert get(client, "/api/puzzles/ladder", 404, name="no-such-puzzle")["input"] == (
        "no-such-puzzle")
    # 4x4-8's cluster (4,488 states) passes the small server's limit: it is off the ladder.
    left_out = get(TestClient(create_app(NO_DATABASE, max_group_size=SMALL_LIMIT)),
                   "/api/puzzles/ladder", name="bickford-4x4-8")
    assert left_out["length"] is None and left_out["harder"] is None is left_out["easier"]


def test_a_ladder_compares_only_lengths_counted_in_one_metric() -> None:
    """The Rush Hour family holds Fogleman's hardest start, counted in moves of any distance
    (60, the search above), and Collette, Raskin and Servais's, counted in moves of one cell
    (their published 93): neither is the other's rung."""
    from .test_puzzle_catalogue import PUBLISHED

    client = TestClient(create_app(NO_DATABASE))
    hardest = get(client, "/api/puzzles/ladder", name="rush-hour-hardest")
    assert (hardest["family"], hardest["metric"], hardest["length"]) == (
        "rush-hour", "slide", 60)
    assert hardest["harder"] is None and hardest["easier"] is None
    steps = get(client, "/api/puzzles/ladder", name="rush-hour-collette")
    assert (steps["metric"], steps["length"]) == ("unit", PUBLISHED["rush-hour-collette"][0])
    assert steps["harder"] is None and steps["easier"] is None


def test_a_random_start_needs_as_many_moves_as_asked(client: TestClient) -> None:
    """Every answer is a position of the cluster whose fewest moves (the reference's) lie in
    the range, the same seed gives the same one, and an empty range answers 409."""
    plain = reference(TINY, TINY_GOAL, "slide")
    steps = plain.min_steps()
    longest = max(steps.values())
    for low, high in ((0, 0), (1, 2), (longest, longest)):
        answer = get(client, "/api/puzzles/random", **TINY_QUERY, low=str(low),
                     high=str(high))
        state = plain.read_state(answer["start"])
        assert low <= steps[state] <= high and answer["min_steps"] == steps[state]
        assert answer["count"] == sum(low <= moves <= high for moves in steps.values())
    seeded = [get(client, "/api/puzzles/random", **TINY_QUERY, low="0", high=str(longest),
                  seed="7")["start"] for _ in range(2)]
    assert seeded[0] == seeded[1]
    get(client, "/api/puzzles/random", 409, **TINY_QUERY, low=str(longest + 1),
        high=str(longest + 5))
    get(client, "/api/puzzles/random", 400, **TINY_QUERY, low="-1", high="2")
