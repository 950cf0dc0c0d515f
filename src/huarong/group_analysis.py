"""Batch analysis of whole groups: the farthest and solution figures (docs §5) of every layout.

:func:`analyze_group` answers, for each layout A of a group, what :func:`huarong.analysis.analyze`
answers for A alone (farthest steps and layouts, minimum steps, min-step solutions, every
solution with its steps) without one search per layout: the searches run 64 at a time as
bit-parallel sweeps over the group's step graph, on every core.  :func:`write_csvs` writes the
two tables of the original engine's ``--analy-group`` (columns: the README's "Batch
analysis of whole groups").
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from huarong.analysis import Progress
from huarong.fileio import atomic_writer
from huarong.layout import Layout, LayoutError

CODE_SEPARATOR = "-"
"""Joins the codes listed inside one CSV field."""

FARTHEST_HEADER = ("code", "farthest_steps", "farthest_count", "farthest_layouts")
SOLUTION_HEADER = ("code", "min_steps", "min_step_solutions", "solution_count")
INTEGRAL_HEADER = (*SOLUTION_HEADER, "solutions")


class SeedFileError(ValueError):
    """A seeds file that cannot be read or holds a line that is not a common code."""


@dataclass(frozen=True)
class LayoutFigures:
    """The batch figures of one layout of an analysed group."""

    layout: Layout
    farthest_steps: int
    farthest_layouts: tuple[Layout, ...]
    min_steps: int | None
    """Steps to the nearest goal layout; None when the group holds no goal layout."""
    min_step_solutions: tuple[Layout, ...]
    solutions: tuple[tuple[Layout, int], ...]
    """Every solution (docs §5) with its steps, nearest first, then by code."""


@dataclass(frozen=True, eq=False)
class GroupAnalysis:
    """The figures of every layout of one group, as columns.

    Layouts are numbered by ascending common code (their group_index); the lists of farthest
    layouts and of solutions are stored flat, ``*_offsets`` saying where each layout's part
    starts, and hold layout numbers."""

    seed: Layout
    codes: np.ndarray
    farthest_steps: np.ndarray
    farthest_offsets: np.ndarray
    farthest_layouts: np.ndarray
    """Sorted by code within each layout's part."""
    min_steps: np.ndarray
    """-1 where the group holds no goal layout."""
    solution_offsets: np.ndarray
    solution_layouts: np.ndarray
    solution_steps: np.ndarray
    """Each layout's solutions sorted by (steps, code)."""

    @property
    def size(self) -> int:
        return int(self.codes.shape[0])

    def __len__(self) -> int:
        return self.size

    def index(self, layout: Layout) -> int:
        """The number of ``layout`` in the group; ValueError when it is not in the group."""
        at = int(np.searchsorted(self.codes, int(layout)))
        if at == self.size or int(self.codes[at]) != int(layout):
            raise ValueError(f"layout {layout.code} is not in the group of {self.seed.code}")
        return at

    def figures(self, layout: Layout) -> LayoutFigures:
        """Everything known about ``layout``."""
        return self._figures(self.index(layout))

    def __iter__(self) -> Iterator[LayoutFigures]:
        """The figures of every layout, by ascending code."""
        return (self._figures(i) for i in range(self.size))

    def _figures(self, i: int) -> LayoutFigures:
        far = self.farthest_layouts[self.farthest_offsets[i]:self.farthest_offsets[i + 1]]
        first, stop = int(self.solution_offsets[i]), int(self.solution_offsets[i + 1])
        solutions = tuple((Layout(int(self.codes[j])), int(steps)) for j, steps in zip(
            self.solution_layouts[first:stop], self.solution_steps[first:stop], strict=True))
        min_steps = int(self.min_steps[i])
        return LayoutFigures(
            layout=Layout(int(self.codes[i])),
            farthest_steps=int(self.farthest_steps[i]),
            farthest_layouts=tuple(Layout(int(self.codes[j])) for j in far),
            min_steps=None if min_steps < 0 else min_steps,
            min_step_solutions=tuple(layout for layout, steps in solutions if steps == min_steps),
            solutions=solutions)


def analyze_group(layout: Layout, *, progress: Progress | None = None,
                  threads: int | None = None) -> GroupAnalysis:
    """The farthest and solution figures of every layout of ``layout``'s group.

    ``progress(phase, done, total)`` is told how many layouts are done; ``threads`` defaults
    to the number of cores."""
    from huarong._kernels import group_analysis as sweep
    from huarong._kernels import klotski

    report = progress or (lambda phase, done, total: None)
    report("searching the group", 0, 1)
    boards, _, _, _ = klotski.bfs(np.int64(int(layout)), klotski.EXPLORE_ALL, np.int64(0),
                                  np.int64(1 << 16))
    codes = klotski.boards_to_codes(boards)
    offsets, targets = klotski.adjacency(boards)
    goal = sweep.goal_flags(boards)
    order = sweep.batch_order(offsets, targets, np.int64(sweep.SOURCES_PER_BATCH))
    report("searching the group", 1, 1)

    size = int(boards.shape[0])
    batches = [order[first:first + sweep.SOURCES_PER_BATCH]
               for first in range(0, size, sweep.SOURCES_PER_BATCH)]
    farthest_steps = np.empty(size, dtype=np.int64)
    min_steps = np.empty(size, dtype=np.int64)
    farthest_rows: list[np.ndarray] = []
    solution_rows: list[np.ndarray] = []
    report("analysing layouts", 0, size)
    done = 0
    workers = threads or os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = {pool.submit(sweep.sweep_batch, offsets, targets, goal, sources): sources
                   for sources in batches}
        for future in as_completed(pending):
            sources = pending[future]
            batch_farthest, batch_min, farthest, solutions = future.result()
            farthest_steps[sources] = batch_farthest
            min_steps[sources] = batch_min
            # Rows name a source by its place in the batch; make it a node number.
            farthest[:, 0] = sources[farthest[:, 0]]
            solutions[:, 0] = sources[solutions[:, 0]]
            farthest_rows.append(farthest)
            solution_rows.append(solutions)
            done += int(sources.shape[0])
            report("analysing layouts", done, size)

    # From BFS numbering to ascending-code numbering.
    by_code = np.argsort(codes, kind="stable")
    number = np.empty(size, dtype=np.int64)
    number[by_code] = np.arange(size, dtype=np.int64)
    far_offsets, far_layouts, _ = _grouped_rows(np.concatenate(farthest_rows), number, size)
    sol_offsets, sol_layouts, sol_steps = _grouped_rows(np.concatenate(solution_rows), number,
                                                        size)
    return GroupAnalysis(seed=layout, codes=codes[by_code],
                         farthest_steps=farthest_steps[by_code],
                         farthest_offsets=far_offsets, farthest_layouts=far_layouts,
                         min_steps=min_steps[by_code], solution_offsets=sol_offsets,
                         solution_layouts=sol_layouts, solution_steps=sol_steps)


def _grouped_rows(rows: np.ndarray, number: np.ndarray, size: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(source node, node, steps) rows renumbered by ``number`` and sorted by (source, steps,
    node), as (offsets per source, nodes, steps)."""
    sources, nodes, steps = number[rows[:, 0]], number[rows[:, 1]], rows[:, 2]
    order = np.lexsort((nodes, steps, sources))
    offsets = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(sources, minlength=size), out=offsets[1:])
    return offsets, nodes[order], steps[order]


def analyze_groups(seeds: Iterable[Layout], *, progress: Progress | None = None,
                   threads: int | None = None) -> Iterator[GroupAnalysis]:
    """:func:`analyze_group` for each seed in turn; a seed whose group was already analysed
    (two seeds of one group) is skipped."""
    report = progress or (lambda phase, done, total: None)
    seed_list = list(seeds)
    covered: set[int] = set()
    for done, seed in enumerate(seed_list):
        report("groups", done, len(seed_list))
        if int(seed) in covered:
            continue
        analysis = analyze_group(seed, progress=progress, threads=threads)
        covered.update(analysis.codes.tolist())
        yield analysis
    report("groups", len(seed_list), len(seed_list))


def read_seeds(path: str | os.PathLike[str]) -> list[Layout]:
    """The common codes of a seeds file, one a line (blank lines and ``#`` comments skipped),
    like the ``5-4-0.txt`` files written by ``huarong all``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise SeedFileError(f"cannot read seeds file {os.fspath(path)!r}: {reason}") from None
    seeds = []
    for number, line in enumerate(text.splitlines(), start=1):
        entry = line.split("#", 1)[0].strip()
        if not entry:
            continue
        try:
            seeds.append(Layout.from_code(entry))
        except LayoutError as error:
            raise SeedFileError(f"seeds file {os.fspath(path)!r}, line {number}: "
                                f"{error}") from None
    return seeds


# ----- CSV tables ----------------------------------------------------------------------------
def write_csvs(analyses: GroupAnalysis | Iterable[GroupAnalysis],
               farthest_path: str | os.PathLike[str], solution_path: str | os.PathLike[str],
               *, integral: bool = False) -> None:
    """Write both tables, streaming the groups one after the other; each file appears only
    when complete (written beside it, then renamed)."""
    with atomic_writer(farthest_path) as farthest, atomic_writer(solution_path) as solution:
        farthest.write(",".join(FARTHEST_HEADER) + "\n")
        solution.write(",".join(INTEGRAL_HEADER if integral else SOLUTION_HEADER) + "\n")
        for analysis in _each(analyses):
            _farthest_rows(analysis, farthest)
            _solution_rows(analysis, solution, integral)


def write_farthest_csv(analyses: GroupAnalysis | Iterable[GroupAnalysis],
                       path: str | os.PathLike[str]) -> None:
    with atomic_writer(path) as stream:
        stream.write(",".join(FARTHEST_HEADER) + "\n")
        for analysis in _each(analyses):
            _farthest_rows(analysis, stream)


def write_solution_csv(analyses: GroupAnalysis | Iterable[GroupAnalysis],
                       path: str | os.PathLike[str], *, integral: bool = False) -> None:
    with atomic_writer(path) as stream:
        stream.write(",".join(INTEGRAL_HEADER if integral else SOLUTION_HEADER) + "\n")
        for analysis in _each(analyses):
            _solution_rows(analysis, stream, integral)


def _each(analyses: GroupAnalysis | Iterable[GroupAnalysis]) -> Iterable[GroupAnalysis]:
    return [analyses] if isinstance(analyses, GroupAnalysis) else analyses


def _farthest_rows(analysis: GroupAnalysis, stream: IO[str]) -> None:
    names = [f"{code:09X}" for code in analysis.codes.tolist()]
    offsets = analysis.farthest_offsets.tolist()
    layouts = analysis.farthest_layouts.tolist()
    steps = analysis.farthest_steps.tolist()
    join = CODE_SEPARATOR.join
    stream.writelines(
        f"{names[i]},{steps[i]},{offsets[i + 1] - offsets[i]},"
        f"{join([names[j] for j in layouts[offsets[i]:offsets[i + 1]]])}\n"
        for i in range(len(names)))


def _solution_rows(analysis: GroupAnalysis, stream: IO[str], integral: bool) -> None:
    names = [f"{code:09X}" for code in analysis.codes.tolist()]
    offsets = analysis.solution_offsets.tolist()
    layouts = analysis.solution_layouts.tolist()
    steps = analysis.solution_steps.tolist()
    min_steps = analysis.min_steps.tolist()
    join = CODE_SEPARATOR.join
    for i, name in enumerate(names):
        first, stop = offsets[i], offsets[i + 1]
        nearest = join([names[layouts[s]] for s in range(first, stop)
                        if steps[s] == min_steps[i]])
        row = f"{name},{min_steps[i]},{nearest},{stop - first}"
        if integral:
            row += "," + join([f"{names[layouts[s]]}({steps[s]})" for s in range(first, stop)])
        stream.write(row + "\n")
