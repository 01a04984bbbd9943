"""Reading a whole partition of a log, the one loop every scan shares.

async for record in partition_records(log, "demo.turns", 0):
    ...
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol, runtime_checkable

from provmem.core.ports import EventLog, LogRecord

__all__ = ["ScopedReads", "partition_records", "scope_records"]

BATCH = 1000


async def partition_records(
    log: EventLog, topic: str, partition: int, start: int = 0
) -> AsyncIterator[LogRecord]:
    """Every record of the partition from offset ``start`` on, in log order."""
    offset = start
    while batch := await log.read(topic, partition, offset, BATCH):
        offset = batch[-1].offset + 1
        for record in batch:
            yield record


@runtime_checkable
class ScopedReads(Protocol):
    """A log that reads one scope's records of a partition (and those that show no
    scope) without the rest: the embedded log (infra/log/embedded.py ``read_scope``)."""

    async def read_scope(
        self, topic: str, partition: int, scope_key: str, start: int, limit: int
    ) -> list[LogRecord]: ...


async def scope_records(
    log: EventLog, topic: str, partition: int, scope_key: str, start: int = 0
) -> AsyncIterator[LogRecord]:
    """The records of the partition that a reader of scope ``scope_key`` alone needs, in
    log order: its own and those that show no scope (tombstones, unsealed records) where
    the log reads by scope, else every record (the caller skips other scopes')."""
    if not isinstance(log, ScopedReads):
        async for record in partition_records(log, topic, partition, start):
            yield record
        return
    offset = start
    while batch := await log.read_scope(topic, partition, scope_key, offset, BATCH):
        offset = batch[-1].offset + 1
        for record in batch:
            yield record
