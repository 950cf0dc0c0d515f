"""The HTTP API and the solution viewer: :func:`create_app` builds the FastAPI application.

Every layout parameter takes the notations :meth:`Layout.parse` reads, as the pattern
:data:`~huarong.web.schema.LAYOUT_PATTERN` writes them; the OpenAPI schema (``/openapi.json``)
documents every parameter, answer and error (:mod:`huarong.web.schema`).  ``/solution`` answers
exactly as klotski.online does (docs §7): one member of each mirror pair, the one with the
smaller common code, stores the solution; the other answers ``"mirror": "1"`` with the
solution written for its mirror image.  Every error answers one JSON shape,
``{"error": "<one line>", "input": "<the bad value>"}``: 400 for a bad query, 404 for an
unknown address or a missing database, 422 for a group larger than the server's size limit,
503 (with ``Retry-After``) while every slot for heavy work is taken.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException

from huarong.engine import notation
from huarong.engine.classics import CLASSICS
from huarong.engine.layout import COLS, Layout, LayoutError
from huarong.engine.solver import NotInGroupError, Solution, group_size, shortest_path
from huarong.space.stats import GroupMinSteps, Levels, group_min_steps
from huarong.space.table import MinStepsTable
from huarong.space.table import solve as walk_or_search
from huarong.web import schema
from huarong.web.schema import (
    LAYOUT_DESCRIPTION,
    LAYOUT_EXAMPLES,
    LAYOUT_PATTERN,
    LONGEST_INPUT,
    RETRY_AFTER,
    answers,
    contract,
    error_responses,
)

SOLUTION_CACHE_SIZE = 4096
ANALYSIS_CACHE_SIZE = 4
GROUP_CACHE_SIZE = 8
FARTHEST_SAMPLE_SIZE = 20
HEAVY_SLOTS = 2
"""Requests that may search whole groups at once; more answer 503."""
MAX_GROUP_SIZE = 300_000
"""The largest group the server searches (the largest of all holds 964,656 layouts)."""
RETRY_AFTER_SECONDS = 2
LEVELS_PAGE_SIZE = 20
LEVELS_MAX_PAGE = 200

LayoutQuery = Annotated[str, Query(min_length=1, max_length=LONGEST_INPUT, pattern=LAYOUT_PATTERN,
                                   description=LAYOUT_DESCRIPTION, examples=LAYOUT_EXAMPLES)]


class BadQuery(ValueError):
    """A request that cannot be answered; answered with ``status`` (400: a bad query)."""

    def __init__(self, message: str, value: str, status: int = 400) -> None:
        self.value = value
        self.status = status
        super().__init__(message)


class ServerBusy(BadQuery):
    """Every slot for heavy work is taken: 503 with ``Retry-After``."""

    def __init__(self, message: str, value: str) -> None:
        super().__init__(message, value, 503)


def _error(message: str, value: str, status: int,
           headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "input": value}, status_code=status,
                        headers=headers)


class HeavyWork:
    """A fixed number of slots for work that searches whole groups: a request that finds them
    all taken is answered 503 at once instead of queueing, and a group larger than
    ``max_group_size`` is refused (422) before it is analysed."""

    def __init__(self, slots: int, max_group_size: int) -> None:
        self.slots = slots
        self.max_group_size = max_group_size
        self._free = threading.BoundedSemaphore(slots)

    @contextlib.contextmanager
    def slot(self, layout: Layout, sized: bool = True) -> Iterator[None]:
        """Holds a slot while searching ``layout``'s group; ``sized``: refuse a group over the
        size limit (hints while playing search any group: a player never sees a refusal)."""
        if not self._free.acquire(blocking=False):
            raise ServerBusy(f"the server is busy with {self.slots} group searches: "
                             f"try again in {RETRY_AFTER_SECONDS} s", layout.code)
        try:
            if sized and group_size(layout, self.max_group_size) is None:
                raise BadQuery(f"layout {layout.code}: its group holds more than "
                               f"{self.max_group_size:,} layouts, the largest this server "
                               "searches (huarong serve --max-group-size)", layout.code, 422)
            yield
        finally:
            self._free.release()


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


def _layout(value: str, name: str) -> Layout:
    try:
        return Layout.parse(value)
    except LayoutError as error:
        raise BadQuery(f"parameter {name!r}: {error}", value) from None


def canonical(layout: Layout) -> tuple[Layout, bool]:
    """The member of ``layout``'s mirror pair that stores the solution (the smaller common
    code), and whether that is the mirror image rather than ``layout`` itself."""
    mirrored = layout.mirror()
    return (mirrored, True) if mirrored < layout else (layout, False)


def _move_json(move: notation.Move) -> dict[str, Any]:
    return {"from": move.source, "to": move.target, "kind": move.kind.name.lower()}


def _codes(layouts: Any) -> list[str]:
    return [layout.code for layout in layouts]


class _GroupTables:
    """The minimum steps of every layout of the few groups used last: playing a game asks
    for hints on layout after layout of one group, so each group is searched once."""

    def __init__(self, size: int, heavy: HeavyWork) -> None:
        self._size = size
        self._heavy = heavy
        self._tables: OrderedDict[int, GroupMinSteps] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, layout: Layout) -> GroupMinSteps:
        with self._lock:
            for key, table in self._tables.items():
                if layout in table:
                    self._tables.move_to_end(key)
                    return table
        with self._heavy.slot(layout, sized=False):
            table = group_min_steps(layout)
        with self._lock:
            self._tables[int(table.codes[0])] = table
            while len(self._tables) > self._size:
                self._tables.popitem(last=False)
        return table


class _StepsTable:
    """The table of minimum steps beside the database, opened on first use: None without
    one, or when it is damaged (logged once; the server then searches, as without it)."""

    def __init__(self, database: Path | None) -> None:
        self._database = database
        self._table: MinStepsTable | None = None
        self._opened = False
        self._lock = threading.Lock()

    def get(self) -> MinStepsTable | None:
        if not self._opened:
            with self._lock:
                if not self._opened:
                    self._table = self._open()
                    self._opened = True
        return self._table

    def _open(self) -> MinStepsTable | None:
        from huarong.space.database import default_path
        from huarong.space.table import TableError, open_beside

        try:
            return open_beside(self._database or default_path())
        except TableError as error:
            logging.getLogger(__name__).warning("ignoring the %s", error)
            return None


def _layout_json(layout: Layout) -> dict[str, Any]:
    return {
        "code": layout.code,
        "short_code": layout.short_code,
        "online_id": layout.online_id,
        "grid": layout.grid(""),
        "cells": [int(digit) for digit in layout.online_id],
        "pieces": [
            {"address": piece.address, "kind": piece.kind.name.lower(),
             "row": piece.address // COLS, "col": piece.address % COLS,
             "width": piece.kind.width, "height": piece.kind.height}
            for piece in layout.pieces
        ],
        "jiang": layout.jiang_num,
        "bing": layout.bing_num,
        "style": layout.style_num,
        "is_solved": layout.is_solved,
        "is_standard": layout.is_standard,
        "mirror_code": layout.mirror().code,
    }


def _database_row(layout: Layout, path: Path | None) -> dict[str, Any] | None:
    """The layout's row of the database (``path``, default ``$HUARONG_DB``: its group label,
    minimum steps, layer figures, mirror id; figures not computed yet are null), or None
    without one."""
    from huarong.space.database import Database, DatabaseError

    try:
        with Database.open(path) as database:
            return database.info(layout).to_dict()
    except DatabaseError:
        return None


def _path_json(path: tuple[Layout, ...]) -> dict[str, Any]:
    return {
        "path": _codes(path),
        "moves": [_move_json(move) for move in notation.moves(path)],
    }


def _static_directory() -> str:
    return str(resources.files("huarong.web") / "static")


class _LevelList:
    """The level picker's list, read from the database once, on first use."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._levels: Levels | None = None
        self._lock = threading.Lock()

    def get(self) -> Levels:
        from huarong.space.database import Database, DatabaseError
        from huarong.space.stats import STANDARD_BING, STANDARD_JIANG, standard_levels

        with self._lock:
            if self._levels is None:
                try:
                    with Database.open(self._path) as database:
                        rows = database.query(
                            "SELECT code, coalesce(min_steps, -1) FROM layouts "
                            f"WHERE jiang = {STANDARD_JIANG} AND bing = {STANDARD_BING}").rows
                except DatabaseError as error:
                    raise BadQuery(str(error), "", 404) from None
                codes = [row[0] for row in rows]
                self._levels = standard_levels(codes, [row[1] for row in rows])
            return self._levels


SOLUTION_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "With t=json the solution (JSON); otherwise, once the redirect is "
                         "followed, the viewer page (HTML).",
          "model": schema.OnlineSolution,
          "content": {"text/html": {"schema": {"type": "string"}}}},
    307: {"description": "Without t=json: to the viewer showing the layout.",
          "headers": {"Location": {"description": "The viewer's address for the layout.",
                                   "required": True, "schema": {"type": "string"}}}},
}


def create_app(database: str | os.PathLike[str] | None = None, heavy_slots: int = HEAVY_SLOTS,
               max_group_size: int = MAX_GROUP_SIZE) -> FastAPI:
    """The application: the JSON API, klotski.online's ``/solution`` and the viewer page.

    ``database``: where the level picker's database is (default ``$HUARONG_DB`` or the
    standard place); ``heavy_slots`` requests may search groups of at most
    ``max_group_size`` layouts at once."""
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
    database_path = Path(database) if database is not None else None
    level_list = _LevelList(database_path)
    steps_table = _StepsTable(database_path)

    @functools.lru_cache(SOLUTION_CACHE_SIZE)
    def solved(code: int) -> Solution:
        return walk_or_search(Layout(code), steps_table.get())

    @functools.lru_cache(SOLUTION_CACHE_SIZE)
    def solution_string(code: int) -> str:
        return notation.encode_path(solved(code).path)

    @functools.lru_cache(SOLUTION_CACHE_SIZE)
    def solve_json(code: int) -> dict[str, Any]:
        solution = solved(code)
        return {"code": solution.start.code, "solvable": solution.solvable,
                "steps": solution.steps, **_path_json(solution.path),
                "solution": solution_string(code)}

    @functools.lru_cache(ANALYSIS_CACHE_SIZE)
    def analysis_json(code: int) -> dict[str, Any]:
        from huarong.engine.analysis import analyze

        with heavy.slot(Layout(code)):
            analysis = analyze(Layout(code))
        farthest = analysis.farthest_layouts
        return {
            "code": analysis.start.code,
            "group_size": analysis.size,
            "min_steps": analysis.min_steps,
            "farthest_steps": analysis.farthest_steps,
            "farthest_count": len(farthest),
            "farthest_sample": _codes(farthest[:FARTHEST_SAMPLE_SIZE]),
            "layer_sizes": analysis.layer_sizes,
            "solution_count": len(analysis.solutions),
            "min_step_solutions": _codes(analysis.min_step_solutions),
        }

    groups = _GroupTables(GROUP_CACHE_SIZE, heavy)

    def distances(layout: Layout) -> Callable[[Layout], int | None]:
        """The minimum steps of the layouts of ``layout``'s group: from the table when it
        holds them, else from a search of the whole group (a few groups are kept)."""
        table = steps_table.get()
        if table is not None and table.holds(layout):
            return table.min_steps
        return groups.of(layout).of

    @functools.lru_cache(1)
    def classics_json() -> list[dict[str, Any]]:
        return [{"name": classic.name, "name_en": classic.name_en,
                 "code": classic.layout.code, "grid": classic.grid,
                 "min_steps": solved(int(classic.layout)).steps}
                for classic in CLASSICS]

    @app.exception_handler(BadQuery)
    def bad_query(request: Request, error: BadQuery) -> JSONResponse:
        retry = {RETRY_AFTER: str(RETRY_AFTER_SECONDS)} if error.status == 503 else None
        return _error(str(error), error.value, error.status, retry)

    @app.exception_handler(HTTPException)
    def http_error(request: Request, error: HTTPException) -> JSONResponse:
        message = "no such page" if error.status_code == 404 else str(error.detail)
        return _error(f"{message}: {request.url.path}", request.url.path, error.status_code,
                      dict(error.headers) if error.headers else None)

    @app.exception_handler(RequestValidationError)
    def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [_problem(problem) for problem in error.errors()]
        given = error.errors()[0].get("input") if error.errors() else None
        return _error("; ".join(problems), given if isinstance(given, str) else "", 400)

    @app.get("/solution", summary="klotski.online's solution API", response_model=None,
             responses={**SOLUTION_RESPONSES, **error_responses(400)})
    def online_solution(
        q: LayoutQuery,
        t: Annotated[str | None, Query(description="json: answer JSON; otherwise the viewer "
                                                   "page")] = None,
    ) -> Any:
        """With ``t=json``: ``{"id", "mirror", "solution"}`` exactly as klotski.online answers;
        otherwise a redirect to the viewer (an HTML page), as klotski.online sends people to
        its page."""
        layout = _layout(q, "q")
        if t != "json":
            return RedirectResponse(f"/#{layout.code}")
        stored, mirrored = canonical(layout)
        return {"id": layout.online_id, "mirror": "1" if mirrored else "0",
                "solution": solution_string(int(stored))}

    @app.get("/api/layout", summary="Everything about one layout", response_model=None,
             responses=answers(schema.LayoutAnswer, 400))
    def layout_info(code: LayoutQuery) -> dict[str, Any]:
        layout = _layout(code, "code")
        return {**_layout_json(layout), "database": _database_row(layout, database_path)}

    @app.get("/api/solve", summary="A minimum-step solution", response_model=None,
             responses=answers(schema.SolveAnswer, 400))
    def solve_layout(code: LayoutQuery) -> dict[str, Any]:
        return solve_json(int(_layout(code, "code")))

    @app.get("/api/analysis", summary="The layer model of a layout's group", response_model=None,
             responses=answers(schema.Analysis, 400, 422, 503))
    def analysis(code: LayoutQuery) -> dict[str, Any]:
        return analysis_json(int(_layout(code, "code")))

    @app.get("/api/path", summary="A shortest path between two layouts", response_model=None,
             responses=answers(schema.PathBetween, 400, 422, 503, e400=(
                 "A bad query: a parameter is missing, malformed or names no legal layout, or "
                 "the target is not in the start's group.")))
    def path(start: LayoutQuery, target: LayoutQuery) -> dict[str, Any]:
        source, destination = _layout(start, "start"), _layout(target, "target")
        with heavy.slot(source):
            try:
                layouts = shortest_path(source, destination)
            except NotInGroupError as error:
                raise BadQuery(f"parameter 'target': {error}", target) from None
        return {"start": source.code, "target": destination.code, "steps": len(layouts) - 1,
                **_path_json(layouts)}

    @app.get("/api/next", summary="Which steps bring a layout closer to a goal",
             response_model=None, responses=answers(schema.NextSteps, 400, 503))
    def next_steps(code: LayoutQuery) -> dict[str, Any]:
        layout = _layout(code, "code")
        steps_of = distances(layout)
        here = steps_of(layout)
        children = []
        for child in layout.children():
            children.append({"code": child.code, "short_code": child.short_code,
                             "min_steps": steps_of(child),
                             "move": _move_json(notation.step_move(layout, child))})
        best = [child["code"] for child in children
                if here is not None and child["min_steps"] == here - 1]
        return {"code": layout.code, "short_code": layout.short_code, "min_steps": here,
                "children": children, "best": best}

    @app.get("/api/classics", summary="The named classic layouts", response_model=None,
             responses=answers(list[schema.Classic]))
    def classics() -> list[dict[str, Any]]:
        return classics_json()

    @app.get("/api/levels", summary="The 121,285 game layouts by minimum steps (database)",
             response_model=None,
             responses=answers(schema.LevelsPage, 400, 404, e404="No database is built."))
    def levels(
        offset: Annotated[int, Query(ge=0)] = 0,
        limit: Annotated[int, Query(ge=1, le=LEVELS_MAX_PAGE)] = LEVELS_PAGE_SIZE,
        min_steps: Annotated[int | None, Query(ge=0)] = None,
    ) -> dict[str, Any]:
        """A page of the standard layouts worth playing: solvable, not solved, one of each
        mirror pair, ordered by minimum steps then code.  ``min_steps`` starts the page at the
        first level with at least that many.  404 when no database is built."""
        table = level_list.get()
        first = table.first_with(min_steps) if min_steps is not None else offset
        page = slice(first, first + limit)
        return {"total": len(table), "offset": first, "limit": limit,
                "levels": [{"code": f"{code:09X}", "min_steps": steps} for code, steps in zip(
                    table.codes[page].tolist(), table.min_steps[page].tolist(), strict=True)]}

    @app.get("/", include_in_schema=False)
    def viewer() -> FileResponse:
        return FileResponse(f"{_static_directory()}/index.html")

    from huarong.web.explore_api import explore_router

    app.include_router(explore_router(database_path))
    from huarong.web.puzzles_api import puzzles_router

    app.include_router(puzzles_router(max_group_size, heavy_slots))

    @app.get("/explore", include_in_schema=False)
    def explore() -> FileResponse:
        return FileResponse(f"{_static_directory()}/explore.html")

    app.mount("/static", StaticFiles(directory=_static_directory()), name="static")
    contract(app)
    return app
