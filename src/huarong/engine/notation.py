"""klotski.online's solution notation (docs §7), both ways.

A solution string is a run of pairs: the moved piece, named by its top-left cell as a letter
``g``..``z`` (address 0..19), then one hex digit naming the unit moves it makes: ``0``-``3``
left, up, right, down; ``4``-``7`` the same twice; ``8``-``f`` left-up, left-down, up-left,
up-right, right-up, right-down, down-left, down-right.

One of our steps moves one piece any distance, so it may need more than two unit moves (only
with three or more empty cells: on a standard layout, with two, a step is at most two).  Such
a step is written as several pairs naming the same piece in a row, each at most two unit
moves along a shortest route.  When reading, pairs that keep moving the piece the previous
pair moved continue that step, as docs §2 counts steps; a minimum-step path never moves one
piece in two consecutive steps, so the two conventions agree on every solution.

A string for the left-right mirror image (klotski.online's ``"mirror": "1"``) is read by
mirroring each cell and swapping left and right: :func:`replay` does it by replaying the
string on the mirror image and mirroring every layout back.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from huarong.engine.layout import COLS, ROWS, Layout, Piece, PieceKind

CELL_LETTERS: Final = "ghijklmnopqrstuvwxyz"
"""The letter of each cell address 0..19."""

_UNIT_MOVES: Final = {"left": (0, -1), "up": (-1, 0), "right": (0, 1), "down": (1, 0)}

MOVE_ROUTES: Final[tuple[tuple[str, ...], ...]] = (
    ("left",), ("up",), ("right",), ("down",),
    ("left", "left"), ("up", "up"), ("right", "right"), ("down", "down"),
    ("left", "up"), ("left", "down"), ("up", "left"), ("up", "right"),
    ("right", "up"), ("right", "down"), ("down", "left"), ("down", "right"),
)
"""The unit moves of each move digit 0..f."""

_DIGIT_OF_ROUTE: Final = {route: f"{digit:x}" for digit, route in enumerate(MOVE_ROUTES)}
_HEX_DIGITS: Final = "0123456789abcdef"
_MAX_UNIT_MOVES_PER_PAIR: Final = 2


class NotationError(ValueError):
    """A solution string that cannot be read or replayed; names the pair and the reason."""

    def __init__(self, solution: str, reason: str, pair_index: int | None = None) -> None:
        self.solution = solution
        self.pair_index = pair_index
        self.reason = reason
        shown = solution if len(solution) <= 40 else solution[:37] + "..."
        where = ""
        if pair_index is not None:
            pair = solution[2 * pair_index:2 * pair_index + 2]
            where = f" pair {pair_index + 1} {pair!r}:"
        super().__init__(f"invalid solution string {shown!r}:{where} {reason}")


class NotAStepError(ValueError):
    """Two layouts that one step does not join."""

    def __init__(self, before: Layout, after: Layout, reason: str) -> None:
        super().__init__(f"{before.code} -> {after.code} is not one step: {reason}")


@dataclass(frozen=True)
class Move:
    """The piece one step moves: its kind and top-left address before and after."""

    kind: PieceKind
    source: int
    target: int


def cell_letter(address: int) -> str:
    return CELL_LETTERS[address]


# ----- reading ------------------------------------------------------------------------------

def parse_pairs(solution: str) -> list[tuple[int, int]]:
    """The (cell address, move digit) of every pair; NotationError on a malformed string."""
    if len(solution) % 2:
        raise NotationError(solution, f"odd length {len(solution)}: every move is a pair of "
                                      "a cell letter g-z and a move digit 0-f")
    pairs = []
    for index in range(len(solution) // 2):
        letter, digit = solution[2 * index], solution[2 * index + 1]
        if letter not in CELL_LETTERS:
            raise NotationError(solution, f"{letter!r} is not a cell letter g-z", index)
        if digit not in "0123456789abcdef":
            raise NotationError(solution, f"{digit!r} is not a move digit 0-f", index)
        pairs.append((CELL_LETTERS.index(letter), int(digit, 16)))
    return pairs


def _move_piece(layout: Layout, address: int, digit: int) -> tuple[Layout, int]:
    """Apply one pair; returns the new layout and the piece's new top-left address.
    Raises ValueError with the reason when the pair is illegal on ``layout``."""
    piece = next((p for p in layout.pieces if p.address == address), None)
    if piece is None:
        raise ValueError(f"no piece has its top-left cell at {cell_letter(address)} "
                         f"(address {address})")
    taken = {cell for other in layout.pieces if other != piece for cell in other.cells}
    kind = piece.kind
    position = address
    for unit in MOVE_ROUTES[digit]:
        row, col = divmod(position, COLS)
        d_row, d_col = _UNIT_MOVES[unit]
        row, col = row + d_row, col + d_col
        if not (0 <= row <= ROWS - kind.height and 0 <= col <= COLS - kind.width):
            raise ValueError(f"moving the {kind.name.lower()} piece at address {address} "
                             f"{unit} leaves the board")
        position = row * COLS + col
        blocked = sorted(set(kind.cells(position)) & taken)
        if blocked:
            raise ValueError(f"moving the {kind.name.lower()} piece at address {address} "
                             f"{unit} is blocked at address {blocked[0]}")
    moved = [Piece(position, kind) if p == piece else p for p in layout.pieces]
    return Layout.from_pieces(moved), position


def replay(start: Layout, solution: str, mirror: bool = False) -> tuple[Layout, ...]:
    """The layouts a solution string passes through, one per step, ``start`` first.

    ``mirror``: the string was written for ``start``'s mirror image (klotski.online's
    ``"mirror": "1"``).  Raises NotationError at the first pair that cannot be played."""
    board = start.mirror() if mirror else start
    path = [board]
    moving: int | None = None
    for index, (address, digit) in enumerate(parse_pairs(solution)):
        try:
            after, position = _move_piece(path[-1], address, digit)
        except ValueError as error:
            raise NotationError(solution, str(error) + (" (on the mirror image)" if mirror
                                                        else ""), index) from None
        moving_on = address == moving
        moving = position
        if not moving_on:
            path.append(after)
        elif len(path) > 1 and path[-2] == after:
            # The piece went back where its step began: no step at all.
            path.pop()
            moving = None
        else:
            # The piece the previous pair moved keeps going: still the same step.
            path[-1] = after
    return tuple(layout.mirror() for layout in path) if mirror else tuple(path)


# ----- writing ------------------------------------------------------------------------------

def step_move(before: Layout, after: Layout) -> Move:
    """The piece that one step moves from ``before`` to ``after``; NotAStepError if none."""
    gone = set(before.pieces) - set(after.pieces)
    came = set(after.pieces) - set(before.pieces)
    if len(gone) != 1 or len(came) != 1:
        raise NotAStepError(before, after, f"{len(gone)} pieces differ, a step moves one")
    (source,), (target,) = gone, came
    if source.kind is not target.kind:
        raise NotAStepError(before, after, "the pieces that differ have different shapes")
    return Move(source.kind, source.address, target.address)


def _shortest_route(before: Layout, move: Move) -> tuple[str, ...]:
    """Unit moves taking the piece from its source to its target through empty cells."""
    kind = move.kind
    taken = {cell for piece in before.pieces if piece != Piece(move.source, kind)
             for cell in piece.cells}
    routes: dict[int, tuple[str, ...]] = {move.source: ()}
    queue = deque([move.source])
    while queue:
        position = queue.popleft()
        if position == move.target:
            return routes[position]
        row, col = divmod(position, COLS)
        for unit, (d_row, d_col) in _UNIT_MOVES.items():
            next_row, next_col = row + d_row, col + d_col
            following = next_row * COLS + next_col
            if (0 <= next_row <= ROWS - kind.height and 0 <= next_col <= COLS - kind.width
                    and following not in routes and not taken & set(kind.cells(following))):
                routes[following] = (*routes[position], unit)
                queue.append(following)
    raise NotAStepError(before, Layout.from_pieces(
        [Piece(move.target, kind) if p == Piece(move.source, kind) else p
         for p in before.pieces]), "the piece cannot slide there through empty cells")


def encode_step(before: Layout, after: Layout) -> str:
    """The pairs of one step: one pair, or several naming the same piece for a long move."""
    move = step_move(before, after)
    route = _shortest_route(before, move)
    pairs = []
    position = move.source
    for first in range(0, len(route), _MAX_UNIT_MOVES_PER_PAIR):
        chunk = route[first:first + _MAX_UNIT_MOVES_PER_PAIR]
        pairs.append(cell_letter(position) + _DIGIT_OF_ROUTE[chunk])
        for unit in chunk:
            d_row, d_col = _UNIT_MOVES[unit]
            position += d_row * COLS + d_col
    return "".join(pairs)


def encode_path(path: Sequence[Layout]) -> str:
    """The solution string of a path of layouts (each one step from the one before): the
    same pairs as :func:`encode_step` on every step, found by one kernel call for the whole
    path (a route search per step in Python took a millisecond a solution)."""
    import numpy as np

    from huarong._kernels import moves

    codes = np.array([int(layout) for layout in path], dtype=np.int64)
    addresses, digits, wrong = moves.solution_pairs(codes)
    if wrong >= 0:
        wrong = int(wrong)
        encode_step(path[wrong], path[wrong + 1])  # raises NotAStepError, saying why
        raise NotAStepError(path[wrong], path[wrong + 1], "no route joins them")
    return "".join(CELL_LETTERS[address] + _HEX_DIGITS[digit]
                   for address, digit in zip(addresses.tolist(), digits.tolist(), strict=True))


_KINDS: Final = tuple(PieceKind)
"""By value, as the kernels number the kinds."""


def child_moves(layout: Layout) -> list[tuple[Layout, Move]]:
    """Every layout one step from ``layout`` (:meth:`Layout.children`'s order) with the piece
    that step moves, by one kernel call: :func:`step_move` decodes both layouts' pieces in
    Python, which took most of the time of ``/api/next``."""
    import numpy as np

    from huarong._kernels import moves as kernels

    children = layout.children()
    codes = np.array([int(child) for child in children], dtype=np.int64)
    kinds, sources, targets = kernels.step_moves(
        np.full(codes.shape[0], int(layout), dtype=np.int64), codes)
    return [(child, Move(_KINDS[kind], source, target)) for child, kind, source, target in zip(
        children, kinds.tolist(), sources.tolist(), targets.tolist(), strict=True)]


def moves(path: Sequence[Layout]) -> list[Move]:
    """The piece moved by each step of ``path``."""
    return [step_move(before, after) for before, after in itertools.pairwise(path)]

