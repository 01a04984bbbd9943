"""The API process's stage pump: this process's stages, run one at a time.

On the embedded runtime the API derives what it receives: a background pump runs the
stages after publishes (gathered while they keep coming) and every second, and a read
runs them first when something was published since the last run (read-your-writes).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import structlog

from provmem.services.memory.memory import MemoryService

log = structlog.get_logger(__name__)
_PUMP_PERIOD_S = 1.0
_PUMP_GATHER_S = 0.25
_PUMP_GATHER_MAX_S = 2.0


class StagePump:
    """This process's pipeline stages, run one at a time. On the embedded runtime a
    background pump runs them after each publish (and every second), so subscribers see
    changes without anyone querying."""

    def __init__(self, memory: MemoryService, pumped: bool = False, follows: bool = False) -> None:
        self.memory = memory
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._pumped = pumped
        self.runs = pumped or follows  # a background task runs the stages (see pump)
        self._published, self._synced = 1, 0  # publishes seen; publishes a sync covered

    async def sync(self, force: bool = False) -> None:
        """Bring this process's views up to date before a read. With the pump running,
        a read after no new publish skips the run (the pump catches up on writes of
        other processes within a second)."""
        if self._pumped and not force and self._synced == self._published:
            return
        async with self._lock:
            covered = self._published
            await self.memory.sync()
            self._synced = covered

    async def exclusive(self, work: Awaitable[Any]) -> Any:
        """Run a memory call that syncs by itself, never alongside another sync."""
        async with self._lock:
            return await work

    def kick(self) -> None:
        self._published += 1
        self._wake.set()

    async def pump(self) -> None:
        """Run the stages after publishes and every second. Publishes are gathered while
        they keep coming (up to ``_PUMP_GATHER_MAX_S``), so that a stream of small
        publishes is derived in batches. On Kafka with a local index (``follows``) the
        same loop keeps that index up with the log, so an erasure's ERASE changes leave
        it within a second, whether or not anyone reads."""
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), _PUMP_PERIOD_S)
                await self._gather()
            except TimeoutError:
                pass
            self._wake.clear()
            try:
                await self.sync(force=True)
            except Exception:  # noqa: BLE001 - the pump must outlive one failed run
                log.exception("api.pump_failed")

    async def last_sync(self, timeout_s: float = 10.0) -> None:
        """A stopping process applies what the log holds for it (an erasure's changes
        above all) before it closes its stores; a broker gone away does not hold it up."""
        try:
            await asyncio.wait_for(self.sync(force=True), timeout_s)
        except Exception as error:  # noqa: BLE001 - stopping goes on; the next start syncs
            log.warning("api.last_sync_failed", error=type(error).__name__)

    async def _gather(self) -> None:
        """Wait until no publish came for ``_PUMP_GATHER_S`` (at most the max)."""
        deadline = asyncio.get_running_loop().time() + _PUMP_GATHER_MAX_S
        while self._wake.is_set() and asyncio.get_running_loop().time() < deadline:
            self._wake.clear()
            await asyncio.sleep(_PUMP_GATHER_S)


__all__ = ["StagePump"]
