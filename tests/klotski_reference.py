"""A slow, obviously-correct Klotski engine in plain Python, written from docs §1-§5 alone.

It shares nothing with huarong's kernels: a layout is a frozenset of (kind, row, col) pieces,
a step is found by flood-filling one piece's positions through empty cells, and searches are
plain breadth-first searches over dicts.  Tests compare the fast engine against it.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable

ROWS, COLS = 5, 4
# kind -> (height, width)
SHAPES = {"C": (2, 2), "V": (2, 1), "H": (1, 2), "S": (1, 1)}

Piece = tuple[str, int, int]
State = frozenset[Piece]


def cells(piece: Piece) -> list[tuple[int, int]]:
    kind, row, col = piece
    height, width = SHAPES[kind]
    return [(row + dy, col + dx) for dy in range(height) for dx in range(width)]


def fits(piece: Piece, taken: set[tuple[int, int]]) -> bool:
    return all(0 <= r < ROWS and 0 <= c < COLS and (r, c) not in taken for r, c in cells(piece))


def from_grid(text: str) -> State:
    """Read the spec's grid notation (C V H S, '.' empty; pieces paired top-down/left-right)."""
    rows = [line.split() for line in text.strip().splitlines()]
    used: set[tuple[int, int]] = set()
    pieces = []
    for r in range(ROWS):
        for c in range(COLS):
            glyph = rows[r][c]
            if glyph == "." or (r, c) in used:
                continue
            piece = (glyph, r, c)
            assert fits(piece, used), text
            used.update(cells(piece))
            pieces.append(piece)
    return frozenset(pieces)


def to_grid(state: State) -> str:
    board = [["."] * COLS for _ in range(ROWS)]
    for piece in state:
        for r, c in cells(piece):
            board[r][c] = piece[0]
    return "\n".join(" ".join(row) for row in board)


def is_goal(state: State) -> bool:
    return any(kind == "C" and (row, col) == (3, 1) for kind, row, col in state)


def steps_from(state: State) -> set[State]:
    """Every layout one step away: one piece moved through empty cells, any distance."""
    result = set()
    for piece in state:
        others = state - {piece}
        taken = {cell for other in others for cell in cells(other)}
        kind, row, col = piece
        seen = {(row, col)}
        queue = deque([(row, col)])
        while queue:
            r, c = queue.popleft()
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                moved = (kind, r + dr, c + dc)
                if (r + dr, c + dc) not in seen and fits(moved, taken):
                    seen.add((r + dr, c + dc))
                    queue.append((r + dr, c + dc))
                    result.add(others | {moved})
    return result


def distances(start: State, until: State | None = None) -> dict[State, int]:
    """Minimum steps from ``start`` to every layout of its group (or to the layouts found
    before ``until``, and ``until`` itself)."""
    dist = {start: 0}
    queue = deque([start])
    while queue and until not in dist:
        state = queue.popleft()
        for child in steps_from(state):
            if child not in dist:
                dist[child] = dist[state] + 1
                queue.append(child)
    return dist


def solutions(start: State, dist: dict[State, int]) -> dict[State, int]:
    """docs §5 solutions: goal layouts that no shortest path from ``start`` reaches through
    another goal layout.  A layout is *tainted* when some shortest path to it passes a goal at
    or before it."""
    tainted: dict[State, bool] = {}
    found = {}
    for state in sorted(dist, key=dist.__getitem__):
        via_goal = any(tainted[parent] for parent in steps_from(state)
                       if dist.get(parent) == dist[state] - 1)
        if is_goal(state) and not via_goal:
            found[state] = dist[state]
        tainted[state] = is_goal(state) or via_goal
    return found


def is_one_step(before: State, after: State) -> bool:
    """Whether ``after`` is one step from ``before``, checked directly."""
    return after in steps_from(before)


def random_state(rng: random.Random, empties: int, kinds: str = "VVHHSS") -> State:
    """A random legal layout with ``empties`` empty cells and a random mix of pieces, each
    drawn from ``kinds`` (repeat a kind to make it likelier)."""
    while True:
        taken: set[tuple[int, int]] = set()
        cao = ("C", rng.randrange(ROWS - 1), rng.randrange(COLS - 1))
        taken.update(cells(cao))
        pieces = [cao]
        free = ROWS * COLS - 4
        attempts = 0
        while free > empties and attempts < 200:
            attempts += 1
            kind = rng.choice(kinds if free - empties >= 2 else "S")
            piece = (kind, rng.randrange(ROWS), rng.randrange(COLS))
            if fits(piece, taken):
                taken.update(cells(piece))
                pieces.append(piece)
                free -= len(cells(piece))
        if free == empties:
            return frozenset(pieces)


def states(grids: Iterable[str]) -> list[State]:
    return [from_grid(grid) for grid in grids]
