"""The Rush Hour preset's design space (``huarong puzzle design --preset rush-hour``): M.
Fogleman's definitions on a board of any size up to 8x8, each start valued on lane-coded
keys (:mod:`huarong.puzzles.lanes`) rather than by the general engine, and tested by his
program's minimality on his 6x6 board (the preset's kernels), by every piece elsewhere."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from huarong._kernels.rush_hour_board import SIDE
from huarong.puzzles.design import (
    Design,
    DesignSpace,
    PieceKind,
    Restarts,
    Value,
    general_change,
)
from huarong.puzzles.grid import PuzzleError, rectangle
from huarong.puzzles.lanes import LaneBoard, LaneCodeTooLarge, LaneSearch, lanes_minimal

SAME_COUNT = 0.5
"""The share of a Rush Hour design's changes that keep its vehicles and walls as many (the
hardest starts are dense: M. Fogleman's 60-move one holds 12 vehicles and a wall); of
those, :data:`SWAP` a vehicle swapped for one of another kind, :data:`ASIDE` one moved to a
lane beside, the rest a wall moved (measured: the design search's page)."""
SWAP = 0.4
ASIDE = 0.4

ADD = 0.25
REMOVE = 0.10
"""On Fogleman's 6x6 board, of the changes that do not keep the counts, the shares that add
a vehicle and that take one away (any board's: 0.2 and 0.15): his hardest starts are dense
(12 vehicles with walls, 13 without), and the walk stays nearer them (measured there: the
design search's page; larger boards keep any board's shares, with which their records were
found)."""

RUSH_HOUR_WALLS = (0, 2)
"""Fogleman's walls on a board: none to two (his ``MaxWalls``)."""

NEEDED_KEPT = 1 << 12
"""The hardest starts a thread remembers the needed vehicles of (:func:`_needed`)."""

_searches = threading.local()


def _lane_search() -> LaneSearch:
    """This thread's search (its arrays reused from one start to the next)."""
    search: LaneSearch | None = getattr(_searches, "search", None)
    if search is None:
        search = _searches.search = LaneSearch()
    return search


def _needed() -> OrderedDict[tuple[RushHourSpace, Design], frozenset[tuple[int, int]]]:
    """This thread's last :data:`NEEDED_KEPT` hardest starts valued, each with the vehicles
    a shortest solution of it moves (:attr:`~huarong.puzzles.lanes.LaneProfile.needed`):
    its minimality test, which follows, need not test them."""
    needed: OrderedDict[tuple[RushHourSpace, Design], frozenset[tuple[int, int]]] | None = (
        getattr(_searches, "needed", None))
    if needed is None:
        needed = _searches.needed = OrderedDict()
    return needed


@dataclass(frozen=True)
class RushHourSpace(DesignSpace):
    """Fogleman's Rush Hour: the goal piece (the red car) on its own row, the row's only
    horizontal vehicle, walls of that row left of it; every row's vehicles and walls and
    every column's vehicles covering at most all cells but one.  ``fogleman`` (his 6x6
    board): minimality by his program's test, else every piece tested; and the changes'
    own shares of vehicles added and taken away (:data:`ADD`, :data:`REMOVE`)."""

    fogleman: bool = False
    restarts: ClassVar[Restarts] = Restarts(after=1000, random=0.2, tournament=3,
                                            epoch=100_000)
    """A chain walks a basin ten times as long as on other boards before it starts again,
    mostly from a change of one of its hardest clusters; and it begins afresh every 100,000
    evaluations, since a tabu chain that reaches Fogleman's 60 does so within about 60,000
    and one that does not stays where it is (measured: the design search's page)."""

    @property
    def goal_row(self) -> int:
        return self.goal_cells[0] // self.columns

    def spec(self) -> dict[str, Any]:
        return {**super().spec(), "preset": "rush-hour", "fogleman": self.fogleman}

    def anchors(self, kind: int) -> list[int]:
        if kind:
            return super().anchors(kind)
        return [self.goal_row * self.columns + c
                for c in range(self.columns - self.kinds[0].width + 1)]

    def valid(self, design: Design, *, complete: bool = True) -> bool:
        return super().valid(design, complete=complete) and self._in_lanes(design)

    def _in_lanes(self, design: Design) -> bool:
        rows = [0] * self.rows
        columns = [0] * self.columns
        width = self.columns
        goal_row = self.goal_row
        red = next((anchor for kind, anchor in design.pieces if kind == 0), None)
        for wall in design.walls | self.walls if self.walls else design.walls:
            row, column = divmod(wall, width)
            rows[row] += 1
            if row == goal_row and red is not None and column > red % width:
                return False
        kinds = self.kinds
        for kind, anchor in design.pieces:
            piece = kinds[kind]
            row, column = divmod(anchor, width)
            if piece.height == 1:
                if row == goal_row and kind != 0:
                    return False
                rows[row] += piece.width
            else:
                columns[column] += piece.height
        return max(rows) < width and max(columns) < self.rows

    def changed(self, design: Design, rng: np.random.Generator) -> Design | None:
        """A change of any board's (:func:`~huarong.puzzles.design.general_change`), or
        (:data:`SAME_COUNT` of them) one that keeps the vehicles and walls as many: a
        vehicle swapped for one of another kind over its cells, a vehicle moved to a lane
        beside its own, or a wall moved to a cell beside it."""
        if rng.random() >= SAME_COUNT:
            return self._counted(design, rng)
        others = [piece for piece in design.pieces if piece[0] != 0]
        if not others:
            return self._counted(design, rng)
        move = rng.random() * (1.0 if design.walls else SWAP + ASIDE)
        if move < SWAP + ASIDE:
            piece = others[int(rng.integers(len(others)))]
            fewer = Design(design.walls, tuple(p for p in design.pieces if p != piece))
            for placed in (self._swaps(piece, rng) if move < SWAP else
                           self._asides(piece, rng)):
                grown = Design(fewer.walls, tuple(sorted((*fewer.pieces, placed))))
                if self.valid(grown, complete=False):
                    return grown
            return None
        walls = sorted(design.walls)
        wall = walls[int(rng.integers(len(walls)))]
        beside = self._beside(wall, *((0, 1), (0, -1), (1, 0), (-1, 0))[int(rng.integers(4))])
        if beside is None or beside in design.walls:
            return None
        moved = Design(design.walls - {wall} | {beside}, design.pieces)
        return moved if self.valid(moved, complete=False) else None

    def _counted(self, design: Design, rng: np.random.Generator) -> Design | None:
        """A change of any board's; on Fogleman's board with the shares of vehicles added
        and taken away measured there (:data:`ADD`, :data:`REMOVE`)."""
        if not self.fogleman:
            return general_change(self, design, rng)
        return general_change(self, design, rng, add=ADD, remove=REMOVE)

    def _swaps(self, piece: tuple[int, int], rng: np.random.Generator
               ) -> list[tuple[int, int]]:
        """Vehicles of a kind other than ``piece``'s (and the red car's) over some of its
        cells, in random order."""
        kind, anchor = piece
        other = int(rng.integers(1, len(self.kinds) - 1))
        other += other >= kind
        placements = self.placement_masks[1]
        over = [a for a, cells in placements[other].items() if cells & placements[kind][anchor]]
        return [(other, int(a)) for a in rng.permutation(over)]

    def _asides(self, piece: tuple[int, int], rng: np.random.Generator
                ) -> list[tuple[int, int]]:
        """The vehicle moved to a lane beside its own, and along it by -1 to 1 cells."""
        kind, anchor = piece
        side = int(rng.choice((-1, 1)))
        along = int(rng.integers(-1, 2))
        beside = self._beside(anchor, *((along, side) if self.kinds[kind].width == 1 else
                                        (side, along)))
        return [] if beside is None else [(kind, beside)]

    def _beside(self, cell: int, rows: int, columns: int) -> int | None:
        """The cell ``rows`` down and ``columns`` right of ``cell``; None off the board."""
        row, column = divmod(cell, self.columns)
        row, column = row + rows, column + columns
        return row * self.columns + column if (0 <= row < self.rows and
                                               0 <= column < self.columns) else None

    def lane_board(self, design: Design) -> LaneBoard:
        """The design as the lane engine's board: its vehicles in the general engine's
        class order (the design's pieces are sorted by kind)."""
        vehicles = []
        ends = []
        for index, (kind, anchor) in enumerate(design.pieces):
            piece = self.kinds[kind]
            row, column = divmod(anchor, self.columns)
            if index and kind != design.pieces[index - 1][0]:
                ends.append(index)
            vehicles.append((True, column, piece.height, row) if piece.width == 1 else
                            (False, row, piece.width, column))
        ends.append(len(vehicles))
        return LaneBoard(self.rows, self.columns, self.walls | design.walls, tuple(vehicles),
                         tuple(ends), self.goal_cells[0] % self.columns,
                         unit=self.metric == "unit")

    def _design_at(self, design: Design, board: LaneBoard, positions: tuple[int, ...]
                   ) -> Design:
        return Design(design.walls, tuple(sorted(
            (kind, board.anchor(v, position))
            for v, ((kind, _), position) in enumerate(zip(design.pieces, positions,
                                                          strict=True)))))

    def value(self, design: Design, limit: int) -> Value:
        board = self.lane_board(design)
        try:
            profile = _lane_search().profile(board, limit=limit)
        except LaneCodeTooLarge:
            return super().value(design, limit)
        smallest = self._design_at(design, board, profile.smallest)
        hardest = self._design_at(design, board, profile.hardest)
        key = (design.counts(len(self.kinds)), tuple(sorted(design.walls)),
               tuple(cell for piece in smallest.pieces for cell in piece))
        needed = _needed()
        needed[self, hardest] = frozenset((design.pieces[v][0],
                                           board.anchor(v, profile.hardest[v]))
                                          for v in profile.needed)
        if len(needed) > NEEDED_KEPT:
            needed.popitem(last=False)
        return Value(profile.hardest_length, profile.states, profile.solved, hardest, key)

    def minimal(self, design: Design, length: int, limit: int) -> bool:
        if length < 0:
            return False
        # The vehicles known to be needed when this thread valued the start: not tested.
        known = _needed().get((self, design), frozenset())
        if self.fogleman:
            return self._fogleman_minimal(design, length, known)
        return lanes_minimal(self.lane_board(design), design.walls, length, limit=limit,
                             needed=frozenset(v for v, piece in enumerate(design.pieces)
                                              if piece in known))

    def _fogleman_minimal(self, design: Design, length: int,
                          known: frozenset[tuple[int, int]]) -> bool:
        """His test, his pieces in his order: the red car, the rows' vehicles row by row
        left to right, then the columns' column by column top to bottom."""
        from huarong.puzzles.presets.fogleman_minimality import fogleman_lanes_minimal

        board = self.lane_board(design)
        lanes = {v: (int(vertical), lane, position, size)
                 for v, (vertical, lane, size, position) in enumerate(board.vehicles)}
        order = sorted(range(1, len(lanes)), key=lanes.__getitem__)
        red = board.vehicles[0]
        return fogleman_lanes_minimal(
            [(0, red[1], red[3], red[2]), *(lanes[v] for v in order)], sorted(board.walls),
            length, [True, *(design.pieces[v] in known for v in order)] if known else ())


def rush_hour_space(rows: int = 6, columns: int = 6, *,
                    walls: tuple[int, int] = RUSH_HOUR_WALLS) -> RushHourSpace:
    """Fogleman's Rush Hour on a ``rows`` x ``columns`` board: the red car (a distinct 1x2)
    on row ``(rows - 1) // 2`` to the right edge, any number of cars (1x2, 2x1) and trucks
    (1x3, 3x1) that fit his lanes, each moved along its length any distance, and ``walls``
    walls (fixed cells; 0-2 in his database).  On his 6x6 board a start is minimal by his
    program's test, on any other by the every-piece test."""
    if min(rows, columns) < 3 or max(rows, columns) > 8:
        raise PuzzleError(f"{rows}x{columns}", "a Rush Hour board has 3 to 8 rows and "
                                               "columns")
    red_row = (rows - 1) // 2
    vehicles = [PieceKind(rectangle(1, 2), 1, 1, distinct=True)]
    vehicles += [PieceKind(rectangle(1, length), 0, (rows - 1) * (columns - 1) // length)
                 for length in (2, 3)]
    vehicles += [PieceKind(rectangle(length, 1), 0, (columns) * (rows - 1) // length)
                 for length in (2, 3)]
    return RushHourSpace(rows, columns, frozenset(), tuple(vehicles),
                         (red_row * columns + columns - 2, red_row * columns + columns - 1),
                         "length", "slide", walls, fogleman=rows == columns == SIDE)
