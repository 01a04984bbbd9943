"""The audit reads every record a log retains, and knows which a compacting broker drops."""

from __future__ import annotations

from provmem.core.ports import Append, Cleanup, EventLog, TopicConfig
from provmem.streams.erasure.log_audit import retained


async def test_every_retained_record_is_read_and_only_a_compacted_topic_supersedes(
    event_log: EventLog, topic: str
) -> None:
    compacted, deleted = topic + "-c", topic + "-d"
    await event_log.ensure_topics(
        [TopicConfig(compacted, 1, Cleanup.COMPACT), TopicConfig(deleted, 1, Cleanup.DELETE)]
    )
    records = [Append(0, b"k", b"v1"), Append(0, b"j", b"w"), Append(0, b"k", None)]
    for name in (compacted, deleted):
        await event_log.append(name, records)
    read = [(r.record.offset, r.superseded) async for r in retained(event_log, compacted, True)]
    assert read == [(0, True), (1, False), (2, False)]
    kept = [r.superseded async for r in retained(event_log, deleted, False)]
    assert kept == [False, False, False]
