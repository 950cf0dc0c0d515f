"""Atomic output files: an interrupted run never leaves a half-written file behind."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Literal, overload


@overload
def atomic_writer(path: str | os.PathLike[str], mode: Literal["w"] = "w"
                  ) -> contextlib.AbstractContextManager[IO[str]]: ...
@overload
def atomic_writer(path: str | os.PathLike[str], mode: Literal["wb"]
                  ) -> contextlib.AbstractContextManager[IO[bytes]]: ...
def atomic_writer(path: str | os.PathLike[str], mode: str = "w"
                  ) -> contextlib.AbstractContextManager[IO[Any]]:
    """Open a temporary file beside ``path`` for writing, as text (UTF-8, newlines as
    written) with ``"w"`` or as bytes with ``"wb"``; on success it replaces ``path``, on any
    error it is removed and ``path`` is left as it was."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_writer mode {mode!r} is not supported: use 'w' or 'wb'")
    return _atomic_writer(Path(path), mode)


@contextlib.contextmanager
def _atomic_writer(target: Path, mode: str) -> Iterator[IO[Any]]:
    handle, temporary = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.",
                                         suffix=".tmp")
    try:
        stream = os.fdopen(handle, "wb") if mode == "wb" else os.fdopen(
            handle, "w", encoding="utf-8", newline="")
        with stream:
            yield stream
        # mkstemp creates the file private (0600); give it the mode a plain open() would.
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def write_text_atomically(path: str | os.PathLike[str], text: str) -> None:
    with atomic_writer(path) as stream:
        stream.write(text)
