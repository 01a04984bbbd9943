"""Data keys survive the loss of their Redis cache: the log is their record (both logs)."""

from __future__ import annotations

import redis.asyncio as aioredis

from provmem.core.ports import Cleanup, TopicConfig
from provmem.infra.logged_keys import LoggedApiKeyStore, LoggedKeyStore
from provmem.infra.redis_stores import RedisApiKeyStore, RedisKeys, RedisKeyStore
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
