"""Searches made of many independent units (one per set of pieces, one per arrangement of
lanes) run as one resumable job.

A unit's answer is a few equal-length columns (:data:`Columns`).  :func:`run_job` runs the
units on worker threads (the kernels release the GIL) and saves each finished unit's columns
in a checkpoint directory, so a stopped job, run again with the same key, starts only the
units not yet saved.  The caller reads the answers as they come and removes the directory
(:func:`finish`) once it has what it needs.  A job whose units change as it goes (the
design search's chains) saves them in a :class:`Checkpoint` itself.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np

from huarong.puzzles.grid import PuzzleError

Unit = TypeVar("Unit")

Columns = dict[str, np.ndarray]
"""A unit's answer: named numpy columns of one length (possibly none)."""

UnitProgress = Callable[[int, int], None]
"""``progress(units done, units in all)``, called from the calling thread."""

_KEY_FILE = "job.json"


class Checkpoint:
    """The checkpoint directory of the job ``key``: each unit's columns saved in a file of
    its own (atomically), read back by a later run of the same job.  Made when absent;
    :class:`PuzzleError` when it holds another job's units."""

    def __init__(self, directory: Path, key: str) -> None:
        from huarong.fileio import write_text_atomically

        self.directory = directory
        marker = directory / _KEY_FILE
        if marker.is_file():
            try:
                held = json.loads(marker.read_text(encoding="utf-8")).get("key")
            except (OSError, ValueError, AttributeError) as error:
                raise PuzzleError(str(directory), f"not a search checkpoint: {error}"
                                  ) from None
            if held != key:
                raise PuzzleError(str(directory), "the checkpoint of another search: remove "
                                                  "it or run that search")
            return
        directory.mkdir(parents=True, exist_ok=True)
        write_text_atomically(marker, json.dumps({"key": key}))

    def _path(self, index: int) -> Path:
        return self.directory / f"unit-{index:08d}.npz"

    def saved(self, index: int) -> bool:
        return self._path(index).is_file()

    def load(self, index: int) -> Columns:
        try:
            with np.load(self._path(index)) as saved:
                return {name: saved[name].copy() for name in saved.files}
        except (OSError, ValueError) as error:
            raise PuzzleError(str(self._path(index)),
                              f"an unreadable checkpoint unit: {error}") from None

    def save(self, index: int, columns: Columns) -> None:
        """Unit ``index``'s columns, replacing what was saved of it."""
        from huarong.fileio import atomic_writer

        with atomic_writer(self._path(index), "wb") as stream:
            np.savez(stream, **columns)  # type: ignore[arg-type]  # numpy stubs: allow_pickle


def run_job(units: Sequence[Unit], work: Callable[[Unit], Columns], *, threads: int = 1,
            sizes: Sequence[float] | None = None, directory: Path | None = None,
            key: str = "", cluster: str | None = None,
            progress: UnitProgress | None = None) -> Iterator[tuple[int, Columns]]:
    """``(index, work(units[index]))`` for every unit, in the order they finish, computed on
    ``threads`` threads (biggest ``sizes`` first).

    With a checkpoint ``directory`` (made if absent) each finished unit is saved there before
    it is yielded, and units saved by an earlier run of the same ``key`` are read back
    instead of computed, whichever ran them; :class:`PuzzleError` when the directory holds
    another job.

    ``cluster``: the address of a Dask scheduler (``tcp://HOST:8786``, the
    ``huarong[cluster]`` extra) whose workers compute the units instead of threads, a few
    per worker thread out at a time; the answers come back here and are saved as above.
    ``work`` must then be a module-level function (``functools.partial`` of one is fine) and
    the units plain data, so that they pickle and the workers, with huarong installed,
    import the function: :class:`TypeError` at once otherwise.  An unreachable scheduler
    raises :class:`~huarong.workers.SchedulerUnreachable`; workers dying on a unit,
    or the scheduler lost, :class:`~huarong.workers.ClusterLost`.  Stopping the
    iteration (or Ctrl-C) cancels the units still out."""
    if cluster is not None:
        _check_pickles(units, work)
    return _run(units, work, threads, sizes, directory, key, cluster, progress)


def _check_pickles(units: Sequence[object], work: Callable[..., object]) -> None:
    import pickle

    for name, thing in (("the work function", work),
                        *((f"unit {index}", unit) for index, unit in enumerate(units))):
        try:
            pickle.dumps(thing)
        except Exception as error:  # pickle raises several kinds
            raise TypeError(f"a job on a Dask cluster sends its work function and units to "
                            f"other processes: {name} ({thing!r}) does not pickle ({error}); "
                            "use a module-level function and plain data") from None


def _run(units: Sequence[Unit], work: Callable[[Unit], Columns], threads: int,
         sizes: Sequence[float] | None, directory: Path | None, key: str,
         cluster: str | None, progress: UnitProgress | None
         ) -> Iterator[tuple[int, Columns]]:
    from huarong.workers import as_finished, connect, on_cluster

    with contextlib.ExitStack() as stack:
        # Connected first: an unreachable scheduler stops the job before it makes anything.
        client = None if cluster is None else stack.enter_context(connect(cluster))
        checkpoint = None if directory is None else Checkpoint(directory, key)
        saved = set() if checkpoint is None else {
            index for index in range(len(units)) if checkpoint.saved(index)}
        done = 0
        for index in sorted(saved):
            done += 1
            if progress is not None:
                progress(done, len(units))
            assert checkpoint is not None
            yield index, checkpoint.load(index)
        pending = [index for index in range(len(units)) if index not in saved]
        pending_sizes = None if sizes is None else [sizes[index] for index in pending]
        if client is None:
            stream = as_finished(lambda index: work(units[index]), pending, threads=threads,
                                 sizes=pending_sizes, ahead=2 * threads)
        else:
            workers = sum(client.nthreads().values())
            stream = on_cluster(client, lambda index: client.submit(work, units[index],
                                                                    pure=False),
                                pending, sizes=pending_sizes, ahead=max(4, 2 * workers))
        # Closed (the units still out cancelled) before the client is.
        stream = stack.enter_context(contextlib.closing(stream))
        for position, columns in stream:
            index = pending[position]
            if checkpoint is not None:
                checkpoint.save(index, columns)
            done += 1
            if progress is not None:
                progress(done, len(units))
            yield index, columns


def finish(directory: Path) -> None:
    """Remove a finished job's checkpoint directory (only a directory :func:`run_job`
    made: one holding its key file)."""
    if (directory / _KEY_FILE).is_file():
        shutil.rmtree(directory, ignore_errors=True)

