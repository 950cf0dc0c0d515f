"""Solving under ``/api`` and klotski.online's ``/solution``: a minimum-step solution, a
shortest path between two layouts, every next step judged, the layer model of a group and
the named classic layouts."""

from __future__ import annotations

import functools
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, RedirectResponse

from huarong.engine import notation
from huarong.engine.classics import CLASSICS
from huarong.engine.layout import Layout
from huarong.engine.solver import NotInGroupError, shortest_path
from huarong.graph.verdicts import verdict
from huarong.web import schema
from huarong.web.errors import BadQuery, parse_layout
from huarong.web.schema import LayoutQuery, answers, error_responses
from huarong.web.state import SOLUTION_CACHE_SIZE, ServerState

ANALYSIS_CACHE_SIZE = 4
FARTHEST_SAMPLE_SIZE = 20

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


def solve_router(state: ServerState) -> APIRouter:
    """The solving routes of a server sharing ``state``.  The answers asked on every move
    are returned as responses: FastAPI then skips ``jsonable_encoder``, which took longer to
    walk an answer that is JSON already (0.15 ms a layout's) than the answer took to make."""
    router = APIRouter()
    heavy = state.heavy

    @functools.lru_cache(SOLUTION_CACHE_SIZE)
    def solution_string(code: int) -> str:
        return notation.encode_path(state.solved(code).path)

    @functools.lru_cache(SOLUTION_CACHE_SIZE)
    def solve_json(code: int) -> dict[str, Any]:
        solution = state.solved(code)
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

    @functools.lru_cache(1)
    def classics_json() -> list[dict[str, Any]]:
        return [{"name": classic.name, "name_en": classic.name_en,
                 "code": classic.layout.code, "grid": classic.grid,
                 "min_steps": state.solved(int(classic.layout)).steps}
                for classic in CLASSICS]

    @router.get("/solution", summary="klotski.online's solution API", response_model=None,
                responses={**SOLUTION_RESPONSES, **error_responses(400)})
    def online_solution(
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
                             "solution": solution_string(int(stored))})

    @router.get("/api/solve", summary="A minimum-step solution", response_model=None,
                responses=answers(schema.SolveAnswer, 400))
    def solve_layout(code: LayoutQuery) -> JSONResponse:
        return JSONResponse(solve_json(int(parse_layout(code, "code"))))

    @router.get("/api/analysis", summary="The layer model of a layout's group",
                response_model=None, responses=answers(schema.Analysis, 400, 422, 503))
    def analysis(code: LayoutQuery) -> dict[str, Any]:
        return analysis_json(int(parse_layout(code, "code")))

    @router.get("/api/path", summary="A shortest path between two layouts",
                response_model=None, responses=answers(schema.PathBetween, 400, 422, 503, e400=(
                    "A bad query: a parameter is missing, malformed or names no legal layout, "
                    "or the target is not in the start's group.")))
    def path(start: LayoutQuery, target: LayoutQuery) -> dict[str, Any]:
        source, destination = parse_layout(start, "start"), parse_layout(target, "target")
        with heavy.slot(source):
            try:
                layouts = shortest_path(source, destination)
            except NotInGroupError as error:
                raise BadQuery(f"parameter 'target': {error}", target) from None
        return {"start": source.code, "target": destination.code, "steps": len(layouts) - 1,
                **_path_json(layouts)}

    @router.get("/api/next", summary="Every step from a layout, judged", response_model=None,
                responses=answers(schema.NextSteps, 400, 503))
    def next_steps(code: LayoutQuery) -> JSONResponse:
        """Every step from the layout with the minimum steps left after it and its verdict:
        ``better`` one step closer to a goal, ``same``, ``worse`` one step farther; null in a
        group without a goal."""
        layout = parse_layout(code, "code")
        steps_of = state.min_steps_of(layout)
        here = steps_of(layout)
        children = []
        for child in layout.children():
            after = steps_of(child)
            children.append({"code": child.code, "short_code": child.short_code,
                             "min_steps": after, "verdict": verdict(here, after),
                             "move": _move_json(notation.step_move(layout, child))})
        best = [child["code"] for child in children if child["verdict"] == "better"]
        return JSONResponse({"code": layout.code, "short_code": layout.short_code,
                             "min_steps": here, "children": children, "best": best})

    @router.get("/api/classics", summary="The named classic layouts", response_model=None,
                responses=answers(list[schema.Classic]))
    def classics() -> list[dict[str, Any]]:
        return classics_json()

    return router
