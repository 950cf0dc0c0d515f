"""Any sliding-block puzzle over HTTP (:mod:`huarong.puzzles`): the catalogue, an optimal
solution, a cluster's summary, the verdict of every move from a position (for the viewer at
``/puzzles``), a cluster's placed graph in the explorer's binary form, a printable card, a
random start and a catalogue puzzle's ladder.

A puzzle is named by query parameters (:mod:`huarong.web.puzzle_queries`).  Errors answer the
app's JSON shape ``{"error", "input"}``: 400 for a puzzle the engine refuses, 413 for a
cluster larger than the server searches (``max_states``), 503 (with ``Retry-After``) while the
server's workers have too much to do.  The searches run in the server's worker processes
(:mod:`huarong.web.puzzle_jobs`): an answer not ready within the server's wait is answered
202, and the same address answers it once done.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response

from huarong.web.errors import BadQuery
from huarong.web.heavy import HeavyAnswers
from huarong.web.puzzle_jobs import cluster_job, ladder_job
from huarong.web.puzzle_queries import (
    CARD_MEDIA,
    LONGEST_TEXT,
    AtPosition,
    AtStart,
    CardQuery,
    CatalogueItem,
    ClusterAnswer,
    DifficultyAnswer,
    LadderAnswer,
    NextMoves,
    PuzzleQuery,
    RandomStart,
    SolutionAnswer,
    load_puzzle,
    static_file,
)
from huarong.web.schema import answers, error_responses

MAX_STATES = 200_000
"""The largest cluster a request searches (Klotski's largest group holds 964,656 layouts)."""


def puzzles_router(heavy: HeavyAnswers, max_states: int = MAX_STATES) -> APIRouter:
    """The routes: ``/api/puzzles`` and below, and the viewer page ``/puzzles``; clusters of
    at most ``max_states`` positions are searched in ``heavy``'s workers."""
    router = APIRouter(tags=["puzzles"])

    async def searched(http: Request, answer: str, request: PuzzleQuery, *extra: Any) -> Any:
        load_puzzle(request)  # a puzzle the engine refuses is told at once, not by a worker
        return await heavy.run(http, ("puzzle", answer, request, max_states, *extra),
                               cluster_job, answer, request, max_states, *extra)

    @functools.lru_cache(1)
    def catalogue_json() -> list[dict[str, Any]]:
        from huarong.puzzles import catalogue, format_state

        return [{"name": entry.name, "title": entry.title, "source": entry.source,
                 "start": format_state(entry.puzzle, entry.puzzle.start),
                 "rows": entry.puzzle.rows, "columns": entry.puzzle.columns,
                 "rules": entry.puzzle.rules, "metric": entry.puzzle.metric}
                for entry in catalogue()]

    too_large = {"e413": f"The cluster holds more than {max_states:,} positions."}
    refused = {"e400": "A bad query: a parameter is missing or malformed, or the engine "
                       "refuses the puzzle (its message says why)."}

    @router.get("/api/puzzles", summary="The catalogue of named puzzles", response_model=None,
                responses=answers(list[CatalogueItem]))
    def puzzles() -> list[dict[str, Any]]:
        """Every named puzzle with its source and start; a name is a ``start``."""
        return catalogue_json()

    @router.get("/api/puzzles/solve", summary="An optimal solution of any puzzle",
                response_model=None,
                responses=answers(SolutionAnswer, 202, 400, 413, 503, **refused, **too_large))
    async def solve(http: Request, request: AtPosition) -> dict[str, Any]:
        """The length and every position of an optimal solution; ``solvable`` false (and
        ``length`` null) when no goal can be reached."""
        found: dict[str, Any] = await searched(
            http, "solve", request)
        return found

    cluster_responses = answers(ClusterAnswer, 202, 400, 413, 503, **refused, **too_large)

    # "group" is the Klotski word (a group of layouts); any other puzzle's is "cluster".  The
    # first address is kept for the pages and scripts that ask it.
    @router.get("/api/puzzles/group", summary="A puzzle's cluster (the former address)",
                response_model=None, responses=cluster_responses, deprecated=True)
    @router.get("/api/puzzles/cluster", summary="A puzzle's cluster: size, goals, hardest start",
                response_model=None, responses=cluster_responses)
    async def cluster(http: Request, request: AtStart) -> dict[str, Any]:
        """How many positions the start reaches, how many are solved, and the one farthest
        from any goal."""
        found: dict[str, Any] = await searched(
            http, "cluster", request)
        return found

    @router.get("/api/puzzles/next", summary="Every move from a position, with its verdict",
                response_model=None,
                responses=answers(NextMoves, 202, 400, 413, 503, **refused, **too_large))
    async def next_(http: Request, request: AtPosition) -> dict[str, Any]:
        """The position (its board, goal, rules and metric), its minimum moves to a goal,
        and each legal move: where it leads, and whether it brings a goal closer."""
        found: dict[str, Any] = await searched(
            http, "next", request)
        return found

    @router.get("/api/puzzles/graph", summary="A puzzle's cluster as a placed graph",
                responses={200: {"content": {"application/octet-stream": {}},
                                 "description": "The graph in the explorer's binary form."},
                           **error_responses(202, 400, 413, 503, **refused, **too_large)})
    async def graph(http: Request, request: AtPosition) -> Response:
        """Every position a node placed in [0, 1]², every move an edge, with minimum moves
        and distances from the start, in the explorer's binary form (``HRG2``), as the
        explorer's group graphs."""
        load_puzzle(request)
        return await heavy.cached(http, ("puzzle-graph", request, max_states), cluster_job,
                                  "graph", request, max_states,
                                  media_type="application/octet-stream")

    @router.get("/api/puzzles/card", summary="A printable card: the board and its solution",
                responses={200: {"content": {media: {} for media in CARD_MEDIA.values()},
                                 "description": "The card, in the format asked for."},
                           **error_responses(
                               202, 400, 409, 413, 503, **refused, **too_large,
                               e409="No goal can be reached from the position: no solution "
                                    "to print.")})
    async def card(http: Request, request: AtPosition, format: CardQuery = "svg") -> Response:
        """The puzzle's card for printing, as ``huarong puzzle card`` makes it: on the front
        the position, the puzzle's title and its fewest moves; on the back an optimal
        solution as numbered small boards."""
        load_puzzle(request)
        return await heavy.cached(
            http, ("puzzle-card", request, max_states, format), cluster_job, "card", request,
            max_states, format, media_type=CARD_MEDIA[format],
            headers={"Content-Disposition": f'inline; filename="card.{format}"'})

    @router.get("/api/puzzles/ladder", summary="The next harder and easier puzzle of a family",
                response_model=None,
                responses=answers(LadderAnswer, 202, 400, 404, 413, 503, **refused,
                                  **too_large, e404="No catalogue puzzle has that name."))
    async def ladder(http: Request, name: Annotated[str, Query(
            min_length=1, max_length=LONGEST_TEXT, description="A catalogue puzzle's name.",
            examples=["bickford-4x4-7"])],
            order: Annotated[Literal["length", "difficulty"], Query(
                description="Order by fewest moves, or by the predicted median time to "
                            "solve for a person.")] = "length") -> dict[str, Any]:
        """Where a catalogue puzzle stands in its family (the West's classics, Rush Hour,
        Bickford's 4x4 records, the design records, the Klotski classics) and its metric,
        ordered by fewest moves or by difficulty for a person: the puzzles just below and
        above it."""
        from huarong.puzzles import PuzzleError, catalogue_entry

        try:
            entry = catalogue_entry(name)
        except PuzzleError:
            raise BadQuery(f"no catalogue puzzle is named {name!r}", name, 404) from None
        metric = entry.puzzle.metric
        rungs: list[dict[str, Any]] = await heavy.run(
            http, ("ladder", entry.family, metric, max_states, order), ladder_job,
            entry.family, metric, max_states, order)
        place = next((i for i, rung in enumerate(rungs) if rung["name"] == name), None)

        def rung(index: int) -> dict[str, Any] | None:
            if place is None or not 0 <= index < len(rungs):
                return None
            return rungs[index]

        return LadderAnswer.model_validate({
            "name": name, "family": entry.family, "metric": metric, "order": order,
            "length": None if place is None else rungs[place]["length"],
            "easier": rung(-1 if place is None else place - 1),
            "harder": rung(-1 if place is None else place + 1)}).model_dump()

    @router.get("/api/puzzles/difficulty", summary="How hard a position is for a person",
                response_model=None,
                responses=answers(DifficultyAnswer, 202, 400, 409, 413, 500, 503, **refused,
                                  **too_large, e409="No goal can be reached from the "
                                                    "position.",
                                  e500="The model's figures could not be computed (the "
                                       "blocking walk's solve did not settle)."))
    async def difficulty(http: Request, request: AtPosition) -> dict[str, Any]:
        """The difficulty model's answer for the position as a start (docs/difficulty.md):
        the predicted median time to solve of a first-time player, the share who solve it,
        a grade 1-10 and the features it reads; fitted on people's Rush Hour play, so other
        puzzles are extrapolations (``extrapolates``)."""
        found: dict[str, Any] = await searched(http, "difficulty", request)
        return found

    @router.get("/api/puzzles/random", summary="A random position of a cluster, by its length",
                response_model=None,
                responses=answers(RandomStart, 202, 400, 409, 413, 503, **refused,
                                  **too_large, e409="No position of the cluster needs between "
                                                    "low and high moves."))
    async def random_start(http: Request, request: AtPosition,
                           low: Annotated[int, Query(ge=0, le=100_000)],
                           high: Annotated[int, Query(ge=0, le=100_000)],
                           seed: Annotated[int | None, Query(ge=0, le=2**32 - 1)] = None
                           ) -> dict[str, Any]:
        """A position of the puzzle's cluster whose fewest moves to a goal lie between ``low``
        and ``high``, drawn at random (the same ``seed``, the same position): a new start
        of the length asked for."""
        found: dict[str, Any] = await searched(
            http, "random", request, low, high, seed)
        return found

    @router.get("/puzzles", include_in_schema=False)
    def viewer() -> FileResponse:
        return FileResponse(static_file("puzzle.html"))

    @router.get("/puzzles/editor", include_in_schema=False)
    def editor() -> FileResponse:
        return FileResponse(static_file("editor.html"))

    return router
