"""The explorer's binary form of a placed state graph (``HRG2``), for any puzzle: the browser
reads it with typed arrays, no parsing per node (``web/static/graph-format.js``).

Little-endian; every section padded with zero bytes to a multiple of 8 bytes, so each typed
array starts aligned:

1. ``HRG2``, then uint32 node count, edge count, start node, flags (bit 0: farthest steps
   present, bit 1: board cells present), board rows, board columns, puzzle name length;
2. the puzzle name (UTF-8: ``klotski`` for common codes);
3. int64 state codes;
4. float32 positions (x, y per node, in [0, 1]);
5. uint32 edge pairs (smaller node, larger node);
6. int32 minimum moves to a goal, farthest steps and distance from the start (-1: none or
   unknown);
7. with bit 1, uint8 board cells (rows x columns per node, row by row: 0 empty, 255 wall,
   else a piece number, pieces of one shape numbered alike).
"""

from __future__ import annotations

import numpy as np

from huarong.graph.state_graph import NO_SOLUTION, StateGraph

MAGIC = b"HRG2"
FLAG_FARTHEST = 1
"""Flags bit 0: farthest steps are present."""
FLAG_CELLS = 2
"""Flags bit 1: each node's board cells are present."""
ALIGNMENT = 8


def graph_binary(graph: StateGraph, positions: np.ndarray, start: int, *,
                 farthest: np.ndarray | None = None, distance: np.ndarray | None = None
                 ) -> bytes:
    """The ``HRG2`` form of ``graph`` placed at ``positions`` (float (n, 2)) seen from the
    node ``start``: ``farthest`` steps of every node when known, ``distance`` from ``start``
    (computed when not given), the board cells of every node when the graph's geometry can
    give them."""
    size = graph.size
    if positions.shape != (size, 2) or not 0 <= start < size:
        raise ValueError(f"a graph of {size} states needs ({size}, 2) positions and a start "
                         f"node in 0..{size - 1}, not {positions.shape} and {start}")
    geometry = graph.geometry
    name = geometry.puzzle.encode("utf-8")
    flags = (FLAG_FARTHEST if farthest is not None else 0) | (
        FLAG_CELLS if geometry.cells is not None else 0)
    header = np.array([size, graph.edge_count, start, flags, geometry.rows,
                       geometry.columns, len(name)], dtype="<u4")
    if distance is None:
        distance = graph.distances([start])
    sections = [
        np.frombuffer(name, dtype=np.uint8), graph.codes.astype("<i8"), positions.astype("<f4"),
        graph.edge_pairs().astype("<u4"), graph.min_steps.astype("<i4"),
        (farthest if farthest is not None else np.full(size, NO_SOLUTION)).astype("<i4"),
        distance.astype("<i4"),
    ]
    if geometry.cells is not None:
        cells = np.asarray(geometry.cells(graph.codes), dtype=np.uint8)
        if cells.shape != (size, geometry.rows * geometry.columns):
            raise ValueError(f"the {geometry.puzzle} cell decoder gave {cells.shape} cells "
                             f"for {size} states of {geometry.rows}x{geometry.columns}")
        sections.append(cells)
    parts = [MAGIC, header.tobytes()]
    for section in sections:
        data = section.tobytes()
        parts += [data, bytes(-len(data) % ALIGNMENT)]
    return b"".join(parts)
