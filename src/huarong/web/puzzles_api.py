"""Any sliding-block puzzle over HTTP (:mod:`huarong.puzzles`): the catalogue, an optimal
solution, a cluster's summary, the verdict of every move from a position (for the viewer at
``/puzzles``) and a cluster's placed graph in the explorer's binary form.

A puzzle is named by the query parameters ``start`` (grid text, ``rush:`` and a Rush Hour
board, a Klotski layout or a catalogue name; never a file), ``goal``, ``metric`` and
``rules``, as the command ``huarong puzzle`` reads them.  Errors answer the app's JSON shape
``{"error", "input"}``: 400 for a puzzle the engine refuses, 413 for a cluster larger than the
server searches (``max_states``), 503 (with ``Retry-After``) while the server's workers have
too much to do.  The searches run in the server's worker processes (:mod:`huarong.web.heavy`):
an answer not ready within the server's wait is answered 202, and the same address answers it
once done.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, Field

from huarong.web.errors import BadQuery
from huarong.web.heavy import HeavyAnswers
from huarong.web.schema import answers, error_responses

if TYPE_CHECKING:
    from huarong.graph import StateGraph
    from huarong.puzzles import Puzzle
    from huarong.puzzles.card import CardFormat

MAX_STATES = 200_000
"""The largest cluster a request searches (Klotski's largest group holds 964,656 layouts)."""
CACHE_SIZE = 16
"""Clusters kept: a game asks for the moves of position after position of one cluster."""
LONGEST_TEXT = 400
"""The longest ``start`` or ``goal`` (an 8x8 grid with a space between its cells fits)."""

_T = TypeVar("_T")

Start = Annotated[str, Query(
    min_length=1, max_length=LONGEST_TEXT,
    description="The puzzle: grid text (rows joined by '/', '.' empty, '#' wall, one letter "
                "per piece), 'rush:' and a Rush Hour board of 36 characters, a Klotski "
                "layout (common code, klotski.online id, grid) or a catalogue name.",
    examples=["dads-puzzle", "AAB./AAC./DEE.", "rush-hour-hardest"])]
Goal = Annotated[str | None, Query(
    max_length=LONGEST_TEXT,
    description="The goal: a grid of the start's size naming the cells its letters' pieces "
                "must cover, '.' elsewhere; default the start's own.")]
MetricQuery = Annotated[Literal["unit", "slide", "step"] | None, Query(
    description="One move: one cell, any distance in one direction, or anywhere the piece "
                "reaches alone; default by notation.")]
RulesQuery = Annotated[Literal["free", "length"] | None, Query(
    description="free: pieces move in four directions; length: 1xk and kx1 pieces only "
                "along their length (Rush Hour); default by notation.")]
Distinct = Annotated[str | None, Query(
    max_length=LONGEST_TEXT,
    description="Letters of the start's pieces told apart from the others of their shape (a "
                "goal piece among pieces like it); default the notation's.")]
CardQuery = Annotated[Literal["svg", "png", "pdf"], Query(
    description="The card's file: svg (the front above the back, A4 pages in millimetres), "
                "png (the same, 150 dpi) or pdf (two A4 pages: front, back).")]
CARD_MEDIA = {"svg": "image/svg+xml", "png": "image/png", "pdf": "application/pdf"}
Position = Annotated[str | None, Query(
    max_length=LONGEST_TEXT,
    description="A position of the puzzle to start from instead of its start, as grid text "
                "(the puzzle's board and pieces; interchangeable pieces by any of their "
                "letters).")]


class CatalogueItem(BaseModel):
    name: str
    title: str
    source: str
    start: str = Field(description="The start position as grid text.")
    rows: int
    columns: int
    rules: Literal["free", "length"]
    metric: Literal["unit", "slide", "step"]


class PuzzleMove(BaseModel):
    piece: str
    direction: str = Field(description="up, down, left or right; for the step metric the "
                                       "directions of the piece's path, comma-separated.")
    distance: int = Field(ge=1)
    grid: str = Field(description="The position the move leads to.")


class SolutionAnswer(BaseModel):
    start: str
    solvable: bool
    length: int | None = Field(description="Null without a solution.")
    path: list[str] = Field(description="Every position from the start to a goal.")
    moves: list[PuzzleMove]


class Hardest(BaseModel):
    length: int
    start: str


class ClusterAnswer(BaseModel):
    states: int = Field(description="The positions reachable from the start.")
    solved: int = Field(description="How many of them are goals.")
    hardest: Hardest | None = Field(description="The position farthest from any goal; null "
                                                "without one.")


class Rung(BaseModel):
    name: str
    title: str
    length: int = Field(description="Its fewest moves.")


class LadderAnswer(BaseModel):
    name: str
    family: Literal["classics", "rush-hour", "bickford-4x4", "design", "klotski"]
    length: int | None = Field(description="The puzzle's fewest moves; null without a solution.")
    easier: Rung | None = Field(description="The family's puzzle next below it by fewest moves "
                                            "(then by name); null at the bottom.")
    harder: Rung | None = Field(description="The next above it; null at the top.")


class RandomStart(BaseModel):
    start: str = Field(description="A position of the cluster, as grid text.")
    min_steps: int = Field(description="Its fewest moves to a goal.")
    count: int = Field(description="How many positions of the cluster need between low and "
                                   "high moves.")


class MoveVerdictAnswer(BaseModel):
    to: str
    piece: str
    direction: str
    distance: int = Field(ge=1, description="Cells the piece travels.")
    verdict: Literal["better", "same", "worse"] | None = Field(
        description="Whether the move brings a goal closer; null without a goal.")
    min_steps: int | None


class NextMoves(BaseModel):
    start: str
    rows: int
    columns: int
    metric: Literal["unit", "slide", "step"]
    rules: Literal["free", "length"]
    goal: str | None = Field(description="The goal as grid text; null without one.")
    solved: bool
    min_steps: int | None = Field(description="Null when no goal can be reached.")
    moves: list[MoveVerdictAnswer]


@dataclass(frozen=True)
class _Request:
    """A puzzle as the query names it: the cache's key."""

    start: str
    goal: str | None
    metric: str | None
    rules: str | None
    position: str | None = None
    distinct: str | None = None


def _refuse_files(value: str, name: str) -> None:
    # load_puzzle reads a .toml path: a request must not make the server open its files.
    if value.strip().lower().endswith(".toml"):
        raise BadQuery(f"parameter {name!r}: {value!r}: files are not read over HTTP; send "
                       "the puzzle's board as grid text", value)


def _load(request: _Request) -> Puzzle:
    from huarong.puzzles import PuzzleError, load_puzzle, parse_state

    _refuse_files(request.start, "start")
    try:
        puzzle = load_puzzle(request.start, request.goal, metric=request.metric,
                             rules=request.rules, distinct=request.distinct or ())
    except PuzzleError as error:
        if request.goal is not None and error.text == request.goal:
            raise BadQuery(f"parameter 'goal': {error}", request.goal) from None
        raise BadQuery(str(error), request.start) from None
    if request.position is None:
        return puzzle
    try:
        return dataclasses.replace(puzzle, start=parse_state(puzzle, request.position))
    except PuzzleError as error:
        raise BadQuery(f"parameter 'position': {error}", request.position) from None


def _static(name: str) -> str:
    return str(resources.files("huarong.web") / "static" / name)


class _Clusters:
    """The graphs of the clusters a worker searched last, so that a game's position after
    position of one cluster is searched once and checked against the size limit once."""

    def __init__(self, max_states: int) -> None:
        self._max_states = max_states
        self._graphs: OrderedDict[tuple[_Request, int], StateGraph] = OrderedDict()

    def of(self, puzzle: Puzzle, request: _Request) -> StateGraph:
        """The graph of ``puzzle``'s start's cluster; 413 past the size limit."""
        from huarong.puzzles import ClusterTooLarge, state_graph

        # A position is read as a state of the puzzle the other parameters name.
        named = dataclasses.replace(request, position=None)
        known = next((key for key, graph in self._graphs.items()
                      if key[0] == named and _holds(graph, puzzle.start)), None)
        if known is not None:
            self._graphs.move_to_end(known)
            return self._graphs[known]
        try:
            graph = state_graph(puzzle, limit=self._max_states)
        except ClusterTooLarge:
            raise BadQuery(f"the cluster of {request.position or request.start!r} holds more "
                           f"than {self._max_states:,} positions, the most this server "
                           "searches", request.position or request.start, 413) from None
        self._graphs[(named, int(graph.codes[0]))] = graph
        while len(self._graphs) > CACHE_SIZE:
            self._graphs.popitem(last=False)
        return graph


def _holds(graph: StateGraph, code: int) -> bool:
    try:
        graph.index_of(code)
    except ValueError:
        return False
    return True


# ----- the jobs, run in the server's worker processes (huarong.web.heavy) -----------------

@functools.lru_cache(2)
def _worker_clusters(max_states: int) -> _Clusters:
    return _Clusters(max_states)


def _solution(puzzle: Puzzle, graph: StateGraph, request: _Request) -> dict[str, Any]:
    from huarong.puzzles import format_state
    from huarong.puzzles.cluster import solution_of_graph

    found = solution_of_graph(puzzle, graph)
    shown = (dataclasses.asdict(found) if found is not None else
             {"length": None, "path": [], "moves": []})
    return {"start": format_state(puzzle, puzzle.start), "solvable": found is not None,
            **shown}


def _cluster(puzzle: Puzzle, graph: StateGraph, request: _Request) -> dict[str, Any]:
    from huarong.puzzles import cluster_summary

    found = cluster_summary(puzzle, graph=graph)
    hardest = (Hardest(length=found.hardest_length, start=found.hardest_start)
               if found.hardest_length is not None and found.hardest_start is not None
               else None)
    return ClusterAnswer(states=found.states, solved=found.solved,
                         hardest=hardest).model_dump()


def _moves(puzzle: Puzzle, graph: StateGraph, request: _Request) -> dict[str, Any]:
    from huarong.puzzles import format_state, next_moves, puzzle_start_node

    node = puzzle_start_node(puzzle, graph)
    steps = int(graph.min_steps[node])
    return {"start": format_state(puzzle, puzzle.start), "rows": puzzle.rows,
            "columns": puzzle.columns, "metric": puzzle.metric, "rules": puzzle.rules,
            "goal": puzzle.goal, "solved": bool(graph.goal[node]),
            "min_steps": steps if steps >= 0 else None,
            "moves": [{"to": move.to, "piece": move.piece, "direction": move.direction,
                       "distance": move.distance, "verdict": move.verdict,
                       "min_steps": move.min_steps}
                      for move in next_moves(puzzle, graph)]}


def _placed_graph(puzzle: Puzzle, graph: StateGraph, request: _Request) -> bytes:
    from huarong.graph.binary import graph_binary
    from huarong.graph.placement import place
    from huarong.puzzles import puzzle_start_node

    return graph_binary(graph, place(graph), puzzle_start_node(puzzle, graph))


def _card(puzzle: Puzzle, graph: StateGraph, request: _Request, card_format: CardFormat
          ) -> bytes:
    from huarong.puzzles.card import draw_card
    from huarong.puzzles.cluster import solution_of_graph

    found = solution_of_graph(puzzle, graph)
    if found is None:
        raise BadQuery("no goal can be reached from this position: a card shows a solution",
                       request.position or request.start, 409)
    return draw_card(puzzle, found, card_format, cjk_font=_static("cjk-subset.woff2"))


def _random(puzzle: Puzzle, graph: StateGraph, request: _Request, low: int, high: int,
            seed: int | None) -> dict[str, Any]:
    import numpy as np

    from huarong.puzzles import format_state

    fitting = np.flatnonzero((graph.min_steps >= low) & (graph.min_steps <= high))
    if not fitting.shape[0]:
        raise BadQuery(f"no position of this cluster needs {low} to {high} moves",
                       f"{low}-{high}", 409)
    node = int(fitting[np.random.default_rng(seed).integers(fitting.shape[0])])
    return RandomStart(start=format_state(puzzle, int(graph.codes[node])),
                       min_steps=int(graph.min_steps[node]),
                       count=int(fitting.shape[0])).model_dump()


_ANSWERS: dict[str, Callable[..., Any]] = {
    "solve": _solution, "group": _cluster, "next": _moves, "graph": _placed_graph,
    "card": _card, "random": _random}


def _cluster_job(answer: str, request: _Request, max_states: int, *extra: Any) -> Any:
    """The answer named ``answer`` on the puzzle and its cluster's graph, refused past
    ``max_states``."""
    from huarong.puzzles import PuzzleError

    puzzle = _load(request)
    graph = _worker_clusters(max_states).of(puzzle, request)
    try:
        return _ANSWERS[answer](puzzle, graph, request, *extra)
    except PuzzleError as error:
        raise BadQuery(str(error), request.start) from None


def _ladder_job(family: str, max_states: int) -> list[tuple[int, str, str]]:
    """(fewest moves, name, title) of the family's solvable puzzles, easiest first (one whose
    search passes the server's limit is left out)."""
    from huarong.puzzles import catalogue
    from huarong.puzzles.cluster import ClusterTooLarge, solution_length

    rungs = []
    for entry in catalogue():
        if entry.family != family:
            continue
        with contextlib.suppress(ClusterTooLarge):
            moves = solution_length(entry.puzzle, limit=max_states)
            if moves is not None:
                rungs.append((moves, entry.name, entry.title))
    return sorted(rungs)


def puzzles_router(heavy: HeavyAnswers, max_states: int = MAX_STATES) -> APIRouter:
    """The routes: ``/api/puzzles`` and below, and the viewer page ``/puzzles``; clusters of
    at most ``max_states`` positions are searched in ``heavy``'s workers."""
    router = APIRouter(tags=["puzzles"])

    async def searched(http: Request, answer: str, request: _Request, *extra: Any) -> Any:
        _load(request)  # a puzzle the engine refuses is told at once, not by a worker
        return await heavy.run(http, ("puzzle", answer, request, max_states, *extra),
                               _cluster_job, answer, request, max_states, *extra)

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
    async def solve(http: Request, start: Start, goal: Goal = None, metric: MetricQuery = None,
                    rules: RulesQuery = None, position: Position = None,
                    distinct: Distinct = None) -> dict[str, Any]:
        """The length and every position of an optimal solution; ``solvable`` false (and
        ``length`` null) when no goal can be reached."""
        found: dict[str, Any] = await searched(
            http, "solve", _Request(start, goal, metric, rules, position, distinct))
        return found

    @router.get("/api/puzzles/group", summary="A puzzle's cluster: size, goals, hardest start",
                response_model=None,
                responses=answers(ClusterAnswer, 202, 400, 413, 503, **refused, **too_large))
    async def group(http: Request, start: Start, goal: Goal = None, metric: MetricQuery = None,
                    rules: RulesQuery = None, distinct: Distinct = None) -> dict[str, Any]:
        """How many positions the start reaches, how many are solved, and the one farthest
        from any goal."""
        found: dict[str, Any] = await searched(
            http, "group", _Request(start, goal, metric, rules, distinct=distinct))
        return found

    @router.get("/api/puzzles/next", summary="Every move from a position, with its verdict",
                response_model=None,
                responses=answers(NextMoves, 202, 400, 413, 503, **refused, **too_large))
    async def next_(http: Request, start: Start, goal: Goal = None, metric: MetricQuery = None,
                    rules: RulesQuery = None, position: Position = None,
                    distinct: Distinct = None) -> dict[str, Any]:
        """The position (its board, goal, rules and metric), its minimum moves to a goal,
        and each legal move: where it leads, and whether it brings a goal closer."""
        found: dict[str, Any] = await searched(
            http, "next", _Request(start, goal, metric, rules, position, distinct))
        return found

    @router.get("/api/puzzles/graph", summary="A puzzle's cluster as a placed graph",
                responses={200: {"content": {"application/octet-stream": {}},
                                 "description": "The graph in the explorer's binary form."},
                           **error_responses(202, 400, 413, 503, **refused, **too_large)})
    async def graph(http: Request, start: Start, goal: Goal = None, metric: MetricQuery = None,
                    rules: RulesQuery = None, position: Position = None,
                    distinct: Distinct = None) -> Response:
        """Every position a node placed in [0, 1]², every move an edge, with minimum moves
        and distances from the start, in the explorer's binary form (``HRG2``), as the
        explorer's group graphs."""
        request = _Request(start, goal, metric, rules, position, distinct)
        _load(request)
        return await heavy.cached(http, ("puzzle-graph", request, max_states), _cluster_job,
                                  "graph", request, max_states,
                                  media_type="application/octet-stream")

    @router.get("/api/puzzles/card", summary="A printable card: the board and its solution",
                responses={200: {"content": {media: {} for media in CARD_MEDIA.values()},
                                 "description": "The card, in the format asked for."},
                           **error_responses(
                               202, 400, 409, 413, 503, **refused, **too_large,
                               e409="No goal can be reached from the position: no solution "
                                    "to print.")})
    async def card(http: Request, start: Start, goal: Goal = None, metric: MetricQuery = None,
                   rules: RulesQuery = None, position: Position = None,
                   distinct: Distinct = None, format: CardQuery = "svg") -> Response:
        """The puzzle's card for printing, as ``huarong puzzle card`` makes it: on the front
        the position, the puzzle's title and its fewest moves; on the back an optimal
        solution as numbered small boards."""
        request = _Request(start, goal, metric, rules, position, distinct)
        _load(request)
        return await heavy.cached(
            http, ("puzzle-card", request, max_states, format), _cluster_job, "card", request,
            max_states, format, media_type=CARD_MEDIA[format],
            headers={"Content-Disposition": f'inline; filename="card.{format}"'})

    @router.get("/api/puzzles/ladder", summary="The next harder and easier puzzle of a family",
                response_model=None,
                responses=answers(LadderAnswer, 202, 400, 404, 413, 503, **refused,
                                  **too_large, e404="No catalogue puzzle has that name."))
    async def ladder(http: Request, name: Annotated[str, Query(
            min_length=1, max_length=LONGEST_TEXT, description="A catalogue puzzle's name.",
            examples=["bickford-4x4-7"])]) -> dict[str, Any]:
        """Where a catalogue puzzle stands in its family (the West's classics, Rush Hour,
        Bickford's 4x4 records, the design records, the Klotski classics) ordered by fewest
        moves: the puzzles just below and above it."""
        from huarong.puzzles import PuzzleError, catalogue_entry

        try:
            entry = catalogue_entry(name)
        except PuzzleError:
            raise BadQuery(f"no catalogue puzzle is named {name!r}", name, 404) from None
        rungs: list[tuple[int, str, str]] = await heavy.run(
            http, ("ladder", entry.family, max_states), _ladder_job, entry.family, max_states)
        place = next((i for i, (_, rung, _) in enumerate(rungs) if rung == name), None)

        def rung(index: int) -> dict[str, Any] | None:
            if place is None or not 0 <= index < len(rungs):
                return None
            moves, other, title = rungs[index]
            return {"name": other, "title": title, "length": moves}

        return LadderAnswer.model_validate({
            "name": name, "family": entry.family,
            "length": None if place is None else rungs[place][0],
            "easier": rung(-1 if place is None else place - 1),
            "harder": rung(-1 if place is None else place + 1)}).model_dump()

    @router.get("/api/puzzles/random", summary="A random position of a cluster, by its length",
                response_model=None,
                responses=answers(RandomStart, 202, 400, 409, 413, 503, **refused,
                                  **too_large, e409="No position of the cluster needs between "
                                                    "low and high moves."))
    async def random_start(http: Request, start: Start,
                           low: Annotated[int, Query(ge=0, le=100_000)],
                           high: Annotated[int, Query(ge=0, le=100_000)], goal: Goal = None,
                           metric: MetricQuery = None, rules: RulesQuery = None,
                           position: Position = None, distinct: Distinct = None,
                           seed: Annotated[int | None, Query(ge=0, le=2**32 - 1)] = None
                           ) -> dict[str, Any]:
        """A position of the puzzle's cluster whose fewest moves to a goal lie between ``low``
        and ``high``, drawn at random (the same ``seed``, the same position): a new start
        of the length asked for."""
        found: dict[str, Any] = await searched(
            http, "random", _Request(start, goal, metric, rules, position, distinct), low, high,
            seed)
        return found

    @router.get("/puzzles", include_in_schema=False)
    def viewer() -> FileResponse:
        return FileResponse(_static("puzzle.html"))

    @router.get("/puzzles/editor", include_in_schema=False)
    def editor() -> FileResponse:
        return FileResponse(_static("editor.html"))

    return router
