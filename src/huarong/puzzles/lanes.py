"""Rush Hour clusters on lane-coded keys (:mod:`huarong._kernels.rush_hour_lanes`): the
specialised engine for vehicles that each move along one row or column, on any board up to
8x8 with any number of vehicles and walls.  It answers what the general engine's
:func:`~huarong.puzzles.cluster.cluster_summary` answers for such a board (the same
hardest start, picked by the same order) some ten times faster, and on boards whose general
state codes do not fit 63 bits.

A :class:`LaneBoard` is the board, its walls and its vehicles (each ``(vertical, lane,
length, position)``, the goal vehicle first, and their order among the general engine's
classes); :class:`LaneSearch` values starts on boards, keeping its arrays between calls
(one per thread); :func:`lane_solution` finds an optimal solution; :func:`lanes_minimal`
tests that every piece is needed.  :mod:`huarong.puzzles.lane_puzzle` makes a puzzle of
them that the general engine's functions hand to this engine.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np

from huarong.puzzles.grid import ClusterTooLarge, PuzzleError

Vehicle = tuple[bool, int, int, int]
"""(whether vertical, its row or column, its length, its position along the lane)."""

RECENT_STATES = 1 << 21
"""The states of the clusters a :class:`LaneSearch` remembers (16 MiB), a cluster of more
than a quarter of them not remembered: a climb on the 6x6 board met a cluster of 293,622
states four times in 3,000 evaluations, a quarter of the states it searched."""
_LINKS_KEPT = 1 << 24
"""The most links (int32: 64 MiB) a search keeps for the next: each state holds two a
vehicle."""
_MOST_STATES = (1 << 31) - 2
"""The most states a search holds: its indices are int32."""


@dataclass(frozen=True)
class LaneBoard:
    """A board of ``rows`` x ``columns`` with ``walls``, its ``vehicles`` (the goal vehicle
    first, solved at position ``target`` of its lane), ``class_end`` (where each class of
    vehicles ends among them, taken in the order ``ranked``: the general engine's classes,
    in its order; ``ranked`` empty: as listed) and whether a move is one cell (``unit``)
    or any distance."""

    rows: int
    columns: int
    walls: frozenset[int]
    vehicles: tuple[Vehicle, ...]
    class_end: tuple[int, ...]
    target: int
    unit: bool = False
    ranked: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        shown = f"{self.rows}x{self.columns} board of vehicles {list(self.vehicles)}"
        if not (1 <= self.rows <= 8 and 1 <= self.columns <= 8):
            raise PuzzleError(shown, "the lane engine takes boards of 1 to 8 rows and columns")
        if not self.vehicles:
            raise PuzzleError(shown, "no goal vehicle")
        order = self.rank_order().tolist()
        if sorted(order) != list(range(len(self.vehicles))):
            raise PuzzleError(shown, f"vehicles ranked {list(self.ranked)}: not each vehicle "
                                     "once")
        goal_at = order.index(0)
        if list(self.class_end) != sorted(self.class_end) or not self.class_end or \
                self.class_end[-1] != len(self.vehicles) or \
                goal_at + 1 not in self.class_end or goal_at not in (0, *self.class_end):
            raise PuzzleError(shown, f"classes ending at {list(self.class_end)}: not groups "
                                     "of the vehicles, the goal vehicle's alone")
        taken = self.wall_mask
        if any(not 0 <= w < self.rows * self.columns for w in self.walls):
            raise PuzzleError(shown, f"walls {sorted(self.walls)} leave the board")
        for vertical, lane, length, position in self.vehicles:
            size = self.rows if vertical else self.columns
            lanes = self.columns if vertical else self.rows
            if length < 2 or not 0 <= lane < lanes or not 0 <= position <= size - length:
                raise PuzzleError(shown, f"vehicle {(vertical, lane, length, position)} is "
                                         "not two cells long or more, on the board")
            cells = _cells(self.columns, vertical, lane, length, position)
            if cells & taken:
                raise PuzzleError(shown, f"vehicle {(vertical, lane, length, position)} "
                                         "overlaps a wall or another vehicle")
            taken |= cells
        goal_size = self.rows if self.vehicles[0][0] else self.columns
        if not 0 <= self.target <= goal_size - self.vehicles[0][2]:
            raise PuzzleError(shown, f"the goal vehicle's target {self.target} is off its lane")

    @property
    def wall_mask(self) -> int:
        return sum(1 << w for w in self.walls)

    def rank_order(self) -> np.ndarray:
        """The vehicles' indices in the general engine's class order (int64)."""
        return np.array(self.ranked or range(len(self.vehicles)), dtype=np.int64)

    def vehicle_array(self) -> np.ndarray:
        """The vehicles as the kernels take them: (N, 4) int64."""
        return np.array([[int(v), lane, length, position]
                         for v, lane, length, position in self.vehicles],
                        dtype=np.int64).reshape(-1, 4)

    def anchor(self, vehicle: int, position: int) -> int:
        """The anchor cell (top-left) of a vehicle at ``position``."""
        vertical, lane, _, _ = self.vehicles[vehicle]
        return position * self.columns + lane if vertical else lane * self.columns + position


def vehicle_cells(columns: int, vertical: bool, lane: int, length: int, position: int
                  ) -> list[int]:
    """The cells of a vehicle of ``length`` at ``position`` along its lane (a column when
    ``vertical``, else a row) on a board of ``columns``."""
    return [(position + k) * columns + lane if vertical else lane * columns + position + k
            for k in range(length)]


@functools.cache
def _cells(columns: int, vertical: bool, lane: int, length: int, position: int) -> int:
    return sum(1 << cell for cell in vehicle_cells(columns, vertical, lane, length, position))


@dataclass(frozen=True)
class LaneProfile:
    """A start's cluster: its ``states``, ``solved`` states, ``hardest_length`` (-1: no
    solved state), the ``hardest`` start (without a solved state, the first state by the
    general engine's code) and the cluster's ``smallest`` state (its canonical state), each
    as the vehicles' positions; and the vehicles a shortest solution of the hardest start
    moves (``needed``, by index: each is needed by that start, as the solution less its
    moves would be shorter)."""

    states: int
    solved: int
    hardest_length: int
    hardest: tuple[int, ...]
    smallest: tuple[int, ...]
    needed: frozenset[int] = frozenset()


class LaneCodeTooLarge(PuzzleError):
    """A board whose lane-coded states need more than 63 bits."""


@dataclass(frozen=True, eq=False)
class _Searched:
    """A cluster searched lately: its states (sorted), figures and keys."""

    states: np.ndarray
    solved: int
    hardest_length: int
    hardest: int
    smallest: int
    moved: frozenset[tuple[int, int]]
    """The vehicles a shortest solution of the hardest start moves, each as its lane's
    index in the tables and its index in the lane (the same for every board of equal
    tables, whatever the order of its vehicles)."""


class LaneSearch:
    """Values starts by lane-coded breadth-first searches, its arrays (states, table,
    distances) kept from one call to the next: one a thread.  It remembers the clusters it
    searched lately (:data:`RECENT_STATES` states in all): a design search meets one
    cluster again and again (a change of its hardest start that stays in it), and a start
    of one of them is answered by a look-up."""

    def __init__(self) -> None:
        self.recent: OrderedDict[tuple[Any, ...], list[_Searched]] = OrderedDict()
        self.recent_states = 0
        size = 1 << 12
        self.states = np.empty(size, dtype=np.int64)
        self.keys = np.full(2 * size, -1, dtype=np.int64)
        self.values = np.empty(2 * size, dtype=np.int32)
        self.links = np.empty(_LINKS_KEPT // 16, dtype=np.int32)
        self.distance = np.empty(size, dtype=np.int32)
        self.order = np.empty(size, dtype=np.int32)

    def profile(self, board: LaneBoard, *, limit: int = 1 << 40) -> LaneProfile:
        """The cluster of the board's start (the vehicles' positions);
        :class:`~huarong.puzzles.cluster.ClusterTooLarge` past ``limit`` states,
        :class:`LaneCodeTooLarge` when its states need more than 63 bits."""
        from huarong._kernels import rush_hour_lanes_search as search

        if limit < 1:
            raise PuzzleError(str(limit), "a cluster's limit is one state or more")
        cap = min(limit, _MOST_STATES)
        vehicles = board.vehicle_array()
        tables = _lane_tables(board)
        lanes, cells, positions, move_start, moves, goal_config, slots, fixed, start = tables
        # Boards of equal tables give their states equal keys: the lanes, their
        # configurations and the cells no vehicle leaves say all.
        signature = (int(fixed), board.unit, lanes.tobytes(), cells.tobytes(),
                     positions.tobytes(), goal_config.tobytes(), board.class_end,
                     board.ranked)
        for known in self.recent.get(signature, ()):
            at = int(np.searchsorted(known.states, start))
            if at < known.states.shape[0] and known.states[at] == start:
                self.recent.move_to_end(signature)
                return _profile(known.states.shape[0], known, vehicles, tables)
        (figures, self.states, self.keys, self.values, self.links, self.distance,
         self.order) = search.cluster(
            lanes, cells, positions, move_start, moves, goal_config, slots, fixed,
            np.array(board.class_end, dtype=np.int64), board.rank_order(), board.unit, start,
            cap, self.states,
            self.keys, self.values, self.links, self.distance, self.order)
        if self.links.shape[0] > _LINKS_KEPT:  # a huge cluster's links go with it
            self.links = np.empty(_LINKS_KEPT // 16, dtype=np.int32)
        states = int(figures[search.STATES])
        if states > cap:
            raise ClusterTooLarge(f"{board.rows}x{board.columns} board of vehicles "
                                   f"{list(board.vehicles)}",
                                   f"its cluster has more than {cap:,} states")
        found = _Searched(np.sort(self.states[:states]), int(figures[search.SOLVED]),
                          int(figures[search.HARDEST]), int(figures[search.HARDEST_KEY]),
                          int(figures[search.SMALLEST_KEY]),
                          _vehicles_of(int(figures[search.MOVED]), slots))
        self._remember(signature, found)
        return _profile(states, found, vehicles, tables)

    def _remember(self, signature: tuple[Any, ...], found: _Searched) -> None:
        if found.states.shape[0] > RECENT_STATES // 4:
            return
        self.recent.setdefault(signature, []).append(found)
        self.recent.move_to_end(signature)
        self.recent_states += found.states.shape[0]
        while self.recent_states > RECENT_STATES:
            _, forgotten = self.recent.popitem(last=False)
            self.recent_states -= sum(known.states.shape[0] for known in forgotten)


def _lane_tables(board: LaneBoard) -> tuple[Any, ...]:
    """The board's tables (:func:`~huarong._kernels.rush_hour_lanes.lane_tables`);
    :class:`LaneCodeTooLarge` when its states need more than 63 bits."""
    from huarong._kernels.rush_hour_lanes import lane_tables

    tables: tuple[Any, ...] = lane_tables(
        board.rows, board.columns, np.int64(_signed(board.wall_mask)), board.vehicle_array(),
        board.target, board.unit)
    if tables[-1] < 0:
        raise LaneCodeTooLarge(f"{board.rows}x{board.columns} board of "
                               f"{len(board.vehicles)} vehicles",
                               "its states need more than 63 bits")
    return tables


def lane_solution(board: LaneBoard, *, limit: int = 1 << 40) -> list[tuple[int, ...]] | None:
    """The states of an optimal solution of the board's start (each the vehicles'
    positions, the start first), breadth-first on lane-coded keys; None when its cluster
    holds no solved state; :class:`~huarong.puzzles.cluster.ClusterTooLarge` when more
    than ``limit`` states are met first."""
    from huarong._kernels.rush_hour_lanes import positions_of
    from huarong._kernels.rush_hour_lanes_path import shortest_path

    tables = _lane_tables(board)
    lanes, cells, _, move_start, moves, goal_config, _, fixed, start = tables
    path, met = shortest_path(lanes, cells, move_start, moves, goal_config, fixed, start,
                              min(limit, _MOST_STATES))
    if met > limit:
        raise ClusterTooLarge(f"{board.rows}x{board.columns} board of vehicles "
                              f"{list(board.vehicles)}",
                              f"more than {limit:,} states met before a solved one")
    if not path.shape[0]:
        return None
    found = positions_of(np.asarray(path, dtype=np.int64), board.vehicle_array(), tables[0],
                         tables[2], tables[6])
    return [tuple(state) for state in found.tolist()]


def _signed(mask: int) -> int:
    """A 64-cell mask as int64 (cell 63 the sign bit)."""
    return mask - (1 << 64) if mask >= 1 << 63 else mask


def _profile(states: int, found: _Searched, vehicles: np.ndarray, tables: tuple[Any, ...]
             ) -> LaneProfile:
    """The profile of a cluster searched: its hardest and smallest states as the vehicles'
    positions."""
    from huarong._kernels.rush_hour_lanes import INDEX, SLOT, positions_of

    hardest, smallest = positions_of(np.array([found.hardest, found.smallest], dtype=np.int64),
                                     vehicles, tables[0], tables[2], tables[6]).tolist()
    slots = tables[6]
    needed = frozenset(v for v in range(vehicles.shape[0])
                       if (int(slots[v, SLOT]), int(slots[v, INDEX])) in found.moved)
    return LaneProfile(states, found.solved, found.hardest_length, tuple(hardest),
                       tuple(smallest), needed)


def _vehicles_of(moved: int, slots: np.ndarray) -> frozenset[tuple[int, int]]:
    """The vehicles of bits ``moved`` as their lanes and places in them (``slots``)."""
    from huarong._kernels.rush_hour_lanes import INDEX, SLOT

    return frozenset((int(slots[v, SLOT]), int(slots[v, INDEX]))
                     for v in range(slots.shape[0]) if moved >> v & 1)


def lanes_minimal(board: LaneBoard, removable: frozenset[int], length: int, *,
                  limit: int = 1 << 40, needed: frozenset[int] = frozenset()) -> bool:
    """Whether the start needs every vehicle but the goal vehicle, and every wall of
    ``removable`` (of the board's walls): without it, solved in fewer than ``length``
    moves (not shown past ``limit`` states, so not needed); the vehicles of ``needed`` (by
    index) are known to be (:attr:`LaneProfile.needed`) and not tested."""
    from huarong._kernels.rush_hour_lanes_search import all_needed

    if not removable <= board.walls:
        raise PuzzleError(str(sorted(removable)), "walls to remove that the board lacks")
    if length < 0:
        return False
    return bool(all_needed(board.rows, board.columns, np.int64(_signed(board.wall_mask)),
                           np.array(sorted(removable), dtype=np.int64),
                           board.vehicle_array(), board.target, board.unit, length, limit,
                           np.int64(sum(1 << v for v in needed))))
