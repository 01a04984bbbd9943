"""The EventLog contract: the same tests against the embedded log and Kafka (Tansu)."""

from __future__ import annotations

from provmem.core.ports import Append, Cleanup, EventLog, TopicConfig
from tests.contract.conftest import OpenLog


async def _topic(log: EventLog, name: str, partitions: int = 3) -> None:
    await log.ensure_topics([TopicConfig(name, partitions, Cleanup.COMPACT)])


async def test_offsets_count_from_zero_per_partition(event_log: EventLog, topic: str) -> None:
    await _topic(event_log, topic)
    first = await event_log.append(topic, [Append(0, b"a", b"1"), Append(0, b"b", b"2")])
    other = await event_log.append(topic, [Append(2, b"c", b"3")])
    assert first == [0, 1]
    assert other == [0]
    assert await event_log.end_offset(topic, 0) == 2
    assert await event_log.end_offset(topic, 1) == 0
    assert await event_log.partitions(topic) == 3


async def test_one_append_numbers_each_partition_on_its_own(
    event_log: EventLog, topic: str
) -> None:
    await _topic(event_log, topic)
    await event_log.append(topic, [Append(1, b"x", b"0")])
    batch = [Append(p, f"k{i}".encode(), f"v{i}".encode()) for i, p in enumerate([0, 1, 0, 2, 1])]
    assert await event_log.append(topic, batch) == [0, 1, 1, 0, 2]
    assert [r.value for r in await event_log.read(topic, 1, 0, 10)] == [b"0", b"v1", b"v4"]
    assert [await event_log.end_offset(topic, p) for p in range(3)] == [2, 3, 1]


async def test_read_returns_keys_values_and_tombstones_in_order(
    event_log: EventLog, topic: str
) -> None:
    await _topic(event_log, topic)
    await event_log.append(
        topic, [Append(1, b"k1", b"v1"), Append(1, b"k2", b"v2"), Append(1, b"k1", None)]
    )
    records = await event_log.read(topic, 1, 0, 10)
    assert [(r.offset, r.key, r.value) for r in records] == [
        (0, b"k1", b"v1"),
        (1, b"k2", b"v2"),
        (2, b"k1", None),
    ]
    assert [r.offset for r in await event_log.read(topic, 1, 1, 1)] == [1]
    assert await event_log.read(topic, 1, 3, 10) == []


async def test_ensure_topics_is_idempotent(event_log: EventLog, topic: str) -> None:
    await _topic(event_log, topic)
    await event_log.append(topic, [Append(0, b"k", b"v")])
    await _topic(event_log, topic)
    assert await event_log.end_offset(topic, 0) == 1


async def test_committed_offsets_per_group(event_log: EventLog, topic: str) -> None:
    await _topic(event_log, topic)
    assert await event_log.committed("g1", topic, 0) == 0
    await event_log.commit("g1", topic, 0, 5)
    await event_log.commit("g2", topic, 0, 2)
    assert await event_log.committed("g1", topic, 0) == 5
    assert await event_log.committed("g2", topic, 0) == 2
    assert await event_log.committed("g1", topic, 1) == 0


async def test_records_and_offsets_survive_a_restart(open_log: OpenLog, topic: str) -> None:
    log = open_log()
    await _topic(log, topic)
    await log.append(topic, [Append(0, b"k", b"v"), Append(0, b"k2", None)])
    await log.commit("g", topic, 0, 1)
    await log.close()
    reopened = open_log()
    try:
        records = await reopened.read(topic, 0, 0, 10)
        assert [(r.key, r.value) for r in records] == [(b"k", b"v"), (b"k2", None)]
        assert await reopened.committed("g", topic, 0) == 1
        assert await reopened.append(topic, [Append(0, b"k3", b"v3")]) == [2]
    finally:
        await reopened.close()


async def test_many_records_keep_their_order(event_log: EventLog, topic: str) -> None:
    await _topic(event_log, topic, partitions=1)
    values = [str(i).encode() for i in range(300)]
    offsets = await event_log.append(topic, [Append(0, b"k", v) for v in values])
    assert offsets == list(range(300))
    got: list[bytes | None] = []
    while len(got) < 300:
        got += [r.value for r in await event_log.read(topic, 0, len(got), 128)]
    assert got == values
