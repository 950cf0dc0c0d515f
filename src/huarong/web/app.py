"""The HTTP API and the solution viewer: :func:`create_app` builds the FastAPI application
from one router per feature.

Every layout parameter takes the notations :meth:`Layout.parse` reads, as the pattern
:data:`~huarong.web.schema.LAYOUT_PATTERN` writes them; the OpenAPI schema (``/openapi.json``)
documents every parameter, answer and error (:mod:`huarong.web.schema`).  ``/solution`` answers
exactly as klotski.online does (docs §7): one member of each mirror pair, the one with the
smaller common code, stores the solution; the other answers ``"mirror": "1"`` with the
solution written for its mirror image.  Every error answers one JSON shape,
``{"error": "<one line>", "input": "<the bad value>"}`` (:mod:`huarong.web.errors`): 400 for a
bad query, 404 for an unknown address or a missing database, 422 for a group larger than the
server's size limit, 503 (with ``Retry-After``) while every slot for heavy work is taken.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from huarong.web.errors import HeavyWork, add_error_handlers
from huarong.web.schema import contract
from huarong.web.state import ServerState

HEAVY_SLOTS = 2
"""Requests that may search whole groups at once; more answer 503."""
MAX_GROUP_SIZE = 300_000
"""The largest group the server searches (the largest of all holds 964,656 layouts)."""


def _static_directory() -> str:
    return str(resources.files("huarong.web") / "static")


def pages_router() -> APIRouter:
    """The viewer (``/``) and the explorer (``/explore``) pages."""
    router = APIRouter(include_in_schema=False)

    @router.get("/")
    def viewer() -> FileResponse:
        return FileResponse(f"{_static_directory()}/index.html")

    @router.get("/explore")
    def explore() -> FileResponse:
        return FileResponse(f"{_static_directory()}/explore.html")

    return router


def create_app(database: str | os.PathLike[str] | None = None, heavy_slots: int = HEAVY_SLOTS,
               max_group_size: int = MAX_GROUP_SIZE,
               searches: Iterable[str | os.PathLike[str]] = ()) -> FastAPI:
    """The application: the JSON API, klotski.online's ``/solution`` and the viewer page.

    ``database``: where the level picker's database is (default ``$HUARONG_DB`` or the
    standard place); ``heavy_slots`` requests may search groups of at most
    ``max_group_size`` layouts at once; ``searches``: result files of ``huarong puzzle
    search`` to browse (:class:`~huarong.puzzles.PuzzleError` for one that is not such a
    file, or two of one name)."""
    from huarong.puzzles.results import open_search_files
    from huarong.web.explore_api import explore_router
    from huarong.web.layout_api import layout_router
    from huarong.web.puzzles_api import puzzles_router
    from huarong.web.searches_api import searches_router
    from huarong.web.solve_api import solve_router

    results = open_search_files(searches)

    app = FastAPIOffline(
        title="huarong",
        summary="Klotski (华容道): optimal solutions, analysis, klotski.online's API.",
        static_url="/static-docs",
        favicon_url="/static/favicon.svg",
    )
    heavy = HeavyWork(heavy_slots, max_group_size)
    app.state.heavy = heavy

    @app.middleware("http")
    async def documentation_stays_local(request: Request, call_next: Any) -> Any:
        # Redoc's "API docs by Redocly" badge is an image from Redocly's site: the browser is
        # told to load images only from here, so the pages contact no other host.
        response = await call_next(request)
        if request.url.path in {"/docs", "/redoc"}:
            response.headers["Content-Security-Policy"] = "img-src 'self' data:"
        return response

    add_error_handlers(app)
    state = ServerState(Path(database) if database is not None else None, heavy)
    app.include_router(solve_router(state))
    app.include_router(layout_router(state))
    app.include_router(explore_router(state.database))
    app.include_router(pages_router())
    app.include_router(puzzles_router(max_group_size, heavy_slots))
    app.include_router(searches_router(results))
    app.mount("/static", StaticFiles(directory=_static_directory()), name="static")
    contract(app)
    return app
