"""What every subcommand shares: layout arguments, errors with exit status 2, output files,
progress bars and the first-compile notice."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

from huarong.layout import Layout, LayoutError


class InputError(click.ClickException):
    """Bad input of any kind (argument, file, layout): one line on stderr, exit status 2."""

    exit_code = 2


class LayoutParam(click.ParamType):  # type: ignore[type-arg]
    """A layout in any notation: common code, klotski.online id or grid text."""

    name = "LAYOUT"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Layout:
        if isinstance(value, Layout):
            return value
        try:
            return Layout.parse(str(value))
        except LayoutError as error:
            self.fail(str(error), param, ctx)


LAYOUT = LayoutParam()


def output_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("-o", "--output", type=click.Path(dir_okay=False, writable=False),
                        help="Write the result to this file (atomically) instead of stdout.")(
        function)


def json_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(function)


def emit(text: str, output: str | None) -> None:
    """Print ``text``, or write it to ``output`` atomically."""
    from huarong.fileio import write_text_atomically

    if output is None:
        click.echo(text)
        return
    try:
        write_text_atomically(output, text if text.endswith("\n") else text + "\n")
    except OSError as error:
        raise InputError(f"cannot write {output!r}: {error.strerror or error}") from None
    click.echo(f"written to {output}", err=True)


def emit_json(data: Any, output: str | None) -> None:
    emit(json.dumps(data, ensure_ascii=False, indent=2), output)


def _compile_notice() -> None:
    click.echo("huarong: compiling the numba kernels (first run only, cached afterwards; "
               "this takes a few seconds)...", err=True)


def announce_first_compile() -> None:
    """Say on stderr when numba compiles the kernels (first run only), instead of hanging."""
    from huarong._kernels import first_compile_callbacks

    if _compile_notice not in first_compile_callbacks:
        first_compile_callbacks.append(_compile_notice)


ProgressCallback = Callable[[str, int, int], None]


@contextlib.contextmanager
def progress_bar(enabled: bool = True) -> Iterator[ProgressCallback]:
    """A rich progress bar on stderr, driven by ``callback(phase, done, total)``."""
    if not enabled:
        yield lambda phase, done, total: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn())
    # A bar redrawn into a log file or a pipe is noise; HUARONG_PROGRESS=1 forces it on.
    shown = sys.stderr.isatty() or bool(os.environ.get("HUARONG_PROGRESS"))
    with Progress(*columns, console=console, transient=True, disable=not shown) as progress:
        tasks: dict[str, Any] = {}

        def update(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = progress.add_task(phase, total=total)
            progress.update(tasks[phase], completed=done, total=total)

        yield update
