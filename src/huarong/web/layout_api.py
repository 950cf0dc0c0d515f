"""One layout's facts under ``/api/layout`` and the level picker's list, ``/api/levels``."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from huarong.engine.layout import COLS, Layout, Piece, PieceKind
from huarong.space.stats import Levels
from huarong.web import schema
from huarong.web.errors import BadQuery, parse_layout
from huarong.web.schema import LayoutQuery, answers
from huarong.web.state import ServerState

LEVELS_PAGE_SIZE = 20
LEVELS_MAX_PAGE = 200


# An enum's properties cost a third of a microsecond each, and a layout has up to 15 pieces.
_KIND_FIELDS = {kind: (kind.name.lower(), kind.width, kind.height) for kind in PieceKind}


def _piece_json(piece: Piece) -> dict[str, Any]:
    name, width, height = _KIND_FIELDS[piece.kind]
    row, col = divmod(piece.address, COLS)
    return {"address": piece.address, "kind": name, "row": row, "col": col, "width": width,
            "height": height}


def _layout_json(layout: Layout) -> dict[str, Any]:
    online_id = layout.online_id
    return {
        "code": layout.code,
        "short_code": layout.short_code,
        "online_id": online_id,
        "grid": layout.grid(""),
        "cells": [int(digit) for digit in online_id],
        "pieces": [_piece_json(piece) for piece in layout.pieces],
        "jiang": layout.jiang_num,
        "bing": layout.bing_num,
        "style": layout.style_num,
        "is_solved": layout.is_solved,
        "is_standard": layout.is_standard,
        "mirror_code": layout.mirror().code,
    }


class _LevelList:
    """The level picker's list, read from the database once, on first use."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._levels: Levels | None = None
        self._lock = threading.Lock()

    def get(self) -> Levels:
        from huarong.space.database import Database, DatabaseError
        from huarong.space.stats import STANDARD_BING, STANDARD_JIANG, standard_levels

        with self._lock:
            if self._levels is None:
                try:
                    with Database.open(self._path) as database:
                        rows = database.query(
                            "SELECT code, coalesce(min_steps, -1) FROM layouts "
                            f"WHERE jiang = {STANDARD_JIANG} AND bing = {STANDARD_BING}").rows
                except DatabaseError as error:
                    raise BadQuery(str(error), "", 404) from None
                codes = [row[0] for row in rows]
                self._levels = standard_levels(codes, [row[1] for row in rows])
            return self._levels


def layout_router(state: ServerState) -> APIRouter:
    """One layout's facts and the levels, from ``state``'s database."""
    router = APIRouter(prefix="/api")
    level_list = _LevelList(state.database)

    @router.get("/layout", summary="Everything about one layout", response_model=None,
                responses=answers(schema.LayoutAnswer, 400))
    async def layout_info(code: LayoutQuery) -> JSONResponse:
        layout = parse_layout(code, "code")
        # A response is sent as it is: FastAPI's jsonable_encoder took 0.15 ms to walk it.
        # On the event loop, not in a thread: the row takes under a millisecond, and a thread
        # waited for a core behind the clients (p50 10 ms on 2 cores, against 4 ms).
        return JSONResponse({**_layout_json(layout),
                             "database": state.shared_database.row(layout)})

    @router.get("/levels", summary="The 121,285 game layouts by minimum steps (database)",
                response_model=None,
                responses=answers(schema.LevelsPage, 400, 404, e404="No database is built."))
    def levels(
        offset: Annotated[int, Query(ge=0)] = 0,
        limit: Annotated[int, Query(ge=1, le=LEVELS_MAX_PAGE)] = LEVELS_PAGE_SIZE,
        min_steps: Annotated[int | None, Query(ge=0)] = None,
    ) -> dict[str, Any]:
        """A page of the standard layouts worth playing: solvable, not solved, one of each
        mirror pair, ordered by minimum steps then code.  ``min_steps`` starts the page at the
        first level with at least that many.  404 when no database is built."""
        table = level_list.get()
        first = table.first_with(min_steps) if min_steps is not None else offset
        page = slice(first, first + limit)
        return {"total": len(table), "offset": first, "limit": limit,
                "levels": [{"code": f"{code:09X}", "min_steps": steps} for code, steps in zip(
                    table.codes[page].tolist(), table.min_steps[page].tolist(), strict=True)]}

    return router
