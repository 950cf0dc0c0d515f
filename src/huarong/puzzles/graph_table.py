"""Any puzzle's cluster as a graph file (``huarong puzzle graph``): the node and edge
attributes of :mod:`huarong.graph.files` for a puzzle's state graph.

Every node carries its state's ``code``, its ``grid`` text (as :func:`format_state` writes it),
``min_moves`` to a goal (-1: none), ``goal``, ``distance`` from the start and ``degree``; every
edge the ``piece`` that moves (its letter in the grid of the edge's first node) and the
``direction`` of the move, named by where the piece ends (``down``, ``left 2``, ``up right``).
All of it is computed from the placement sets of every state at once, array by array, not
state by state.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from huarong.graph.files import Categories, Column, GraphTable
from huarong.graph.state_graph import StateGraph
from huarong.puzzles.grid import EMPTY, WALL
from huarong.puzzles.puzzle import Puzzle, format_state

_ONE: Final = np.uint64(1)
_BITS_OF_BYTE: Final = np.array([bin(byte).count("1") for byte in range(256)], dtype=np.int64)
MOVE_RULES: Final = {
    "unit": "a move slides one piece one cell",
    "slide": "a move slides one piece any distance in one direction",
    "step": "a move takes one piece anywhere it can reach alone by unit moves",
}
"""What joins two nodes under each metric, as the files' metadata says it."""


def _text_places(puzzle: Puzzle) -> np.ndarray:
    """Where each cell's glyph stands in a grid text (its rows joined by ``/``)."""
    cells = np.arange(puzzle.cells)
    return cells + cells // puzzle.columns


def grid_texts(puzzle: Puzzle, sets: np.ndarray) -> np.ndarray:
    """The grid text of every state whose placement sets (:meth:`Tables.decode`) are
    ``sets``, as :func:`format_state` writes it: each class's letters in placement order."""
    count = sets.shape[0]
    width = puzzle.rows * (puzzle.columns + 1) - 1
    text = np.full((count, width + 1), ord(EMPTY), dtype=np.uint8)
    text[:, puzzle.columns::puzzle.columns + 1] = ord("/")
    places = _text_places(puzzle)
    text[:, places[sorted(puzzle.walls)]] = ord(WALL)
    words = sets.view(np.uint64)
    for c, piece in enumerate(puzzle.classes):
        letters = np.frombuffer("".join(piece.letters).encode(), dtype=np.uint8)
        placed = np.zeros(count, dtype=np.int64)  # the class's pieces placed so far
        for p, cells in enumerate(puzzle.tables.placements[c]):
            here = np.flatnonzero((words[:, c] >> np.uint64(p)) & _ONE)
            if here.shape[0]:
                text[here[:, None], places[list(cells)]] = letters[placed[here]][:, None]
                placed[here] += 1
    # Rows of bytes read as one fixed-width string each: no Python string per cell.
    joined: np.ndarray = np.ascontiguousarray(text[:, :width]).view(f"S{width}")[:, 0]
    return joined.astype(f"U{width}")


def _direction_name(rows: int, columns: int) -> str:
    words = [f"{word} {abs(count)}" if abs(count) > 1 else word
             for count, word in ((rows, "up" if rows < 0 else "down"),
                                 (columns, "left" if columns < 0 else "right")) if count]
    return " ".join(words)


def _bit_counts(words: np.ndarray) -> np.ndarray:
    """The set bits of each uint64 (numpy before 2.0 has no ``bitwise_count``)."""
    octets = np.ascontiguousarray(words).view(np.uint8).reshape(-1, 8)
    counts: np.ndarray = _BITS_OF_BYTE[octets].sum(axis=1)
    return counts


def move_columns(puzzle: Puzzle, sets: np.ndarray, pairs: np.ndarray) -> dict[str, Column]:
    """The ``piece`` and ``direction`` of the move of every edge (node pairs, smaller node
    first) between states with placement sets ``sets``."""
    words = sets.view(np.uint64)
    before, after = words[pairs[:, 0]], words[pairs[:, 1]]
    moved = np.argmax(before != after, axis=1)  # the one class whose placements differ
    rows = np.arange(pairs.shape[0])
    was, now = before[rows, moved], after[rows, moved]
    left = was & ~now
    # One bit each: a power of two is exact in float64, so its log2 is its place.
    source = np.log2(left.astype(np.float64)).astype(np.int64)
    target = np.log2((now & ~was).astype(np.float64)).astype(np.int64)
    # The moving piece is the class's piece with as many placements before it as its rank.
    rank = _bit_counts(was & (left - _ONE))
    classes = puzzle.classes
    letters = tuple(sorted({letter for piece in classes for letter in piece.letters}))
    most = max(len(piece.letters) for piece in classes)
    letter_of = np.zeros((len(classes), most), dtype=np.int16)
    for c, piece in enumerate(classes):
        letter_of[c, :len(piece.letters)] = [letters.index(letter) for letter in piece.letters]
    anchors = max(len(places) for places in puzzle.tables.placements)
    anchor = np.zeros((len(classes), anchors), dtype=np.int64)
    for c, places in enumerate(puzzle.tables.placements):
        anchor[c, :len(places)] = [cells[0] for cells in places]
    # A move translates the piece: its first cell moves as the whole piece does.
    start_row, start_column = np.divmod(anchor[moved, source], puzzle.columns)
    end_row, end_column = np.divmod(anchor[moved, target], puzzle.columns)
    shifts = np.stack([end_row - start_row, end_column - start_column])
    present, which = np.unique(shifts, axis=1, return_inverse=True)
    names = [_direction_name(down, right) for down, right in present.T.tolist()]
    unique = tuple(sorted(set(names)))
    name_of = np.array([unique.index(name) for name in names], dtype=np.int16)
    return {"piece": Categories(letter_of[moved, rank], letters),
            "direction": Categories(name_of[which.reshape(-1)], unique)}


def puzzle_table(puzzle: Puzzle, graph: StateGraph) -> GraphTable:
    """The cluster ``graph`` of ``puzzle`` (its start one of the nodes) with every attribute
    the files carry and metadata naming the puzzle, its goal, rules and metric."""
    start = graph.index_of(puzzle.start)
    sets = puzzle.tables.decode(graph.codes)
    nodes: dict[str, Column] = {
        "code": graph.codes, "grid": grid_texts(puzzle, sets), "min_moves": graph.min_steps,
        "goal": graph.goal, "distance": graph.distances([start]), "degree": graph.degrees(),
    }
    metadata = {"puzzle": puzzle.name or "puzzle", "title": puzzle.title or "",
                "source": puzzle.source or "", "start": format_state(puzzle, puzzle.start),
                "goal": puzzle.goal or "", "rules": puzzle.rules, "metric": puzzle.metric,
                "move_rule": MOVE_RULES[puzzle.metric] + "; one undirected edge joins two "
                "states one move apart",
                "states": str(graph.size), "moves": str(graph.edge_count),
                "node_order": "breadth-first from the start"}
    return GraphTable(graph, nodes, move_columns(puzzle, sets, graph.edge_pairs()), metadata)
