"""The blocking graph of the goal piece, for puzzles whose pieces are straight and move along
their length (Rush Hour): which pieces stand in the goal piece's way, which stand in the way of
those moving aside, and so on.

The goal piece must cross the cells between it and its goal; every piece on them *blocks* it.
A blocking piece must leave the cells its blocked piece needs: it can slide back or forward
along its line until it covers none of them (where the board and its walls leave room), and
every piece on the cells it would cross or land on blocks it in turn.  Both ways count: a
player has to weigh both.  The graph's ``size`` is the number of pieces reached, its ``depth``
the most blocking steps from the goal piece to a piece reached (0: the way is clear).
"""

from __future__ import annotations

from dataclasses import dataclass

from huarong.puzzles.grid import Grid
from huarong.puzzles.puzzle import Puzzle


@dataclass(frozen=True)
class BlockingGraph:
    """The pieces blocking the goal piece, recursively: ``levels[k]`` the letters first
    reached after ``k + 1`` blocking steps."""

    levels: tuple[tuple[str, ...], ...]

    @property
    def size(self) -> int:
        return sum(len(level) for level in self.levels)

    @property
    def depth(self) -> int:
        return len(self.levels)


@dataclass(frozen=True)
class _Line:
    """A straight piece: its cells (ascending) and the stride between them (1 along a row,
    the board's width along a column)."""

    cells: tuple[int, ...]
    stride: int


def blocking_graph(puzzle: Puzzle) -> BlockingGraph | None:
    """The start's blocking graph; None unless the puzzle's rules move pieces along their
    length, its goal names one piece and every piece is straight."""
    if puzzle.rules != "length" or puzzle.goal is None:
        return None
    goal = Grid.read(puzzle.goal).pieces(puzzle.goal)
    lines: dict[str, _Line] = {}
    for letter, (c, p) in puzzle.board.lettered(puzzle.start).items():
        straight = puzzle.classes[c].straight
        if straight is None:
            return None
        lines[letter] = _Line(tuple(puzzle.tables.placements[c][p]),
                              1 if straight == "row" else puzzle.columns)
    if len(goal) != 1:
        return None
    (name, target), = goal.items()
    mover = lines[name]
    span = range(min(*mover.cells, *target), max(*mover.cells, *target) + 1, mover.stride)
    owner = {cell: letter for letter, line in lines.items() for cell in line.cells}
    levels: list[tuple[str, ...]] = []
    seen = {name}
    frontier = {letter: {cell for cell in span if owner.get(cell) == letter}
                for letter in {owner[cell] for cell in span if cell in owner} - seen}
    while frontier:
        levels.append(tuple(sorted(frontier)))
        seen.update(frontier)
        needed: dict[str, set[int]] = {}
        for letter, cells in frontier.items():
            for cell in _cells_to_clear(puzzle, lines[letter], cells):
                blocker = owner.get(cell)
                if blocker is not None and blocker not in seen:
                    needed.setdefault(blocker, set()).add(cell)
        frontier = needed
    return BlockingGraph(tuple(levels))


def _cells_to_clear(puzzle: Puzzle, line: _Line, vacate: set[int]) -> set[int]:
    """The cells a straight piece crosses or lands on when it slides, back or forward along
    its line, just far enough to leave the cells ``vacate``, both ways where they fit."""
    along = _line_cells(puzzle, line)
    first = along.index(line.cells[0])
    length = len(line.cells)
    low = min(along.index(cell) for cell in vacate)
    high = max(along.index(cell) for cell in vacate)
    crossed: set[int] = set()
    for new_first in (low - length, high + 1):
        if new_first < 0 or new_first + length > len(along):
            continue
        way = along[min(first, new_first):max(first, new_first) + length]
        if not puzzle.walls.intersection(way):
            crossed.update(set(way) - set(line.cells))
    return crossed


def _line_cells(puzzle: Puzzle, line: _Line) -> list[int]:
    """Every cell of the row or column the piece lies on, in order."""
    if line.stride == 1:
        row = line.cells[0] // puzzle.columns
        return list(range(row * puzzle.columns, (row + 1) * puzzle.columns))
    return list(range(line.cells[0] % puzzle.columns, puzzle.cells, puzzle.columns))
