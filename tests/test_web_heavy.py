"""Heavy answers in the server's worker processes (:mod:`huarong.web.heavy`): a light answer is
not kept waiting by a heavy one, a client that goes away stops its work, an answer slower
than the server waits is 202 and then answered at the same address, and the answer cache
survives a restart and refuses a damaged entry."""

from __future__ import annotations

import asyncio
import os
import socket
import struct
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient

from huarong.engine.classics import CLASSICS
from huarong.engine.layout import Layout
from huarong.engine.solver import group_codes
from huarong.web.app import create_app

from .test_browser import _serve

NO_DATABASE = Path(__file__).parent / "no-such-database.duckdb"
HENG_DAO_LI_MA = next(classic for classic in CLASSICS if classic.layout.code == "1A9BF0C00")
LARGEST_GROUP = "00006FFF0"
"""A layout of the largest group (964,656 layouts, docs): its GEXF file keeps a worker busy
for tens of seconds."""


@pytest.fixture
def answer_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The answer cache (and the placements) of the test's apps, under tmp_path."""
    monkeypatch.setenv("HUARONG_EXPLORER_CACHE", str(tmp_path))
    return tmp_path / "answers"


def _until(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server did not get there in time"
        time.sleep(0.1)


def test_a_light_answer_is_not_kept_waiting_and_a_client_that_leaves_stops_its_work(
        answer_cache: Path) -> None:
    with _serve(NO_DATABASE, workers=1, answer_seconds=600) as url:
        def health() -> dict[str, Any]:
            answer: dict[str, Any] = httpx.get(f"{url}/api/health", timeout=30).json()
            return answer

        address = urlsplit(url)
        heavy = socket.create_connection((address.hostname, address.port))
        try:
            heavy.sendall(f"GET /api/groups/{LARGEST_GROUP}/graph.gexf HTTP/1.1\r\n"
                          f"Host: {address.netloc}\r\n\r\n".encode())
            _until(lambda: health()["jobs"] == 1)
            with httpx.Client(base_url=url, timeout=30) as light:
                solved = light.get("/api/solve", params={"code": HENG_DAO_LI_MA.layout.code})
                facts = light.get("/api/layout", params={"code": HENG_DAO_LI_MA.layout.code})
            assert solved.json()["steps"] == HENG_DAO_LI_MA.literature_steps
            assert facts.json()["online_id"] == HENG_DAO_LI_MA.layout.online_id
            assert health()["jobs"] == 1, "the heavy answer should still be in the making"
        finally:
            heavy.close()
        _until(lambda: health()["jobs"] == 0, seconds=10)
        after = health()
        assert after["cancelled"] == 1 and after["cache"]["entries"] == 0


def _nodes_of(graph: bytes) -> int:
    """The node count of the explorer's binary graph (docs/explorer.md: magic, then uint32
    nodes)."""
    assert graph[:3] == b"HRG"
    nodes: int = struct.unpack_from("<I", graph, 4)[0]
    return nodes


def test_an_answer_slower_than_the_wait_is_202_then_answered_at_the_same_address(
        answer_cache: Path) -> None:
    client = TestClient(create_app(NO_DATABASE, answer_seconds=0.01))
    address = f"/api/groups/{HENG_DAO_LI_MA.layout.code}/graph"
    first = client.get(address)
    assert first.status_code == 202
    assert first.headers["location"] == address == first.json()["location"]
    assert int(first.headers["retry-after"]) == first.json()["retry_after"] > 0
    deadline = time.monotonic() + 120
    answer = first
    while answer.status_code == 202:
        assert time.monotonic() < deadline
        time.sleep(0.2)
        answer = client.get(answer.headers["location"])
    assert answer.status_code == 200
    assert _nodes_of(answer.content) == len(group_codes(Layout(HENG_DAO_LI_MA.layout.code)))


def test_the_answer_cache_survives_a_restart_and_refuses_a_damaged_entry(
        answer_cache: Path) -> None:
    address = f"/api/groups/{HENG_DAO_LI_MA.layout.code}/bottlenecks"
    first = TestClient(create_app(NO_DATABASE)).get(address)
    assert first.status_code == 200
    assert first.json()["states"] == len(group_codes(HENG_DAO_LI_MA.layout))

    restarted = create_app(NO_DATABASE)
    again = TestClient(restarted).get(address)
    assert again.content == first.content
    counts = restarted.state.answers.status()
    assert (counts["hits"], counts["started"]) == (1, 0)

    kept = [path for path in answer_cache.rglob("*") if path.is_file()
            and path.stat().st_size == len(first.content)]
    assert len(kept) == 1, "the answer should be kept in one file of the cache"
    damaged = bytearray(kept[0].read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    kept[0].write_bytes(bytes(damaged))
    made_again = TestClient(restarted).get(address)
    assert made_again.content == first.content
    counts = restarted.state.answers.status()
    assert (counts["hits"], counts["started"]) == (1, 1)


def test_the_layer_model_of_a_group_is_kept_across_a_restart(answer_cache: Path) -> None:
    params = {"code": HENG_DAO_LI_MA.layout.code}
    first = TestClient(create_app(NO_DATABASE)).get("/api/analysis", params=params)
    assert first.status_code == 200 and first.json()["min_steps"] == 81  # docs §3
    restarted = create_app(NO_DATABASE)
    again = TestClient(restarted).get("/api/analysis", params=params)
    assert again.content == first.content
    counts = restarted.state.answers.status()
    assert (counts["hits"], counts["started"]) == (1, 0)


def test_a_worker_that_dies_is_told_as_503_and_its_job_runs_again_when_asked(
        answer_cache: Path) -> None:
    from huarong.web.errors import ServerBusy
    from huarong.web.heavy import HeavyAnswers

    heavy = HeavyAnswers(1, answer_cache, answer_seconds=60)

    class Asking:
        """What the pool reads of a request: its address, and whether its client left."""

        url = "/a-job-that-ends-its-worker"

        async def is_disconnected(self) -> bool:
            return False

    async def ask() -> None:
        with pytest.raises(ServerBusy, match="worker process ended"):
            await heavy.run(Asking(), ("exit",), os._exit, 3)  # type: ignore[arg-type]

    asyncio.run(ask())
    asyncio.run(ask())
    assert heavy.started == 2, "a dead worker's failure must not be kept as the answer"
