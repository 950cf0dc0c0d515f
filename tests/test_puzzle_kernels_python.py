"""The kernels of the puzzles on small cases, cheap enough to run as plain Python too: the
general engine's cluster search (:mod:`huarong._kernels.cluster`), the exhaustive search
(:mod:`huarong._kernels.exhaustive`), the Rush Hour sweep (:mod:`huarong._kernels.
rush_hour_sweep` and its minimality tests) and the design search's lane-coded Rush Hour
evaluator (:mod:`huarong._kernels.rush_hour_lanes`), each against a count known from elsewhere or a
slow search by the definitions: the plain reference of :mod:`tests.puzzle_reference`, and for
Rush Hour's lanes one written here.  (Bickford's kernels run as plain Python in
``test_sbp_preset.py``.)

CI runs this file a second time with NUMBA_DISABLE_JIT=1, so the kernel lines execute as
Python (visible to coverage, bounds-checked by Python itself)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator
from itertools import product

import numpy as np
import pytest

from . import puzzle_reference as reference

# The hashes wrap their int64 products on purpose; as plain numpy scalars that warns.
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")

class MoveGraph(dict[Hashable, list[Hashable]]):
    """The graph of a move function, as :func:`puzzle_reference.distances` reads it: each
    state's moves found when first asked for."""

    def __init__(self, moves: Callable[[Hashable], Iterable[Hashable]]) -> None:
        super().__init__()
        self.moves = moves

    def __missing__(self, state: Hashable) -> list[Hashable]:
        self[state] = found = list(self.moves(state))
        return found


def test_general_puzzle_kernels_on_the_5_puzzle() -> None:
    # Five distinct tiles on 2x3: half of the 6! arrangements are reachable, 21 moves at
    # most from the goal (an exhaustive count known since the 19th century's 15-puzzle work).
    from huarong.puzzles import cluster_summary, load_puzzle, solve

    puzzle = load_puzzle("ABC/DE.", "ABC/DE.", metric="unit", distinct="ABCDE")
    summary = cluster_summary(puzzle)
    assert (summary.states, summary.solved, summary.hardest_length) == (360, 1, 21)
    shuffled = load_puzzle("BAC/DE.", "ABC/DE.", metric="unit", distinct="ABCDE")
    assert solve(shuffled) is None
    rush = load_puzzle("AA./B../B..", "AA./.../...", metric="slide", rules="length")
    solution = solve(rush.with_options(goal=".AA/.../..."))
    assert solution is not None and solution.length == 1


def test_general_search_stops_once_past_its_limit() -> None:
    """The breadth-first kernel counts a cluster only until it passes the limit: within one
    state's moves of it, though its chunk and layer go further (Klotski's start: 25,955
    states)."""
    from huarong._kernels import cluster as kernels
    from huarong.puzzles import load_puzzle

    tables = load_puzzle("1A9BF0C00").tables
    codes = np.empty(1 << 12, dtype=np.int64)
    codes[0] = load_puzzle("1A9BF0C00").start
    keys, values = kernels.table_of(codes, 1, 13)
    _, size, _, _ = kernels.explore(
        codes, keys, values, 13, np.zeros(0, dtype=np.int64), 0, 1, 1 << 12,
        np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32),
        0, *tables.kernel_args(), tables.most, False, 200)
    assert 200 < size <= 200 + tables.most


# ----- the exhaustive search ---------------------------------------------------------------
@pytest.mark.parametrize(("board", "pieces", "shapes", "goal"), [
    ("3x3", "1x2,2x1,1x1*2", [(1, 2), (2, 1), (1, 1), (1, 1)], (1, 2, 2, 1)),
    ("2x4", "2x2,1x1*2", [(2, 2), (1, 1), (1, 1)], (2, 2, 0, 2)),
])
def test_exhaustive_search_against_every_placement(board: str, pieces: str,
                                                   shapes: list[tuple[int, int]],
                                                   goal: tuple[int, int, int, int]) -> None:
    """Each cluster's states, solved states and hardest length, and its start (a state of
    the cluster that far from a solved state), as the plain reference finds them over every
    placement."""
    from huarong.puzzles.exhaustive import search

    height, width, row, column = goal
    found = search(board, pieces, f"{height}x{width}@{row},{column}")
    rows, columns = (int(side) for side in board.split("x"))
    plain = reference.Board.of("/".join(["." * columns] * rows))
    goal_piece = (reference.rectangle(height, width), "", row, column)
    expected: Counter[tuple[int, int, int]] = Counter()
    may_start: dict[reference.State, tuple[int, int, int]] = {}
    for graph in plain.clusters(plain.placements([reference.rectangle(*s) for s in shapes])):
        solved = {state for state in graph if goal_piece in state}
        distance = reference.distances(graph, solved)
        length = max(distance.values()) if solved else -1
        figures = (len(graph), len(solved), length)
        expected[figures] += 1
        may_start.update(dict.fromkeys(
            (state for state in graph if distance.get(state, -1) == length), figures))
    rows_found = list(zip(found.states.tolist(), found.solved.tolist(), found.length.tolist(),
                          strict=True))
    assert Counter(rows_found) == expected
    for figures, start in zip(rows_found, found.board.grids(found.start), strict=True):
        assert may_start[reference.state_of(start)] == figures


# ----- Rush Hour -----------------------------------------------------------------------------
Vehicle = tuple[bool, int, int]
"""(vertical, lane: its row or column, length)."""


class LaneArrangement:
    """Every placement of a Rush Hour board's vehicles that keeps each lane's order, its
    clusters and rows by the definitions (a move slides one vehicle any distance; the red
    car ``A`` is out at column 4; a row's start is the state farthest from a solved one, of
    those the smallest (horizontal cells and walls, vertical cells) pair, and each other
    piece, wall or vehicle, is needed: without it, fewer moves)."""

    def __init__(self, board: str) -> None:
        where: dict[str, list[int]] = {}
        for cell, letter in enumerate(board):
            if letter not in "ox":
                where.setdefault(letter, []).append(cell)
        self.walls = frozenset(cell for cell, letter in enumerate(board) if letter == "x")
        self.vehicles: list[Vehicle] = []
        start = []
        for cells in where.values():
            vertical = cells[1] - cells[0] == 6
            self.vehicles.append((vertical, cells[0] % 6 if vertical else cells[0] // 6,
                                  len(cells)))
            start.append(cells[0] // 6 if vertical else cells[0] % 6)
        self.red = list(where).index("A")
        order = self._lane_order(tuple(start))
        ranges = [range(7 - length) for _, _, length in self.vehicles]
        self.states = {state for state in product(*ranges)
                       if self._taken(state) is not None and self._lane_order(state) == order}

    def _lane_order(self, state: tuple[int, ...]) -> list[list[int]]:
        lanes: dict[tuple[bool, int], list[int]] = {}
        for i, (vertical, lane, _) in enumerate(self.vehicles):
            lanes.setdefault((vertical, lane), []).append(i)
        return [sorted(members, key=lambda i: state[i]) for _, members in sorted(lanes.items())]

    def cells(self, i: int, position: int) -> list[int]:
        vertical, lane, length = self.vehicles[i]
        return [(position + k) * 6 + lane if vertical else lane * 6 + position + k
                for k in range(length)]

    def _taken(self, state: tuple[int, ...], gone: int = -1,
               walls: frozenset[int] | None = None) -> set[int] | None:
        """The cells taken, vehicle ``gone`` left out; None when two pieces overlap."""
        taken = set(self.walls if walls is None else walls)
        for i, position in enumerate(state):
            if i != gone:
                cells = self.cells(i, position)
                if taken & set(cells):
                    return None
                taken |= set(cells)
        return taken

    def moves(self, state: tuple[int, ...], gone: int = -1,
              walls: frozenset[int] | None = None) -> Iterator[tuple[int, ...]]:
        taken = self._taken(state, gone, walls)
        assert taken is not None
        for i, position in enumerate(state):
            if i == gone:
                continue
            mine = set(self.cells(i, position))
            for step in (-1, 1):
                q = position + step
                while 0 <= q <= 6 - self.vehicles[i][2] and not (
                        set(self.cells(i, q)) - mine) & taken:
                    yield (*state[:i], q, *state[i + 1:])
                    q += step

    def solved(self, state: tuple[int, ...]) -> bool:
        return state[self.red] == 4

    def is_seed(self, state: tuple[int, ...]) -> bool:
        """Solved, and no other vehicle can move left or up."""
        taken = self._taken(state)
        assert taken is not None
        return self.solved(state) and all(
            i == self.red or position == 0 or self.cells(i, position - 1)[0] in taken
            for i, position in enumerate(state))

    def board(self, state: tuple[int, ...]) -> str:
        """The cells, ``x`` walls, ``o`` empty, vehicles lettered by their first cell."""
        cells = ["x" if cell in self.walls else "o" for cell in range(36)]
        for i, position in enumerate(state):
            for cell in self.cells(i, position):
                cells[cell] = chr(ord("A") + i)
        return _lettered("".join(cells))

    def masks(self, state: tuple[int, ...]) -> tuple[int, int]:
        across, down = sum(1 << cell for cell in self.walls), 0
        for i, position in enumerate(state):
            for cell in self.cells(i, position):
                if self.vehicles[i][0]:
                    down |= 1 << cell
                else:
                    across |= 1 << cell
        return across, down

    def still_needs(self, start: tuple[int, ...], moves: int, gone: int,
                    walls: frozenset[int]) -> bool:
        """Whether the start without vehicle ``gone`` (or with only ``walls``) still needs
        ``moves`` moves or more."""
        reached = reference.distances(
            MoveGraph(lambda state: self.moves(state, gone, walls)), {start})
        return min(d for state, d in reached.items() if self.solved(state)) >= moves

    def clusters(self) -> list[tuple[set[tuple[int, ...]], int]]:
        """Each cluster with a solved state and its number of solved states."""
        found = []
        left = set(self.states)
        while left:
            cluster = set(reference.distances(MoveGraph(self.moves), {left.pop()}))
            left -= cluster
            solved = sum(self.solved(state) for state in cluster)
            if solved:
                found.append((cluster, solved))
        return found

    def rows(self) -> set[tuple[int, int, int, str]]:
        """(moves, states, solved states, start) of each cluster that passes."""
        found = set()
        for cluster, solved in self.clusters():
            distance = reference.distances(MoveGraph(self.moves),
                                           {s for s in cluster if self.solved(s)})
            hardest = max(distance.values())
            start = min((s for s, d in distance.items() if d == hardest), key=self.masks)
            others = [(i, self.walls) for i in range(len(self.vehicles)) if i != self.red]
            others += [(-1, self.walls - {wall}) for wall in self.walls]
            if hardest and not any(self.still_needs(start, hardest, gone, walls)
                                   for gone, walls in others):
                found.add((hardest, len(cluster), solved, self.board(start)))
        return found


def _lettered(board: str) -> str:
    """The board with its vehicles lettered A, B, ... in the order of their first cells."""
    letters: dict[str, str] = {}
    return "".join(glyph if glyph in "ox" else letters.setdefault(glyph, chr(65 + len(letters)))
                   for glyph in board)


RUSH_BOARDS = [
    "oooooo" "oooBoo" "AAoBoo" "oooooo" "oooooo" "oooooo",
    "oooCCo" "ooooGx" "xAAoGH" "ooFooH" "ooFEEE" "oooooo",
]
"""A truck that blocks the red car; cars and trucks in rows and columns, and walls (one in
the red car's row)."""


@pytest.mark.parametrize("board", RUSH_BOARDS)
def test_lane_coded_cluster_against_every_placement(board: str) -> None:
    """The lane-coded evaluator (:mod:`huarong._kernels.rush_hour_lanes` and its searches)
    on the board's start: its cluster's states, solved states and hardest length as
    :class:`LaneArrangement` finds them, the hardest start one of the farthest, and every
    piece needed exactly when the arrangement's test says so; each vehicle the search
    gives as moved by a shortest solution of the hardest start is needed by it, and the
    test that takes them as known answers the same."""
    from huarong.puzzles.lanes import LaneBoard, LaneSearch, lanes_minimal

    plain = LaneArrangement(board)
    cells = {letter: [c for c, glyph in enumerate(board) if glyph == letter]
             for letter in dict.fromkeys(board) if letter not in "ox"}
    start = tuple(c[0] // 6 if c[1] - c[0] == 6 else c[0] % 6 for c in cells.values())
    order = [plain.red] + [i for i in range(len(start)) if i != plain.red]

    def board_at(state: tuple[int, ...]) -> LaneBoard:
        return LaneBoard(6, 6, plain.walls, tuple((*plain.vehicles[i], state[i])
                                                 for i in order),
                         tuple(range(1, len(order) + 1)), 4)

    found = LaneSearch().profile(board_at(start))
    cluster = set(reference.distances(MoveGraph(plain.moves), {start}))
    distance = reference.distances(MoveGraph(plain.moves), {s for s in cluster if plain.solved(s)})
    hardest = max(distance.values())
    assert (found.states, found.solved, found.hardest_length) == (
        len(cluster), sum(map(plain.solved, cluster)), hardest)
    farthest = {s for s, d in distance.items() if d == hardest}
    hardest_start = tuple(found.hardest[order.index(i)] for i in range(len(start)))
    assert hardest_start in farthest
    others = [(i, plain.walls) for i in range(len(start)) if i != plain.red]
    others += [(-1, plain.walls - {wall}) for wall in plain.walls]
    needed = not any(plain.still_needs(hardest_start, hardest, gone, walls)
                     for gone, walls in others)
    assert lanes_minimal(board_at(hardest_start), plain.walls, hardest) == needed
    assert 0 in found.needed  # the red car: every solution moves it
    assert not any(plain.still_needs(hardest_start, hardest, order[v], plain.walls)
                   for v in found.needed - {0})
    assert lanes_minimal(board_at(hardest_start), plain.walls, hardest,
                         needed=found.needed) == needed


@pytest.mark.parametrize("board", RUSH_BOARDS)
def test_rush_hour_sweep_against_every_placement(board: str) -> None:
    """The tallies of each mode and the rows (moves, states, solved states, start) of one
    lane arrangement as :class:`LaneArrangement` finds them; Fogleman's test, which removes
    only the pieces his solver's solution leaves unmoved, keeps at least those rows, and
    only rows of clusters."""
    from huarong._kernels.rush_hour import CLUSTERS, ENUMERATE, FOGLEMAN, MINIMAL
    from huarong.puzzles.presets import rush_hour as rush

    arrangement = LaneArrangement(board)
    every = arrangement.clusters()
    seeds = sum(map(arrangement.is_seed, arrangement.states))
    unit = rush.unit_of(board)
    for mode, expected in ((ENUMERATE, [seeds, 0, 0, 0]),
                           (CLUSTERS, [seeds, len(every), sum(len(c) for c, _ in every), 0])):
        tallies = np.zeros(4, dtype=np.int64)
        rush.search_unit(unit, mode, tallies)
        assert tallies.tolist() == expected

    def rows(mode: int) -> set[tuple[int, int, int, str]]:
        found = rush.search_unit(unit, mode)
        return {(int(m), int(s), int(n), _lettered(bytes(b).decode())) for m, s, n, b in zip(
            found["moves"], found["states"], found["solved"], found["board"], strict=True)}

    minimal = arrangement.rows()
    assert minimal and rows(MINIMAL) == minimal
    hardest_of_clusters = {(moves, states) for moves, states, _, _ in rows(FOGLEMAN)}
    assert {(moves, states) for moves, states, _, _ in minimal} <= hardest_of_clusters
    assert all(states in {len(c) for c, _ in every} for _, states in hardest_of_clusters)
