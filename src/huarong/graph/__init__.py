"""The state graph: the one interface between the puzzle engines (Klotski's, any sliding-block
puzzle's) and everything after them (distances, shortest paths, layer sweeps, placement,
pictures, graph files).

A :class:`StateGraph` holds the states of one connected part of a puzzle's space (a Klotski
group, a Rush Hour cluster) as 64-bit codes, their neighbours in CSR form and which states
are goals.  Engines build it (:class:`GraphBuilder`); nothing here knows any puzzle's rules.
What reads it: :func:`~huarong.graph.placement.place` (where each state is drawn),
:func:`~huarong.graph.picture.draw_state_graph` (PNG and SVG pictures) and
:func:`~huarong.graph.binary.graph_binary` (the explorer's binary form).
"""

from huarong.graph.binary import graph_binary
from huarong.graph.picture import draw_state_graph
from huarong.graph.placement import place
from huarong.graph.state_graph import (
    NO_SOLUTION,
    Geometry,
    GraphBuilder,
    StateGraph,
)

__all__ = ["NO_SOLUTION", "Geometry", "GraphBuilder", "StateGraph",
           "draw_state_graph", "graph_binary", "place"]
