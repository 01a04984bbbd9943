"""Fact-change subscriptions: Server-Sent Events read from the fact-changes topic.

A subscription names a scope (``org``, ``org/project`` or ``org/project/user``). A user
scope lives on one partition of the topic (``partition_for``); a wider scope reads every
partition. Each event's id is the subscription's cursor after that event: the next offset
of every partition it reads, ``"0:12,1:0,2:7,3:3"``. A client that reconnects with it as
``Last-Event-ID`` resumes exactly there, so a disconnect loses no change (and, since the
cursor advances only past delivered or filtered records, repeats none).

    async for frame in change_frames(log, names.fact_changes, "acme/support", cursor, 15):
        ...  # "id: ...\\nevent: fact-changed\\ndata: {FactChanged JSON}\\n\\n"
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Annotated, Literal

from fastapi import APIRouter, Header, HTTPException, Query, Request
from fastapi.responses import StreamingResponse

from ...core.erasure import erased
from ...core.events import FactChanged
from ...core.ports import EventLog, LogRecord
from ...core.scope import partition_for
from ...streams.topics import FACT_CHANGES
from ..api.auth import GrantDep, scope_prefix, within

EVENT = "fact-changed"
_BATCH = 200
_POLL_S = 0.2


@dataclass
class Cursor:
    """The next offset to read, per partition of the fact-changes topic."""

    offsets: dict[int, int] = field(default_factory=dict)

    def encode(self) -> str:
        return ",".join(f"{p}:{o}" for p, o in sorted(self.offsets.items()))

    @classmethod
    def decode(cls, text: str, partitions: list[int]) -> Cursor:
        """Parse a Last-Event-ID for these partitions; ValueError says what is wrong."""
        offsets = dict.fromkeys(partitions, 0)
        for item in text.split(","):
            partition, _, offset = item.partition(":")
            if not (partition.isdigit() and offset.isdigit()):
                raise ValueError(f"Last-Event-ID: {item!r} is not 'partition:offset'")
            if int(partition) not in offsets:
                raise ValueError(f"Last-Event-ID: partition {partition} is not this scope's")
            offsets[int(partition)] = int(offset)
        return cls(offsets)


def scope_partitions(scope: str, count: int) -> list[int]:
    """The partitions a scope's changes are on: one for a user scope, else all."""
    if scope.count("/") == 2:
        return [partition_for(scope, count)]
    return list(range(count))


async def start_cursor(
    log: EventLog, topic: str, partitions: list[int], last_event_id: str | None, start: str
) -> Cursor:
    """Where a subscription starts: the Last-Event-ID, else the beginning or the end."""
    if last_event_id:
        return Cursor.decode(last_event_id, partitions)
    if start == "latest":
        return Cursor({p: await log.end_offset(topic, p) for p in partitions})
    return Cursor(dict.fromkeys(partitions, 0))


def _change(record: LogRecord) -> FactChanged | None:
    """The change a record carries; tombstones (compaction markers) carry none."""
    if record.value is None:
        return None
    try:
        change = FACT_CHANGES.decode(record.value)
    except ValueError:
        return None
    return change if isinstance(change, FactChanged) else None


def _delivered(record: LogRecord, scope: str, known: dict[str, FactChanged]) -> FactChanged | None:
    """The change to send for a record, if it is the scope's.

    An erasure writes an ERASE change and then a tombstone under the fact id; the embedded
    log compacts at once, so a reader may find only the tombstone. A tombstone of a fact
    this stream delivered (so of its scope) becomes the ERASE it stands for."""
    change = _change(record)
    if change is not None:
        if not within(change.scope.key, scope):
            return None
        known[change.fact_id] = change
        return change
    fact_id = (record.key or b"").decode("utf-8", "replace")
    last = known.get(fact_id)
    if record.value is not None or last is None or last.fact is None:
        return None
    known[fact_id] = erased(last.fact, "erasure")
    return known[fact_id]


def frame(event_id: str, change: FactChanged) -> str:
    return f"id: {event_id}\nevent: {EVENT}\ndata: {change.model_dump_json()}\n\n"


async def change_frames(
    log: EventLog, topic: str, scope: str, cursor: Cursor, heartbeat_s: float
) -> AsyncIterator[str]:
    """SSE frames for the scope's changes from ``cursor`` on, forever; a comment line
    (``: heartbeat``) whenever nothing was sent for ``heartbeat_s`` seconds."""
    yield "retry: 1000\n\n"
    last_sent = time.monotonic()
    known: dict[str, FactChanged] = {}
    while True:
        read_any = False
        for partition in sorted(cursor.offsets):
            records = await log.read(topic, partition, cursor.offsets[partition], _BATCH)
            read_any = read_any or bool(records)
            for record in records:
                cursor.offsets[partition] = record.offset + 1
                change = _delivered(record, scope, known)
                if change is not None:
                    last_sent = time.monotonic()
                    yield frame(cursor.encode(), change)
        if time.monotonic() - last_sent >= heartbeat_s:
            last_sent = time.monotonic()
            yield ": heartbeat\n\n"
        if not read_any:
            await asyncio.sleep(min(_POLL_S, heartbeat_s))


def changes_router() -> APIRouter:
    """``GET /v1/scopes/{scope}/changes``: the SSE route."""
    router = APIRouter(tags=["subscriptions"])

    @router.get(
        "/v1/scopes/{scope:path}/changes",
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}}},
    )
    async def changes(
        request: Request,
        scope: str,
        grant: GrantDep,
        start: Annotated[Literal["earliest", "latest"], Query()] = "earliest",
        last_event_id: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
    ) -> StreamingResponse:
        """Server-Sent Events: the scope's fact changes (FactChanged v1 as ``data``), from
        the beginning, the end (``start=latest``) or a ``Last-Event-ID``; heartbeats are
        comment lines."""
        try:
            prefix = scope_prefix(scope)
        except ValueError as error:
            raise HTTPException(422, str(error)) from error
        if not grant.allows(prefix):
            raise HTTPException(403, f"scope {prefix}: not permitted for this API key")
        state = request.app.state.provmem
        log, topic = state.memory.components.log, state.memory.components.names.fact_changes
        partitions = scope_partitions(prefix, await log.partitions(topic))
        try:
            cursor = await start_cursor(log, topic, partitions, last_event_id, start)
        except ValueError as error:
            raise HTTPException(422, str(error)) from error
        frames = change_frames(log, topic, prefix, cursor, state.settings.api_heartbeat_s)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(frames, media_type="text/event-stream", headers=headers)

    return router


__all__ = [
    "EVENT",
    "Cursor",
    "change_frames",
    "changes_router",
    "frame",
    "scope_partitions",
    "start_cursor",
]
