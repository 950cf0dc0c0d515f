"""What a request about any sliding-block puzzle names and what it is answered
(:mod:`huarong.web.puzzles_api`): the query parameters, the answers' models, and the puzzle the
parameters name.

A puzzle is named by the query parameters ``start`` (grid text, ``rush:`` and a Rush Hour
board, a Klotski layout or a catalogue name; never a file), ``goal``, ``metric`` and
``rules``, as the command ``huarong puzzle`` reads them; ``position`` a position of it to
start from, ``distinct`` the pieces told apart from the others of their shape.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Literal

from fastapi import Depends, Query
from pydantic import BaseModel, Field

from huarong.web.errors import BadQuery
from huarong.web.schema import ClusterCounts

if TYPE_CHECKING:
    from huarong.puzzles import Puzzle

LONGEST_TEXT = 400
"""The longest ``start`` or ``goal`` (an 8x8 grid with a space between its cells fits)."""

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


class ClusterAnswer(ClusterCounts):
    hardest: Hardest | None = Field(description="The position farthest from any goal; null "
                                                "without one.")


class Rung(BaseModel):
    name: str
    title: str
    length: int = Field(description="Its fewest moves.")
    median_seconds: float | None = Field(
        None, description="In a ladder by difficulty: its predicted median time to solve for "
                          "a first-time player (docs/difficulty.md); null by length.")
    grade: int | None = Field(None, ge=1, le=10, description="In a ladder by difficulty: its "
                                                            "grade 1-10; null by length.")


class DifficultyAnswer(BaseModel):
    median_seconds: float = Field(description="Predicted median time to solve, in seconds, of "
                                              "a first-time player who solves it.")
    solved_share: float = Field(ge=0, le=1, description="Predicted share of the people who "
                                                        "try it who solve it.")
    grade: int = Field(ge=1, le=10)
    grade_name: str = Field(description="The grade's name, as ThinkFun names its levels.")
    extrapolates: bool = Field(description="True for a puzzle unlike the study's 6x6 Rush "
                                           "Hour boards, or a feature outside its range.")
    outside: list[str] = Field(description="The features outside the study's range or missing.")
    features: dict[str, float | int | None] = Field(
        description="The features the model reads and the others it reports, by name.")


class LadderAnswer(BaseModel):
    name: str
    family: Literal["classics", "rush-hour", "bickford-4x4", "design", "klotski"]
    metric: Literal["unit", "slide", "step"] = Field(
        description="What one move is: the ladder holds the family's puzzles of this metric "
                    "only, as lengths in two metrics do not compare.")
    order: Literal["length", "difficulty"] = Field(
        description="What orders the ladder: fewest moves, or the predicted median time to "
                    "solve for a person (then fewest moves).")
    length: int | None = Field(description="The puzzle's fewest moves; null without a solution.")
    easier: Rung | None = Field(description="The family's puzzle of its metric next below it "
                                            "in the ladder's order (then by name); null at "
                                            "the bottom.")
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
class PuzzleQuery:
    """A puzzle as the query names it: the cache's key."""

    start: str
    goal: str | None
    metric: str | None
    rules: str | None
    position: str | None = None
    distinct: str | None = None


def puzzle_at_position(start: Start, goal: Goal = None, metric: MetricQuery = None,
                       rules: RulesQuery = None, position: Position = None,
                       distinct: Distinct = None) -> PuzzleQuery:
    """The puzzle a route's query names, at ``position`` if given (a FastAPI dependency: its
    parameters are the route's)."""
    return PuzzleQuery(start, goal, metric, rules, position, distinct)


def puzzle_at_start(start: Start, goal: Goal = None, metric: MetricQuery = None,
                    rules: RulesQuery = None, distinct: Distinct = None) -> PuzzleQuery:
    """The puzzle a route's query names, at its start (for answers about a whole cluster)."""
    return PuzzleQuery(start, goal, metric, rules, distinct=distinct)


AtPosition = Annotated[PuzzleQuery, Depends(puzzle_at_position)]
AtStart = Annotated[PuzzleQuery, Depends(puzzle_at_start)]


def _refuse_files(value: str, name: str) -> None:
    # load_puzzle reads a .toml path: a request must not make the server open its files.
    if value.strip().lower().endswith(".toml"):
        raise BadQuery(f"parameter {name!r}: {value!r}: files are not read over HTTP; send "
                       "the puzzle's board as grid text", value)


def load_puzzle(request: PuzzleQuery) -> Puzzle:
    """The puzzle ``request`` names, at its ``position`` if it names one; 400 when the
    engine refuses it."""
    from huarong.puzzles import PuzzleError, parse_state
    from huarong.puzzles import load_puzzle as load

    _refuse_files(request.start, "start")
    try:
        puzzle = load(request.start, request.goal, metric=request.metric,
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

def static_file(name: str) -> str:
    """The path of the web app's static file ``name``."""
    return str(resources.files("huarong.web") / "static" / name)
