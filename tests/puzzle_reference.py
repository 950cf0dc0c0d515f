"""A slow, obviously correct model of any sliding-block puzzle in plain Python, written from
issue 30's definitions alone, for the tests of the general engine, its command line and the
exhaustive search.

It shares nothing with :mod:`huarong.puzzles`: a piece is its shape (cells relative to the
top-left corner of its bounding box), its name (its letter when it is distinct, ``""`` when
pieces of its shape are interchangeable) and its anchor (that corner's row and column); a
state is a frozenset of pieces; a move is found by shifting one piece cell by cell through
empty cells (one cell: ``unit``; any distance in a straight line: ``slide``; any path:
``step``), along its length only for a straight piece under the rules ``length``; searches
are plain breadth-first searches over dicts.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import product

Cell = tuple[int, int]
Shape = tuple[Cell, ...]
"""A piece's cells relative to the top-left corner of its bounding box, sorted."""
Piece = tuple[Shape, str, int, int]
"""(shape, name: the letter of a distinct piece or "", anchor row, anchor column)."""
State = frozenset[Piece]
Graph = dict[State, set[State]]
"""Each state of a cluster to the states one move away."""

STEPS: dict[str, Cell] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def rectangle(height: int, width: int) -> Shape:
    return tuple(product(range(height), range(width)))


def anchored(cells: Iterable[Cell]) -> tuple[Shape, int, int]:
    """Cells as (shape, top, left)."""
    cells = list(cells)
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells)), top, left


def letter_cells(grid: str) -> dict[str, list[Cell]]:
    """The cells of each letter of grid text ("/"-joined rows)."""
    found: dict[str, list[Cell]] = {}
    for r, row in enumerate(grid.strip().split("/")):
        for c, glyph in enumerate(row):
            if glyph.isalpha():
                found.setdefault(glyph, []).append((r, c))
    return found


def state_of(grid: str, distinct: Collection[str] = ()) -> State:
    """The pieces of grid text, those of the letters in ``distinct`` named by them."""
    pieces = set()
    for letter, cells in letter_cells(grid).items():
        shape, top, left = anchored(cells)
        pieces.add((shape, letter if letter in distinct else "", top, left))
    return frozenset(pieces)


def distances(graph: Graph, sources: Iterable[State]) -> dict[State, int]:
    """Moves from the nearest of ``sources`` to every state they reach in ``graph``."""
    found = dict.fromkeys(sources, 0)
    queue = deque(found)
    while queue:
        state = queue.popleft()
        for other in graph[state]:
            if other not in found:
                found[other] = found[state] + 1
                queue.append(other)
    return found


@dataclass(frozen=True)
class Board:
    """A board (its size and walls) and how pieces move on it."""

    rows: int
    columns: int
    walls: frozenset[Cell]
    rules: str = "free"
    metric: str = "step"

    @classmethod
    def of(cls, grid: str, rules: str = "free", metric: str = "step") -> Board:
        """The board of grid text: "#" a wall, anything else a free cell."""
        lines = grid.strip().split("/")
        walls = {(r, c) for r, line in enumerate(lines) for c, glyph in enumerate(line)
                 if glyph == "#"}
        return cls(len(lines), len(lines[0]), frozenset(walls), rules, metric)

    def cells(self, piece: Piece) -> set[Cell]:
        shape, _, top, left = piece
        return {(top + r, left + c) for r, c in shape}

    def fits(self, piece: Piece, taken: Collection[Cell]) -> bool:
        """Whether ``piece`` lies on the board, off the walls and off ``taken``."""
        return all(0 <= r < self.rows and 0 <= c < self.columns and (r, c) not in self.walls
                   and (r, c) not in taken for r, c in self.cells(piece))

    def directions(self, shape: Shape) -> list[Cell]:
        if self.rules == "length" and len(shape) >= 2:
            if all(r == 0 for r, _ in shape):
                return [STEPS["left"], STEPS["right"]]
            if all(c == 0 for _, c in shape):
                return [STEPS["up"], STEPS["down"]]
        return list(STEPS.values())

    def moves(self, state: State) -> set[State]:
        """Every state one move from ``state``."""
        found: set[State] = set()
        for piece in state:
            shape, name, top, left = piece
            taken = {cell for other in state - {piece} for cell in self.cells(other)}
            reached: set[Cell] = set()
            if self.metric == "step":
                todo = [(top, left)]
                while todo:
                    r, c = todo.pop()
                    for dr, dc in self.directions(shape):
                        there = (r + dr, c + dc)
                        if there not in reached and self.fits((shape, name, *there), taken):
                            reached.add(there)
                            todo.append(there)
            else:
                for dr, dc in self.directions(shape):
                    r, c = top + dr, left + dc
                    while self.fits((shape, name, r, c), taken):
                        reached.add((r, c))
                        if self.metric == "unit":
                            break
                        r, c = r + dr, c + dc
            found.update((state - {piece}) | {(shape, name, r, c)}
                         for r, c in reached - {(top, left)})
        return found

    def cluster(self, start: State) -> Graph:
        """Every state reachable from ``start``, with its moves."""
        graph: Graph = {start: self.moves(start)}
        queue = deque([start])
        while queue:
            for other in graph[queue.popleft()]:
                if other not in graph:
                    graph[other] = self.moves(other)
                    queue.append(other)
        return graph

    def placements(self, shapes: Sequence[Shape]) -> set[State]:
        """Every placement of interchangeable pieces of ``shapes`` on the board, piece by
        piece and cell by cell."""
        found: set[State] = set()

        def place(placed: tuple[Piece, ...], taken: set[Cell]) -> None:
            if len(placed) == len(shapes):
                found.add(frozenset(placed))
                return
            for row, column in product(range(self.rows), range(self.columns)):
                piece = (shapes[len(placed)], "", row, column)
                if self.fits(piece, taken):
                    place((*placed, piece), taken | self.cells(piece))

        place((), set())
        return found

    def clusters(self, states: set[State]) -> list[Graph]:
        """The clusters of ``states``, a set no move leaves (every placement of some
        pieces), each with its moves."""
        left = set(states)
        found = []
        while left:
            graph = self.cluster(left.pop())
            left -= graph.keys()
            found.append(graph)
        return found

    def read(self, grid: str, distinct: Collection[str] = ()) -> State:
        """The state of grid text on this board."""
        assert Board.of(grid, self.rules, self.metric) == self, grid
        return state_of(grid, distinct)


@dataclass(frozen=True)
class Puzzle:
    """A board, a start and a goal: the pieces a solved state holds (none: no goal)."""

    board: Board
    start: State
    goal: State

    def solved(self, state: State) -> bool:
        return bool(self.goal) and self.goal <= state

    def moves(self, state: State) -> set[State]:
        return self.board.moves(state)

    def cluster(self) -> Graph:
        """The start's cluster, each state with its moves."""
        return self._cluster

    def distances(self, sources: Iterable[State]) -> dict[State, int]:
        return distances(self._cluster, sources)

    def min_steps(self) -> dict[State, int]:
        """Moves from every state of the cluster that reaches a goal to its nearest goal."""
        return self._min_steps

    def read_state(self, grid: str) -> State:
        """The state of grid text on the puzzle's board, its distinct pieces named."""
        return self.board.read(grid, {name for _, name, _, _ in self.start if name})

    @cached_property
    def _cluster(self) -> Graph:
        return self.board.cluster(self.start)

    @cached_property
    def _min_steps(self) -> dict[State, int]:
        return self.distances(state for state in self._cluster if self.solved(state))


def reference(start: str, goal: str | None = None, metric: str = "step", rules: str = "free",
              distinct: Collection[str] = ()) -> Puzzle:
    """The puzzle of grid texts: "/"-joined rows, "." a free cell, "#" a wall, a letter a
    piece's cell; the goal names pieces where they must stand (its walls do not count)."""
    return Puzzle(Board.of(start, rules, metric), state_of(start, distinct),
                  state_of(goal, distinct) if goal is not None else frozenset())
