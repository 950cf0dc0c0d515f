"""The one hash table of the kernels: the states a search has found, by key.

A table of ``2**bits`` slots is an int64 array ``keys`` holding :data:`EMPTY` in its free
slots (keys are never negative), and for a map a ``values`` array of the same length, its
integer type the caller's (a search's indices: int64, or int32 where memory counts).  A key's
probe starts at its multiplicative (Fibonacci) hash, the top ``bits`` bits of the key times
2**64 / the golden ratio, which spreads the dense, regular keys of the puzzles (ranks, bit
fields) evenly, and goes on slot by slot (linear probing: the next slot is most often in
the same cache line).

A table stays at most half full: every search keeps the keys it found in a list of its own
anyway, so a search whose table is :func:`crowded` builds one twice as large from that list
(:func:`set_of`, :func:`table_of`).  A search that reuses one table for many small searches
empties it with :func:`clear`, which costs what adding its keys did, however large the table
grew: no pass over the whole table, and no generation stamps to test on every look-up.

The look-ups are kernels of their own, not :func:`~huarong._kernels._jit.inline_kernel`: most
searches grow their tables inside their loops, and numba counts the references to an array
passed to an inlined function whose variable the loop reassigns (two atomic operations a
look-up: Rush Hour's cluster search took half as long again), where a call passes it for
free.  For the same reason a search tests :func:`crowded` (numbers only) before it rebuilds
its table, rather than hand the table to a function that would return it unchanged.

numba's on-disk cache checks only the file a kernel is written in: after changing a kernel
here, touch the modules that use it so that their cached machine code is rebuilt too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from huarong._kernels._jit import inline_kernel, kernel

Int = int | np.integer[Any]

EMPTY = -1
"""The key of a free slot."""
SMALLEST_BITS = 10
"""The bits of the smallest table :func:`bits_for` chooses (1,024 slots, 8 KiB of keys)."""
_GOLDEN = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15, 2**64 / golden ratio, as int64
_ONE = np.int64(1)


@inline_kernel
def probe(keys: np.ndarray, bits: Int, key: Int) -> Int:
    """:func:`slot_of` inlined: for a search loop that never reassigns its table (it
    returns to grow it), where a call costs more than the probe."""
    mask = (_ONE << bits) - 1
    slot = ((key * _GOLDEN) >> (64 - bits)) & mask
    while keys[slot] != key and keys[slot] != EMPTY:
        slot = (slot + 1) & mask
    return slot


@kernel
def slot_of(keys: np.ndarray, bits: Int, key: Int) -> Int:
    """The slot holding ``key``, or the free slot where it would go."""
    return probe(keys, bits, key)


@kernel
def add(keys: np.ndarray, bits: Int, key: Int) -> bool:
    """Add ``key`` to the set; False when it was there already."""
    slot = slot_of(keys, bits, key)
    if keys[slot] == key:
        return False
    keys[slot] = key
    return True


@kernel
def insert(keys: np.ndarray, values: np.ndarray, bits: Int, key: Int, value: Int) -> Int:
    """The value of ``key``: its own when the table holds it, else ``value``, added with it."""
    slot = slot_of(keys, bits, key)
    if keys[slot] == key:
        return np.int64(values[slot])
    keys[slot] = key
    values[slot] = value
    return np.int64(value)


@kernel
def find(keys: np.ndarray, values: np.ndarray, bits: Int, key: Int) -> Int:
    """The value of ``key``; -1 when the table lacks it."""
    slot = slot_of(keys, bits, key)
    if keys[slot] == key:
        return np.int64(values[slot])
    return np.int64(-1)


@inline_kernel
def crowded(count: Int, bits: Int) -> bool:
    """Whether ``count`` keys fill a table of ``2**bits`` slots more than half."""
    return bool(2 * count > (_ONE << bits))


@kernel
def bits_for(count: Int) -> Int:
    """The bits of a table with room for ``count`` keys (at most half full), at least
    :data:`SMALLEST_BITS`."""
    bits = np.int64(SMALLEST_BITS)
    while (_ONE << bits) < 2 * count:
        bits += 1
    return bits


@kernel
def set_of(items: np.ndarray, count: Int, bits: Int) -> np.ndarray:
    """A set of ``2**bits`` slots holding ``items[:count]`` (``count`` 0: an empty one)."""
    keys = np.full(_ONE << bits, EMPTY, dtype=np.int64)
    for i in range(count):
        add(keys, bits, items[i])
    return keys


@kernel
def table_of(items: np.ndarray, count: Int, bits: Int, value_type: Any
             ) -> tuple[np.ndarray, np.ndarray]:
    """A map of ``2**bits`` slots from each of ``items[:count]`` to its first index, values
    of ``value_type`` (np.int64 or np.int32): (keys, values)."""
    keys = np.full(_ONE << bits, EMPTY, dtype=np.int64)
    values = np.empty(_ONE << bits, dtype=value_type)
    for i in range(count):
        insert(keys, values, bits, items[i], i)
    return keys, values


@kernel
def clear(keys: np.ndarray, bits: Int, added: np.ndarray, count: Int) -> None:
    """Free the slots of ``added[:count]``, every key of the table in the order they were
    added (or the table last built from them).  Removed last first, each key is found where
    it went: every slot its probe passed was taken by a key added before it, still there."""
    for i in range(count - 1, -1, -1):
        keys[slot_of(keys, bits, added[i])] = EMPTY
