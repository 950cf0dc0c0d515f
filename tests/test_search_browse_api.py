"""Search results served for browsing (issue 33, "the results of a search are browsable,
hardest first"): ``huarong serve --search FILE`` and ``/api/puzzles/searches``.

A small search (3x4, five pieces, 20 clusters) is run here and written as Parquet and as
DuckDB; the pages the server answers are checked against the :class:`SearchResult`'s own
arrays, ordered here by a plain sort, and each start against ``/api/puzzles/next`` with the
file's goal, rules and metric (its moves to a goal are the row's length)."""

from __future__ import annotations

import functools
import socket
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from click.testing import CliRunner

from huarong.cli import main
from huarong.puzzles import PuzzleError, load_puzzle
from huarong.puzzles.difficulty.model import difficulty
from huarong.puzzles.exhaustive import SearchResult, search
from huarong.puzzles.results import write_results
from huarong.web.app import create_app
from tests.patient_client import PatientClient as TestClient

NO_DATABASE = Path(__file__).parent / "no-such-database.duckdb"
BOARD, PIECES, GOAL, METRIC = "3x4", "2x2,1x2,2x1,1x1*2", "2x2@1,2", "slide"
GOAL_GRID = "..../..AA/..AA"  # the goal 2x2@1,2 drawn by hand


@pytest.fixture(scope="module")
def result() -> SearchResult:
    return search(BOARD, PIECES, GOAL, METRIC)


def _shuffled(n: int) -> list[int]:
    return [(7 * i) % n for i in range(n)]


@pytest.fixture(scope="module")
def files(result: SearchResult, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("searches")
    written = [folder / "tiny.parquet", folder / "tiny-db.duckdb"]
    for path in written:
        result.write(path)
    # The same rows in another order: the server orders them itself.
    table = result.table()
    shuffled = table.take(pa.array(_shuffled(len(result))))
    write_results(shuffled.replace_schema_metadata(table.schema.metadata),
                folder / "shuffled.parquet")
    return [*written, folder / "shuffled.parquet"]


@pytest.fixture(scope="module")
def client(files: list[Path]) -> TestClient:
    return TestClient(create_app(NO_DATABASE, searches=files))


def _hardest_first(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Length descending (none solved last), then states descending, then in the order
    given."""
    return sorted(rows, key=lambda row: (
        -(row["length"] if row["length"] is not None else -1), -row["states"]))


def _expected(result: SearchResult) -> list[dict[str, Any]]:
    """Every cluster hardest first, those alike as the search found them; the difficulty of
    each solved one (all 20 are among the hardest the file grades) from its start alone."""
    grids = result.board.grids(result.start)
    return _hardest_first([
        {"states": int(result.states[i]), "solved": int(result.solved[i]),
         "length": None if result.length[i] < 0 else int(result.length[i]),
         "start": grids[i], **_difficulty(grids[i], solved=result.length[i] >= 0)}
        for i in range(len(result))])


@functools.cache
def _difficulty(start: str, *, solved: bool) -> dict[str, Any]:
    if not solved:
        return {"difficulty": None, "grade": None}
    alone = difficulty(load_puzzle(start, GOAL_GRID, metric=METRIC, rules="free"))
    return {"difficulty": alone.median_seconds, "grade": alone.grade}


def test_the_list_names_each_file_with_its_rows_totals_and_puzzle(
        client: TestClient, result: SearchResult) -> None:
    answer = client.get("/api/puzzles/searches")
    assert answer.status_code == 200
    listed = answer.json()
    assert [item["name"] for item in listed] == ["tiny", "tiny-db", "shuffled"]
    expected = _expected(result)
    for item in listed:
        assert item["rows"] == len(expected) == 20
        assert item["totals"]["clusters"] == 20
        assert item["totals"]["states"] == sum(row["states"] for row in expected)
        assert item["totals"]["hardest"] == {"length": expected[0]["length"],
                                             "start": expected[0]["start"]}
        puzzle = item["puzzle"]
        assert (puzzle["rows"], puzzle["columns"], puzzle["board"]) == (3, 4, "..../..../....")
        assert (puzzle["goal"], puzzle["metric"], puzzle["rules"]) == (GOAL_GRID, METRIC,
                                                                       "free")
        assert sorted(len(piece["shape"]) for piece in puzzle["pieces"]
                      for _ in piece["letters"]) == [1, 1, 2, 2, 4]


@pytest.mark.parametrize("name", ["tiny", "tiny-db", "shuffled"])
def test_pages_are_the_rows_hardest_first(client: TestClient, result: SearchResult,
                                          name: str) -> None:
    expected = _expected(result)
    if name == "shuffled":  # clusters alike come as the file holds them
        expected = _hardest_first([expected[i] for i in _shuffled(len(expected))])
    paged: list[dict[str, Any]] = []
    for offset in range(0, 21, 7):
        answer = client.get(f"/api/puzzles/searches/{name}",
                            params={"offset": offset, "limit": 7})
        assert answer.status_code == 200, answer.text
        page = answer.json()
        assert (page["name"], page["offset"], page["limit"], page["total"]) == (
            name, offset, 7, 20)
        paged += page["rows"]
    assert paged == expected
    longest = expected[0]["length"]
    for least in (0, 5, longest, longest + 1):
        page = client.get(f"/api/puzzles/searches/{name}",
                          params={"min_length": least, "limit": 500}).json()
        wanted = [row for row in expected if row["length"] is not None
                  and row["length"] >= least]
        assert (page["total"], page["rows"], page["min_length"]) == (len(wanted), wanted, least)


def test_the_file_s_puzzle_plays_each_start(client: TestClient, result: SearchResult) -> None:
    page = client.get("/api/puzzles/searches/tiny", params={"limit": 20}).json()
    puzzle = page["puzzle"]
    for row in page["rows"][:4] + page["rows"][-1:]:
        query = {"start": row["start"], "goal": puzzle["goal"], "metric": puzzle["metric"],
                 "rules": puzzle["rules"]}
        moves = client.get("/api/puzzles/next", params=query).json()
        assert moves["start"] == row["start"] and moves["min_steps"] == row["length"]


@pytest.mark.parametrize(("query", "status", "words"), [
    ("/api/puzzles/searches/nothing", 404, "no search result named 'nothing'"),
    ("/api/puzzles/searches/tiny?offset=-1", 400, "'offset'"),
    ("/api/puzzles/searches/tiny?limit=0", 400, "'limit'"),
    ("/api/puzzles/searches/tiny?limit=501", 400, "'limit'"),
    ("/api/puzzles/searches/tiny?min_length=-2", 400, "'min_length'"),
    ("/api/puzzles/searches/tiny?min_length=many", 400, "'min_length'"),
])
def test_bad_queries_are_refused(client: TestClient, query: str, status: int,
                                 words: str) -> None:
    answer = client.get(query)
    assert answer.status_code == status
    body = answer.json()
    assert set(body) == {"error", "input"} and words in body["error"]


def test_a_page_past_the_end_is_empty(client: TestClient) -> None:
    page = client.get("/api/puzzles/searches/tiny", params={"offset": 50}).json()
    assert (page["total"], page["rows"]) == (20, [])


def test_the_schema_documents_the_routes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    rows = paths["/api/puzzles/searches/{name}"]["get"]
    assert {"200", "400", "404"} <= set(rows["responses"])
    assert {parameter["name"] for parameter in rows["parameters"]} == {
        "name", "offset", "limit", "min_length"}
    assert "200" in paths["/api/puzzles/searches"]["get"]["responses"]


def test_files_that_are_not_search_results_are_refused(
        files: list[Path], tmp_path: Path) -> None:
    plain = tmp_path / "plain.parquet"
    write_results(pa.table({"states": [1], "solved": [0], "length": [None], "start": ["A"]}),
                plain)
    copy = tmp_path / "tiny.parquet"
    copy.write_bytes(files[0].read_bytes())
    for paths, words in (([plain], "not a result file"),
                         ([tmp_path / "none.parquet"], "no such file"),
                         ([tmp_path / "rows.csv"], ".parquet or .duckdb"),
                         ([files[0], copy], "a second result file named 'tiny'")):
        with pytest.raises(PuzzleError, match=words):
            create_app(NO_DATABASE, searches=paths)


def test_serve_takes_search_files(monkeypatch: pytest.MonkeyPatch, files: list[Path],
                                  tmp_path: Path) -> None:
    import uvicorn

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    served = CliRunner().invoke(main, ["serve", "--port", str(port), "--search", str(files[0]),
                                       "--search", str(files[1])])
    assert served.exit_code == 0, served.output
    listed = TestClient(started["app"]).get("/api/puzzles/searches").json()
    assert [item["name"] for item in listed] == ["tiny", "tiny-db"]
    missing = str(tmp_path / "x.parquet")
    refused = CliRunner().invoke(main, ["serve", "--search", missing])
    assert refused.exit_code == 2
    assert refused.output.strip().splitlines() == [
        f"huarong: error: --search {missing!r}: no such file"]


# Bickford's records for 4, 7 and 9 pieces (his results file; the goal piece A) and their
# lengths there: 22, 62 and 132 moves.
BICKFORD_RECORDS = {4: ("AAB./A.BC/..CC/..DD", 22), 7: ("AB../CB.D/EBDD/EFGG", 62),
                    9: ("ABB./ACDD/EEFG/HEI.", 132)}


@pytest.mark.parametrize("suffix", [".parquet", ".duckdb"])
def test_the_sbp_records_are_browsed_each_with_its_goal(tmp_path: Path, suffix: str) -> None:
    """The sbp-4x4 preset's file: each record its own puzzle (its goal: the piece A in the
    lower-right corner, A distinct), played by ``/api/puzzles/next`` in the record's moves,
    its cluster the catalogue copy's."""
    from huarong.puzzles import cluster_summary, load_puzzle
    from huarong.puzzles.presets.bickford import SbpRecord, records_table

    records = [SbpRecord(n, BICKFORD_RECORDS[n][1] if n in BICKFORD_RECORDS else -1,
                         BICKFORD_RECORDS[n][0] if n in BICKFORD_RECORDS else None, 0, 0, 0)
               for n in range(1, 16)]
    path = tmp_path / f"records{suffix}"
    write_results(records_table(records), path)
    client = TestClient(create_app(NO_DATABASE, searches=[path]))
    page = client.get("/api/puzzles/searches/records").json()
    assert page["puzzle"]["goal"] is None
    assert [row["length"] for row in page["rows"]] == [132, 62, 22]
    for row, pieces in zip(page["rows"], (9, 7, 4), strict=True):
        assert row["start"] == BICKFORD_RECORDS[pieces][0]
        assert row["distinct"] == "A"
        catalogue = load_puzzle(f"bickford-4x4-{pieces}")
        assert (row["goal"], row["states"]) == (catalogue.goal, cluster_summary(catalogue).states)
        played = client.get("/api/puzzles/next", params={
            "start": row["start"], "goal": row["goal"], "distinct": row["distinct"],
            "metric": page["puzzle"]["metric"], "rules": page["puzzle"]["rules"]}).json()
        assert played["min_steps"] == row["length"]
