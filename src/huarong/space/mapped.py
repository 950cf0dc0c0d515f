"""The files beside the database that are read memory-mapped (the table of minimum steps, the
figures): a header of the magic, the number of ids, the format's own fields and last the
CRC-32 of everything after the header; checked once when opened, then read in place."""

from __future__ import annotations

import mmap
import os
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self


def path_beside(database: str | os.PathLike[str], suffix: str) -> Path:
    """The file ``suffix`` names beside the database at ``database`` (beside the file a
    symbolic link points to, which is the one ``db build`` replaces)."""
    real = Path(os.path.realpath(database))
    return real.with_name(real.name + suffix)


class BesideFileError(ValueError):
    """A file beside the database that cannot be used (its ``kind`` says which); the message
    names the file and how to write it again."""

    kind: str

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        super().__init__(f"{self.kind} {path}: {reason}; write it again with "
                         "`huarong db table`")


def map_checked(path: Path, header: struct.Struct, magic: bytes, count: int,
                size_of: Callable[[tuple[Any, ...]], int], what: str,
                fault: Callable[[Path, str], Exception]) -> tuple[mmap.mmap, tuple[Any, ...]]:
    """The file at ``path`` mapped read-only, and its header's fields, once its magic and id
    count, its size (``size_of(fields)``) and its checksum are right; else ``fault(path,
    reason)``, raised, for a file that is missing, unreadable, of the wrong size or kind
    (``what``: a huarong ...), or damaged."""
    try:
        with path.open("rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size < header.size:
                raise fault(path, f"{size:,} bytes, shorter than its header (truncated?)")
            buffer = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as error:
        raise fault(path, f"cannot read it: {error.strerror or error}") from None
    fields = header.unpack_from(buffer)
    reason = None
    if fields[0] != magic or fields[1] != count:
        reason = f"not a huarong {what}"
    elif size != size_of(fields):
        reason = f"{size:,} bytes, its header says {size_of(fields):,} (truncated?)"
    else:
        with memoryview(buffer) as whole:
            if zlib.crc32(whole[header.size:]) != fields[-1]:
                reason = "its checksum does not match (the file is damaged)"
    if reason is not None:
        buffer.close()
        raise fault(path, reason)
    return buffer, fields


class MappedFile:
    """An open file of :func:`map_checked`; a subclass drops its views of the buffer in
    :meth:`_forget_views` before it is closed."""

    def __init__(self, path: Path, buffer: mmap.mmap) -> None:
        self.path = path
        self._buffer = buffer

    def _forget_views(self) -> None:
        """Drop the arrays that view the buffer: a mapping with views cannot be closed."""

    def close(self) -> None:
        self._forget_views()
        self._buffer.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
