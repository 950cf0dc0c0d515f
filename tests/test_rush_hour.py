"""The Rush Hour preset (``huarong.puzzles.presets.rush_hour``, ``huarong puzzle search --preset
rush-hour``) against a brute force written here by Fogleman's definitions with a replica of
his program's minimality test (``cpp/src/solver.cpp``, ``cluster.cpp``), his published
hardest row, and ``--compare`` on hand-made ``rush.txt`` files."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from huarong.puzzles import PuzzleError
from huarong.puzzles.presets import rush_hour as rush

Item = tuple[str, int, int, int]
"""(letter ``x`` for a wall, 1 if vertical, lane, length; a wall's column for its length)."""


class Brute:
    """Every placement of one lane arrangement (read from a board), its clusters and rows,
    by plain Python: the order of things along each lane never changes."""

    def __init__(self, board: str) -> None:
        cells: dict[str, list[int]] = {}
        for cell, letter in enumerate(board):
            if letter not in "o.":
                cells.setdefault(letter, []).append(cell)
        self.items: list[Item] = []
        for cell in cells.pop("x", []):
            self.items.append(("x", 0, cell // 6, cell % 6))
        for letter, where in cells.items():
            if where[-1] - where[0] == len(where) - 1 and where[0] // 6 == where[-1] // 6:
                self.items.append((letter, 0, where[0] // 6, len(where)))
            else:
                self.items.append((letter, 1, where[0] % 6, len(where)))
        self.start = tuple(self._at(item, cells.get(item[0])) for item in self.items)
        self.lanes = sorted({(kind, lane) for _, kind, lane, _ in self.items})

    @staticmethod
    def _at(item: Item, where: list[int] | None) -> int:
        letter, kind, _, length = item
        if letter == "x":
            return length  # a wall's position is its column
        assert where is not None
        return where[0] % 6 if kind == 0 else where[0] // 6

    def cells(self, index: int, position: int) -> list[int]:
        letter, kind, lane, length = self.items[index]
        if letter == "x":
            return [lane * 6 + position]
        if kind == 0:
            return [lane * 6 + position + k for k in range(length)]
        return [(position + k) * 6 + lane for k in range(length)]

    def length(self, index: int) -> int:
        return 1 if self.items[index][0] == "x" else self.items[index][3]

    def lane_order(self, state: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        orders = []
        for kind, lane in self.lanes:
            members = [i for i, (_, k, ln, _) in enumerate(self.items)
                       if k == kind and ln == lane]
            orders.append(tuple(sorted(members, key=lambda i: state[i])))
        return tuple(orders)

    def placements(self) -> list[tuple[int, ...]]:
        order = self.lane_order(self.start)
        choices = [[self.start[i]] if self.items[i][0] == "x"
                   else range(7 - self.length(i)) for i in range(len(self.items))]
        found = []
        for state in product(*choices):
            taken = [c for i, p in enumerate(state) for c in self.cells(i, p)]
            if len(taken) == len(set(taken)) and self.lane_order(state) == order:
                found.append(state)
        return found

    def moves(self, state: tuple[int, ...], gone: int = -1) -> list[tuple[int, ...]]:
        taken = {c for i, p in enumerate(state) if i != gone for c in self.cells(i, p)}
        after = []
        for i, position in enumerate(state):
            if i == gone or self.items[i][0] == "x":
                continue
            mine = set(self.cells(i, position))
            for step in (-1, 1):
                q = position + step
                while 0 <= q <= 6 - self.length(i) and not (
                        set(self.cells(i, q)) - mine) & taken:
                    after.append((*state[:i], q, *state[i + 1:]))
                    q += step
        return after

    def red(self) -> int:
        return next(i for i, item in enumerate(self.items) if item[0] == "A")

    def distance(self, start: tuple[int, ...], gone: int) -> int:
        red = self.red()
        seen = {start: 0}
        todo = deque([start])
        while todo:
            state = todo.popleft()
            if state[red] == 4:
                return seen[state]
            for after in self.moves(state, gone):
                if after not in seen:
                    seen[after] = seen[state] + 1
                    todo.append(after)
        return -1

    def masks(self, state: tuple[int, ...]) -> tuple[int, int]:
        across = down = 0
        for i, position in enumerate(state):
            for cell in self.cells(i, position):
                if self.items[i][1] == 1:
                    down |= 1 << cell
                else:
                    across |= 1 << cell
        return across, down

    def numbering(self, state: tuple[int, ...]) -> list[int]:
        """The items in Fogleman's piece order: the red car, its row's walls, rows 0, 1, 3,
        4, 5 (walls numbered too), then columns, each lane in order."""
        numbered = [self.red()] + [i for i, item in enumerate(self.items)
                                   if item[0] == "x" and item[2] == 2]
        for row in (0, 1, 3, 4, 5):
            numbered += sorted((i for i, item in enumerate(self.items)
                                if item[1] == 0 and item[2] == row),
                               key=lambda i: state[i])
        for column in range(6):
            numbered += sorted((i for i, item in enumerate(self.items)
                                if item[1] == 1 and item[2] == column), key=lambda i: state[i])
        return numbered

    def board(self, state: tuple[int, ...]) -> str:
        """Fogleman's letters: each piece's number in his order, walls shown ``x``."""
        cells = ["o"] * 36
        for number, i in enumerate(self.numbering(state)):
            for cell in self.cells(i, state[i]):
                cells[cell] = "x" if self.items[i][0] == "x" else chr(ord("A") + number)
        return "".join(cells)

    def every_piece_needed(self, start: tuple[int, ...], moves: int) -> bool:
        """The article's minimality: without any one other piece, wall included, the start
        is solved in fewer moves."""
        return all(self.distance(start, gone) < moves
                   for gone in range(len(self.items)) if gone != self.red())

    def fogleman_minimal(self, start: tuple[int, ...], moves: int) -> bool:
        """Fogleman's minimality, by a replica of his program."""
        pieces = []
        for i in self.numbering(start):
            cells = self.cells(i, start[i])
            pieces.append((cells[0], len(cells), 6 if self.items[i][1] == 1 else 1))
        return FoglemanSolver.minimal(pieces, moves)

    def rows(self, minimal: Callable[[tuple[int, ...], int], bool]
             ) -> set[tuple[int, str, int]]:
        """(moves, board, cluster size) of each cluster with a solved state whose hardest
        start passes the test ``minimal``."""
        red = self.red()
        left = set(self.placements())
        found = set()
        while left:
            first = left.pop()
            cluster = {first}
            todo = deque([first])
            while todo:
                for after in self.moves(todo.popleft()):
                    if after not in cluster:
                        cluster.add(after)
                        todo.append(after)
            left -= cluster
            distance = {s: 0 for s in cluster if s[red] == 4}
            if not distance:
                continue
            todo = deque(distance)
            while todo:
                state = todo.popleft()
                for after in self.moves(state):
                    if after not in distance:
                        distance[after] = distance[state] + 1
                        todo.append(after)
            hardest = max(distance.values())
            start = min((s for s, d in distance.items() if d == hardest), key=self.masks)
            if minimal(start, hardest):
                found.add((hardest, self.board(start), len(cluster)))
        return found


FoglemanPiece = tuple[int, int, int]
"""(first cell, size, stride: 1 across, 6 down) as his ``Piece``; a wall is size 1."""
TARGET = 2 * 6 + 4
"""The red car's first cell when solved."""


class FoglemanSolver:
    """Fogleman's ``Board`` and ``Solver`` (``cpp/src/board.cpp``, ``solver.cpp``) on one
    start, as he wrote them: iterative deepening from depth 1 with one table of heights
    (keyed by the horizontal and vertical masks) kept over all depths, the moves of each
    piece in his order (the pieces by number; left or up one cell, two, ..., then right or
    down), never the piece moved last, and a cut when the cells right of the red car hold
    as many pieces as moves left."""

    def __init__(self, pieces: list[FoglemanPiece]) -> None:
        self.positions = [position for position, _, _ in pieces]
        self.sizes = [size for _, size, _ in pieces]
        self.strides = [stride for _, _, stride in pieces]
        self.shapes = [sum(1 << k * stride for k in range(size)) for _, size, stride in pieces]
        self.heights: dict[tuple[int, int], int] = {}

    def masks(self) -> tuple[int, int]:
        """His board's key: the cells of the horizontal pieces (walls too), of the vertical
        ones, bit ``row * 6 + column``."""
        across = down = 0
        for piece, shape in enumerate(self.shapes):
            if self.strides[piece] == 1:
                across |= shape << self.positions[piece]
            else:
                down |= shape << self.positions[piece]
        return across, down

    def moves(self, taken: int) -> list[tuple[int, int]]:
        """``Board::Moves``: (piece, steps) in his order; walls never move."""
        found = []
        for piece, stride in enumerate(self.strides):
            if self.sizes[piece] == 1:
                continue
            first = self.positions[piece]
            last = first + (self.sizes[piece] - 1) * stride
            for step, edge in ((-1, first), (1, last)):
                cell, steps = edge + step * stride, step
                while 0 <= cell < 36 and (stride == 6 or cell // 6 == edge // 6) \
                        and not taken >> cell & 1:
                    found.append((piece, steps))
                    cell, steps = cell + step * stride, steps + step
        return found

    def search(self, depth: int, most: int, previous: int, moved: list[int]) -> bool:
        """``Solver::Search``: whether ``most - depth`` more moves solve the board."""
        height = most - depth
        if height == 0:
            return self.positions[0] == TARGET
        key = self.masks()
        if self.heights.get(key, 0) >= height:
            return False
        self.heights[key] = height
        taken = key[0] | key[1]
        right_of_red = range(self.positions[0] + 2, TARGET + 2)
        if sum(taken >> cell & 1 for cell in right_of_red) >= height:
            return False
        for piece, steps in self.moves(taken):
            if piece == previous:
                continue
            self.positions[piece] += steps * self.strides[piece]
            solved = self.search(depth + 1, most, piece, moved)
            self.positions[piece] -= steps * self.strides[piece]
            if solved:
                self.heights[key] = height - 1
                moved.append(piece)
                return True
        return False

    def solve(self) -> tuple[int, set[int]]:
        """``Solver::Solve`` and ``CountMoves``: the moves of the first solution found and the
        pieces it moves."""
        if self.positions[0] == TARGET:
            return 0, set()
        self.heights.clear()
        moved: list[int] = []
        most = 1
        while not self.search(0, most, -1, moved):
            most += 1
        return most, set(moved)

    @classmethod
    def minimal(cls, pieces: list[FoglemanPiece], moves: int) -> bool:
        """``Cluster``'s test of its unsolved board, ``moves`` from a solved state: no piece
        (the red car aside) that his solution leaves unmoved can go with his solver still
        counting ``moves``."""
        _, moved = cls(pieces).solve()
        return all(cls(pieces[:piece] + pieces[piece + 1:]).solve()[0] != moves
                   for piece in range(1, len(pieces)) if piece not in moved)


BOARDS = [
    "oooooo" "oooBoo" "AAoBoo" "oooooo" "oooooo" "oooooo",
    "BBCCHo" "ooGoHo" "AAGoHo" "oFoooo" "oFxooo" "oFEEEo",
    "oooCCo" "ooooGx" "xAAoGH" "ooFooH" "ooFEEE" "oooooo",
    "oooGCC" "oooGHx" "xoAAHI" "ooFooI" "ooFEEE" "oooooo",
    "BBoCCo" "oooooD" "AAoooD" "ooEooD" "ooEFFo" "oooooo",
]
"""Arrangements with rows (two cars in a row, walls in the red car's row and others,
trucks) and one whose every cluster has an unneeded piece (no row)."""


@pytest.mark.parametrize("board", BOARDS)
def test_an_arrangement_against_the_brute_force(board: str) -> None:
    """One lane arrangement: the same rows (moves, board, cluster size) as a plain search
    of every placement by the definitions."""
    from huarong._kernels.rush_hour import MINIMAL

    brute = Brute(board)
    every = _found(rush.search_unit(rush.unit_of(board), MINIMAL))
    assert every == brute.rows(brute.every_piece_needed)
    assert _found(rush.search_unit(rush.unit_of(board))) == brute.rows(brute.fogleman_minimal)


def _found(found: dict[str, Any]) -> set[tuple[int, str, int]]:
    return {(int(m), bytes(b).decode(), int(s))
            for m, b, s in zip(found["moves"], found["board"], found["states"], strict=True)}


Row = tuple[int, str, int]


@pytest.mark.parametrize(("board", "kept", "dropped"), [
    # Above the wall, B must make way for D: 3 moves, each piece needed.  Below it, the red
    # car slides out at once: B, the wall and D are not needed.
    ("ooCCCoooooooooAAooooxoooooBoooooBooo",
     {(3, "BBBoooooDoooAADoooooxooooooooooooooo", 17)},
     {(1, "BBBoooooooooAAooooooxoooooDoooooDooo", 20)}),
    # Two clusters of 6 moves: in the second the wall at row 3, column 5 is not needed.
    ("oooxoCooDBoCooDBAAooEEoxooFFoooooooo",
     {(6, "oooxoooooGoooAAGoooCCooxooFEEHooFooH", 357)},
     {(6, "oooxooooFGoHAAFGoHooCCoxooEEoooooooo", 879)}),
    # One cluster: its start is solved in 4 moves without the car B too.
    ("BBoCCooooooDAAoooDooEooDooEFFooooooo",
     set(),
     {(4, "BBCCoFooEooFAAEooFoooooooDDooooooooo", 984)}),
])
def test_fogleman_s_test_keeps_and_drops_exactly_his_rows(board: str, kept: set[Row],
                                                         dropped: set[Row]) -> None:
    """The hardest start of every cluster holding a solved state is ``kept`` or ``dropped``
    by the replica of his program (the first board's rows also worked out by hand from his
    ``cluster.cpp``) and by the preset's default test: one that accepted every start would
    write the dropped rows too.

    His test and the every-piece test (``MINIMAL``) keep the same rows, here and on every
    board: his iterative deepening never loses a shortest solution to its table of heights
    (a state met again at the same depth after a move of the piece its shortest solution
    moves next would give a shorter path by joining the two moves), so it counts the
    distance, and a piece his solution moves is needed, as the solution without its moves
    is shorter."""
    from huarong._kernels.rush_hour import MINIMAL

    brute = Brute(board)
    assert brute.rows(lambda start, moves: True) == kept | dropped
    assert brute.rows(brute.fogleman_minimal) == kept
    unit = rush.unit_of(board)
    assert _found(rush.search_unit(unit)) == kept == _found(rush.search_unit(unit, MINIMAL))


@pytest.mark.parametrize(("board", "moves", "minimal"), [
    ("BBBoooooDoooAADoooooxooooooooooooooo", 3, True),
    ("BBBoooooooooAAooooooxoooooDoooooDooo", 1, False),
    ("oooxoooooGoooAAGoooCCooxooFEEHooFooH", 6, True),
    ("oooxooooFGoHAAFGoHooCCoxooEEoooooooo", 6, False),
    ("BBCCoFooEooFAAEooFoooooooDDooooooooo", 4, False),
    ("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM", 60, True),
])
def test_one_start_s_minimality_by_fogleman_s_test(board: str, moves: int,
                                                    minimal: bool) -> None:
    """The design search's test of one start (the rows kept and dropped above, and his
    hardest) agrees with the replica of his program."""
    brute = Brute(board)
    assert brute.fogleman_minimal(brute.start, moves) == minimal
    assert rush.fogleman_minimal(board, moves) == minimal


def test_the_hardest_row_is_fogleman_s() -> None:
    """His hardest start's arrangement gives his row: 60 moves, his board, 2,332 states; and
    the replica of his program keeps that start, as his database does."""
    found = rush.search_unit(rush.unit_of(rush.FOGLEMAN_HARDEST[1]))
    assert _found(found) == {rush.FOGLEMAN_HARDEST} == {
        (60, "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM", 2332)}
    brute = Brute(rush.FOGLEMAN_HARDEST[1])
    assert brute.fogleman_minimal(brute.start, 60)


@pytest.mark.parametrize(("max_walls", "expected"), [(0, 7_776), (1, 207_360), (2, 2_660_256)])
def test_units_cover_every_choice_of_the_rows(max_walls: int, expected: int) -> None:
    """A row holds vehicles (2, 3) and walls on at most 5 of its 6 cells, the red car's row
    the car and 0-2 walls left of it, the board at most ``max_walls`` walls: the units hold
    every such choice of the six rows, none more than a thousand unless split to the last
    row.  Without walls: 6 contents for each of five rows, 6 ** 5."""
    contents: set[tuple[object, ...]] = set()

    def fill(x: int, tokens: tuple[object, ...], cells: int) -> None:
        if cells <= 5 and x == 6:
            contents.add(tokens)
        if x >= 6 or cells > 5:
            return
        fill(x + 1, tokens, cells)
        fill(x + 1, (*tokens, ("wall", x)), cells + 1)
        for length in (2, 3):
            fill(x + length, (*tokens, length), cells + length)

    fill(0, (), 0)
    by_walls = [0, 0, 0, 0, 0, 0, 0]
    for tokens in contents:
        by_walls[sum(isinstance(t, tuple) for t in tokens)] += 1
    red_row = [1, 4, 6]  # no wall, one of columns 0-3, two of them
    ways = [1]  # ways[w]: choices of the rows so far with w walls
    for rows in [by_walls[:3]] * 5 + [red_row]:
        ways = [sum(ways[w - k] * rows[k] for k in range(len(rows)) if 0 <= w - k < len(ways))
                for w in range(3)]
    units = rush.units(max_walls)
    assert sum(rush._choices(u) for u in units) == sum(ways[:max_walls + 1]) == expected
    assert all(rush._choices(u) <= rush.UNIT_ROW_CHOICES or u.rows[:5].count(None) == 0
               for u in units)


def _rows(lines: list[str]) -> rush.RushRows:
    import numpy as np

    fields = [line.split() for line in lines]
    return rush.RushRows(np.array([int(f[0]) for f in fields], dtype=np.int16),
                         np.array([f[1] for f in fields], dtype="S36"),
                         np.array([int(f[2]) for f in fields], dtype=np.int64),
                         np.ones(len(fields), dtype=np.int64))


_OURS = ["60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332",
         "05 ooooooooooooAAoBoooooBoooooooooooooo 20",
         "03 BBoooooooCooAAoCoooooooooooooooooooo 50"]


def test_compare_finds_missing_extra_and_different_rows(tmp_path: Path) -> None:
    theirs = tmp_path / "rush.txt"
    theirs.write_text("60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n"
                      "4 ooooooooooooAAoBoooooBoooooooooooooo 20\n"
                      "7 BBBoooooooooAAoooooooooooooooooooooo 10\n")
    comparison = rush.compare(_rows(_OURS), theirs)
    assert (comparison.theirs, comparison.ours) == (3, 3)
    assert (comparison.missing, comparison.extra, comparison.different) == (1, 1, 1)
    assert comparison.examples["missing"] == ["07 BBBoooooooooAAoooooooooooooooooooooo 10"]
    assert comparison.examples["extra"] == [_OURS[2]]
    assert comparison.examples["different"][0].startswith(
        "04 ooooooooooooAAoBoooooBoooooooooooooo 20 | ours: 05")
    theirs.write_text("".join(f"{line}\n" for line in _OURS))
    assert rush.compare(_rows(_OURS), theirs).same


def test_rows_write_fogleman_s_format(tmp_path: Path) -> None:
    target = tmp_path / "ours.txt"
    _rows(_OURS).write(target)
    assert target.read_text() == "".join(f"{line}\n" for line in _OURS)
    assert rush.compare(_rows(_OURS), target).same


@pytest.mark.parametrize("text", ["60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM\n",
                                  "sixty IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n",
                                  "60 IBBxoo 2332\n"])
def test_a_bad_rush_txt_is_named_with_its_line(tmp_path: Path, text: str) -> None:
    theirs = tmp_path / "rush.txt"
    theirs.write_text(_OURS[0] + "\n" + text)
    with pytest.raises(PuzzleError, match=r"rush\.txt:2"):
        rush.compare(_rows(_OURS), theirs)
    with pytest.raises(PuzzleError, match="cannot read"):
        rush.compare(_rows(_OURS), tmp_path / "absent.txt")


@pytest.fixture
def one_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole search, cut to the arrangement of Fogleman's hardest start."""
    monkeypatch.setattr(rush, "units",
                        lambda max_walls=2: [rush.unit_of(rush.FOGLEMAN_HARDEST[1])])


NO_WALLS_HARDEST = "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."
"""The hardest start without walls, as a comment in Fogleman's ``cpp/src/main.cpp`` gives it
(his older notation, with moves 51 and cluster size 4,780)."""


def test_the_hardest_start_without_walls_is_the_published_one() -> None:
    found = _found(rush.search_unit(rush.unit_of(NO_WALLS_HARDEST)))
    assert [(moves, size) for moves, _, size in found] == [(51, 4780)]


@pytest.mark.parametrize("max_walls", [0, 1, 2])
def test_units_hold_no_more_walls_than_asked(max_walls: int) -> None:
    for unit in rush.units(max_walls)[::97]:
        assert all(sum(t >= rush.WALL for row in rows for t in row) <= max_walls
                   for rows in unit.arrangements())


def test_command_without_walls(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from huarong.cli.puzzle_search import search as command

    asked: list[int] = []

    def no_walls(max_walls: int = 2) -> list[rush.RushUnit]:
        asked.append(max_walls)
        return [rush.unit_of(NO_WALLS_HARDEST)]

    monkeypatch.setattr(rush, "units", no_walls)
    answer = CliRunner().invoke(command, ["--preset", "rush-hour", "--max-walls", "0", "-q",
                                          "--json"])
    assert answer.exit_code == 0, answer.output
    totals = json.loads(answer.output)
    assert asked == [0]
    assert (totals["max_walls"], totals["rows"], totals["hardest"]["moves"],
            totals["hardest"]["cluster_size"]) == (0, 1, 51, 4780)
    assert totals["published"] == {"moves": 51, "cluster_size": 4780}
    assert "fogleman" not in totals


@pytest.mark.usefixtures("one_unit")
def test_command_writes_and_compares(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from huarong.cli.puzzle_search import search as command

    runner = CliRunner()
    target = tmp_path / "ours.txt"
    answer = runner.invoke(command, ["--preset", "rush-hour", "-q", "-o", str(target)])
    assert answer.exit_code == 0, answer.output
    assert target.read_text() == "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n"
    assert "hardest: 60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332" in answer.output
    assert not (tmp_path / "ours.txt.checkpoint").exists()
    answer = runner.invoke(command, ["--preset", "rush-hour", "-q", "--compare", str(target),
                                     "--json"])
    assert answer.exit_code == 0, answer.output
    assert json.loads(answer.output)["compare"]["missing"] == 0
    theirs = tmp_path / "rush.txt"
    theirs.write_text("59 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n"
                      "07 BBBoooooooooAAoooooooooooooooooooooo 10\n")
    answer = runner.invoke(command, ["--preset", "rush-hour", "-q", "--compare", str(theirs)])
    assert answer.exit_code == 1
    assert "missing 1, extra 0, different 1" in answer.output


@pytest.mark.parametrize("arguments", [
    ["--compare", "rush.txt"],
    ["--preset", "sbp-4x4", "--compare", "rush.txt"],
    ["--preset", "rush-hour", "--compare", "absent-rush.txt"],
    ["--preset", "rush-hour", "-o", "rows.csv"],
    ["--preset", "rush-hour", "--board", "6x6"],
    ["--max-walls", "0"],
    ["--preset", "sbp-4x4", "--max-walls", "1"],
    ["--preset", "rush-hour", "--max-walls", "3"],
])
def test_command_refuses_bad_rush_options(arguments: list[str]) -> None:
    from click.testing import CliRunner

    from huarong.cli.puzzle_search import search as command

    answer = CliRunner().invoke(command, arguments)
    assert answer.exit_code == 2
    assert len(answer.output.strip().splitlines()) == 1


@pytest.mark.parametrize("suffix", [".parquet", ".duckdb"])
def test_a_written_database_is_browsed_and_its_starts_play(tmp_path: Path, suffix: str) -> None:
    """Written as a table, the rows page like any search result, and each start, played by
    the general engine with the file's puzzle, has the row's moves, states and solved
    states."""
    from huarong.puzzles import analyze, load_puzzle, solve
    from huarong.puzzles.results import open_search_file

    found = rush.search_unit(rush.unit_of(rush.FOGLEMAN_HARDEST[1]))
    rows = rush.RushRows(found["moves"], found["board"].view("S36").ravel(),
                         found["states"], found["solved"])
    target = tmp_path / f"rush{suffix}"
    rows.write(target)
    opened = open_search_file(target)
    assert opened.totals["hardest"]["length"] == 60
    [row] = opened.page(0, 10).rows
    assert row["start"] == "IBB#../I..LDD/JAAL../J.KEEM/FFK..M/GGHHHM"
    puzzle = load_puzzle(row["start"], opened.puzzle["goal"], rules=opened.puzzle["rules"],
                         metric=opened.puzzle["metric"])
    graph = analyze(puzzle).graph
    assert (row["length"], row["states"], row["solved"]) == (
        len(solve(puzzle).moves), graph.codes.shape[0], int(graph.goal.sum()))


def test_collette_s_hardest_cluster_without_walls_by_both_engines() -> None:
    """Collette, Raskin and Servais's hardest start in steps lies in a cluster of 24,132
    states (their paper); the preset's row of its arrangement has that cluster, and its
    moves are the general engine's hardest length of the catalogue's copy, counted in
    moves."""
    from huarong.puzzles import cluster_summary, load_puzzle

    found = _found(rush.search_unit(rush.unit_of("BBBKLMHCCKLMHoAALMDDJooooIJEEooIFFGG")))
    general = cluster_summary(load_puzzle("rush-hour-collette", metric="slide"))
    assert general.states == 24_132
    assert (general.hardest_length, general.states) in {(m, s) for m, _, s in found}
