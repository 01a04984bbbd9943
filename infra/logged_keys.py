"""Keys that survive the loss of their cache: the log is their record.

On the distributed runtime Redis is a view, not a store of record (here it keeps nothing
on disk). Two kinds of record there are not derived from any other topic: the wrapped
per-subject data keys (losing them would shred every subject's evidence by accident) and
the API key records (losing them would lock every client out). Each change to them is
also appended to a compacted topic (key: the id; value: the record; a tombstone when a
data key is crypto-shredded). Reads go to the cache; a miss is answered from the log,
read incrementally, and written back to the cache.
"""

from __future__ import annotations

from typing import Protocol

from ..core.ports import Append, EventLog, KeyStore, TopicConfig
from .crypto import DEPLOYMENT_CHECK

_PAGE = 1000


class LogTable:
    """The latest value of every key on one topic, kept up to date incrementally."""

    def __init__(self, log: EventLog, topic: TopicConfig) -> None:
        self.log = log
        self._config = topic
        self._topic = topic.name
        self._latest: dict[str, bytes | None] = {}
        self._next: dict[int, int] = {}
        self._ensured = False

    async def _ensure(self) -> None:
        if not self._ensured:
            await self.log.ensure_topics([self._config])
            self._ensured = True

    async def read(self) -> dict[str, bytes | None]:
        """Every key's latest value (None: tombstoned), after reading what is new."""
        await self._ensure()
        for partition in range(await self.log.partitions(self._topic)):
            start = self._next.get(partition, 0)
            while page := await self.log.read(self._topic, partition, start, _PAGE):
                for record in page:
                    if record.key is not None:
                        self._latest[record.key.decode("utf-8")] = record.value
                start = page[-1].offset + 1
            self._next[partition] = start
        return self._latest

    async def write(self, key: str, value: bytes | None) -> None:
        await self._ensure()
        await self.log.append(self._topic, [Append(0, key.encode("utf-8"), value)])
        self._latest[key] = value


class LoggedKeyStore:
    """A :class:`KeyStore` cache (Redis) whose every change is recorded on a log topic."""

    def __init__(self, cache: KeyStore, log: EventLog, topic: TopicConfig) -> None:
        self._cache = cache
        self._table = LogTable(log, topic)

    async def get(self, key_id: str) -> bytes | None:
        cached = await self._cache.get(key_id)
        if cached is not None:
            return cached
        recorded = (await self._table.read()).get(key_id)
        if recorded is None:
            return None
        return await self._cache.put_if_absent(key_id, recorded)

    async def put_if_absent(self, key_id: str, wrapped: bytes) -> bytes:
        existing = await self.get(key_id)
        if existing is not None:
            return existing
        stored = await self._cache.put_if_absent(key_id, wrapped)
        if stored == wrapped:  # this process created it: record it
            await self._table.write(key_id, wrapped)
        return stored

    async def key_ids(self) -> list[str]:
        live = {k for k, v in (await self._table.read()).items() if v is not None}
        return sorted((live | set(await self._cache.key_ids())) - {DEPLOYMENT_CHECK})

    async def destroy(self, key_id: str) -> bool:
        recorded = (await self._table.read()).get(key_id) is not None
        cached = await self._cache.destroy(key_id)
        if recorded or cached:
            await self._table.write(key_id, None)
        return recorded or cached

    async def replace(self, key_id: str, wrapped: bytes) -> None:
        await self._cache.replace(key_id, wrapped)
        await self._table.write(key_id, wrapped)

    async def close(self) -> None:
        await self._cache.close()


class ApiKeyCache(Protocol):
    """Where API key records are cached (the Redis hash)."""

    async def put(self, key_id: str, record: bytes) -> None: ...

    async def get(self, key_id: str) -> bytes | None: ...

    async def close(self) -> None: ...


class LoggedApiKeyStore:
    """API key records: a Redis hash as the cache, the ``api-keys`` topic as the record."""

    def __init__(self, cache: ApiKeyCache, log: EventLog, topic: TopicConfig) -> None:
        self._cache = cache
        self._table = LogTable(log, topic)

    async def put(self, key_id: str, record: bytes) -> None:
        await self._table.write(key_id, record)
        await self._cache.put(key_id, record)

    async def get(self, key_id: str) -> bytes | None:
        cached = await self._cache.get(key_id)
        if cached is not None:
            return cached
        recorded = (await self._table.read()).get(key_id)
        if recorded is not None:
            await self._cache.put(key_id, recorded)
        return recorded

    async def records(self) -> list[bytes]:
        table = await self._table.read()
        return [value for _, value in sorted(table.items()) if value is not None]

    async def count(self) -> int:
        return len(await self.records())

    async def close(self) -> None:
        await self._cache.close()
        await self._table.log.close()
