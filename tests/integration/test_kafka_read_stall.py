"""A Kafka read never takes a stalled fetch for the partition's end.

Every partition scan (audits, replay, key records, the erasure's scope read, a worker's
delivery guard) stops at the first empty read. A fetch that gives nothing before the end
(a broker under load, a wedged connection) is read again by a fresh reader, and a read
that stays stalled raises :class:`ReadStalled`: it never returns ``[]`` before the end.
A real broker (Tansu) behind a proxy that holds its fetch requests
(tests/support/stalling_proxy.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from provmem.core.ports import Append, Cleanup, TopicConfig
from provmem.infra.log.kafka import KafkaEventLog, ReadStalled
from tests.support.stalling_proxy import StallingProxy
from tests.support.tansu import TansuBroker, free_port

TOPIC = "stall-turns"


@pytest.fixture
async def stalling(tmp_path: Path) -> AsyncIterator[tuple[KafkaEventLog, StallingProxy]]:
    """A log of three records read through a proxy whose fetches the test stalls."""
    broker_port = free_port()
    proxy = await StallingProxy(broker_port).start()
    broker = TansuBroker(port=broker_port, advertised_port=proxy.port, log_dir=tmp_path)
    broker.start()
    log = KafkaEventLog(f"127.0.0.1:{proxy.port}", read_wait_s=2.0, request_timeout_s=20.0)
    try:
        await log.ensure_topics([TopicConfig(TOPIC, 1, Cleanup.COMPACT)])
        await log.append(TOPIC, [Append(0, f"k{i}".encode(), f"v{i}".encode()) for i in range(3)])
        assert len(await log.read(TOPIC, 0, 0, 10)) == 3  # fetches flow before the stall
        yield log, proxy
    finally:
        await proxy.close()
        await log.close()
        broker.stop()


async def test_a_fetch_stalled_before_the_end_is_read_again(
    stalling: tuple[KafkaEventLog, StallingProxy],
) -> None:
    log, proxy = stalling
    proxy.stall()
    reading = asyncio.ensure_future(log.read(TOPIC, 0, 0, 10))
    held = asyncio.ensure_future(proxy.held(2))  # the first reader's fetch, then a fresh one's
    await asyncio.wait([reading, held], timeout=120, return_when=asyncio.FIRST_COMPLETED)
    proxy.release()
    held.cancel()
    assert [r.value for r in await reading] == [b"v0", b"v1", b"v2"]


async def test_a_read_that_stays_stalled_raises_and_never_reads_as_the_end(
    stalling: tuple[KafkaEventLog, StallingProxy],
) -> None:
    log, proxy = stalling
    proxy.stall()
    with pytest.raises(ReadStalled, match=r"\[0\] gave no record from offset 1, before its end 3"):
        await log.read(TOPIC, 0, 1, 10)
    assert await log.read(TOPIC, 0, 3, 10) == []  # the end reads as the end, stalled or not
    proxy.release()
    assert [r.offset for r in await log.read(TOPIC, 0, 1, 10)] == [1, 2]
