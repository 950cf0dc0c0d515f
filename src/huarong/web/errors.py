"""The errors every router of the API shares and the one JSON shape they answer,
``{"error": "<one line>", "input": "<the bad value>"}``, with the handlers that turn them
(and FastAPI's own refusals) into it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from huarong.engine.layout import Layout, LayoutError
from huarong.web.schema import LAYOUT_DESCRIPTION, LAYOUT_PATTERN, RETRY_AFTER

RETRY_AFTER_SECONDS = 2
"""What a 503 answer's ``Retry-After`` says."""


class BadQuery(ValueError):
    """A request that cannot be answered; answered with ``status`` (400: a bad query)."""

    def __init__(self, message: str, value: str, status: int = 400) -> None:
        self.value = value
        self.status = status
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in a worker process (huarong.web.heavy), answered by the server's.
        return BadQuery, (str(self), self.value, self.status)


class ServerBusy(BadQuery):
    """The server cannot take the work now: 503 with ``Retry-After``."""

    def __init__(self, message: str, value: str) -> None:
        super().__init__(message, value, 503)


def error_response(message: str, value: str, status: int,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    """The one error body, ``{"error", "input"}``, with ``status``."""
    return JSONResponse({"error": message, "input": value}, status_code=status,
                        headers=headers)


def path_layout(code: str) -> Layout:
    """The layout a URL path names (``/api/groups/{code}``); :class:`BadQuery` (400)."""
    try:
        return Layout.parse(code)
    except LayoutError as error:
        raise BadQuery(f"layout {code!r}: {error}", code) from None


@contextlib.contextmanager
def database_answers(value: str) -> Iterator[None]:
    """A database that cannot answer: 503 while another program holds it (a moment's
    fault), else 404 naming the file and what to do (a damaged or partial database)."""
    from huarong.space.database import DatabaseError, DatabaseInUseError
    from huarong.space.explorer import MissingFromDatabaseError

    try:
        yield
    except DatabaseInUseError as error:
        raise ServerBusy(str(error), value) from None
    except (DatabaseError, MissingFromDatabaseError) as error:
        raise BadQuery(str(error), value, 404) from None


def parse_layout(value: str, name: str) -> Layout:
    """The layout a parameter ``name`` names; :class:`BadQuery` (400) naming it otherwise."""
    try:
        return Layout.parse(value)
    except LayoutError as error:
        raise BadQuery(f"parameter {name!r}: {error}", value) from None


def refuse_large_group(layout: Layout, max_group_size: int) -> None:
    """422 before searching a group larger than ``max_group_size`` layouts."""
    from huarong.engine.solver import group_size

    if group_size(layout, max_group_size) is None:
        raise BadQuery(f"layout {layout.code}: its group holds more than {max_group_size:,} "
                       "layouts, the largest this server searches (huarong serve "
                       "--max-group-size)", layout.code, 422)


def _problem(problem: Any) -> str:
    """One line for one reason FastAPI refused a query; a value not in any layout notation is
    told what :meth:`Layout.parse` finds wrong with it."""
    name = ".".join(str(part) for part in problem.get("loc", ())[1:]) or "request"
    if problem.get("type") == "missing":
        return f"missing query parameter {name!r}"
    given = problem.get("input")
    if problem.get("ctx", {}).get("pattern") == LAYOUT_PATTERN and isinstance(given, str):
        try:
            Layout.parse(given)
        except LayoutError as error:
            return f"parameter {name!r}: {error}"
        return f"parameter {name!r}: not in a notation the API takes. {LAYOUT_DESCRIPTION}"
    return f"parameter {name!r}: {problem.get('msg', 'invalid')}"


def add_error_handlers(app: FastAPI) -> None:
    """Make ``app`` answer :class:`BadQuery`, unknown addresses and unreadable queries with
    the one error body (a query FastAPI cannot read: 400, not its 422)."""

    @app.exception_handler(BadQuery)
    def bad_query(request: Request, error: BadQuery) -> JSONResponse:
        retry = {RETRY_AFTER: str(RETRY_AFTER_SECONDS)} if error.status == 503 else None
        return error_response(str(error), error.value, error.status, retry)

    @app.exception_handler(HTTPException)
    def http_error(request: Request, error: HTTPException) -> JSONResponse:
        message = "no such page" if error.status_code == 404 else str(error.detail)
        return error_response(f"{message}: {request.url.path}", request.url.path,
                              error.status_code,
                              dict(error.headers) if error.headers else None)

    @app.exception_handler(RequestValidationError)
    def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [_problem(problem) for problem in error.errors()]
        given = error.errors()[0].get("input") if error.errors() else None
        return error_response("; ".join(problems), given if isinstance(given, str) else "",
                              400)
