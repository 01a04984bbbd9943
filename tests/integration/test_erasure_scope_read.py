"""An erasure reads the whole of its scope's turns before it re-derives the scope.

A Kafka fetch under load can come back empty before the partition's end; read as the end,
the cascade would re-derive the scope from part of its turns and erase the facts of the
turns it did not read. Before the request's own record, an empty read is read again, and
a read that stays empty fails the erasure instead."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from provmem.config import Settings
from provmem.core.ports import EventLog, LogRecord
from provmem.core.scope import partition_for
from provmem.services.memory.memory import MemoryService
from provmem.streams.erasure.cascade import READ_TRIES, ScopeReadStalled, scope_log
from provmem.streams.runtime.components import build
from tests.harness import SCOPE, said

TURNS = [said(f"t{i}", f"I keep {i} plants on the balcony.", minute=i) for i in range(3)]


@dataclass
class StallingLog:
    """The real log, whose first ``stalls`` reads of a partition come back empty."""

    inner: EventLog
    stalls: int
    reads: int = 0

    async def read(self, topic: str, partition: int, start: int, limit: int) -> list[LogRecord]:
        self.reads += 1
        if self.stalls > 0:
            self.stalls -= 1
            return []
        return await self.inner.read(topic, partition, start, limit)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


async def _scope_read(folder: Path, stalls: int) -> tuple[int, StallingLog, int]:
    memory = MemoryService(await build(Settings(data_dir=folder, partitions=2)))
    try:
        await memory.publish(TURNS)
        await memory.sync()
        deps = memory.eraser.deps
        partition = partition_for(SCOPE, deps.settings.partitions)
        until = await deps.log.end_offset(deps.names.turns, partition)
        stalling = StallingLog(deps.log, stalls)
        scan = await scope_log(replace(deps, log=stalling), SCOPE, until)
        return len(scan.turns), stalling, until
    finally:
        await memory.components.close()


async def test_a_stalled_read_before_the_request_is_read_again(tmp_path: Path) -> None:
    turns, stalling, _ = await _scope_read(tmp_path, stalls=READ_TRIES - 1)
    assert turns == len(TURNS)  # every turn read, none left out by the empty reads
    assert stalling.reads > READ_TRIES - 1


async def test_a_read_that_stays_empty_fails_the_erasure(tmp_path: Path) -> None:
    with pytest.raises(ScopeReadStalled, match="nothing read at offset 0"):
        await _scope_read(tmp_path, stalls=READ_TRIES)
