"""The one thread scheduler of the sweeps and analyses (:mod:`huarong.workers`): order,
results, the bound on tasks handed out ahead, failures and interruptions."""

from __future__ import annotations

import threading
import time

import pytest

from huarong import workers as scheduler


def test_biggest_first_results_in_item_order() -> None:
    started: list[int] = []

    def task(item: int) -> int:
        started.append(item)
        return item * item

    sizes = [3, 9, 1, 7]
    done: list[int] = []
    results = scheduler.run_all(task, [0, 1, 2, 3], threads=1, sizes=sizes, done=done.append)
    assert results == [0, 1, 4, 9]
    assert started == [1, 3, 0, 2]  # one thread: exactly by size, biggest first
    assert sorted(done) == [0, 1, 2, 3]


def test_no_more_than_threads_plus_ahead_handed_out() -> None:
    started: list[int] = []
    lock = threading.Lock()

    def task(item: int) -> int:
        with lock:
            started.append(item)
        return item

    stream = scheduler.as_finished(task, list(range(20)), threads=2, ahead=1)
    next(stream)
    time.sleep(0.2)  # the workers run on while the consumer holds
    assert len(started) <= 2 + 1 + 1  # the first result's place handed on
    stream.close()
    time.sleep(0.2)
    assert len(started) <= 4  # closing starts nothing more


def test_a_failure_is_raised_and_stops_the_rest() -> None:
    started: list[int] = []

    def task(item: int) -> int:
        started.append(item)
        if item == 1:
            raise ArithmeticError(f"task {item}")
        time.sleep(0.05)
        return item

    with pytest.raises(ArithmeticError, match="task 1"):
        scheduler.run_all(task, list(range(30)), threads=2)
    time.sleep(0.2)
    assert len(started) < 30


def test_ctrl_c_while_waiting_stops_within_one_task() -> None:
    """KeyboardInterrupt in the calling thread (as Ctrl-C arrives there, while it waits)
    is re-raised; each worker ends after the task it is in."""
    running = threading.Event()
    started: list[int] = []

    def task(item: int) -> int:
        started.append(item)
        running.set()
        time.sleep(0.6)
        return item

    def waiting() -> None:
        if running.is_set():
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        scheduler.run_all(task, list(range(10)), threads=2, waiting=waiting)
    time.sleep(0.8)
    assert len(started) <= 2


def test_threads_must_be_positive() -> None:
    with pytest.raises(ValueError, match="threads must be at least 1, not 0"):
        list(scheduler.as_finished(abs, [1], threads=0))
