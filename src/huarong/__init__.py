"""huarong: an engine and database for Klotski (华容道) and sliding-tile puzzles."""

from importlib.metadata import PackageNotFoundError, version

from huarong.engine.layout import (
    InvalidCodeError,
    InvalidGridError,
    InvalidOnlineIdError,
    Layout,
    LayoutError,
    Piece,
    PieceKind,
)
from huarong.engine.solver import NotInGroupError, Solution, children, group, shortest_path, solve

try:
    __version__ = version("huarong")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"

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
