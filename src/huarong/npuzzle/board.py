"""The sliding-tile board value type: parsing and formatting, moves, Cantor ranks,
inversions and solvability by parity."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

DIRECTIONS = "LURD"
"""The blank's moves in the seed's order: left, up, right, down."""

MAX_RANKED_CELLS = 20
"""20! - 1 is the largest Cantor rank that fits a signed 64-bit integer."""

MAX_TILE_DIGITS = 6
"""Longer numbers cannot be tiles of any board that fits in memory."""

_SEPARATORS = re.compile(r"[\s,;]+")
_ROW_BREAK = re.compile(r"\s*(?:/|\n)\s*")
_TILE_NUMBER = re.compile(rf"[0-9]{{1,{MAX_TILE_DIGITS}}}")
_QUOTED_LENGTH = 60


class NPuzzleError(ValueError):
    """Base of the errors this module raises about its input."""


class BoardFormatError(NPuzzleError):
    """The text or numbers given for a board do not describe one."""


class GoalMismatchError(NPuzzleError):
    """The board and the goal have different sizes."""


class UnsupportedBoardError(NPuzzleError):
    """The board is valid but too large for the requested computation."""


@dataclass(frozen=True)
class Board:
    """A ``rows x cols`` sliding-tile position; ``tiles`` in row order, ``0`` for the blank."""

    rows: int
    cols: int
    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.rows < 2 or self.cols < 2:
            raise BoardFormatError(
                f"board {self.rows}x{self.cols}: both sides must be at least 2")
        if len(self.tiles) != self.rows * self.cols:
            raise BoardFormatError(
                f"board {self.rows}x{self.cols} needs {self.rows * self.cols} numbers, "
                f"got {len(self.tiles)}: {_joined(self.tiles)}")
        if sorted(self.tiles) != list(range(len(self.tiles))):
            raise BoardFormatError(
                f"board {_joined(self.tiles)}: the numbers must be 0..{len(self.tiles) - 1} "
                f"each once (0 is the blank){_defect(self.tiles)}")

    @classmethod
    def parse(cls, text: str, *, rows: int | None = None, cols: int | None = None) -> Board:
        """Read ``"2 8 3 1 0 4 7 6 5"``, ``"2,8,3,..."``, or one row per line or per ``/``.

        A flat list must be square unless ``rows``/``cols`` say otherwise.
        """
        stripped = text.strip()
        if not stripped:
            raise BoardFormatError("board '': no numbers given")
        lines = [line for line in _ROW_BREAK.split(stripped) if line]
        grid = [[_tile_number(token, text) for token in _SEPARATORS.split(line) if token]
                for line in lines]
        numbers = tuple(n for line in grid for n in line)
        if len(grid) > 1:
            widths = {len(line) for line in grid}
            if len(widths) != 1:
                raise BoardFormatError(
                    f"board {_quoted(text)}: rows have different lengths {sorted(widths)}")
            found_rows, found_cols = len(grid), widths.pop()
            if (rows, cols) != (None, None) and (rows, cols) != (found_rows, found_cols):
                raise BoardFormatError(
                    f"board {_quoted(text)} is {found_rows}x{found_cols}, not {rows}x{cols}")
            return cls(found_rows, found_cols, numbers)
        rows, cols = _infer_size(text, len(numbers), rows, cols)
        return cls(rows, cols, numbers)

    @classmethod
    def solved(cls, rows: int = 3, cols: int = 3) -> Board:
        """``1 2 ... rows*cols-1`` then the blank: the usual goal."""
        cells = rows * cols
        return cls(rows, cols, (*range(1, cells), 0))

    @classmethod
    def seed_goal(cls) -> Board:
        """The seed's goal ``1 2 3 / 8 0 4 / 7 6 5``."""
        return cls(3, 3, (1, 2, 3, 8, 0, 4, 7, 6, 5))

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def blank(self) -> int:
        """The blank's cell index."""
        return self.tiles.index(0)

    @property
    def size(self) -> str:
        return f"{self.rows}x{self.cols}"

    def line(self) -> str:
        """All numbers on one line, the inverse of :meth:`parse` for square boards."""
        return _joined(self.tiles)

    def grid(self) -> str:
        """One row per line, numbers right-aligned, the inverse of :meth:`parse`."""
        width = len(str(self.cells - 1))
        rows = (self.tiles[r * self.cols:(r + 1) * self.cols] for r in range(self.rows))
        return "\n".join(" ".join(str(tile).rjust(width) for tile in row) for row in rows)

    def __str__(self) -> str:
        return self.grid()

    def moved(self, direction: str) -> Board:
        """The board after the blank moves one of ``L U R D``."""
        if direction not in DIRECTIONS or len(direction) != 1:
            raise BoardFormatError(f"move {direction!r}: must be one of L, U, R, D")
        target = _neighbour_cells(self.rows, self.cols)[self.blank][DIRECTIONS.index(direction)]
        if target < 0:
            raise BoardFormatError(
                f"move {direction!r}: the blank at row {self.blank // self.cols + 1}, "
                f"column {self.blank % self.cols + 1} cannot move that way")
        tiles = list(self.tiles)
        tiles[self.blank], tiles[target] = tiles[target], 0
        return Board(self.rows, self.cols, tuple(tiles))

    def successors(self) -> list[Board]:
        """Boards one move away, in the seed's order (blank left, up, right, down)."""
        return [self.moved(d) for d, target in
                zip(DIRECTIONS, _neighbour_cells(self.rows, self.cols)[self.blank], strict=True)
                if target >= 0]


def _quoted(text: str) -> str:
    """``repr`` of ``text``, cut short so that an error about a huge input stays one line."""
    if len(text) <= _QUOTED_LENGTH:
        return repr(text)
    return repr(text[:_QUOTED_LENGTH]) + f"... ({len(text):,} characters)"


def _tile_number(token: str, text: str) -> int:
    # ASCII digits only: int() would also take "+1", "1_0", other scripts' digits and numbers
    # of any length, and "²" counts as a digit but is no number.
    if not _TILE_NUMBER.fullmatch(token):
        reason = ("is too long to be a tile number" if token.isascii() and token.isdigit()
                  else "is not a whole number (ASCII digits only)")
        raise BoardFormatError(f"board {_quoted(text)}: {_quoted(token)} {reason}")
    return int(token)


def _joined(numbers: Iterable[int]) -> str:
    return " ".join(str(n) for n in numbers)


def _defect(numbers: Sequence[int]) -> str:
    seen: set[int] = set()
    for n in numbers:
        if n in seen:
            return f"; {n} appears twice"
        seen.add(n)
    missing = sorted(set(range(len(numbers))) - seen)
    return f"; {missing[0]} is missing" if missing else ""


def _infer_size(text: str, count: int, rows: int | None, cols: int | None) -> tuple[int, int]:
    if rows is None and cols is None:
        side = math.isqrt(count)
        if side * side != count:
            raise BoardFormatError(
                f"board {_quoted(text)}: {count} numbers do not make a square board; give the "
                f"size (e.g. 3x4) or one row per line")
        return side, side
    if rows is None:
        assert cols is not None
        rows = count // cols if cols > 0 and count % cols == 0 else -1
    if cols is None:
        cols = count // rows if rows > 0 and count % rows == 0 else -1
    if rows * cols != count:
        raise BoardFormatError(
            f"board {_quoted(text)}: {count} numbers do not fill {rows}x{cols}")
    return rows, cols


def parse_size(text: str) -> tuple[int, int]:
    """``"3x4"`` -> ``(3, 4)`` (rows, columns)."""
    match = re.fullmatch(r"\s*([0-9]{1,4})\s*[xX*×]\s*([0-9]{1,4})\s*", text)
    if not match:
        raise BoardFormatError(f"size {_quoted(text)}: write it as ROWSxCOLS, e.g. 3x3")
    rows, cols = int(match[1]), int(match[2])
    if rows < 2 or cols < 2:
        raise BoardFormatError(f"size {_quoted(text)}: both sides must be at least 2")
    return rows, cols


def parse_goal(text: str | None, rows: int = 3, cols: int = 3) -> Board:
    """A goal for a ``rows x cols`` board: ``None`` is the default (the seed's goal on 3x3,
    ``standard`` elsewhere), ``"standard"`` is ``1..N-1, 0``, ``"seed"`` the seed's goal,
    anything else is parsed as a board."""
    keyword = (text or "").strip().lower()
    if keyword == "":
        return Board.seed_goal() if (rows, cols) == (3, 3) else Board.solved(rows, cols)
    if keyword == "standard":
        return Board.solved(rows, cols)
    if keyword == "seed":
        if (rows, cols) != (3, 3):
            raise GoalMismatchError(f"goal 'seed' is the 3x3 goal 1 2 3 / 8 0 4 / 7 6 5, "
                                    f"but the board is {rows}x{cols}")
        return Board.seed_goal()
    assert text is not None
    return Board.parse(text, rows=rows, cols=cols)


def _check_same_size(goal: Board, rows: int, cols: int) -> None:
    if (goal.rows, goal.cols) != (rows, cols):
        raise GoalMismatchError(
            f"goal {goal.line()} is {goal.size} but the board is {rows}x{cols}")


# ---------------------------------------------------------------- ranks and solvability


def rank(board: Board) -> int:
    """Cantor rank (康托展开) of the board's permutation, ``0 .. cells! - 1``; exact for any
    size."""
    cells = board.cells
    total = 0
    for i, value in enumerate(board.tiles):
        smaller_later = sum(1 for later in board.tiles[i + 1:] if later < value)
        total += smaller_later * math.factorial(cells - 1 - i)
    return total


def unrank(number: int, rows: int = 3, cols: int = 3) -> Board:
    """The board whose Cantor rank is ``number`` (inverse of :func:`rank`)."""
    cells = rows * cols
    if not 0 <= number < math.factorial(cells):
        raise BoardFormatError(
            f"rank {number}: must lie in 0..{math.factorial(cells) - 1} for {rows}x{cols}")
    remaining = list(range(cells))
    tiles = []
    for i in range(cells):
        index, number = divmod(number, math.factorial(cells - 1 - i))
        tiles.append(remaining.pop(index))
    return Board(rows, cols, tuple(tiles))


def inversions(board: Board) -> int:
    """Pairs of tiles (blank excluded) that stand in the wrong order in row-major reading."""
    tiles = [t for t in board.tiles if t != 0]
    return sum(1 for i, a in enumerate(tiles) for b in tiles[i + 1:] if a > b)


def _parity_class(board: Board) -> int:
    # A vertical move carries one tile past cols - 1 others.  With odd width that changes the
    # inversion count by an even number; with even width by an odd one while the blank's row
    # changes by one, so their sum keeps its parity.
    invariant = inversions(board)
    if board.cols % 2 == 0:
        invariant += board.blank // board.cols
    return invariant % 2


def is_solvable(board: Board, goal: Board | None = None) -> bool:
    """Whether ``goal`` (default: :func:`parse_goal`'s default) can be reached from ``board``.

    Exact for every board of at least 2 x 2: the reachable positions are precisely those of
    the same parity class.
    """
    goal = goal if goal is not None else parse_goal(None, board.rows, board.cols)
    _check_same_size(goal, board.rows, board.cols)
    return _parity_class(board) == _parity_class(goal)


@functools.lru_cache(maxsize=64)
def _neighbour_cells(rows: int, cols: int) -> tuple[tuple[int, int, int, int], ...]:
    table = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        table.append((cell - 1 if c > 0 else -1, cell - cols if r > 0 else -1,
                      cell + 1 if c < cols - 1 else -1, cell + cols if r < rows - 1 else -1))
    return tuple(table)
