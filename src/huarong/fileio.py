"""Output files: an interrupted run never leaves a half-written file behind, and what is not
a regular file is never replaced.

A regular file (or a new name) is written to a temporary file beside it and renamed into
place.  A symbolic link is followed: the file it points to is replaced atomically in its own
directory and the link stays a link.  A FIFO, a character or block device (``/dev/stdout``,
``/dev/null``) and the name ``-`` (standard output) are written directly, since renaming
over them would turn them into regular files.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Literal, overload

STDOUT = "-"
"""The output name that means standard output."""


def real_target(path: str | os.PathLike[str]) -> Path | None:
    """The regular file that writing ``path`` replaces (symbolic links followed), or None
    when ``path`` must be written directly: ``-``, a FIFO, a device or a socket."""
    if os.fspath(path) == STDOUT:
        return None
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "is a directory", os.fspath(path))
    return target if stat.S_ISREG(mode) else None


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise :class:`OSError` now when ``path`` could not be written later (its directory is
    missing or read-only, or it is a directory), so a long job fails before it starts."""
    target = real_target(path)
    if target is None:
        return
    directory = target.parent
    if not directory.is_dir():
        raise FileNotFoundError(2, f"no directory {str(directory)!r}", os.fspath(path))
    if not os.access(directory, os.W_OK | os.X_OK):
        raise PermissionError(13, f"directory {str(directory)!r} is not writable",
                              os.fspath(path))


@overload
def atomic_writer(path: str | os.PathLike[str], mode: Literal["w"] = "w"
                  ) -> contextlib.AbstractContextManager[IO[str]]: ...
@overload
def atomic_writer(path: str | os.PathLike[str], mode: Literal["wb"]
                  ) -> contextlib.AbstractContextManager[IO[bytes]]: ...
def atomic_writer(path: str | os.PathLike[str], mode: str = "w"
                  ) -> contextlib.AbstractContextManager[IO[Any]]:
    """Open ``path`` for writing, as text (UTF-8, newlines as written) with ``"w"`` or as
    bytes with ``"wb"``.  A regular file is written to a temporary file beside it that
    replaces it on success and is removed on any error, leaving ``path`` as it was; ``-``,
    FIFOs and devices are written directly (see the module's docstring)."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_writer mode {mode!r} is not supported: use 'w' or 'wb'")
    target = real_target(path)
    if target is None:
        return _direct_writer(os.fspath(path), mode)
    return _atomic_writer(target, mode)


@contextlib.contextmanager
def _direct_writer(path: str, mode: str) -> Iterator[IO[Any]]:
    if path == STDOUT:
        stream: IO[Any] = sys.stdout.buffer if mode == "wb" else sys.stdout
        yield stream
        stream.flush()
        return
    with _open_stream(os.open(path, os.O_WRONLY), mode) as stream:
        yield stream


def _open_stream(handle: int, mode: str) -> IO[Any]:
    if mode == "wb":
        return os.fdopen(handle, "wb")
    return os.fdopen(handle, "w", encoding="utf-8", newline="")


@contextlib.contextmanager
def _atomic_writer(target: Path, mode: str) -> Iterator[IO[Any]]:
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                         suffix=".tmp")
    try:
        with _open_stream(handle, mode) as stream:
            yield stream
        _publish(Path(temporary), target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _publish(temporary: Path, target: Path) -> None:
    # mkstemp creates the file private (0600); give it the mode a plain open() would.
    os.chmod(temporary, 0o666 & ~_umask())
    os.replace(temporary, target)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def write_text_atomically(path: str | os.PathLike[str], text: str) -> None:
    with atomic_writer(path) as stream:
        stream.write(text)


@contextlib.contextmanager
def file_written_by_others(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A fresh path for a library (DuckDB's ``COPY``) to write whole; on success its file
    becomes ``path`` the way :func:`atomic_writer` would write it, and it is gone on every
    exit path."""
    target = real_target(path)
    beside = target if target is not None else Path(tempfile.gettempdir()) / "huarong-output"
    with temporary_beside(beside) as temporary:
        yield temporary
        if target is not None:
            _publish(temporary, target)
        else:
            with temporary.open("rb") as source, atomic_writer(path, "wb") as sink:
                shutil.copyfileobj(source, sink, 1 << 20)


@contextlib.contextmanager
def temporary_beside(target: Path) -> Iterator[Path]:
    """A path that does not exist yet, in a fresh directory beside ``target`` (which is
    removed with whatever is left in it on every exit path)."""
    directory = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}."))
    try:
        yield directory / target.name
    finally:
        shutil.rmtree(directory, ignore_errors=True)
