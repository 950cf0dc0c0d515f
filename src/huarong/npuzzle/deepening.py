"""Long searches kept in hand: they report their progress, keep their node and time limits,
and let Ctrl-C through within a fifth of a second.

IDA* and IDDFS are driven from Python in short shares: their kernels
(:mod:`huarong._kernels.npuzzle_ida`) keep the depth-first stack in arrays this module owns,
so a pass paused after a share of nodes goes on exactly where it stopped.  A share is sized
to last about :data:`SHARE_SECONDS`.  The graph searches, whose state lives in growing arrays
inside one kernel call, run on a thread of their own instead (:func:`watched`): the kernel
publishes its figures in a small array and stops when asked there.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from huarong.npuzzle.board import DIRECTIONS, Board
from huarong.npuzzle.patterns import CompactPatternDatabase, IntArray, _Geometry
from huarong.npuzzle.results import Algorithm, Outcome, SearchProgress, Watch

SHARE_SECONDS = 0.2
"""How long one kernel call runs before the search looks at the clock and reports."""

_FIRST_SHARE = 1 << 14


@dataclass(frozen=True)
class Limits:
    """When a search must stop, and whom it tells how far it got.  ``began`` and
    ``deadline`` are :func:`time.perf_counter` readings (no deadline: ``None``)."""

    algorithm: Algorithm
    max_nodes: int
    began: float
    deadline: float | None = None
    watch: Watch | None = None


@dataclass(frozen=True)
class Found:
    """A search's outcome, path and figures; ``bound`` is the lower bound an iterative-
    deepening search proved (``None`` for the others)."""

    outcome: Outcome
    path: tuple[Board, ...]
    expanded: int
    peak: int
    bound: int | None = None


_T = TypeVar("_T")


def watched(search: Callable[[IntArray], _T], limits: Limits) -> tuple[_T, int | None]:
    """Run ``search(control)`` (a graph-search kernel) on a thread, reporting its progress
    from ``control = [expanded, bound, stop]`` every :data:`SHARE_SECONDS` and asking it to
    stop at the time limit; returns what it answered and the last bound it published (``None``
    before its first report).  Ctrl-C stops it too, then goes on as ``KeyboardInterrupt``."""
    control = np.zeros(3, np.int64)
    answers: list[_T] = []
    failures: list[BaseException] = []

    def run() -> None:
        try:
            answers.append(search(control))
        except BaseException as error:  # handed to the caller's thread below
            failures.append(error)

    thread = threading.Thread(target=run, name="npuzzle-search", daemon=True)
    thread.start()
    reported = 0
    try:
        while True:
            thread.join(SHARE_SECONDS)
            if not thread.is_alive():
                break
            now = time.perf_counter()
            if limits.watch is not None and control[0] > reported:
                reported = int(control[0])
                limits.watch(SearchProgress(limits.algorithm, int(control[1]), reported,
                                            now - limits.began))
            if limits.deadline is not None and now >= limits.deadline:
                control[2] = 1
    finally:
        # Ctrl-C (or a watch that raised): the search stops at its next look, within
        # REPORT_EVERY expansions, before the exception goes on.
        control[2] = 1
        thread.join()
    if failures:
        raise failures[0]
    return answers[0], int(control[1]) if control[0] > 0 else None


def _path_from_moves(start: Board, directions: Iterable[int]) -> tuple[Board, ...]:
    path = [start]
    for direction in directions:
        path.append(path[-1].moved(DIRECTIONS[int(direction)]))
    return tuple(path)


def _board_array(board: Board) -> IntArray:
    return np.array(board.tiles, dtype=np.int64)


Iteration = Callable[[IntArray, int, int, IntArray, IntArray, IntArray], Any]
"""One pass of IDA*, or its next share: (board, bound, node budget, moves, next directions,
state) -> the kernel's ``(status, length, expanded)``."""


def _next_share(done: int, seconds: float) -> int:
    return max(_FIRST_SHARE, min(1 << 32, int(done / max(seconds, 1e-6) * SHARE_SECONDS)))


def iterative_deepening(start: Board, first_bound: int, iteration: Iteration,
                        limits: Limits) -> Found:
    """Passes of growing cost bound from ``first_bound`` until one finds the goal, none is left,
    or a limit is reached."""
    from huarong._kernels.npuzzle_store import EXHAUSTED, FOUND

    board = _board_array(start)
    expanded = 0
    deepest = 0
    bound = first_bound
    share = _FIRST_SHARE
    moves = next_direction = state = np.zeros(0, np.int64)
    fresh = True
    while True:
        if fresh:
            moves = np.zeros(bound + 2, np.int64)
            next_direction = np.zeros(bound + 2, np.int64)
            state = np.array([0, -1, 0], np.int64)
        began = time.perf_counter()
        status, length, done = iteration(board, bound, min(share, limits.max_nodes - expanded),
                                         moves, next_direction, state)
        now = time.perf_counter()
        expanded += int(done)
        deepest = max(deepest, int(state[2]))
        if status == FOUND:
            return Found(Outcome.SOLVED, _path_from_moves(start, moves[:length]), expanded,
                         deepest + 1, int(length))
        fresh = status == EXHAUSTED
        if fresh:
            if state[1] < 0:
                return Found(Outcome.NOT_FOUND, (), expanded, deepest + 1, bound)
            bound = int(state[1])
        else:
            share = _next_share(int(done), now - began)
        if limits.watch is not None:
            limits.watch(SearchProgress(limits.algorithm, bound, expanded, now - limits.began))
        if expanded >= limits.max_nodes:
            return Found(Outcome.LIMIT_REACHED, (), expanded, deepest + 1, bound)
        if limits.deadline is not None and now >= limits.deadline:
            return Found(Outcome.TIME_LIMIT, (), expanded, deepest + 1, bound)


def ida_star(start: Board, heuristic_kind: int, geometry: _Geometry, tables: tuple[Any, ...],
             limits: Limits) -> Found:
    """IDA* on one of the kernels' heuristics (IDDFS with kind 0)."""
    from huarong._kernels import npuzzle_heuristics, npuzzle_ida

    def iteration(board: IntArray, bound: int, budget: int, moves: IntArray,
                  next_direction: IntArray, state: IntArray) -> Any:
        return npuzzle_ida.ida_star_iteration(board, geometry.neighbours, heuristic_kind,
                                              tables, geometry.rows, geometry.cols, bound,
                                              budget, moves, next_direction, state)

    first = int(npuzzle_heuristics.heuristic(_board_array(start), heuristic_kind, tables,
                                             geometry.rows, geometry.cols))
    return iterative_deepening(start, first, iteration, limits)


def compact_ida_star(start: Board, geometry: _Geometry, database: CompactPatternDatabase,
                     limits: Limits) -> Found:
    """IDA* on the compact (7-8) pattern databases."""
    from huarong._kernels import npuzzle_ida

    tables = database.kernel_tables

    def iteration(board: IntArray, bound: int, budget: int, moves: IntArray,
                  next_direction: IntArray, state: IntArray) -> Any:
        return npuzzle_ida.compact_ida_star_iteration(board, geometry.neighbours, tables, bound,
                                                      budget, moves, next_direction, state)

    first = int(npuzzle_ida.compact_heuristic(_board_array(start), tables))
    return iterative_deepening(start, first, iteration, limits)
