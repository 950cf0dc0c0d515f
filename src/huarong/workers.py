"""One thread scheduler for the CPU work of the sweeps and analyses: tasks run on worker
threads (the kernels release the GIL), the calling thread only hands out tasks, takes
results and reports progress.

- Tasks may be ordered biggest first (``sizes``): the threads take the next task when they
  finish one, so none waits alone at the end on a big task.
- ``ahead`` bounds the tasks handed out beyond the results taken, so memory stays bounded by
  what the consumer keeps (a stream of graphs built ahead of a GPU, batches of rows streamed
  to files).
- The calling thread waits in short polls, so Ctrl-C (KeyboardInterrupt) reaches it at once;
  then, or when the consumer stops early or a task fails, no further task starts, each worker
  ends after its current task, and the error is raised in the calling thread.  Workers are
  daemon threads: nothing waits for a task still running when the process ends.

:func:`on_cluster` does the same on a Dask cluster (the ``huarong[cluster]`` extra), whose
workers compute while the calling thread takes the results; :func:`connect` reaches its
scheduler.
"""

from __future__ import annotations

import gc
import queue
import threading
from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

POLL_SECONDS = 0.2
"""How often the calling thread wakes while it waits for a result."""


def _biggest_first(count: int, sizes: Sequence[float] | None) -> list[int]:
    order = list(range(count))
    if sizes is not None:
        order.sort(key=lambda index: -sizes[index])
    return order


def as_finished(function: Callable[[Item], Result], items: Sequence[Item], *, threads: int,
                sizes: Sequence[float] | None = None, ahead: int | None = None,
                waiting: Callable[[], None] | None = None
                ) -> Generator[tuple[int, Result], None, None]:
    """``function(item)`` for every item on ``threads`` worker threads, yielded as (index of
    the item, result) in the order they finish.

    ``sizes``: the tasks' sizes; the biggest are started first.  ``ahead``: at most
    ``threads + ahead`` tasks handed out and not yet yielded (None: no bound).  ``waiting()`` is
    called from the calling thread every :data:`POLL_SECONDS` while it waits.  A task's
    exception is raised here; closing the iterator early, or any exception in the consumer,
    starts no further task."""
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    order = _biggest_first(len(items), sizes)
    tasks: queue.SimpleQueue[int | None] = queue.SimpleQueue()
    results: queue.SimpleQueue[tuple[int, Result | None, BaseException | None]] = (
        queue.SimpleQueue())
    stopped = threading.Event()

    def work() -> None:
        while (index := tasks.get()) is not None and not stopped.is_set():
            try:
                results.put((index, function(items[index]), None))
            except BaseException as error:  # handed to the consumer, raised there
                results.put((index, None, error))

    workers = max(1, min(threads, len(items)))
    handed_out = len(order) if ahead is None else min(len(order), workers + max(ahead, 0))
    for position in range(handed_out):
        tasks.put(order[position])
    for _ in range(workers):
        threading.Thread(target=work, daemon=True, name="huarong-task").start()
    try:
        for _ in range(len(order)):
            while True:
                try:
                    index, result, error = results.get(timeout=POLL_SECONDS)
                    break
                except queue.Empty:
                    if waiting is not None:
                        waiting()
            if error is not None:
                raise error
            if handed_out < len(order):
                tasks.put(order[handed_out])
                handed_out += 1
            yield index, result  # type: ignore[misc]  # None only with an error
    finally:
        stopped.set()
        for _ in range(workers):
            tasks.put(None)


def run_all(function: Callable[[Item], Result], items: Sequence[Item], *, threads: int,
            sizes: Sequence[float] | None = None,
            done: Callable[[int], None] | None = None,
            waiting: Callable[[], None] | None = None) -> list[Result]:
    """``function(item)`` for every item on ``threads`` threads (biggest ``sizes`` first),
    the results in the order of ``items``.  ``done(index)`` is called from the calling
    thread as each task ends, ``waiting()`` as in :func:`as_finished`."""
    results: dict[int, Result] = {}
    for index, result in as_finished(function, items, threads=threads, sizes=sizes,
                                     waiting=waiting):
        results[index] = result
        if done is not None:
            done(index)
    return [results[index] for index in range(len(items))]


# ----- on a Dask cluster -------------------------------------------------------------------
CONNECT_TIMEOUT = "10s"
"""How long :func:`connect` tries to reach a scheduler."""


class SchedulerUnreachable(ValueError):
    """No Dask scheduler answers at the address given (the message names it)."""


class ClusterLost(RuntimeError):
    """The Dask cluster cannot finish the run: workers died running a task, more times
    than the scheduler allows (out of memory, killed), or the scheduler is gone."""


def connect(address: str) -> Any:
    """A ``distributed.Client`` of the Dask scheduler at ``address`` (like
    ``tcp://HOST:8786``), not made the default client; :class:`SchedulerUnreachable` when
    none answers within :data:`CONNECT_TIMEOUT`.  Close it after use (``with``)."""
    from distributed import Client

    try:
        return Client(address, timeout=CONNECT_TIMEOUT,  # type: ignore[no-untyped-call]
                      set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        problem = str(error)
    # Raised out here, chained to nothing: the failed client is then collected while Dask's
    # event loop still runs, not at exit, where closing it prints a traceback.
    gc.collect()
    raise SchedulerUnreachable(f"cannot reach the Dask scheduler at {address!r}: {problem}")


_SCHEDULER_LOST = "lost the Dask scheduler: it stopped, or the network to it failed"


def on_cluster(client: Any, submit: Callable[[Item], Any], items: Sequence[Item], *,
               sizes: Sequence[float] | None = None, ahead: int | None = None
               ) -> Generator[tuple[int, Any], None, None]:
    """:func:`as_finished` on the Dask cluster of ``client`` (a ``distributed.Client``):
    ``submit(item)`` hands the item's task to the cluster and returns its future; the
    results come back to this process, yielded as (index of the item, result) in the order
    they finish.

    ``sizes``: the biggest are submitted first.  ``ahead``: at most that many tasks
    submitted and not yet yielded (None: every task at once), so the results waiting here
    stay bounded.  A task's exception is raised here; :class:`ClusterLost` when workers die
    running a task (Dask's ``KilledWorker``) or the scheduler is lost.  Closing the iterator
    early, Ctrl-C or any error cancels the tasks still out."""
    from distributed import KilledWorker, as_completed
    from distributed.client import ClosedClientError

    order = _biggest_first(len(items), sizes)
    out: dict[Any, int] = {}

    def hand_out(position: int) -> Any:
        future = submit(items[order[position]])
        out[future] = order[position]
        return future

    first = len(order) if ahead is None else min(len(order), max(ahead, 1))
    finished: Any = as_completed([hand_out(position)  # type: ignore[no-untyped-call]
                                  for position in range(first)], loop=client.loop,
                                 with_results=True)
    handed_out = first
    try:
        while not finished.is_empty():
            with finished.thread_condition:  # notified as each task ends
                # Not one blocking wait: a lost scheduler leaves the tasks out pending for ever.
                while not finished.has_ready() and client.status not in ("closing", "closed"):
                    finished.thread_condition.wait(timeout=POLL_SECONDS)
            if not finished.has_ready():
                raise ClusterLost(_SCHEDULER_LOST)
            future, result = next(finished)
            index = out.pop(future)
            if handed_out < len(order):
                finished.add(hand_out(handed_out))
                handed_out += 1
            yield index, result
    except KilledWorker as error:
        times = error.allowed_failures + 1
        raise ClusterLost(f"Dask workers died running task {error.task!r}, {times} "
                          f"time{'s' if times > 1 else ''} (out of memory, or killed?)"
                          ) from None
    except ClosedClientError:
        raise ClusterLost(_SCHEDULER_LOST) from None
    finally:
        if client.status == "running":  # a closed client has nothing out to cancel
            client.cancel(list(out))
