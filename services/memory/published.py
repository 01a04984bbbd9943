"""What is on the turns log: the deduplication of capture, derived from the log itself.

Capture reserves nothing. A turn is a duplicate when its evidence id is on the log,
and the log is read in two parts: the evidence store holds every turn the derive stage
has handled (it stores a turn before it commits past it), and the tail of the partition
beyond the derive group's committed offset holds the rest. So no claim can outlive a
failed append (there is none), and a crash at any point of capture leaves exactly what
the log says: a turn on the log is a duplicate on retry, a turn not on it is accepted.

The tail read is cached per partition and extended from where it ended; entries the
derive stage has since committed past are dropped (the store answers for them). On an
embedded folder one batch's look-up and append are one step for every process (the
folder's capture lock, services/memory/memory.py), so a turn given to two processes at
once is accepted once. On Kafka two processes publishing the same turn at the same
instant may both append it: derivation is idempotent by evidence id (design.md,
property 1), so the second copy changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from provmem.core.events import TurnRecorded
from provmem.infra.log.sealed import record_keys
from provmem.streams.pipeline import CONTROL_PREFIX
from provmem.streams.runtime.components import Components
from provmem.streams.topics import TURNS

_READ = 1024


@dataclass
class _Tail:
    """The record keys of one partition from ``start`` to ``end``: key -> (offset of its
    last record, False when that record is a tombstone: the turn was erased). A key is
    the keyed fingerprint of the evidence id (infra/log/record_keys.py), or, on a log written
    before keyed keys, the id itself: both are looked up."""

    start: int = 0
    end: int = 0
    offsets: dict[bytes, tuple[int, bool]] = field(default_factory=dict)

    def entry(self, forms: tuple[bytes, ...]) -> tuple[int, bool] | None:
        """The latest entry under any of an id's key forms."""
        found = [self.offsets[form] for form in forms if form in self.offsets]
        return max(found) if found else None


class PublishedTurns:
    """Which evidence ids are on the turns log, and with which content hash."""

    def __init__(self, components: Components) -> None:
        self._components = components
        self._keys = record_keys(components.log)
        self._tails: dict[int, _Tail] = {}

    async def content_hashes(self, partition: int, evidence_ids: Iterable[str]) -> dict[str, str]:
        """The content hash of each of ``evidence_ids`` that is on the log."""
        tail = await self._tail(partition)
        found: dict[str, str] = {}
        for evidence_id in evidence_ids:
            recorded = await self._recorded(partition, tail, evidence_id)
            if recorded is not None:
                found[evidence_id] = recorded.content_hash
        return found

    async def appended(self, partition: int, evidence_id: str, offset: int) -> None:
        """Note a record this process appended (so the next batch sees it unread)."""
        tail = self._tails.get(partition)
        if tail is not None and offset == tail.end:
            tail.offsets[(await self._keys.printer())(evidence_id)] = (offset, True)
            tail.end = offset + 1

    async def _recorded(self, partition: int, tail: _Tail, evidence_id: str) -> TurnRecorded | None:
        printer = await self._keys.printer()
        entry = tail.entry((printer(evidence_id), TURNS.key_for(evidence_id)))
        if entry is not None:
            offset, live = entry
            return await self._read_turn(partition, offset) if live else None
        return await self._components.evidence.get(evidence_id)

    async def _read_turn(self, partition: int, offset: int) -> TurnRecorded | None:
        (record,) = await self._components.log.read(
            self._components.names.turns, partition, offset, 1
        )
        if record.value is None:
            return None
        return TURNS.decode(record.value)

    async def _tail(self, partition: int) -> _Tail:
        c = self._components
        topic = c.names.turns
        committed = await c.log.committed(c.pipeline_groups()[topic], topic, partition)
        tail = self._tails.get(partition)
        if tail is None or committed < tail.start or committed > tail.end:
            tail = _Tail(committed, committed)
        elif committed > tail.start:
            tail = _trimmed(tail, committed)
        self._tails[partition] = tail
        await self._extend(partition, tail)
        return tail

    async def _extend(self, partition: int, tail: _Tail) -> None:
        topic = self._components.names.turns
        while batch := await self._components.log.read(topic, partition, tail.end, _READ):
            for record in batch:
                if record.key is not None and not record.key.startswith(CONTROL_PREFIX):
                    live = record.value is not None
                    tail.offsets[record.key] = (record.offset, live)
            tail.end = batch[-1].offset + 1


def _trimmed(tail: _Tail, committed: int) -> _Tail:
    """The tail without the entries the derive stage has committed past."""
    kept = {k: entry for k, entry in tail.offsets.items() if entry[0] >= committed}
    return _Tail(committed, tail.end, kept)
