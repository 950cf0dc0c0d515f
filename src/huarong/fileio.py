"""Output files: an interrupted run never leaves a half-written file behind, and what is not
a regular file is never replaced.

A regular file (or a new name) is written to a temporary file beside it and renamed into
place.  A symbolic link is followed: the file it points to is replaced atomically in its own
directory and the link stays a link.  A FIFO, a character or block device (``/dev/stdout``,
``/dev/null``) and the name ``-`` (standard output) are written directly, since renaming
over them would turn them into regular files.

Temporary files and folders are named ``.NAME.PID.XXXXXXXX.tmp`` beside their target, so that
one left by a process killed with ``kill -9`` is known by its dead owner and removed by the
next writer of that target (which says so through :data:`notice_listeners`).

Also here: :func:`check_free_space` (refuse a long job at once when the disk is too small) and
:func:`writer_lock` (one writer at a time per file, a lock file holding the pid and command,
taken over from a process that is gone).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, Literal, overload

STDOUT = "-"
"""The output name that means standard output."""

notice_listeners: list[Callable[[str], None]] = []
"""Called with one line when a writer does something a person should hear of (removing a
stale temporary file, taking over a lock, waiting for one); the command line prints them."""


def _notice(text: str) -> None:
    for listener in notice_listeners:
        listener(text)


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


def _temporary_prefix(target: Path) -> str:
    return f".{target.name}.{os.getpid()}."


_TEMPORARY_SUFFIX = ".tmp"


def remove_stale_temporaries(target: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files and folders of ``target`` left beside it by processes that
    are gone (killed with ``kill -9``, or a machine that stopped); returns what was removed.
    A temporary file of a live process, or of a pid this process cannot see, is kept."""
    target = Path(target)
    pattern = re.compile(rf"\.{re.escape(target.name)}\.(\d+)\.\w+"
                         rf"{re.escape(_TEMPORARY_SUFFIX)}")
    removed: list[Path] = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed  # the writer that follows reports what is wrong with the directory
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match is None or process_alive(int(match[1])):
            continue
        path = Path(entry.path)
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        removed.append(path)
        _notice(f"removed {path}, left by an interrupted run (process {match[1]} is gone)")
    return removed


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one of another user's counts as alive)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def _atomic_writer(target: Path, mode: str) -> Iterator[IO[Any]]:
    remove_stale_temporaries(target)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=_temporary_prefix(target),
                                         suffix=_TEMPORARY_SUFFIX)
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
    """The process's umask, read without setting it: ``os.umask`` can only read by setting,
    and a file another thread (a server's) creates in that moment would get mode 0666."""
    with (contextlib.suppress(OSError, ValueError, IndexError),
          open("/proc/self/status", encoding="ascii") as status):
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    return _UMASK_AT_IMPORT


def _umask_now() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


_UMASK_AT_IMPORT = _umask_now()
"""Where /proc is not there to read: the umask when this module was imported (on the main
thread, before any server thread)."""


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
    remove_stale_temporaries(target)
    directory = Path(tempfile.mkdtemp(dir=target.parent, prefix=_temporary_prefix(target),
                                      suffix=_TEMPORARY_SUFFIX))
    try:
        yield directory / target.name
    finally:
        shutil.rmtree(directory, ignore_errors=True)


# ----- faults of the machine ------------------------------------------------------------
MACHINE_ERRNOS = frozenset((errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM,
                            errno.ENOENT, errno.ENOTDIR, errno.EIO, errno.EBUSY, errno.EFBIG,
                            errno.ENOLCK, errno.EMFILE, errno.ENFILE, errno.ENOMEM,
                            errno.ESTALE))
"""Errors of the machine (its disks, their permissions, other processes), not of the input."""

FILE_IN_USE = "Could not set lock on file"
"""DuckDB's words when another process has a database open for writing."""


def errno_in_text(text: str) -> int | None:
    """The errno of :data:`MACHINE_ERRNOS` whose message a library's error text quotes
    (DuckDB and Arrow quote the system's), or None."""
    lowered = text.lower()
    for number in MACHINE_ERRNOS:
        if os.strerror(number).lower() in lowered:
            return number
    return None


def is_io_fault(error: BaseException) -> bool:
    """Whether a library's error (DuckDB's, Arrow's) is a fault of the machine: a system
    error it quotes, a file another process holds, a checkpoint it could not write."""
    text = str(error)
    return (errno_in_text(text) is not None or FILE_IN_USE in text
            or "Failed to create checkpoint" in text)


# ----- free space ------------------------------------------------------------------------
def gigabytes(size: float) -> str:
    """``size`` bytes as people read it: ``1.6 GB``, ``0.3 GB``, ``12 MB``."""
    return f"{size / 1e9:.1f} GB" if size >= 1e8 else f"{max(size / 1e6, 0.1):.1f} MB"


class NotEnoughSpace(OSError):
    """A job that would not fit on its disk, refused before it starts."""

    def __init__(self, place: Path, needed: int, free: int) -> None:
        self.place, self.needed, self.free = place, needed, free
        super().__init__(errno.ENOSPC, f"needs about {gigabytes(needed)} but only "
                                       f"{gigabytes(free)} are free", str(place))

    @property
    def shortfall(self) -> int:
        return self.needed - self.free


def existing_directory(path: str | os.PathLike[str]) -> Path:
    """The directory that holds ``path``, or ``path`` itself when it is one, or their nearest
    existing ancestor (where a folder about to be made would lie)."""
    place = Path(os.path.abspath(path))
    while not place.is_dir() and place != place.parent:
        place = place.parent
    return place


def check_free_space(path: str | os.PathLike[str], needed: int) -> None:
    """Raise :class:`NotEnoughSpace` now when the disk that would hold ``path`` (a file or a
    directory, existing or not) has less than ``needed`` bytes free, so that a long job fails
    in a second rather than after its work; OSError when the place cannot be examined."""
    place = existing_directory(path)
    free = shutil.disk_usage(place).free
    if free < needed:
        raise NotEnoughSpace(place, needed, free)


# ----- one writer at a time ----------------------------------------------------------------
def lock_path(target: str | os.PathLike[str]) -> Path:
    """``TARGET.lock``, the lock file of a writer of ``target``."""
    target = Path(target)
    return target.with_name(f"{target.name}.lock")


class Busy(OSError):
    """Another process holds the lock of a file this process would write."""

    def __init__(self, target: Path, lock: Path, holder: dict[str, Any] | None) -> None:
        self.target, self.lock, self.holder = target, lock, holder
        super().__init__(errno.EBUSY, f"another process ({describe_holder(holder)}) is "
                                      f"writing it and holds the lock {lock}", str(target))


def describe_holder(holder: dict[str, Any] | None) -> str:
    """``pid 123: huarong db layers 5-4, since 14:02:11 UTC`` from a lock file's record."""
    if not holder:
        return "pid unknown"
    since = time.strftime("%H:%M:%S UTC", time.gmtime(float(holder.get("started", 0))))
    return f"pid {holder.get('pid')}: {holder.get('command', '?')}, since {since}"


def _read_holder(handle: int) -> dict[str, Any] | None:
    try:
        record = json.loads(os.pread(handle, 4096, 0) or b"null")
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


_held: dict[str, int] = {}
_held_guard = threading.Lock()


@contextlib.contextmanager
def writer_lock(target: str | os.PathLike[str], command: str | None = None, *,
                wait: bool = False) -> Iterator[None]:
    """Hold ``TARGET.lock`` while writing ``target`` (a database, its checkpoints): a second
    writer gets :class:`Busy` naming the holder, or with ``wait`` waits for it.  The lock is
    the kernel's (``flock``), so it goes with its process however that ends; the file holds
    the pid and ``command`` for people, is rewritten by each holder and removed on release.
    Taking it again inside this process nests."""
    lock = lock_path(target)
    key = os.path.realpath(lock)
    with _held_guard:
        if key in _held:
            _held[key] += 1
            nested = True
        else:
            nested = False
    if nested:
        try:
            yield
        finally:
            with _held_guard:
                _held[key] -= 1
        return
    handle = _take(Path(target), lock, wait)
    previous = _read_holder(handle)
    if previous and previous.get("pid") != os.getpid() and not process_alive(
            int(previous.get("pid", 0))):
        _notice(f"took over the lock {lock} left by a process that is gone "
                f"({describe_holder(previous)})")
    record = {"pid": os.getpid(), "command": command or " ".join(
        [Path(sys.argv[0]).name, *sys.argv[1:]]), "started": time.time()}
    os.ftruncate(handle, 0)
    os.pwrite(handle, json.dumps(record).encode() + b"\n", 0)
    with _held_guard:
        _held[key] = 1
    try:
        yield
    finally:
        with _held_guard:
            del _held[key]
        with contextlib.suppress(OSError):
            if os.path.samestat(os.fstat(handle), os.stat(lock)):
                os.unlink(lock)
        os.close(handle)


def _take(target: Path, lock: Path, wait: bool) -> int:
    """An open handle of ``lock`` with the kernel's exclusive lock on it."""
    import fcntl

    while True:
        handle = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_holder(handle)
                if not wait:
                    raise Busy(target, lock, holder) from None
                _notice(f"waiting for the other writer of {target} to finish "
                        f"({describe_holder(holder)})")
                fcntl.flock(handle, fcntl.LOCK_EX)
            # The previous holder may have removed the file between our open and our lock.
            if os.path.samestat(os.fstat(handle), os.stat(lock)):
                return handle
        except FileNotFoundError:
            pass
        except BaseException:
            os.close(handle)
            raise
        os.close(handle)
