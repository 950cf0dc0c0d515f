"""huarong: an engine and database for Klotski (华容道) and sliding-tile puzzles."""

from importlib.metadata import PackageNotFoundError, version

from huarong.engine.layout import (
    AmbiguousLayoutError,
    InvalidCodeError,
    InvalidGridError,
    InvalidOnlineIdError,
    InvalidShortCodeError,
    Layout,
    LayoutError,
    Piece,
    PieceKind,
)
from huarong.engine.solver import NotInGroupError, Solution, children, group, shortest_path, solve
from huarong.space.table import MinStepsTable, TableError

try:
    __version__ = version("huarong")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "AmbiguousLayoutError",
    "InvalidCodeError",
    "InvalidGridError",
    "InvalidOnlineIdError",
    "InvalidShortCodeError",
    "Layout",
    "LayoutError",
    "MinStepsTable",
    "NotInGroupError",
    "Piece",
    "PieceKind",
    "Solution",
    "TableError",
    "children",
    "group",
    "shortest_path",
    "solve",
]
