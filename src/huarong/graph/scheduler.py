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
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

POLL_SECONDS = 0.2
"""How often the calling thread wakes while it waits for a result."""


def as_finished(function: Callable[[Item], Result], items: Sequence[Item], *, threads: int,
                sizes: Sequence[float] | None = None, ahead: int | None = None,
                waiting: Callable[[], None] | None = None) -> Iterator[tuple[int, Result]]:
    """``function(item)`` for every item on ``threads`` worker threads, yielded as (index of
    the item, result) in the order they finish.

    ``sizes``: the tasks' sizes; the biggest are started first.  ``ahead``: at most
    ``threads + ahead`` tasks handed out and not yet yielded (None: no bound).  ``waiting()`` is
    called from the calling thread every :data:`POLL_SECONDS` while it waits.  A task's
    exception is raised here; closing the iterator early, or any exception in the consumer,
    starts no further task."""
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    order = list(range(len(items)))
    if sizes is not None:
        order.sort(key=lambda index: -sizes[index])
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
