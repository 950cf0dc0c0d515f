"""huarong: an engine and database for Klotski (华容道) and sliding-tile puzzles."""

from huarong.layout import (
    InvalidCodeError,
    InvalidGridError,
    InvalidOnlineIdError,
    Layout,
    LayoutError,
    Piece,
    PieceKind,
)
from huarong.solver import NotInGroupError, Solution, children, group, shortest_path, solve

__all__ = [
    "InvalidCodeError",
    "InvalidGridError",
    "InvalidOnlineIdError",
    "Layout",
    "LayoutError",
    "NotInGroupError",
    "Piece",
    "PieceKind",
    "Solution",
    "children",
    "group",
    "shortest_path",
    "solve",
]
