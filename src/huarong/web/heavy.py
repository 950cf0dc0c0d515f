"""Heavy answers, a group's or a cluster's work, in a small pool of worker processes and kept
on disk, so the event loop and the light answers (a solution from the table, one layout's
facts) never wait for them.

- :meth:`HeavyAnswers.run`: a job's result from a worker; one job asked twice at once runs
  once, and its result is kept in memory a while (for the client told to ask again).
- :meth:`HeavyAnswers.cached`: a job's bytes, kept in the answer cache beside the database
  (diskcache: written whole or not at all, bounded in size, the oldest dropped).  Each entry
  carries its BLAKE2 digest: one whose bytes no longer match is refused, dropped and made
  again.
- A job not done within ``answer_seconds`` goes on in the background: the client is answered
  202 with ``Location`` (the same URL) and ``Retry-After``.
- A client that goes away before its answer cancels its job (pebble ends the worker process
  and starts another), unless another client waits for it or it was promised with a 202.

Every app of one process shares one pool of each size: a job is a plain function of its
arguments, and a test suite that makes many apps must not start many pools.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import hashlib
import importlib
import io
import json
import logging
import multiprocessing
import os
import pickle
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from fastapi import Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from huarong.web.errors import BadQuery, ServerBusy

if TYPE_CHECKING:
    import diskcache
    import pebble

DEFAULT_ANSWER_SECONDS = 8.0
"""How long a request waits for its heavy answer before it is answered 202."""
RETRY_AFTER_SECONDS = 2
"""What a 202 answer's ``Retry-After`` says."""
DEFAULT_CACHE_BYTES = 2 << 30
QUEUE_PER_WORKER = 32
"""Jobs waiting or running per worker before a new one is refused (503)."""
KEPT_RESULTS = 64
"""Results of :meth:`HeavyAnswers.run` kept in memory for clients that ask again."""
POLL_SECONDS = 0.1
"""How often a waiting request looks whether its client went away."""
CHUNK_BYTES = 1 << 20
SPOOL_NAME = "answer"
"""The name a job's bytes are spooled under, beside the cache, before the cache takes them."""
FORMAT = "answers-v1"
"""Part of every key: a change of what an answer holds makes new keys."""


def default_workers() -> int:
    """One worker per core beyond the one the server's own threads use, at most 4."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


def answer_directory(database: Path | None) -> Path:
    """The answer cache: ``answers`` in the explorer's cache directory (beside the database,
    or ``$HUARONG_EXPLORER_CACHE``, or the user's cache)."""
    from huarong.space.database import default_path
    from huarong.space.explorer.cache import default_directory

    return default_directory(database if database is not None else default_path()) / "answers"


# ----- the worker side ------------------------------------------------------------------

_caches: dict[tuple[str, int], diskcache.Cache] = {}


def _open_cache(directory: str, size_limit: int) -> diskcache.Cache:
    import diskcache

    key = (directory, size_limit)
    if key not in _caches:
        _caches[key] = diskcache.Cache(directory, size_limit=size_limit,
                                       eviction_policy="least-recently-stored")
    return _caches[key]


def _chunks_of(result: bytes | Iterable[bytes]) -> Iterable[bytes]:
    return [result] if isinstance(result, bytes) else result


def produce(directory: str, size_limit: int, key: str, job: Callable[..., Any],
            args: tuple[Any, ...]) -> bytes | None:
    """Run ``job(*args)`` (bytes, or chunks of bytes) in a worker and keep its bytes under
    ``key`` with their digest; None when kept, else the bytes (a cache that cannot be
    written, as on a full disk, costs the next request a new job, not this one its answer)."""
    from huarong.fileio import temporary_beside

    digest = hashlib.blake2b(digest_size=16)
    Path(directory).mkdir(parents=True, exist_ok=True)
    with (temporary_beside(Path(directory) / SPOOL_NAME) as spool_path,
          spool_path.open("w+b") as spool):
        for chunk in _chunks_of(job(*args)):
            digest.update(chunk)
            spool.write(chunk)
        spool.seek(0)
        try:
            _open_cache(directory, size_limit).set(key, spool, read=True,
                                                   tag=digest.hexdigest())
        except (OSError, sqlite3.Error) as error:
            logging.getLogger(__name__).warning("answer not cached: %s", error)
            spool.seek(0)
            return spool.read()
    return None


_JOB_MODULES = ("huarong.space.explorer", "huarong.space.graph_files", "huarong.graph.files",
                "huarong.puzzles", "huarong.web.explorer_jobs", "huarong.web.puzzle_jobs")


WORKER_NICENESS = 10
"""How much lower the workers' CPU priority is than the server's."""


def _yield_to_light_answers() -> None:
    """A worker gives way to the server's own process on a busy machine: a light answer
    waits for no heavy one's share of the cores."""
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: no os.nice
        os.nice(WORKER_NICENESS)


def _warm_up() -> int:
    """Import what the jobs use before the first one (a worker is then ready)."""
    for module in _JOB_MODULES:
        importlib.import_module(module)
    return os.getpid()


# ----- the server side ------------------------------------------------------------------

_pools: dict[int, pebble.ProcessPool] = {}
_pools_lock = threading.Lock()


def _shared_pool(workers: int) -> pebble.ProcessPool:
    import pebble

    with _pools_lock:
        pool = _pools.get(workers)
        if pool is None or not pool.active:
            # spawn: the server's threads hold locks a forked child would inherit taken.
            pool = pebble.ProcessPool(max_workers=workers, initializer=_yield_to_light_answers,
                                      context=multiprocessing.get_context("spawn"))
            _pools[workers] = pool
        return pool


@atexit.register
def _stop_pools() -> None:
    with _pools_lock:
        for pool in _pools.values():
            pool.stop()  # type: ignore[no-untyped-call]
            pool.join(timeout=10)
        _pools.clear()


class Accepted(Exception):
    """The job goes on in the background: answered 202."""


class ClientGone(Exception):
    """The client went away before its answer."""


@dataclass(eq=False)
class _Job:
    future: concurrent.futures.Future[Any]
    awaitable: asyncio.Future[Any]
    waiters: int = 0
    promised: bool = False
    """A 202 told a client to ask again: the job must finish."""


@dataclass
class HeavyAnswers:
    """The pool, the answer cache and the jobs in flight of one server."""

    workers: int = field(default_factory=default_workers)
    cache_directory: Path | None = None
    cache_bytes: int = DEFAULT_CACHE_BYTES
    answer_seconds: float = DEFAULT_ANSWER_SECONDS
    max_jobs: int = 0
    """Jobs waiting or running before a new one is refused (503); 0: ``QUEUE_PER_WORKER``
    per worker."""
    cancelled: int = 0
    """Jobs cancelled because their client went away."""
    started: int = 0
    """Jobs handed to the workers."""
    hits: int = 0
    """Answers read from the cache."""

    def __post_init__(self) -> None:
        self.max_jobs = self.max_jobs or self.workers * QUEUE_PER_WORKER
        self._jobs: dict[str, _Job] = {}
        self._kept: OrderedDict[str, concurrent.futures.Future[Any]] = OrderedDict()
        self._kept_lock = threading.Lock()  # the pool's thread adds what the loop reads
        self._warm: list[concurrent.futures.Future[Any]] = []
        self._cache: diskcache.Cache | None = None
        self._cache_fault: str | None = None

    # -- what the server holds --
    @property
    def pool(self) -> pebble.ProcessPool:
        return _shared_pool(self.workers)

    def start(self) -> None:
        """Start the workers now and import the jobs' modules in each (else on first use);
        remove what workers killed before left in the cache's directory."""
        from huarong.fileio import remove_stale_temporaries

        if self._warm:
            return
        self._warm = [self.pool.schedule(_warm_up) for _ in range(self.workers)]
        if self.cache() is not None and self.cache_directory is not None:
            remove_stale_temporaries(self.cache_directory / SPOOL_NAME)

    @property
    def ready(self) -> bool:
        """Whether the workers started by :meth:`start` are up (True when never started:
        they start on first use)."""
        return all(future.done() and not future.exception() for future in self._warm)

    def cache(self) -> diskcache.Cache | None:
        """The answer cache, or None when its directory cannot be used (logged once)."""
        if self._cache is None and self._cache_fault is None and self.cache_directory:
            try:
                self._cache = _open_cache(str(self.cache_directory), self.cache_bytes)
            except (OSError, sqlite3.Error) as error:
                self._cache_fault = f"{self.cache_directory}: {error}"
                logging.getLogger(__name__).warning("no answer cache: %s", self._cache_fault)
        return self._cache

    def status(self) -> dict[str, Any]:
        """The workers, the jobs in flight and the cache, for ``/api/health``."""
        cache = self.cache()
        return {"workers": self.workers, "ready": self.ready,
                "jobs": len(self._jobs), "started": self.started, "hits": self.hits,
                "cancelled": self.cancelled,
                "cache": None if cache is None else {
                    "directory": str(self.cache_directory), "entries": len(cache),
                    "bytes": cache.volume(), "limit": self.cache_bytes},
                "cache_fault": self._cache_fault}

    # -- running jobs --
    async def run(self, request: Request, key: tuple[Any, ...], job: Callable[..., Any],
                  *args: Any) -> Any:
        """``job(*args)``'s result from a worker (``key`` names it among the jobs)."""
        name = _name(key)
        with self._kept_lock:
            kept = self._kept.get(name)
            if kept is not None:
                self._kept.move_to_end(name)
        if kept is not None:
            return kept.result()
        return await self._wait(request, name, job, args, keep=True)

    async def cached(self, request: Request, key: tuple[Any, ...], job: Callable[..., Any],
                     *args: Any, media_type: str, headers: dict[str, str] | None = None,
                     decode: Callable[[Iterable[bytes]], Iterable[bytes]] | None = None
                     ) -> Response:
        """The answer of ``job(*args)`` (bytes or chunks), from the cache when it holds it;
        ``decode`` turns the bytes kept into the bytes answered (as a client that takes no
        gzip gets a file kept compressed)."""
        name = _name(key)
        found = await asyncio.to_thread(self._read, name)
        self.hits += found is not None
        if found is None and self.cache() is not None:
            unkept = await self._wait(request, name, produce,
                                      (str(self.cache_directory), self.cache_bytes, name, job,
                                       args))
            found = (io.BytesIO(unkept) if unkept is not None
                     else await asyncio.to_thread(self._read, name))
        if found is None:  # no cache, or one smaller than this answer
            found = io.BytesIO(await self._wait(request, name, _bytes_of, (job, args)))
        chunks = _stream(found)
        return StreamingResponse(decode(chunks) if decode else chunks, media_type=media_type,
                                 headers=headers)

    def _read(self, name: str) -> BinaryIO | None:
        """The entry's file, its digest checked; a damaged entry is dropped."""
        cache = self.cache()
        if cache is None:
            return None
        try:
            stored, digest = cache.get(name, read=True, tag=True)
        except (OSError, sqlite3.Error, pickle.UnpicklingError):
            stored = None
        if stored is None:
            return None
        check = hashlib.blake2b(digest_size=16)
        for chunk in iter(lambda: stored.read(CHUNK_BYTES), b""):
            check.update(chunk)
        if check.hexdigest() != digest:
            stored.close()
            logging.getLogger(__name__).warning("dropped a damaged cached answer (%s)", name)
            with contextlib.suppress(OSError, sqlite3.Error):
                cache.delete(name)
            return None
        stored.seek(0)
        return stored  # type: ignore[no-any-return]

    async def _wait(self, request: Request, name: str, job: Callable[..., Any],
                    args: tuple[Any, ...], keep: bool = False) -> Any:
        flight = self._jobs.get(name)
        if flight is not None and flight.future.done():
            flight = None  # its answer is kept (or its worker died: asked again, it runs)
        if flight is None:
            if len(self._jobs) >= self.max_jobs:
                raise ServerBusy(f"the server is busy with {len(self._jobs)} heavy answers: "
                                 f"try again in {RETRY_AFTER_SECONDS} s", str(request.url))
            future = self.pool.schedule(job, args=args)
            self.started += 1
            flight = _Job(future, asyncio.wrap_future(future))
            # A refusal nobody waits for any more (its client left, or was told 202) is
            # still taken, or asyncio logs it as never retrieved.
            flight.awaitable.add_done_callback(
                lambda done: done.cancelled() or done.exception())
            self._jobs[name] = flight
            future.add_done_callback(lambda done: self._finished(name, done, keep))
        flight.waiters += 1
        deadline = asyncio.get_running_loop().time() + self.answer_seconds
        try:
            while True:
                done, _ = await asyncio.wait({flight.awaitable}, timeout=POLL_SECONDS)
                if done:
                    return _result(flight.awaitable)
                if await request.is_disconnected():
                    raise ClientGone
                if asyncio.get_running_loop().time() >= deadline:
                    flight.promised = True
                    raise Accepted
        finally:
            flight.waiters -= 1
            if flight.waiters == 0 and not flight.promised and not flight.future.done():
                flight.future.cancel()  # ends the worker's process: pebble starts another
                self.cancelled += 1

    def _finished(self, name: str, future: concurrent.futures.Future[Any], keep: bool
                  ) -> None:
        # Called on the pool's thread; a later job of the name may have taken the place.
        if (flight := self._jobs.get(name)) is not None and flight.future is future:
            self._jobs.pop(name, None)
        # A refusal is kept like an answer; a worker that died is not (asked again, it runs).
        if keep and not future.cancelled() and (
                future.exception() is None or isinstance(future.exception(), BadQuery)):
            with self._kept_lock:
                self._kept[name] = future
                while len(self._kept) > KEPT_RESULTS:
                    self._kept.popitem(last=False)


def _bytes_of(job: Callable[..., Any], args: tuple[Any, ...]) -> bytes:
    return b"".join(_chunks_of(job(*args)))


def _result(awaitable: asyncio.Future[Any]) -> Any:
    import pebble

    try:
        return awaitable.result()
    except concurrent.futures.CancelledError:
        raise ServerBusy("the work for this answer was stopped: try again", "") from None
    except (pebble.ProcessExpired, concurrent.futures.BrokenExecutor) as error:
        # A worker killed (as by the kernel short of memory): the next job gets a new one.
        raise ServerBusy(f"a worker process ended ({error}): try again", "") from None


def _stream(stored: BinaryIO) -> Iterator[bytes]:
    with stored:
        yield from iter(lambda: stored.read(CHUNK_BYTES), b"")


def _name(key: tuple[Any, ...]) -> str:
    """The cache's key of a job: what it depends on, hashed."""
    from huarong import __version__

    return hashlib.sha256(repr((FORMAT, __version__, key)).encode()).hexdigest()


def accepted(request: Request) -> JSONResponse:
    """The 202 answer: the work goes on; ask the same URL again after ``Retry-After``."""
    location = str(request.url.path) + (f"?{request.url.query}" if request.url.query else "")
    return JSONResponse({"status": "working", "location": location,
                         "retry_after": RETRY_AFTER_SECONDS}, status_code=202,
                        headers={"Location": location,
                                 "Retry-After": str(RETRY_AFTER_SECONDS)})


def json_bytes(content: Any) -> bytes:
    """JSON as the app's own answers write it (Starlette's ``JSONResponse``): a job's
    answer kept as bytes in the answer cache reads as a light answer would."""
    return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


def database_stamp(path: Path) -> tuple[str, int, int] | None:
    """What a cached answer of the database at ``path`` depends on: a rebuilt database makes
    new keys."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return str(path.resolve()), stat.st_mtime_ns, stat.st_size
