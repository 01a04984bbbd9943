"""Erasure requests: the one decoder, and the routes from a request to its cascade.

A request is filed on the erasure-requests topic (services/memory/memory.py). Then:

- embedded runtime: :class:`ErasureStage` reads the topic and runs each request in the
  process (:class:`~provmem.streams.erasure.eraser.Eraser`);
- distributed runtime: the gate state of a scope lives with the derive agent that owns
  its turns partition, so :class:`ErasureRouter` re-files each request as a *control
  record* on that partition (:func:`control_record`), after the scope's earlier turns;
  :class:`ScopeRecords` (the derive agent's handler) meets it in order and runs the
  cascade up to the control record's offset, then tombstones it.

Every reader of a request, here and at the service edge, decodes it with
:func:`erasure_request_in`.
"""

from __future__ import annotations

from collections.abc import Sequence

import structlog

from provmem.core.events import ErasureRequested
from provmem.core.ports import Append, LogRecord
from provmem.core.scope import partition_for
from provmem.streams.erasure.eraser import Eraser
from provmem.streams.outcome import Outcome, Outgoing
from provmem.streams.pipeline import CONTROL_PREFIX, Deriver
from provmem.streams.topics import ERASURE_REQUESTS, TopicNames

log = structlog.get_logger(__name__)


def erasure_request_in(record: LogRecord) -> ErasureRequested | None:
    """The erasure request a record carries (one of the erasure-requests topic, or a
    control record): None for a tombstone, and for a value that does not decode (a
    warning names the record and the reason)."""
    if record.value is None:
        return None
    try:
        return ERASURE_REQUESTS.decode(record.value)
    except ValueError as error:
        where = {"topic": record.topic, "partition": record.partition, "offset": record.offset}
        log.warning("erasure.undecodable", **where, reason=str(error))
        return None


def control_record(request: ErasureRequested, partitions: int) -> Append:
    """The request as a control record on its scope's turns partition: it lands after
    the scope's turns, in the order the partition's derive agent handles them."""
    return Append(
        partition_for(request.scope.key, partitions),
        CONTROL_PREFIX + ERASURE_REQUESTS.key(request),
        ERASURE_REQUESTS.encode(request),
    )


def is_control(key: bytes | None) -> bool:
    """Whether a turns-topic key is an erasure control record's."""
    return key is not None and key.startswith(CONTROL_PREFIX)


class ErasureStage:
    """Embedded: erasure requests from the topic -> the cascade (each once, by its id)."""

    def __init__(self, eraser: Eraser) -> None:
        self.eraser = eraser

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        for record in records:
            request = erasure_request_in(record)
            if request is not None:
                await self.eraser.erase(request)
        return Outcome()


class ErasureRouter:
    """Distributed: erasure requests -> control records on the turns topic."""

    def __init__(self, names: TopicNames, partitions: int) -> None:
        self.names = names
        self.partitions = partitions

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        outcome = Outcome()
        for record in records:
            request = erasure_request_in(record)
            if request is not None:
                append = control_record(request, self.partitions)
                outcome.outgoing.append(Outgoing(self.names.turns, append))
        return outcome


class ScopeRecords:
    """Distributed: the records of a turns partition. Turns go to the deriver, erasure
    control records to the cascade, which runs against the same gate state."""

    def __init__(self, deriver: Deriver, eraser: Eraser) -> None:
        self.deriver = deriver
        self.eraser = eraser

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        """Each record in order: a turn against the state the earlier ones left, a control
        record runs the cascade up to its own offset."""
        outcome = Outcome()
        for record in records:
            outcome.merge(await self._handle_record(record, outcome.state))
        return outcome

    async def _handle_record(self, record: LogRecord, pending: dict[str, bytes]) -> Outcome:
        if not is_control(record.key):
            return await self.deriver.handle_record(record, pending)
        request = erasure_request_in(record)
        if request is None:
            return Outcome()  # the control record's tombstone, or one that does not decode
        receipt = await self.eraser.erase(request, until=record.offset)
        log.info("erasure.completed", request_id=request.request_id, residue=receipt.residue_found)
        done = Append(record.partition, record.key or b"", None)  # the compacted log drops it
        return Outcome([Outgoing(record.topic, done)])
