"""The answers about a puzzle, computed in the server's worker processes
(:mod:`huarong.web.heavy`): each worker keeps the graphs of the clusters it searched last, and
answers a solution, a cluster's summary, the verdicts of the moves from a position, the
placed graph, a printable card or a random start from one of them; and a family's ladder.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from huarong.web.errors import BadQuery
from huarong.web.puzzle_queries import (
    ClusterAnswer,
    DifficultyAnswer,
    Hardest,
    PuzzleQuery,
    RandomStart,
    load_puzzle,
    static_file,
)

if TYPE_CHECKING:
    from huarong.graph import StateGraph
    from huarong.puzzles import Puzzle
    from huarong.puzzles.card import CardFormat

CACHE_SIZE = 16
"""Clusters kept: a game asks for the moves of position after position of one cluster."""


class _Clusters:
    """The graphs of the clusters a worker searched last, so that a game's position after
    position of one cluster is searched once and checked against the size limit once."""

    def __init__(self, max_states: int) -> None:
        self._max_states = max_states
        self._graphs: OrderedDict[tuple[PuzzleQuery, int], StateGraph] = OrderedDict()

    def of(self, puzzle: Puzzle, request: PuzzleQuery) -> StateGraph:
        """The graph of ``puzzle``'s start's cluster; 413 past the size limit."""
        from huarong.puzzles import ClusterTooLarge, PuzzleError, state_graph

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
        except PuzzleError as error:  # a board whose states the general engine cannot code
            raise BadQuery(f"{error}: this server answers by the general engine's state graph "
                           "(huarong puzzle cluster and solve take Rush Hour's full boards)",
                           request.start) from None
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


def _solution(puzzle: Puzzle, graph: StateGraph, request: PuzzleQuery) -> dict[str, Any]:
    from huarong.puzzles import format_state
    from huarong.puzzles.cluster import solution_of_graph

    found = solution_of_graph(puzzle, graph)
    shown = (dataclasses.asdict(found) if found is not None else
             {"length": None, "path": [], "moves": []})
    return {"start": format_state(puzzle, puzzle.start), "solvable": found is not None,
            **shown}


def _cluster(puzzle: Puzzle, graph: StateGraph, request: PuzzleQuery) -> dict[str, Any]:
    from huarong.puzzles import cluster_summary

    found = cluster_summary(puzzle, graph=graph)
    hardest = (Hardest(length=found.hardest_length, start=found.hardest_start)
               if found.hardest_length is not None and found.hardest_start is not None
               else None)
    return ClusterAnswer(states=found.states, solved=found.solved,
                         hardest=hardest).model_dump()


def _moves(puzzle: Puzzle, graph: StateGraph, request: PuzzleQuery) -> dict[str, Any]:
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


def _placed_graph(puzzle: Puzzle, graph: StateGraph, request: PuzzleQuery) -> bytes:
    from huarong.graph.binary import graph_binary
    from huarong.graph.placement import place
    from huarong.puzzles import puzzle_start_node

    return graph_binary(graph, place(graph), puzzle_start_node(puzzle, graph))


def _card(puzzle: Puzzle, graph: StateGraph, request: PuzzleQuery, card_format: CardFormat
          ) -> bytes:
    from huarong.puzzles.card import draw_card
    from huarong.puzzles.cluster import solution_of_graph

    found = solution_of_graph(puzzle, graph)
    if found is None:
        raise BadQuery("no goal can be reached from this position: a card shows a solution",
                       request.position or request.start, 409)
    return draw_card(puzzle, found, card_format, cjk_font=static_file("cjk-subset.woff2"))


def _random(puzzle: Puzzle, graph: StateGraph, request: PuzzleQuery, low: int, high: int,
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


def _difficulty(puzzle: Puzzle, graph: StateGraph, request: PuzzleQuery) -> dict[str, Any]:
    from huarong.puzzles.difficulty.features import UnsolvableStart
    from huarong.puzzles.difficulty.model import difficulty
    from huarong.puzzles.difficulty.walk import WalkDidNotSettle

    try:
        return DifficultyAnswer.model_validate(difficulty(puzzle, graph).as_dict()).model_dump()
    except UnsolvableStart:
        raise BadQuery("no goal can be reached from this position: it has no difficulty",
                       request.position or request.start, 409) from None
    except WalkDidNotSettle as error:
        raise BadQuery(f"no difficulty: {error}", request.position or request.start,
                       500) from None


_ANSWERS: dict[str, Callable[..., Any]] = {
    "solve": _solution, "cluster": _cluster, "next": _moves, "graph": _placed_graph,
    "card": _card, "random": _random, "difficulty": _difficulty}


def cluster_job(answer: str, request: PuzzleQuery, max_states: int, *extra: Any) -> Any:
    """The answer named ``answer`` on the puzzle and its cluster's graph, refused past
    ``max_states``."""
    from huarong.puzzles import PuzzleError

    puzzle = load_puzzle(request)
    graph = _worker_clusters(max_states).of(puzzle, request)
    try:
        return _ANSWERS[answer](puzzle, graph, request, *extra)
    except PuzzleError as error:
        raise BadQuery(str(error), request.start) from None


def ladder_job(family: str, metric: str, max_states: int, order: str = "length"
               ) -> list[dict[str, Any]]:
    """The rungs (name, title, length; by difficulty also median_seconds and grade) of the
    family's solvable puzzles counted in ``metric``, easiest first by fewest moves or by
    predicted ``difficulty`` (one whose search passes the server's limit is left out):
    lengths in two metrics do not compare (Fogleman's hardest Rush Hour start counts moves of
    any distance, Collette, Raskin and Servais's moves of one cell)."""
    from huarong.puzzles import catalogue
    from huarong.puzzles.cluster import ClusterTooLarge, solution_length
    from huarong.puzzles.difficulty.ladder import difficulty_ladder

    entries = [entry for entry in catalogue()
               if entry.family == family and entry.puzzle.metric == metric]
    if order == "difficulty":
        return [dataclasses.asdict(rung) for rung in difficulty_ladder(entries, max_states)]
    rungs = []
    for entry in entries:
        with contextlib.suppress(ClusterTooLarge):
            moves = solution_length(entry.puzzle, limit=max_states)
            if moves is not None:
                rungs.append((moves, entry.name, entry.title))
    return [{"name": name, "title": title, "length": moves}
            for moves, name, title in sorted(rungs)]
