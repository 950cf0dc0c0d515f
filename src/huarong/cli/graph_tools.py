"""A group as a graph file (``huarong graph``) and where it narrows (``huarong
bottlenecks``)."""

from __future__ import annotations

from typing import Any

import click

from huarong.cli._common import (
    LAYOUT,
    OUTPUT,
    InputError,
    emit,
    emit_json,
    json_option,
    machine_faults,
    output_option,
)
from huarong.cli.database import db_option
from huarong.engine.layout import Layout

SHOWN = 10
"""Entries of each list the text shows (--json gives them all)."""


def graph_file_name(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from huarong.graph.files import UnknownFormatError, format_of

    try:
        format_of(value)
    except UnknownFormatError as error:
        raise InputError(str(error)) from None
    return value


@click.command()
@click.argument("layout", type=LAYOUT)
@click.option("-o", "--output", required=True, type=OUTPUT, callback=graph_file_name,
              help="The file; its suffix names the format: .graphml, .gexf, .json "
                   "(node-link), .parquet or .csv (an edge list, its nodes in "
                   "STEM.nodes.parquet|csv beside it).")
@db_option
def graph(layout: Layout, output: str, db_path: str | None) -> None:
    """Write LAYOUT's group as a graph file: one node per layout (code, short code, minimum
    steps, goal, distance from LAYOUT, degree, cut vertex, basin, the layer figures where the
    database holds them), one undirected edge per step (piece, direction)."""
    from huarong.graph.files import write_graph_file
    from huarong.space.graph_files import group_table

    click.echo(f"huarong: searching the group of {layout.code}...", err=True)
    table = group_table(layout, db_path)
    click.echo(f"huarong: writing {table.graph.size:,} layouts and "
               f"{table.graph.edge_count:,} steps...", err=True)
    with machine_faults(output, "-o"):
        written = write_graph_file(output, table)
    click.echo(f"written to {', '.join(str(path) for path in written)}", err=True)


def _listed(name: str, entries: dict[str, Any], describe: Any = str) -> list[str]:
    shown = [describe(entry) for entry in entries["list"][:SHOWN]]
    more = f" ... ({entries['count'] - SHOWN:,} more)" if entries["count"] > SHOWN else ""
    return [f"{name:<20}{entries['count']:,}" + (f": {' '.join(shown)}{more}" if shown else "")]


def _basin_lines(basins: dict[str, Any]) -> list[str]:
    lines = [f"{'basins':<20}{basins['count']:,}, largest first:"]
    for basin in basins["list"][:SHOWN]:
        through = f"bridge {'-'.join(basin['bridge'])}" if basin["bridge"] else "cut vertex"
        lines.append(f"  #{basin['id']}: {basin['size']:,} layouts behind "
                     f"{basin['entrance']} ({through}), {basin['depth']} steps deep")
    return lines


@click.command()
@click.argument("layout", type=LAYOUT)
@json_option
@output_option
def bottlenecks(layout: Layout, as_json: bool, output: str | None) -> None:
    """Where LAYOUT's group narrows: its cut vertices (articulation points), bridges, dead
    ends (one neighbour) and basins (the parts a cut vertex separates from the goals, or
    from LAYOUT in a group without one), with their sizes and depths."""
    from huarong.space.graph_files import bottlenecks_json, group_bottlenecks

    found = bottlenecks_json(layout, *group_bottlenecks(layout))
    if as_json:
        emit_json(found, output)
        return
    lines = [f"{layout.code}: a group of {found['states']:,} layouts and {found['moves']:,} "
             f"steps; basins seen from {found['seen_from']}",
             *_listed("articulation points", found["articulation_points"]),
             *_listed("bridges", found["bridges"], "-".join),
             *_listed("dead ends", found["dead_ends"]),
             *_basin_lines(found["basins"])]
    emit("\n".join(lines), output)
