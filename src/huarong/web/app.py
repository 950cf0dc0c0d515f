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
server's size limit, 503 (with ``Retry-After``) while the workers have too much waiting.
Group- and cluster-sized answers are made in worker processes (:mod:`huarong.web.heavy`): one
not ready within the server's wait answers 202, and the same address answers it once done.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import AsyncIterator, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from huarong.engine.palette import palette_bytes
from huarong.web.errors import add_error_handlers
from huarong.web.heavy import (
    DEFAULT_ANSWER_SECONDS,
    DEFAULT_CACHE_BYTES,
    Accepted,
    ClientGone,
    HeavyAnswers,
    accepted,
    answer_directory,
    default_workers,
)
from huarong.web.schema import Health, answers, contract
from huarong.web.state import ServerState

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

    @router.get("/palette.json")
    def colours() -> Response:
        """The colours of pieces, walls and the tray, shared with the Python drawings."""
        return Response(palette_bytes(), media_type="application/json",
                        headers={"Cache-Control": "public, max-age=3600"})

    return router


class _LocalDocumentation:
    """Redoc's "API docs by Redocly" badge is an image from Redocly's site: the browser is told
    to load images only from here, so the pages contact no other host.  Plain ASGI, not
    Starlette's ``BaseHTTPMiddleware``, which hides a client's going away from the routes
    (heavy answers cancel their work then) and costs every light answer."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] not in {"/docs", "/redoc"}:
            await self.app(scope, receive, send)
            return

        async def send_with_policy(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []),
                                      (b"content-security-policy", b"img-src 'self' data:")]
            await send(message)

        await self.app(scope, receive, send_with_policy)


def _optional_text(path: Path | None) -> str | None:
    return None if path is None else str(path)


def health_of(state: ServerState, heavy: HeavyAnswers) -> dict[str, Any]:
    """``/api/health``'s answer: whether the workers are up, and what the server holds."""
    from huarong.space.database import default_path

    database = state.database or default_path()
    table = state.steps_table.get()
    return Health.model_validate({
        "database": str(database) if database.is_file() else None,
        "min_steps_table": None if table is None else str(table.path),
        "figures_file": _optional_text(state.shared_database.figures_path()),
        **heavy.status()}).model_dump()


def health_router(state: ServerState, heavy: HeavyAnswers) -> APIRouter:
    """``/api/health``."""
    router = APIRouter(prefix="/api")

    @router.get("/health", summary="Whether the server is ready, and what it holds",
                response_model=None, responses=answers(Health))
    def health() -> dict[str, Any]:
        """``ready``: the workers for heavy answers are up; the database, the table of
        minimum steps and the figures file the light answers read (null when absent); the
        workers, the jobs in flight and the answer cache."""
        return health_of(state, heavy)

    return router


def create_app(database: str | os.PathLike[str] | None = None,
               max_group_size: int = MAX_GROUP_SIZE,
               searches: Iterable[str | os.PathLike[str]] = (), workers: int | None = None,
               answer_seconds: float = DEFAULT_ANSWER_SECONDS,
               cache_bytes: int = DEFAULT_CACHE_BYTES) -> FastAPI:
    """The application: the JSON API, klotski.online's ``/solution`` and the viewer page.

    ``database``: where the level picker's database is (default ``$HUARONG_DB`` or the
    standard place); groups and clusters of at most ``max_group_size`` layouts are searched
    by ``workers`` processes (default: :func:`~huarong.web.heavy.default_workers`), their
    answers kept in an answer cache of ``cache_bytes`` beside the database, each awaited at
    most ``answer_seconds`` (then 202); ``searches``: result files of ``huarong puzzle
    search`` to browse (:class:`~huarong.puzzles.PuzzleError` for one that is not such a
    file, or two of one name)."""
    from huarong.puzzles.results import open_search_files
    from huarong.web.explore_api import explore_router
    from huarong.web.layout_api import layout_router
    from huarong.web.puzzles_api import puzzles_router
    from huarong.web.searches_api import searches_router
    from huarong.web.solve_api import solve_router

    results = open_search_files(searches)
    path = Path(database) if database is not None else None
    answers = HeavyAnswers(workers or default_workers(), answer_directory(path), cache_bytes,
                           answer_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        answers.start()  # the workers start with the server, not on the first heavy answer
        # The figures file's checksum takes a tenth of a second: not the first request's.
        await asyncio.to_thread(state.shared_database.figures_path)
        yield

    app = FastAPIOffline(
        title="huarong",
        lifespan=lifespan,
        summary="Klotski (华容道): optimal solutions, analysis, klotski.online's API.",
        static_url="/static-docs",
        favicon_url="/static/favicon.svg",
    )
    app.state.answers = answers

    app.add_middleware(_LocalDocumentation)
    add_error_handlers(app)

    @app.exception_handler(Accepted)
    def still_working(request: Request, error: Accepted) -> JSONResponse:
        return accepted(request)

    @app.exception_handler(ClientGone)
    def client_gone(request: Request, error: ClientGone) -> Response:
        return Response(status_code=499)  # nginx's "client closed request": nobody reads it

    state = ServerState(path)
    app.state.health = functools.partial(health_of, state, answers)
    app.include_router(health_router(state, answers))
    app.include_router(solve_router(state, answers, max_group_size))
    app.include_router(layout_router(state))
    app.include_router(explore_router(answers, state.database))
    app.include_router(pages_router())
    app.include_router(puzzles_router(answers, max_group_size))
    app.include_router(searches_router(results))
    app.mount("/static", StaticFiles(directory=_static_directory()), name="static")
    contract(app)
    return app
