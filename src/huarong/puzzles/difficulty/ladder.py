"""Ladders by difficulty: a family of catalogue puzzles ordered by the model's predicted
median time to solve rather than by fewest moves, and the rungs just below and above one of
them (what the viewer's "easier" and "harder" links offer)."""

from __future__ import annotations

from dataclasses import dataclass

from huarong.puzzles.notation import CatalogueEntry, catalogue


@dataclass(frozen=True)
class Rung:
    """One puzzle of a ladder: its catalogue ``name`` and ``title``, fewest moves
    (``length``), predicted ``median_seconds`` and ``grade``."""

    name: str
    title: str
    length: int
    median_seconds: float
    grade: int


def difficulty_ladder(entries: list[CatalogueEntry], max_states: int | None = None
                      ) -> list[Rung]:
    """The ``entries``' solvable puzzles, easiest first by predicted median time (then fewer
    moves, then name); one whose cluster passes ``max_states`` states, whose states the
    general engine cannot code (Rush Hour's full boards) or whose walk does not settle, is
    left out."""
    from huarong.puzzles.cluster import ClusterTooLarge
    from huarong.puzzles.difficulty.features import UnsolvableStart
    from huarong.puzzles.difficulty.model import difficulty
    from huarong.puzzles.difficulty.walk import WalkDidNotSettle
    from huarong.puzzles.tables import TooManyPlacements

    rungs = []
    for entry in entries:
        try:
            found = difficulty(entry.puzzle, limit=max_states)
        except (ClusterTooLarge, UnsolvableStart, TooManyPlacements, WalkDidNotSettle):
            continue
        rungs.append(Rung(entry.name, entry.title, found.features.optimal_length,
                          found.median_seconds, found.grade))
    return sorted(rungs, key=lambda r: (r.median_seconds, r.length, r.name))


def family_ladder(family: str, max_states: int | None = None) -> list[Rung]:
    """:func:`difficulty_ladder` of the catalogue's puzzles of ``family`` (one of
    :data:`~huarong.puzzles.notation.FAMILIES`)."""
    return difficulty_ladder([e for e in catalogue() if e.family == family], max_states)


def easier_and_harder(rungs: list[Rung], name: str) -> tuple[Rung | None, Rung | None]:
    """The rungs just below and just above the puzzle ``name`` (None past either end, or
    both when ``name`` is not on the ladder)."""
    place = next((k for k, rung in enumerate(rungs) if rung.name == name), None)
    if place is None:
        return None, None
    return (rungs[place - 1] if place > 0 else None,
            rungs[place + 1] if place + 1 < len(rungs) else None)
