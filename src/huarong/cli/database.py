"""``huarong db ...`` (the database of all layouts), ``huarong all`` and ``huarong all-code``
(the original engine's ``--all`` and ``--all-code FILE``)."""

from __future__ import annotations

import csv
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from huarong.cli._common import (
    DB_PLACE,
    LAYOUT,
    OUTPUT,
    InputError,
    MachineFault,
    json_option,
    machine_faults,
    progress_bar,
)
from huarong.cli.layers import layers
from huarong.engine.layout import Layout
from huarong.fileio import STDOUT

if TYPE_CHECKING:
    from huarong.space.all_files import FileFormat
    from huarong.space.database import Database


def db_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--db", "db_path", type=click.Path(dir_okay=False), default=None,
        help="The database file (default: $HUARONG_DB, else "
             "~/.local/share/huarong/huarong.duckdb).")(function)


def _open(db_path: str | None) -> Database:
    from huarong.space.database import (
        Database,
        DatabaseError,
        DatabaseInUseError,
        default_path,
    )

    try:
        with machine_faults(db_path or default_path(), DB_PLACE, "read"):
            return Database.open(db_path)
    except DatabaseInUseError as error:
        raise MachineFault(str(error)) from None
    except DatabaseError as error:
        raise InputError(str(error)) from None

wait_option = click.option(
    "--wait", is_flag=True,
    help="If another process is writing the database, wait for it instead of stopping.")


@click.group()
def db() -> None:
    """The database of all 29,334,498 layouts: build it once, then look up and query."""


db.add_command(layers)


@db.command()
@db_option
@click.option("--force", is_flag=True, help="Rebuild over an existing database.")
@wait_option
@click.option("-q", "--quiet", is_flag=True, help="No progress.")
def build(db_path: str | None, force: bool, wait: bool, quiet: bool) -> None:
    """Compute every layout's class, group and minimum steps into the database."""
    from huarong.space.build import build as build_database
    from huarong.space.database import DatabaseError, default_path

    try:
        with machine_faults(db_path or default_path(), DB_PLACE), \
                progress_bar(not quiet) as progress:
            path = build_database(db_path, progress=progress, force=force, wait=wait)
    except DatabaseError as error:
        raise InputError(str(error)) from None
    click.echo(f"database written to {path}", err=True)


@db.command()
@click.argument("layout", type=LAYOUT)
@db_option
@json_option
def info(layout: Layout, db_path: str | None, as_json: bool) -> None:
    """Everything the database knows about one layout, its short code, and whether the
    table of minimum steps that answers `solve` and `hint` is beside the database."""
    from huarong.cli.core import open_table
    from huarong.space.database import DatabaseError

    with _open(db_path) as database:
        try:
            record = database.info(layout)
        except DatabaseError as error:
            raise InputError(str(error)) from None
        table = open_table(str(database.path))
    code, *rest = record.to_dict().items()
    fields = dict([code, ("short_code", layout.short_code), *rest])
    fields["table"] = str(table.path) if table is not None else None
    if as_json:
        click.echo(json.dumps(fields, indent=2))
        return
    click.echo(layout.render_text())
    width = max(map(len, fields))
    for name, value in fields.items():
        shown = "no solution" if value is None and name == "min_steps" else value
        if value is None and name in ("farthest_steps", "farthest_count", "solution_count"):
            shown = "not computed (huarong db layers)"
        if value is None and name == "table":
            shown = "none: solve and hint search (huarong db table writes it)"
        click.echo(f"{name:<{width}}  {shown}")


@db.command("table")
@db_option
@click.option("-q", "--quiet", is_flag=True, help="No progress.")
def write_table(db_path: str | None, quiet: bool) -> None:
    """Write the tables beside a database built without them (db build writes them too):
    the minimum steps, with which solve, hint and the web server walk instead of searching,
    and the figures, from which the web server answers a layout's row."""
    from huarong.space.database import DatabaseError
    from huarong.space.figures import figures_path, write_figures
    from huarong.space.table import table_path
    from huarong.space.table import write_table as write

    with _open(db_path) as database:
        steps_target = table_path(database.path)
        figures_target = figures_path(database.path)
        try:
            with progress_bar(not quiet) as progress:
                with machine_faults(steps_target, DB_PLACE):
                    write(steps_target, database.min_steps_by_id(
                        lambda done, total: progress("reading minimum steps", done, total)))
                with machine_faults(figures_target, DB_PLACE):
                    write_figures(figures_target, database, lambda done, total: progress(
                        "reading the figures", done, total))
        except (DatabaseError, ValueError) as error:
            raise InputError(str(error)) from None
    click.echo(f"tables written to {steps_target} and {figures_target}", err=True)


TERMINAL_ROWS = 50
"""Rows of a query's table shown on a terminal; the rest are counted, not shown."""


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


@db.command()
@click.argument("sql")
@db_option
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV.")
@click.option("--limit", type=click.IntRange(min=0), default=None, metavar="N",
              help="Stop after N rows.")
def query(sql: str, db_path: str | None, as_json: bool, as_csv: bool,
          limit: int | None) -> None:
    """Run one read-only SQL query (tables: layouts, groups; macro hex(code)).

    Rows stream, so a result of any size takes little memory. On a terminal the first 50
    rows are drawn as a table and the rest counted; piped output (tab-separated), --csv and
    --json carry every row, values uncut."""
    from huarong.space.database import DatabaseError

    if as_json and as_csv:
        raise click.UsageError("choose one of --json and --csv")
    if not sql.strip():
        raise InputError("db query: the SQL is empty (for example: "
                         "huarong db query \"SELECT count(*) FROM layouts\")")
    with _open(db_path) as database:
        try:
            result = database.stream(sql)
            batches = _limited(result.batches, limit)
            if as_json:
                _print_json(result.columns, _rows(batches))
            elif as_csv:
                _print_separated(result.columns, batches, ",")
            elif _stdout_is_terminal():
                _print_table(result.columns, batches)
            else:
                _print_separated(result.columns, batches, "\t")
        except DatabaseError as error:
            raise InputError(str(error)) from None


def _limited(batches: Iterator[Any], limit: int | None) -> Iterator[Any]:
    """The record batches holding the first ``limit`` rows (all of them with None)."""
    left = limit
    for batch in batches:
        if left is not None:
            if left <= 0:
                return
            batch = batch.slice(0, left)
            left -= batch.num_rows
        yield batch


def _rows(batches: Iterator[Any]) -> Iterator[tuple[Any, ...]]:
    return (row for batch in batches
            for row in zip(*(column.to_pylist() for column in batch.columns), strict=True))


def _print_separated(columns: list[str], batches: Iterator[Any], delimiter: str) -> None:
    """Header and rows, as Python's csv module writes them.  Batches of plain integers and
    strings that need no quoting go through Arrow's CSV writer instead, to the same bytes
    about ten times faster (the 29 million rows of ``layouts`` in well under a minute)."""
    import pyarrow.csv as arrow_csv

    text = csv.writer(sys.stdout, delimiter=delimiter, lineterminator="\n")
    text.writerow(columns)
    special = f"[{re.escape(delimiter)}\"\r\n]"
    options = arrow_csv.WriteOptions(include_header=False, delimiter=delimiter,
                                     quoting_style="none")
    for batch in batches:
        if _plain(batch, special):
            sys.stdout.flush()
            arrow_csv.write_csv(batch, sys.stdout.buffer, write_options=options)
            sys.stdout.buffer.flush()
        else:
            text.writerows(_rows(iter([batch])))
    sys.stdout.flush()


def _plain(batch: Any, special: str) -> bool:
    """Whether every column is an integer or a string column with no character that CSV
    quotes, so that Arrow writes exactly what Python's csv module would."""
    import pyarrow.compute as compute
    import pyarrow.types as types

    for column in batch.columns:
        if types.is_integer(column.type):
            continue
        if not types.is_string(column.type) or compute.any(
                compute.match_substring_regex(column, special)).as_py():
            return False
    return True


def _print_json(columns: list[str], rows: Iterator[tuple[Any, ...]]) -> None:
    """A JSON array of one object per row, written row by row."""
    separator = "[\n  "
    for row in rows:
        sys.stdout.write(separator + json.dumps(dict(zip(columns, row, strict=True)),
                                                default=str, ensure_ascii=False))
        separator = ",\n  "
    sys.stdout.write("[]\n" if separator.startswith("[") else "\n]\n")


def _print_table(columns: list[str], batches: Iterator[Any]) -> None:
    """The first rows as a table, then how many more there are (counted batch by batch,
    never turned into Python values)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(*columns)
    more = 0
    for batch in batches:
        room = TERMINAL_ROWS - table.row_count
        for row in _rows(iter([batch.slice(0, room)])):
            table.add_row(*("NULL" if v is None else str(v) for v in row))
        more += max(0, batch.num_rows - room)
    console = Console(soft_wrap=True)
    console.print(table)
    if more:
        console.print(f"... and {more:,} more rows (all of them with --csv, --json or "
                      "through a pipe)", highlight=False)


_EXPORT_FORMATS = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}


@db.command()
@click.option("--format", "file_format", type=click.Choice(["parquet", "csv"]), default=None,
              help="File format (default: from the output's extension, .csv or .parquet; "
                   "CSV on stdout; else Parquet).")
@click.option("-o", "--output", type=OUTPUT, default=None,
              help="Output file (default: layouts.parquet / layouts.csv; - is stdout).")
@db_option
def export(file_format: str | None, output: str | None, db_path: str | None) -> None:
    """Write the whole layouts table to a Parquet or CSV file."""
    if file_format is None:
        if output is None:
            file_format = "parquet"
        elif output == STDOUT:
            file_format = "csv"
        else:
            file_format = _EXPORT_FORMATS.get(Path(output).suffix.lower())
            if file_format is None:
                raise click.UsageError(f"cannot tell the format of {output!r} from its "
                                       "extension: add --format csv or --format parquet")
    target = output or f"layouts.{file_format}"
    with _open(db_path) as database, machine_faults(target, "-o"):
        database.export(target, file_format)
    if target != STDOUT:
        click.echo(f"written to {target} ({file_format})", err=True)


_file_format = click.option(
    "--format", "file_format", type=click.Choice(["huarong", "original"]), default="huarong",
    show_default=True, help="original: the original engine's files byte for byte (no header, "
                            "no newline after the last row).")


def _chosen(file_format: str) -> FileFormat:
    return "original" if file_format == "original" else "huarong"


_ALL_BYTES = 1_600_000_000
"""What ``huarong all`` writes: All_Case.txt (293 MB), main.csv (about 1.3 GB) and the class
files (a few MB)."""


def _announce(what: str, directory: Path, size: int) -> None:
    """Say where a big output goes and how big it is, and refuse at once when the disk
    cannot hold it (instead of failing after minutes of work)."""
    from huarong.fileio import check_free_space, gigabytes

    with machine_faults(directory, "--dir"):
        check_free_space(directory, size)
    click.echo(f"huarong: writing {what} to {directory.resolve()} (about "
               f"{gigabytes(size)})", err=True)


_dir_help = "Directory to write into (created if missing)."


@click.command("all")
@click.option("-d", "--dir", "--output-dir", "output_dir", type=click.Path(file_okay=False),
              default=".", show_default=True, help=_dir_help)
@click.option("-q", "--quiet", is_flag=True, help="No progress.")
@_file_format
def all_cases(output_dir: str, quiet: bool, file_format: str) -> None:
    """Enumerate and classify every layout: All_Case.txt (every code), main.csv (every code
    with its class and label) and per jiang-bing-style class J-B-S.txt (one seed code per
    group, in group_num order); about 1.6 GB in all."""
    from huarong.space.all_files import write_all_files

    directory = Path(output_dir)
    _announce("All_Case.txt, main.csv and 203 class files", directory, _ALL_BYTES)
    with machine_faults(directory, "--dir"), progress_bar(not quiet) as progress:
        directory.mkdir(parents=True, exist_ok=True)
        written = write_all_files(directory, progress, file_format=_chosen(file_format))
    click.echo(f"written to {directory}: All_Case.txt, main.csv and {len(written) - 2} "
               "class files", err=True)


@click.command("all-code")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True),
                default="All_Case.txt")
@click.option("-d", "--dir", "directory", type=click.Path(file_okay=False), default=".",
              help=_dir_help)
@_file_format
def all_code(file: str, directory: str, file_format: str) -> None:
    """Write the code of every layout, ascending, one per line, to FILE (default
    All_Case.txt; 293 MB)."""
    from huarong.engine.ids import LAYOUT_COUNT
    from huarong.fileio import check_writable, real_target
    from huarong.space.all_files import write_codes
    from huarong.space.cases import all_codes

    target = Path(file) if file == STDOUT else Path(directory) / file
    with machine_faults(target, "--dir"):
        Path(directory).mkdir(parents=True, exist_ok=True)
        try:
            check_writable(target)
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as error:
            # A place that does not exist is a mistake in the command line, not a fault.
            raise InputError(f"cannot write {str(target)!r}: "
                             f"{error.strerror or error}") from None
        regular = real_target(target) is not None
    if regular:
        _announce(f"every code ({LAYOUT_COUNT:,} lines)", target.parent, LAYOUT_COUNT * 10)
    with machine_faults(target, "--dir"):
        write_codes(all_codes(), target, file_format=_chosen(file_format))
    if regular:
        click.echo(f"written to {target}", err=True)
