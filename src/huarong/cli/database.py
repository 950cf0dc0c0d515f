"""``huarong db ...`` (the database of all layouts), ``huarong all`` and ``huarong all-code``
(the original engine's ``--all`` and ``--all-code FILE``)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from huarong.cli._common import LAYOUT, InputError, json_option, progress_bar
from huarong.cli.layers import layers
from huarong.layout import Layout

if TYPE_CHECKING:
    from huarong.database import Database


def db_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--db", "db_path", type=click.Path(dir_okay=False), default=None,
        help="The database file (default: $HUARONG_DB, else "
             "~/.local/share/huarong/huarong.duckdb).")(function)


def _open(db_path: str | None) -> Database:
    from huarong.database import Database, DatabaseError

    try:
        return Database.open(db_path)
    except DatabaseError as error:
        raise InputError(str(error)) from None


@click.group()
def db() -> None:
    """The database of all 29,334,498 layouts: build it once, then look up and query."""


db.add_command(layers)


@db.command()
@db_option
@click.option("--force", is_flag=True, help="Rebuild over an existing database.")
def build(db_path: str | None, force: bool) -> None:
    """Compute every layout's class, group and minimum steps into the database."""
    from huarong.database import DatabaseError
    from huarong.database import build as build_database

    try:
        with progress_bar() as progress:
            path = build_database(db_path, progress=progress, force=force)
    except DatabaseError as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise InputError(f"cannot write the database {db_path or 'file'}: "
                         f"{error.strerror or error}") from None
    click.echo(f"database written to {path}", err=True)


@db.command()
@click.argument("layout", type=LAYOUT)
@db_option
@json_option
def info(layout: Layout, db_path: str | None, as_json: bool) -> None:
    """Everything the database knows about one layout."""
    from huarong.database import DatabaseError

    with _open(db_path) as database:
        try:
            record = database.info(layout)
        except DatabaseError as error:
            raise InputError(str(error)) from None
    fields = record.to_dict()
    if as_json:
        click.echo(json.dumps(fields, indent=2))
        return
    click.echo(layout.render_text())
    width = max(map(len, fields))
    for name, value in fields.items():
        shown = "no solution" if value is None and name == "min_steps" else value
        if value is None and name in ("farthest_steps", "farthest_count", "solution_count"):
            shown = "not computed (huarong db layers)"
        click.echo(f"{name:<{width}}  {shown}")


@db.command()
@click.argument("sql")
@db_option
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV.")
def query(sql: str, db_path: str | None, as_json: bool, as_csv: bool) -> None:
    """Run one read-only SQL query (tables: layouts, groups; macro hex(code))."""
    from huarong.database import DatabaseError

    if as_json and as_csv:
        raise click.UsageError("choose one of --json and --csv")
    with _open(db_path) as database:
        try:
            result = database.query(sql)
        except DatabaseError as error:
            raise InputError(str(error)) from None
    if as_json:
        click.echo(json.dumps([dict(zip(result.columns, row, strict=True))
                               for row in result.rows], default=str, indent=2))
    elif as_csv:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(result.columns)
        writer.writerows(result.rows)
        click.echo(buffer.getvalue(), nl=False)
    else:
        from rich.console import Console
        from rich.table import Table

        table = Table(*result.columns)
        for row in result.rows:
            table.add_row(*("NULL" if v is None else str(v) for v in row))
        Console(soft_wrap=True).print(table)


@db.command()
@click.option("--format", "file_format", type=click.Choice(["parquet", "csv"]),
              default="parquet", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Output file (default: layouts.parquet / layouts.csv).")
@db_option
def export(file_format: str, output: str | None, db_path: str | None) -> None:
    """Write the whole layouts table to a Parquet or CSV file."""
    target = output or f"layouts.{file_format}"
    with _open(db_path) as database:
        try:
            database.export(target, file_format)
        except OSError as error:
            raise InputError(f"cannot write {target!r}: {error.strerror or error}") from None
    click.echo(f"written to {target}", err=True)


def _output_error(path: Path, error: OSError) -> InputError:
    return InputError(f"cannot write {str(path)!r}: {error.strerror or error}")


@click.command("all")
@click.option("-d", "--output-dir", type=click.Path(file_okay=False), default=".",
              show_default=True, help="Directory for All_Case.txt, main.csv and J-B-S.txt.")
def all_cases(output_dir: str) -> None:
    """Enumerate and classify every layout: All_Case.txt (every code), main.csv (every code
    with its class and label) and per jiang-bing-style class J-B-S.txt (one seed code per
    group, in group_num order)."""
    from huarong.database import write_all_files

    directory = Path(output_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with progress_bar() as progress:
            written = write_all_files(directory, progress)
    except OSError as error:
        raise _output_error(directory, error) from None
    click.echo(f"written to {directory}: All_Case.txt, main.csv and {len(written) - 2} "
               "class files", err=True)


@click.command("all-code")
@click.argument("file", type=click.Path(dir_okay=False))
def all_code(file: str) -> None:
    """Write the code of every layout, ascending, one per line."""
    from huarong.cases import all_codes
    from huarong.database import write_codes

    try:
        write_codes(all_codes(), Path(file))
    except OSError as error:
        raise _output_error(Path(file), error) from None
    click.echo(f"written to {file}", err=True)
