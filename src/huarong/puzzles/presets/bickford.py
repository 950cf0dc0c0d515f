"""Searches by other people's definitions: N. Bickford's 4x4 sliding-block puzzles.

Bickford searched every "simple simple simple" 4x4 puzzle ("Sliding Block Puzzles, Part 3",
https://nbickford.wordpress.com/2012/01/22/sliding-block-puzzles-part-3/, and "Part 4 of
3", 2013; code and results at https://github.com/Nbickford/SbpUtilities).  His definitions,
read from his programs SBPFinder and SBPSearcher:

- a puzzle is a partition of the board's cells into pieces (any 4-connected sets of cells,
  of any size and shape, in a fixed orientation) and at least one void;
- one piece is the goal piece, told apart from the others; pieces of one shape are
  otherwise interchangeable;
- the goal piece must travel from the upper-left corner (its bounding box touching the top
  row and the left column) to the lower-right corner (touching the bottom row and the right
  column);
- moves are counted in the step metric (one piece, anywhere it reaches alone);
- the puzzles are searched from their *justsolved* states: the goal piece in the
  lower-right corner and able to move one cell up or left.  In his 2012 search (the blog's
  table, 12,295,564 puzzles) the goal piece is the one covering the lower-right cell; his
  later results file (:data:`BICKFORD_LENGTHS`, 22 moves for 4 pieces where the blog gives
  19) takes the first of the pieces touching both the bottom row and the right column,
  counting along the bottom row from the right;
- a puzzle's cluster is every state it reaches; its length is the largest distance of a
  state with the goal piece in the upper-left corner from the nearest state with the goal
  piece in the lower-right corner (the same place as in the justsolved state).

:func:`sbp_4x4` runs that search: every partition is enumerated once (Bickford's
55,807,716 for 4x4, one piece or void at a time, each piece grown from the first free
cell), its justsolved states are the seeds, and the seeds are split by how many pieces of
each size they have (states that reach each other have the same), each group a unit of the
preset's job (:data:`PRESET`, ``huarong puzzle search --preset sbp-4x4``).  A unit searches
the cluster of each seed not yet reached (the kernels of :mod:`huarong._kernels.bickford`),
keeping only that cluster's states, so memory follows the largest cluster, not the search.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from huarong.puzzles.grid import EMPTY, LETTERS, Grid, PuzzleError, Shape, join_rows, rectangle
from huarong.puzzles.jobs import Columns
from huarong.puzzles.presets import PresetOption, Progress, Settings, run_preset
from huarong.puzzles.results import results_table, totals_of, write_results

if TYPE_CHECKING:
    import pyarrow as pa

SBP_SIDE = 4

RECTANGLES: tuple[Shape, ...] = (rectangle(1, 1), rectangle(1, 2), rectangle(2, 1),
                                 rectangle(2, 2))
"""The rectangles up to 2x2: a smaller search, ``sbp_4x4(shapes=RECTANGLES)``."""

BICKFORD_LENGTHS = (1, 4, 9, 22, 36, 51, 62, 89, 132, 81, 64, 73, 61, 25, 21)
"""The hardest 4x4 puzzle's length for 1..15 pieces in Bickford's results file
(SBPSearcher/SBPSearcher/bin/x64/Debug/results-4x4.txt): shown beside ours, never used by
the search."""

BICKFORD_2012_LENGTHS = (1, 4, 9, 19, 36, 51, 62, 89, 132, 81, 64, 73, 61, 25, 21)
"""The same in his blog's table of 2012, the goal piece covering the lower-right cell
(``sbp_4x4(corner=True)``)."""

SBP_JOB = "sbp-4x4 partitions 1"
"""The checkpoints' key of :func:`sbp_4x4`'s job, the board and choices appended: a change
of what a unit's columns mean changes it."""


@dataclass(frozen=True)
class SbpRecord:
    """The hardest puzzle with ``pieces`` pieces: its ``length`` (-1: none found) and
    ``start`` grid (the goal piece ``A``, the others lettered by their first cell), and what
    was searched: ``puzzles`` (justsolved states, Bickford's count), ``clusters`` and their
    ``states``."""

    pieces: int
    length: int
    start: str | None
    puzzles: int
    clusters: int
    states: int


def _geometry(rows: int, columns: int) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' geometry of a board and each cell's neighbours (masks)."""
    from huarong._kernels import bickford as kernels

    cells = rows * columns
    if not 1 <= cells <= kernels.MAX_CELLS or min(rows, columns) < 1:
        raise PuzzleError(f"{rows}x{columns}", "the partition search takes boards of 1 to "
                                               f"{kernels.MAX_CELLS} cells")
    near = np.zeros(cells, dtype=np.int64)
    for cell in range(cells):
        row, column = divmod(cell, columns)
        for r, c in ((row - 1, column), (row + 1, column), (row, column - 1),
                     (row, column + 1)):
            if 0 <= r < rows and 0 <= c < columns:
                near[cell] |= 1 << (r * columns + c)
    return kernels.geometry_of(rows, columns), near


def _shape_masks(shapes: Sequence[Shape] | None, rows: int, columns: int) -> np.ndarray:
    """The shapes as sorted masks in the board's upper-left corner (empty: any shape);
    shapes larger than the board are left out."""
    if shapes is None:
        return np.zeros(0, dtype=np.int64)
    masks = {sum(1 << (r * columns + c) for r, c in shape) for shape in shapes
             if all(r < rows and c < columns for r, c in shape)}
    if not masks:
        raise PuzzleError(str(list(shapes)), f"no shape fits the {rows}x{columns} board")
    return np.array(sorted(masks), dtype=np.int64)


def sbp_seeds(rows: int = SBP_SIDE, columns: int = SBP_SIDE, *,
              shapes: Sequence[Shape] | None = None, corner: bool = False
              ) -> tuple[list[np.ndarray], int]:
    """The justsolved states (see the module) of every partition of the board into pieces of
    ``shapes`` (None: any) and voids, in groups of the same sizes of pieces, each sorted;
    and how many partitions the board has, voids or none.  With ``corner`` the goal piece
    covers the lower-right cell."""
    from huarong._kernels import bickford as kernels

    geometry, near = _geometry(rows, columns)
    masks = _shape_masks(shapes, rows, columns)
    count, partitions = kernels.seeds(geometry, near, masks, corner,
                                      np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64))
    keys = np.empty(count, dtype=np.int64)
    signatures = np.empty(count, dtype=np.int64)
    kernels.seeds(geometry, near, masks, corner, keys, signatures)
    order = np.lexsort((keys, signatures))
    keys, signatures = keys[order], signatures[order]
    del order
    starts = np.flatnonzero(np.diff(signatures)) + 1
    return np.split(keys, starts) if count else [], int(partitions)


def sbp_unit(seeds: np.ndarray, rows: int = SBP_SIDE, columns: int = SBP_SIDE) -> Columns:
    """One unit of :func:`sbp_4x4`: the clusters of a group of ``seeds`` (sorted keys of
    one size of pieces), one row: its ``pieces``, ``puzzles`` (seeds), ``clusters``,
    ``states``, hardest ``length`` (-1: none) and that start's ``key``."""
    from huarong._kernels import bickford as kernels

    geometry, _ = _geometry(rows, columns)
    searched, states, _, length, key, _ = kernels.clusters(seeds, seeds, geometry)
    pieces = np.empty(16, dtype=np.int64)
    count = kernels.pieces_of(seeds[0], geometry, pieces)
    return {name: np.array([value], dtype=np.int64) for name, value in (
        ("pieces", count), ("puzzles", seeds.shape[0]), ("clusters", searched),
        ("states", states), ("length", length), ("key", key))}


def sbp_4x4(shapes: Sequence[Shape] | None = None, *, rows: int = SBP_SIDE,
            columns: int = SBP_SIDE, corner: bool = False, progress: Progress | None = None,
            threads: int = 1, directory: Path | None = None, cluster: str | None = None
            ) -> list[SbpRecord]:
    """Bickford's search (see the module) on a ``rows`` x ``columns`` board (at most 16
    cells), pieces of ``shapes`` (None: any polyomino), the goal piece covering the
    lower-right cell with ``corner``: the hardest puzzle for each number of pieces, 1 to
    cells - 1.

    Each group of seeds is a unit of a :func:`~huarong.puzzles.presets.run_preset` on
    ``threads`` threads, or on the Dask scheduler at ``cluster``, checkpointed in
    ``directory`` (which the caller removes with :func:`~huarong.puzzles.jobs.finish` once
    it has the records)."""
    records: list[SbpRecord] = run_preset(
        PRESET, {"shapes": shapes, "rows": rows, "columns": columns, "corner": corner},
        threads=threads, directory=directory, cluster=cluster, progress=progress)
    return records


def _best(units: Sequence[np.ndarray], answers: Iterable[tuple[int, Columns]], rows: int,
          columns: int) -> list[SbpRecord]:
    """The hardest puzzle of each number of pieces of the units' answers, and the tallies of
    what was searched."""
    best: dict[int, tuple[int, int]] = {}
    tally: dict[int, list[int]] = {}
    found = dict(answers)
    for index in range(len(units)):
        row = {name: int(column[0]) for name, column in found[index].items()}
        count = tally.setdefault(row["pieces"], [0, 0, 0])
        for k, name in enumerate(("puzzles", "clusters", "states")):
            count[k] += row[name]
        # Of starts equally hard, the smallest key: the same whichever unit finished first.
        length, key = best.get(row["pieces"], (-1, -1))
        if row["length"] > length or (row["length"] == length >= 0 and row["key"] < key):
            best[row["pieces"]] = (row["length"], row["key"])
    records = []
    for n in range(1, rows * columns):
        length, key = best.get(n, (-1, -1))
        start = None if key < 0 else key_grid(key, rows, columns)
        records.append(SbpRecord(n, length, start, *tally.get(n, [0, 0, 0])))
    return records


def key_grid(key: int, rows: int = SBP_SIDE, columns: int = SBP_SIDE) -> str:
    """Grid text of a state's key: the goal piece ``A``, the others lettered by their first
    cell, rows joined by ``/``."""
    from huarong._kernels import bickford as kernels

    geometry, _ = _geometry(rows, columns)
    pieces = np.empty(16, dtype=np.int64)
    count = kernels.pieces_of(np.int64(key), geometry, pieces)
    cells = [EMPTY] * (rows * columns)
    for p in range(count):
        for cell in range(rows * columns):
            if int(pieces[p]) >> cell & 1:
                cells[cell] = LETTERS[p]
    return join_rows(cells, columns)


def grid_key(text: str) -> tuple[int, int, int]:
    """A 4x4 (or smaller) puzzle in grid text, ``A`` its goal piece, each letter one piece:
    (its key, rows, columns); :class:`PuzzleError` for a board with walls or over 16
    cells, a piece in two parts or no piece ``A``."""
    from huarong._kernels import bickford as kernels

    grid = Grid.read(text)
    geometry, _ = _geometry(grid.rows, grid.columns)
    pieces: dict[str, int] = {}
    for cell, glyph in enumerate(grid.cells):
        if glyph != EMPTY:
            if not glyph.isalpha():
                raise PuzzleError(text, f"{glyph!r}: Bickford's boards have no walls")
            pieces[glyph] = pieces.get(glyph, 0) | 1 << cell
    if "A" not in pieces:
        raise PuzzleError(text, "no goal piece A")
    occupied = right = below = 0
    for piece in pieces.values():
        occupied |= piece
        right |= piece & (piece >> 1) & ~int(geometry[kernels.RIGHT])
        below |= piece & (piece >> grid.columns)
    goal = (pieces["A"] & -pieces["A"]).bit_length() - 1
    key = occupied | right << 16 | below << 32 | goal << 48
    # The key joins only the touching cells of one letter: a letter in two parts is found
    # as two pieces.
    if kernels.pieces_of(np.int64(key), geometry, np.empty(16, dtype=np.int64)) != len(pieces):
        raise PuzzleError(text, "a piece is in two parts (each letter is one piece)")
    return key, grid.rows, grid.columns


def sbp_cluster(text: str) -> tuple[int, str | None, int]:
    """The cluster of one puzzle (grid text, ``A`` the goal piece; see :func:`grid_key`) by
    Bickford's definitions: (its hardest start's length, -1 when no start reaches the goal
    corner; that start's grid; its states)."""
    from huarong._kernels import bickford as kernels

    key, rows, columns = grid_key(text)
    geometry, _ = _geometry(rows, columns)
    _, states, _, length, hardest, _ = kernels.clusters(
        np.array([key], dtype=np.int64), np.zeros(0, dtype=np.int64), geometry)
    start = None if length < 0 else key_grid(int(hardest), rows, columns)
    return int(length), start, int(states)


def record_goal(start: str) -> str:
    """The goal of a record's start (grid text): the goal piece ``A`` in the lower-right
    corner, where its justsolved state has it."""
    rows = start.split("/")
    cells = [(r, c) for r, line in enumerate(rows) for c, letter in enumerate(line)
             if letter == "A"]
    down = len(rows) - 1 - max(r for r, _ in cells)
    across = len(rows[0]) - 1 - max(c for _, c in cells)
    goal = [[EMPTY] * len(rows[0]) for _ in rows]
    for r, c in cells:
        goal[r + down][c + across] = "A"
    return "/".join("".join(line) for line in goal)


def records_table(records: Sequence[SbpRecord]) -> pa.Table:
    """The 4x4 records (:func:`sbp_4x4`) as a search result file, which ``huarong serve
    --search`` browses: per record its start's cluster by the general engine (``states``,
    ``solved``), its ``length`` and ``start``, the row's own ``goal`` and ``distinct``
    piece (``A``), then ``pieces``, Bickford's length (``bickford``) and what was searched
    (``puzzles``, ``clusters``, ``searched_states``); the board, rules and metric in the
    metadata."""
    from huarong.puzzles import cluster_summary, load_puzzle

    found = [(record, bickford) for record, bickford in zip(records, BICKFORD_LENGTHS,
                                                             strict=True)
             if record.start is not None]
    columns: dict[str, list[Any]] = {name: [] for name in (
        "states", "solved", "length", "start", "goal", "distinct", "pieces", "bickford",
        "puzzles", "clusters", "searched_states")}
    for record, bickford in found:
        assert record.start is not None
        goal = record_goal(record.start)
        summary = cluster_summary(load_puzzle(record.start, goal, metric="step", rules="free",
                                              distinct="A"))
        for name, value in (("states", summary.states), ("solved", summary.solved),
                            ("length", record.length), ("start", record.start),
                            ("goal", goal), ("distinct", "A"), ("pieces", record.pieces),
                            ("bickford", bickford), ("puzzles", record.puzzles),
                            ("clusters", record.clusters), ("searched_states", record.states)):
            columns[name].append(value)
    hardest = max(found, key=lambda pair: pair[0].length, default=None)
    board = {"rows": SBP_SIDE, "columns": SBP_SIDE,
             "board": join_rows(EMPTY * SBP_SIDE * SBP_SIDE, SBP_SIDE),
             "pieces": [], "goal": None, "rules": "free", "metric": "step"}
    totals = totals_of(sum(r.clusters for r in records), sum(r.states for r in records),
                       None if hardest is None or hardest[0].start is None
                       else (hardest[0].length, hardest[0].start))
    return results_table(columns, board, totals)


def _size(settings: Settings) -> tuple[int, int]:
    """The board's rows and columns a run asks for (Bickford's 4x4 by default)."""
    return settings.get("rows", SBP_SIDE), settings.get("columns", SBP_SIDE)


class _SbpPreset:
    """``--preset sbp-4x4``: Bickford's table (see the module)."""

    name = "sbp-4x4"
    summary = ("N. Bickford's search of every 4x4 puzzle (pieces of any shape, the goal "
               "piece from the upper-left to the lower-right corner): the hardest puzzle "
               "per number of pieces, beside his")
    options: tuple[PresetOption, ...] = ()
    outputs: tuple[str, ...] = (".parquet", ".duckdb")
    unit_name = "seed groups"

    def check(self, settings: Settings) -> None:
        """Nothing to check: the preset takes no options."""

    def units(self, settings: Settings) -> list[np.ndarray]:
        groups, _ = sbp_seeds(*_size(settings), shapes=settings.get("shapes"),
                              corner=settings.get("corner", False))
        return groups

    def job_key(self, settings: Settings, units: Sequence[Any]) -> str:
        shapes = settings.get("shapes")
        rows, columns = _size(settings)
        return (f"{SBP_JOB} {rows}x{columns} corner={settings.get('corner', False)} "
                f"shapes={'any' if shapes is None else sorted(shapes)}")

    def sizes(self, units: Sequence[Any]) -> list[float]:
        return [group.shape[0] for group in units]

    def worker(self, settings: Settings) -> Callable[[np.ndarray], Columns]:
        rows, columns = _size(settings)
        return functools.partial(sbp_unit, rows=rows, columns=columns)

    def combine(self, units: Sequence[Any], answers: Iterable[tuple[int, Columns]],
                settings: Settings) -> list[SbpRecord]:
        return _best(units, answers, *_size(settings))

    def table(self, found: Any) -> pa.Table:
        return records_table(found)

    def write(self, found: Any, path: Path) -> int:
        table = records_table(found)
        write_results(table, path)
        return int(table.num_rows)

    def totals(self, found: Any, settings: Settings) -> list[dict[str, Any]]:
        return [{"pieces": r.pieces, "length": r.length, "start": r.start,
                 "bickford": bickford, "puzzles": r.puzzles, "clusters": r.clusters,
                 "states": r.states}
                for r, bickford in zip(found, BICKFORD_LENGTHS, strict=True)]

    def report(self, found: Any, totals: Any) -> list[str]:
        header = "pieces  length  Bickford     puzzles   clusters       states  "
        lines = [f"{header}start"]
        for row in totals:
            board = row["start"].split("/") if row["start"] else ["-"]
            lines.append(f"{row['pieces']:>6}  {row['length']:>6}  {row['bickford']:>8}  "
                         f"{row['puzzles']:>10,}  {row['clusters']:>9,}  "
                         f"{row['states']:>11,}  {board[0]}")
            lines.extend(" " * len(header) + line for line in board[1:])
        return lines

    def failed(self, totals: Any) -> bool:
        return False


PRESET = _SbpPreset()
