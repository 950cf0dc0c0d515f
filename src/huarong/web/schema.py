"""The API's OpenAPI contract: the one error body, the documentation of the statuses a route can
answer, and the pattern of a layout parameter.

A route documents its errors with ``responses=error_responses(404, 503)``; :func:`contract`
makes the schema match the server for every route, those of included routers too: the server
answers a query it cannot read with 400 (not FastAPI's 422), so each route with parameters
documents 400 instead of FastAPI's validation error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query
from fastapi import Path as PathParameter
from pydantic import BaseModel, Field, WithJsonSchema, create_model

LONGEST_INPUT = 200
"""The longest value of a layout parameter (a grid with spaces between its cells fits)."""

_GLYPH = r"[^ \t\r\n/|]"
_ROW = rf"(?:{_GLYPH}[ \t\r]*){{4}}"
_AROUND = r"[ \t\r\n]*"
# A common code, trailing zeros optional: its first digit is where the 2x2 piece stands.
_COMMON_CODE = r"(?:0[xX])?[01245689ACDEacde][0-9A-Fa-f]{0,8}"
_SHORT_CODE = r"@?[1-9A-HJKMNP-Za-hjkmnp-z]{5}"  # ``@`` marks it where it reads both ways
_ONLINE_ID = r"[0-4]{20}"
_GRID = rf"[ \t\r\n/]*{_ROW}(?:[\n/][ \t\r\n/]*{_ROW}){{4}}[ \t\r\n/]*"  # 5 rows of 4
LAYOUT_PATTERN = rf"^{_AROUND}(?:{_COMMON_CODE}|{_SHORT_CODE}|{_ONLINE_ID}|{_GRID}){_AROUND}$"
"""What a layout parameter looks like, blanks around it allowed: a common code
(``1A9BF0C00``, or ``1A9BF0C``), a short code (``4WVE1``, or ``@1A9BF`` where five characters
read both ways), a klotski.online id (``24422442233221121001``) or a grid of 5 rows of 4
cells, rows on lines or separated by ``/``.  A value of this shape may still name no legal
layout (its pieces overlap or stick out): the server answers 400 for it, which no pattern can
foresee."""

PATH_LAYOUT_PATTERN = rf"^(?:{_COMMON_CODE}|{_SHORT_CODE}|{_ONLINE_ID})$"
"""A layout in a URL path: as :data:`LAYOUT_PATTERN` but for a grid (its ``/``) and blanks."""

GroupCode = Annotated[str, PathParameter(pattern=PATH_LAYOUT_PATTERN, max_length=23,
                                         description="any layout of the group: common "
                                         "code, short code or klotski.online id")]
"""A layout in a URL path, standing for its group."""

LAYOUT_DESCRIPTION = ("A layout: a common code (1-9 hex digits, trailing zeros optional), a "
                      "5-character short code, a 20-digit klotski.online id, or a grid of 5 "
                      "rows of 4 cells (rows on lines or separated by '/').")
LAYOUT_EXAMPLES = ["1A9BF0C00", "24422442233221121001", "SSCC/HHCC/HHHH/HHHH/..SS"]
"""横刀立马 by its common code and its klotski.online id, and 前呼后拥 as a grid."""

LayoutQuery = Annotated[str, Query(min_length=1, max_length=LONGEST_INPUT, pattern=LAYOUT_PATTERN,
                                   description=LAYOUT_DESCRIPTION, examples=LAYOUT_EXAMPLES)]
"""A query parameter naming a layout."""


Code = Annotated[str, Field(pattern=r"^[0-9A-F]{9}$", description="A common code.")]
PieceKindName = Literal["cao", "horizontal", "vertical", "soldier"]


class ClusterCounts(BaseModel):
    """What every answer about a whole cluster starts with (a puzzle's cluster, a search
    file's row)."""

    states: int = Field(description="The positions of the cluster: every one reachable from "
                                    "any other.")
    solved: int = Field(description="How many of them are goals.")


class Move(BaseModel):
    """One step: the piece at cell ``from`` (its top-left, 0-19 in reading order) goes so that
    its top-left is at ``to``."""

    from_: int = Field(alias="from", ge=0, le=19)
    to: int = Field(ge=0, le=19)
    kind: PieceKindName


class PieceOnBoard(BaseModel):
    address: int = Field(ge=0, le=19)
    kind: PieceKindName
    row: int = Field(ge=0, le=4)
    col: int = Field(ge=0, le=3)
    width: int = Field(ge=1, le=2)
    height: int = Field(ge=1, le=2)


def _database_row() -> dict[str, Any]:
    """The JSON schema of a layout's row of the database, as ``LayoutRecord.to_dict`` writes
    it: the record's fields, its layout as ``code``, and its ``label``."""
    from dataclasses import fields
    from typing import get_type_hints

    from huarong.space.database import LayoutRecord

    types = get_type_hints(LayoutRecord)
    columns: dict[str, Any] = {"code": (Code, ...), "label": (str, ...)}
    columns.update((field.name, (types[field.name], ...)) for field in fields(LayoutRecord)
                   if field.name != "layout")
    row = create_model("DatabaseRow", **columns)
    return {**row.model_json_schema(), "description": "The layout's row of the database; "
            "figures not computed yet are null."}


class LayoutAnswer(BaseModel):
    code: Code
    short_code: str = Field(pattern=r"^[1-9A-HJKMNP-Z]{5}$",
                            description="The klotski engine's short code.")
    online_id: str = Field(pattern=r"^[0-4]{20}$")
    grid: str
    cells: list[int]
    pieces: list[PieceOnBoard]
    jiang: int
    bing: int
    style: int
    is_solved: bool
    is_standard: bool
    mirror_code: Code
    database: Annotated[dict[str, Any] | None, WithJsonSchema(
        {"anyOf": [_database_row(), {"type": "null"}]})] = Field(
        description="Null without a database.")


class PathAnswer(BaseModel):
    path: list[Code] = Field(description="Every layout from the first to the last.")
    moves: list[Move] = Field(description="The step between each layout and the next.")


class SolveAnswer(PathAnswer):
    code: Code
    solvable: bool
    steps: int | None = Field(description="Null without a solution.")
    solution: str = Field(description="The path in klotski.online's solution string.")


class Analysis(BaseModel):
    code: Code
    group_size: int
    min_steps: int | None
    farthest_steps: int
    farthest_count: int
    farthest_sample: list[Code]
    layer_sizes: list[int]
    solution_count: int
    min_step_solutions: list[Code]


class PathBetween(PathAnswer):
    start: Code
    target: Code
    steps: int


class Child(BaseModel):
    code: Code
    short_code: str = Field(pattern=r"^[1-9A-HJKMNP-Z]{5}$",
                            description="The klotski engine's short code.")
    min_steps: int | None = Field(description="The minimum steps left after this step; null "
                                              "when no goal can be reached.")
    verdict: Literal["better", "same", "worse"] | None = Field(
        description="better: one step closer to a goal; same: as far as before; worse: one "
                    "step farther; null in a group without a goal.")
    move: Move


class NextSteps(BaseModel):
    code: Code
    short_code: str = Field(pattern=r"^[1-9A-HJKMNP-Z]{5}$",
                            description="The klotski engine's short code.")
    min_steps: int | None = Field(description="Null when no goal can be reached.")
    children: list[Child]
    best: list[Code] = Field(description="The children one step closer to a goal.")


class Classic(BaseModel):
    name: str
    name_en: str
    code: Code
    grid: str
    min_steps: int | None = Field(description="Null for a classic that has no solution.")


class Level(BaseModel):
    code: Code
    min_steps: int


class LevelsPage(BaseModel):
    total: int
    offset: int
    limit: int
    levels: list[Level]


class OnlineSolution(BaseModel):
    """klotski.online's answer."""

    id: str = Field(pattern=r"^[0-4]{20}$")
    mirror: Literal["0", "1"]
    solution: str


class ErrorBody(BaseModel):
    """Every error's answer."""

    error: str = Field(description="What is wrong, on one line, naming the input.")
    input: str = Field(description="The value refused (the path for an unknown address).")


class Working(BaseModel):
    """A heavy answer still being made: ask ``location`` again after ``retry_after`` s."""

    status: Literal["working"]
    location: str = Field(description="Where to ask again: the same address.")
    retry_after: int = Field(description="Seconds to wait before asking again.")


class AnswerCache(BaseModel):
    directory: str
    entries: int
    bytes: int
    limit: int


class Health(BaseModel):
    """What ``huarong serve`` holds."""

    ready: bool = Field(description="The workers for heavy answers are up.")
    database: str | None = Field(description="The database the light answers read; null "
                                             "without one.")
    min_steps_table: str | None = Field(description="The table of minimum steps beside it.")
    figures_file: str | None = Field(description="The figures file beside it, from which a "
                                                  "layout's row is read; null: from the "
                                                  "database.")
    workers: int = Field(description="Server workers: the processes that make group- and "
                                     "cluster-sized answers.")
    jobs: int = Field(description="Heavy answers being made or waiting.")
    started: int = Field(description="Heavy answers handed to the workers since the start.")
    hits: int = Field(description="Heavy answers read from the cache since the start.")
    cancelled: int = Field(description="Jobs stopped because their client went away.")
    cache: AnswerCache | None = Field(description="The answer cache; null when its "
                                                  "directory cannot be used.")
    cache_fault: str | None


RETRY_AFTER = "Retry-After"

_MEANINGS = {
    400: "A bad query: a parameter is missing, malformed or names no legal layout.",
    404: "Not found: no database is built, or no such address.",
    405: "The method is not allowed on this address.",
    422: "The layout's group is larger than the server searches (huarong serve "
         "--max-group-size).",
    503: "The server is busy (its workers have too much waiting, or another program holds the "
         "database): try again after Retry-After seconds.",
}
_WORKING = ("Still working: the answer takes longer than the server waits (huarong serve "
            "--answer-seconds); the work goes on, and the same address answers it once done.")
_RETRY_HEADER = {"description": "Seconds to wait before asking again.", "required": True,
                 "schema": {"type": "string", "pattern": "^[0-9]+$"}}


def error_responses(*statuses: int, **meanings: str) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route for the error ``statuses`` it can answer, each with the
    :class:`ErrorBody`; ``meanings`` (``e404="..."``) replace the standard description.
    Status 202 is a heavy answer's "still working" (:class:`Working`)."""
    responses: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        if status == 202:
            responses[status] = {"model": Working, "description": _WORKING, "headers": {
                RETRY_AFTER: _RETRY_HEADER,
                "Location": {"description": "Where to ask again.", "required": True,
                             "schema": {"type": "string"}}}}
            continue
        response: dict[str, Any] = {
            "model": ErrorBody,
            "description": meanings.get(f"e{status}", _MEANINGS.get(status, "An error.")),
        }
        if status == 503:
            response["headers"] = {RETRY_AFTER: _RETRY_HEADER}
        responses[status] = response
    return responses


def answers(body: Any, *statuses: int, **meanings: str) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route answering ``body`` (a model, or ``list[Model]``) with 200
    and the error ``statuses`` (see :func:`error_responses`).  Give the route
    ``response_model=None`` too: the model documents the answer without filtering it."""
    return {200: {"model": body, "description": "The answer."},
            **error_responses(*statuses, **meanings)}


_VALIDATION_SCHEMAS = ("HTTPValidationError", "ValidationError")
_ERROR_REF = f"#/components/schemas/{ErrorBody.__name__}"


def _is_validation_error(response: dict[str, Any]) -> bool:
    schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    return bool(schema.get("$ref", "").endswith("/HTTPValidationError"))


def contract(app: FastAPI) -> None:
    """Make ``app``'s OpenAPI schema say what the server answers: FastAPI documents a 422
    validation error on every route with parameters, where this server answers 400 with the
    :class:`ErrorBody`."""
    build: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = build()
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                responses = operation.get("responses", {})
                if not _is_validation_error(responses.get("422", {})):
                    continue
                del responses["422"]
                responses.setdefault("400", {
                    "description": _MEANINGS[400],
                    "content": {"application/json": {"schema": {"$ref": _ERROR_REF}}}})
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for name in _VALIDATION_SCHEMAS:
            components.pop(name, None)
        components.setdefault(ErrorBody.__name__, ErrorBody.model_json_schema())
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
