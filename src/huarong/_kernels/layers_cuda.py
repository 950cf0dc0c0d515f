"""The counts-only layer sweeps of :mod:`huarong._kernels.layers` on a CUDA GPU (numba-cuda,
the ``gpu`` extra): the same five figures a source, to the byte.  The only module that
imports ``numba.cuda``.

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

if not hasattr(np, "row_stack"):
    # numba-cuda 0.30.4 registers an overload of np.row_stack when it compiles a kernel, and
    # numpy 2.5 removed it: the alias lets it start.
    np.row_stack = np.vstack  # type: ignore[attr-defined]

from numba import cuda

from huarong._kernels.layers import (
    FARTHEST_COUNT,
    FARTHEST_STEPS,
    FIGURES,
    MIN_COUNT,
    MIN_STEPS,
    SOLUTION_COUNT,
)

THREADS_A_BLOCK = 256
MAX_WORDS = 64
"""Words a node at most (4,096 sources a segment)."""
BYTES_A_NODE_WORD = 7 * 8
"""The most a kernel takes: ``push``'s visited, frontier, next frontier, blocked and two
accumulators, one int64 word each; ``list``'s visited, blocked and accumulator, and room in
each of its two lists for every (node, word) as an int64 entry and its word."""
BYTES_A_NODE = 8 + 4 + 1 + 8 * 4
"""Node arrays besides the words: offset, segment, goal flag, and room for eight int32 edge
targets (the mean degree is 3.6 on the groups of 1A9BF0C00 and 4FEA13400, at most 10)."""

_ANY_ENDING, _ANY_ALIVE, _LISTED = 0, 1, 2
KERNELS = ("pull", "push", "list")
"""The ways to expand a level (module docstring)."""
DEFAULT_KERNEL = "push"
KERNEL_VARIABLE = "HUARONG_GPU_KERNEL"
"""Names the kernel of :data:`KERNELS` when no argument does; a ``32`` suffix (``push32``)
asks for int32 offsets."""
WORD_BITS = 6
"""A ``list`` entry is ``node << WORD_BITS | word``: :data:`MAX_WORDS` words a node."""
STAGED = 4 * THREADS_A_BLOCK
"""Entries a block of ``list``'s push gathers in shared memory before it lists them with one
global atomic; a block finding more lists the rest one atomic each."""
SETTLING_BLOCKS = 4096
"""At most this many blocks settle a ``list`` level, each thread taking every so-many
entries: how many there are is known on the GPU only."""


def _kernel(function: Any, **options: bool) -> Any:
    """``cuda.jit(cache=True)``, uncached where no cache directory is writable (as
    :func:`huarong._kernels._jit.kernel`).  Typed Any: a launch is written
    ``kernel[blocks, threads](...)``, which no stub describes."""
    try:
        return cuda.jit(cache=True, **options)(function)
    except RuntimeError:
        return cuda.jit(cache=False, **options)(function)


def _device_function(function: Any) -> Any:
    return _kernel(function, device=True)


@_device_function
def _lowest_bit(word: np.int64) -> np.int64:
    """The index of the lowest set bit of a non-zero word.  Not cuda.ffs: numba's simulator
    takes its argument for 32 bits.  Each half is non-negative, so nothing overflows."""
    low = word & 0xFFFFFFFF
    if low != 0:
        return np.int64(cuda.popc(~low & (low - 1)))
    high = (word >> 32) & 0xFFFFFFFF
    return np.int64(32 + cuda.popc(~high & (high - 1)))


def is_available() -> bool:
    """Whether numba-cuda sees a usable GPU (the simulator counts as one) and runs a kernel
    on it (a broken install fails here, not in the middle of a job)."""
    if not cuda.is_available():
        return False
    trial = cuda.to_device(np.ones((1, 1), dtype=np.int64))
    _zero[1, 32](trial)
    return bool(trial.copy_to_host()[0, 0] == 0)


def free_memory() -> int | None:
    """Free bytes on the current GPU, or None when unknown (the simulator says infinite)."""
    free = cuda.current_context().get_memory_info()[0]
    return int(free) if math.isfinite(free) else None


@_device_function
def _cell(rows: np.int64, columns: np.int64) -> tuple[np.int64, np.int64]:
    """This thread's (row, column) in a rows × columns grid; row -1 beyond it."""
    t = cuda.grid(1)
    if t >= rows * columns:
        return np.int64(-1), np.int64(0)
    return np.int64(t // columns), np.int64(t % columns)


@_kernel
def _zero(words: Any) -> None:
    row, column = _cell(words.shape[0], words.shape[1])
    if row >= 0:
        words[row, column] = 0


@_kernel
def _start(sources: Any, goal: Any, visited: Any, frontier: Any, blocked: Any, full: Any,
           figures: Any) -> None:
    """Level 0: thread ``segment * lanes + lane`` puts its source (``-1``: no source in that
    lane) on the frontier."""
    lanes = sources.shape[1]
    segment, lane = _cell(sources.shape[0], lanes)
    if segment < 0 or sources[segment, lane] < 0:
        return
    node = sources[segment, lane]
    frontier[node, lane // 64] |= np.int64(1) << np.int64(lane % 64)
    _put_source(goal, visited, blocked, full, figures, node, segment, lane)


@_kernel
def _start_listed(listed: Any, listed_words: Any, count: np.int64, goal: Any,
                  segment_of: Any, visited: Any, blocked: Any, full: Any,
                  figures: Any) -> None:
    """Level 0 of ``list``: thread ``i`` puts the source of entry ``i`` of the host's list
    (one bit set in its word) on the graph."""
    i = cuda.grid(1)
    if i >= count:
        return
    node = listed[i] >> WORD_BITS
    lane = (listed[i] & (MAX_WORDS - 1)) * 64 + _lowest_bit(listed_words[i])
    _put_source(goal, visited, blocked, full, figures, node, np.int64(segment_of[node]), lane)


@_device_function
def _put_source(goal: Any, visited: Any, blocked: Any, full: Any, figures: Any,
                node: np.int64, segment: np.int64, lane: np.int64) -> None:
    """Source ``lane`` of ``segment`` at ``node`` visited, and a solution when a goal."""
    w = lane // 64
    bit = np.int64(1) << np.int64(lane % 64)
    slot = segment * visited.shape[1] * 64 + lane
    # Sources of a segment are distinct nodes: no other thread writes these (node, word)s.
    visited[node, w] |= bit
    cuda.atomic.or_(full, (segment, w), bit)
    if goal[node]:
        blocked[node, w] |= bit
        figures[SOLUTION_COUNT, slot] = 1
        figures[MIN_STEPS, slot] = 0
        figures[MIN_COUNT, slot] = 1


@_device_function
def _gather(offsets: Any, targets: Any, frontier: Any, blocked: Any, v: np.int64,
           w: np.int64) -> tuple[np.int64, np.int64]:
    """(the OR of word ``w`` of node ``v``'s neighbours' frontiers, the part of it whose
    sources reached a neighbour through a goal): a pull."""
    gathered = np.int64(0)
    behind_goal = np.int64(0)
    for e in range(offsets[v], offsets[v + 1]):
        u = targets[e]
        word = frontier[u, w]
        gathered |= word
        behind_goal |= word & blocked[u, w]
    return gathered, behind_goal


@_kernel
def _expand(offsets: Any, targets: Any, goal: Any, segment_of: Any, frontier: Any,
            visited: Any, blocked: Any, nxt: Any, full: Any, reached: Any, figures: Any,
            level: np.int64) -> None:
    """The frontier at ``level`` of every (node, word) into ``nxt`` and ``visited``;
    ``blocked`` follows; solutions at ``level`` counted; ``reached`` gets the sources that
    reached some node anew."""
    words = visited.shape[1]
    v, w = _cell(visited.shape[0], words)
    if v < 0:
        return
    seen = visited[v, w]
    segment = segment_of[v]
    if seen == full[segment, w]:
        nxt[v, w] = 0
        return
    gathered, behind_goal = _gather(offsets, targets, frontier, blocked, v, w)
    new = gathered & ~seen
    nxt[v, w] = new
    if new == 0:
        return
    _found(goal, blocked, visited, reached, figures, v, w, segment, words, seen, new,
           behind_goal, level)


@_device_function
def _found(goal: Any, blocked: Any, visited: Any, reached: Any, figures: Any, v: np.int64,
           w: np.int64, segment: np.int64, words: np.int64, seen: np.int64, new: np.int64,
           behind_goal: np.int64, level: np.int64) -> None:
    """The sources ``new`` reach (node, word) (v, w) at ``level``: visited, blocked,
    solutions and ``reached`` follow."""
    visited[v, w] = seen | new
    if goal[v]:
        blocked[v, w] |= new
        fresh = new & ~behind_goal
        lane0 = segment * words * 64 + w * 64
        while fresh != 0:
            bit = _lowest_bit(fresh)
            fresh ^= np.int64(1) << bit
            lane = lane0 + bit
            cuda.atomic.add(figures, (SOLUTION_COUNT, lane), 1)
            # Every thread of this launch that finds a solution of this lane writes the same
            # level: the first level with one is the minimum whichever thread comes first.
            if figures[MIN_STEPS, lane] < 0 or figures[MIN_STEPS, lane] == level:
                figures[MIN_STEPS, lane] = level
                cuda.atomic.add(figures, (MIN_COUNT, lane), 1)
    elif behind_goal & new != 0:
        blocked[v, w] |= behind_goal & new
    if reached[segment, w] & new != new:  # a read first spares most atomics
        cuda.atomic.or_(reached, (segment, w), new)


@_kernel
def _push(offsets: Any, targets: Any, frontier: Any, visited: Any, blocked: Any, acc: Any,
          acc_blocked: Any) -> None:
    """Each frontier (node, word) ORs its sources, less those its neighbour has seen, into
    the neighbour's ``acc`` (and those behind a goal into ``acc_blocked``)."""
    u, w = _cell(frontier.shape[0], frontier.shape[1])
    if u < 0:
        return
    word = frontier[u, w]
    if word == 0:
        return
    behind = word & blocked[u, w]
    for e in range(offsets[u], offsets[u + 1]):
        v = targets[e]
        fresh = word & ~visited[v, w]
        if fresh != 0:
            cuda.atomic.or_(acc, (v, w), fresh)
            if behind & fresh != 0:
                cuda.atomic.or_(acc_blocked, (v, w), behind & fresh)


@_kernel
def _settle(goal: Any, segment_of: Any, acc: Any, acc_blocked: Any, visited: Any,
            blocked: Any, nxt: Any, reached: Any, figures: Any, level: np.int64) -> None:
    """What :func:`_push` gathered at each (node, word) becomes its frontier at ``level``, as
    in :func:`_expand`; the accumulators are left zero."""
    words = visited.shape[1]
    v, w = _cell(visited.shape[0], words)
    if v < 0:
        return
    gathered = acc[v, w]
    if gathered == 0:
        nxt[v, w] = 0
        return
    acc[v, w] = 0
    behind_goal = acc_blocked[v, w]
    if behind_goal != 0:
        acc_blocked[v, w] = 0
    seen = visited[v, w]
    new = gathered & ~seen
    nxt[v, w] = new
    if new == 0:
        return
    _found(goal, blocked, visited, reached, figures, v, w, segment_of[v], words, seen, new,
           behind_goal, level)


@_kernel
def _push_listed(offsets: Any, targets: Any, listed: Any, listed_words: Any, count: np.int64,
                 visited: Any, blocked: Any, acc: Any, touched: Any, flags: Any) -> None:
    """``list``: each of the ``count`` frontier entries ORs its word, less the bits its
    neighbour has seen, into the neighbour's ``acc`` (and those behind a goal into its
    ``blocked``); a (node, word) whose ``acc`` this makes non-zero is listed in ``touched``,
    counted in ``flags[_LISTED]``.  Every thread of a block reaches the barriers."""
    staged = cuda.shared.array(STAGED, np.int64)
    tally = cuda.shared.array(2, np.int64)  # entries staged, their first place in touched
    if cuda.threadIdx.x == 0:
        tally[0] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < count:
        u = listed[i] >> WORD_BITS
        w = listed[i] & (MAX_WORDS - 1)
        word = listed_words[i]
        behind = word & blocked[u, w]
        for e in range(offsets[u], offsets[u + 1]):
            v = targets[e]
            fresh = word & ~visited[v, w]
            if fresh == 0:
                continue
            if cuda.atomic.or_(acc, (v, w), fresh) == 0:
                entry = (np.int64(v) << WORD_BITS) | w
                at = cuda.atomic.add(tally, 0, 1)
                if at < STAGED:
                    staged[at] = entry
                else:
                    touched[cuda.atomic.add(flags, _LISTED, 1)] = entry
            if behind & fresh != 0:
                cuda.atomic.or_(blocked, (v, w), behind & fresh)
    cuda.syncthreads()
    kept = min(tally[0], STAGED)
    if cuda.threadIdx.x == 0 and kept > 0:
        tally[1] = cuda.atomic.add(flags, _LISTED, kept)
    cuda.syncthreads()
    for j in range(cuda.threadIdx.x, kept, cuda.blockDim.x):
        touched[tally[1] + j] = staged[j]


@_kernel
def _settle_listed(goal: Any, segment_of: Any, touched: Any, touched_words: Any, flags: Any,
                   acc: Any, visited: Any, blocked: Any, reached: Any, figures: Any,
                   level: np.int64) -> None:
    """``list``: each (node, word) :func:`_push_listed` listed settles its accumulator, as
    :func:`_settle`, its new sources the entry's word at ``level``."""
    words = visited.shape[1]
    for i in range(cuda.grid(1), flags[_LISTED], cuda.gridsize(1)):
        v = touched[i] >> WORD_BITS
        w = touched[i] & (MAX_WORDS - 1)
        seen = visited[v, w]
        new = acc[v, w] & ~seen
        acc[v, w] = 0
        touched_words[i] = new
        if new != 0:
            _found(goal, blocked, visited, reached, figures, v, w, np.int64(segment_of[v]),
                   words, seen, new, blocked[v, w] & new, level)


@_kernel
def _close(alive: Any, reached: Any, ending: Any, figures: Any, flags: Any,
           level: np.int64) -> None:
    """Thread (segment, word): sources alive that reached nothing new end at ``level``."""
    words = alive.shape[1]
    segment, w = _cell(alive.shape[0], words)
    if segment < 0:
        return
    going_on = reached[segment, w]
    ends = alive[segment, w] & ~going_on
    alive[segment, w] = going_on
    reached[segment, w] = 0
    ending[segment, w] = ends
    if going_on != 0:
        flags[_ANY_ALIVE] = 1
    if ends != 0:
        flags[_ANY_ENDING] = 1
    lane0 = (segment * words + w) * 64
    while ends != 0:
        bit = _lowest_bit(ends)
        ends ^= np.int64(1) << bit
        figures[FARTHEST_STEPS, lane0 + bit] = level


@_kernel
def _count_farthest(segment_of: Any, frontier: Any, ending: Any, figures: Any) -> None:
    """Each frontier node of a source that ends at this level is one of its farthest."""
    words = frontier.shape[1]
    v, w = _cell(frontier.shape[0], words)
    if v < 0:
        return
    segment = segment_of[v]
    _add_farthest(figures, frontier[v, w] & ending[segment, w], segment * words * 64 + w * 64)


@_kernel
def _count_farthest_listed(segment_of: Any, listed: Any, listed_words: Any, count: np.int64,
                           ending: Any, figures: Any) -> None:
    """:func:`_count_farthest` over ``list``'s ``count`` frontier entries."""
    i = cuda.grid(1)
    if i >= count:
        return
    v = listed[i] >> WORD_BITS
    w = listed[i] & (MAX_WORDS - 1)
    segment = segment_of[v]
    _add_farthest(figures, listed_words[i] & ending[segment, w],
                  (segment * ending.shape[1] + w) * 64)


@_device_function
def _add_farthest(figures: Any, ends: np.int64, lane0: np.int64) -> None:
    """One more farthest layout for lane ``lane0 + b`` of each set bit b of ``ends``."""
    while ends != 0:
        bit = _lowest_bit(ends)
        ends ^= np.int64(1) << bit
        cuda.atomic.add(figures, (FARTHEST_COUNT, lane0 + bit), 1)


def _grid(threads: int) -> tuple[int, int]:
    """(blocks, threads a block) covering ``threads``: small launches in small blocks."""
    block = min(THREADS_A_BLOCK, max(32, -(-threads // 32) * 32))
    return max(1, -(-threads // block)), block


def _check(name: str, array: np.ndarray, dtype: type, ndim: int) -> None:
    if not isinstance(array, np.ndarray) or array.dtype != dtype or array.ndim != ndim:
        raise ValueError(f"{name}: want a {ndim}-d {np.dtype(dtype).name} array")


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
    _check("offsets", offsets, np.int64, 1)
    _check("targets", targets, np.int32, 1)
    _check("goal", goal, np.bool_, 1)
    _check("segment_of", segment_of, np.int32, 1)
    _check("sources", sources, np.int64, 2)
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
        _zero[_grid(size * words)](array)
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
            _zero[_grid(full.shape[0] * full.shape[1])](array)
        self._no_flags = np.zeros(3, dtype=np.int64)
        self.flags = cuda.to_device(self._no_flags)

    def clear_flags(self) -> None:
        self.flags.copy_to_device(self._no_flags)

    def close(self, figures: Any, level: int) -> np.ndarray:
        """The sources that reached nothing new end at ``level``: the flags read back."""
        _close[_grid(self.alive.shape[0] * self.alive.shape[1])](
            self.alive, self.reached, self.ending, figures, self.flags, np.int64(level))
        flags: np.ndarray = self.flags.copy_to_host()
        return flags


def _levels(variant: str, graph: tuple[Any, Any, Any, Any], sources: np.ndarray,
            visited: Any, blocked: Any, full: Any, figures: Any) -> None:
    """The levels of ``pull`` or ``push``, a thread a (node, word) each pass."""
    offsets, targets, goal, segment_of = graph
    size, words = visited.shape
    grid = _grid(size * words)
    frontier, nxt = (cuda.device_array((size, words), dtype=np.int64) for _ in range(2))
    _zero[grid](frontier)
    _start[_grid(sources.size)](cuda.to_device(sources), goal, visited, frontier, blocked,
                                full, figures)
    state = _Levels(full)
    if variant == "push":
        acc, acc_blocked = (cuda.device_array((size, words), dtype=np.int64) for _ in range(2))
        for array in (acc, acc_blocked):
            _zero[grid](array)
    level = 0
    while True:
        if variant == "push":
            _push[grid](offsets, targets, frontier, visited, blocked, acc, acc_blocked)
            _settle[grid](goal, segment_of, acc, acc_blocked, visited, blocked, nxt,
                          state.reached, figures, np.int64(level + 1))
        else:
            _expand[grid](offsets, targets, goal, segment_of, frontier, visited, blocked, nxt,
                          full, state.reached, figures, np.int64(level + 1))
        state.clear_flags()
        raised = state.close(figures, level)
        if raised[_ANY_ENDING]:
            _count_farthest[grid](segment_of, frontier, state.ending, figures)
        if not raised[_ANY_ALIVE]:
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
    _zero[_grid(size * words)](acc)
    _start_listed[_grid(count)](listed, listed_words, np.int64(count), goal, segment_of,
                                visited, blocked, full, figures)
    state = _Levels(full)
    level = 0
    while True:
        state.clear_flags()
        _push_listed[_grid(count)](offsets, targets, listed, listed_words, np.int64(count),
                                   visited, blocked, acc, touched, state.flags)
        settling = _grid(min(size * words, count * most_neighbours))
        _settle_listed[min(settling[0], SETTLING_BLOCKS), settling[1]](
            goal, segment_of, touched, touched_words, state.flags, acc, visited, blocked,
            state.reached, figures, np.int64(level + 1))
        raised = state.close(figures, level)
        if raised[_ANY_ENDING]:
            _count_farthest_listed[_grid(count)](segment_of, listed, listed_words,
                                                 np.int64(count), state.ending, figures)
        if not raised[_ANY_ALIVE]:
            return
        listed, touched = touched, listed
        listed_words, touched_words = touched_words, listed_words
        count = int(raised[_LISTED])
        level += 1
