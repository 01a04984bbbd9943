"""Data keys survive the loss of their Redis cache: the log is their record (both logs)."""

from __future__ import annotations

import os
from collections.abc import Sequence

import pytest
import redis.asyncio as aioredis

from provmem.core.ports import Append, Cleanup, EventLog, TopicConfig
from provmem.infra.crypto.envelope import EvidenceSealer, KeyWrapper, rotate_master_key
from provmem.infra.crypto.key_ring import MARKER, generation_topics
from provmem.infra.crypto.logged_keys import LoggedApiKeyStore, LoggedKeyStore
from provmem.infra.stores.redis_stores import RedisApiKeyStore, RedisKeys, RedisKeyStore
from tests.conftest import REDIS_URL
from tests.contract.conftest import OpenLog


async def _store(open_log: OpenLog, topic: str, prefix: str) -> LoggedKeyStore:
    log = open_log()
    cache = RedisKeyStore(aioredis.Redis.from_url(REDIS_URL), RedisKeys(prefix))
    return LoggedKeyStore(cache, log, TopicConfig(topic, 1, Cleanup.COMPACT))


async def _flush(prefix: str) -> None:
    """What a Redis restart without persistence does to the cache."""
    client = aioredis.Redis.from_url(REDIS_URL)
    async for key in client.scan_iter(match=f"{prefix}:*"):
        await client.delete(key)
    await client.aclose()


async def test_keys_come_back_from_the_log_after_the_cache_is_lost(
    open_log: OpenLog, topic: str, redis_prefix: str
) -> None:
    first = await _store(open_log, topic, redis_prefix)
    assert await first.put_if_absent("alice", b"wrapped-a") == b"wrapped-a"
    assert await first.put_if_absent("alice", b"other") == b"wrapped-a"
    await first.put_if_absent("bob", b"wrapped-b")
    await first.replace("bob", b"rewrapped-b")
    await _flush(redis_prefix)

    restarted = await _store(open_log, topic, redis_prefix)  # a new process, empty cache
    assert await restarted.key_ids() == ["alice", "bob"]
    assert await restarted.get("alice") == b"wrapped-a"
    assert await restarted.get("bob") == b"rewrapped-b"
    assert await restarted.get("carol") is None


async def test_a_destroyed_key_stays_destroyed_after_the_cache_is_lost(
    open_log: OpenLog, topic: str, redis_prefix: str
) -> None:
    first = await _store(open_log, topic, redis_prefix)
    await first.put_if_absent("alice", b"wrapped-a")
    assert await first.destroy("alice") is True
    assert await first.destroy("alice") is False
    await _flush(redis_prefix)

    restarted = await _store(open_log, topic, redis_prefix)
    assert await restarted.get("alice") is None
    assert await restarted.key_ids() == []
    assert await restarted.put_if_absent("alice", b"fresh") == b"fresh"  # a new subject key


async def test_api_key_records_come_back_from_the_log_after_the_cache_is_lost(
    open_log: OpenLog, topic: str, redis_prefix: str
) -> None:
    def store() -> LoggedApiKeyStore:
        cache = RedisApiKeyStore(aioredis.Redis.from_url(REDIS_URL), RedisKeys(redis_prefix))
        return LoggedApiKeyStore(cache, open_log(), TopicConfig(topic, 1, Cleanup.COMPACT))

    first = store()
    await first.put("k1", b"record-1")
    await first.put("k2", b"record-2")
    await first.put("k1", b"record-1-revoked")
    await _flush(redis_prefix)

    restarted = store()
    assert await restarted.get("k1") == b"record-1-revoked"
    assert await restarted.records() == [b"record-1-revoked", b"record-2"]
    assert await restarted.count() == 2
    assert await restarted.get("k3") is None
    await first.close()
    await restarted.close()


async def _copies(log: EventLog, topic: str, value: bytes) -> list[str]:
    """Where ``value`` is on any generation of the key ring's topic (raw records)."""
    found = []
    for name in generation_topics(topic, await log.topics()).values():  # type: ignore[attr-defined]
        for partition in range(await log.partitions(name)):
            for record in await log.read(name, partition, 0, 10_000):
                if record.value == value:
                    found.append(f"{name}@{record.offset}")
    return found


async def test_a_shredded_key_is_on_no_generation_of_the_log(
    open_log: OpenLog, topic: str, redis_prefix: str
) -> None:
    store = await _store(open_log, topic, redis_prefix)
    await store.put_if_absent("alice", b"wrapped-a")
    await store.put_if_absent("bob", b"wrapped-b")
    assert await store.destroy("alice") is True
    log = store.ring.log
    assert await _copies(log, topic, b"wrapped-a") == []
    assert await _copies(log, topic, b"wrapped-b") != []
    assert list(generation_topics(topic, await log.topics())) == [1]  # the old one deleted
    await store.put_if_absent("carol", b"wrapped-c")
    assert await store.destroy("bob") is True
    await _flush(redis_prefix)
    restarted = await _store(open_log, topic, redis_prefix)
    assert await restarted.key_ids() == ["carol"]
    assert await _copies(log, topic, b"wrapped-b") == []


class _Crashing:
    """A log that fails at one step of a rewrite, as a crash there would leave it."""

    def __init__(self, inner: EventLog, step: str, topic: str) -> None:
        self.inner, self.step, self.topic = inner, step, topic

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    async def append(self, topic: str, records: Sequence[Append]) -> list[int]:
        if any(r.key == MARKER.encode() for r in records):
            if self.step == "marker":
                raise RuntimeError("crash before the marker")
            if "gained" in self.step:  # another process adds a key to the old generation
                await self.inner.append(self.topic, [Append(0, b"dave", b"wrapped-d")])
            if self.step == "after the marker":
                await self.inner.append(topic, records)
                await self.inner.append(self.topic, [Append(0, b"dave", b"wrapped-d")])
                raise RuntimeError("crash after the marker, before the merge")
        return await self.inner.append(topic, records)

    async def delete_topics(self, names: Sequence[str]) -> None:
        if "delete" in self.step:
            raise RuntimeError("crash before the old generation is deleted")
        await self.inner.delete_topics(names)  # type: ignore[attr-defined]


async def _crashing_store(open_log: OpenLog, topic: str, prefix: str, step: str) -> LoggedKeyStore:
    cache = RedisKeyStore(aioredis.Redis.from_url(REDIS_URL), RedisKeys(prefix))
    log = _Crashing(open_log(), step, topic)
    return LoggedKeyStore(cache, log, TopicConfig(topic, 1, Cleanup.COMPACT))  # type: ignore[arg-type]


@pytest.mark.parametrize("step", ["marker", "delete"])
async def test_a_crash_mid_rewrite_leaves_one_authoritative_generation_and_resumes(
    open_log: OpenLog, topic: str, redis_prefix: str, step: str
) -> None:
    store = await _crashing_store(open_log, topic, redis_prefix, step)
    await store.put_if_absent("alice", b"wrapped-a")
    await store.put_if_absent("bob", b"wrapped-b")
    with pytest.raises(RuntimeError):
        await store.destroy("alice")
    await _flush(redis_prefix)

    restarted = await _store(open_log, topic, redis_prefix)  # the old or the new one rules
    assert await restarted.key_ids() == ["bob"] and await restarted.get("alice") is None
    assert await restarted.ring.pending()
    assert await restarted.destroy("alice") is False  # the erasure's re-run finishes it
    assert not await restarted.ring.pending()
    assert await _copies(restarted.ring.log, topic, b"wrapped-a") == []
    assert await restarted.get("bob") == b"wrapped-b"


async def test_a_key_added_during_a_rewrite_is_kept(
    open_log: OpenLog, topic: str, redis_prefix: str
) -> None:
    store = await _crashing_store(open_log, topic, redis_prefix, "gained")
    await store.put_if_absent("alice", b"wrapped-a")
    await store.destroy("alice")
    await _flush(redis_prefix)
    restarted = await _store(open_log, topic, redis_prefix)
    assert await restarted.get("dave") == b"wrapped-d"
    assert await _copies(restarted.ring.log, topic, b"wrapped-a") == []


async def test_a_master_key_rotation_leaves_no_key_wrapped_by_the_old_one(
    open_log: OpenLog, topic: str, redis_prefix: str
) -> None:
    old, new = os.urandom(32), os.urandom(32)
    store = await _store(open_log, topic, redis_prefix)
    sealer = EvidenceSealer(old, store)
    sealed, _ = await sealer.seal("acme/support/alice", "kept across the rotation")
    assert await rotate_master_key(store, old, new) == 1
    log, fingerprint = store.ring.log, KeyWrapper(old).fingerprint
    for name in generation_topics(topic, await log.topics()).values():  # type: ignore[attr-defined]
        for record in await log.read(name, 0, 0, 10_000):
            assert not (record.value or b"").startswith(fingerprint), name
    assert await EvidenceSealer(new, store).open(sealed) == "kept across the rotation"


async def test_a_key_added_before_a_crash_after_the_switch_is_kept_by_the_next_rewrite(
    open_log: OpenLog, topic: str, redis_prefix: str
) -> None:
    store = await _crashing_store(open_log, topic, redis_prefix, "after the marker")
    await store.put_if_absent("alice", b"wrapped-a")
    await store.put_if_absent("bob", b"wrapped-b")
    with pytest.raises(RuntimeError):
        await store.destroy("alice")  # switched; dave only on the old generation
    await _flush(redis_prefix)
    restarted = await _store(open_log, topic, redis_prefix)
    assert await restarted.destroy("bob") is True  # its rewrite finishes the switch first
    await _flush(redis_prefix)
    again = await _store(open_log, topic, redis_prefix)
    assert await again.key_ids() == ["dave"]
    assert await _copies(again.ring.log, topic, b"wrapped-a") == []
    assert not await again.ring.pending()
