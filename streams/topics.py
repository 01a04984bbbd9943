"""The topic registry: every topic provmem reads or writes is declared here, once.

>>> TopicNames("demo").turns
'demo.turns'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from provmem.core.events import ErasureCompleted, ErasureRequested, FactChanged, TurnRecorded
from provmem.core.ports import Append, Cleanup, CompactionBound, TopicConfig

E = TypeVar("E", bound=BaseModel)

_HOUR_MS = 3600 * 1000
_LONG_RETENTION_MS = 10 * 365 * 24 * _HOUR_MS
_DEAD_LETTER_RETENTION_MS = 30 * 24 * _HOUR_MS
#: The bound on a compacted topic (Apache Kafka): a record an erasure superseded is gone
#: within ``bound_ms`` (2 h) once its partition receives later records; tombstones stay a
#: day for lagging readers. Tansu never compacts (docs/ARCHITECTURE.md, erasure).
COMPACTION = CompactionBound(
    max_lag_ms=_HOUR_MS,
    segment_ms=_HOUR_MS,
    min_dirty_ratio=0.1,
    tombstone_retention_ms=24 * _HOUR_MS,
)


@dataclass(frozen=True, kw_only=True)
class TopicSpec:
    """What every topic declares: its name, what its record key holds (``keyed_by``),
    partitions and cleanup; and its key codec, an id as UTF-8 (the sealed log swaps the
    key for a keyed fingerprint of it at the boundary: infra/log/record_keys.py)."""

    suffix: str
    keyed_by: str
    partitions: int
    cleanup: Cleanup
    retention_ms: int = -1

    @property
    def compaction(self) -> CompactionBound | None:
        """Every compacted topic's bound (:data:`COMPACTION`)."""
        return COMPACTION if self.cleanup is Cleanup.COMPACT else None

    def name(self, prefix: str) -> str:
        return f"{prefix}.{self.suffix}"

    def config(self, prefix: str, partitions: int | None = None) -> TopicConfig:
        count = partitions if partitions is not None else self.partitions
        return TopicConfig(
            self.name(prefix), count, self.cleanup, self.retention_ms, self.compaction
        )

    def key_for(self, id_: str) -> bytes:
        """The record key of the id ``keyed_by`` names.

        >>> TURNS.key_for("ev_1")
        b'ev_1'
        """
        return id_.encode("utf-8")

    def id_in(self, key: bytes) -> str:
        """The id a raw record key names (bytes that are not UTF-8 read as U+FFFD)."""
        return key.decode("utf-8", "replace")

    def tombstone(self, partition: int, id_: str) -> Append:
        """The record that deletes the id's records once the topic compacts."""
        return Append(partition, self.key_for(id_), None)


@dataclass(frozen=True, kw_only=True)
class RawTopic(TopicSpec):
    """A topic whose values are no event model (bytes its adapter reads and writes)."""


@dataclass(frozen=True, kw_only=True)
class Topic(TopicSpec, Generic[E]):
    """A topic of events ``E``: its value model and schema version, and ``id_of``, the
    id of an event that keys its record."""

    value: type[E]
    schema_version: int
    id_of: Callable[[E], str]

    def encode(self, event: E) -> bytes:
        if not isinstance(event, self.value):
            raise TypeError(
                f"{self.suffix} carries {self.value.__name__}, not {type(event).__name__}"
            )
        return event.model_dump_json().encode("utf-8")

    def decode(self, raw: bytes) -> E:
        """The event a value holds (pydantic's ValidationError, a ValueError, if none)."""
        return self.value.model_validate_json(raw)

    def key(self, event: E) -> bytes:
        """The event's record key: its id (``keyed_by``) as :meth:`key_for` encodes it."""
        return self.key_for(self.id_of(event))

    def record(self, partition: int, event: E) -> Append:
        """The event as a record to append: keyed by its id, valued by its JSON."""
        return Append(partition, self.key(event), self.encode(event))


def _evidence_id(turn: TurnRecorded) -> str:
    return turn.evidence_id


def _fact_id(change: FactChanged) -> str:
    return change.fact_id


def _request_id(event: ErasureRequested | ErasureCompleted) -> str:
    return event.request_id


TURNS = Topic(
    suffix="turns",
    keyed_by="evidence id",
    value=TurnRecorded,
    schema_version=2,
    id_of=_evidence_id,
    partitions=8,
    cleanup=Cleanup.COMPACT,
)
FACT_CHANGES = Topic(
    suffix="fact-changes",
    keyed_by="fact id",
    value=FactChanged,
    schema_version=2,
    id_of=_fact_id,
    partitions=8,
    cleanup=Cleanup.COMPACT,
)
ERASURE_REQUESTS = Topic(
    suffix="erasure-requests",
    keyed_by="request id",
    value=ErasureRequested,
    schema_version=1,
    id_of=_request_id,
    partitions=1,
    cleanup=Cleanup.DELETE,
    retention_ms=_LONG_RETENTION_MS,
)
ERASURE_RECEIPTS = Topic(
    suffix="erasure-receipts",
    keyed_by="request id",
    value=ErasureCompleted,
    schema_version=3,
    id_of=_request_id,
    partitions=1,
    cleanup=Cleanup.DELETE,
    retention_ms=_LONG_RETENTION_MS,
)
DEAD_LETTERS = RawTopic(
    suffix="dead-letters",
    keyed_by="original key",
    partitions=1,
    cleanup=Cleanup.DELETE,
    retention_ms=_DEAD_LETTER_RETENTION_MS,
)

DATA_KEYS = RawTopic(suffix="data-keys", keyed_by="key id", partitions=1, cleanup=Cleanup.COMPACT)
"""Per-subject data keys wrapped under the master key; a tombstone crypto-shreds a subject."""
API_KEYS = RawTopic(suffix="api-keys", keyed_by="key id", partitions=1, cleanup=Cleanup.COMPACT)
"""API key records (scope, name, SHA-256 of the secret, revocation), never tokens."""

#: The workers' gate-state table (faust: a compacted changelog topic of its own).
GATE_TABLE = "gate-state"


def gate_changelog(consumer_group: str) -> str:
    """The gate-state table's changelog topic (faust names it by app id and table)."""
    return f"{consumer_group}-{GATE_TABLE}-changelog"


def gate_changelogs(consumer_group: str, topics: Iterable[str]) -> list[str]:
    """Among ``topics``, the gate-state changelogs of every gate generation of the
    deployment's workers (generation N's workers are the group ``<group>.gN``)."""
    base = re.sub(r"\.g\d+$", "", consumer_group)
    pattern = re.compile(re.escape(base) + r"(\.g\d+)?-" + re.escape(GATE_TABLE) + "-changelog")
    return sorted(t for t in topics if pattern.fullmatch(t))


EVENT_TOPICS: tuple[Topic[Any], ...] = (TURNS, FACT_CHANGES, ERASURE_REQUESTS, ERASURE_RECEIPTS)
"""The topics whose values are events (a model and its schema version each)."""

ALL_TOPICS: tuple[TopicSpec, ...] = (
    TURNS,
    FACT_CHANGES,
    ERASURE_REQUESTS,
    ERASURE_RECEIPTS,
    DEAD_LETTERS,
    DATA_KEYS,
    API_KEYS,
)


@dataclass(frozen=True)
class TopicNames:
    """The concrete topic names of one deployment (prefix)."""

    prefix: str

    @property
    def turns(self) -> str:
        return TURNS.name(self.prefix)

    @property
    def fact_changes(self) -> str:
        return FACT_CHANGES.name(self.prefix)

    @property
    def erasure_requests(self) -> str:
        return ERASURE_REQUESTS.name(self.prefix)

    @property
    def erasure_receipts(self) -> str:
        return ERASURE_RECEIPTS.name(self.prefix)

    @property
    def dead_letters(self) -> str:
        return DEAD_LETTERS.name(self.prefix)

    @property
    def data_keys(self) -> str:
        return DATA_KEYS.name(self.prefix)

    @property
    def api_keys(self) -> str:
        return API_KEYS.name(self.prefix)

    def configs(self, partitions: int | None = None, key_ring: bool = True) -> list[TopicConfig]:
        """Every topic's config; ``partitions`` overrides the count of the scoped topics.
        ``key_ring`` False: not the data-keys topic, whose generations the key ring
        creates and deletes itself (infra/crypto/key_ring.py)."""
        topics = [t for t in ALL_TOPICS if key_ring or t is not DATA_KEYS]
        return [topic.config(self.prefix, _count(topic, partitions)) for topic in topics]


def _count(topic: TopicSpec, partitions: int | None) -> int | None:
    return partitions if topic.partitions > 1 else None
