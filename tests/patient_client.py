"""A test client that takes a 202 as the API means it: ask the same URL again.

A heavy answer (a group's placement, a cluster's search) is answered 202 when its job runs
past the server's answer window, which happens on a loaded machine (the suite runs on both
cores).  Tests of what an answer holds ask again, as a browser does; tests of the 202 itself
use the plain client.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
from fastapi.testclient import TestClient

PATIENCE_SECONDS = 300.0
"""How long a test waits for its answer before it fails on the 202."""


class PatientClient(TestClient):
    """``TestClient`` whose GET asks again while the answer is 202."""

    def get(self, url: httpx.URL | str, **options: Any) -> httpx.Response:  # type: ignore[override]
        deadline = time.monotonic() + PATIENCE_SECONDS
        while True:
            answer = super().get(url, **options)
            if answer.status_code != 202 or time.monotonic() > deadline:
                return answer
            time.sleep(0.2)
