"""One layout's facts under ``/api/layout`` and the level picker's list, ``/api/levels``."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query

from huarong.engine.layout import COLS, Layout
from huarong.space.stats import Levels
from huarong.web import schema
from huarong.web.errors import BadQuery, parse_layout
from huarong.web.schema import LayoutQuery, answers
from huarong.web.state import ServerState

LEVELS_PAGE_SIZE = 20
LEVELS_MAX_PAGE = 200


def _layout_json(layout: Layout) -> dict[str, Any]:
    return {
        "code": layout.code,
        "short_code": layout.short_code,
        "online_id": layout.online_id,
        "grid": layout.grid(""),
        "cells": [int(digit) for digit in layout.online_id],
        "pieces": [
            {"address": piece.address, "kind": piece.kind.name.lower(),
             "row": piece.address // COLS, "col": piece.address % COLS,
             "width": piece.kind.width, "height": piece.kind.height}
            for piece in layout.pieces
        ],
        "jiang": layout.jiang_num,
        "bing": layout.bing_num,
        "style": layout.style_num,
        "is_solved": layout.is_solved,
        "is_standard": layout.is_standard,
        "mirror_code": layout.mirror().code,
    }


def _database_row(layout: Layout, path: Path | None) -> dict[str, Any] | None:
    """The layout's row of the database (``path``, default ``$HUARONG_DB``: its group label,
    minimum steps, layer figures, mirror id; figures not computed yet are null), or None
    without one."""
    from huarong.space.database import Database, DatabaseError

    try:
        with Database.open(path) as database:
            return database.info(layout).to_dict()
    except DatabaseError:
        return None


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
    def layout_info(code: LayoutQuery) -> dict[str, Any]:
        layout = parse_layout(code, "code")
        return {**_layout_json(layout), "database": _database_row(layout, state.database)}

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
