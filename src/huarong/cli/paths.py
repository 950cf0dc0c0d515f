"""Paths to many layouts at once: ``paths`` (one shortest path to every solution or every
farthest layout; the original ``--cal-solution-path`` / ``--cal-farthest-path``) and
``shortest-paths`` (every shortest path; the original ``--group-path``).  Formats:
docs/legacy.md."""

from __future__ import annotations

import click

from huarong.cli._common import LAYOUT, emit, exit_without_solution, output_option
from huarong.engine.layout import Layout


@click.command()
@click.argument("layout", type=LAYOUT)
@click.option("--to", "ends", type=click.Choice(["solutions", "farthest"]),
              default="solutions", show_default=True,
              help="Every solution (docs §5) or every farthest layout.")
@output_option
def paths(layout: Layout, ends: str, output: str | None) -> None:
    """One shortest path from LAYOUT to each of its solutions, or to each of its farthest
    layouts: one line per path, `TARGET STEPS: CODE CODE ...`."""
    from huarong.engine.analysis import analyze
    from huarong.engine.shortest_paths import paths_to_each

    analysis = analyze(layout)
    targets = ([solution for solution, _ in analysis.solutions] if ends == "solutions"
               else analysis.farthest_layouts)
    found = paths_to_each(layout, targets, analysis)
    emit("\n".join(f"{path[-1].code} {len(path) - 1}: {' '.join(s.code for s in path)}"
                   for path in found), output)
    if not found:
        click.echo(f"huarong: {layout.code} has no solution", err=True)
        exit_without_solution()


@click.command("shortest-paths")
@click.argument("layout", type=LAYOUT)
@click.argument("target", type=LAYOUT, required=False)
@output_option
def shortest_paths(layout: Layout, target: Layout | None, output: str | None) -> None:
    """Every shortest path from LAYOUT to TARGET (default: to its nearest goal layouts):
    the graph they form, layer by layer, and how many distinct shortest paths there are."""
    from huarong.engine.shortest_paths import NoTargetError, shortest_path_graph

    try:
        graph = shortest_path_graph(layout, None if target is None else [target])
    except NoTargetError as error:
        click.echo(f"huarong: no path: {error}", err=True)
        exit_without_solution()
    lines = [f"start {layout.code}",
             f"targets {' '.join(end.code for end in graph.targets)}",
             f"steps {graph.steps}",
             f"paths {graph.path_count}"]
    for number, layer in enumerate(graph.layers):
        lines.append(f"[layer {number}] {len(layer)} layouts")
        lines += [" ".join([node.layout.code, str(node.paths),
                            *(["->", *(n.code for n in node.next)] if node.next else [])])
                  for node in layer]
    emit("\n".join(lines), output)
    if output is not None:
        click.echo(f"{layout.code}: {graph.path_count:,} shortest paths of {graph.steps} steps",
                   err=True)
