"""Kernels behind the explorer's pictures of a group: breadth-first distances over a step graph
in CSR form, and rasterising a placed graph (lines and dots) into an RGB array.

Private: :mod:`huarong.space.explorer` wraps them with checked, typed functions.
"""

from __future__ import annotations

import numpy as np

from huarong._kernels._jit import kernel

UNREACHED = -1


@kernel
def bfs_distances(offsets: np.ndarray, targets: np.ndarray, sources: np.ndarray) -> np.ndarray:
    """Steps from the nearest of ``sources`` to every node (int32, -1 when unreachable);
    ``offsets`` int64 and ``targets`` int32 are the graph in CSR form."""
    size = offsets.shape[0] - 1
    distance = np.full(size, UNREACHED, dtype=np.int32)
    queue = np.empty(size, dtype=np.int64)
    tail = 0
    for source in sources:
        if distance[source] == UNREACHED:
            distance[source] = 0
            queue[tail] = source
            tail += 1
    head = 0
    while head < tail:
        node = queue[head]
        head += 1
        next_distance = distance[node] + 1
        for edge in range(offsets[node], offsets[node + 1]):
            neighbour = targets[edge]
            if distance[neighbour] == UNREACHED:
                distance[neighbour] = next_distance
                queue[tail] = neighbour
                tail += 1
    return distance


@kernel
def _blend(canvas: np.ndarray, row: np.int64, col: np.int64, red: np.float32,
           green: np.float32, blue: np.float32, alpha: np.float32) -> None:
    if 0 <= row < canvas.shape[0] and 0 <= col < canvas.shape[1]:
        keep = np.float32(1.0) - alpha
        canvas[row, col, 0] = canvas[row, col, 0] * keep + red * alpha
        canvas[row, col, 1] = canvas[row, col, 1] * keep + green * alpha
        canvas[row, col, 2] = canvas[row, col, 2] * keep + blue * alpha


@kernel
def draw_lines(canvas: np.ndarray, points: np.ndarray, pairs: np.ndarray, colour: np.ndarray,
               alpha: np.float32) -> None:
    """Blend one pixel-wide line per row of ``pairs`` (node indices into ``points``, pixel
    coordinates float32 (x, y)) onto ``canvas`` (float32 rows x cols x 3), one pixel per
    step along the longer axis."""
    red, green, blue = colour[0], colour[1], colour[2]
    for edge in range(pairs.shape[0]):
        x0, y0 = points[pairs[edge, 0], 0], points[pairs[edge, 0], 1]
        x1, y1 = points[pairs[edge, 1], 0], points[pairs[edge, 1], 1]
        steps = np.int64(max(abs(x1 - x0), abs(y1 - y0))) + 1
        for i in range(steps + 1):
            t = np.float32(i) / np.float32(steps)
            _blend(canvas, np.int64(y0 + (y1 - y0) * t), np.int64(x0 + (x1 - x0) * t),
                   red, green, blue, alpha)


@kernel
def draw_dots(canvas: np.ndarray, points: np.ndarray, order: np.ndarray, colours: np.ndarray,
              radius: np.float32) -> None:
    """Paint a filled disc of ``radius`` pixels at each of ``points[order]`` (later ones on
    top) in ``colours`` (float32 (n, 3), per node)."""
    reach = np.int64(np.ceil(radius))
    limit = radius * radius
    for node in order:
        x, y = points[node, 0], points[node, 1]
        centre_row, centre_col = np.int64(y), np.int64(x)
        for row in range(centre_row - reach, centre_row + reach + 1):
            for col in range(centre_col - reach, centre_col + reach + 1):
                dy = np.float32(row) + np.float32(0.5) - y
                dx = np.float32(col) + np.float32(0.5) - x
                if dx * dx + dy * dy <= limit or (row == centre_row and col == centre_col):
                    _blend(canvas, np.int64(row), np.int64(col), colours[node, 0],
                           colours[node, 1], colours[node, 2], np.float32(1.0))
