"""A broker outage, as far as Tansu (which keeps nothing) lets us test it: publishing fails
with a clear error and loses nothing the caller cannot retry; after the broker is back
the same turns are accepted (their evidence reservations were released)."""

from __future__ import annotations

from pathlib import Path

import pytest

from provmem.config import Settings
from provmem.infra.log.kafka import BrokerUnavailableError
from provmem.infra.log.sealed import record_keys
from provmem.services.memory.memory import MemoryService
from provmem.streams.runtime.components import build
from tests.harness import said
from tests.support.tansu import TansuBroker, free_port


async def test_publishing_during_an_outage_fails_clearly_and_can_be_retried(
    tmp_path: Path, kafka_settings: Settings
) -> None:
    port = free_port()
    broker = TansuBroker(port=port, log_dir=tmp_path / "tansu").start()
    settings = kafka_settings.model_copy(
        update={"broker_url": broker.bootstrap, "broker_request_timeout_s": 3}
    )
    components = await build(settings)
    memory = MemoryService(components)
    try:
        (first,) = await memory.publish([said("t1", "I live in Paris.")])
        assert first.status == "accepted"
        broker.stop()
        with pytest.raises(BrokerUnavailableError, match=f"broker 127.0.0.1:{port}"):
            await memory.publish([said("t2", "I play the cello.")])

        broker = TansuBroker(port=port, log_dir=tmp_path / "tansu").start()
        await components.log.ensure_topics(components.names.configs(settings.partitions))
        (again,) = await memory.publish([said("t2", "I play the cello.")])
        assert again.status == "accepted"  # not refused as a duplicate
        turns = components.names.turns
        records = [
            r
            for p in range(settings.partitions)
            for r in await components.log.read(turns, p, 0, 100)
        ]
        keyed = await record_keys(components.log).key_of(again.evidence_id.encode())
        assert [r.key for r in records] == [keyed]  # Tansu lost t1
    finally:
        await components.close()
        broker.stop()
