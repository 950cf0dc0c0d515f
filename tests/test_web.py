"""The HTTP API (web contract) and the classic layouts, against docs facts, the recorded
klotski.online responses, the literature's step counts and the reference engine."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from huarong.engine.classics import CLASSICS
from huarong.engine.layout import Layout
from huarong.engine.notation import replay
from huarong.engine.solver import solve
from huarong.web.app import create_app
from tests.patient_client import PatientClient as TestClient

from . import klotski_reference as ref

# Real klotski.online answers, as recorded from klotski.online.
RESPONSES = json.loads(
    (Path(__file__).parent / "data" / "klotski_online_responses.json").read_text("utf-8"))
HENGDAO_ID = "24422442233221121001"  # docs §7
HENGDAO = "1A9BF0C00"  # docs §3
NO_DATABASE = Path(__file__).parent / "no-such-database.duckdb"
GAME_LAYOUTS = 121_285  # docs §7: solvable standard layouts, one of each mirror pair
HARDEST = ("4FEA13400", 138)  # 峰回路转, the hardest game layout


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(NO_DATABASE))


def state_of(code: str) -> ref.State:
    return ref.from_grid(Layout.from_code(code).grid())


def assert_steps_are_moves(path: list[str], moves: list[dict[str, Any]]) -> None:
    assert len(moves) == len(path) - 1
    for (before, after), move in zip(itertools.pairwise(path), moves, strict=True):
        assert ref.is_one_step(state_of(before), state_of(after))
        moved = (move["kind"][0].upper(), *divmod(move["from"], 4))
        landed = (move["kind"][0].upper(), *divmod(move["to"], 4))
        assert moved in state_of(before) - state_of(after)
        assert landed in state_of(after) - state_of(before)


@pytest.mark.parametrize("response", RESPONSES, ids=lambda r: r["name"])
def test_solution_answers_like_klotski_online(client: TestClient,
                                               response: dict[str, str]) -> None:
    answer = client.get("/solution", params={"t": "json", "q": response["id"]}).json()
    assert set(answer) == {"id", "mirror", "solution"}
    assert (answer["id"], answer["mirror"]) == (response["id"], response["mirror"])
    path = replay(Layout.from_online_id(response["id"]), answer["solution"],
                  mirror=answer["mirror"] == "1")
    assert path[-1].is_solved
    assert len(answer["solution"]) == len(response["solution"]) == 2 * (len(path) - 1)


def test_solution_without_json_goes_to_the_viewer(client: TestClient) -> None:
    answer = client.get("/solution", params={"q": HENGDAO_ID}, follow_redirects=False)
    assert answer.status_code in (302, 307)
    assert answer.headers["location"] == f"/#{HENGDAO}"


def test_layout_describes_hengdao(client: TestClient) -> None:
    answer = client.get("/api/layout", params={"code": HENGDAO_ID}).json()
    assert answer["code"] == HENGDAO and answer["online_id"] == HENGDAO_ID
    assert answer["cells"] == [int(digit) for digit in HENGDAO_ID]
    assert (answer["jiang"], answer["bing"], answer["style"]) == (5, 4, 1)
    assert answer["is_standard"] and not answer["is_solved"]
    assert answer["mirror_code"] == HENGDAO  # 横刀立马 is symmetric
    kinds = sorted(piece["kind"] for piece in answer["pieces"])
    assert kinds == ["cao", "horizontal"] + ["soldier"] * 4 + ["vertical"] * 4
    cao = next(piece for piece in answer["pieces"] if piece["kind"] == "cao")
    assert (cao["row"], cao["col"], cao["width"], cao["height"]) == (0, 1, 2, 2)


def test_solve_gives_81_steps_for_hengdao(client: TestClient) -> None:
    answer = client.get("/api/solve", params={"code": "VCCV/VCCV/VHHV/VSSV/S..S"}).json()
    assert answer["solvable"] and answer["steps"] == 81
    assert answer["path"][0] == HENGDAO and answer["path"][-1].startswith("D")
    assert_steps_are_moves(answer["path"], answer["moves"])
    replayed = replay(Layout.from_code(HENGDAO), answer["solution"])
    assert [layout.code for layout in replayed] == answer["path"]


def test_solve_reports_no_solution(client: TestClient) -> None:
    answer = client.get("/api/solve", params={"code": "VCCV/VCCV/VVSV/VVSV/S..S"}).json()
    assert answer == {"code": "1AAEF0C00", "solvable": False, "steps": None, "path": [],
                      "moves": [], "solution": ""}


def test_analysis_matches_the_reference(client: TestClient) -> None:
    # 前呼后拥: a small group the reference engine searches quickly.
    grid = "S S C C\nH H C C\nH H H H\nH H H H\n. . S S"
    distances = ref.distances(ref.from_grid(grid))
    answer = client.get("/api/analysis", params={"code": Layout.from_grid(grid).code}).json()
    farthest = max(distances.values())
    assert answer["group_size"] == len(distances)
    assert answer["farthest_steps"] == farthest
    assert answer["farthest_count"] == sum(1 for d in distances.values() if d == farthest)
    assert answer["layer_sizes"] == [sum(1 for d in distances.values() if d == k)
                                     for k in range(farthest + 1)]
    assert answer["min_steps"] == 22  # the literature's figure
    solutions = ref.solutions(ref.from_grid(grid), distances)
    assert answer["solution_count"] == len(solutions)
    assert len(answer["farthest_sample"]) == min(20, answer["farthest_count"])


def test_path_between_two_layouts_of_a_group(client: TestClient) -> None:
    start = Layout.from_grid("SSCC/HHCC/HHHH/HHHH/..SS")
    distances = ref.distances(state_of(start.code))
    target = sorted((d, ref.to_grid(s)) for s, d in distances.items() if d == 9)[0][1]
    target_code = Layout.from_grid(target).code
    answer = client.get("/api/path", params={"start": start.code, "target": target_code}).json()
    assert (answer["start"], answer["target"], answer["steps"]) == (start.code, target_code, 9)
    assert answer["path"][0] == start.code and answer["path"][-1] == target_code
    assert_steps_are_moves(answer["path"], answer["moves"])


def test_path_to_another_group_is_a_bad_query(client: TestClient) -> None:
    answer = client.get("/api/path", params={"start": HENGDAO, "target": "4FEA134"})
    assert answer.status_code == 400
    assert answer.json()["input"] == "4FEA134" and "not in the group" in answer.json()["error"]


def test_next_points_one_step_closer(client: TestClient) -> None:
    answer = client.get("/api/next", params={"code": HENGDAO}).json()
    assert answer["min_steps"] == 81
    children = {Layout.from_grid(ref.to_grid(s)).code for s in ref.steps_from(state_of(HENGDAO))}
    assert {child["code"] for child in answer["children"]} == children
    for child in answer["children"]:
        assert child["min_steps"] == solve(Layout.from_code(child["code"])).steps
    assert answer["best"] == [child["code"] for child in answer["children"]
                              if child["min_steps"] == 80]
    assert answer["best"]
    assert_steps_are_moves([HENGDAO, answer["children"][0]["code"]],
                           [answer["children"][0]["move"]])


@pytest.mark.parametrize("classic", CLASSICS, ids=lambda c: c.name)
def test_classics_take_the_literature_step_counts(classic: Any) -> None:
    assert classic.layout.is_standard
    assert solve(classic.layout).steps == classic.literature_steps


def test_classics_endpoint_lists_them_with_their_steps(client: TestClient) -> None:
    answer = client.get("/api/classics").json()
    assert len(answer) >= 21 and len({entry["code"] for entry in answer}) == len(answer)
    by_name = {entry["name"]: entry for entry in answer}
    assert by_name["横刀立马"]["code"] == HENGDAO and by_name["横刀立马"]["min_steps"] == 81
    assert by_name["峰回路转"]["min_steps"] == 138
    for entry in answer:
        assert entry["name_en"] and Layout.parse(entry["grid"]).code == entry["code"]


@pytest.mark.parametrize(("url", "params", "bad"), [
    ("/api/layout", {"code": "XYZ"}, "XYZ"),
    ("/api/layout", {"code": "1A9BF0C01"}, "1A9BF0C01"),
    ("/api/solve", {"code": "24422442233221121009"}, "24422442233221121009"),
    ("/api/analysis", {"code": "CCCC/..../..../..../...."}, "CCCC/..../..../..../...."),
    ("/api/next", {"code": ""}, ""),
    ("/api/path", {"start": "zz", "target": HENGDAO}, "zz"),
    ("/api/levels", {"limit": "0"}, "0"),
    ("/solution", {"t": "json", "q": "2442244223322112100"}, "2442244223322112100"),
    ("/api/layout", {"code": "1" * 500}, "1" * 500),
])
def test_bad_queries_answer_400_naming_the_input(client: TestClient, url: str,
                                                 params: dict[str, str], bad: str) -> None:
    answer = client.get(url, params=params)
    assert answer.status_code == 400
    error = answer.json()
    assert set(error) == {"error", "input"} and error["input"] == bad
    assert "\n" not in error["error"] and error["error"]


@pytest.mark.parametrize(("url", "name"), [("/api/solve", "code"), ("/solution", "q"),
                                           ("/api/path?start=1A9BF0C", "target")])
def test_missing_parameters_answer_400(client: TestClient, url: str, name: str) -> None:
    answer = client.get(url)
    assert answer.status_code == 400
    assert answer.json()["error"] == f"missing query parameter {name!r}"


def test_viewer_and_documentation_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert client.get("/static/index.html").text == page.text
    schema = client.get("/openapi.json").json()
    assert {"/solution", "/api/layout", "/api/solve", "/api/analysis", "/api/path",
            "/api/next", "/api/classics"} <= set(schema["paths"])


def test_unknown_addresses_answer_the_error_shape(client: TestClient) -> None:
    answer = client.get("/api/nothing-here")
    assert answer.status_code == 404
    assert answer.json() == {"error": "no such page: /api/nothing-here",
                             "input": "/api/nothing-here"}
    assert client.post("/api/solve").json()["input"] == "/api/solve"


def test_heavy_work_is_refused_with_503_while_the_workers_have_too_much_waiting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HUARONG_EXPLORER_CACHE", str(tmp_path))  # an empty answer cache
    app = create_app(NO_DATABASE)
    client = TestClient(app)
    allowed = app.state.answers.max_jobs
    app.state.answers.max_jobs = -1  # as if every worker's queue were full
    for url, params in [("/api/analysis", {"code": HENGDAO}),
                        ("/api/next", {"code": HENGDAO}),
                        ("/api/path", {"start": HENGDAO, "target": HENGDAO})]:
        answer = client.get(url, params=params)
        assert answer.status_code == 503, url
        assert answer.headers["retry-after"].isdigit()
        assert set(answer.json()) == {"error", "input"} and "busy" in answer.json()["error"]
    assert client.get("/api/solve", params={"code": HENGDAO}).status_code == 200
    app.state.answers.max_jobs = allowed
    assert client.get("/api/next", params={"code": HENGDAO}).json()["min_steps"] == 81


def test_groups_over_the_size_limit_answer_422() -> None:
    # 前呼后拥's group is small enough for the reference engine to count
    code = Layout.from_grid("SSCC/HHCC/HHHH/HHHH/..SS").code
    size = len(ref.distances(state_of(code)))
    refusing = TestClient(create_app(NO_DATABASE, max_group_size=size - 1))
    answer = refusing.get("/api/analysis", params={"code": code})
    assert answer.status_code == 422
    assert answer.json()["input"] == code and f"{size - 1:,}" in answer.json()["error"]
    accepting = TestClient(create_app(NO_DATABASE, max_group_size=size))
    assert accepting.get("/api/analysis", params={"code": code}).json()["group_size"] == size


def test_documentation_needs_no_internet(client: TestClient) -> None:
    import re

    for page in ("/docs", "/redoc"):
        answer = client.get(page)
        assert answer.headers["content-security-policy"] == "img-src 'self' data:"
        html = answer.text
        assets = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert assets, page
        for asset in assets:
            assert asset.startswith("/"), f"{page} loads {asset} from elsewhere"
            assert client.get(asset).status_code == 200, asset
        assert "fonts.googleapis" not in html


def test_levels_without_a_database_say_how_to_build_one(client: TestClient) -> None:
    answer = client.get("/api/levels")
    assert answer.status_code == 404
    assert "huarong db build" in answer.json()["error"]


def test_levels_page_through_the_game_layouts(standard_database: Path) -> None:
    client = TestClient(create_app(standard_database))
    first = client.get("/api/levels", params={"limit": 5}).json()
    assert first["total"] == GAME_LAYOUTS and first["offset"] == 0
    assert len(first["levels"]) == 5 and first["levels"][0]["min_steps"] >= 1
    last = client.get("/api/levels", params={"offset": GAME_LAYOUTS - 3}).json()["levels"]
    assert len(last) == 3 and {level["min_steps"] for level in last} == {HARDEST[1]}
    assert HARDEST[0] in {level["code"] for level in last}
    jump = client.get("/api/levels", params={"min_steps": 81, "limit": 200}).json()
    steps = [level["min_steps"] for level in jump["levels"]]
    assert steps == sorted(steps) and steps[0] == 81
    before = client.get("/api/levels", params={"offset": jump["offset"] - 1, "limit": 1})
    assert before.json()["levels"][0]["min_steps"] == 80
    for level in jump["levels"][:10]:
        layout = Layout.from_code(level["code"])
        assert layout.is_standard and not layout.is_solved
        assert layout <= layout.mirror()
        assert solve(layout).steps == level["min_steps"] == 81


def test_layout_reads_the_database_as_it_is_now(standard_database: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The server keeps the database open between requests, yet /api/layout answers as if each
    request opened it: a database built after the server started, one replaced by another,
    one damaged, one removed; an idle server lets go of it, so a writer can commit."""
    import duckdb

    from huarong.space.database import Database
    from huarong.web import state

    path = tmp_path / "huarong.duckdb"
    client = TestClient(create_app(path))
    hengdao = Layout.from_code(HENGDAO)

    def row(layout: Layout) -> Any:
        return client.get("/api/layout", params={"code": layout.code}).json()["database"]

    assert row(hengdao) is None
    shutil.copy(standard_database, path)
    with Database.open(path) as database:
        assert row(hengdao) == database.info(hengdao).to_dict()
    assert row(hengdao)["min_steps"] == 81
    assert row(Layout.from_code("0002ABF00")) is None  # not a standard layout: no row here

    edited = tmp_path / "edited.duckdb"
    shutil.copy(standard_database, edited)
    with duckdb.connect(str(edited)) as connection:
        connection.execute("UPDATE layouts SET min_steps = 7 WHERE code = ?", [int(hengdao)])
    os.replace(edited, path)
    assert row(hengdao)["min_steps"] == 7

    path.write_bytes(b"not a database")
    assert row(hengdao) is None
    path.unlink()
    assert row(hengdao) is None

    shutil.copy(standard_database, path)
    monkeypatch.setattr(state, "RELEASE_WHEN_IDLE_S", 0.01)
    assert row(hengdao)["min_steps"] == 81
    deadline = time.monotonic() + 30
    while True:
        try:  # a second, writing connection: refused while the server holds its own
            duckdb.connect(str(path)).close()
            break
        except duckdb.Error:
            assert time.monotonic() < deadline, "the idle server still holds the database"
            time.sleep(0.05)


def assert_levels_agree_with_the_database(path: Path) -> None:
    """The endpoint against the database's own columns: its stored mirror of each layout
    (``mirror_id``) instead of the mirror images the endpoint computes."""
    from huarong.space.database import Database

    client = TestClient(create_app(path))
    answer = client.get("/api/levels", params={"min_steps": 130, "limit": 200}).json()
    assert answer["total"] == GAME_LAYOUTS
    with Database.open(path) as database:
        rows = database.query(
            "SELECT l.hex, l.min_steps FROM layouts l JOIN layouts m ON m.id = l.mirror_id "
            "WHERE l.jiang = 5 AND l.bing = 4 AND l.min_steps >= 130 AND l.code <= m.code "
            "ORDER BY l.min_steps, l.code").rows
    assert len(rows) < 200
    assert [(level["code"], level["min_steps"]) for level in answer["levels"]] == rows


@pytest.mark.slow
def test_levels_from_the_whole_database(database_path: Path) -> None:
    assert_levels_agree_with_the_database(database_path)


def test_the_webfont_holds_every_chinese_glyph_the_page_shows() -> None:
    import re
    from importlib import resources

    from fontTools.ttLib import TTFont

    static = resources.files("huarong.web") / "static"
    shown = "".join(static.joinpath(name).read_text("utf-8")
                    for name in ("index.html", "pages/klotski-viewer/klotski-viewer.js",
                                 "lib/klotski-rules.js", "style.css"))
    shown += "".join(classic.name for classic in CLASSICS)
    glyphs = set(re.findall(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]", shown))
    assert {"曹", "操", "华", "容", "道", "兵", "将", "出", "口"} <= glyphs
    with static.joinpath("cjk-subset.woff2").open("rb") as woff2:
        covered = {chr(point) for point in TTFont(woff2).getBestCmap()}
    assert not sorted(glyphs - covered), "rerun tools/make_webfont.py"
    assert len(covered) < 300  # a subset, not the whole font
