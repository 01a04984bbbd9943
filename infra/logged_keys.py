"""Wrapped data keys that survive the loss of their cache: the log is their record.

On the distributed runtime Redis is a view, not a store of record (here it keeps nothing
on disk). Losing the wrapped per-subject data keys with it would shred every subject's
evidence by accident, so every key change is also appended to the compacted ``data-keys``
topic (key: the key id; value: the key wrapped under the master key; a tombstone when a
subject is crypto-shredded). Reads go to the cache; a miss is answered from the log, read
incrementally, and written back to the cache.
"""

from __future__ import annotations

from ..core.ports import Append, EventLog, KeyStore

_PAGE = 1000


class LoggedKeyStore:
    """A :class:`KeyStore` cache (Redis) whose every change is recorded on a log topic."""

    def __init__(self, cache: KeyStore, log: EventLog, topic: str) -> None:
        self._cache = cache
        self._log = log
        self._topic = topic
        self._recorded: dict[str, bytes | None] = {}
        self._next: dict[int, int] = {}

    async def get(self, key_id: str) -> bytes | None:
        cached = await self._cache.get(key_id)
        if cached is not None:
            return cached
        recorded = (await self._read_log()).get(key_id)
        if recorded is None:
            return None
        return await self._cache.put_if_absent(key_id, recorded)

    async def put_if_absent(self, key_id: str, wrapped: bytes) -> bytes:
        existing = await self.get(key_id)
        if existing is not None:
            return existing
        stored = await self._cache.put_if_absent(key_id, wrapped)
        if stored == wrapped:  # this process created it: record it
            await self._record(key_id, wrapped)
        return stored

    async def key_ids(self) -> list[str]:
        live = {k for k, v in (await self._read_log()).items() if v is not None}
        return sorted(live | set(await self._cache.key_ids()))

    async def destroy(self, key_id: str) -> bool:
        recorded = (await self._read_log()).get(key_id) is not None
        cached = await self._cache.destroy(key_id)
        if recorded or cached:
            await self._record(key_id, None)
        return recorded or cached

    async def replace(self, key_id: str, wrapped: bytes) -> None:
        await self._cache.replace(key_id, wrapped)
        await self._record(key_id, wrapped)

    async def close(self) -> None:
        await self._cache.close()

    async def _record(self, key_id: str, wrapped: bytes | None) -> None:
        await self._log.append(self._topic, [Append(0, key_id.encode("utf-8"), wrapped)])
        self._recorded[key_id] = wrapped

    async def _read_log(self) -> dict[str, bytes | None]:
        """The latest record of every key id on the topic (None: destroyed)."""
        for partition in range(await self._log.partitions(self._topic)):
            start = self._next.get(partition, 0)
            while page := await self._log.read(self._topic, partition, start, _PAGE):
                for record in page:
                    if record.key is not None:
                        self._recorded[record.key.decode("utf-8")] = record.value
                start = page[-1].offset + 1
            self._next[partition] = start
        return self._recorded
