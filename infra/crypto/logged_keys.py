"""Keys that survive the loss of their cache: the log is their record.

On the distributed runtime Redis is a view, not a store of record (here it keeps nothing
on disk). Two kinds of record there are not derived from any other topic: the wrapped
per-subject data keys (losing them would shred every subject's evidence by accident) and
the API key records (losing them would lock every client out). Each change to them is
also appended to a topic (key: the id; value: the record). Reads go to the cache; a miss
is answered from the log, read incrementally, and written back to the cache.

The data keys live in a key ring of topic generations (infra/crypto/key_ring.py): shredding a
key rewrites the ring without it and deletes the old generation, so no copy of the
wrapped key stays on the broker, which may never compact (Tansu does not).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

from provmem.core.ports import KeyStore, TopicConfig
from provmem.infra.crypto.envelope import DEPLOYMENT_CHECK
from provmem.infra.crypto.key_ring import AdminLog, KeyRing, Lock, LogTable, local_lock

__all__ = ["ApiKeyCache", "LogTable", "LoggedApiKeyStore", "LoggedKeyStore"]


class LoggedKeyStore:
    """A :class:`KeyStore` cache (Redis) whose every change is recorded in a key ring."""

    def __init__(
        self, cache: KeyStore, log: AdminLog, topic: TopicConfig, lock: Lock | None = None
    ) -> None:
        self._cache = cache
        self.ring = KeyRing(log, topic, lock or local_lock())

    async def get(self, key_id: str) -> bytes | None:
        cached = await self._cache.get(key_id)
        if cached is not None:
            return cached
        recorded = (await self.ring.read()).get(key_id)
        if recorded is None:
            return None
        return await self._cache.put_if_absent(key_id, recorded)

    async def put_if_absent(self, key_id: str, wrapped: bytes) -> bytes:
        existing = await self.get(key_id)
        if existing is not None:
            return existing
        stored = await self._cache.put_if_absent(key_id, wrapped)
        if stored == wrapped:  # this process created it: record it
            await self.ring.add(key_id, wrapped)
        return stored

    async def key_ids(self) -> list[str]:
        live = {k for k, v in (await self.ring.read()).items() if v is not None}
        return sorted((live | set(await self._cache.key_ids())) - {DEPLOYMENT_CHECK})

    async def destroy(self, key_id: str) -> bool:
        """Shred the key: from the cache, then from the log (the ring rewritten without
        it). A re-run after a crash finishes the rewrite the crash interrupted."""
        recorded = (await self.ring.read()).get(key_id) is not None
        cached = await self._cache.destroy(key_id)
        if recorded or cached:
            await self.ring.shred(key_id)
        elif await self.ring.pending():
            await self.ring.finish()
        return recorded or cached

    async def replace(self, key_id: str, wrapped: bytes) -> None:
        await self._cache.replace(key_id, wrapped)
        await self.ring.replace(key_id, wrapped)

    async def rewrite(self) -> None:
        """Rewrite the key ring with the live keys only (after a master-key rotation)."""
        await self.ring.rewrite()

    def records(self) -> AsyncIterator[tuple[str, bytes | None, bytes | None]]:
        """Every record the key ring's topics still hold (the audit reads them)."""
        return self.ring.records()

    async def close(self) -> None:
        await self._cache.close()


class ApiKeyCache(Protocol):
    """Where API key records are cached (the Redis hash)."""

    async def put(self, key_id: str, record: bytes) -> None: ...

    async def get(self, key_id: str) -> bytes | None: ...

    async def close(self) -> None: ...


class LoggedApiKeyStore:
    """API key records: a Redis hash as the cache, the ``api-keys`` topic as the record.
    Nothing here is shredded (a revocation is a newer record), so one topic does."""

    def __init__(self, cache: ApiKeyCache, log: AdminLog, topic: TopicConfig) -> None:
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
