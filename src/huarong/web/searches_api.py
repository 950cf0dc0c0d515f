"""The result files of ``huarong puzzle search`` over HTTP (``huarong serve --search FILE``):
the list of files, and each file's rows hardest first, a page at a time, with the puzzle
that plays their starts (:mod:`huarong.puzzles.results`).  The explorer browses them at
``/explore#/searches``.

Errors answer the app's JSON shape ``{"error", "input"}``: 400 for a malformed query, 404
for a name the server does not serve.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi import Path as PathParameter
from pydantic import BaseModel, Field

from huarong.web.errors import BadQuery
from huarong.web.schema import ClusterCounts, answers

if TYPE_CHECKING:
    from huarong.puzzles.results import SearchFile

MAX_LIMIT = 500
"""The most rows one page answers."""
LONGEST_OFFSET = 1 << 40
"""The largest ``offset`` taken (far past any file's rows)."""
LONGEST_LENGTH = 1_000_000
"""The largest ``min_length`` taken (far past any search's length)."""


class SearchPiece(BaseModel):
    """One class of interchangeable pieces."""

    shape: list[list[int]] = Field(description="The piece's cells as [row, column] from its "
                                               "top-left.")
    letters: str = Field(description="The letters of the pieces of this shape in grid text.")
    distinct: bool = Field(description="A piece told apart from the others of its shape.")


class SearchPuzzle(BaseModel):
    """What plays a row's start: with ``start`` the start's grid, ``goal``, ``metric`` and
    ``rules`` are the query of ``/api/puzzles/next`` and the viewer ``/puzzles``."""

    rows: int
    columns: int
    board: str = Field(description="The empty board as grid text ('#' walls).")
    pieces: list[SearchPiece]
    goal: str | None = Field(description="The goal as grid text; null when each row has "
                                         "its own (a preset's records).")
    rules: Literal["free", "length"]
    metric: Literal["unit", "slide", "step"]


class SearchHardest(BaseModel):
    """The hardest start of the whole search and its moves to a goal."""

    length: int
    start: str


class SearchTotals(BaseModel):
    """The search's totals, as ``huarong puzzle search --json`` prints them."""

    clusters: int
    states: int = Field(description="Every placement of the pieces.")
    hardest: SearchHardest | None = Field(description="Null when no cluster holds a solved "
                                                      "state.")


class SearchSummary(BaseModel):
    """A served result file."""

    name: str = Field(description="The file's name without its suffix.")
    rows: int = Field(description="Its rows: one per cluster.")
    totals: SearchTotals
    puzzle: SearchPuzzle


class SearchRow(ClusterCounts):
    """One cluster."""

    length: int | None = Field(description="The hardest start's moves to the nearest solved "
                                           "state; null when none is solved.")
    start: str = Field(description="One hardest start, as grid text.")
    goal: str | None = Field(default=None, description="The row's own goal, where each row "
                                                       "is its own puzzle (grid text).")
    distinct: str | None = Field(default=None, description="The row's own distinct pieces' "
                                                           "letters, where it has its own.")
    difficulty: float | None = Field(default=None, description=(
        "The difficulty model's predicted median seconds to solve the start for a first-time "
        "player (docs/difficulty.md): the file's hardest rows hold one, older files and the "
        "other rows none."))
    grade: int | None = Field(default=None, ge=1, le=10, description="That time's grade, 1-10.")


class SearchRows(BaseModel):
    """A page of a result file's clusters."""

    name: str
    offset: int
    limit: int
    min_length: int | None
    total: int = Field(description="The rows of at least min_length moves (all without it).")
    rows: list[SearchRow] = Field(description="Hardest first: length descending, then states "
                                              "descending; clusters without a solved state "
                                              "last.")
    puzzle: SearchPuzzle


_Name = Annotated[str, PathParameter(min_length=1, max_length=200,
                                    description="A served file's name (its stem).")]


def _summary(found: SearchFile) -> dict[str, Any]:
    return {"name": found.name, "rows": found.rows, "totals": found.totals,
            "puzzle": found.puzzle}


def _graded(row: dict[str, Any]) -> dict[str, Any]:
    """The row with its difficulty (null in a file written before the model) and that
    time's grade."""
    from huarong.puzzles.difficulty.model import grade_of

    seconds = row.get("difficulty")
    return {**row, "difficulty": seconds, "grade": None if seconds is None else grade_of(seconds)}


def searches_router(files: Mapping[str, SearchFile]) -> APIRouter:
    """``/api/puzzles/searches`` and ``/api/puzzles/searches/{name}`` for ``files`` by name
    (:func:`~huarong.puzzles.results.open_search_files`)."""
    router = APIRouter(tags=["puzzles"])

    @router.get("/api/puzzles/searches", summary="The search result files served",
                response_model=None, responses=answers(list[SearchSummary]))
    def searches() -> list[dict[str, Any]]:
        """Each file given to ``huarong serve --search``: its rows, the search's totals and
        the puzzle its starts belong to."""
        return [_summary(found) for found in files.values()]

    @router.get("/api/puzzles/searches/{name}",
                summary="A search result file's rows, hardest first", response_model=None,
                responses=answers(SearchRows, 400, 404,
                                  e400="A malformed offset, limit or min_length.",
                                  e404="No served result file of that name."))
    def search_rows(
        name: _Name,
        offset: Annotated[int, Query(ge=0, le=LONGEST_OFFSET,
                                     description="Rows to skip.")] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_LIMIT,
                                    description="The most rows to answer.")] = 100,
        min_length: Annotated[int | None, Query(
            ge=0, le=LONGEST_LENGTH,
            description="Only the rows of at least this many moves.")] = None,
    ) -> dict[str, Any]:
        """Rows ``offset`` on, at most ``limit``: each cluster's states, solved states,
        length and hardest start, hardest first, with the puzzle that plays the starts."""
        found = files.get(name)
        if found is None:
            served = ", ".join(files) or "none (huarong serve --search FILE)"
            raise BadQuery(f"no search result named {name!r}; served: {served}", name, 404)
        page = found.page(offset, limit, min_length)
        return {"name": name, "offset": offset, "limit": limit, "min_length": min_length,
                "total": page.total, "rows": [_graded(row) for row in page.rows],
                "puzzle": found.puzzle}

    return router
