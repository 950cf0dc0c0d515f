"""The specifications a search is given on the command line: the cells (``RxC`` or grid
text with walls), the pieces (``2x2,1x2,2x1*2,1x1*4``) and the goal (``2x2@3,1``), read
into a :class:`~huarong.puzzles.board.Board` whose pieces a search places everywhere."""

from __future__ import annotations

import re
from collections.abc import Sequence

from huarong.puzzles.board import Board
from huarong.puzzles.grid import (
    EMPTY,
    LETTERS,
    MAX_CELLS,
    WALL,
    Grid,
    PieceClass,
    PuzzleError,
    Shape,
    check_metric,
    check_rules,
    join_rows,
    rectangle,
    shape_name,
)
from huarong.puzzles.puzzle import Puzzle

_ANY = re.compile(r"\s*any\s*(\d+)\s*(?:-\s*(\d+)\s*)?(?:\*\s*(\d+)(?:\s*-\s*(\d+))?)?\s*",
                  re.IGNORECASE)
MOST_CELLS = 6
"""The largest free shape (``anyN``): 216 polyominoes of 6 cells, 760 of 7."""
_PIECE = re.compile(r"\s*(\d+)\s*x\s*(\d+)\s*(?:\*\s*(\d+)(?:\s*-\s*(\d+))?)?\s*")
_GOAL = re.compile(r"\s*(\d+)\s*x\s*(\d+)\s*@\s*(\d+)\s*,\s*(\d+)\s*")
_SIZE = re.compile(r"\s*(\d+)\s*x\s*(\d+)\s*")


def parse_cells(text: str) -> tuple[int, int, frozenset[int]]:
    """``RxC`` (no walls) or grid text (``.`` cells, ``#`` walls): (rows, columns,
    walls)."""
    size = _SIZE.fullmatch(text)
    if size:
        rows, columns = int(size[1]), int(size[2])
        if rows < 1 or columns < 1:
            raise PuzzleError(text, "a board has at least one row and one column")
        if rows * columns > MAX_CELLS:
            raise PuzzleError(text, f"a board of {rows * columns} cells; boards have at most "
                                    f"{MAX_CELLS}")
        return rows, columns, frozenset()
    grid = Grid.read(text)
    if set(grid.cells) - {EMPTY, WALL}:
        raise PuzzleError(text, "a search board holds only '.' (a cell) and '#' (a wall)")
    return grid.rows, grid.columns, grid.walls


def parse_pieces(text: str) -> list[tuple[Shape, int]]:
    """``2x2,1x2,2x1*2,1x1*4`` (rows x columns, ``*N`` for N alike): each shape and how many,
    in the order given."""
    pieces = []
    for shape, low, high in parse_piece_ranges(text):
        if low != high:
            raise PuzzleError(text, "a range of pieces (RxC*A-B) is for puzzle design: "
                                    "a search takes RxC*N")
        pieces.append((shape, low))
    return pieces


def parse_piece_ranges(text: str) -> list[tuple[Shape, int, int]]:
    """``2x2,1x2*0-4,2x1*0-4,1x1*2-6``: each shape and the fewest and most pieces of it
    (``*N``: exactly N; ``*A-B``: A to B), in the order given."""
    pieces: dict[Shape, tuple[int, int]] = {}
    for part in text.split(","):
        found = _PIECE.fullmatch(part)
        low = int(found[3] or 1) if found else 0
        high = int(found[4]) if found and found[4] else low
        if not found or min(int(found[1]), int(found[2])) < 1 or high < max(low, 1):
            raise PuzzleError(text, f"{part.strip()!r} is not a piece: RxC (rows x columns), "
                                    "RxC*N for N alike or RxC*A-B for A to B of them, as "
                                    "2x2,1x2*0-4,1x1*2-6")
        shape = rectangle(int(found[1]), int(found[2]))
        before = pieces.get(shape, (0, 0))
        pieces[shape] = (before[0] + low, before[1] + high)
    return [(shape, low, high) for shape, (low, high) in pieces.items()]


def polyominoes(cells: int) -> list[Shape]:
    """Every fixed polyomino of ``cells`` cells (a sliding piece does not turn: rotations
    and reflections are other shapes), as a :data:`Shape` (its cells from its bounding
    box's top-left, sorted), smallest bounding box first."""
    shapes: set[Shape] = {((0, 0),)}
    for _ in range(cells - 1):
        grown: set[Shape] = set()
        for shape in shapes:
            for row, column in shape:
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    cell = (row + dr, column + dc)
                    if cell not in shape:
                        top = min(0, cell[0])
                        left = min(0, cell[1])
                        grown.add(tuple(sorted((r - top, c - left) for r, c in (*shape, cell))))
        shapes = grown
    return sorted(shapes, key=lambda s: (max(r for r, _ in s) + max(c for _, c in s), s))


PieceRange = tuple[Shape, int, int]
"""A shape and the fewest and most pieces of it."""
ShapeGroup = tuple[tuple[Shape, ...], int, int]
"""Shapes whose pieces together number between the fewest and the most."""


def parse_design_pieces(text: str, rows: int, columns: int, free: int
                        ) -> tuple[list[PieceRange], list[ShapeGroup]]:
    """The pieces of a design on a ``rows`` x ``columns`` board of ``free`` free cells:
    rectangles as :func:`parse_piece_ranges` reads them, and free shapes: ``anyA-B`` (every
    polyomino of A to B cells but the shapes named, as many of each as fit), ``anyA-B*L-H``
    (L to H of them in all), ``anyN*L-H`` (of N cells).  The most of each shape, or of a
    group, is cut to what the board holds; :class:`PuzzleError` when the fewest cover more
    than it, or a shape is twice among the free ones."""
    rectangles = ",".join(part for part in text.split(",") if not _ANY.fullmatch(part))
    ranges = parse_piece_ranges(rectangles) if rectangles.strip() else []
    named = {shape for shape, _, _ in ranges}
    room = max(0, free - sum(len(shape) * low for shape, low, _ in ranges))
    groups: list[ShapeGroup] = []
    taken: set[Shape] = set()
    for part in text.split(","):
        found = _ANY.fullmatch(part)
        if not found:
            continue
        smallest, largest = int(found[1]), int(found[2] or found[1])
        low = int(found[3] or 0)
        high = int(found[4] or found[3]) if found[3] else free
        if not 1 <= smallest <= largest <= MOST_CELLS or high < max(low, 1):
            raise PuzzleError(text, f"{part.strip()!r} is not a free shape: anyA-B (any "
                                    f"polyomino of A to B cells, B at most {MOST_CELLS}), "
                                    "anyA-B*N or anyA-B*L-H for that many of them")
        shapes = tuple(shape for size in range(smallest, largest + 1)
                       for shape in polyominoes(size) if shape not in named
                       and max(r for r, _ in shape) < rows and max(c for _, c in shape) < columns)
        if taken.intersection(shapes):
            raise PuzzleError(text, f"{part.strip()!r}: its sizes are among another "
                                    "free shape's")
        if not shapes:
            raise PuzzleError(text, f"{part.strip()!r}: no such shape fits the "
                                    f"{rows}x{columns} board")
        taken.update(shapes)
        most = min(high, room // smallest, len(LETTERS))
        if low > most:
            raise PuzzleError(text, f"{part.strip()!r}: {low} pieces of at least "
                                    f"{smallest} cells cover more than the {free} free cells")
        ranges.extend((shape, 0, min(most, room // len(shape))) for shape in shapes)
        if found[3]:
            groups.append((shapes, low, most))
    clamped = []
    least = sum(len(shape) * low for shape, low, _ in ranges)
    for shape, low, high in ranges:
        most = min(high, low + max(0, free - least) // len(shape), len(LETTERS))
        if least > free:
            raise PuzzleError(text, f"the fewest pieces cover {least} cells, more than the "
                                    f"board's {free} free cells")
        clamped.append((shape, low, most))
    return clamped, groups


def parse_goal(text: str) -> tuple[Shape, int, int]:
    """``2x2@3,1``: a piece of that shape with its top-left cell at row 3, column 1 (from 0):
    (shape, row, column)."""
    found = _GOAL.fullmatch(text)
    if not found or min(int(found[1]), int(found[2])) < 1:
        raise PuzzleError(text, "not a goal: RxC@ROW,COLUMN, a piece of that shape with its "
                                "top-left cell there (from 0), as 2x2@3,1")
    return rectangle(int(found[1]), int(found[2])), int(found[3]), int(found[4])


def board_of(cells: str, pieces: str | Sequence[tuple[Shape, int]], goal: str, *,
             metric: str = "step", rules: str = "free", distinct_goal: bool = False) -> Board:
    """The board of ``pieces`` (a spec, see :func:`parse_pieces`, or (shape, count) pairs)
    on ``cells`` (see :func:`parse_cells`) with the ``goal`` (see :func:`parse_goal`), the
    pieces lettered by :data:`~huarong.puzzles.grid.LETTERS`, larger shapes first.  With
    ``distinct_goal`` the goal is one piece of its shape, told apart from the others of that
    shape (a class of its own)."""
    rows, columns, walls = parse_cells(cells)
    wanted = parse_pieces(pieces) if isinstance(pieces, str) else list(pieces)
    shown = pieces if isinstance(pieces, str) else ",".join(
        f"{shape_name(shape)}*{count}" for shape, count in wanted)
    shape, goal_row, goal_column = parse_goal(goal)
    free = rows * columns - len(walls)
    used = sum(len(s) * count for s, count in wanted)
    if used > free:
        raise PuzzleError(shown, f"the pieces cover {used} cells, the board has {free} free")
    counts = dict(wanted)
    if shape not in counts:
        raise PuzzleError(goal, f"the goal's shape {shape_name(shape)} is none of the "
                                f"pieces' ({shown})")
    groups: list[tuple[Shape, int, bool]] = []
    if distinct_goal:
        groups.append((shape, 1, True))
        counts[shape] -= 1
    groups.extend((s, n, False) for s, n in sorted(
        counts.items(), key=lambda item: (-len(item[0]), item[0])) if n)
    if sum(n for _, n, _ in groups) > len(LETTERS):
        raise PuzzleError(shown, f"more than {len(LETTERS)} pieces")
    classes = []
    used_letters = 0
    for s, n, distinct in groups:
        classes.append(PieceClass(s, tuple(LETTERS[used_letters:used_letters + n]), distinct))
        used_letters += n
    goal_class = next(k for k in classes if k.shape == shape)
    goal_cells = [WALL if cell in walls else EMPTY for cell in range(rows * columns)]
    for r, c in shape:
        row, column = goal_row + r, goal_column + c
        if not (row < rows and column < columns) or row * columns + column in walls:
            raise PuzzleError(goal, f"the goal's piece leaves the {rows}x{columns} board or "
                                    "covers a wall")
        goal_cells[row * columns + column] = goal_class.letters[0]
    return Board(rows, columns, walls, tuple(classes), join_rows(goal_cells, columns),
                 check_rules(rules), check_metric(metric))


def puzzle_board(puzzle: Puzzle) -> Board:
    """The board of a puzzle (any shapes, as its TOML file gives them), for a search of
    every placement of its pieces; :class:`PuzzleError` when it has no goal."""
    if puzzle.goal is None:
        raise PuzzleError(puzzle.grid, "the puzzle has no goal: give one")
    return puzzle.board
