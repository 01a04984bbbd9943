"""Sealed log records: record values encrypted at the log boundary, on both runtimes.

:class:`LogSealer` seals a record's value before it is appended and opens it when it is
read. Which records are sealed, and under which key, is the caller's *policy* (the topic
registry's: ``streams/runtime/sealed_topics.py``): a :class:`Sealing` per record, or None for a
record that stays as it is (receipts, keys, tombstones). A sealed value is an envelope,
version 1 (``docs/ARCHITECTURE.md``, "What is sealed")::

    {"seal":1,"scope":{"org":…,"project":…,"user":…},"sealed":"pm1.<key id>.<base64>"}

``sealed`` is the whole original value under the subject's current log key
(infra/crypto/log_keys.py) or the deployment's data key (:meth:`EvidenceSealer.seal_log_bytes`);
``scope`` (absent when unknown) is the scope key only, an identifier, never the agent or
the session. Opening:

- a value that is no envelope (written before sealing) passes through as it is, so old
  logs and replays still read;
- an envelope whose key was destroyed (a crypto-shredded subject), was wrapped by
  another master key or is not the one it was sealed under (the subject came back after
  its erasure: a new key under the same id; or the record was altered) reads as erased:
  value None, like a tombstone, with one warning per key and reason; it never raises.

Keys: a record the caller's *key policy* names (turns, fact-changes: their tombstones too)
is appended under a keyed fingerprint of its key (infra/log/record_keys.py), never the raw
id; reading leaves keys as they are (a reader fingerprints the id it looks for).

:class:`SealedLog` is an :class:`EventLog` over another one that does both; the faust
workers, which consume Kafka directly, call :meth:`LogSealer.open` on each input record
and :meth:`LogSealer.seal` on each record they produce.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import structlog
from cryptography.exceptions import InvalidTag

from provmem.core.ports import Append, EventLog, LogRecord, TopicConfig
from provmem.infra.crypto.envelope import EvidenceSealer, MissingDataKeyError, is_blob
from provmem.infra.log.embedded import EmbeddedEventLog
from provmem.infra.log.record_keys import PLAIN_KEYS, RecordKeys

__all__ = [
    "ENVELOPE",
    "LogSealer",
    "SealedCompactingLog",
    "SealedLog",
    "Sealing",
    "is_sealed",
    "raw_log",
    "record_keys",
    "sealed_key_id",
    "sealing",
]

_log = structlog.get_logger(__name__)

#: The envelope's version (``{"seal":1,…}``); its first bytes tell a sealed value.
ENVELOPE = 1
_PREFIX = b'{"seal":'


@dataclass(frozen=True)
class Sealing:
    """How one record is sealed: under the data key of ``subject`` (a scope key), or under
    the deployment's key (``subject`` None); ``scope`` is shown on the envelope."""

    subject: str | None
    scope: dict[str, str] | None = None
    #: Under the subject's log key (its records on compacted topics, which an erasure of
    #: part of it crypto-compacts), else its data key (dead letters: kept until redriven).
    log_key: bool = True


#: The policy: the sealing of a record appended to a topic (None: left as it is).
Policy = Callable[[str, Append], Sealing | None]
#: Whether a record appended to a topic is keyed: its key a keyed fingerprint of the id
#: it names (infra/log/record_keys.py), tombstones included.
KeyPolicy = Callable[[str, Append], bool]


def _unkeyed(topic: str, record: Append) -> bool:
    return False


def is_sealed(value: bytes | None) -> bool:
    """Whether a stored value is a sealed envelope."""
    return value is not None and value.startswith(_PREFIX)


@dataclass
class LogSealer:
    """Seals and opens record values (see the module docstring)."""

    sealer: EvidenceSealer
    policy: Policy
    keyed: KeyPolicy = _unkeyed
    _warned: set[tuple[str, str]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.keys = RecordKeys(self.sealer)

    async def seal(self, topic: str, record: Append) -> Append:
        """The record as it is appended: its value sealed, its key keyed (by policy)."""
        if record.key is not None and self.keyed(topic, record):
            record = replace(record, key=await self.keys.key_of(record.key))
        if record.value is None or is_sealed(record.value):
            return record
        sealing = self.policy(topic, record)
        if sealing is None:
            return record
        seal = self.sealer.seal_log_bytes if sealing.log_key else self.sealer.seal_bytes
        blob = await seal(sealing.subject, record.value)
        envelope: dict[str, Any] = {"seal": ENVELOPE}
        if sealing.scope is not None:
            envelope["scope"] = sealing.scope
        envelope["sealed"] = blob
        value = json.dumps(envelope, separators=(",", ":")).encode("utf-8")
        return Append(record.partition, record.key, value)

    async def reseal(self, value: bytes, scope_key: str) -> bytes:
        """A sealed value as it is at rest, sealed again under the subject's current log
        key (infra/crypto/log_keys.py), its envelope kept: the log's crypto-compaction."""
        envelope = json.loads(value)
        plain = await self.sealer.open_bytes(envelope["sealed"])
        envelope["sealed"] = await self.sealer.seal_log_bytes(scope_key, plain)
        return json.dumps(envelope, separators=(",", ":")).encode("utf-8")

    async def seal_all(self, topic: str, records: Sequence[Append]) -> list[Append]:
        return [await self.seal(topic, record) for record in records]

    async def open(self, record: LogRecord) -> LogRecord:
        return await self._open(record, set())

    async def open_all(self, records: Sequence[LogRecord]) -> list[LogRecord]:
        """Records read together: a key found absent is not asked again for the others
        (each was appended before the lookup, so none is sealed under a newer key)."""
        gone: set[str] = set()
        return [await self._open(record, gone) for record in records]

    async def _open(self, record: LogRecord, gone: set[str]) -> LogRecord:
        if not is_sealed(record.value):
            return record
        blob = _blob_of(record.value)
        if blob is None:
            _log.warning("sealed_log.not_an_envelope", topic=record.topic, offset=record.offset)
            return record
        key_id = blob.split(".", 2)[1]
        try:
            if key_id in gone:
                raise MissingDataKeyError(key_id)
            return replace(record, value=await self.sealer.open_bytes(blob))
        except MissingDataKeyError:
            gone.add(key_id)
            self._erased(record, key_id, "shredded")
        except (InvalidTag, ValueError) as error:
            self._erased(record, key_id, type(error).__name__)
        return replace(record, value=None)

    def _erased(self, record: LogRecord, key_id: str, reason: str) -> None:
        """One warning per key and reason: a replay may meet many records of a subject."""
        if (key_id, reason) not in self._warned:
            self._warned.add((key_id, reason))
            _log.warning(
                "sealed_log.erased",
                topic=record.topic,
                partition=record.partition,
                offset=record.offset,
                key_id=key_id,
                reason=reason,
            )


def sealed_key_id(value: bytes | None) -> str | None:
    """The id of the key a sealed value is sealed under (None: not sealed)."""
    blob = _blob_of(value) if is_sealed(value) else None
    return None if blob is None else blob.split(".", 2)[1]


def _blob_of(value: bytes | None) -> str | None:
    try:
        blob = json.loads(value or b"").get("sealed")
    except (ValueError, AttributeError):
        return None
    return blob if isinstance(blob, str) and is_blob(blob) and blob.count(".") >= 2 else None


class SealedLog:
    """An :class:`EventLog` whose values are sealed on append and opened on read."""

    def __init__(self, inner: EventLog, sealer: LogSealer) -> None:
        self.inner = inner
        self.sealer = sealer

    async def ensure_topics(self, topics: Sequence[TopicConfig]) -> None:
        await self.inner.ensure_topics(topics)

    async def append(self, topic: str, records: Sequence[Append]) -> list[int]:
        return await self.inner.append(topic, await self.sealer.seal_all(topic, records))

    async def read(self, topic: str, partition: int, start: int, limit: int) -> list[LogRecord]:
        return await self.sealer.open_all(await self.inner.read(topic, partition, start, limit))

    async def end_offset(self, topic: str, partition: int) -> int:
        return await self.inner.end_offset(topic, partition)

    async def partitions(self, topic: str) -> int:
        return await self.inner.partitions(topic)

    async def commit(self, group: str, topic: str, partition: int, offset: int) -> None:
        await self.inner.commit(group, topic, partition, offset)

    async def committed(self, group: str, topic: str, partition: int) -> int:
        return await self.inner.committed(group, topic, partition)

    async def close(self) -> None:
        await self.inner.close()


class SealedCompactingLog(SealedLog):
    """A :class:`SealedLog` over a log that compacts and purges on demand (the embedded
    one): the erasure cascade finds ``compact`` and ``purge`` here as on the log itself."""

    async def compact(self, topic: str, *more: str) -> int:
        return int(await self.inner.compact(topic, *more))  # type: ignore[attr-defined]

    async def compact_scope(self, scope_key: str, partition: int, topic: str, *more: str) -> int:
        inner: EmbeddedEventLog = self.inner  # type: ignore[assignment]  # sealing() made it so
        return await inner.compact_scope(scope_key, partition, topic, *more)

    async def read_scope(
        self, topic: str, partition: int, scope_key: str, start: int, limit: int
    ) -> list[LogRecord]:
        """The inner log's records of one scope (and of none), opened."""
        inner: EmbeddedEventLog = self.inner  # type: ignore[assignment]  # sealing() made it so
        return await self.sealer.open_all(
            await inner.read_scope(topic, partition, scope_key, start, limit)
        )

    async def expunge(self, topic: str, partition: int, keys: Sequence[bytes]) -> int:
        """Records under these keys exactly as they are at rest (not keyed again)."""
        return int(await self.inner.expunge(topic, partition, keys))  # type: ignore[attr-defined]

    async def purge(self) -> int:
        return int(await self.inner.purge())  # type: ignore[attr-defined]


def sealing(log: EventLog, sealer: LogSealer) -> SealedLog:
    """``log`` behind ``sealer``: a log that compacts on demand keeps that ability."""
    if isinstance(log, EmbeddedEventLog):
        return SealedCompactingLog(log, sealer)
    return SealedLog(log, sealer)


def raw_log(log: Any) -> Any:
    """The log under a :class:`SealedLog` (what is at rest: the byte audit reads that)."""
    return log.inner if isinstance(log, SealedLog) else log


def record_keys(log: Any) -> RecordKeys:
    """The record keys ``log`` appends under (its sealer's; plain ids for a log that
    seals nothing): what a reader fingerprints a candidate id with to find its records."""
    return log.sealer.keys if isinstance(log, SealedLog) else PLAIN_KEYS
