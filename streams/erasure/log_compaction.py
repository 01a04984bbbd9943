"""Crypto-compaction: what a session or evidence erasure superseded on a log that does not
compact on demand is left only as ciphertext under a destroyed key.

The embedded log deletes superseded records at once (``compact``, ``expunge``). A broker
compacts in its own time (Apache Kafka within the topics' bound), Tansu never; until
then the erased turns and the fact versions they supported are retained, sealed under
the subject's live log key. So an erasure of part of a subject, on such a log:

1. :meth:`CryptoCompaction.begin` moves the subject to a new log-key epoch
   (infra/crypto/log_keys.py) before the cascade appends anything: its tombstones, fact
   changes and gate state are sealed under the new key;
2. :meth:`CryptoCompaction.finish`, once every process seals under the new key, appends
   again, sealed under it, the latest record of each key of the subject that is still
   sealed under a retired key (what compaction would keep), in log order; then, over
   what was appended meanwhile, until nothing is left under a retired key;
3. destroys the retired keys (the key ring is rewritten without them).

A crash before 3 leaves the retired keys live and nothing lost: the erasure's re-run
rotates again and re-seals what is still under an older key. A copy appended again is
the same record (same key, same value): readers apply it idempotently (the gate's
``seen`` marks, the views by id and version, the streams by version). Records sealed
under the subject's *data key* (appended before log keys existed) are moved too, but
their older copies open as long as the subject lives: they await the broker's
compaction (the audit counts them).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

import structlog

from provmem.core.ports import Append, LogRecord
from provmem.core.scope import Scope, partition_for
from provmem.streams.erasure.ports import ErasureDeps
from provmem.streams.runtime.adapters import (
    LogSealer,
    Rotation,
    SealedLog,
    partition_records,
    raw_log,
    sealed_key_id,
    subject_key_id,
)

__all__ = ["CryptoCompaction"]

log = structlog.get_logger(__name__)
_PASSES = 4


@dataclass(frozen=True)
class _Pass:
    """The latest record of each key of the subject under a retired key, from ``start``
    up to ``end``; ``closed``: how many of the subject's records a retired key seals."""

    latest: dict[bytes, LogRecord]
    closed: int
    end: int


@dataclass
class CryptoCompaction:
    """One erasure's crypto-compaction of one subject (see the module docstring) on the
    compacted topics ``topics`` of a sealed log with ``partitions`` partitions."""

    log: SealedLog
    topics: tuple[str, ...]
    partitions: int
    rotation: Rotation

    @classmethod
    async def begin(cls, deps: ErasureDeps, scope_key: str) -> CryptoCompaction | None:
        """Rotate the subject's log key, where the log needs it (None: it compacts on
        demand, or seals nothing)."""
        if deps.capabilities.compacting is not None or not isinstance(deps.log, SealedLog):
            return None
        topics = (deps.names.turns, deps.names.fact_changes)
        return await cls.rotated(deps.log, topics, deps.settings.partitions, scope_key)

    @classmethod
    async def rotated(
        cls, sealed: SealedLog, topics: tuple[str, ...], partitions: int, scope_key: str
    ) -> CryptoCompaction:
        rotation = await sealed.sealer.sealer.rotate_log_key(scope_key)
        log.info("log_compaction.rotated", key_id=rotation.current)
        return cls(sealed, topics, partitions, rotation)

    @property
    def sealer(self) -> LogSealer:
        return self.log.sealer

    async def switched(self) -> None:
        """Wait until every process seals the subject's records under the new key."""
        await asyncio.sleep(self.rotation.switched_in())

    async def finish(self) -> int:
        """Re-seal what lives on, destroy the retired keys; how many retained records of
        the subject are now closed (ciphertext under a destroyed key)."""
        await self.switched()
        closed = 0
        for topic in self.topics:
            closed += await self._reseal_topic(topic)
        await self.sealer.sealer.destroy_log_keys(self.rotation.retired)
        log.info("log_compaction.done", records_closed=closed, retired=len(self.rotation.retired))
        return closed

    async def _reseal_topic(self, topic: str) -> int:
        partition = partition_for(self.rotation.scope_key, self.partitions)
        start, closed = 0, 0
        for _ in range(_PASSES):
            found = await self._scan(topic, partition, start)
            closed += found.closed
            if not found.latest:
                return closed
            await self._append(topic, partition, found.latest)
            start = found.end
        raise RuntimeError(f"{topic}[{partition}]: records under a retired key kept coming")

    async def _scan(self, topic: str, partition: int, start: int) -> _Pass:
        latest: dict[bytes, LogRecord] = {}
        closed, end = 0, start
        async for record in partition_records(raw_log(self.log), topic, partition, start):
            end = record.offset + 1
            key = record.key or b""
            if record.value is not None and self._retired(record):
                closed += 1
                latest[key] = record
            else:  # a tombstone, or a later record under the current key
                latest.pop(key, None)
        return _Pass(latest, closed, end)

    def _retired(self, record: LogRecord) -> bool:
        """A record of the subject sealed under a retired log key or its data key."""
        if _scope_of(record.value) != self.rotation.scope_key:
            return False
        key_id = sealed_key_id(record.value)
        legacy = subject_key_id(self.rotation.scope_key)
        return key_id is not None and (key_id in self.rotation.retired or key_id == legacy)

    async def _append(self, topic: str, partition: int, latest: dict[bytes, LogRecord]) -> None:
        records = sorted(latest.values(), key=lambda r: r.offset)
        scope_key = self.rotation.scope_key
        again = [
            Append(partition, r.key, await self.sealer.reseal(r.value or b"", scope_key))
            for r in records
        ]
        await raw_log(self.log).append(topic, again)
        log.info("log_compaction.resealed", topic=topic, partition=partition, records=len(again))


def _scope_of(value: bytes | None) -> str | None:
    """The scope key an envelope shows (None: none, or no envelope)."""
    try:
        shown = json.loads(value or b"").get("scope")
        return Scope.model_validate(shown).key if isinstance(shown, dict) else None
    except (ValueError, AttributeError):
        return None
