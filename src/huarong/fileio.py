"""Atomic output files: an interrupted run never leaves a half-written file behind."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO[str]]:
    """Open a temporary file beside ``path`` for writing; on success it replaces ``path``,
    on any error it is removed and ``path`` is left as it was."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.",
                                         suffix=".tmp")
    try:
        with os.fdopen(handle, mode, encoding="utf-8", newline="") as stream:
            yield stream
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def write_text_atomically(path: str | os.PathLike[str], text: str) -> None:
    with atomic_writer(path) as stream:
        stream.write(text)
