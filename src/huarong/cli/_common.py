"""What every subcommand shares: layout arguments, errors with exit status 2, output files,
progress bars and the first-compile notice."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import click

from huarong.engine.layout import Layout, LayoutError


class InputError(click.ClickException):
    """Bad input of any kind (argument, file, layout): one line on stderr, exit status 2."""

    exit_code = 2


class MachineFault(click.ClickException):
    """A fault of the machine (full disk, read-only place, I/O error, a file another process
    holds): one line naming the path, the cause and what to do; exit status 1."""

    exit_code = 1


_CAUSES: dict[int, tuple[str, str]] = {
    # errno -> (the cause in words, what to do; {place} and {option} filled in)
    errno.ENOSPC: ("the disk is full", "free some space in {place} or choose another place "
                                       "with {option}"),
    errno.EDQUOT: ("the disk quota is used up", "free some of your quota or choose another "
                                                "place with {option}"),
    errno.EROFS: ("the place is read-only", "choose another place with {option}"),
    errno.EACCES: ("permission denied", "choose a place you may write with {option}, or "
                                        "change the permissions of {place}"),
    errno.EPERM: ("operation not permitted", "choose a place you may write with {option}"),
    errno.ENOENT: ("its directory is missing", "create it again or choose another place "
                                               "with {option}"),
    errno.ENOTDIR: ("a part of its path is not a directory",
                    "choose another place with {option}"),
    errno.EIO: ("the disk reported an input/output error", "check the disk (dmesg), then "
                                                           "run again"),
    errno.EBUSY: ("another process is using it", "wait for it to finish, or add --wait"),
}

_DUCKDB_FAULTS = ("IOException", "FatalException", "OutOfMemoryException")


def is_machine_fault(error: BaseException) -> bool:
    """An OSError of the machine, or an I/O error of DuckDB or of Arrow (an OSError too)."""
    from huarong.fileio import MACHINE_ERRNOS, is_io_fault

    if isinstance(error, OSError):
        return error.errno in MACHINE_ERRNOS or error.errno is None
    duckdb = sys.modules.get("duckdb")
    return duckdb is not None and isinstance(error, duckdb.Error) and (
        type(error).__name__ in _DUCKDB_FAULTS or is_io_fault(error))


def describe_fault(error: BaseException, path: str | os.PathLike[str], option: str,
                   verb: str = "write") -> str:
    """One line: which path, what went wrong and what to do.  ``option`` names the option
    (or variable) that chooses another place; ``verb`` what was done to ``path``."""
    from huarong.fileio import (
        FILE_IN_USE,
        Busy,
        NotEnoughSpace,
        describe_holder,
        errno_in_text,
        existing_directory,
        gigabytes,
    )

    shown = os.fspath(path)
    place = existing_directory(shown)
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    if isinstance(error, NotEnoughSpace):
        return (f"cannot {verb} {shown}: it {error.strerror} in {error.place}; free "
                f"{gigabytes(error.shortfall)} there or choose another place with {option}")
    if isinstance(error, Busy):
        return (f"cannot {verb} {shown}: another process ({describe_holder(error.holder)}) is "
                f"writing it and holds the lock {error.lock}; wait for it to finish, or add "
                "--wait")
    if FILE_IN_USE in text:
        holder = re.search(r"\(PID (\d+)\)", text)
        who = f" (pid {holder[1]})" if holder else ""
        return (f"cannot use {shown}: another program{who} has the database open for "
                "writing; wait for it to finish or stop it, then run again")
    number = error.errno if isinstance(error, OSError) else errno_in_text(text)
    if number == errno.ENOENT and Path(shown).parent.is_dir():
        return (f"cannot {verb} {shown}: {place} refuses new files; choose another place "
                f"with {option}")
    if number in _CAUSES:
        cause, advice = _CAUSES[number]
        return (f"cannot {verb} {shown}: {cause}; "
                f"{advice.format(place=place, option=option)}")
    return f"cannot {verb} {shown}: {text}; check the disk and {place}, then run again"


DB_PLACE = "--db (or $HUARONG_DB)"
"""How a person chooses where the database lives, named in the faults of its writers."""


@contextlib.contextmanager
def refused_as(errors: type[Exception],
               refusal: Callable[[str], click.ClickException] = InputError) -> Iterator[None]:
    """The library's refusals of the input (``errors``) as ``refusal``: one line and exit
    status 2."""
    try:
        yield
    except errors as error:
        raise refusal(str(error)) from None


@contextlib.contextmanager
def machine_faults(path: str | os.PathLike[str] | None, option: str, verb: str = "write"
                   ) -> Iterator[None]:
    """Turn a fault of the machine met inside (see :func:`is_machine_fault`) into a
    :class:`MachineFault` about ``path``: one line and exit status 1."""
    try:
        yield
    except Exception as error:
        if not is_machine_fault(error):
            raise
        if os.environ.get("HUARONG_DEBUG"):
            traceback.print_exc()
        named = path if path is not None else getattr(error, "filename", None) or "?"
        raise MachineFault(describe_fault(error, named, option, verb)) from None


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
    with machine_faults(output, "-o"):
        write_text_atomically(output, text if text.endswith("\n") else text + "\n")
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


def _file_notice(text: str) -> None:
    click.echo(f"huarong: {text}", err=True)


def announce_file_notices() -> None:
    """Say on stderr when a writer removes what a killed run left, or waits for a lock."""
    from huarong.fileio import notice_listeners

    if _file_notice not in notice_listeners:
        notice_listeners.append(_file_notice)


ProgressCallback = Callable[[str, int, int], None]


PROGRESS_INTERVAL = 5.0
"""Seconds between progress lines when stderr is not a terminal (a log file, a pipe)."""
HEARTBEAT_FLOOR = 0.1
"""The fewest seconds between two lines saying the same count."""


@contextlib.contextmanager
def progress_bar(enabled: bool = True) -> Iterator[ProgressCallback]:
    """Progress on stderr, driven by ``callback(phase, done, total)``: a rich bar on a
    terminal (or with ``HUARONG_PROGRESS=1``), else a plain line every
    :data:`PROGRESS_INTERVAL` seconds, with the time elapsed, also while one long unit of
    work leaves the count where it was; nothing when not ``enabled`` (``-q``)."""
    if not enabled:
        yield lambda phase, done, total: None
    elif sys.stderr.isatty() or os.environ.get("HUARONG_PROGRESS"):
        with _rich_progress() as update:
            yield update
    else:
        with _progress_lines() as update:
            yield update


@contextlib.contextmanager
def _progress_lines() -> Iterator[ProgressCallback]:
    began = time.monotonic()
    lock = threading.Lock()
    latest = ""
    said_at = began

    def say(now: float) -> None:
        nonlocal said_at
        said_at = now
        click.echo(f"{latest}, {_elapsed(now - began)}", err=True)

    def update(phase: str, done: int, total: int) -> None:
        nonlocal latest
        share = f" ({100 * done // total}%)" if total > 0 else ""
        with lock:
            line = f"huarong: {phase}: {done:,}/{total:,}{share}"
            changed, latest = line != latest, line
            now = time.monotonic()
            if changed and now - said_at >= PROGRESS_INTERVAL:
                say(now)

    def beat() -> None:
        # A unit of work may keep the count still for minutes: a log still hears of it.
        every = max(PROGRESS_INTERVAL, HEARTBEAT_FLOOR)
        while not stopped.wait(every / 5):
            with lock:
                now = time.monotonic()
                if latest and now - said_at >= every:
                    say(now)

    stopped = threading.Event()
    beating = threading.Thread(target=beat, name="huarong-progress", daemon=True)
    beating.start()
    try:
        yield update
    finally:
        stopped.set()
        beating.join()


def _elapsed(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {seconds:02d} s" if minutes else f"{seconds} s"


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


MACHINE_FAULT_EXIT = MachineFault.exit_code
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
