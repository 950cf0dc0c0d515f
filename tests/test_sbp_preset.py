"""The sbp-4x4 preset (huarong.puzzles.presets.bickford): N. Bickford's search over every partition
of a board into pieces and voids, against a brute force written here (every labelling of
the cells, a plain breadth-first search of every state) on 2x4 and 3x3 boards, and against
Bickford's published figures."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from functools import cache

import pytest

from huarong.puzzles.grid import PuzzleError
from huarong.puzzles.presets.bickford import (
    BICKFORD_2012_LENGTHS,
    BICKFORD_LENGTHS,
    RECTANGLES,
    grid_key,
    sbp_4x4,
    sbp_cluster,
    sbp_seeds,
)

State = tuple[frozenset[int], int]


# Masks recur in every state: their cells and moves are worked out once.
@cache
def cells_of(mask: int, columns: int) -> tuple[tuple[int, int], ...]:
    return tuple(divmod(c, columns) for c in range(mask.bit_length()) if mask >> c & 1)


@cache
def moved(piece: int, dr: int, dc: int, rows: int, columns: int) -> int | None:
    """The piece one cell along (dr, dc); None when it leaves the board."""
    shifted = 0
    for r, c in cells_of(piece, columns):
        if not (0 <= r + dr < rows and 0 <= c + dc < columns):
            return None
        shifted |= 1 << ((r + dr) * columns + c + dc)
    return shifted


class Brute:
    """Every partition of a rows x columns board by restricted growth strings (cell by
    cell: a void, a piece already begun, or a new piece; kept when each piece is
    connected), every state (a partition and its goal piece), every cluster by BFS."""

    def __init__(self, rows: int, columns: int) -> None:
        self.rows, self.columns = rows, columns
        self.cells = rows * columns
        self.partitions = list(self._partitions())
        self.found = list(self._clusters())

    def _cells(self, mask: int) -> tuple[tuple[int, int], ...]:
        return cells_of(mask, self.columns)

    def _connected(self, mask: int) -> bool:
        cells = set(self._cells(mask))
        todo = [next(iter(cells))]
        seen = {todo[0]}
        while todo:
            r, c = todo.pop()
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if near in cells and near not in seen:
                    seen.add(near)
                    todo.append(near)
        return len(seen) == len(cells)

    def _partitions(self) -> Iterator[frozenset[int]]:
        def label(cell: int, labels: list[int], used: int) -> Iterator[list[int]]:
            if cell == self.cells:
                yield labels
                return
            for value in range(used + 2):
                yield from label(cell + 1, [*labels, value], max(used, value))

        for labels in label(0, [], 0):
            pieces = [sum(1 << c for c in range(self.cells) if labels[c] == v)
                      for v in range(1, max(labels) + 1)]
            if all(self._connected(p) for p in pieces):
                yield frozenset(pieces)

    def _moved(self, piece: int, dr: int, dc: int) -> int | None:
        return moved(piece, dr, dc, self.rows, self.columns)

    def neighbours(self, state: State) -> Iterator[State]:
        pieces, goal = state
        for piece in pieces:
            others = sum(pieces) - piece
            seen, todo = {piece}, [piece]
            while todo:
                here = todo.pop()
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    there = self._moved(here, dr, dc)
                    if there is None or there & others or there in seen:
                        continue
                    seen.add(there)
                    todo.append(there)
                    yield pieces - {piece} | {there}, there if piece == goal else goal

    def _touches(self, piece: int, row: int, column: int) -> bool:
        cells = self._cells(piece)
        return any(r == row for r, _ in cells) and any(c == column for _, c in cells)

    def justsolved(self, state: State, corner: bool) -> bool:
        pieces, goal = state
        if corner and not goal >> (self.cells - 1) & 1:
            return False
        # The first piece touching the bottom row and the right column, along the bottom
        # row from the right.
        bottom = self.cells - self.columns
        first = next((p for column in reversed(range(self.columns)) for p in pieces
                      if p >> (bottom + column) & 1
                      and any(c == self.columns - 1 for _, c in self._cells(p))), None)
        if first != goal:
            return False
        for dr, dc in ((-1, 0), (0, -1)):
            moved = self._moved(goal, dr, dc)
            if moved is not None and not moved & (sum(pieces) - goal):
                return True
        return False

    def _clusters(self) -> Iterator[tuple[list[State], dict[State, int]]]:
        """Each cluster's states and their distances from its solved states."""
        seen: set[State] = set()
        for pieces in self.partitions:
            for goal in pieces:
                if (pieces, goal) in seen:
                    continue
                found = [(pieces, goal)]
                seen.add(found[0])
                for state in found:
                    for other in self.neighbours(state):
                        if other not in seen:
                            seen.add(other)
                            found.append(other)
                bottom, right = self.rows - 1, self.columns - 1
                distance = {s: 0 for s in found if self._touches(s[1], bottom, right)}
                line = deque(distance)
                while line:
                    state = line.popleft()
                    for other in self.neighbours(state):
                        if other not in distance:
                            distance[other] = distance[state] + 1
                            line.append(other)
                yield found, distance

    def table(self, corner: bool, shapes: set[int] | None) -> dict[int, list[int]]:
        """Per number of pieces: [hardest length, puzzles, clusters, states]."""
        table: dict[int, list[int]] = {}
        for found, distance in self.found:
            pieces = found[0][0]
            if shapes is not None and any(self._shape(p) not in shapes for p in pieces):
                continue
            puzzles = sum(self.justsolved(s, corner) for s in found)
            if not puzzles:
                continue
            starts = [distance[s] for s in found if self._touches(s[1], 0, 0) and s in distance]
            row = table.setdefault(len(pieces), [-1, 0, 0, 0])
            row[0] = max([row[0], *starts])
            row[1] += puzzles
            row[2] += 1
            row[3] += len(found)
        return table

    def _shape(self, piece: int) -> int:
        cells = self._cells(piece)
        top, left = min(r for r, _ in cells), min(c for _, c in cells)
        return sum(1 << ((r - top) * self.columns + c - left) for r, c in cells)

    def distance(self, grid: str) -> int:
        """The distance of a start (grid text, A the goal) from its cluster's solved
        states."""
        letters = grid.replace("/", "")
        pieces = {g: sum(1 << c for c, h in enumerate(letters) if h == g)
                  for g in set(letters) - {"."}}
        start = (frozenset(pieces.values()), pieces["A"])
        for _, distance in self.found:
            if start in distance:
                return distance[start]
        raise AssertionError(grid)


@pytest.fixture(scope="module", params=[(2, 4), (3, 3)], ids=["2x4", "3x3"])
def brute(request: pytest.FixtureRequest) -> Brute:
    return Brute(*request.param)


@pytest.mark.parametrize("corner", [False, True], ids=["first", "corner"])
def test_every_polyomino_against_brute_force(brute: Brute, corner: bool) -> None:
    records = sbp_4x4(rows=brute.rows, columns=brute.columns, corner=corner)
    expected = brute.table(corner, None)
    assert [r.pieces for r in records] == list(range(1, brute.cells))
    for record in records:
        assert [record.length, record.puzzles, record.clusters, record.states] == (
            expected.get(record.pieces, [-1, 0, 0, 0])), record
        if record.start is not None:
            assert record.start[0] == "A"
            assert brute.distance(record.start) == record.length


def test_rectangles_against_brute_force(brute: Brute) -> None:
    shapes = {brute._shape(sum(1 << (r * brute.columns + c) for r, c in shape))
              for shape in RECTANGLES}
    records = sbp_4x4(RECTANGLES, rows=brute.rows, columns=brute.columns)
    expected = brute.table(False, shapes)
    for record in records:
        assert [record.length, record.puzzles, record.clusters, record.states] == (
            expected.get(record.pieces, [-1, 0, 0, 0])), record


def test_partition_count(brute: Brute) -> None:
    _, partitions = sbp_seeds(brute.rows, brute.columns)
    assert partitions == len(brute.partitions)


@pytest.mark.parametrize(("start", "pieces"), [
    # Bickford's records for 4, 7 and 9 pieces (his results file, his piece numbers as
    # letters, the goal piece A).
    ("AAB./A.BC/..CC/..DD", 4),
    ("AB../CB.D/EBDD/EFGG", 7),
    ("ABB./ACDD/EEFG/HEI.", 9),
])
def test_bickford_records(start: str, pieces: int) -> None:
    from huarong.puzzles import cluster_summary, load_puzzle

    length, hardest, states = sbp_cluster(start)
    assert length == BICKFORD_LENGTHS[pieces - 1]
    assert hardest is not None and hardest[0] == "A"
    # The general engine's cluster of the catalogue's copy of the record.
    assert states == cluster_summary(load_puzzle(f"bickford-4x4-{pieces}")).states


@pytest.mark.parametrize(("text", "words"), [
    ("AB#./..../..../....", "no walls"),
    ("ABA./..../..../....", "two parts"),
    ("BB../..../..../....", "no goal piece"),
    ("A..../...../...../.....", "1 to 16 cells"),
])
def test_bad_grids(text: str, words: str) -> None:
    with pytest.raises(PuzzleError, match=words):
        grid_key(text)


@pytest.mark.slow
def test_bickford_tables() -> None:
    """The whole 4x4 search, both of Bickford's definitions (a few minutes each): his
    tables, his 55,807,716 partitions and the 12,295,564 puzzles of his 2012 search."""
    assert [r.length for r in sbp_4x4()] == list(BICKFORD_LENGTHS)
    records = sbp_4x4(corner=True)
    assert [r.length for r in records] == list(BICKFORD_2012_LENGTHS)
    assert sum(r.puzzles for r in records) == 12_295_564
    assert sbp_seeds(corner=True)[1] == 55_807_716


@pytest.mark.slow
def test_rectangles_within_bickford() -> None:
    """Rectangles are among Bickford's pieces, so no record exceeds his, and his records
    for 8, 14 and 15 pieces are made of rectangles."""
    records = sbp_4x4(RECTANGLES)
    for record, bickford in zip(records, BICKFORD_LENGTHS, strict=True):
        assert 0 < record.length <= bickford
    assert [records[n - 1].length for n in (8, 14, 15)] == [89, 25, 21]
