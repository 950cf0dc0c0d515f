"""The design space of ``huarong puzzle design``: which starts a design search may build on a
board (pieces of given shapes, how many of each within a range, walls it may add, the goal
piece and where it must go), each start's value (its cluster's hardest length, by the
engine), and whether every piece of a start matters.

A candidate is a :class:`Design`: the walls it adds and where each piece stands.  Its
value is that of its cluster (:func:`~huarong.puzzles.cluster.cluster_summary`): the
states, the solved states and the hardest start (the smallest code of the states farthest
from any goal, as the exhaustive search breaks ties).  A cluster is known by its canonical
state, its smallest code on its board, so a cluster met again is never searched again.

Minimal (Fogleman's "each piece is important"): without any one piece but the goal piece,
or any one wall the design added, the hardest start is solved in fewer moves.  A preset's
space may value and test its own way (Rush Hour's: :mod:`huarong.puzzles.presets.
rush_hour_design`); :class:`~huarong.puzzles.design_evaluate.Evaluator` keeps the values.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from huarong.puzzles.board import Board, board_spec
from huarong.puzzles.cluster import cluster_summary, solution_length
from huarong.puzzles.grid import (
    EMPTY,
    LETTERS,
    WALL,
    Metric,
    PieceClass,
    PuzzleError,
    Rules,
    Shape,
    join_rows,
    shape_name,
)
from huarong.puzzles.puzzle import Puzzle

Placed = tuple[tuple[int, int], ...]
"""Where the pieces stand: (kind, anchor cell) pairs, sorted; the anchor is the top-left
cell of the piece's bounding box."""

_BOARDS_KEPT = 512
"""Boards (piece counts and walls) whose tables the spaces keep: each built once, reused."""


@dataclass(frozen=True)
class PieceKind:
    """Pieces of one ``shape``, between ``low`` and ``high`` of them in a start;
    ``distinct``: each told apart from the others of its shape (the goal piece when others
    share its shape)."""

    shape: Shape
    low: int
    high: int
    distinct: bool = False

    @functools.cached_property
    def height(self) -> int:
        return 1 + max(r for r, _ in self.shape)

    @functools.cached_property
    def width(self) -> int:
        return 1 + max(c for _, c in self.shape)


@dataclass(frozen=True)
class Design:
    """A candidate start: the ``walls`` the design adds and where its ``pieces`` stand."""

    walls: frozenset[int]
    pieces: Placed

    def counts(self, kinds: int) -> tuple[int, ...]:
        """How many pieces of each kind."""
        found = [0] * kinds
        for kind, _ in self.pieces:
            found[kind] += 1
        return tuple(found)

    def to_json(self) -> dict[str, Any]:
        return {"walls": sorted(self.walls), "pieces": [list(p) for p in self.pieces]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Design:
        return cls(frozenset(int(w) for w in data["walls"]),
                   tuple(sorted((int(k), int(a)) for k, a in data["pieces"])))


@dataclass(frozen=True)
class Value:
    """A candidate's cluster: its ``length`` (hardest start's moves; -1 without a goal),
    ``states``, ``solved`` states, its ``hardest`` start (a design), its canonical ``key``
    and, when a search's objective is not the length, its ``score`` on that objective."""

    length: int
    states: int
    solved: int
    hardest: Design
    key: tuple[Any, ...]
    score: int | None = None

    @property
    def rank(self) -> int:
        """What a search compares: the ``score``, or the length without one."""
        return self.length if self.score is None else self.score


@dataclass(frozen=True)
class Restarts:
    """When and from where a search chain starts again (:mod:`huarong.puzzles.
    design_methods`): ``after`` evaluations without a new best, from a random design a
    ``random`` share of the time, else from a change of the hardest of ``tournament`` of
    its best clusters drawn at random; and every ``epoch`` evaluations (None: never) from a
    random design, its best clusters from then on drawn from those found since."""

    after: int = 100
    random: float = 0.5
    tournament: int = 1
    epoch: int | None = None


@dataclass(frozen=True)
class DesignSpace:
    """What a design search builds: a ``rows`` x ``columns`` board with fixed ``walls``,
    piece ``kinds`` (the first is the goal piece's: a start holds exactly one goal piece
    when it is ``distinct``, else at least one piece of its shape), the ``goal_cells`` the
    goal piece must cover, ``rules``, ``metric`` and how many walls a design may add
    (``wall_range``).

    A space converts its designs: to boards and state codes of the general engine
    (:meth:`board`, :meth:`puzzle`, back by :meth:`design_of`), values them
    (:meth:`value`) and tests their minimality (:meth:`minimal`); a preset's space
    (:mod:`huarong.puzzles.presets`) may value and test its own way."""

    rows: int
    columns: int
    walls: frozenset[int]
    kinds: tuple[PieceKind, ...]
    goal_cells: tuple[int, ...]
    rules: Rules
    metric: Metric
    wall_range: tuple[int, int] = (0, 0)
    empty: tuple[int, int] | None = None
    """How many cells a start leaves empty, at least and at most (None: any number)."""
    example: Design | None = None
    """A start known to fit (a puzzle's own): where chains begin when random packing fails,
    as it does for pieces that fill all but a few cells."""
    groups: tuple[tuple[tuple[int, ...], int, int], ...] = ()
    """Kinds whose pieces together number between a fewest and a most (free shapes of
    ``--pieces any1-3*0-4``)."""
    restarts: ClassVar[Restarts] = Restarts()

    def __post_init__(self) -> None:
        if not self.kinds or self.kinds[0].low < 1:
            raise PuzzleError(self.describe(), "the goal's piece must be among the pieces")
        free = self.rows * self.columns - len(self.walls) - self.wall_range[0]
        least = sum(len(k.shape) * k.low for k in self.kinds)
        if least > free:
            raise PuzzleError(self.describe(), f"the fewest pieces cover {least} cells, the "
                                               f"board has {free} free")
        if self.empty is not None:
            most = sum(len(k.shape) * k.high for k in self.kinds)
            roomiest = self.rows * self.columns - len(self.walls) - self.wall_range[0] - least
            fullest = self.rows * self.columns - len(self.walls) - self.wall_range[1] - most
            if self.empty[1] < max(0, fullest) or self.empty[0] > roomiest:
                raise PuzzleError(self.describe(), f"no start of these pieces leaves "
                                                   f"{self.empty[0]}-{self.empty[1]} cells "
                                                   "empty")

    def describe(self) -> str:
        """The pieces as a spec: ``2x2,1x2*0-4,1x1*2-6``."""
        return ",".join(shape_name(k.shape) + ("" if k.low == k.high == 1 else
                                               f"*{k.low}" if k.low == k.high else
                                               f"*{k.low}-{k.high}") for k in self.kinds)

    def spec(self) -> dict[str, Any]:
        """The space as JSON: what a checkpoint must match."""
        return {"rows": self.rows, "columns": self.columns, "walls": sorted(self.walls),
                "kinds": [[[list(c) for c in k.shape], k.low, k.high, k.distinct]
                          for k in self.kinds],
                "goal": list(self.goal_cells), "rules": self.rules, "metric": self.metric,
                "wall_range": list(self.wall_range),
                "empty": None if self.empty is None else list(self.empty),
                "example": None if self.example is None else self.example.to_json(),
                "groups": [[list(kinds), low, high] for kinds, low, high in self.groups]}

    def file_puzzle(self) -> dict[str, Any]:
        """The puzzle of a result file whose rows each hold their own pieces and goal."""
        return board_spec(self.rows, self.columns, self.walls,
                          [PieceClass(k.shape, (), k.distinct) for k in self.kinds], None,
                          self.rules, self.metric)

    def cells_of(self, kind: int, anchor: int) -> tuple[int, ...]:
        row, column = divmod(anchor, self.columns)
        return tuple((row + r) * self.columns + column + c for r, c in self.kinds[kind].shape)

    def anchors(self, kind: int) -> list[int]:
        """Every anchor where a piece of ``kind`` fits the board (walls aside)."""
        piece = self.kinds[kind]
        return [r * self.columns + c for r in range(self.rows - piece.height + 1)
                for c in range(self.columns - piece.width + 1)]

    @functools.cached_property
    def placement_masks(self) -> tuple[int, tuple[dict[int, int], ...]]:
        """The fixed walls as a mask of cells, and each kind's pieces as masks by anchor
        (every anchor where they fit the board): what :meth:`valid` checks designs with."""
        placements = tuple({anchor: sum(1 << cell for cell in self.cells_of(kind, anchor))
                            for anchor in DesignSpace.anchors(self, kind)}
                           for kind in range(len(self.kinds)))
        return sum(1 << wall for wall in self.walls), placements

    def valid(self, design: Design, *, complete: bool = True) -> bool:
        """Whether a design's pieces fit: inside the board, on free cells, not overlapping,
        the counts and walls within their ranges.  Of a design being built (not
        ``complete``), only the most pieces and walls are checked."""
        if len(design.pieces) > len(LETTERS):
            return False
        counts = design.counts(len(self.kinds))
        for piece, n in zip(self.kinds, counts, strict=True):
            if n > piece.high or (complete and n < piece.low):
                return False
        for kinds, low, high in self.groups:
            total = sum(counts[kind] for kind in kinds)
            if total > high or (complete and total < low):
                return False
        if len(design.walls) > self.wall_range[1] or (
                complete and len(design.walls) < self.wall_range[0]):
            return False
        fixed, placements = self.placement_masks
        added = 0
        for wall in design.walls:
            added |= 1 << wall
        if fixed & added:
            return False
        taken = fixed | added
        if complete and self.empty is not None:
            covered = taken.bit_count() + sum(len(self.kinds[kind].shape)
                                              for kind, _ in design.pieces)
            if not self.empty[0] <= self.rows * self.columns - covered <= self.empty[1]:
                return False
        for kind, anchor in design.pieces:
            cells = placements[kind].get(anchor)
            if cells is None or taken & cells:
                return False
            taken |= cells
        return True

    # ----- designs as the general engine's boards and codes ---------------------------------
    def board(self, counts: tuple[int, ...], walls: frozenset[int]
              ) -> tuple[Board, list[int]]:
        """The board of these piece counts and added walls, and each kind's class (-1: no
        piece of it); built once, kept for the next designs of these counts and walls."""
        return _board_of(self, counts, walls)

    def puzzle(self, design: Design) -> Puzzle:
        """The design as a puzzle (its start the design's placement)."""
        board, class_of = self.board(design.counts(len(self.kinds)), design.walls)
        start = board.code_of([(class_of[kind], self.cells_of(kind, anchor))
                               for kind, anchor in design.pieces], "a design")
        return Puzzle(board, start)

    def design_of(self, board: Board, walls: frozenset[int], code: int) -> Design:
        """The design of a state of one of this space's boards."""
        kind_of = {(piece.shape, piece.distinct): kind for kind, piece in enumerate(self.kinds)}
        pieces = []
        for c, places in enumerate(board.placements_of(code)):
            piece_class = board.classes[c]
            kind = kind_of[(piece_class.shape, piece_class.distinct)]
            first_row, first_column = piece_class.shape[0]
            for p in places:
                cells = board.tables.placements[c][p]
                pieces.append((kind, cells[0] - first_row * self.columns - first_column))
        return Design(walls, tuple(sorted(pieces)))

    def grid(self, design: Design) -> str:
        """The design's start as grid text (walls ``#``, pieces lettered class by class in
        placement order, as the engine's boards format their states), without a state code:
        so on boards whose codes do not fit 63 bits too."""
        cells = [EMPTY] * (self.rows * self.columns)
        for wall in self.walls | design.walls:
            cells[wall] = WALL
        for letter, (kind, anchor) in zip(LETTERS, design.pieces, strict=False):
            for cell in self.cells_of(kind, anchor):
                cells[cell] = letter
        return join_rows(cells, self.columns)

    def goal(self, design: Design) -> str:
        """The goal (grid text) of the board: the goal piece's first letter on the goal cells."""
        cells = [EMPTY] * (self.rows * self.columns)
        for cell in self.goal_cells:
            cells[cell] = LETTERS[0]
        return join_rows(cells, self.columns)

    def changed(self, design: Design, rng: np.random.Generator) -> Design | None:
        """One change of :func:`mutate` (a preset's space may change its designs its own
        way); None when it did not fit."""
        return general_change(self, design, rng)

    # ----- values -------------------------------------------------------------------------
    def value(self, design: Design, limit: int) -> Value:
        """The design's cluster, by the general engine; :class:`ClusterTooLarge` past
        ``limit`` states, :class:`PuzzleError` when its states cannot be coded."""
        puzzle = self.puzzle(design)
        summary = cluster_summary(puzzle, limit=limit)
        key = (design.counts(len(self.kinds)), tuple(sorted(design.walls)), summary.smallest)
        length = -1 if summary.hardest_length is None else summary.hardest_length
        return Value(length, summary.states, summary.solved,
                     self.design_of(puzzle.board, design.walls, summary.hardest), key)

    def minimal(self, design: Design, length: int, limit: int) -> bool:
        """Whether every piece but the goal piece, and every wall the design added, matters:
        without it the start is solved in fewer moves than ``length`` (by the engine, a
        search of at most about ``limit`` states each)."""
        if length < 0:
            return False
        fewer: list[Design] = []
        goal_piece = next(p for p in design.pieces if p[0] == 0)
        for piece in design.pieces:
            if piece != goal_piece:
                fewer.append(Design(design.walls, tuple(p for p in design.pieces
                                                        if p != piece)))
        fewer.extend(Design(design.walls - {wall}, design.pieces) for wall in design.walls)
        for smaller in fewer:
            try:
                moves = solution_length(self.puzzle(smaller), limit=limit)
            except PuzzleError:  # too large to search, or to rank: not shown to matter
                return False
            if moves is not None and moves >= length:
                return False
        return True


@functools.lru_cache(maxsize=_BOARDS_KEPT)
def _board_of(space: DesignSpace, counts: tuple[int, ...], walls: frozenset[int]
              ) -> tuple[Board, list[int]]:
    classes: list[PieceClass] = []
    class_of: list[int] = []
    used = 0
    for kind, count in zip(space.kinds, counts, strict=True):
        class_of.append(len(classes) if count else -1)
        if count:
            classes.append(PieceClass(kind.shape, tuple(LETTERS[used:used + count]),
                                      kind.distinct))
            used += count
    goal = [EMPTY] * (space.rows * space.columns)
    for cell in space.goal_cells:
        goal[cell] = classes[0].letters[0]
    return (Board(space.rows, space.columns, space.walls | walls, tuple(classes),
                  join_rows(goal, space.columns), space.rules, space.metric), class_of)


MAX_STATES = 1_000_000
"""The largest cluster a design search values by default: hard starts live in clusters far
smaller, and a board with much room holds clusters of tens of millions of states, each a
minute to search."""


def random_design(space: DesignSpace, rng: np.random.Generator, tries: int = 50
                  ) -> Design:
    """A design of random counts, pieces placed at random; :class:`PuzzleError` when none
    fits in ``tries``."""
    for _ in range(tries):
        counts = [int(rng.integers(k.low, k.high + 1)) for k in space.kinds]
        for kinds, low, high in space.groups:  # a number in all, shared out at random
            grouped = list(kinds)
            for kind in kinds:
                counts[kind] = 0
            for _ in range(int(rng.integers(low, high + 1))):
                kind = grouped[int(rng.integers(len(grouped)))]
                counts[kind] += 1
                if counts[kind] == space.kinds[kind].high:
                    grouped.remove(kind)
                if not grouped:
                    break
        walls = int(rng.integers(space.wall_range[0], space.wall_range[1] + 1))
        design = Design(frozenset(), ())
        for _ in range(walls):
            design = add_wall(space, design, rng) or design
        order = [0] + [int(k) for k in rng.permutation(
            [kind for kind in range(1, len(space.kinds)) for _ in range(counts[kind])])]
        order += [0] * (counts[0] - 1)
        for kind in order:
            design = add_piece(space, design, kind, rng) or design
        if space.empty is not None:
            design = _filled(space, design, rng)
        if space.valid(design):
            return design
    if space.example is not None:
        return mutate(space, space.example, rng)
    raise PuzzleError(space.describe(), "no start of these pieces fits the board: fewer "
                                        "pieces or a bigger board")


def _filled(space: DesignSpace, design: Design, rng: np.random.Generator) -> Design:
    """The design with pieces added at random (or taken away) until it leaves as many empty
    cells as the space asks, when it can."""
    assert space.empty is not None
    for _ in range(4 * space.rows * space.columns):
        counts = design.counts(len(space.kinds))
        covered = len(space.walls) + len(design.walls) + sum(
            len(space.kinds[kind].shape) for kind, _ in design.pieces)
        empty = space.rows * space.columns - covered
        if empty < space.empty[0]:
            index = int(rng.integers(len(design.pieces)))
            if design.pieces[index][0] != 0 and counts[design.pieces[index][0]] > \
                    space.kinds[design.pieces[index][0]].low:
                design = Design(design.walls, design.pieces[:index] + design.pieces[index + 1:])
        elif empty > space.empty[1]:
            kinds = [k for k, piece in enumerate(space.kinds)
                     if counts[k] < piece.high and len(piece.shape) <= empty]
            if not kinds:
                break
            design = add_piece(space, design, kinds[int(rng.integers(len(kinds)))], rng) \
                or design
        else:
            break
    return design


def add_piece(space: DesignSpace, design: Design, kind: int, rng: np.random.Generator
              ) -> Design | None:
    """The design with one more piece of ``kind`` at a random place where it fits; None when
    it fits nowhere."""
    anchors = space.anchors(kind)
    fixed, placements = space.placement_masks
    taken = fixed | sum(1 << wall for wall in design.walls) | sum(
        placements[k].get(a, 0) for k, a in design.pieces)
    for anchor in rng.permutation(anchors)[:64]:
        # A place it overlaps is refused before the whole check.
        if placements[kind].get(int(anchor), taken) & taken:
            continue
        grown = Design(design.walls, tuple(sorted((*design.pieces, (kind, int(anchor))))))
        if space.valid(grown, complete=False):
            return grown
    return None


def add_wall(space: DesignSpace, design: Design, rng: np.random.Generator) -> Design | None:
    """The design with one more wall on a random free cell; None when none fits."""
    for cell in rng.permutation(space.rows * space.columns)[:64]:
        grown = Design(design.walls | {int(cell)}, design.pieces)
        if int(cell) not in design.walls and space.valid(grown, complete=False):
            return grown
    return None


def mutate(space: DesignSpace, design: Design, rng: np.random.Generator) -> Design:
    """A neighbour of ``design`` in another cluster, mostly: a piece moved to any place
    where it fits, a piece added or taken away, or a wall added, taken away or moved (a
    piece moved one cell onto free cells is a move of the puzzle, the same cluster); the
    design itself when no change fits after a few tries.  Mostly one change, sometimes
    more (as many as a geometric draw says): the clusters one change cannot reach."""
    changes = int(rng.geometric(0.6))
    for _ in range(20):
        changed = design
        for _ in range(changes):
            step = space.changed(changed, rng)
            if step is not None and space.valid(step, complete=False):
                changed = step
        if space.empty is not None and changed != design:
            changed = _filled(space, changed, rng)
        if changed != design and space.valid(changed):
            return changed
    return design


def general_change(space: DesignSpace, design: Design, rng: np.random.Generator, *,
                   add: float = 0.2, remove: float = 0.15) -> Design | None:
    """One change of :func:`mutate` on any board: a piece moved (half the time), one added
    (``add``), one taken away (``remove``, and the walls' share on a board without walls) or
    a wall changed (the rest); None when it did not fit."""
    counts = design.counts(len(space.kinds))
    move = rng.random()
    index = int(rng.integers(len(design.pieces)))
    kind = design.pieces[index][0]
    fewer = Design(design.walls, design.pieces[:index] + design.pieces[index + 1:])
    if move < 0.5:
        return add_piece(space, fewer, kind, rng)
    if move < 0.5 + add:
        kind = int(rng.integers(len(space.kinds)))
        full = counts[kind] >= space.kinds[kind].high
        return None if full else add_piece(space, design, kind, rng)
    if move < 0.5 + add + remove or space.wall_range[1] == 0:
        return None if kind == 0 and counts[0] == 1 else fewer
    walls = sorted(design.walls)
    if walls and (len(walls) == space.wall_range[1] or rng.random() < 0.5):
        fewer = Design(design.walls - {walls[int(rng.integers(len(walls)))]}, design.pieces)
        return add_wall(space, fewer, rng) if rng.random() < 0.5 else fewer
    return add_wall(space, design, rng)


def spec_of_counts(space: DesignSpace, counts: Sequence[int]) -> str:
    """A start's pieces as a spec of exact counts: ``2x2,1x2*3,1x1*4``."""
    return ",".join(shape_name(k.shape) + ("" if n == 1 else f"*{n}")
                    for k, n in zip(space.kinds, counts, strict=True) if n)
