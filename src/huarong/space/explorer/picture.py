"""A group's picture (``huarong draw``): :mod:`huarong.graph.picture` with the explorer's
figures (minimum steps, distance from the chosen layout, farthest steps from the database)
and a caption naming the group."""

from __future__ import annotations

from huarong.graph import picture
from huarong.graph.bottlenecks import Bottlenecks, bottlenecks
from huarong.space.explorer.view import GroupView

COLOURINGS = ("min-steps", "distance", "farthest", "basin")


def colouring(view: GroupView, name: str) -> picture.Colouring:
    """The figure each dot shows: ``min-steps``, ``distance`` (from the chosen layout),
    ``farthest`` (farthest steps, grey where the database lacks them) or ``basin`` (the basin
    each layout lies in, grey on the goals' side; see
    :func:`~huarong.graph.bottlenecks.bottlenecks`)."""
    if name == "min-steps":
        return picture.Colouring(view.graph.min_steps, "minimum steps to a goal", "no solution")
    if name == "distance":
        return picture.Colouring(view.distance,
                                 f"steps from {view.graph.codes[view.start]:09X}")
    if name == "farthest":
        return picture.Colouring(view.farthest_or_unknown(), "farthest steps",
                                 "unknown (huarong db layers)")
    if name == "basin":
        return picture.Colouring(_bottlenecks(view).basin, "basin",
                                 "the side of the nearest goals")
    raise ValueError(f"colouring {name!r} is not one of {', '.join(COLOURINGS)}")


def _bottlenecks(view: GroupView) -> Bottlenecks:
    graph = view.graph
    return bottlenecks(graph, None if graph.solvable else [view.start])


def group_picture(view: GroupView, colouring_name: str) -> picture.Picture:
    """What ``huarong draw`` shows of ``view``: its placement, the chosen colouring, the
    chosen layout ringed with its shortest path."""
    graph = view.graph
    caption = (f"group {view.group.key.name}-{view.group.group_num} of "
               f"{graph.codes[view.start]:09X}: {graph.size:,} layouts, "
               f"{graph.edge_count:,} steps; red: shortest path to a goal")
    if colouring_name == "basin":
        found = _bottlenecks(view)
        return picture.Picture(graph, view.placed.positions, colouring(view, colouring_name),
                               caption + "; black: cut vertices and bridges", view.start,
                               view.shortest_path, found.articulation_points, found.bridges)
    return picture.Picture(graph, view.placed.positions, colouring(view, colouring_name),
                           caption, view.start, view.shortest_path)


def render_png(view: GroupView, colouring_name: str, width: int, height: int) -> bytes:
    """The group's picture as PNG bytes."""
    return picture.render_png(group_picture(view, colouring_name), width, height)


def render_svg(view: GroupView, colouring_name: str, width: int, height: int) -> str:
    """The group's picture as an SVG document."""
    return picture.render_svg(group_picture(view, colouring_name), width, height)
