"""The 8-puzzle (重排九宫) and N x M sliding-tile puzzles: boards, solvability, Cantor ranks,
eight search algorithms, additive pattern databases for the 15-puzzle, state-space facts.

A :class:`Board` is an immutable value: ``rows x cols`` cells in row order, ``0`` the blank.
Every search goes through :func:`solve`, which checks solvability by inversion parity first
(an unsolvable board is answered at once, never searched) and returns a frozen
:class:`SolveResult`.  The hot loops live in :mod:`huarong._kernels.npuzzle` and are imported
only when a search runs, so importing this module does not load numba.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import math
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

Progress = Callable[[int, int], None]
"""Called with (done, total) while a long computation runs."""

IntArray = npt.NDArray[np.int64]
ByteArray = npt.NDArray[np.uint8]

DIRECTIONS = "LURD"
"""The blank's moves in the seed's order: left, up, right, down."""

DEFAULT_DEPTH_BOUND = 10
"""The seed program's depth bound for DFS."""

MEMORY_NODE_LIMIT = 10_000_000
"""Default cap on stored states for the searches that keep every state (about 400 MB)."""

TIME_NODE_LIMIT = 1_000_000_000
"""Default cap on expansions for IDDFS and IDA* without a pattern database."""

MAX_RANKED_CELLS = 20
"""20! - 1 is the largest Cantor rank that fits a signed 64-bit integer."""

MAX_SPACE_CELLS = 10
"""Boards up to this many cells (10!/2 = 1,814,400 states) can be enumerated."""

MAX_PATTERN_CELLS = 16
"""Pattern databases index cells in 4 bits."""

_SEPARATORS = re.compile(r"[\s,;]+")
_ROW_BREAK = re.compile(r"\s*(?:/|\n)\s*")


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
        try:
            grid = [[int(token) for token in _SEPARATORS.split(line) if token]
                    for line in lines]
        except ValueError:
            bad = next(token for token in _SEPARATORS.split(stripped.replace("/", " "))
                       if token and not token.lstrip("-").isdigit())
            raise BoardFormatError(
                f"board {text!r}: {bad!r} is not a whole number") from None
        numbers = tuple(n for line in grid for n in line)
        if len(grid) > 1:
            widths = {len(line) for line in grid}
            if len(widths) != 1:
                raise BoardFormatError(
                    f"board {text!r}: rows have different lengths {sorted(widths)}")
            found_rows, found_cols = len(grid), widths.pop()
            if (rows, cols) != (None, None) and (rows, cols) != (found_rows, found_cols):
                raise BoardFormatError(
                    f"board {text!r} is {found_rows}x{found_cols}, not {rows}x{cols}")
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
                f"board {text!r}: {count} numbers do not make a square board; give the size "
                f"(e.g. 3x4) or one row per line")
        return side, side
    if rows is None:
        assert cols is not None
        rows = count // cols if cols > 0 and count % cols == 0 else -1
    if cols is None:
        cols = count // rows if rows > 0 and count % rows == 0 else -1
    if rows * cols != count:
        raise BoardFormatError(f"board {text!r}: {count} numbers do not fill {rows}x{cols}")
    return rows, cols


def parse_size(text: str) -> tuple[int, int]:
    """``"3x4"`` -> ``(3, 4)`` (rows, columns)."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX*×]\s*(\d+)\s*", text)
    if not match:
        raise BoardFormatError(f"size {text!r}: write it as ROWSxCOLS, e.g. 3x3")
    rows, cols = int(match[1]), int(match[2])
    if rows < 2 or cols < 2:
        raise BoardFormatError(f"size {text!r}: both sides must be at least 2")
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


# ---------------------------------------------------------------- results


class Algorithm(enum.Enum):
    """The search algorithms; the value is the command-line spelling."""

    BFS = "bfs"
    DFS = "dfs"
    IDDFS = "iddfs"
    ASTAR_MISPLACED = "astar-misplaced"
    ASTAR_MANHATTAN = "astar-manhattan"
    ASTAR_LINEAR = "astar-linear"
    IDASTAR = "idastar"
    BIBFS = "bibfs"
    PDB = "pdb"

    @property
    def optimal(self) -> bool:
        """Whether a solution found is a shortest one (all but the bounded DFS)."""
        return self is not Algorithm.DFS

    @property
    def title(self) -> str:
        return _TITLES[self]


_TITLES = {
    Algorithm.BFS: "BFS",
    Algorithm.DFS: "DFS (bounded, as in the seed)",
    Algorithm.IDDFS: "Iterative-deepening DFS",
    Algorithm.ASTAR_MISPLACED: "A* (misplaced tiles)",
    Algorithm.ASTAR_MANHATTAN: "A* (Manhattan)",
    Algorithm.ASTAR_LINEAR: "A* (Manhattan + linear conflict)",
    Algorithm.IDASTAR: "IDA* (Manhattan + linear conflict)",
    Algorithm.BIBFS: "Bidirectional BFS",
    Algorithm.PDB: "IDA* (additive pattern database)",
}


class Outcome(enum.Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    NOT_FOUND = "not found within the depth bound"
    LIMIT_REACHED = "node limit reached"


@dataclass(frozen=True)
class SolveResult:
    """What a search found and what it cost.

    ``path`` runs from the start to the goal inclusive (empty unless solved);
    ``nodes_expanded`` counts states whose successors were generated; ``peak_frontier`` is the
    largest open list (BFS queue, A* open entries, both BFS layers, DFS/IDA* stack depth);
    ``seconds`` is the search's wall time, compilation excluded.
    """

    algorithm: Algorithm
    outcome: Outcome
    start: Board
    goal: Board
    path: tuple[Board, ...]
    nodes_expanded: int
    peak_frontier: int
    seconds: float

    @property
    def solved(self) -> bool:
        return self.outcome is Outcome.SOLVED

    @property
    def steps(self) -> int | None:
        return len(self.path) - 1 if self.solved else None

    @property
    def moves(self) -> str:
        """The blank's moves as letters ``L U R D``."""
        letters = []
        for before, after in zip(self.path, self.path[1:], strict=False):
            delta = after.blank - before.blank
            letters.append({-1: "L", -before.cols: "U", 1: "R", before.cols: "D"}[delta])
        return "".join(letters)


@dataclass(frozen=True)
class StateSpace:
    """Every position reachable from ``goal``, counted by distance to it."""

    goal: Board
    reachable: int
    histogram: tuple[int, ...]
    farthest: tuple[Board, ...]

    @property
    def max_distance(self) -> int:
        return len(self.histogram) - 1


# ---------------------------------------------------------------- kernel plumbing


def _kernels() -> ModuleType:
    from huarong._kernels import npuzzle as kernels

    return kernels


@functools.lru_cache(maxsize=64)
def _neighbour_cells(rows: int, cols: int) -> tuple[tuple[int, int, int, int], ...]:
    table = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        table.append((cell - 1 if c > 0 else -1, cell - cols if r > 0 else -1,
                      cell + 1 if c < cols - 1 else -1, cell + cols if r < rows - 1 else -1))
    return tuple(table)


@dataclass(frozen=True)
class _Geometry:
    """Everything the kernels need about a board size and goal, as fixed-dtype arrays."""

    rows: int
    cols: int
    neighbours: IntArray
    factorials: IntArray
    goal_cell_of_tile: IntArray
    distance: IntArray
    mirror_tile: IntArray
    mirror_cell: IntArray

    def tables(self, patterns: PatternDatabase | None = None) -> tuple[Any, ...]:
        if patterns is None:
            cells = self.rows * self.cols
            return (self.goal_cell_of_tile, self.distance, np.full(cells, -1, np.int64),
                    np.zeros(cells, np.int64), np.zeros(1, np.uint8), np.zeros(0, np.int64),
                    self.mirror_tile, self.mirror_cell)
        return (self.goal_cell_of_tile, self.distance, patterns.group_of_tile,
                patterns.slot_of_tile, patterns.values, patterns.offsets, self.mirror_tile,
                self.mirror_cell)


def _diagonal_mirror(goal: Board) -> tuple[IntArray, IntArray]:
    """Tile relabelling and cell map of the reflection about the main diagonal, when it maps
    the goal onto itself (square board, blank's goal on the diagonal); else empty arrays."""
    side = goal.rows
    if goal.rows != goal.cols or goal.blank // side != goal.blank % side:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    mirror_cell = np.array([(c % side) * side + c // side for c in range(goal.cells)],
                           dtype=np.int64)
    mirror_tile = np.empty(goal.cells, np.int64)
    for cell, tile in enumerate(goal.tiles):
        mirror_tile[tile] = goal.tiles[mirror_cell[cell]]
    return mirror_tile, mirror_cell


@functools.lru_cache(maxsize=16)
def _geometry(goal: Board) -> _Geometry:
    cells = goal.cells
    goal_cell_of_tile = np.empty(cells, np.int64)
    for cell, tile in enumerate(goal.tiles):
        goal_cell_of_tile[tile] = cell
    distance = np.zeros((cells, cells), np.int64)
    for tile in range(1, cells):
        goal_row, goal_col = divmod(int(goal_cell_of_tile[tile]), goal.cols)
        for cell in range(cells):
            row, col = divmod(cell, goal.cols)
            distance[tile, cell] = abs(row - goal_row) + abs(col - goal_col)
    factorials = np.array([math.factorial(i) for i in range(min(cells, MAX_RANKED_CELLS) + 1)],
                          dtype=np.int64)
    return _Geometry(goal.rows, goal.cols,
                     np.array(_neighbour_cells(goal.rows, goal.cols), dtype=np.int64),
                     factorials, goal_cell_of_tile, distance, *_diagonal_mirror(goal))


def _board_array(board: Board) -> IntArray:
    return np.array(board.tiles, dtype=np.int64)


def _require_ranked(board: Board, algorithm: Algorithm) -> None:
    if board.cells > MAX_RANKED_CELLS:
        raise UnsupportedBoardError(
            f"board {board.size}: {algorithm.value} keys states by Cantor rank, which fits 64 "
            f"bits only up to {MAX_RANKED_CELLS} cells; use idastar")


def _path_from_keys(keys: IntArray, rows: int, cols: int) -> tuple[Board, ...]:
    return tuple(unrank(int(key), rows, cols) for key in keys)


def _path_from_moves(start: Board, directions: Iterable[int]) -> tuple[Board, ...]:
    path = [start]
    for direction in directions:
        path.append(path[-1].moved(DIRECTIONS[int(direction)]))
    return tuple(path)


_OUTCOME_OF_STATUS = {0: Outcome.SOLVED, 1: Outcome.NOT_FOUND, 2: Outcome.LIMIT_REACHED}
_HEURISTIC_OF = {
    Algorithm.ASTAR_MISPLACED: 1, Algorithm.ASTAR_MANHATTAN: 2, Algorithm.ASTAR_LINEAR: 3,
    Algorithm.IDDFS: 0, Algorithm.IDASTAR: 3, Algorithm.PDB: 4,
}


@dataclass(frozen=True)
class _Search:
    outcome: Outcome
    path: tuple[Board, ...]
    expanded: int
    peak: int


def _run_bfs(start: Board, goal: Board, geometry: _Geometry, max_nodes: int) -> _Search:
    status, keys, parents, _, _, expanded, peak, goal_node = _kernels().breadth_first(
        rank(start), rank(goal), start.cells, geometry.neighbours, geometry.factorials,
        max_nodes)
    if status != 0:
        return _Search(_OUTCOME_OF_STATUS[status], (), int(expanded), int(peak))
    chain = []
    node = int(goal_node)
    while node != -1:
        chain.append(int(keys[node]))
        node = int(parents[node])
    path = _path_from_keys(np.array(chain[::-1], dtype=np.int64), start.rows, start.cols)
    return _Search(Outcome.SOLVED, path, int(expanded), int(peak))


def _run_keyed(kernel_name: str, start: Board, goal: Board, geometry: _Geometry,
               *extra: Any) -> _Search:
    status, keys, expanded, peak = getattr(_kernels(), kernel_name)(
        rank(start), rank(goal), start.cells, geometry.neighbours, geometry.factorials, *extra)
    path = _path_from_keys(keys, start.rows, start.cols) if status == 0 else ()
    return _Search(_OUTCOME_OF_STATUS[int(status)], path, int(expanded), int(peak))


def _run_iterative_deepening(start: Board, heuristic_kind: int, geometry: _Geometry,
                             tables: tuple[Any, ...], max_nodes: int) -> _Search:
    kernels = _kernels()
    board = _board_array(start)
    bound = int(kernels.heuristic(board, heuristic_kind, tables, geometry.rows, geometry.cols))
    expanded = 0
    deepest = 0
    while True:
        moves = np.zeros(bound + 2, np.int64)
        status, length, next_bound, done, depth = kernels.ida_star_iteration(
            board.copy(), geometry.neighbours, heuristic_kind, tables, geometry.rows,
            geometry.cols, bound, max_nodes - expanded, moves)
        expanded += int(done)
        deepest = max(deepest, int(depth))
        if status == 0:
            return _Search(Outcome.SOLVED, _path_from_moves(start, moves[:length]), expanded,
                           deepest + 1)
        if status == 2 or next_bound < 0:
            return _Search(Outcome.LIMIT_REACHED if status == 2 else Outcome.NOT_FOUND, (),
                           expanded, deepest + 1)
        bound = int(next_bound)


def _search(algorithm: Algorithm, start: Board, goal: Board, depth_bound: int,
            max_nodes: int, progress: Progress | None) -> _Search:
    geometry = _geometry(goal)
    if algorithm is Algorithm.BFS:
        return _run_bfs(start, goal, geometry, max_nodes)
    if algorithm is Algorithm.BIBFS:
        return _run_keyed("bidirectional_breadth_first", start, goal, geometry, max_nodes)
    if algorithm is Algorithm.DFS:
        return _run_keyed("bounded_depth_first", start, goal, geometry, depth_bound, max_nodes)
    kind = _HEURISTIC_OF[algorithm]
    if algorithm in (Algorithm.ASTAR_MISPLACED, Algorithm.ASTAR_MANHATTAN,
                     Algorithm.ASTAR_LINEAR):
        return _run_keyed("a_star", start, goal, geometry, kind, geometry.tables(),
                          start.rows, start.cols, max_nodes)
    patterns = pattern_database(goal, progress=progress) if algorithm is Algorithm.PDB else None
    return _run_iterative_deepening(start, kind, geometry, geometry.tables(patterns), max_nodes)


_warmed: set[Algorithm] = set()


def _warm_up(algorithm: Algorithm) -> None:
    # Compile (or load from numba's cache) on a one-move 2x2 puzzle so that the timing of the
    # real search measures searching only.  Every kernel is compiled for one signature.
    if algorithm in _warmed:
        return
    goal = Board.solved(2, 2)
    start = goal.moved("L")
    if algorithm is Algorithm.PDB:
        uninformed = PatternDatabase(goal, ((1, 2, 3),), np.array([-1, 0, 0, 0], np.int64),
                                     np.array([0, 0, 1, 2], np.int64),
                                     np.zeros(16**3, np.uint8), np.zeros(1, np.int64))
        _run_iterative_deepening(start, 4, _geometry(goal), _geometry(goal).tables(uninformed),
                                 10)
    else:
        _search(algorithm, start, goal, 1, 10, None)
    _warmed.add(algorithm)


def _default_limit(algorithm: Algorithm) -> int:
    if algorithm is Algorithm.PDB:
        return 2**62
    if algorithm in (Algorithm.IDDFS, Algorithm.IDASTAR):
        return TIME_NODE_LIMIT
    return MEMORY_NODE_LIMIT


def solve(
    board: Board,
    goal: Board | None = None,
    algorithm: Algorithm | str = Algorithm.ASTAR_LINEAR,
    *,
    depth_bound: int = DEFAULT_DEPTH_BOUND,
    max_nodes: int | None = None,
    progress: Progress | None = None,
) -> SolveResult:
    """Search a path from ``board`` to ``goal`` (default: :func:`parse_goal`'s default).

    ``depth_bound`` applies to the bounded DFS only; ``max_nodes`` caps stored states (BFS,
    bidirectional BFS, A*, DFS) or expansions (IDDFS, IDA*), with defaults that keep memory
    and time reasonable; ``progress`` follows a first-use pattern-database build.  An
    unsolvable board returns at once with :attr:`Outcome.UNSOLVABLE`.
    """
    goal = goal if goal is not None else parse_goal(None, board.rows, board.cols)
    _check_same_size(goal, board.rows, board.cols)
    try:
        chosen = Algorithm(algorithm)
    except ValueError:
        names = ", ".join(a.value for a in Algorithm)
        raise NPuzzleError(f"algorithm {algorithm!r}: must be one of {names}") from None
    if depth_bound < 0:
        raise NPuzzleError(f"depth bound {depth_bound}: must not be negative")
    if max_nodes is not None and max_nodes < 1:
        raise NPuzzleError(f"node limit {max_nodes}: must be at least 1")
    if chosen in (Algorithm.BFS, Algorithm.BIBFS, Algorithm.DFS, Algorithm.ASTAR_MISPLACED,
                  Algorithm.ASTAR_MANHATTAN, Algorithm.ASTAR_LINEAR):
        _require_ranked(board, chosen)
    if chosen is Algorithm.PDB and board.cells > MAX_PATTERN_CELLS:
        raise UnsupportedBoardError(
            f"board {board.size}: pattern databases cover boards of up to "
            f"{MAX_PATTERN_CELLS} cells; use idastar")
    if not is_solvable(board, goal):
        return SolveResult(chosen, Outcome.UNSOLVABLE, board, goal, (), 0, 0, 0.0)
    if board == goal:
        return SolveResult(chosen, Outcome.SOLVED, board, goal, (board,), 0, 1, 0.0)
    if chosen is Algorithm.PDB:
        pattern_database(goal, progress=progress)
    _warm_up(chosen)
    began = time.perf_counter()
    found = _search(chosen, board, goal, depth_bound,
                    max_nodes if max_nodes is not None else _default_limit(chosen), progress)
    seconds = time.perf_counter() - began
    return SolveResult(chosen, found.outcome, board, goal, found.path, found.expanded,
                       found.peak, seconds)


def compare(
    board: Board,
    goal: Board | None = None,
    algorithms: Sequence[Algorithm] | None = None,
    *,
    depth_bound: int = DEFAULT_DEPTH_BOUND,
    max_nodes: int | None = None,
    progress: Progress | None = None,
) -> list[SolveResult]:
    """:func:`solve` with each algorithm in turn (default: all that suit the board's size),
    for the seed's side-by-side comparison."""
    if algorithms is None:
        algorithms = [a for a in Algorithm
                      if (a is not Algorithm.PDB or board.cells <= MAX_PATTERN_CELLS)
                      and (a in (Algorithm.IDDFS, Algorithm.IDASTAR, Algorithm.PDB)
                           or board.cells <= MAX_RANKED_CELLS)]
    return [solve(board, goal, a, depth_bound=depth_bound, max_nodes=max_nodes,
                  progress=progress) for a in algorithms]


# ---------------------------------------------------------------- state space


def state_space(rows: int = 3, cols: int = 3, goal: Board | None = None) -> StateSpace:
    """Breadth-first enumeration of every position that can reach ``goal`` (default
    :func:`parse_goal`'s default for the size), with the count at each distance."""
    goal = goal if goal is not None else parse_goal(None, rows, cols)
    _check_same_size(goal, rows, cols)
    if goal.cells > MAX_SPACE_CELLS:
        raise UnsupportedBoardError(
            f"board {goal.size}: its {math.factorial(goal.cells) // 2:,} reachable states are "
            f"too many to enumerate here (at most {MAX_SPACE_CELLS} cells)")
    geometry = _geometry(goal)
    status, keys, _, depths, count, _, _, _ = _kernels().breadth_first(
        rank(goal), -1, goal.cells, geometry.neighbours, geometry.factorials, 2**62)
    assert status == 1
    depths = depths[:count]
    histogram = np.bincount(depths)
    farthest_keys = keys[:count][depths == histogram.size - 1]
    farthest = tuple(sorted((unrank(int(k), rows, cols) for k in farthest_keys),
                            key=lambda b: b.tiles))
    return StateSpace(goal, int(count), tuple(int(n) for n in histogram), farthest)


# ---------------------------------------------------------------- pattern databases


@dataclass(frozen=True)
class PatternDatabase:
    """Disjoint additive pattern databases for one goal, ready for IDA*.

    ``groups`` are the tiles of each pattern; ``values[offsets[g] + index]`` is the least
    number of moves of group ``g``'s tiles that bring them home, where ``index`` holds the cell
    of the group's i-th tile in bits 4i..4i+3.
    """

    goal: Board
    groups: tuple[tuple[int, ...], ...]
    group_of_tile: IntArray
    slot_of_tile: IntArray
    values: ByteArray
    offsets: IntArray


_PATTERN_FORMAT = b"huarong-npuzzle-pdb-1\n"
_DIGEST_SIZE = 32


def cache_directory() -> Path:
    """Where pattern databases are kept: ``$HUARONG_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/huarong``, else ``~/.cache/huarong``."""
    explicit = os.environ.get("HUARONG_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "huarong"


def pattern_groups(goal: Board) -> tuple[tuple[int, ...], ...]:
    """The tiles of each disjoint pattern, chosen by their goal cells.

    On 4 x 4 with the blank's goal in a corner this is the 6-6-3 split of Korf and Felner: the
    three tiles of the blank's row, then two 2 x 3 blocks.  Other goals and sizes cut the
    same cell order (or row order) into groups of at most six tiles.
    """
    rows, cols = goal.rows, goal.cols
    corner = goal.blank
    if (rows, cols) == (4, 4) and corner in (0, 3, 12, 15):
        flip_rows = corner // cols == rows - 1
        flip_cols = corner % cols == cols - 1

        def cell(r: int, c: int) -> int:
            return (rows - 1 - r if flip_rows else r) * cols + (cols - 1 - c if flip_cols else c)

        order = ([cell(0, c) for c in range(4)]
                 + [cell(r, c) for r in (1, 2, 3) for c in (0, 1)]
                 + [cell(r, c) for r in (1, 2, 3) for c in (2, 3)])
        sizes = [3, 6, 6]
    else:
        order = list(range(goal.cells))
        tile_count = goal.cells - 1
        group_count = -(-tile_count // 6)
        sizes = [tile_count // group_count + (1 if g < tile_count % group_count else 0)
                 for g in range(group_count)]
    tiles_in_order = [goal.tiles[c] for c in order if goal.tiles[c] != 0]
    groups = []
    begin = 0
    for size in sizes:
        groups.append(tuple(tiles_in_order[begin:begin + size]))
        begin += size
    return tuple(groups)


def _pattern_cache_path(goal: Board, group: tuple[int, ...], directory: Path) -> Path:
    key = f"{goal.size}|goal {goal.line()}|tiles {_joined(group)}"
    name = hashlib.sha256(key.encode()).hexdigest()[:24]
    return directory / "npuzzle" / f"pdb-{goal.size}-{len(group)}tiles-{name}.bin"


def _read_pattern(path: Path, expected_size: int) -> ByteArray | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header = len(_PATTERN_FORMAT) + _DIGEST_SIZE
    if len(data) != header + expected_size or not data.startswith(_PATTERN_FORMAT):
        return None
    payload = data[header:]
    if hashlib.sha256(payload).digest() != data[len(_PATTERN_FORMAT):header]:
        return None
    return np.frombuffer(payload, dtype=np.uint8).copy()


def _write_pattern(path: Path, values: ByteArray) -> None:
    payload = values.tobytes()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(_PATTERN_FORMAT + hashlib.sha256(payload).digest() + payload)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        # An unwritable cache costs a rebuild next time, never a failed solve.
        return


def _arrangements(cells: int, count: int) -> int:
    return math.perm(cells, count)


def _build_pattern(goal: Board, group: tuple[int, ...], done_before: int, total: int,
                   progress: Progress | None) -> ByteArray:
    kernels = _kernels()
    geometry = _geometry(goal)
    cells = goal.cells
    goal_positions = np.array([goal.tiles.index(t) for t in group] + [goal.blank],
                              dtype=np.int64)
    distances = np.full(_arrangements(cells, len(group) + 1), kernels.PATTERN_UNREACHED,
                        dtype=np.uint8)
    popcount, select = _bit_tables()
    layer = kernels.pattern_start(goal_positions, cells, distances, popcount)
    size = 1
    distance = 0
    done = done_before
    while size > 0:
        layer, size, settled = kernels.pattern_layer(layer, size, distance, len(group), cells,
                                                     goal.cols, geometry.neighbours, distances,
                                                     popcount, select)
        done += int(settled)
        distance += 1
        if progress is not None:
            progress(done, total)
    compact: ByteArray = kernels.pattern_minimum_over_blank(distances, cells - len(group))
    return compact


@functools.lru_cache(maxsize=1)
def _bit_tables() -> tuple[ByteArray, ByteArray]:
    popcount, select = _kernels().bit_tables()
    return popcount, select


_loaded_patterns: dict[tuple[Board, Path], PatternDatabase] = {}


def pattern_database(goal: Board, *, progress: Progress | None = None,
                     directory: Path | None = None) -> PatternDatabase:
    """The additive pattern databases for ``goal``: from memory, else from the disk cache
    (checked by size and SHA-256), else built (reporting ``progress``) and cached atomically."""
    if goal.cells > MAX_PATTERN_CELLS:
        raise UnsupportedBoardError(
            f"board {goal.size}: pattern databases cover boards of up to "
            f"{MAX_PATTERN_CELLS} cells")
    directory = directory if directory is not None else cache_directory()
    if (goal, directory) in _loaded_patterns:
        return _loaded_patterns[goal, directory]
    kernels = _kernels()
    groups = pattern_groups(goal)
    cells = goal.cells
    compacts: list[ByteArray | None] = []
    for group in groups:
        compacts.append(_read_pattern(_pattern_cache_path(goal, group, directory),
                                      _arrangements(cells, len(group))))
    total = sum(_arrangements(cells, len(g) + 1) for g, c in zip(groups, compacts, strict=True)
                if c is None)
    done = 0
    for index, group in enumerate(groups):
        if compacts[index] is None:
            built = _build_pattern(goal, group, done, total, progress)
            done += _arrangements(cells, len(group) + 1)
            _write_pattern(_pattern_cache_path(goal, group, directory), built)
            compacts[index] = built
    group_of_tile = np.full(cells, -1, np.int64)
    slot_of_tile = np.zeros(cells, np.int64)
    sparse_tables = []
    for index, (group, compact) in enumerate(zip(groups, compacts, strict=True)):
        for slot, tile in enumerate(group):
            group_of_tile[tile] = index
            slot_of_tile[tile] = slot
        sparse_tables.append(kernels.pattern_sparse(compact, len(group), cells,
                                                    _bit_tables()[1]))
    offsets = np.cumsum([0] + [t.size for t in sparse_tables[:-1]]).astype(np.int64)
    database = PatternDatabase(goal, groups, group_of_tile, slot_of_tile,
                               np.concatenate(sparse_tables), offsets)
    _loaded_patterns[goal, directory] = database
    return database
