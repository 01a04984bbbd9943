"""Reading a whole partition of a log, the one loop every scan shares.

async for record in partition_records(log, "demo.turns", 0):
    ...
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from provmem.core.ports import EventLog, LogRecord

__all__ = ["partition_records"]

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
