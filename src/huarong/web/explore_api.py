"""The explorer's data under ``/api``: the 203 classes, a class's groups (paged), any group's
placed graph (compact binary or JSON) with its figures and summary, and the records of the
space.  Errors answer the app's JSON shape ``{"error", "input"}``: 400 for a malformed class,
code or page, 404 for a class that does not exist, a page past the last or a database that
cannot answer, 413 for JSON of a group too big for it, 503 while another program holds the
database."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParameter
from fastapi.responses import Response

from huarong.engine.layout import Layout
from huarong.space.explorer import (
    CLASS_PATTERN,
    ClassKey,
    Explorer,
    PageError,
    UnknownClassError,
    parse_class,
)
from huarong.web import explorer_jobs
from huarong.web.errors import BadQuery, database_answers, path_layout
from huarong.web.explorer_jobs import worker_explorer
from huarong.web.heavy import HeavyAnswers, database_stamp, json_bytes
from huarong.web.schema import GroupCode, error_responses

MAX_PER_PAGE = 1000



ClassName = Annotated[str, PathParameter(pattern=CLASS_PATTERN, max_length=8,
                                         description="jiang-bing-style, e.g. 5-4-1")]


def _class(name: str) -> ClassKey:
    try:
        return parse_class(name)
    except UnknownClassError as error:
        raise BadQuery(str(error), name, 404) from None
    except ValueError as error:
        raise BadQuery(str(error), name) from None


_DATABASE_FAULTS = {"e404": "The database cannot answer (damaged, partial, or not built "
                            "the way this server expects).",
                    "e503": "Another program holds the database; try again."}


def _summary_job(database: Path, placements: Path, code: int) -> dict[str, Any]:
    with database_answers(f"{code:09X}"):
        return worker_explorer(database, placements).summary(Layout(code))


def _graph_job(database: Path, placements: Path, code: int, json_limit: int | None
               ) -> bytes:
    """The binary graph, or JSON up to ``json_limit`` nodes."""
    with database_answers(f"{code:09X}"):
        chosen = worker_explorer(database, placements).view(Layout(code))
    if json_limit is not None:
        if chosen.graph.size > json_limit:
            raise BadQuery(f"the group of {code:09X} holds {chosen.graph.size:,} layouts: "
                           f"JSON is answered up to {json_limit:,}, ask for "
                           "format=binary", f"{code:09X}", 413)
        return json_bytes(chosen.to_json())
    return chosen.to_binary()


def _catalog_job(database: Path, placements: Path, question: str, value: str, *args: Any
                 ) -> dict[str, Any]:
    """The catalogue's answer to ``question`` (classes, class_summary, groups, records):
    from the database, or without one from the enumeration of every layout (seconds, and
    arrays over all of them, kept by the worker)."""
    catalog = worker_explorer(database, placements).catalog
    try:
        with database_answers(value):
            answer: dict[str, Any] = getattr(catalog, question)(*args)
            return answer
    except PageError as error:
        raise BadQuery(str(error), value, 404) from None


def explore_router(explorer: Explorer, heavy: HeavyAnswers) -> APIRouter:
    """The router, reading ``explorer``'s database and placement cache; group-sized work in
    ``heavy``'s workers."""
    router = APIRouter(prefix="/api", tags=["explore"])
    place = (explorer.catalog.path, explorer.cache.directory)

    def key(*parts: Any) -> tuple[Any, ...]:
        return (*parts, database_stamp(explorer.catalog.path), str(explorer.cache.directory))

    async def ask_catalog(request: Request, question: str, value: str, *args: Any
                          ) -> dict[str, Any]:
        answer: dict[str, Any] = await heavy.run(request, key("catalog", question, *args),
                                                 _catalog_job, *place, question, value, *args)
        return answer

    @router.get("/classes", summary="The 203 jiang-bing-style classes",
                responses=error_responses(202, 404, 503, **_DATABASE_FAULTS))
    async def classes(request: Request) -> dict[str, Any]:
        """Layouts, groups, solvable layouts, longest minimum and longest farthest steps of
        every class; figures unknown without a database (``database``: false) or not yet
        computed are null, and ``figures_missing`` names the classes whose farthest steps
        ``fill_command`` still has to compute."""
        return await ask_catalog(request, "classes", "")

    @router.get("/classes/{name}", summary="One class and its minimum-steps histogram",
                responses=error_responses(202, 400, 404, 503, e400="A malformed class name.",
                                          e404="No such class, or a database that cannot "
                                               "answer.", e503=_DATABASE_FAULTS["e503"]))
    async def class_summary(request: Request, name: ClassName) -> dict[str, Any]:
        """The class's counts and ``min_steps_histogram``: [steps, layouts] pairs, steps -1
        for the layouts that have no solution."""
        return await ask_catalog(request, "class_summary", name, _class(name))

    @router.get("/classes/{name}/groups", summary="A page of a class's groups, largest first",
                responses=error_responses(
                    202, 400, 404, 503, e400="A malformed class name or page.",
                    e404="No such class, a page past the last, or a database that cannot "
                         "answer.", e503=_DATABASE_FAULTS["e503"]))
    async def class_groups(
        request: Request,
        name: ClassName,
        page: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
        per_page: Annotated[int, Query(ge=1, le=MAX_PER_PAGE)] = 100,
    ) -> dict[str, Any]:
        """Groups by size descending, then ``group_num``: each with its size, seed (smallest
        code), and smallest and largest minimum steps (null without a database or a goal)."""
        return await ask_catalog(request, "groups", name, _class(name), page, per_page)

    @router.get("/groups/{code}", summary="A group's summary, seen from one of its layouts",
                responses=error_responses(202, 400, 404, 503, e400="Not a legal layout.",
                                          e404=_DATABASE_FAULTS["e404"]))
    async def group_summary(request: Request, code: GroupCode) -> dict[str, Any]:
        """Class, ``group_num``, size, steps, seed, the layout's node (``start_index``) and
        ``shortest_path``: the nodes of a minimum-step path from it to a goal (empty
        without one)."""
        layout = int(path_layout(code))
        summary: dict[str, Any] = await heavy.run(request, key("summary", layout),
                                                  _summary_job, *place, layout)
        return summary

    @router.get("/groups/{code}/graph", summary="A group's placed graph and figures",
                responses={200: {"content": {"application/octet-stream": {}}},
                           **error_responses(202, 400, 404, 413, 503,
                                             e400="Not a legal layout.",
                                             e404=_DATABASE_FAULTS["e404"],
                                             e413="JSON asked for a group of over "
                                                  f"{explorer_jobs.JSON_GRAPH_LIMIT:,} "
                                                  "layouts.")})
    async def group_graph(request: Request, code: GroupCode,
                          format: Literal["binary", "json"] = "binary") -> Response:
        """Every layout a node (in code order), placed in [0, 1]²; every step once.  Binary
        (little-endian): ``HRG1``, uint32 nodes, edges, start node, flags (bit 0: farthest
        steps present); float32 positions; uint32 edge pairs; uint32 codes as (low 32, high
        4 bits); int16 minimum steps (-1 none), farthest steps (-1 unknown), distance from
        the layout; each section padded to 4 bytes."""
        layout = int(path_layout(code))
        limit = explorer_jobs.JSON_GRAPH_LIMIT if format == "json" else None
        return await heavy.cached(
            request, key("graph", layout, limit), _graph_job, *place, layout, limit,
            media_type="application/json" if format == "json" else "application/octet-stream")

    @router.get("/records", summary="Records of the space (database)",
                responses=error_responses(202, 404, 503, **_DATABASE_FAULTS))
    async def records(request: Request) -> dict[str, Any]:
        """The 138-step layouts, the longest farthest steps, the most solutions, the
        largest groups and each class's longest minimum, by queries on the database; without
        one ``database`` is false, ``records`` empty and ``message`` names the command that
        builds it."""
        return await ask_catalog(request, "records", "")

    return router
