"""A group's graph and its narrow places the slow, obvious way, for the graph tools' tests:
the group from :mod:`tests.klotski_reference` (plain-Python steps), cut vertices and bridges
by taking each away and counting what stays connected, basins by asking of every node
whether one node taken away cuts it off from the home nodes."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from huarong.engine.layout import Layout

from . import klotski_reference as ref

Adjacency = dict[str, set[str]]
"""Each layout's common code to the codes one step away."""

KIND_NAMES = {"C": "cao", "V": "vertical", "H": "horizontal", "S": "soldier"}


def code_of(state: ref.State) -> str:
    return Layout.parse(ref.to_grid(state).replace(" ", "").replace("\n", "/")).code


def state_of(code: str) -> ref.State:
    return ref.from_grid(Layout.parse(code).grid(" "))


def group(code: str) -> Adjacency:
    """The group of ``code``, searched in plain Python."""
    found = ref.distances(state_of(code))
    codes = {state: code_of(state) for state in found}
    return {codes[state]: {codes[child] for child in ref.steps_from(state)} for state in found}


def goals(adjacency: Adjacency) -> set[str]:
    return {code for code in adjacency if ref.is_goal(state_of(code))}


def reachable(adjacency: Adjacency, starts: Iterable[str], without: str | None = None,
              cut: tuple[str, str] | None = None) -> dict[str, int]:
    """Steps from the nearest of ``starts`` to every node reached, leaving out the node
    ``without`` and the edge ``cut``."""
    seen = {start: 0 for start in starts if start != without}
    queue = deque(seen)
    while queue:
        node = queue.popleft()
        for other in adjacency[node]:
            if other == without or other in seen or {node, other} == set(cut or ()):
                continue
            seen[other] = seen[node] + 1
            queue.append(other)
    return seen


def articulation_points(adjacency: Adjacency) -> set[str]:
    points = set()
    for node in adjacency:
        rest = [other for other in adjacency if other != node]
        if rest and len(reachable(adjacency, rest[:1], without=node)) < len(rest):
            points.add(node)
    return points


def bridges(adjacency: Adjacency) -> set[frozenset[str]]:
    edges = {frozenset((node, other)) for node in adjacency for other in adjacency[node]}
    first = next(iter(adjacency))
    return {edge for edge in edges
            if len(reachable(adjacency, [first], cut=tuple(edge))) < len(adjacency)}


def basin_nodes(adjacency: Adjacency, home: set[str]) -> dict[str, int]:
    """The nodes some single node (not a home node) cuts off from every home node, each with
    its steps from the nearest home node."""
    distance = reachable(adjacency, home)
    cut_off: set[str] = set()
    for node in set(adjacency) - home:
        kept = reachable(adjacency, home, without=node)
        cut_off |= {other for other in adjacency if other != node and other not in kept}
    return {node: distance[node] for node in cut_off}


def parts(adjacency: Adjacency, nodes: set[str]) -> list[set[str]]:
    """The connected parts of the subgraph on ``nodes``."""
    inside = {node: adjacency[node] & nodes for node in nodes}
    left = set(nodes)
    found = []
    while left:
        part = set(reachable(inside, [left.pop()]))
        left -= part
        found.append(part)
    return found


def step_words(before: str, after: str) -> tuple[str, str]:
    """The piece (kind name) one step moves and where it goes (``down``, ``left 2``,
    ``up right``: rows, then columns)."""
    (gone,) = state_of(before) - state_of(after)
    (came,) = state_of(after) - state_of(before)
    rows, columns = came[1] - gone[1], came[2] - gone[2]
    words = [f"{word} {abs(count)}" if abs(count) > 1 else word
             for count, word in ((rows, "up" if rows < 0 else "down"),
                                 (columns, "left" if columns < 0 else "right")) if count]
    return KIND_NAMES[gone[0]], " ".join(words)
