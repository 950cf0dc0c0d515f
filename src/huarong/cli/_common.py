"""What every subcommand shares: layout arguments, errors with exit status 2, output files,
progress bars and the first-compile notice."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import click

from huarong.engine.layout import Layout, LayoutError


class InputError(click.ClickException):
    """Bad input of any kind (argument, file, layout): one line on stderr, exit status 2."""

    exit_code = 2


class LayoutParam(click.ParamType):  # type: ignore[type-arg]
    """A layout in any notation: common code, klotski.online id or grid text; a classic's
    name (横刀立马, "Sword on Horseback"); ``-`` reads any of these from stdin."""

    name = "LAYOUT"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Layout:
        if isinstance(value, Layout):
            return value
        text = str(value)
        if text == "-":
            text = sys.stdin.read()
        classic = classic_named(text)
        if classic is not None:
            return classic
        try:
            return Layout.parse(text)
        except LayoutError as error:
            self.fail(str(error), param, ctx)


def classic_named(name: str) -> Layout | None:
    """The classic layout of that Chinese or English name (any case), if there is one."""
    from huarong.engine.classics import CLASSICS

    wanted = name.strip().casefold()
    return next((classic.layout for classic in CLASSICS
                 if wanted in (classic.name, classic.name_en.casefold())), None)


NO_SOLUTION_EXIT = 1
"""Exit status when the layout has no solution or there is no path."""


def exit_without_solution() -> NoReturn:
    sys.exit(NO_SOLUTION_EXIT)


LAYOUT = LayoutParam()

SUBJECT_FILE = "%"
"""The output name that means ``CODE.txt``, CODE being the layout's common code."""


class OutputParam(click.ParamType):  # type: ignore[type-arg]
    """An output file, checked when the command line is read so that a missing or read-only
    directory fails before any work starts; ``-`` is stdout, ``%`` is ``CODE.txt``."""

    name = "FILE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> str:
        from huarong.fileio import check_writable

        text = str(os.fspath(value))
        if text != SUBJECT_FILE:
            try:
                check_writable(text)
            except OSError as error:
                self.fail(f"cannot write {text!r}: {error.strerror or error}", param, ctx)
        return text


OUTPUT = OutputParam()


def output_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("-o", "--output", type=OUTPUT,
                        help="Write the result to this file (atomically) instead of stdout; "
                             "`-` is stdout, `%` is CODE.txt.")(function)


def json_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(function)


def _subject_file() -> str:
    """``CODE.txt`` for the layout the running command is about."""
    params = click.get_current_context().params
    subject = params.get("layout", params.get("start"))
    if not isinstance(subject, Layout):
        raise InputError(f"{SUBJECT_FILE!r} as a file name needs a layout")
    return f"{subject.code}.txt"


def emit(text: str, output: str | None) -> None:
    """Print ``text``, or write it to ``output`` atomically."""
    from huarong.fileio import STDOUT, write_text_atomically

    if output is None or output == STDOUT:
        click.echo(text)
        return
    if output == SUBJECT_FILE:
        output = _subject_file()
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


PROGRESS_INTERVAL = 5.0
"""Seconds between progress lines when stderr is not a terminal (a log file, a pipe)."""


@contextlib.contextmanager
def progress_bar(enabled: bool = True) -> Iterator[ProgressCallback]:
    """Progress on stderr, driven by ``callback(phase, done, total)``: a rich bar on a
    terminal (or with ``HUARONG_PROGRESS=1``), else a plain line every
    :data:`PROGRESS_INTERVAL` seconds; nothing when not ``enabled`` (``-q``)."""
    if not enabled:
        yield lambda phase, done, total: None
    elif sys.stderr.isatty() or os.environ.get("HUARONG_PROGRESS"):
        with _rich_progress() as update:
            yield update
    else:
        yield _progress_lines()


def _progress_lines() -> ProgressCallback:
    last = time.monotonic()
    said = ""

    def update(phase: str, done: int, total: int) -> None:
        nonlocal last, said
        now = time.monotonic()
        share = f" ({100 * done // total}%)" if total > 0 else ""
        line = f"huarong: {phase}: {done:,}/{total:,}{share}"
        if now - last < PROGRESS_INTERVAL or line == said:
            return
        last, said = now, line
        click.echo(line, err=True)

    return update


@contextlib.contextmanager
def _rich_progress() -> Iterator[ProgressCallback]:
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
    with Progress(*columns, console=console, transient=True) as progress:
        tasks: dict[str, Any] = {}

        def update(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = progress.add_task(phase, total=total)
            progress.update(tasks[phase], completed=done, total=total)

        yield update


class Terminated(BaseException):
    """SIGTERM, raised in the main thread so that every ``finally`` and ``with`` block runs
    (temporary files are removed, locks released) before the process exits with 143."""


TERMINATED_EXIT = 128 + signal.SIGTERM
INTERRUPTED_EXIT = 128 + signal.SIGINT
BROKEN_PIPE_EXIT = 128 + signal.SIGPIPE


@contextlib.contextmanager
def sigterm_unwinds() -> Iterator[None]:
    """While inside, SIGTERM raises :class:`Terminated` instead of killing the process."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: Any) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
