"""Key-ring generations: the data-keys topic rewritten without what was shredded.

A tombstone on a compacted topic hides a shredded data key from readers, but the record
that wrapped it stays on the broker until the log cleaner drops it, and Tansu never does:
anyone with the master key could unwrap it and open the subject's sealed records. So the
key ring lives in *generations*: topic ``<prefix>.data-keys`` is generation 0, topic
``<prefix>.data-keys-gN`` generation N. A shredding (:meth:`KeyRing.shred`):

1. appends the key's tombstone to the current generation (readers see it at once);
2. writes every live key of the current generation into generation max+1, then a
   *marker* record (key :data:`MARKER`) that completes it;
3. copies what was appended to the old generation meanwhile (a new subject's key) that
   the new one lacks, then deletes every older generation topic, its records with it.

Readers use the newest *complete* generation (generation 0 always is). A crash before the
marker leaves the old generation authoritative and the half-written one is deleted by
the next rewrite; a crash after it leaves old generations that the next shredding (or
the re-run of the interrupted erasure: :meth:`KeyRing.pending`) merges and deletes.
Rewrites and replacements run under one lock (a Redis lock on the distributed runtime).
A new key is appended without it, to the current generation, then again to the newest
one if a rewrite switched generations meanwhile: together with step 3 nothing appended
is lost, whichever of the two sees the other's write.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, replace
from typing import Protocol

import structlog

from provmem.core.ports import Append, EventLog, TopicAdmin, TopicConfig

__all__ = ["MARKER", "AdminLog", "KeyRing", "LogTable", "generation_topics"]

_log = structlog.get_logger(__name__)
#: The key of the record that completes a generation (no key id looks like it).
MARKER = "key-ring-generation-complete"
_PAGE = 1000


class AdminLog(EventLog, TopicAdmin, Protocol):
    """A log whose topics can be listed and deleted."""


Lock = Callable[[], AbstractAsyncContextManager[None]]


class LogTable:
    """The latest value of every key on one topic, kept up to date incrementally."""

    def __init__(self, log: EventLog, topic: TopicConfig) -> None:
        self.log = log
        self.config = topic
        self._latest: dict[str, bytes | None] = {}
        self._next: dict[int, int] = {}
        self._ensured = False

    async def _ensure(self) -> None:
        if not self._ensured:
            await self.log.ensure_topics([self.config])
            self._ensured = True

    async def read(self) -> dict[str, bytes | None]:
        """Every key's latest value (None: tombstoned), after reading what is new."""
        await self._ensure()
        for partition in range(await self.log.partitions(self.config.name)):
            start = self._next.get(partition, 0)
            while page := await self.log.read(self.config.name, partition, start, _PAGE):
                for record in page:
                    if record.key is not None:
                        self._latest[record.key.decode("utf-8")] = record.value
                start = page[-1].offset + 1
            self._next[partition] = start
        return self._latest

    async def write(self, key: str, value: bytes | None) -> None:
        await self.write_many([(key, value)])

    async def write_many(self, items: Iterable[tuple[str, bytes | None]]) -> None:
        records = [Append(0, key.encode("utf-8"), value) for key, value in items]
        if records:
            await self._ensure()
            await self.log.append(self.config.name, records)
            self._latest.update((r.key.decode("utf-8"), r.value) for r in records if r.key)


def generation_topics(base: str, topics: Iterable[str]) -> dict[int, str]:
    """The generations of topic ``base`` among ``topics``: number -> topic name."""
    pattern = re.compile(re.escape(base) + r"(?:-g([1-9][0-9]*))?")
    found = {}
    for name in topics:
        if (matched := pattern.fullmatch(name)) is not None:
            found[int(matched.group(1) or 0)] = name
    return found


@dataclass(frozen=True)
class _Generation:
    number: int
    table: LogTable


class KeyRing:
    """The key records of the newest complete generation of one topic (see the module)."""

    def __init__(self, log: AdminLog, base: TopicConfig, lock: Lock) -> None:
        self.log = log
        self.base = base
        self._lock = lock
        self._tables: dict[int, LogTable] = {}

    def _table(self, number: int) -> LogTable:
        if number not in self._tables:
            name = self.base.name if number == 0 else f"{self.base.name}-g{number}"
            self._tables[number] = LogTable(self.log, replace(self.base, name=name))
        return self._tables[number]

    async def _existing(self) -> dict[int, str]:
        return generation_topics(self.base.name, await self.log.topics())

    async def _complete(self, number: int) -> bool:
        return number == 0 or MARKER in await self._table(number).read()

    async def current(self) -> _Generation:
        """The newest complete generation (a fresh look at the log's topics)."""
        for number in sorted(await self._existing(), reverse=True):
            if await self._complete(number):
                return _Generation(number, self._table(number))
        return _Generation(0, self._table(0))

    async def read(self) -> dict[str, bytes | None]:
        """Every key id's latest record on the current generation (None: shredded)."""
        table = await (await self.current()).table.read()
        return {k: v for k, v in table.items() if k != MARKER}

    async def add(self, key: str, value: bytes) -> None:
        """Record a new key: on the current generation, then on the newest one until
        no rewrite switched generations in between (see the module docstring)."""
        written = await self.current()
        await written.table.write(key, value)
        while (now := await self.current()).number != written.number:
            written = now
            if (await now.table.read()).get(key) != value:
                await now.table.write(key, value)

    async def replace(self, key: str, value: bytes) -> None:
        async with self._lock():
            await (await self.current()).table.write(key, value)

    async def shred(self, key: str) -> None:
        """Tombstone ``key``, then rewrite the ring without it (one rewrite per call)."""
        async with self._lock():
            await (await self.current()).table.write(key, None)
            await self._rewrite()

    async def rewrite(self) -> None:
        """A new generation of the live keys; the older ones deleted."""
        async with self._lock():
            await self._rewrite()

    async def pending(self) -> bool:
        """Whether a shredded key's record may still be on the log: the current
        generation holds a tombstone, or an older generation is still there."""
        current, existing = await self.current(), await self._existing()
        tombstoned = None in (await current.table.read()).values()
        return tombstoned or any(n != current.number for n in existing)

    async def finish(self) -> None:
        """Complete what a crash interrupted (:meth:`pending`): a rewrite, which merges
        and deletes every other generation, a half-written newer one included."""
        await self.rewrite()

    async def _rewrite(self) -> None:
        source = await self.current()
        await self._retire(source)  # an interrupted switch to it finished first
        live = {k: v for k, v in (await source.table.read()).items() if v is not None}
        live.pop(MARKER, None)
        number = max(await self._existing(), default=0) + 1
        target = self._table(number)
        await target.write_many(sorted(live.items()))
        await target.write(MARKER, str(number).encode())
        _log.info("key_ring.rewritten", generation=number, keys=len(live))
        await self._retire(_Generation(number, target))

    async def _retire(self, current: _Generation) -> None:
        """Copy the keys an older complete generation gained after the rewrite read it
        (absent from the current one, live there), then delete every older one."""
        existing = await self._existing()
        older = sorted((n for n in existing if n < current.number), reverse=True)
        for number in older:
            if await self._complete(number):
                await self._merge(self._table(number), current.table)
                break  # the generation the rewrite read; older ones were merged before
        await self.log.delete_topics([existing[n] for n in older])
        for number in older:
            self._tables.pop(number, None)

    async def _merge(self, source: LogTable, target: LogTable) -> None:
        have = await target.read()
        gained = [(k, v) for k, v in (await source.read()).items() if k not in have and v]
        await target.write_many(gained)

    async def records(self) -> AsyncIterator[tuple[str, bytes | None, bytes | None]]:
        """Every record every generation still holds (the audit: a shredded key's
        wrapped copy must be on none), as (location, key, value)."""
        for _, name in sorted((await self._existing()).items()):
            for partition in range(await self.log.partitions(name)):
                offset = 0
                while page := await self.log.read(name, partition, offset, _PAGE):
                    offset = page[-1].offset + 1
                    for record in page:
                        yield f"log:{name}[{partition}]@{record.offset}", record.key, record.value


def local_lock() -> Lock:
    """A lock for one process (a log no other process writes the key ring of)."""
    import asyncio

    mutex = asyncio.Lock()

    @asynccontextmanager
    async def held() -> AsyncIterator[None]:
        async with mutex:
            yield

    return held
