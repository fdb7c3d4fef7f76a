"""RisingWave's row-id layout (rwshim/dataplane/plan/row_ids.py) against what RisingWave's own
unit tests in src/common/src/util/row_id.rs (448c657, ``mod tests``) hold: the vnode bits per
vnode count (``test!`` :380-386), the sequence part of a batch of ids (:315-326), the vnodes
``compute_vnode_from_row_id`` reads back (:345-356), and ids that always rise (:301-306)."""

from __future__ import annotations

import datetime as dt

import pytest

from rwshim.dataplane.plan import row_ids

# the vnode counts RisingWave's tests run (test_64 ... test_max: VirtualNode::MAX_COUNT = 1 << 15)
# and the vnode bits bit_for_vnode gives them (10 up to 1024, then next_power_of_two's)
VNODE_BITS = [(64, 10), (114, 10), (256, 10), (1024, 10), (2048, 11), (2333, 12), (1 << 15, 15)]


@pytest.mark.parametrize(("vnode_count", "bits"), VNODE_BITS)
def test_vnode_bits(vnode_count: int, bits: int) -> None:
    assert row_ids.bit_for_vnode(vnode_count) == bits
    assert row_ids.sequence_upper_bound(vnode_count) == 1 << (22 - bits)


@pytest.mark.parametrize(("vnode_count", "_bits"), VNODE_BITS)
def test_sequences_of_one_vnode(vnode_count: int, _bits: int) -> None:
    # test_generator_with_vnode_count: vnode 1's batch of upper + 10 ids has the sequences
    # 0..upper then 0..10 (the next millisecond), read as ``id & (upper - 1)``
    upper = row_ids.sequence_upper_bound(vnode_count)
    ms = 1_767_225_600_000
    ids = [row_ids.make(ms, 1, s, vnode_count) for s in range(upper)]
    ids += [row_ids.make(ms + 1, 1, s, vnode_count) for s in range(10)]
    assert [i & (upper - 1) for i in ids] == [*range(upper), *range(10)]
    assert ids == sorted(ids)
    assert {row_ids.vnode_of(i, vnode_count) for i in ids} == {1}
    # a new millisecond's first id has sequence 0, and another timestamp part
    assert ids[upper] & (upper - 1) == 0
    assert ids[upper] >> 22 != ids[upper - 1] >> 22


@pytest.mark.parametrize(("vnode_count", "_bits"), VNODE_BITS[2:])
def test_vnodes_read_back(vnode_count: int, _bits: int) -> None:
    # test_generator_multiple_vnodes_with_vnode_count: vnodes 0..10 and count-10..count
    vnodes = [*range(10), *range(vnode_count - 10, vnode_count)]
    ms = 1_767_225_600_123
    for v in vnodes:
        rid = row_ids.make(ms, v, 3, vnode_count)
        assert row_ids.vnode_of(rid, vnode_count) == v
        assert row_ids.unix_millis(rid) == ms


def test_timestamp_part() -> None:
    # row_id_to_unix_millis: the id's top bits plus RisingWave's epoch, 2021-04-01T00:00:00Z
    # (src/common/src/util/epoch.rs:23-28)
    epoch = dt.datetime(2021, 4, 1, tzinfo=dt.UTC)
    assert int(epoch.timestamp() * 1000) == row_ids.RISINGWAVE_EPOCH_MS
    assert row_ids.unix_millis(0) == row_ids.RISINGWAVE_EPOCH_MS
    assert row_ids.unix_millis((1 << 22) - 1) == row_ids.RISINGWAVE_EPOCH_MS
    assert row_ids.unix_millis(1 << 22) == row_ids.RISINGWAVE_EPOCH_MS + 1
    ms = 1_767_225_600_000
    assert row_ids.unix_millis(row_ids.make(ms, 255, 4095)) == ms


def test_rwshim_ids_rise_and_carry_the_clock() -> None:
    # rwshim's rule (row_ids.next_id, what rwfn.row_id computes): the clock's first id of a
    # millisecond, else one past the last; never below the last (row_id.rs:301-306: always
    # greater), past 2**22 ids in one millisecond into the next millisecond
    ms = 1_767_225_600_000
    first = row_ids.next_id(None, ms)
    assert first == row_ids.make(ms, 0, 0)
    ids = [first]
    for _ in range(5):
        ids.append(row_ids.next_id(ids[-1], ms))
    assert ids == list(range(first, first + 6))
    assert {row_ids.unix_millis(i) for i in ids} == {ms}
    later = row_ids.next_id(ids[-1], ms + 1000)
    assert later == row_ids.make(ms + 1000, 0, 0)
    # a clock that went back: the ids still rise
    assert row_ids.next_id(later, ms) == later + 1
    full = row_ids.make(ms, 1023, 4095)
    assert row_ids.unix_millis(row_ids.next_id(full, ms)) == ms + 1
