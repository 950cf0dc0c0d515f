"""A state graph's picture: every state a dot coloured by a figure of its node (minimum
moves, distance, any per-node array), every move a line, a chosen state's shortest path in
red, and a legend.  It reads only a :class:`~huarong.graph.StateGraph` and positions (from
:func:`~huarong.graph.placement.place` unless given), so any puzzle's graph is drawn alike.

PNG: lines and dots are rasterised by numba kernels into a float array (millions of moves in
seconds) and Pillow writes the legend and encodes the file.  SVG: vector lines and dots up to
:data:`SVG_VECTOR_LIMIT` states; a bigger graph's dots and lines are embedded as a PNG image
under a vector legend (millions of SVG elements open in no viewer).
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from html import escape
from typing import Any, Literal

import numpy as np

from huarong.graph.state_graph import StateGraph

PictureFormat = Literal["png", "svg"]
"""The file formats :func:`draw_state_graph` writes."""
SVG_VECTOR_LIMIT = 60_000
"""Largest graph drawn as SVG vectors; a bigger one is embedded as a PNG image."""
LEGEND_HEIGHT = 44
"""Pixels of the legend strip under the dots."""
PAD = 12
"""Pixels between the dots and the picture's border."""
VIRIDIS = np.array([[68, 1, 84], [65, 68, 135], [42, 120, 142], [34, 168, 132],
                    [122, 209, 81], [253, 231, 37]], dtype=np.float32)
"""The viridis colour map at six even stops (low figures dark blue, high ones yellow)."""
UNKNOWN_COLOUR = (187, 187, 187)
LINE_COLOUR = (120, 120, 120)
PATH_COLOUR = (228, 0, 43)
MARK_COLOUR = (0, 0, 0)
BACKGROUND = (255, 255, 255)
TEXT_COLOUR = (34, 34, 34)


def colour_of(values: np.ndarray, top: int) -> np.ndarray:
    """The viridis colour (uint8 (n, 3)) of each value in 0..top; grey for -1."""
    share = np.clip(values.astype(np.float32) / max(top, 1), 0, 1) * (len(VIRIDIS) - 1)
    low = np.minimum(share.astype(np.int64), len(VIRIDIS) - 2)
    part = (share - low)[:, None]
    colours = VIRIDIS[low] * (1 - part) + VIRIDIS[low + 1] * part
    colours[values < 0] = UNKNOWN_COLOUR
    result: np.ndarray = np.rint(colours).astype(np.uint8)
    return result


@dataclass(frozen=True)
class Colouring:
    """The figure each dot shows: ``values`` (one integer per node, negative where unknown),
    the legend's ``title`` and what grey means (``unknown``, shown only when some value is
    negative)."""

    values: np.ndarray
    title: str
    unknown: str = ""


@dataclass(frozen=True, eq=False)
class Picture:
    """What a picture shows: ``graph`` placed at ``positions`` (float32 (n, 2) in [0, 1]),
    coloured by ``colouring``, the node ``start`` ringed (None: no node) with ``path`` (nodes)
    in red, a one-line ``caption``, and in black the ``marked_nodes`` (node numbers) and
    ``marked_edges`` ((k, 2) node pairs): cut vertices and bridges, say."""

    graph: StateGraph
    positions: np.ndarray
    colouring: Colouring
    caption: str
    start: int | None = None
    path: list[int] = field(default_factory=list)
    marked_nodes: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    marked_edges: np.ndarray = field(default_factory=lambda: np.empty((0, 2), dtype=np.int64))

    def __post_init__(self) -> None:
        size = self.graph.size
        if self.positions.shape != (size, 2) or self.colouring.values.shape != (size,):
            raise ValueError(f"a picture of {size} states needs ({size}, 2) positions and "
                             f"{size} values, not {self.positions.shape} and "
                             f"{self.colouring.values.shape}")
        if self.start is not None and not 0 <= self.start < size:
            raise ValueError(f"start node {self.start} is not in 0..{size - 1}")


def pixel_positions(positions: np.ndarray, width: int, height: int) -> np.ndarray:
    """Dot centres in pixels (float32 (n, 2)) of ``positions`` inside the area above the
    legend."""
    area = np.array([width - 2 * PAD, height - LEGEND_HEIGHT - 2 * PAD], dtype=np.float32)
    pixels: np.ndarray = (positions * area + PAD).astype(np.float32)
    return pixels


def _dot_radius(count: int, width: int, height: int) -> float:
    return float(np.clip(np.sqrt(width * height / max(count, 1)) / 3, 0.5, 4.0))


def _raster(picture: Picture, width: int, height: int) -> np.ndarray:
    """Lines, dots, path and start marker as uint8 (height, width, 3), legend strip blank."""
    from huarong._kernels import placement

    graph = picture.graph
    values = picture.colouring.values
    canvas = np.empty((height, width, 3), dtype=np.float32)
    canvas[:] = BACKGROUND
    pixels = pixel_positions(picture.positions, width, height)
    pairs = graph.edge_pairs().astype(np.int64)
    alpha = np.float32(np.clip(width * height / (4 * max(pairs.shape[0], 1)), 0.03, 0.5))
    placement.draw_lines(canvas, pixels, pairs, np.array(LINE_COLOUR, dtype=np.float32), alpha)
    colours = colour_of(values, _top(values)).astype(np.float32)
    # High figures first, so the goals (or the start's neighbourhood) stay on top.
    order = np.argsort(-values.astype(np.int64), kind="stable")
    radius = _dot_radius(graph.size, width, height)
    placement.draw_dots(canvas, pixels, order, colours, np.float32(radius))
    black = np.array(MARK_COLOUR, dtype=np.float32)
    placement.draw_lines(canvas, pixels, picture.marked_edges.astype(np.int64).reshape(-1, 2),
                         black, np.float32(1.0))
    marked = picture.marked_nodes.astype(np.int64)
    placement.draw_dots(canvas, pixels, marked, np.broadcast_to(black, (graph.size, 3)).copy(),
                        np.float32(radius))
    path = np.array(picture.path, dtype=np.int64)
    red = np.array(PATH_COLOUR, dtype=np.float32)
    if path.size > 1:
        _thick_lines(canvas, pixels, np.stack([path[:-1], path[1:]], axis=1), red)
    if picture.start is not None:
        start = np.array([picture.start], dtype=np.int64)
        placement.draw_dots(canvas, pixels, start, _one_colour(graph.size, picture.start, red),
                            np.float32(radius + 3))
        placement.draw_dots(canvas, pixels, start, colours, np.float32(radius + 1))
    canvas[height - LEGEND_HEIGHT:] = BACKGROUND
    image: np.ndarray = np.rint(canvas).astype(np.uint8)
    return image


def _thick_lines(canvas: np.ndarray, pixels: np.ndarray, pairs: np.ndarray,
                 colour: np.ndarray) -> None:
    """Opaque lines about two pixels wide between the node pairs ``pairs``."""
    from huarong._kernels import placement

    if pairs.shape[0]:
        for shift in ((0, 0), (0.7, 0), (0, 0.7)):
            placement.draw_lines(canvas, pixels + np.array(shift, dtype=np.float32), pairs,
                                 colour, np.float32(1.0))


def _top(values: np.ndarray) -> int:
    return max(int(values.max()), 1) if values.size else 1


def _one_colour(size: int, node: int, colour: np.ndarray) -> np.ndarray:
    colours = np.zeros((size, 3), dtype=np.float32)
    colours[node] = colour
    return colours


@dataclass(frozen=True)
class _Legend:
    """What the legend strip holds, in pixels, for both PNG and SVG."""

    top_value: int
    unknown: str
    bar: tuple[int, int, int, int]
    """x, y, width, height of the colour bar."""


def _legend(picture: Picture, width: int, height: int) -> _Legend:
    values = picture.colouring.values
    bar_width = min(240, width // 3)
    return _Legend(max(int(values.max()), 0) if values.size else 0,
                   picture.colouring.unknown if (values < 0).any() else "",
                   (PAD, height - LEGEND_HEIGHT + 20, bar_width, 10))


def _font(size: int) -> Any:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def render_png(picture: Picture, width: int, height: int) -> bytes:
    """The picture as PNG bytes."""
    from PIL import Image, ImageDraw

    image = Image.fromarray(_raster(picture, width, height), "RGB")
    legend = _legend(picture, width, height)
    title = picture.colouring.title
    draw = ImageDraw.Draw(image)
    font = _font(12)
    x, y, bar_width, bar_height = legend.bar
    draw.text((x, y - 17), picture.caption, fill=TEXT_COLOUR, font=font)
    ramp = colour_of(np.linspace(0, legend.top_value, bar_width), legend.top_value)
    image.paste(Image.fromarray(np.repeat(ramp[None], bar_height, axis=0), "RGB"), (x, y))
    draw.text((x + bar_width + 6, y - 2), f"0 .. {legend.top_value}  {title}",
              fill=TEXT_COLOUR, font=font)
    if legend.unknown:
        at = x + bar_width + 6 + int(draw.textlength(
            f"0 .. {legend.top_value}  {title}", font=font)) + 16
        draw.rectangle((at, y, at + bar_height, y + bar_height), fill=UNKNOWN_COLOUR)
        draw.text((at + bar_height + 6, y - 2), legend.unknown, fill=TEXT_COLOUR, font=font)
    output = io.BytesIO()
    image.save(output, "PNG", optimize=False)
    return output.getvalue()


def render_svg(picture: Picture, width: int, height: int) -> str:
    """The picture as an SVG document."""
    from PIL import Image

    legend = _legend(picture, width, height)
    graph = picture.graph
    values = picture.colouring.values
    body: list[str] = []
    if graph.size <= SVG_VECTOR_LIMIT:
        pixels = pixel_positions(picture.positions, width, height).astype(np.float64).round(1)
        pairs = graph.edge_pairs()
        lines = "".join(f"M{pixels[a, 0]} {pixels[a, 1]}L{pixels[b, 0]} {pixels[b, 1]}"
                        for a, b in pairs.tolist())
        body.append(f'<path d="{lines}" stroke="rgb{LINE_COLOUR}" stroke-opacity="0.4" '
                    'stroke-width="0.6" fill="none"/>')
        colours = colour_of(values, _top(values))
        radius = _dot_radius(graph.size, width, height)
        order = np.argsort(-values.astype(np.int64), kind="stable")
        body += [f'<circle cx="{pixels[n, 0]}" cy="{pixels[n, 1]}" r="{radius:.2f}" '
                 f'fill="#{colours[n, 0]:02x}{colours[n, 1]:02x}{colours[n, 2]:02x}"/>'
                 for n in order.tolist()]
        marks = "".join(f"M{pixels[a, 0]} {pixels[a, 1]}L{pixels[b, 0]} {pixels[b, 1]}"
                        for a, b in picture.marked_edges.reshape(-1, 2).tolist())
        if marks:
            body.append(f'<path d="{marks}" stroke="rgb{MARK_COLOUR}" stroke-width="1" '
                        'fill="none"/>')
        body += [f'<circle cx="{pixels[n, 0]}" cy="{pixels[n, 1]}" r="{radius:.2f}" '
                 f'fill="rgb{MARK_COLOUR}"/>' for n in picture.marked_nodes.tolist()]
        if len(picture.path) > 1:
            points = " ".join(f"{pixels[n, 0]},{pixels[n, 1]}" for n in picture.path)
            body.append(f'<polyline points="{points}" stroke="rgb{PATH_COLOUR}" '
                        'stroke-width="2" fill="none"/>')
        if picture.start is not None:
            start = pixels[picture.start]
            body.append(f'<circle cx="{start[0]}" cy="{start[1]}" r="{radius + 3:.2f}" '
                        f'fill="none" stroke="rgb{PATH_COLOUR}" stroke-width="2"/>')
    else:
        raster = io.BytesIO()
        Image.fromarray(_raster(picture, width, height), "RGB").save(raster, "PNG")
        data = base64.b64encode(raster.getvalue()).decode("ascii")
        body.append(f'<image x="0" y="0" width="{width}" height="{height}" '
                    f'href="data:image/png;base64,{data}"/>')
    x, y, bar_width, bar_height = legend.bar
    stops = "".join(f'<stop offset="{i / (len(VIRIDIS) - 1):.2f}" '
                    f'stop-color="rgb{tuple(int(v) for v in colour)}"/>'
                    for i, colour in enumerate(VIRIDIS))
    body += [
        f'<defs><linearGradient id="ramp">{stops}</linearGradient></defs>',
        f'<text x="{x}" y="{y - 6}" font-size="12" fill="rgb{TEXT_COLOUR}">'
        f'{escape(picture.caption)}</text>',
        f'<rect x="{x}" y="{y}" width="{bar_width}" height="{bar_height}" fill="url(#ramp)"/>',
        f'<text x="{x + bar_width + 6}" y="{y + bar_height}" font-size="12" '
        f'fill="rgb{TEXT_COLOUR}">0 .. {legend.top_value}  {escape(picture.colouring.title)}'
        + (f'  (grey: {escape(legend.unknown)})' if legend.unknown else "") + "</text>",
    ]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
            f'<rect width="100%" height="100%" fill="white"/>' + "".join(body) + "</svg>\n")


def draw_state_graph(graph: StateGraph, picture_format: PictureFormat, width: int = 1200,
                     height: int = 800, *, start: int | None = None,
                     colouring: Colouring | None = None,
                     positions: np.ndarray | None = None, caption: str | None = None
                     ) -> bytes:
    """Any puzzle's state graph as a PNG or SVG file's bytes (SVG in UTF-8).

    Dots are coloured by ``colouring`` (by default each state's minimum moves to a goal,
    grey where there is none) and placed at ``positions`` (by default
    :func:`~huarong.graph.placement.place`); the node ``start``, when given, is ringed and
    its shortest path to a goal drawn in red.  The default caption names the puzzle, its
    board and the graph's size."""
    from huarong.graph.placement import place

    if picture_format not in ("png", "svg"):
        raise ValueError(f"picture format {picture_format!r} is not png or svg")
    if caption is None:
        geometry = graph.geometry
        caption = (f"{geometry.puzzle} ({geometry.columns}x{geometry.rows}): "
                   f"{graph.size:,} states, {graph.edge_count:,} moves"
                   + ("; red: shortest path to a goal" if start is not None else ""))
    picture = Picture(
        graph, place(graph) if positions is None else positions,
        colouring or Colouring(graph.min_steps, "minimum moves to a goal", "no solution"),
        caption, start, graph.shortest_path(start) if start is not None else [])
    if picture_format == "png":
        return render_png(picture, width, height)
    return render_svg(picture, width, height).encode("utf-8")
