"""The farthest and solution tables of whole groups, streamed to disk in bounded memory.

:func:`write_group_tables` writes what ``analyze-group`` and ``analyze-multi-group`` (the
original engine's ``--analy-group[-integral]`` and ``--analy-multi-group[-integral]``) write:
one row per layout of each seed's group, groups in seed order, layouts in ascending code
order.  Two formats:

- ``huarong``: a header line; solution rows ``code,min_steps,min_step_solutions,
  solution_count[,solutions]``; a seed whose group is already listed is skipped.
- ``original``: the original engine's files byte for byte: no header; farthest rows
  ``CODE,farthest_step,farthest_num,F1-F2-...``; solution rows ``CODE,min_solution_step,
  min_solution_num,M1-M2-...,solution_num`` (``CODE,-1,0,,0`` without a solution), the
  integral variant appending ``,S1(steps)-S2(steps)-...`` (nearest first, then by code);
  every seed's group is listed, even twice.

Both end every row, the last included, with ``\\n``.

The sweeps finish their batches in no useful order, so each batch's rows are formatted at
once (by a compiled kernel) and spooled to an unnamed temporary file; when the group is done
they are copied in code order to the result, itself an unnamed temporary file until the last
group is done and it is copied into place atomically.  Unnamed files vanish with the process
however it ends (even ``kill -9``); memory holds the group's step graph and a few batches,
whatever the size of the tables.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Literal

import numpy as np

from huarong.engine.analysis import Progress
from huarong.engine.layout import Layout
from huarong.fileio import atomic_writer
from huarong.graph import StateGraph
from huarong.space.all_files import hex_digits
from huarong.space.group_analysis import SweepBatch, group_graph, sweep_batches

TableFormat = Literal["huarong", "original"]
TABLE_FORMATS: tuple[TableFormat, ...] = ("huarong", "original")

FARTHEST_HEADER = ("code", "farthest_steps", "farthest_count", "farthest_layouts")
SOLUTION_HEADER = ("code", "min_steps", "min_step_solutions", "solution_count")
INTEGRAL_HEADER = (*SOLUTION_HEADER, "solutions")

_COPY_BLOCK = 1 << 20


def write_group_tables(seeds: Sequence[Layout], farthest_path: str | os.PathLike[str],
                       solution_path: str | os.PathLike[str], *, integral: bool = False,
                       table_format: TableFormat = "huarong",
                       progress: Progress | None = None, threads: int | None = None,
                       gpu: bool = False) -> int:
    """Analyse the group of every seed and write both tables; return the rows written to
    each.  ``gpu``: sweep on the CUDA GPU (numba-cuda) instead of ``threads`` CPU threads.
    The output directories are tried before any search starts (OSError naming the
    output); the files appear only when complete."""
    if table_format not in TABLE_FORMATS:
        raise ValueError(f"unknown table format {table_format!r}: choose one of "
                         f"{', '.join(TABLE_FORMATS)}")
    report = progress or (lambda phase, done, total: None)
    original = table_format == "original"
    with _unnamed_beside(farthest_path) as farthest, \
            _unnamed_beside(solution_path) as solution:
        if not original:
            farthest.write(",".join(FARTHEST_HEADER).encode() + b"\n")
            solution.write(",".join(INTEGRAL_HEADER if integral else SOLUTION_HEADER
                                    ).encode() + b"\n")
        listed: list[np.ndarray] = []
        rows = 0
        for done, seed in enumerate(seeds):
            report("groups", done, len(seeds))
            if not original and any(_holds(codes, int(seed)) for codes in listed):
                continue
            codes = _write_group(seed, farthest, solution, spool_beside=farthest_path,
                                 integral=integral, original=original, report=report,
                                 threads=threads, gpu=gpu)
            rows += int(codes.shape[0])
            if not original:
                listed.append(codes)
        report("groups", len(seeds), len(seeds))
        _copy_into_place(farthest, farthest_path)
        _copy_into_place(solution, solution_path)
    return rows


def _holds(sorted_codes: np.ndarray, code: int) -> bool:
    at = int(np.searchsorted(sorted_codes, code))
    return at < sorted_codes.shape[0] and int(sorted_codes[at]) == code


@contextlib.contextmanager
def _unnamed_beside(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """An unnamed temporary file in the directory of ``path`` (of its target when it is a
    symbolic link), so that a directory that cannot be written fails at once; for a FIFO or
    a device, in the default temporary directory.  An OSError names ``path``."""
    target = Path(path)
    if target.exists():
        target = target.resolve()
    directory = target.parent if target.is_file() or not target.exists() else None
    try:
        stream = tempfile.TemporaryFile(dir=directory)  # noqa: SIM115 (closed below)
    except OSError as error:
        raise OSError(error.errno, error.strerror, os.fspath(path)) from None
    with stream:
        yield stream


def _copy_into_place(result: IO[bytes], path: str | os.PathLike[str]) -> None:
    result.flush()
    result.seek(0)
    with atomic_writer(path, "wb") as stream:
        shutil.copyfileobj(result, stream, _COPY_BLOCK)


def _write_group(seed: Layout, farthest: IO[bytes], solution: IO[bytes], *,
                 spool_beside: str | os.PathLike[str], integral: bool, original: bool,
                 report: Progress, threads: int | None, gpu: bool) -> np.ndarray:
    """Append the rows of ``seed``'s group to both tables; return its codes, ascending."""
    report("searching the group", 0, 1)
    graph = group_graph(seed)
    report("searching the group", 1, 1)
    names = hex_digits(graph.codes)
    by_code = np.argsort(graph.codes, kind="stable")
    with _unnamed_beside(spool_beside) as spool:
        # Where each node's rows lie in the spool: its farthest row, then its solution row.
        starts = np.empty(graph.size, dtype=np.int64)
        middles = np.empty(graph.size, dtype=np.int64)
        ends = np.empty(graph.size, dtype=np.int64)
        report("analysing layouts", 0, graph.size)
        done = written = 0
        for batch in sweep_batches(graph, threads=threads, gpu=gpu, every_solution=integral):
            text, bounds = _batch_rows(batch, graph, names, integral=integral,
                                       original=original)
            starts[batch.sources] = written + bounds[:, 0]
            middles[batch.sources] = written + bounds[:, 1]
            ends[batch.sources] = written + bounds[:, 2]
            spool.write(text.data)
            written += int(text.shape[0])
            done += int(batch.sources.shape[0])
            report("analysing layouts", done, graph.size)
        spool.flush()
        descriptor = spool.fileno()
        report("writing rows in code order", 0, graph.size)
        for count, node in enumerate(by_code.tolist(), start=1):
            start, middle, end = int(starts[node]), int(middles[node]), int(ends[node])
            row = os.pread(descriptor, end - start, start)
            farthest.write(row[:middle - start])
            solution.write(row[middle - start:])
            if count % 65536 == 0:
                report("writing rows in code order", count, graph.size)
        report("writing rows in code order", graph.size, graph.size)
    return graph.codes[by_code]


def _batch_rows(batch: SweepBatch, graph: StateGraph, names: np.ndarray, *, integral: bool,
                original: bool) -> tuple[np.ndarray, np.ndarray]:
    """The rows of every source of ``batch`` as one ASCII buffer, and per source where its
    farthest row starts, where its solution row starts and where that ends."""
    from huarong._kernels import group_analysis as kernels

    far = _sorted_rows(batch.farthest, graph.codes)
    sol = _sorted_rows(batch.solutions, graph.codes)
    return kernels.format_rows(
        names, batch.sources, batch.farthest_steps, batch.min_steps, batch.solution_counts,
        np.ascontiguousarray(far[:, 1]), np.searchsorted(far[:, 0], batch.sources, "left"),
        np.searchsorted(far[:, 0], batch.sources, "right"), np.ascontiguousarray(sol[:, 1]),
        np.ascontiguousarray(sol[:, 2]), np.searchsorted(sol[:, 0], batch.sources, "left"),
        np.searchsorted(sol[:, 0], batch.sources, "right"), original, integral)


def _sorted_rows(rows: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """(source, node, steps) rows sorted by source, then steps, then the node's code."""
    return rows[np.lexsort((codes[rows[:, 1]], rows[:, 2], rows[:, 0]))]
