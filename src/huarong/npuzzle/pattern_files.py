"""The pattern databases' files on disk: the cache directory, each table's file name (a
digest of the board, goal and tiles), and the format, a header and the table's SHA-256 before
the table, read back only when size, header and digest hold, written atomically."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import numpy.typing as npt

from huarong.npuzzle.board import Board, _joined

PATTERN_FORMAT = b"huarong-npuzzle-pdb-1\n"
"""The header of a 6-6-3 style table (one byte an arrangement of the tiles and the blank)."""
COMPACT_FORMAT = b"huarong-npuzzle-cpdb-1\n"
"""The header of a compact table (one byte a cell set and order of the tiles)."""
_DIGEST_SIZE = 32


def cache_directory() -> Path:
    """Where pattern databases are kept: ``$HUARONG_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/huarong``, else ``~/.cache/huarong``."""
    explicit = os.environ.get("HUARONG_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "huarong"


def pattern_file(goal: Board, group: tuple[int, ...], directory: Path) -> Path:
    """Where the 6-6-3 style table of ``group``'s tiles for ``goal`` is kept."""
    key = f"{goal.size}|goal {goal.line()}|tiles {_joined(group)}"
    name = hashlib.sha256(key.encode()).hexdigest()[:24]
    return directory / "npuzzle" / f"pdb-{goal.size}-{len(group)}tiles-{name}.bin"


def compact_file(goal: Board, group: tuple[int, ...], directory: Path) -> Path:
    """Where the compact table of ``group``'s tiles for ``goal`` is kept."""
    key = f"compact|{goal.size}|goal {goal.line()}|tiles {_joined(group)}"
    name = hashlib.sha256(key.encode()).hexdigest()[:24]
    return directory / "npuzzle" / f"cpdb-{goal.size}-{len(group)}tiles-{name}.bin"


def read_table(path: Path, expected_size: int, magic: bytes,
               out: npt.NDArray[np.uint8] | None = None) -> npt.NDArray[np.uint8] | None:
    """The table stored at ``path`` behind the header ``magic`` (:data:`PATTERN_FORMAT` or
    :data:`COMPACT_FORMAT`), or ``None`` when it is missing, of another size or format,
    or its SHA-256 does not match.  Read straight into ``out`` (or a new array): no second
    copy in memory."""
    header = len(magic) + _DIGEST_SIZE
    try:
        with path.open("rb") as source:
            if os.fstat(source.fileno()).st_size != header + expected_size:
                return None
            head = source.read(header)
            values = out if out is not None else np.empty(expected_size, np.uint8)
            if source.readinto(values.data) != expected_size:
                return None
    except OSError:
        return None
    if not head.startswith(magic) or hashlib.sha256(values.data).digest() != head[len(magic):]:
        return None
    return values


def write_table(path: Path, values: npt.NDArray[np.uint8], magic: bytes) -> None:
    """``values`` stored at ``path`` atomically, behind ``magic`` and their SHA-256; a cache
    that cannot be written is left unwritten."""
    from huarong.fileio import atomic_writer

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Its temporary file is named for this process, so one a kill -9 leaves is removed
        # by the next writer.
        with atomic_writer(path, "wb") as out:
            out.write(magic + hashlib.sha256(values.data).digest())
            out.write(values.data)
    except OSError:
        # An unwritable cache costs a rebuild next time, never a failed solve.
        return
