"""Where a facade's calls go: this process's runtime (``Embedded``) or a server through the
SDK (``Remote``). Both answer with the service's own result models.

Heavy modules (the runtime's stores, the embedding model) are imported when an embedded
backend opens, never when the facade is imported.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol

from provmem.core.events import ErasureCompleted, Fact, FactChanged
from provmem.services.memory.results import (
    ActionResult,
    ErasureQueued,
    EvidenceQuote,
    FactDetail,
    PublishResult,
    Recollection,
)

if TYPE_CHECKING:
    from provmem.config import Settings
    from provmem.services.memory.memory import MemoryService

Verb = Literal["correct", "retract", "approve", "reject"]
Start = Literal["earliest", "latest"]
BATCH = 1000
_PUMP_S = 0.5


class Backend(Protocol):
    async def publish(self, turns: Sequence[Mapping[str, Any]]) -> list[PublishResult]: ...

    async def query(
        self, scope: str, text: str, limit: int, budget: int | None, **fit: Any
    ) -> Recollection: ...

    async def facts(self, scope: str) -> list[Fact]: ...

    async def fact(self, fact_id: str) -> FactDetail | None: ...

    async def evidence(
        self, scope: str, evidence_ids: Sequence[str]
    ) -> list[EvidenceQuote | None]: ...

    async def review(self, scope: str) -> list[FactDetail]: ...

    async def erase(
        self, scope: str, what: Mapping[str, Any]
    ) -> ErasureCompleted | ErasureQueued: ...

    async def act(self, verb: Verb, fact_id: str, body: Mapping[str, Any]) -> ActionResult: ...

    def changes(self, scope: str, start: Start) -> AsyncIterator[FactChanged]: ...

    async def close(self) -> None: ...


class Embedded:
    """This process runs the pipeline: a read first derives what was published (here or
    by another process on the same folder), so every read sees every write before it."""

    def __init__(self, memory: MemoryService) -> None:
        self.memory = memory
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, settings: Settings) -> Embedded:
        from provmem.services.memory.memory import MemoryService
        from provmem.streams.runtime.components import build

        return cls(MemoryService(await build(settings)))

    async def _catch_up(self) -> None:
        if self.memory.components.runtime.derives_in_workers:
            await self.memory.settle()
        else:
            await self.memory.sync()

    async def publish(self, turns: Sequence[Mapping[str, Any]]) -> list[PublishResult]:
        async with self._lock:
            return await in_batches(self.memory.publish, turns)

    async def query(
        self, scope: str, text: str, limit: int, budget: int | None, **fit: Any
    ) -> Recollection:
        async with self._lock:
            await self._catch_up()
            return await self.memory.query(scope, text, limit, budget=budget, **fit)

    async def facts(self, scope: str) -> list[Fact]:
        async with self._lock:
            await self._catch_up()
            return await self.memory.facts(scope)

    async def fact(self, fact_id: str) -> FactDetail | None:
        async with self._lock:
            await self._catch_up()
            return await self.memory.fact(fact_id)

    async def evidence(self, scope: str, evidence_ids: Sequence[str]) -> list[EvidenceQuote | None]:
        async with self._lock:
            await self._catch_up()
            return [await self.memory.evidence(i, scope) for i in evidence_ids]

    async def review(self, scope: str) -> list[FactDetail]:
        async with self._lock:
            await self._catch_up()
            return await self.memory.review_queue(scope)

    async def erase(self, scope: str, what: Mapping[str, Any]) -> ErasureCompleted | ErasureQueued:
        from provmem.services.erasure.subject import erasure_request

        request = erasure_request(
            scope,
            list(what.get("evidence_ids", [])),
            what.get("session"),
            bool(what.get("subject")),
            str(what.get("reason", "")),
        )
        async with self._lock:
            await self._catch_up()
            return await self.memory.file_erasure(request)

    async def act(self, verb: Verb, fact_id: str, body: Mapping[str, Any]) -> ActionResult:
        async with self._lock:
            await self._catch_up()
            result: ActionResult = await getattr(self.memory, verb)(fact_id, **body)
            return result

    async def changes(self, scope: str, start: Start) -> AsyncIterator[FactChanged]:
        """The scope's fact changes from the log; while someone listens, the pipeline is
        run every half second so that changes of new turns arrive without a read. The
        scope's facts where the stream starts are known to it, as on the HTTP stream
        (services/api/changes.py): one erased while it runs comes as an ERASE,
        also when the stream started after the fact was made (``start="latest"``)."""
        from provmem.services.api.changes import (
            change_frames,
            facts_at_start,
            scope_partitions,
            start_cursor,
        )

        c = self.memory.components
        topic = c.names.fact_changes
        partitions = scope_partitions(scope, await c.log.partitions(topic))
        async with self._lock:  # the views up to the log's end, then the start there
            await self._catch_up()
            cursor = await start_cursor(c.log, topic, partitions, None, start)
            known = await facts_at_start(c.views, scope, cursor)
        pump = asyncio.create_task(self._pump())
        try:
            async for frame in change_frames(c.log, topic, scope, cursor, 3600.0, known):
                change = frame_change(frame)
                if change is not None:
                    yield change
        finally:
            pump.cancel()
            await asyncio.gather(pump, return_exceptions=True)

    async def _pump(self) -> None:
        while True:
            async with self._lock:
                await self._catch_up()
            await asyncio.sleep(_PUMP_S)

    async def close(self) -> None:
        async with self._lock:
            await self.memory.components.close()


async def in_batches(
    publish: Callable[[Sequence[Mapping[str, Any]]], Awaitable[list[PublishResult]]],
    turns: Sequence[Mapping[str, Any]],
) -> list[PublishResult]:
    """``turns`` published ``BATCH`` at a time (a call takes at most that many); each
    result's index is its turn's in ``turns``."""
    results: list[PublishResult] = []
    for start in range(0, len(turns), BATCH):
        batch = await publish(turns[start : start + BATCH])
        results.extend(r.model_copy(update={"index": r.index + start}) for r in batch)
    return results


def frame_change(frame: str) -> FactChanged | None:
    """The FactChanged of a Server-Sent Events frame (None for comments and retry)."""
    for line in frame.splitlines():
        if line.startswith("data: "):
            return FactChanged.model_validate_json(line.removeprefix("data: "))
    return None


class Remote:
    """A provmem server through the SDK (``provmem api``): the server derives and keeps
    read-your-writes for its clients."""

    def __init__(self, url: str, api_key: str | None) -> None:
        from provmem.services.sdk.client import AsyncMemoryClient

        self.client = AsyncMemoryClient(url, api_key=api_key)

    async def publish(self, turns: Sequence[Mapping[str, Any]]) -> list[PublishResult]:
        return await in_batches(self.client.publish, turns)

    async def query(
        self, scope: str, text: str, limit: int, budget: int | None, **fit: Any
    ) -> Recollection:
        return await self.client.query(scope, text, limit, budget=budget, **fit)

    async def facts(self, scope: str) -> list[Fact]:
        return await self.client.facts(scope)

    async def fact(self, fact_id: str) -> FactDetail | None:
        from provmem.services.sdk.client import MemoryApiError

        try:
            return await self.client.fact(fact_id)
        except MemoryApiError as error:
            if error.status == 404:
                return None
            raise

    async def evidence(self, scope: str, evidence_ids: Sequence[str]) -> list[EvidenceQuote | None]:
        """The server answers only for the key's own org; the scope is not re-checked."""
        from provmem.services.sdk.client import MemoryApiError

        found: list[EvidenceQuote | None] = []
        for evidence_id in evidence_ids:
            try:
                found.append(await self.client.evidence(evidence_id))
            except MemoryApiError as error:
                if error.status != 404:
                    raise
                found.append(None)
        return found

    async def review(self, scope: str) -> list[FactDetail]:
        return await self.client.review(scope)

    async def erase(self, scope: str, what: Mapping[str, Any]) -> ErasureCompleted | ErasureQueued:
        receipt = await self.client.erase(scope, **what)
        if not isinstance(receipt, ErasureCompleted | ErasureQueued):
            raise TypeError(f"erase {scope}: expected one receipt, got {type(receipt).__name__}")
        return receipt

    async def act(self, verb: Verb, fact_id: str, body: Mapping[str, Any]) -> ActionResult:
        result: ActionResult = await getattr(self.client, verb)(fact_id, **body)
        return result

    async def changes(self, scope: str, start: Start) -> AsyncIterator[FactChanged]:
        async for change in self.client.subscribe(scope, start=start):
            yield change

    async def close(self) -> None:
        await self.client.aclose()


__all__ = ["Backend", "Embedded", "Remote", "Start", "Verb", "frame_change"]
