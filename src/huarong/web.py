"""The HTTP API and the solution viewer: :func:`create_app` builds the FastAPI application.

Every layout parameter takes any notation :meth:`Layout.parse` reads.  ``/solution`` answers
exactly as klotski.online does (docs §7): one member of each mirror pair, the one with the
smaller common code, stores the solution; the other answers ``"mirror": "1"`` with the
solution written for its mirror image.  Bad queries answer 400 with
``{"error": "<one line>", "input": "<the bad value>"}``.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from huarong import notation
from huarong.classics import CLASSICS
from huarong.layout import COLS, Layout, LayoutError
from huarong.solver import NotInGroupError, Solution, shortest_path, solve
from huarong.stats import GroupMinSteps, group_min_steps

SOLUTION_CACHE_SIZE = 4096
ANALYSIS_CACHE_SIZE = 4
GROUP_CACHE_SIZE = 8
FARTHEST_SAMPLE_SIZE = 20
_LONGEST_INPUT = 200

LayoutQuery = Annotated[str, Query(max_length=_LONGEST_INPUT)]


class BadQuery(ValueError):
    """A query parameter that is not acceptable; answered with status 400."""

    def __init__(self, message: str, value: str) -> None:
        self.value = value
        super().__init__(message)


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

    def __init__(self, size: int) -> None:
        self._size = size
        self._tables: OrderedDict[int, GroupMinSteps] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, layout: Layout) -> GroupMinSteps:
        with self._lock:
            for key, table in self._tables.items():
                if layout in table:
                    self._tables.move_to_end(key)
                    return table
        table = group_min_steps(layout)
        with self._lock:
            self._tables[int(table.codes[0])] = table
            while len(self._tables) > self._size:
                self._tables.popitem(last=False)
        return table


def _layout_json(layout: Layout) -> dict[str, Any]:
    return {
        "code": layout.code,
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


def _database_row(layout: Layout) -> dict[str, Any] | None:
    """The layout's row of the database (``$HUARONG_DB``: its group label, minimum steps,
    layer figures, mirror id; figures not computed yet are null), or None without one."""
    from huarong.database import Database, DatabaseError

    try:
        with Database.open() as database:
            return database.info(layout).to_dict()
    except DatabaseError:
        return None


def _path_json(path: tuple[Layout, ...]) -> dict[str, Any]:
    return {
        "path": _codes(path),
        "moves": [_move_json(move) for move in notation.moves(path)],
    }


def _static_directory() -> str:
    return str(resources.files("huarong") / "static")


def create_app() -> FastAPI:
    """The application: the JSON API, klotski.online's ``/solution`` and the viewer page."""
    app = FastAPI(
        title="huarong",
        summary="Klotski (华容道): optimal solutions, analysis, klotski.online's API.",
    )

    @functools.lru_cache(SOLUTION_CACHE_SIZE)
    def solved(code: int) -> Solution:
        return solve(Layout(code))

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
        from huarong.analysis import analyze

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

    groups = _GroupTables(GROUP_CACHE_SIZE)

    @functools.lru_cache(1)
    def classics_json() -> list[dict[str, Any]]:
        return [{"name": classic.name, "name_en": classic.name_en,
                 "code": classic.layout.code, "grid": classic.grid,
                 "min_steps": solved(int(classic.layout)).steps}
                for classic in CLASSICS]

    @app.exception_handler(BadQuery)
    def bad_query(request: Request, error: BadQuery) -> JSONResponse:
        return JSONResponse({"error": str(error), "input": error.value}, status_code=400)

    @app.exception_handler(RequestValidationError)
    def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for problem in error.errors():
            name = ".".join(str(part) for part in problem.get("loc", ())[1:]) or "request"
            if problem.get("type") == "missing":
                problems.append(f"missing query parameter {name!r}")
            else:
                problems.append(f"parameter {name!r}: {problem.get('msg', 'invalid')}")
        given = error.errors()[0].get("input") if error.errors() else None
        return JSONResponse({"error": "; ".join(problems),
                             "input": given if isinstance(given, str) else ""},
                            status_code=400)

    @app.get("/solution", summary="klotski.online's solution API")
    def online_solution(q: LayoutQuery, t: str | None = None) -> Any:
        """With ``t=json``: ``{"id", "mirror", "solution"}`` exactly as klotski.online answers;
        otherwise a redirect to the viewer, as klotski.online sends people to its page."""
        layout = _layout(q, "q")
        if t != "json":
            return RedirectResponse(f"/#{layout.code}")
        stored, mirrored = canonical(layout)
        return {"id": layout.online_id, "mirror": "1" if mirrored else "0",
                "solution": solution_string(int(stored))}

    @app.get("/api/layout", summary="Everything about one layout")
    def layout_info(code: LayoutQuery) -> dict[str, Any]:
        layout = _layout(code, "code")
        return {**_layout_json(layout), "database": _database_row(layout)}

    @app.get("/api/solve", summary="A minimum-step solution")
    def solve_layout(code: LayoutQuery) -> dict[str, Any]:
        return solve_json(int(_layout(code, "code")))

    @app.get("/api/analysis", summary="The layer model of a layout's group")
    def analysis(code: LayoutQuery) -> dict[str, Any]:
        return analysis_json(int(_layout(code, "code")))

    @app.get("/api/path", summary="A shortest path between two layouts")
    def path(
        start: Annotated[str, Query(alias="from", max_length=_LONGEST_INPUT)],
        target: Annotated[str, Query(alias="to", max_length=_LONGEST_INPUT)],
    ) -> dict[str, Any]:
        source, destination = _layout(start, "from"), _layout(target, "to")
        try:
            layouts = shortest_path(source, destination)
        except NotInGroupError as error:
            raise BadQuery(f"parameter 'to': {error}", target) from None
        return {"from": source.code, "to": destination.code, "steps": len(layouts) - 1,
                **_path_json(layouts)}

    @app.get("/api/next", summary="Which steps bring a layout closer to a goal")
    def next_steps(code: LayoutQuery) -> dict[str, Any]:
        layout = _layout(code, "code")
        table = groups.of(layout)
        here = table.of(layout)
        children = []
        for child in layout.children():
            children.append({"code": child.code, "min_steps": table.of(child),
                             "move": _move_json(notation.step_move(layout, child))})
        best = [child["code"] for child in children
                if here is not None and child["min_steps"] == here - 1]
        return {"code": layout.code, "min_steps": here, "children": children, "best": best}

    @app.get("/api/classics", summary="The named classic layouts")
    def classics() -> list[dict[str, Any]]:
        return classics_json()

    @app.get("/", include_in_schema=False)
    def viewer() -> FileResponse:
        return FileResponse(f"{_static_directory()}/index.html")

    app.mount("/static", StaticFiles(directory=_static_directory()), name="static")
    return app
