"""Ports: the protocols every adapter implements and one contract suite tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from provmem.core.claim import Claim
from provmem.core.events import Fact, FactChanged, SealedText, SpeakerRole, TurnRecorded
from provmem.core.language.parsed import ParsedText


class Cleanup(StrEnum):
    COMPACT = "compact"
    DELETE = "delete"


@dataclass(frozen=True)
class CompactionBound:
    """How soon a broker's log cleaner compacts a topic (Apache Kafka topic configs):
    a record superseded by a later record of its key is eligible at most ``max_lag_ms``
    after the later one was written (``max.compaction.lag.ms``), once the segment holding
    it has rolled (``segment_ms``, ``segment.ms``: Kafka rolls a segment when a record is
    appended after that age); ``min_dirty_ratio`` lets it clean earlier, and a tombstone
    stays ``tombstone_retention_ms`` (``delete.retention.ms``) after compaction so that
    lagging readers still meet it."""

    max_lag_ms: int
    segment_ms: int
    min_dirty_ratio: float
    tombstone_retention_ms: int

    @property
    def bound_ms(self) -> int:
        """The longest a superseded record stays once later records arrive."""
        return self.segment_ms + self.max_lag_ms


@dataclass(frozen=True)
class TopicConfig:
    """What a log needs to know to create a topic."""

    name: str
    partitions: int
    cleanup: Cleanup
    retention_ms: int = -1
    compaction: CompactionBound | None = None


@runtime_checkable
class TopicAdmin(Protocol):
    """A log whose topics can be listed and deleted (both logs: a key-ring generation
    is dropped whole, infra/crypto/key_ring.py)."""

    async def topics(self) -> list[str]:
        """The names of every topic the log holds."""
        ...

    async def delete_topics(self, names: Sequence[str]) -> None:
        """Delete the topics and every record they hold (names not there: ignored)."""
        ...


@dataclass(frozen=True)
class LogRecord:
    """One record read from a log. ``value is None`` is a tombstone."""

    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes | None


@dataclass(frozen=True)
class Append:
    """One record to append to a partition."""

    partition: int
    key: bytes | None
    value: bytes | None


class EventLog(Protocol):
    """A partitioned, offset-addressed, append-only log with Kafka semantics."""

    async def ensure_topics(self, topics: Sequence[TopicConfig]) -> None: ...

    async def append(self, topic: str, records: Sequence[Append]) -> list[int]:
        """Append records in order; return their offsets."""
        ...

    async def read(self, topic: str, partition: int, start: int, limit: int) -> list[LogRecord]:
        """Records of one partition from offset ``start``, at most ``limit``. An empty list
        means there is nothing from ``start`` to the partition's end (every scan stops
        there); a log that cannot read what is there raises instead (a stalled Kafka fetch:
        infra/log/kafka.py ``ReadStalled``)."""
        ...

    async def end_offset(self, topic: str, partition: int) -> int:
        """The offset the next appended record of this partition will get."""
        ...

    async def partitions(self, topic: str) -> int: ...

    async def commit(self, group: str, topic: str, partition: int, offset: int) -> None:
        """Record that ``group`` will resume this partition at ``offset``."""
        ...

    async def committed(self, group: str, topic: str, partition: int) -> int:
        """The offset ``group`` resumes at; 0 when it never committed."""
        ...

    async def close(self) -> None: ...


class EvidenceStore(Protocol):
    """Random access to recorded evidence (ciphertext) by id."""

    async def put(self, turn: TurnRecorded) -> bool:
        """Store the turn; False when it was already there (idempotent)."""
        ...

    async def get(self, evidence_id: str) -> TurnRecorded | None: ...

    async def neighbours(self, evidence_id: str, radius: int) -> list[TurnRecorded]:
        """Turns of the same source recorded just before and after, in order (the turn too)."""
        ...

    async def ids_in_scope(self, scope_key: str) -> list[str]:
        """Every evidence id recorded for the scope."""
        ...

    async def delete(self, evidence_id: str) -> bool:
        """Remove the evidence, its source-order entry and its publication claim."""
        ...

    async def delete_many(self, evidence_ids: Sequence[str]) -> int:
        """:meth:`delete` for many ids (one write where the store can); return how many
        were there."""
        ...

    async def reserve(self, evidence_id: str) -> bool:
        """Atomically claim the publication of an evidence id; False if already claimed."""
        ...

    async def release(self, evidence_id: str) -> None:
        """Undo a claim whose append failed, so the turn can be published again."""
        ...

    async def close(self) -> None: ...


class FactViews(Protocol):
    """Materialized fact views, idempotent under redelivery by (fact id, version)."""

    async def apply(self, change: FactChanged) -> bool:
        """Apply a change; False when this or a newer version is already there."""
        ...

    async def apply_batch(self, changes: Sequence[FactChanged]) -> int:
        """Apply changes in order as one write (one transaction or pipeline); return how
        many took effect."""
        ...

    async def get(self, fact_id: str) -> Fact | None: ...

    async def get_many(self, fact_ids: Sequence[str]) -> dict[str, Fact]:
        """The facts of these ids that exist, in one round trip."""
        ...

    async def facts_in_scope(self, scope_key: str) -> list[Fact]: ...

    async def versions_under(self, prefix: str) -> dict[str, tuple[str, int]]:
        """Fact id -> (scope key, version) of every stored fact of the scope ``prefix``
        names (``org``, ``org/project`` or a user scope), read from an index of the views,
        not from their bodies: what a fact-change stream of that prefix knows at its start."""
        ...

    async def facts_for_evidence(self, evidence_id: str) -> list[str]: ...

    async def history(self, fact_id: str) -> list[Fact]:
        """Every version of a fact, oldest first."""
        ...

    async def facts_for_entity(
        self, scope_key: str, entity: str, limit: int | None = None
    ) -> list[str]:
        """The ids of the scope's facts about ``entity``, in id order (the first ``limit``:
        a store that can stops reading there)."""
        ...

    async def facts_for_slot(self, scope_key: str, slot: str) -> list[str]: ...

    async def delete_scope(self, scope_key: str) -> int:
        """Delete every fact of the scope with its history and index entries as one write
        (a whole-subject erasure, where all the scope's facts go); return how many facts."""
        ...

    async def close(self) -> None: ...


class StateStore(Protocol):
    """Per-key processor state (the gate's per-scope memory)."""

    async def load(self, key: str) -> bytes | None: ...

    async def save(self, key: str, value: bytes) -> None: ...

    async def delete(self, key: str) -> None: ...


class BulkStateStore(StateStore, Protocol):
    """A state store that reads and swaps many records at once: one query where the
    store can (SQLite), a loop over keys where it cannot (infra/stores/bulk_state.py)."""

    async def load_many(self, keys: Sequence[str]) -> dict[str, bytes]:
        """The stored values of these keys (absent keys are left out)."""
        ...

    async def load_fields_many(
        self, keys: Sequence[str], paths: Sequence[str]
    ) -> dict[str, tuple[object, ...]]:
        """Fields (JSON paths, ``$.a.b``; objects as compact JSON text) of the JSON values
        of these keys; absent keys are left out."""
        ...

    async def replace_many(self, deletes: Sequence[str], saves: Mapping[str, bytes]) -> None:
        """Delete keys, then save values: in one transaction where the store can."""
        ...


@dataclass(frozen=True)
class SparseVector:
    """Term ids and weights (BM25 term frequencies; the index applies IDF)."""

    indices: tuple[int, ...]
    values: tuple[float, ...]


@dataclass(frozen=True)
class VectorPoint:
    """One indexed item: a fact (kind "fact") or a raw evidence turn (kind "evidence").

    ``fact_id`` is the item's id (a fact id or an evidence id). Evidence points carry no
    text in their payload: evidence is encrypted at rest.
    """

    fact_id: str
    vector: Sequence[float]
    scope_key: str
    status: str
    statement: str
    sparse: SparseVector | None = None
    entities: tuple[str, ...] = ()
    time: str | None = None
    kind: str = "fact"


@dataclass(frozen=True)
class VectorHit:
    fact_id: str
    score: float


@dataclass(frozen=True)
class DenseSearch:
    """One dense search of a batch (:meth:`VectorIndex.search_many`): the active items of
    ``kind`` nearest ``vector`` (naming ``entity``), ``limit`` of them."""

    vector: Sequence[float]
    limit: int
    kind: str = "fact"
    entity: str | None = None


class VectorIndex(Protocol):
    """Dense vectors of facts, filtered by scope."""

    async def open(self) -> None:
        """Open the index now (idempotent; every other call opens it on first use): a
        local folder is then held by this process, and a layout or lock error shows at
        start-up rather than at the first query."""
        ...

    async def upsert(self, points: Sequence[VectorPoint]) -> None: ...

    async def delete(self, fact_ids: Sequence[str]) -> None: ...

    async def search(
        self,
        scope_key: str,
        vector: Sequence[float],
        limit: int,
        kind: str = "fact",
        entity: str | None = None,
    ) -> list[VectorHit]:
        """Dense search over active items of ``kind`` in the scope (naming ``entity``)."""
        ...

    async def search_many(
        self, scope_key: str, searches: Sequence[DenseSearch]
    ) -> list[list[VectorHit]]:
        """Several dense searches of the scope in one call, the hits of each in order: what
        :meth:`search` gives for each, planned together where the engine can."""
        ...

    async def search_sparse(
        self, scope_key: str, sparse: SparseVector, limit: int, kind: str = "fact"
    ) -> list[VectorHit]:
        """Keyword (BM25) search over active items of ``kind`` in the scope."""
        ...

    async def count(self, scope_key: str) -> int: ...

    async def delete_scope(self, scope_key: str) -> int:
        """Delete every item of the scope (facts and evidence) by a scope filter, as one
        operation (a whole-subject erasure); return how many there were."""
        ...

    async def close(self) -> None: ...


@runtime_checkable
class ListedItems(Protocol):
    """An index that lists the ids of the items of a kind it holds: a reading process's
    local index names the turns' tombstones among its own points (streams/indexing.py)."""

    async def item_ids(self, kind: str) -> list[str]: ...


@runtime_checkable
class ScrubbableStore(Protocol):
    """A store kept in SQLite files. secure_delete zeroes deleted cells, but a page
    rebalance can leave a stale copy of a cell in a page's unallocated space: ``scrub``
    rewrites the store's files (VACUUM) when ``holds`` finds a trace in one of them."""

    async def scrub(self, holds: Callable[[Path], bool]) -> bool:
        """Whether the files were rewritten."""
        ...


@runtime_checkable
class PurgeableStore(Protocol):
    """A store whose deletes leave data behind until it is purged (the edge vector index,
    the embedded log and stores)."""

    async def purge(self) -> int:
        """Drop deleted data physically; a count for the log (1, or the points kept)."""
        ...


class HeldBytes(Protocol):
    """A store outside the data folder whose every byte an audit reads: a Redis namespace,
    a Qdrant server's collection (through the client its process already holds)."""

    @property
    def place(self) -> str:
        """The audit's name for it (``redis``, ``qdrant``)."""
        ...

    def held_bytes(self) -> AsyncIterator[tuple[str, bytes]]:
        """(location, bytes) of everything it holds: keys, values, ids, payloads."""
        ...


@runtime_checkable
class PayloadIndex(Protocol):
    """A vector index that reads a point's stored payload back by id (audits, replay
    checksums)."""

    async def payload(self, item_id: str) -> dict[str, Any] | None:
        """The stored payload of the point ``item_id`` (None: no such point)."""
        ...


class Embedder(Protocol):
    """Text to normalized dense vectors."""

    dim: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class CachingEmbedder(Embedder, Protocol):
    """An embedder with a cache of texts it embedded, and a way around it for texts that
    are embedded once (raw evidence: erasure must not have to clean them out of it)."""

    def embed_transient(self, texts: Sequence[str]) -> list[list[float]]: ...

    def cached(self, text: str) -> bool:
        """Whether the text's vector is in the cache (the erasure audit asks)."""
        ...

    def forget(self, texts: Sequence[str]) -> int:
        """Drop these texts' vectors from the cache; how many were there."""
        ...


class QueryEmbedder(Protocol):
    """A query's dense vector (recall embeds one text at a time, off the batch path)."""

    def embed_query(self, text: str) -> list[float]: ...

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """A few forms of one query embedded in one model run, in order."""
        ...


class EvidenceSealing(Protocol):
    """Turn text sealed under its subject's data key (infra/crypto/envelope.py: EvidenceSealer)."""

    async def seal(self, scope_key: str, text: str) -> tuple[SealedText, str]:
        """The sealed text and the id of the data key it is sealed under."""
        ...

    async def open(self, sealed: SealedText) -> str:
        """The plaintext; MissingDataKeyError (a LookupError) once the key is shredded."""
        ...

    def forget(self, key_id: str) -> None:
        """Drop a cached data key (after its subject was erased)."""
        ...

    async def shred(self, scope_key: str) -> dict[str, int]:
        """Destroy every key of the subject (crypto-shredding); how many of each kind."""
        ...


class KeyStore(Protocol):
    """Wrapped per-subject data keys."""

    async def get(self, key_id: str) -> bytes | None:
        """The wrapped data key, or None when absent or destroyed."""
        ...

    async def put_if_absent(self, key_id: str, wrapped: bytes) -> bytes:
        """Store ``wrapped`` unless a key exists; return the stored one."""
        ...

    async def key_ids(self) -> list[str]: ...

    async def destroy(self, key_id: str) -> bool:
        """Delete a wrapped data key for good (crypto-shredding)."""
        ...

    async def replace(self, key_id: str, wrapped: bytes) -> None:
        """Overwrite a wrapped key (master-key rotation re-wraps every key)."""
        ...

    async def close(self) -> None: ...


@runtime_checkable
class KeyRingStore(Protocol):
    """A key store whose records are on a log (infra/crypto/logged_keys.py): it can rewrite them
    without the copies a change superseded (after a master-key rotation: the old wraps)."""

    async def rewrite(self) -> None: ...


class Extractor(Protocol):
    """Turns one turn's text into validated candidate claims (rules by default:
    core/extraction/rules.py; an LLM optionally: infra/models/llm_extractor.py). Every claim's
    spans point into the text and have passed :func:`~.validation.validate_claim`
    (failures carry ``review_reason``)."""

    @property
    def version(self) -> str: ...

    def extract(
        self,
        text: str,
        *,
        speaker: str,
        captured_at: datetime,
        role: SpeakerRole = "user",
        participants: Sequence[str] = (),
    ) -> list[Claim]:
        """``role`` is the turn's speaker role: an assistant's turn yields only the
        assistant's own statements (``Claim.role``), system and tool turns none.
        ``participants``: the session's other speakers from earlier turns in log order
        (most recent first), so that "you" can name the listener."""
        ...


class ClauseParser(Protocol):
    """Reads a text's clause structure with a parser (infra/models/clause_parser.py,
    spaCy's small English pipeline): the offsets of the commas that join two main clauses,
    each with its own subject and finite verb (a comma splice), which the extractor then
    splits like a full stop (core/language/clauses.py)."""

    def comma_breaks(self, text: str) -> Sequence[int]: ...


class Parser(Protocol):
    """Parses texts into tokens, dependency arcs and entities (spaCy's small English
    pipeline: infra/models/parser.py), a batch at a time."""

    def parse(self, texts: Sequence[str]) -> list[ParsedText]:
        """One parse per text, in order."""
        ...


class ApiKeyStore(Protocol):
    """Where key records live: the embedded key file, or a Redis hash on Kafka."""

    async def put(self, key_id: str, record: bytes) -> None: ...

    async def get(self, key_id: str) -> bytes | None: ...

    async def records(self) -> list[bytes]: ...

    async def count(self) -> int: ...

    async def close(self) -> None: ...
