"""The counts-only layer sweeps of :mod:`huarong._kernels.layers` on a CUDA GPU (numba-cuda,
the ``gpu`` extra): the same five figures a source, to the byte.  This module drives the
launches; the kernels are :mod:`huarong._kernels.layers_cuda_levels`', and numba.cuda comes
from :mod:`huarong._kernels.cuda_support`.

A launch searches several *segments* at once: a segment is one batch of sources of one group
over that group's own copy of its step graph, and the graphs of a launch are laid end to end
as one graph of disjoint parts.  Lane ``b`` of word ``w`` of a node stands for source
``64 w + b`` of the node's segment, so small groups share every lane and the ~25,000 small
groups take few launches.

A level is expanded one of three ways (:data:`KERNELS`, chosen by the ``kernel`` argument or
the environment variable :data:`KERNEL_VARIABLE`), the same figures every way:

- ``pull``: one thread a (node, word) ORs its neighbours' frontier words, so no two threads
  write the same word.  Neighbours' ``blocked`` words are read while their owners write them,
  which is safe: a thread masks what it reads with the neighbour's frontier bits (sources
  that reached the neighbour earlier), and the owner only ever adds bits of sources reaching
  its node now.  A (node, word) whose every source has visited it is skipped.  But every
  other (node, word) reads its whole row at every level, though the sources of a word (a
  tight cluster) pass a node within a few levels: the kernel is bound by instructions.
- ``push``: a thread a (node, word) on the frontier ORs its word, less the bits its
  neighbour has seen, into the neighbour's accumulator (an atomic reduction, fire and
  forget), then one thread a (node, word) settles its accumulator.  Only frontier words read
  rows: work follows the frontier.
- ``list``: ``push`` without the passes over every (node, word).  The frontier is a list of
  (node, word) entries with their words; a thread an entry pushes as ``push`` does, and the
  thread whose OR first makes a neighbour's accumulator non-zero lists that (node, word) for
  the next level (each is listed once: the accumulator stays non-zero until settled).  The
  listing is gathered a block at a time in shared memory, one global atomic a block.  Then a
  thread a listed entry settles it, and the settled list is the next frontier.  The bits
  behind a goal go straight into the neighbour's ``blocked`` word (they are bits it has not
  seen, which no thread reads at this level), so no second accumulator.  A level costs the
  work near its frontier only: on the largest group a word is on a node's frontier at 4.5 of
  the 20-21 levels of its sweep, so a level of ``push`` finds about a fifth of its (node,
  word)s on the frontier (``benchmarks/frontier_density.py``).

Measured twice on an H100 (``benchmarks/gpu_whole_space.py``, the largest group, 16,384
sources), ns a (source, layout) pair: pull 0.041-0.043, pull with int32 offsets
0.039-0.043, push 0.043, push with int32 offsets 0.038 in both runs: the default.  The gain
is small; our guess (not profiled) is that each level's passes over every word (``push``:
the frontier, the accumulator, the next frontier) bound both, hence ``list``, not measured
on a GPU yet (its figures are checked under the simulator).  A fourth kernel, one launch a
level that settled and pushed on at once with bitmaps flagging the words to visit, took
0.062-0.064 and was dropped (probably its atomics collide: 64 (node, word)s share a bitmap
word).

Offsets come as int64 or, where the edges allow, int32 (``offsets32``): fewer instructions
a row.  Per level the host reads back three numbers only (some source ends here; some goes
on; ``list``: the entries listed); the figures stay on the GPU until the launch ends.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from huarong._kernels import layers_cuda_levels as gpu
from huarong._kernels.cuda_support import check, cuda, grid, zero
from huarong._kernels.layers import FIGURES, MIN_STEPS
from huarong._kernels.layers_cuda_levels import ANY_ALIVE, ANY_ENDING, LISTED, MAX_WORDS, WORD_BITS

BYTES_A_NODE_WORD = 7 * 8
"""The most a kernel takes: ``push``'s visited, frontier, next frontier, blocked and two
accumulators, one int64 word each; ``list``'s visited, blocked and accumulator, and room in
each of its two lists for every (node, word) as an int64 entry and its word."""
BYTES_A_NODE = 8 + 4 + 1 + 8 * 4
"""Node arrays besides the words: offset, segment, goal flag, and room for eight int32 edge
targets (the mean degree is 3.6 on the groups of 1A9BF0C00 and 4FEA13400, at most 10)."""

KERNELS = ("pull", "push", "list")
"""The ways to expand a level (module docstring)."""
DEFAULT_KERNEL = "push"
KERNEL_VARIABLE = "HUARONG_GPU_KERNEL"
"""Names the kernel of :data:`KERNELS` when no argument does; a ``32`` suffix (``push32``)
asks for int32 offsets."""
SETTLING_BLOCKS = 4096
"""At most this many blocks settle a ``list`` level, each thread taking every so-many
entries: how many there are is known on the GPU only."""


def is_available() -> bool:
    """Whether numba-cuda sees a usable GPU (the simulator counts as one) and runs a kernel
    on it (a broken install fails here, not in the middle of a job)."""
    if not cuda.is_available():
        return False
    trial = cuda.to_device(np.ones((1, 1), dtype=np.int64))
    zero[1, 32](trial)
    return bool(trial.copy_to_host()[0, 0] == 0)


def free_memory() -> int | None:
    """Free bytes on the current GPU, or None when unknown (the simulator says infinite)."""
    free = cuda.current_context().get_memory_info()[0]
    return int(free) if math.isfinite(free) else None


def chosen_kernel(kernel: str | None = None) -> tuple[str, bool]:
    """(the kernel of :data:`KERNELS`, whether int32 offsets are asked for) named by
    ``kernel``, else by :data:`KERNEL_VARIABLE`, else :data:`DEFAULT_KERNEL` with int32
    offsets; ValueError naming the choices for another name."""
    name = kernel or os.environ.get(KERNEL_VARIABLE) or DEFAULT_KERNEL + "32"
    base = name.removesuffix("32")
    if base not in KERNELS:
        choices = ", ".join(f"{k}, {k}32" for k in KERNELS)
        raise ValueError(f"GPU kernel {name!r}: want one of {choices}")
    return base, name.endswith("32")


def count_sweeps(offsets: np.ndarray, targets: np.ndarray, goal: np.ndarray,
                 segment_of: np.ndarray, sources: np.ndarray, kernel: str | None = None
                 ) -> np.ndarray:
    """The figures of every source of ``sources`` (segments × lanes, node numbers, ``-1``
    where a lane has no source; lanes a multiple of 64, at most 64 × :data:`MAX_WORDS`)
    over the graph ``offsets`` (int64) / ``targets`` (int32), whose goal nodes are flagged
    in ``goal`` (bool) and whose node ``v`` belongs to segment ``segment_of[v]`` (int32).
    Each segment's sources are distinct nodes of its own part of the graph, which no edge
    leaves.  Returns (:data:`FIGURES`, segments, lanes) int64, rows as
    :func:`huarong._kernels.layers.count_sweep`'s; lanes without a source hold junk.
    ``kernel``: as :func:`chosen_kernel` takes it."""
    variant, narrow = chosen_kernel(kernel)
    check("offsets", offsets, np.int64, 1)
    check("targets", targets, np.int32, 1)
    check("goal", goal, np.bool_, 1)
    check("segment_of", segment_of, np.int32, 1)
    check("sources", sources, np.int64, 2)
    size = offsets.shape[0] - 1
    segments, lanes = sources.shape
    if size < 0 or goal.shape[0] != size or segment_of.shape[0] != size:
        raise ValueError("offsets, goal and segment_of disagree on the number of nodes")
    if lanes == 0 or lanes % 64 or lanes > 64 * MAX_WORDS:
        raise ValueError(f"sources: {lanes} lanes, want a multiple of 64 up to "
                         f"{64 * MAX_WORDS}")
    if sources.size and int(sources.max()) >= size:
        raise ValueError("sources: a node number beyond the graph")
    words = lanes // 64
    figures = np.zeros((FIGURES, segments * lanes), dtype=np.int64)
    figures[MIN_STEPS] = -1
    if segments == 0 or size == 0:
        return figures.reshape(FIGURES, segments, lanes)
    if narrow and offsets[-1] < np.iinfo(np.int32).max:
        offsets = offsets.astype(np.int32)
    graph = (cuda.to_device(offsets), cuda.to_device(targets), cuda.to_device(goal),
             cuda.to_device(segment_of))
    d_figures = cuda.to_device(figures)
    visited, blocked = (cuda.device_array((size, words), dtype=np.int64) for _ in range(2))
    for array in (visited, blocked):
        zero[grid(size * words)](array)
    full = cuda.to_device(np.zeros((segments, words), dtype=np.int64))
    if variant == "list":
        _levels_listed(graph, int(np.diff(offsets).max(initial=0)), sources, visited, blocked,
                       full, d_figures)
    else:
        _levels(variant, graph, sources, visited, blocked, full, d_figures)
    result: np.ndarray = d_figures.copy_to_host()
    return result.reshape(FIGURES, segments, lanes)


class _Levels:
    """What every kernel keeps a level beside its frontier: the sources alive, those that
    reached some node anew, those ending, and the flags read back after each level."""

    def __init__(self, full: Any) -> None:
        self.alive = cuda.device_array_like(full)
        self.alive.copy_to_device(full)
        self.reached = cuda.device_array_like(full)
        self.ending = cuda.device_array_like(full)
        for array in (self.reached, self.ending):
            zero[grid(full.shape[0] * full.shape[1])](array)
        self._no_flags = np.zeros(3, dtype=np.int64)
        self.flags = cuda.to_device(self._no_flags)

    def clear_flags(self) -> None:
        self.flags.copy_to_device(self._no_flags)

    def close(self, figures: Any, level: int) -> np.ndarray:
        """The sources that reached nothing new end at ``level``: the flags read back."""
        gpu.close[grid(self.alive.shape[0] * self.alive.shape[1])](
            self.alive, self.reached, self.ending, figures, self.flags, np.int64(level))
        flags: np.ndarray = self.flags.copy_to_host()
        return flags


def _levels(variant: str, graph: tuple[Any, Any, Any, Any], sources: np.ndarray,
            visited: Any, blocked: Any, full: Any, figures: Any) -> None:
    """The levels of ``pull`` or ``push``, a thread a (node, word) each pass."""
    offsets, targets, goal, segment_of = graph
    size, words = visited.shape
    every_word = grid(size * words)
    frontier, nxt = (cuda.device_array((size, words), dtype=np.int64) for _ in range(2))
    zero[every_word](frontier)
    gpu.start[grid(sources.size)](cuda.to_device(sources), goal, visited, frontier, blocked,
                                  full, figures)
    state = _Levels(full)
    if variant == "push":
        acc, acc_blocked = (cuda.device_array((size, words), dtype=np.int64) for _ in range(2))
        for array in (acc, acc_blocked):
            zero[every_word](array)
    level = 0
    while True:
        if variant == "push":
            gpu.push[every_word](offsets, targets, frontier, visited, blocked, acc,
                                 acc_blocked)
            gpu.settle[every_word](goal, segment_of, acc, acc_blocked, visited, blocked, nxt,
                                   state.reached, figures, np.int64(level + 1))
        else:
            gpu.expand[every_word](offsets, targets, goal, segment_of, frontier, visited,
                                   blocked, nxt, full, state.reached, figures,
                                   np.int64(level + 1))
        state.clear_flags()
        raised = state.close(figures, level)
        if raised[ANY_ENDING]:
            gpu.count_farthest[every_word](segment_of, frontier, state.ending, figures)
        if not raised[ANY_ALIVE]:
            return
        frontier, nxt = nxt, frontier
        level += 1


def _levels_listed(graph: tuple[Any, Any, Any, Any], most_neighbours: int,
                   sources: np.ndarray, visited: Any, blocked: Any, full: Any, figures: Any
                   ) -> None:
    """The levels of ``list``: threads for the frontier's entries only (a node has at most
    ``most_neighbours``)."""
    offsets, targets, goal, segment_of = graph
    size, words = visited.shape
    segment, lane = np.nonzero(sources >= 0)
    count = segment.shape[0]
    # Room for every (node, word) in each list: a level lists a (node, word) at most once.
    listed, touched = (cuda.device_array(max(1, size * words), dtype=np.int64)
                       for _ in range(2))
    listed_words, touched_words = (cuda.device_array_like(listed) for _ in range(2))
    if count:
        listed[:count].copy_to_device((sources[segment, lane] << WORD_BITS) | (lane // 64))
        listed_words[:count].copy_to_device(np.int64(1) << (lane % 64))
    acc = cuda.device_array((size, words), dtype=np.int64)
    zero[grid(size * words)](acc)
    gpu.start_listed[grid(count)](listed, listed_words, np.int64(count), goal, segment_of,
                                  visited, blocked, full, figures)
    state = _Levels(full)
    level = 0
    while True:
        state.clear_flags()
        gpu.push_listed[grid(count)](offsets, targets, listed, listed_words, np.int64(count),
                                     visited, blocked, acc, touched, state.flags)
        settling = grid(min(size * words, count * most_neighbours))
        gpu.settle_listed[min(settling[0], SETTLING_BLOCKS), settling[1]](
            goal, segment_of, touched, touched_words, state.flags, acc, visited, blocked,
            state.reached, figures, np.int64(level + 1))
        raised = state.close(figures, level)
        if raised[ANY_ENDING]:
            gpu.count_farthest_listed[grid(count)](segment_of, listed, listed_words,
                                                   np.int64(count), state.ending, figures)
        if not raised[ANY_ALIVE]:
            return
        listed, touched = touched, listed
        listed_words, touched_words = touched_words, listed_words
        count = int(raised[LISTED])
        level += 1
