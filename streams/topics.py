"""The topic registry: every topic provmem reads or writes is declared here, once.

>>> TopicNames("demo").turns
'demo.turns'
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from provmem.core.events import ErasureCompleted, ErasureRequested, FactChanged, TurnRecorded
from provmem.core.ports import Cleanup, CompactionBound, TopicConfig

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


@dataclass(frozen=True)
class Topic:
    """A topic's contract: its name, key, value model and schema version, partitions, cleanup."""

    suffix: str
    key: str
    value: type[BaseModel] | None
    schema_version: int
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

    def encode(self, event: BaseModel) -> bytes:
        if self.value is None or not isinstance(event, self.value):
            raise TypeError(f"{self.suffix} carries {self.value}, not {type(event).__name__}")
        return event.model_dump_json().encode("utf-8")

    def decode(self, raw: bytes) -> BaseModel:
        if self.value is None:
            raise TypeError(f"{self.suffix} has no value model")
        return self.value.model_validate_json(raw)


TURNS = Topic("turns", "evidence id", TurnRecorded, 2, 8, Cleanup.COMPACT)
FACT_CHANGES = Topic("fact-changes", "fact id", FactChanged, 2, 8, Cleanup.COMPACT)
ERASURE_REQUESTS = Topic(
    "erasure-requests", "request id", ErasureRequested, 1, 1, Cleanup.DELETE, _LONG_RETENTION_MS
)
ERASURE_RECEIPTS = Topic(
    "erasure-receipts", "request id", ErasureCompleted, 3, 1, Cleanup.DELETE, _LONG_RETENTION_MS
)
DEAD_LETTERS = Topic(
    "dead-letters", "original key", None, 1, 1, Cleanup.DELETE, _DEAD_LETTER_RETENTION_MS
)

DATA_KEYS = Topic("data-keys", "key id", None, 1, 1, Cleanup.COMPACT)
"""Per-subject data keys wrapped under the master key; a tombstone crypto-shreds a subject."""
API_KEYS = Topic("api-keys", "key id", None, 1, 1, Cleanup.COMPACT)
"""API key records (scope, name, SHA-256 of the secret, revocation), never tokens."""

#: The workers' gate-state table (faust: a compacted changelog topic of its own).
GATE_TABLE = "gate-state"


def gate_changelog(consumer_group: str) -> str:
    """The gate-state table's changelog topic (faust names it by app id and table)."""
    return f"{consumer_group}-{GATE_TABLE}-changelog"


ALL_TOPICS: tuple[Topic, ...] = (
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


def _count(topic: Topic, partitions: int | None) -> int | None:
    return partitions if topic.partitions > 1 else None
