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

from provmem.core.erasure import erasure_of
from provmem.core.events import FactChanged, FactOp
from provmem.core.ports import EventLog, FactViews, LogRecord
from provmem.core.scope import Scope, partition_for
from provmem.infra.log.record_keys import KeyPrint, is_keyed
from provmem.infra.log.sealed import record_keys
from provmem.services.api.auth import GrantDep, within
from provmem.streams.topics import FACT_CHANGES

EVENT = "fact-changed"
_BATCH = 200
_POLL_S = 0.2
_MAX_OFFSET = 2**63 - 1  # a Kafka offset is a signed 64-bit integer
_MAX_ITEMS = 1024


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
        items = text.split(",", _MAX_ITEMS)
        if len(items) > _MAX_ITEMS:
            raise ValueError(f"Last-Event-ID: more than {_MAX_ITEMS} partitions")
        for item in items:
            partition, offset = _numbers(item)
            if partition not in offsets:
                raise ValueError(f"Last-Event-ID: partition {partition} is not this scope's")
            offsets[partition] = offset
        return cls(offsets)


def _numbers(item: str) -> tuple[int, int]:
    """``partition:offset`` as two numbers in range; ValueError otherwise."""
    partition, _, offset = item.partition(":")
    digits = all(
        part.isascii() and part.isdigit() and len(part) <= 19 for part in (partition, offset)
    )
    if not digits or int(offset) > _MAX_OFFSET or int(partition) > _MAX_OFFSET:
        raise ValueError(f"Last-Event-ID: {item[:64]!r} is not 'partition:offset'")
    return int(partition), int(offset)


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
        cursor = Cursor.decode(last_event_id, partitions)
        for partition, offset in cursor.offsets.items():
            if offset > await log.end_offset(topic, partition):
                raise ValueError(
                    f"Last-Event-ID: offset {offset} of partition {partition} "
                    "is past the end of the log"
                )
        return cursor
    if start == "latest":
        return Cursor({p: await log.end_offset(topic, p) for p in partitions})
    return Cursor(dict.fromkeys(partitions, 0))


def _change(record: LogRecord) -> FactChanged | None:
    """The change a record carries; tombstones (compaction markers) carry none."""
    if record.value is None:
        return None
    try:
        return FACT_CHANGES.decode(record.value)
    except ValueError:
        return None


Known = dict[str, tuple[Scope, int]]
"""The live facts a stream knows: fact id -> (scope, version), what their ERASE needs."""


@dataclass
class _Stream:
    """What a stream knows, and the record key each known fact is erased under: a keyed
    fingerprint of its id (infra/log/record_keys.py), or, on an older log, the id itself."""

    printer: KeyPrint
    known: Known
    by_key: dict[bytes, str] = field(default_factory=dict)
    sent: dict[str, int] = field(default_factory=dict)  # fact id -> latest version sent

    @classmethod
    async def of(cls, log: EventLog, known: Known) -> _Stream:
        stream = cls(await record_keys(log).printer(), known)
        stream.by_key = {stream.printer(fact_id): fact_id for fact_id in known}
        return stream

    def add(self, fact_id: str, scope: Scope, version: int) -> None:
        self.known[fact_id] = (scope, version)
        self.by_key[self.printer(fact_id)] = fact_id

    def repeats(self, change: FactChanged) -> bool:
        """A version this stream has sent, again: a record appended again by an erasure's
        crypto-compaction (streams/erasure/log_compaction.py). Sent from now on otherwise."""
        if self.sent.get(change.fact_id, 0) >= change.version:
            return True
        self.sent[change.fact_id] = change.version
        return False

    def pop(self, fact_id: str) -> tuple[Scope, int] | None:
        self.by_key.pop(self.printer(fact_id), None)
        return self.known.pop(fact_id, None)

    def named(self, key: bytes) -> str:
        """The fact id a tombstone's key names (the key itself when it is no known one)."""
        plain = FACT_CHANGES.id_in(key)
        return self.by_key.get(key, plain) if is_keyed(key) else plain


def _delivered(record: LogRecord, scope: str, stream: _Stream) -> FactChanged | None:
    """The change to send for a record, if it is the scope's.

    An erasure writes an ERASE change and then a tombstone under the fact's key (a subject
    erasure on the embedded log the tombstone alone), and the embedded log compacts at
    once, so a reader may find only the tombstone; a record of a shredded subject reads as
    one too (infra/log/sealed.py). A tombstone of a fact this stream knows (delivered, or
    live when it started) becomes the ERASE it stands for; an ERASE is sent once,
    whichever of the two is read. A version the stream has sent is not sent again."""
    change = _change(record)
    if change is not None:
        if not within(change.scope.key, scope):
            return None
        if change.op is FactOp.ERASE:
            stream.pop(change.fact_id)
        elif change.fact is not None:
            if stream.repeats(change):
                return None
            stream.add(change.fact_id, change.scope, change.version)
        return change
    if record.value is not None:
        return None  # not a change this version reads
    fact_id = stream.named(record.key or b"")
    last = stream.pop(fact_id)
    return None if last is None else erasure_of(fact_id, last[0], last[1], "erasure")


def frame(event_id: str, change: FactChanged) -> str:
    return f"id: {event_id}\nevent: {EVENT}\ndata: {change.model_dump_json()}\n\n"


async def change_frames(
    log: EventLog,
    topic: str,
    scope: str,
    cursor: Cursor,
    heartbeat_s: float,
    known: Known | None = None,
) -> AsyncIterator[str]:
    """SSE frames for the scope's changes from ``cursor`` on, forever; a comment line
    (``: heartbeat``) whenever nothing was sent for ``heartbeat_s`` seconds. ``known``:
    the scope's facts when the stream starts (their erasure is streamed too)."""
    yield "retry: 1000\n\n"
    last_sent = time.monotonic()
    stream = await _Stream.of(log, dict(known or {}))
    while True:
        read_any = False
        for partition in sorted(cursor.offsets):
            records = await log.read(topic, partition, cursor.offsets[partition], _BATCH)
            read_any = read_any or bool(records)
            for record in records:
                cursor.offsets[partition] = record.offset + 1
                change = _delivered(record, scope, stream)
                if change is not None:
                    last_sent = time.monotonic()
                    yield frame(cursor.encode(), change)
        if time.monotonic() - last_sent >= heartbeat_s:
            last_sent = time.monotonic()
            yield ": heartbeat\n\n"
        if not read_any:
            await asyncio.sleep(min(_POLL_S, heartbeat_s))


async def facts_at_start(views: FactViews, prefix: str, cursor: Cursor) -> Known:
    """The scope's live facts where the stream starts, so that a stream started at the end
    (or resumed) streams the erasure of facts it never saw change: read from the views'
    index of fact versions by scope (a user scope's, or every user scope's of an
    organisation or a project), so a connect costs the scope's facts, not the topic's
    length. A stream from the beginning knows nothing yet and reads nothing here."""
    if not any(cursor.offsets.values()):
        return {}
    found = await views.versions_under(prefix)
    scopes = {key: Scope.parse(key) for key in {key for key, _ in found.values()}}
    return {fact_id: (scopes[key], version) for fact_id, (key, version) in found.items()}


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
        prefix = grant.prefix(scope)
        state = request.app.state.provmem
        log, topic = state.memory.components.log, state.memory.components.names.fact_changes
        partitions = scope_partitions(prefix, await log.partitions(topic))
        try:
            cursor = await start_cursor(log, topic, partitions, last_event_id, start)
        except ValueError as error:
            raise HTTPException(422, str(error)) from error
        views = state.memory.components.views
        known = await facts_at_start(views, prefix, cursor)
        heartbeat = state.settings.api_heartbeat_s
        frames = change_frames(log, topic, prefix, cursor, heartbeat, known)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(frames, media_type="text/event-stream", headers=headers)

    return router


__all__ = [
    "EVENT",
    "Cursor",
    "change_frames",
    "changes_router",
    "facts_at_start",
    "frame",
    "scope_partitions",
    "start_cursor",
]
