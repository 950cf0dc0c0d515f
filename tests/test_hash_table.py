"""The kernels' one hash table (:mod:`huarong._kernels.hash_table`) and growth helper
(:mod:`huarong._kernels.arrays`) against Python's set, dict and lists.

CI runs this file a second time with NUMBA_DISABLE_JIT=1, so the table's lines run as Python
too.  Few bits and clustered keys make long probe runs, so every path of the probing runs."""

from __future__ import annotations

import random

import numpy as np
import pytest

from huarong._kernels import hash_table
from huarong._kernels.arrays import grown

# The hash wraps its int64 product on purpose; as plain numpy scalars that warns.
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")


def some_keys(count: int, seed: int) -> list[int]:
    """Distinct non-negative keys: runs of neighbours (like ranks) and large bit fields."""
    rng = random.Random(seed)
    keys = set(range(1000, 1000 + count // 2))
    while len(keys) < count:
        keys.add(rng.getrandbits(62))
    return rng.sample(sorted(keys), count)


def test_a_set_holds_what_was_added_once() -> None:
    keys = some_keys(300, 1)
    items = np.array(keys, dtype=np.int64)
    bits = hash_table.bits_for(len(keys))
    table = hash_table.set_of(items, 0, bits)
    for key in keys:
        assert hash_table.add(table, bits, np.int64(key))
    assert not any(hash_table.add(table, bits, np.int64(key)) for key in keys)
    assert sorted(table[table != hash_table.EMPTY].tolist()) == sorted(keys)
    for key in some_keys(100, 2):
        slot = hash_table.slot_of(table, bits, np.int64(key))
        assert (table[slot] == key) == (key in keys)


@pytest.mark.parametrize("value_type", [np.int64, np.int32])
def test_a_map_finds_each_key_s_first_index(value_type: type) -> None:
    keys = some_keys(200, 3)
    items = np.array(keys + keys[:50], dtype=np.int64)  # the repeats keep their first index
    bits = hash_table.bits_for(items.shape[0])
    table, values = hash_table.table_of(items, items.shape[0], bits, value_type)
    assert values.dtype == value_type
    expected = {key: index for index, key in reversed(list(enumerate(items.tolist())))}
    for key, index in expected.items():
        assert hash_table.find(table, values, bits, np.int64(key)) == index
    for key in set(some_keys(100, 4)) - set(keys):
        assert hash_table.find(table, values, bits, np.int64(key)) == -1
    key = np.int64(7)
    assert hash_table.insert(table, values, bits, key, 12345) == 12345
    assert hash_table.insert(table, values, bits, key, 99) == 12345


def test_tables_rebuilt_when_crowded_hold_every_key() -> None:
    keys = some_keys(5000, 5)
    items = np.array(keys, dtype=np.int64)
    bits = set_bits = hash_table.bits_for(0)
    assert bits == hash_table.SMALLEST_BITS
    table, values = hash_table.table_of(items, 0, bits, np.int64)
    seen = hash_table.set_of(items, 0, set_bits)
    for count, key in enumerate(keys, start=1):
        assert hash_table.insert(table, values, bits, np.int64(key), count - 1) == count - 1
        assert hash_table.add(seen, set_bits, np.int64(key))
        if hash_table.crowded(count, bits):
            bits += 1
            table, values = hash_table.table_of(items, count, bits, np.int64)
        if hash_table.crowded(count, set_bits):
            set_bits += 1
            seen = hash_table.set_of(items, count, set_bits)
        assert 2 * count <= table.shape[0] == 1 << bits == seen.shape[0]
    assert all(hash_table.find(table, values, bits, np.int64(key)) == index
               for index, key in enumerate(keys))
    assert sorted(seen[seen != hash_table.EMPTY].tolist()) == sorted(keys)
    assert hash_table.bits_for(5000) == 14 and not hash_table.crowded(8192, 14)
    assert hash_table.crowded(8193, 14)


def test_clearing_in_reverse_leaves_an_empty_table_that_works_again() -> None:
    """Keys packed into few slots, so that probe runs cross each other and wrap around."""
    bits = 6
    keys = some_keys(31, 6)
    table = hash_table.set_of(np.zeros(0, dtype=np.int64), 0, bits)
    for key in keys:
        hash_table.add(table, bits, np.int64(key))
    hash_table.clear(table, bits, np.array(keys, dtype=np.int64), len(keys))
    assert (table == hash_table.EMPTY).all()
    again = some_keys(31, 7)
    for key in again:
        assert hash_table.add(table, bits, np.int64(key))
    assert sorted(table[table != hash_table.EMPTY].tolist()) == sorted(again)


def test_grown_keeps_the_items_in_use() -> None:
    array = np.arange(10, dtype=np.int32)
    assert grown(array, 4, 10) is array
    bigger = grown(array, 4, 11)
    assert bigger.dtype == np.int32 and bigger.shape[0] == 20
    assert bigger[:4].tolist() == [0, 1, 2, 3]
    assert grown(array, 10, 50).shape[0] == 50
