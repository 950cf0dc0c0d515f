"""The OpenAPI schema is the contract (issue 21 §1): schemathesis generates requests from the
schema the server publishes, well-formed and malformed, and checks every answer against it
with all its checks: without a database against ``huarong serve`` in a child process (its
whole-space arrays stay out of the test process), with the standard class's one in-process.

The repository's ``schemathesis.toml`` is the configuration ``schemathesis run`` reads; here it
is read too, so that both runs hold the server to the same contract.  Its one allowance, a 400
for a well-formed layout whose pieces do not fit, is held to a stricter rule here
(:func:`refusals_are_the_engines`): the engine itself must refuse that layout."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from fastapi.testclient import TestClient

from huarong.engine.classics import CLASSICS
from huarong.engine.layout import Layout, LayoutError
from huarong.engine.solver import NotInGroupError, shortest_path
from huarong.web.app import create_app
from huarong.web.schema import LAYOUT_PATTERN

pytestmark = pytest.mark.big_memory

ROOT = Path(__file__).parent.parent
NO_DATABASE = Path(__file__).parent / "no-such-database.duckdb"
ANSWER_SECONDS = 10
"""The longest any answer may take (issue 41): heavy ones answer 202 before."""
SERVER_START_SECONDS = 60
READ_FROM_THE_DATABASE = "^/api/(layout|levels|classes|records)"
"""The operations whose answers the database changes."""


def _all_checks() -> list[schemathesis.CheckFunction]:
    """Every check ``schemathesis run --checks all`` runs: most register on first use."""
    schemathesis.checks.load_all_checks()
    checks = schemathesis.checks.CHECKS.get_all()
    assert {"status_code_conformance", "content_type_conformance", "response_schema_conformance",
            "negative_data_rejection", "positive_data_acceptance", "unsupported_method",
            } <= {check.__name__ for check in checks}
    return checks


ALL_CHECKS = _all_checks()


def _config() -> schemathesis.Config:
    settings = tomllib.loads((ROOT / "schemathesis.toml").read_text("utf-8"))
    return schemathesis.Config.from_dict(settings)


# Both servers publish one schema: the database changes answers, not the contract.
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", create_app(NO_DATABASE),
                                        config=_config())


@pytest.fixture(scope="module")
def server_without_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``huarong serve`` without a database, in a child process: its explorer holds arrays
    over all 29 M layouts and places groups of 700,000, a gigabyte that stays out of the test
    process (the suite keeps under 2 GB).  Yields its base URL."""
    with socket.socket() as probe:  # a free port, for the child to take at once
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Without a database the explorer would keep the groups it places in the user's cache.
    environment = {**os.environ,
                   "HUARONG_EXPLORER_CACHE": str(tmp_path_factory.mktemp("explorer"))}
    server = subprocess.Popen(
        [sys.executable, "-m", "huarong", "serve", "--db", str(NO_DATABASE), "--port",
         str(port), "--log-level", "warning"], env=environment)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_SECONDS
        while True:
            try:
                httpx.get(f"{url}/openapi.json", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                assert server.poll() is None, "the server ended at its start"
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def app_with_database(standard_database: Path) -> Any:
    return create_app(standard_database)


def _engine_refusals(case: schemathesis.Case) -> Iterator[str]:
    """What the engine says against the request's values: each that is no legal layout, and a
    path between layouts of two groups."""
    values = {**(case.query or {}), **(case.path_parameters or {})}
    if case.operation.path.startswith("/api/puzzles/"):
        yield from _puzzle_refusals(values)
        return
    layouts = {}
    for name, value in values.items():
        if isinstance(value, str):
            try:
                layouts[name] = Layout.parse(value)
            except LayoutError as error:
                yield str(error)
    if case.operation.path == "/api/path" and {"start", "target"} <= set(layouts):
        try:
            shortest_path(layouts["start"], layouts["target"])
        except NotInGroupError as error:
            yield str(error)


def _puzzle_refusals(values: dict[str, Any]) -> Iterator[str]:
    """What the puzzle engine says against a puzzle query: the puzzle or the position it
    refuses, a puzzle without a goal to solve; and a file, which the server never reads."""
    from huarong.puzzles import PuzzleError, load_puzzle, parse_state

    start = values.get("start")
    if not isinstance(start, str):
        return
    if start.strip().lower().endswith(".toml"):
        yield "files are not read over HTTP"
        return
    try:
        puzzle = load_puzzle(start, values.get("goal"), metric=values.get("metric"),
                             rules=values.get("rules"), distinct=values.get("distinct") or ())
        if isinstance(values.get("position"), str):
            parse_state(puzzle, values["position"])
    except PuzzleError as error:
        yield str(error)
        return
    if puzzle.goal is None:
        yield "the puzzle has no goal"


def refusals_are_the_engines(ctx: schemathesis.CheckContext, response: schemathesis.Response,
                             case: schemathesis.Case) -> bool | None:
    """A request the schema calls well formed is refused with 400 only for what the engine
    refuses, told in the engine's words: a value that is no legal layout, or a path's target
    outside the start's group.  Any other 400 means the schema and the server disagree."""
    meta = case.meta
    if response.status_code != 400 or meta is None or not meta.generation.mode.is_positive:
        return None
    told = response.json()["error"]
    if any(refusal in told for refusal in _engine_refusals(case)):
        return None
    raise AssertionError(f"a well-formed request was refused: {response.text}")


def _call_and_validate(case: schemathesis.Case, **transport: Any) -> None:
    case.call_and_validate(checks=ALL_CHECKS, additional_checks=[refusals_are_the_engines],
                           timeout=ANSWER_SECONDS, **transport)


@SCHEMA.parametrize()
def test_the_server_keeps_its_contract_without_a_database(case: schemathesis.Case,
                                                          server_without_database: str) -> None:
    _call_and_validate(case, base_url=server_without_database)


def test_two_clients_at_once_get_every_answer_within_ten_seconds(
        server_without_database: str) -> None:
    """``schemathesis run`` as a user runs it, with the project's settings: two clients at
    once, every check, no answer allowed more than 10 s (a heavy one answers 202 first)."""
    run = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "run",
         f"{server_without_database}/openapi.json", "--checks", "all", "--workers", "2",
         "--request-timeout", str(ANSWER_SECONDS)],
        cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
    summary = run.stdout[run.stdout.rfind("SUMMARY"):]
    assert run.returncode == 0 and " passed" in summary, summary or run.stderr


@SCHEMA.parametrize()
def test_the_server_keeps_its_contract_with_a_database(case: schemathesis.Case,
                                                       app_with_database: Any) -> None:
    if not re.match(READ_FROM_THE_DATABASE, case.operation.path):
        pytest.skip("the database does not change this answer")
    _call_and_validate(case, app=app_with_database)


def _solve_operation(schema: dict[str, Any]) -> schemathesis.APIOperation:
    loaded = schemathesis.openapi.from_dict(schema, config=_config())
    operation = loaded["/api/solve"]["GET"]
    assert isinstance(operation, schemathesis.APIOperation)
    return operation


def test_an_undocumented_status_is_caught() -> None:
    """The checks above can fail: with 400 dropped from /api/solve's documentation, a bad
    code's answer is an undocumented status."""
    app = create_app(NO_DATABASE)
    schema = app.openapi()
    client = TestClient(app)
    documented = _solve_operation(schema).Case(query={"code": "1A9BF0C01"})
    documented.validate_response(client.get("/api/solve", params={"code": "1A9BF0C01"}),
                                 checks=ALL_CHECKS)
    del schema["paths"]["/api/solve"]["get"]["responses"]["400"]
    broken = _solve_operation(schema).Case(query={"code": "1A9BF0C01"})
    with pytest.raises(BaseExceptionGroup) as caught:
        broken.validate_response(client.get("/api/solve", params={"code": "1A9BF0C01"}),
                                 checks=ALL_CHECKS)
    assert [type(failure).__name__ for failure in caught.value.exceptions] == [
        "UndefinedStatusCode"]


def _error_body(response: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    body = response["content"]["application/json"]["schema"]
    if "$ref" in body:
        body = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]]
    return body


def test_every_refusal_is_documented_as_the_error_body() -> None:
    """FastAPI's own 422 validation error is gone: this server answers 400 with the error
    body, so every operation with parameters documents that, and every error status it
    documents carries the body ``{"error", "input"}``."""
    schema = create_app(NO_DATABASE).openapi()
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            responses = operation["responses"]
            if operation.get("parameters"):
                assert "400" in responses, path
            for status, response in responses.items():
                if int(status) >= 400:
                    body = _error_body(response, schema)
                    assert set(body["required"]) == {"error", "input"}, (path, status)
                    assert {body["properties"][name]["type"] for name in ("error", "input")
                            } == {"string"}, (path, status)


@pytest.mark.parametrize("classic", CLASSICS, ids=lambda classic: classic.name_en)
def test_every_notation_of_a_layout_fits_the_pattern(classic: Any) -> None:
    layout = classic.layout
    writings = [layout.code, layout.code.rstrip("0"), layout.code.lower(), f"0x{layout.code}",
                f" {layout.code}\n", layout.online_id, layout.grid(""), layout.grid(" "),
                layout.grid("").replace("\n", "/"), classic.grid]
    client = TestClient(create_app(NO_DATABASE))
    for writing in writings:
        assert re.search(LAYOUT_PATTERN, writing), writing
        answer = client.get("/api/layout", params={"code": writing})
        assert answer.status_code == 200 and answer.json()["code"] == layout.code, writing


def test_a_layout_with_the_2x2_anywhere_fits_the_pattern() -> None:
    """For each of the 12 places the 2x2 piece can stand (SPEC §3: the first digit of every
    legal code), a random legal layout there, in each notation, fits the pattern and is
    answered."""
    import bisect
    import random

    from huarong.engine.ids import LAYOUT_COUNT

    # Ids are ranks in code order, so each 2x2 place (a code's first digit) is a range of
    # ids, found by bisection without the array of all 29 M codes.
    def first_id(head: int) -> int:
        return bisect.bisect_left(range(LAYOUT_COUNT), head,
                                  key=lambda rank: int(Layout.from_id(rank)) >> 32)

    bounds = [first_id(head) for head in range(17)]
    heads = [head for head in range(16) if bounds[head] < bounds[head + 1]]
    assert len(heads) == 12
    client = TestClient(create_app(NO_DATABASE))
    rng = random.Random(12)
    for head in heads:
        layout = Layout.from_id(rng.randrange(bounds[head], bounds[head + 1]))
        assert int(layout) >> 32 == head
        for writing in (layout.code, layout.code.lower(), layout.short_code, layout.online_id,
                        layout.grid("").replace("\n", "/")):
            assert re.search(LAYOUT_PATTERN, writing), writing
            answer = client.get("/api/layout", params={"code": writing})
            assert answer.status_code == 200 and answer.json()["code"] == layout.code, writing
