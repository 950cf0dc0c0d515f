"""How a design search changes its starts: the space's check of where a design's pieces
stand (cell masks) against a plain one on sets of cells, and the Rush Hour space's changes
that keep its number of vehicles."""

from __future__ import annotations

import numpy as np
import pytest

from huarong.puzzles.design import Design, DesignSpace, mutate, random_design
from huarong.puzzles.design_spaces import rush_hour_space, space_of

SPACES = {
    "4x4 ranges, walls": lambda: space_of("4x4", "2x2,1x2*0-2,2x1*0-2,1x1*0-4", "2x2@2,2",
                                          walls=(0, 2)),
    "3x4 free shapes": lambda: space_of("3x4", "1x2,any1-3*1-3", "1x2@0,0"),
    "fixed walls": lambda: space_of("#.../..../..../...#", "2x2,1x1*0-3", "2x2@1,1"),
    "rush hour": rush_hour_space,
}


def _plainly_fits(space: DesignSpace, design: Design) -> bool:
    """Whether the pieces stand on the board, on cells no wall or other piece covers (sets
    of cells, piece by piece)."""
    taken = set(space.walls)
    if taken & design.walls:
        return False
    taken |= design.walls
    for kind, anchor in design.pieces:
        row, column = divmod(anchor, space.columns)
        cells = {(row + r) * space.columns + column + c for r, c in space.kinds[kind].shape}
        if any(row + r >= space.rows or column + c >= space.columns
               for r, c in space.kinds[kind].shape) or taken & cells:
            return False
        taken |= cells
    return True


@pytest.mark.parametrize("name", SPACES)
def test_the_check_of_a_design_agrees_with_a_plain_one(name: str) -> None:
    """Random pieces at random anchors (some off the board, some overlapping), and the
    designs a search meets (the Rush Hour space's lanes are its own test, beyond)."""
    space = SPACES[name]()
    rng = np.random.default_rng(5)
    cells = space.rows * space.columns
    fits = 0
    for _ in range(600):
        pieces = tuple(sorted((int(rng.integers(len(space.kinds))), int(rng.integers(cells)))
                              for _ in range(int(rng.integers(1, 6)))))
        walls = frozenset(int(w) for w in rng.integers(cells, size=int(rng.integers(3))))
        design = Design(walls, pieces)
        counted = len(walls) <= space.wall_range[1] and all(
            count <= kind.high for kind, count in zip(
                space.kinds, design.counts(len(space.kinds)), strict=True)) and all(
            sum(design.counts(len(space.kinds))[k] for k in kinds) <= high
            for kinds, _, high in space.groups)
        # Of a design being built only the most pieces and walls count: the rest is where
        # the pieces stand.
        assert DesignSpace.valid(space, design, complete=False) == (
            counted and _plainly_fits(space, design)), design
        fits += counted and _plainly_fits(space, design)
    design = random_design(space, rng)
    for _ in range(200):
        design = mutate(space, design, rng)
        assert space.valid(design) and _plainly_fits(space, design)
    assert fits  # the random designs are not all refused


def test_rush_hour_changes_that_keep_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each such change replaces one vehicle (by one of another kind over some of its cells,
    or by itself on a lane beside, at most one cell along) or moves one wall to a cell
    beside; the red car stays."""
    from huarong.puzzles.presets import rush_hour_design

    monkeypatch.setattr(rush_hour_design, "SAME_COUNT", 1.0)
    space = rush_hour_space()
    rng = np.random.default_rng(3)
    kinds_seen: set[str] = set()
    for _ in range(300):
        design = random_design(space, rng)
        after = space.changed(design, rng)
        if after is None:
            continue
        assert space.valid(after, complete=False)
        assert len(after.pieces) == len(design.pieces) and len(after.walls) == len(design.walls)
        gone, new = set(design.pieces) - set(after.pieces), set(after.pieces) - set(design.pieces)
        if not gone:
            (old_wall,), (new_wall,) = design.walls - after.walls, after.walls - design.walls
            assert abs(old_wall // 6 - new_wall // 6) + abs(old_wall % 6 - new_wall % 6) == 1
            kinds_seen.add("wall")
            continue
        ((kind, anchor),), ((new_kind, new_anchor),) = gone, new
        assert kind != 0 and new_kind != 0
        if new_kind != kind:
            assert set(space.cells_of(kind, anchor)) & set(space.cells_of(new_kind, new_anchor))
            kinds_seen.add("swap")
        else:
            rows, columns = new_anchor // 6 - anchor // 6, new_anchor % 6 - anchor % 6
            across, along = (columns, rows) if space.kinds[kind].width == 1 else (rows, columns)
            assert abs(across) == 1 and abs(along) <= 1
            kinds_seen.add("aside")
    assert kinds_seen == {"wall", "swap", "aside"}


@pytest.mark.parametrize(("side", "add", "remove"), [(6, 0.5, 0.0), (6, 0.0, 0.5),
                                                     (7, 0.0, 0.0)])
def test_rush_hour_changes_add_and_take_away_in_its_own_shares(
        monkeypatch: pytest.MonkeyPatch, side: int, add: float, remove: float) -> None:
    """On Fogleman's 6x6 board the changes that do not keep the count add a vehicle in
    :data:`ADD` of them and take one away in :data:`REMOVE` (the rest move a vehicle or
    change a wall): with no share for one, it never happens; with half for the other, it
    happens about half the time.  A 7x7 board keeps any board's shares (0.2 and 0.15)."""
    from huarong.puzzles.presets import rush_hour_design

    monkeypatch.setattr(rush_hour_design, "SAME_COUNT", 0.0)
    monkeypatch.setattr(rush_hour_design, "ADD", add)
    monkeypatch.setattr(rush_hour_design, "REMOVE", remove)
    space = rush_hour_space(side, side)
    rng = np.random.default_rng(7)
    more = fewer = tried = 0
    for _ in range(400):
        design = random_design(space, rng)
        while len(design.pieces) > 8:  # room to add
            design = Design(design.walls, design.pieces[:-1])
        after = space.changed(design, rng)
        tried += 1
        if after is not None:
            more += len(after.pieces) > len(design.pieces)
            fewer += len(after.pieces) < len(design.pieces)
    if side == 7:
        assert 0.1 * tried < more < 0.3 * tried and 0.07 * tried < fewer < 0.23 * tried
        return
    assert (more if add == 0 else fewer) == 0
    assert 0.35 * tried < (more or fewer) < 0.65 * tried
