"""``huarong draw``: a layout's group as a picture, placed as the explorer page places it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from huarong.cli._common import LAYOUT, OUTPUT, InputError, machine_faults
from huarong.engine.layout import Layout

FORMATS = (".png", ".svg")
LARGEST_SIDE = 8192
SMALLEST_SIDE = 200


class SizeParam(click.ParamType):  # type: ignore[type-arg]
    """``WxH`` in pixels, each side 200..8192."""

    name = "WxH"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> tuple[int, int]:
        if isinstance(value, tuple):
            return value
        match = re.fullmatch(r"(\d{1,5})[xX](\d{1,5})", str(value).strip())
        if match is None:
            self.fail(f"{value!r} is not WIDTHxHEIGHT (1200x800)", param, ctx)
        width, height = int(match[1]), int(match[2])
        if not (SMALLEST_SIDE <= width <= LARGEST_SIDE and SMALLEST_SIDE <= height <= LARGEST_SIDE):
            self.fail(f"{value!r}: each side must be {SMALLEST_SIDE}..{LARGEST_SIDE} pixels",
                      param, ctx)
        return width, height


@click.command()
@click.argument("layout", type=LAYOUT)
@click.option("-o", "--output", type=OUTPUT, required=True,
              help="The picture: FILE.png or FILE.svg (written atomically).")
@click.option("--color", "colour",
              type=click.Choice(["min-steps", "distance", "farthest", "basin"]),
              default="min-steps", show_default=True,
              help="Colour each layout by its minimum steps, its distance from LAYOUT, its "
                   "farthest steps (from the database; grey where not computed), or its basin "
                   "(cut vertices and bridges in black; huarong bottlenecks).")
@click.option("--size", type=SizeParam(), default="1200x800", show_default=True,
              help="Picture size in pixels.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              help="The database (default $HUARONG_DB): group labels and farthest steps; "
                   "without one the enumeration answers.")
@click.option("--cache", "cache_directory", type=click.Path(file_okay=False), default=None,
              help="Where placements are cached (default beside the database, else "
                   "~/.cache/huarong/explorer).")
def draw(layout: Layout, output: str, colour: str, size: tuple[int, int],
         db_path: str | None, cache_directory: str | None) -> None:
    """Draw LAYOUT's group: every layout a dot, every step a line, LAYOUT's shortest path
    to a goal in red, with a legend; the same placement as the explore page."""
    from huarong.fileio import atomic_writer
    from huarong.space.explorer import Explorer, render_png, render_svg

    suffix = Path(output).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"output {output!r}: the name must end in .png or .svg")
    width, height = size
    explorer = Explorer(Path(db_path) if db_path else None,
                        Path(cache_directory) if cache_directory else None)
    view = explorer.view(layout)
    with machine_faults(output, "-o"):
        if suffix == ".png":
            with atomic_writer(output, "wb") as stream:
                stream.write(render_png(view, colour, width, height))
        else:
            with atomic_writer(output, "w") as text:
                text.write(render_svg(view, colour, width, height))
    click.echo(f"{output}: group of {layout.code}, {view.graph.size:,} layouts, "
               f"{view.graph.edge_count:,} steps", err=True)
