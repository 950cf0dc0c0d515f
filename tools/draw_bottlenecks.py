"""Draw a group with its bottlenecks marked, for docs/graph-tools.md: every layout a dot
placed as the explorer places it (grey in the home region, a colour per basin), every step a
thin line, bridges thick and red, cut vertices black.

    python tools/draw_bottlenecks.py [LAYOUT] [-o docs/images/bottlenecks-1A9BF0C00.png]

The explorer page's toggle shows the same; this script only makes the docs' picture.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from huarong.engine.layout import Layout
from huarong.space.explorer.graph import step_graph
from huarong.space.explorer.placement import place
from huarong.space.graph_files import group_bottlenecks

ROOT = Path(__file__).resolve().parents[1]
SIZE = (1200, 800)
PAD = 16
PALETTE = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (148, 103, 189), (140, 86, 75),
           (227, 119, 194), (188, 189, 34), (23, 190, 207)]
HOME = (200, 200, 200)
LINE = (225, 225, 225)
BRIDGE = (214, 39, 40)
CUT = (0, 0, 0)


def draw(layout: Layout, target: Path) -> None:
    graph, found = group_bottlenecks(layout)
    positions = place(step_graph(int(layout)))  # both in code order
    width, height = SIZE
    points = PAD + positions * np.array([width - 2 * PAD, height - 2 * PAD])
    picture = Image.new("RGB", SIZE, (255, 255, 255))
    pen = ImageDraw.Draw(picture)
    for a, b in graph.edge_pairs().tolist():
        pen.line([tuple(points[a]), tuple(points[b])], fill=LINE, width=1)
    for node, (x, y) in enumerate(points.tolist()):
        basin = int(found.basin[node])
        colour = HOME if basin < 0 else PALETTE[basin % len(PALETTE)]
        pen.ellipse([x - 1.5, y - 1.5, x + 1.5, y + 1.5], fill=colour)
    for a, b in found.bridges.tolist():
        pen.line([tuple(points[a]), tuple(points[b])], fill=BRIDGE, width=3)
    for node in found.articulation_points.tolist():
        x, y = points[node]
        pen.ellipse([x - 2.5, y - 2.5, x + 2.5, y + 2.5], fill=CUT)
    picture.save(target, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("layout", nargs="?", default="1A9BF0C00")
    parser.add_argument("-o", "--output", type=Path,
                        default=ROOT / "docs" / "images" / "bottlenecks-1A9BF0C00.png")
    options = parser.parse_args()
    draw(Layout.parse(options.layout), options.output)
    print(f"written to {options.output}")


if __name__ == "__main__":
    main()
