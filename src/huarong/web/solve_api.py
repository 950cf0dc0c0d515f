"""Solving under ``/api`` and klotski.online's ``/solution``: a minimum-step solution, a
shortest path between two layouts, every next step judged, the layer model of a group and
the named classic layouts."""

from __future__ import annotations

import asyncio
import functools
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from huarong.engine import notation
from huarong.engine.classics import CLASSICS
from huarong.engine.layout import Layout
from huarong.engine.solver import NotInGroupError, shortest_path
from huarong.graph.verdicts import verdict
from huarong.web import schema
from huarong.web.errors import BadQuery, parse_layout, refuse_large_group
from huarong.web.heavy import HeavyAnswers
from huarong.web.schema import LayoutQuery, answers, error_responses
from huarong.web.state import SOLUTION_CACHE_SIZE, ServerState

if TYPE_CHECKING:
    from huarong.space.stats import GroupMinSteps

FARTHEST_SAMPLE_SIZE = 20
_Answer = TypeVar("_Answer")
GROUP_TABLES_KEPT = 8
"""Groups whose minimum steps a worker keeps: a game asks for hints on layout after layout of
one group, so each group is searched once."""

SOLUTION_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "With t=json the solution (JSON); otherwise, once the redirect is "
                         "followed, the viewer page (HTML).",
          "model": schema.OnlineSolution,
          "content": {"text/html": {"schema": {"type": "string"}}}},
    307: {"description": "Without t=json: to the viewer showing the layout.",
          "headers": {"Location": {"description": "The viewer's address for the layout.",
                                   "required": True, "schema": {"type": "string"}}}},
}


def canonical(layout: Layout) -> tuple[Layout, bool]:
    """The member of ``layout``'s mirror pair that stores the solution (the smaller common
    code), and whether that is the mirror image rather than ``layout`` itself."""
    mirrored = layout.mirror()
    return (mirrored, True) if mirrored < layout else (layout, False)


def _move_json(move: notation.Move) -> dict[str, Any]:
    return {"from": move.source, "to": move.target, "kind": move.kind.name.lower()}


def _codes(layouts: Any) -> list[str]:
    return [layout.code for layout in layouts]


def _path_json(path: tuple[Layout, ...]) -> dict[str, Any]:
    return {"path": _codes(path),
            "moves": [_move_json(move) for move in notation.moves(path)]}


# ----- the jobs, run in the server's worker processes (huarong.web.heavy) -----------------

def _analysis_job(code: int, max_group_size: int) -> bytes:
    from huarong.engine.analysis import analyze
    from huarong.web.heavy import json_bytes

    refuse_large_group(Layout(code), max_group_size)
    analysis = analyze(Layout(code))
    farthest = analysis.farthest_layouts
    return json_bytes({
        "code": analysis.start.code,
        "group_size": analysis.size,
        "min_steps": analysis.min_steps,
        "farthest_steps": analysis.farthest_steps,
        "farthest_count": len(farthest),
        "farthest_sample": _codes(farthest[:FARTHEST_SAMPLE_SIZE]),
        "layer_sizes": analysis.layer_sizes,
        "solution_count": len(analysis.solutions),
        "min_step_solutions": _codes(analysis.min_step_solutions),
    })


def _path_job(start: int, target: int, max_group_size: int, target_text: str
              ) -> dict[str, Any]:
    source, destination = Layout(start), Layout(target)
    refuse_large_group(source, max_group_size)
    try:
        layouts = shortest_path(source, destination)
    except NotInGroupError as error:
        raise BadQuery(f"parameter 'target': {error}", target_text) from None
    return {"start": source.code, "target": destination.code, "steps": len(layouts) - 1,
            **_path_json(layouts)}


_group_tables: OrderedDict[int, GroupMinSteps] = OrderedDict()
"""The minimum steps of the groups a worker used last, by their smallest code."""


def _next_job(code: int) -> dict[str, Any]:
    """The next steps judged from a search of the layout's whole group (a worker keeps the
    groups it used last)."""
    from huarong.space.stats import group_min_steps

    layout = Layout(code)
    key = next((key for key, known in _group_tables.items() if layout in known), None)
    if key is None:
        table = group_min_steps(layout)
        key = int(table.codes[0])
        _group_tables[key] = table
        while len(_group_tables) > GROUP_TABLES_KEPT:
            _group_tables.popitem(last=False)
    _group_tables.move_to_end(key)
    return _next_json(layout, _group_tables[key].of)


def _next_json(layout: Layout, steps_of: Callable[[Layout], int | None]) -> dict[str, Any]:
    here = steps_of(layout)
    children = []
    for child, move in notation.child_moves(layout):
        after = steps_of(child)
        children.append({"code": child.code, "short_code": child.short_code,
                         "min_steps": after, "verdict": verdict(here, after),
                         "move": _move_json(move)})
    best = [child["code"] for child in children if child["verdict"] == "better"]
    return {"code": layout.code, "short_code": layout.short_code, "min_steps": here,
            "children": children, "best": best}


def solve_router(state: ServerState, heavy: HeavyAnswers, max_group_size: int) -> APIRouter:
    """The solving routes of a server sharing ``state``, searching groups of at most
    ``max_group_size`` layouts in ``heavy``'s workers.  The answers asked on every move
    are returned as responses: FastAPI then skips ``jsonable_encoder``, which took longer to
    walk an answer that is JSON already (0.15 ms a layout's) than the answer took to make."""
    router = APIRouter()

    @functools.lru_cache(SOLUTION_CACHE_SIZE)
    def solution_string(code: int) -> str:
        return notation.encode_path(state.solved(code).path)

    @functools.lru_cache(SOLUTION_CACHE_SIZE)
    def solve_json(code: int) -> dict[str, Any]:
        solution = state.solved(code)
        return {"code": solution.start.code, "solvable": solution.solvable,
                "steps": solution.steps, **_path_json(solution.path),
                "solution": solution_string(code)}

    async def walked(answer: Callable[[int], _Answer], layout: Layout) -> _Answer:
        """``answer`` of the layout on the event loop when the table walks its solution (a
        tenth of a millisecond: a thread would cost more), else in a thread (a search)."""
        table = state.steps_table.get()
        if table is not None and table.holds(layout):
            return answer(int(layout))
        return await asyncio.to_thread(answer, int(layout))

    @functools.lru_cache(1)
    def classics_json() -> list[dict[str, Any]]:
        return [{"name": classic.name, "name_en": classic.name_en,
                 "code": classic.layout.code, "grid": classic.grid,
                 "min_steps": state.solved(int(classic.layout)).steps}
                for classic in CLASSICS]

    @router.get("/solution", summary="klotski.online's solution API", response_model=None,
                responses={**SOLUTION_RESPONSES, **error_responses(400)})
    async def online_solution(
        q: LayoutQuery,
        t: Annotated[str | None, Query(description="json: answer JSON; otherwise the viewer "
                                                   "page")] = None,
    ) -> Any:
        """With ``t=json``: ``{"id", "mirror", "solution"}`` exactly as klotski.online answers;
        otherwise a redirect to the viewer (an HTML page), as klotski.online sends people to
        its page."""
        layout = parse_layout(q, "q")
        if t != "json":
            return RedirectResponse(f"/#{layout.code}")
        stored, mirrored = canonical(layout)
        return JSONResponse({"id": layout.online_id, "mirror": "1" if mirrored else "0",
                             "solution": await walked(solution_string, stored)})

    @router.get("/api/solve", summary="A minimum-step solution", response_model=None,
                responses=answers(schema.SolveAnswer, 400))
    async def solve_layout(code: LayoutQuery) -> JSONResponse:
        return JSONResponse(await walked(solve_json, parse_layout(code, "code")))

    @router.get("/api/analysis", summary="The layer model of a layout's group",
                response_model=None,
                responses=answers(schema.Analysis, 202, 400, 422, 503))
    async def analysis(request: Request, code: LayoutQuery) -> Response:
        """The layer model of the layout's group, kept in the answer cache (by the layout
        and the largest group the server searches, which refuses the others)."""
        layout = int(parse_layout(code, "code"))
        return await heavy.cached(request, ("analysis", layout, max_group_size),
                                  _analysis_job, layout, max_group_size,
                                  media_type="application/json")

    @router.get("/api/path", summary="A shortest path between two layouts",
                response_model=None,
                responses=answers(schema.PathBetween, 202, 400, 422, 503, e400=(
                    "A bad query: a parameter is missing, malformed or names no legal layout, "
                    "or the target is not in the start's group.")))
    async def path(request: Request, start: LayoutQuery, target: LayoutQuery
                   ) -> dict[str, Any]:
        source = int(parse_layout(start, "start"))
        destination = int(parse_layout(target, "target"))
        found: dict[str, Any] = await heavy.run(
            request, ("path", source, destination, max_group_size), _path_job, source,
            destination, max_group_size, target)
        return found

    @router.get("/api/next", summary="Every step from a layout, judged", response_model=None,
                responses=answers(schema.NextSteps, 202, 400, 503))
    async def next_steps(request: Request, code: LayoutQuery) -> JSONResponse:
        """Every step from the layout with the minimum steps left after it and its verdict:
        ``better`` one step closer to a goal, ``same``, ``worse`` one step farther; null in a
        group without a goal.  From the table of minimum steps when it holds the group, else
        from a search of the group in a worker."""
        layout = parse_layout(code, "code")
        steps_of = state.table_min_steps(layout)
        if steps_of is not None:
            return JSONResponse(_next_json(layout, steps_of))
        return JSONResponse(await heavy.run(request, ("next", int(layout)), _next_job,
                                            int(layout)))

    @router.get("/api/classics", summary="The named classic layouts", response_model=None,
                responses=answers(list[schema.Classic]))
    def classics() -> list[dict[str, Any]]:
        return classics_json()

    return router
