"""Sliding-tile kernels' common ground: Cantor ranks and the node store of the graph searches.

Conventions shared by every ``npuzzle_*`` kernel module:

* a board is an ``int64`` array of its cells in row order, ``0`` being the blank;
* ``neighbours[cell, direction]`` is the cell the blank reaches by moving left, up, right or
  down (directions 0..3, so ``direction ^ 2`` is the opposite one), or ``-1`` off the board;
* graph searches key a state by its Cantor rank (``factorials[i] = i!``), which fits ``int64``
  for up to 20 cells, and keep their nodes in growable arrays (the node store), found by key
  through a :mod:`~huarong._kernels.hash_table`;
* searches answer with a status: :data:`FOUND`, :data:`EXHAUSTED` (no solution within the
  bound), :data:`LIMIT_REACHED` (the node budget ran out), for the resumable IDA*
  :data:`PAUSED` (this call's share of nodes is spent; call again to go on), and for the
  graph searches, which run in one call on a thread of their own, :data:`STOPPED` (the
  caller asked them to, through ``control``: see :func:`_reported`).

Everything is ``int64`` except the pattern-database bytes.

numba's on-disk cache checks only the file a kernel is written in: after changing a kernel
or a constant here or in :mod:`~huarong._kernels.npuzzle_heuristics`, touch the modules that
call it (``npuzzle_graph``, ``npuzzle_ida``, ``npuzzle_reduce``, ``npuzzle_pdb``) so that
their cached machine code is rebuilt too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels._jit import kernel
from huarong._kernels.arrays import grown
from huarong._kernels.hash_table import Int

EMPTY = -1
FOUND = 0
EXHAUSTED = 1
LIMIT_REACHED = 2
PAUSED = 3
STOPPED = 4

REPORT_EVERY = 1 << 12
"""Expansions between two looks of a graph search at its ``control`` array."""

UNREACHED = 255

Array = Any


# ---------------------------------------------------------------- ranks and the node store


@kernel
def rank_board(board: Array, factorials: Array) -> int:
    """Cantor rank of the permutation ``board`` (the seed's 康托展开)."""
    cells = board.size
    rank = 0
    for i in range(cells):
        smaller_later = 0
        for j in range(i + 1, cells):
            if board[j] < board[i]:
                smaller_later += 1
        rank += smaller_later * factorials[cells - 1 - i]
    return rank


@kernel
def unrank_board(rank: int, factorials: Array, out: Array) -> None:
    """Inverse of :func:`rank_board`, written into ``out``."""
    cells = out.size
    taken = np.zeros(cells, np.int64)
    for i in range(cells):
        weight = factorials[cells - 1 - i]
        skip = rank // weight
        rank -= skip * weight
        value = 0
        while True:
            if taken[value] == 0:
                if skip == 0:
                    break
                skip -= 1
            value += 1
        taken[value] = 1
        out[i] = value


@kernel
def _blank_cell(board: Array) -> int:
    for cell in range(board.size):
        if board[cell] == 0:
            return cell
    return -1


@kernel
def _child_rank(board: Array, blank: int, target: int, factorials: Array) -> int:
    """Rank of the board after the blank moves from ``blank`` to ``target``; board unchanged."""
    board[blank] = board[target]
    board[target] = 0
    rank = rank_board(board, factorials)
    board[target] = board[blank]
    board[blank] = 0
    return rank  # type: ignore[no-any-return]


@kernel
def _chain(keys: Array, parents: Array, node: Int) -> Array:
    """Keys from the root down to ``node``."""
    length = 0
    walker = node
    while walker != EMPTY:
        length += 1
        walker = parents[walker]
    path = np.empty(length, np.int64)
    walker = node
    for i in range(length - 1, -1, -1):
        path[i] = keys[walker]
        walker = parents[walker]
    return path


@kernel
def _new_store(root: int) -> tuple[Array, Array, Array]:
    """A node store holding only ``root`` as node 0 (no parent, depth 0): ``(keys, parents,
    depths)``; the searches that weigh moves keep costs in the ``depths`` array.  A search
    finds its nodes by key through a :mod:`~huarong._kernels.hash_table` built from
    ``keys``: a set where it only asks whether it met a key, else a map to node numbers."""
    keys = np.empty(1024, np.int64)
    parents = np.empty(1024, np.int64)
    depths = np.empty(1024, np.int64)
    keys[0] = root
    parents[0] = EMPTY
    depths[0] = 0
    return keys, parents, depths


@kernel
def _grown_store(keys: Array, parents: Array, depths: Array, count: int
                 ) -> tuple[Array, Array, Array]:
    """The store's arrays with room for node ``count``, its nodes kept."""
    return (grown(keys, count, count + 1), grown(parents, count, count + 1),
            grown(depths, count, count + 1))


@kernel
def _child_ranks(
    key: int, board: Array, neighbours: Array, factorials: Array, children: Array
) -> int:
    """Write the ranks of the boards one move from ``key`` into ``children``, in direction
    order (left, up, right, down), and return how many there are; ``board`` is scratch."""
    unrank_board(key, factorials, board)
    blank = _blank_cell(board)
    found = 0
    for direction in range(4):
        target = neighbours[blank, direction]
        if target < 0:
            continue
        children[found] = _child_rank(board, blank, target, factorials)
        found += 1
    return found


@kernel
def _reported(control: Array, expanded: int, bound: int) -> bool:
    """Every :data:`REPORT_EVERY` expansions, publish ``[expanded, bound]`` in ``control[0:2]``
    for the thread that watches the search, and answer whether it set ``control[2]`` to ask
    the search to stop."""
    if expanded % REPORT_EVERY != 0:
        return False
    control[0] = expanded
    control[1] = bound
    return control[2] != 0  # type: ignore[no-any-return]
