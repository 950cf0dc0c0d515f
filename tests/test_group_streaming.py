"""The group tables stream in bounded memory, stop on Ctrl-C or SIGTERM, and leave no file
behind, however the run ends.

Expected values: the promised behaviour (no temporary file, no search before the outputs are
known writable), exit statuses 128 + signal number, and the figures of
huarong.engine.analysis.analyze (one search per layout).  The tests wait on handshakes (the
child holding its output open, threads ended), never on the clock; how fast a run stops is
measured by benchmarks/bench_group_streaming.py."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from huarong.engine.analysis import analyze
from huarong.engine.layout import Layout
from huarong.space.group_analysis import on_threads
from huarong.space.group_tables import write_group_tables

# 81,340 layouts: its sweeps run for half a minute and more on two cores; the largest group
# (964,656 layouts) spends its first seconds in the search of the group.
MID_GROUP = "4FEA13400"
LARGEST_GROUP = "00006FFF0"


def test_workers_stay_at_most_two_items_per_thread_ahead_of_the_consumer() -> None:
    started: list[int] = []
    lock = threading.Lock()

    def work(item: int) -> int:
        with lock:
            started.append(item)
        return item

    results = on_threads(work, list(range(100)), threads=3)
    consumed = []
    for result in results:
        consumed.append(result)
        time.sleep(0.002)  # a slow consumer: the workers must wait for it
        with lock:
            assert len(started) <= len(consumed) + 2 * 3
    assert sorted(consumed) == list(range(100))


def test_closing_early_starts_no_further_item() -> None:
    started: list[int] = []
    before = set(threading.enumerate())
    results = on_threads(started.append, list(range(1000)), threads=2)
    next(results)
    results.close()
    for worker in set(threading.enumerate()) - before:
        worker.join(timeout=60)  # a guard against a hang, not a measure of speed
        assert not worker.is_alive()
    assert len(started) <= 1 + 2 * 2


def test_a_worker_error_reaches_the_consumer() -> None:
    def work(item: int) -> int:
        if item == 5:
            raise ValueError("item 5")
        return item

    with pytest.raises(ValueError, match="item 5"):
        list(on_threads(work, list(range(10)), threads=2))


def test_rows_come_out_in_code_order_whatever_order_the_batches_finish(tmp_path: Path) -> None:
    """One thread and several threads write the same bytes; the rows match one search per
    layout for a sample."""
    seed = [Layout.from_code("1A9BF0C00")]
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    rows = write_group_tables(seed, one / "f.csv", one / "s.csv", table_format="original",
                              threads=1)
    assert rows == 25_955
    write_group_tables(seed, two / "f.csv", two / "s.csv", table_format="original", threads=4)
    for name in ("f.csv", "s.csv"):
        assert (one / name).read_bytes() == (two / name).read_bytes()
    lines = (one / "f.csv").read_text().splitlines()
    codes = [line.split(",", 1)[0] for line in lines]
    assert codes == sorted(codes) and len(codes) == rows
    for line in lines[:: rows // 4]:
        code, steps, count, layouts = line.split(",")
        single = analyze(Layout.from_code(code))
        assert (int(steps), int(count)) == (single.farthest_steps,
                                            len(single.farthest_layouts))
        assert layouts.split("-") == sorted(x.code for x in single.farthest_layouts)


def test_an_unwritable_directory_fails_before_any_search(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from huarong.space import group_tables

    searched: list[Layout] = []
    monkeypatch.setattr(group_tables, "group_graph", searched.append)
    with pytest.raises(OSError) as raised:
        write_group_tables([Layout.from_code(LARGEST_GROUP)], tmp_path / "no" / "f.csv",
                           tmp_path / "s.csv")
    assert raised.value.filename == str(tmp_path / "no" / "f.csv")
    assert searched == []
    assert list(tmp_path.iterdir()) == []


def _start(tmp_path: Path, seed: str) -> subprocess.Popen[str]:
    # A background job inherits an ignored SIGINT, and Python then never turns Ctrl-C into
    # KeyboardInterrupt: the child gets the default disposition, as a terminal would give it.
    return subprocess.Popen(
        [sys.executable, "-m", "huarong", "--analy-group", seed, str(tmp_path / "f.csv"),
         str(tmp_path / "s.csv")], stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_until_writing(process: subprocess.Popen[str], directory: Path) -> None:
    """Block until the child holds an output open in ``directory`` (its unnamed temporary
    files show in /proc as links into it): from then on it is searching or sweeping."""
    descriptors = Path(f"/proc/{process.pid}/fd")
    deadline = time.monotonic() + 120  # a guard against a hang, not a measure of speed
    while process.poll() is None:
        with contextlib.suppress(OSError):  # a descriptor closed while being read
            if any(os.readlink(fd).startswith(str(directory)) for fd in descriptors.iterdir()):
                return
        assert time.monotonic() < deadline, "the run never opened its outputs"
        time.sleep(0.01)
    raise AssertionError(f"the run ended before it was stopped: {process.returncode}")


@pytest.mark.parametrize(("seed", "signum"), [
    (MID_GROUP, signal.SIGTERM), (MID_GROUP, signal.SIGINT), (LARGEST_GROUP, signal.SIGTERM)])
def test_a_signal_stops_the_run_leaving_nothing(tmp_path: Path, seed: str, signum: int
                                                ) -> None:
    """Stopped as soon as the run holds its outputs open: in its first phase, the search of
    the group (seconds for the largest), or early in the sweeps."""
    process = _start(tmp_path, seed)
    _wait_until_writing(process, tmp_path)
    process.send_signal(signum)
    try:
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 128 + signum  # stopped by the signal, not finished
    assert err.strip() == ("huarong: terminated" if signum == signal.SIGTERM
                           else "huarong: interrupted")
    assert os.listdir(tmp_path) == []


def test_kill_9_leaves_no_file(tmp_path: Path) -> None:
    process = _start(tmp_path, MID_GROUP)
    _wait_until_writing(process, tmp_path)
    process.kill()
    process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL
    assert os.listdir(tmp_path) == []


def test_a_fifo_output_is_written_through_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "farthest.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    rows = write_group_tables([Layout.from_code("636F53400")], fifo, tmp_path / "s.csv",
                              table_format="original")
    reader.join(timeout=10)
    assert fifo.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == [
        "farthest.fifo", "s.csv"]
    lines = received[0].decode().splitlines()
    assert len(lines) == rows == 30
    assert [line.split(",")[0] for line in lines] == sorted(line.split(",")[0] for line in lines)
