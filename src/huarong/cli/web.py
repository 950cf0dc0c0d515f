"""``huarong stats standard`` (klotski.online's statistics) and ``huarong serve`` (the HTTP API
and the solution viewer)."""

from __future__ import annotations

import errno
import io
import socket
from typing import TYPE_CHECKING, Any

import click

from huarong.cli._common import (
    InputError,
    emit,
    emit_json,
    json_option,
    output_option,
    progress_bar,
)

if TYPE_CHECKING:
    from huarong.space.stats import StandardStats

_DISTRIBUTION_COLUMNS = 4
_FILE_WIDTH = 120


def _stats_json(stats: StandardStats) -> dict[str, Any]:
    return {
        "layouts": stats.layouts,
        "not_solved": stats.not_solved,
        "mirror_distinct": stats.mirror_distinct,
        "solvable": stats.solvable,
        "by_horizontal": {str(style): count for style, count in stats.by_horizontal.items()},
        "min_steps_distribution": {str(steps): count
                                   for steps, count in stats.min_steps_distribution.items()},
        "hardest_steps": stats.hardest_steps,
        "hardest": [{"code": layout.code, "online_id": layout.online_id}
                    for layout in stats.hardest],
    }


def _stats_tables(stats: StandardStats) -> list[Any]:
    from rich.table import Table

    funnel = Table(title="Standard layouts (5 two-cell + 4 one-cell pieces)")
    funnel.add_column("layouts")
    funnel.add_column("count", justify="right")
    for label, count in (("all standard layouts", stats.layouts),
                         ("2x2 not already at the exit", stats.not_solved),
                         ("one of each mirror pair", stats.mirror_distinct),
                         ("solvable", stats.solvable)):
        funnel.add_row(label, f"{count:,}")

    shapes = Table(title="Solvable layouts by horizontal pieces")
    for style in stats.by_horizontal:
        shapes.add_column("all vertical" if style == 0 else f"{style} horizontal",
                          justify="right")
    shapes.add_row(*(f"{count:,}" for count in stats.by_horizontal.values()))

    distribution = Table(title="Solvable layouts by minimum steps")
    for _ in range(_DISTRIBUTION_COLUMNS):
        distribution.add_column("steps", justify="right", style="bold")
        distribution.add_column("count", justify="right")
    entries = list(stats.min_steps_distribution.items())
    rows = -(-len(entries) // _DISTRIBUTION_COLUMNS)
    for row in range(rows):
        cells: list[str] = []
        for steps, count in entries[row::rows]:
            cells += [str(steps), f"{count:,}"]
        distribution.add_row(*cells)

    hardest = Table(title=f"The hardest: {stats.hardest_steps} steps")
    hardest.add_column("code")
    hardest.add_column("klotski.online id")
    hardest.add_column("grid")
    for layout in stats.hardest:
        hardest.add_row(layout.code, layout.online_id, layout.grid("").replace("\n", "/"))
    return [funnel, shapes, distribution, hardest]


@click.command()
@click.argument("population", type=click.Choice(["standard"]), metavar="standard")
@json_option
@output_option
def stats(population: str, as_json: bool, output: str | None) -> None:
    """Recompute klotski.online's statistics of the standard layouts: how many are left after
    removing the solved ones, mirror twins and the unsolvable ones, by shape, and the
    distribution of their minimum steps with the hardest layouts."""
    from huarong.space.stats import standard_stats

    with progress_bar() as progress:
        result = standard_stats(progress)
    if as_json:
        emit_json(_stats_json(result), output)
        return
    from rich.console import Console

    if output is None:
        console = Console(highlight=False)
    else:
        buffer = io.StringIO()
        console = Console(file=buffer, width=_FILE_WIDTH, color_system=None, highlight=False)
    for table in _stats_tables(result):
        console.print(table)
    if output is not None:
        emit(buffer.getvalue(), output)


def _check_free(host: str, port: int) -> None:
    """Fail with one line, before uvicorn starts, when the address cannot be listened on."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise InputError(f"cannot listen on {host!r}: {error.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            reason = "address already in use" if error.errno == errno.EADDRINUSE else (
                error.strerror or str(error))
            raise InputError(f"cannot listen on {host}:{port}: {reason}") from None


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to listen on (0.0.0.0 to accept other machines).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535),
              help="TCP port.")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
@click.option("--max-group-size", default=300_000, show_default=True, type=click.IntRange(1),
              help="Largest group or puzzle cluster searched (/api/analysis, /api/path, "
                   "/api/puzzles/...).")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Server workers: processes for group- and cluster-sized answers (placements, "
                   "bottlenecks, graph files, puzzle clusters) [default: the cores but one, "
                   "1 to 4].")
@click.option("--answer-seconds", default=8.0, show_default=True,
              type=click.FloatRange(0.5, 3600),
              help="How long a heavy answer is awaited before the client is answered 202 "
                   "(ask the same address again; the work goes on).")
@click.option("--cache-size", "cache_megabytes", default=2048, show_default=True,
              type=click.IntRange(16), metavar="MB",
              help="Size of the cache of heavy answers beside the database; the oldest "
                   "answers are dropped beyond it.")
@click.option("--db", "database", type=click.Path(dir_okay=False),
              help="Database for the level picker [default: $HUARONG_DB or "
                   "~/.local/share/huarong/huarong.duckdb].")
@click.option("--search", "searches", multiple=True, metavar="FILE",
              help="A result file of huarong puzzle search -o (.parquet or .duckdb) to browse, "
                   "hardest first, at /explore#/searches; repeatable.")
def serve(host: str, port: int, log_level: str, max_group_size: int,
          workers: int | None, answer_seconds: float, cache_megabytes: int,
          database: str | None, searches: tuple[str, ...]) -> None:
    """Serve the HTTP API (/api/..., klotski.online's /solution) and the solution viewer
    (/). API documentation at /docs and /redoc (no internet needed) and /openapi.json."""
    import uvicorn

    from huarong.puzzles import PuzzleError
    from huarong.web.app import create_app

    try:
        app = create_app(database, max_group_size=max_group_size,
                         searches=searches, workers=workers, answer_seconds=answer_seconds,
                         cache_bytes=cache_megabytes << 20)
    except PuzzleError as error:
        raise InputError(f"--search {error}") from None
    _check_free(host, port)
    app.state.answers.start()
    for line in _holdings(app):
        click.echo(f"huarong: {line}", err=True)
    click.echo(f"huarong: serving on http://{host}:{port}/ (Ctrl+C to stop)", err=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level)


def _holdings(app: Any) -> list[str]:
    """What the server holds, as ``/api/health`` tells it, in words."""
    held = app.state.health()
    cache = held["cache"]
    megabytes = 1 << 20
    return [
        f"database {held['database']}" if held["database"] else
        "no database: light answers search (huarong db build makes one)",
        f"minimum-steps table {held['min_steps_table']}" if held["min_steps_table"] else
        "no minimum-steps table: solutions are searched",
        f"figures file {held['figures_file']}" if held["figures_file"] else
        "no figures file: a layout's row is read from the database (huarong db table "
        "writes it)" if held["database"] else "no figures file",
        f"answer cache {cache['directory']} ({cache['entries']} answers, "
        f"{cache['bytes'] / megabytes:,.0f} of {cache['limit'] / megabytes:,.0f} MB)"
        if cache else f"no answer cache: {held['cache_fault']}",
        f"{held['workers']} worker process{'es' if held['workers'] > 1 else ''} for heavy "
        f"answers, awaited {app.state.answers.answer_seconds:g} s before a 202",
    ]
