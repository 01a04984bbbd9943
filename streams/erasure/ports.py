"""What an erasure reads and writes (:class:`ErasureDeps`), and the capabilities only some
adapters have, as ports.

- :class:`CompactingLog`: a log that compacts when asked (the embedded log; a Kafka
  broker's log cleaner compacts on its own schedule);
- :class:`PurgeableStore`: a store that can drop deleted data physically (the edge
  vector shard is rebuilt, SQLite files are checkpointed and their WAL truncated);
- :class:`PayloadIndex`: an index that reads a point's payload back by id (the audit).

:func:`capabilities_of` asks the adapters' types once, where the erasure is composed
(services/erasure/subject.py, streams/faust/app.py); the cascade and the audit then use
the ports they were given and never probe an adapter for a method.
tests/contract/test_erasure_ports.py holds every adapter to the ports it claims.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from provmem.config import Settings
from provmem.core.ports import (
    CachingEmbedder,
    EventLog,
    EvidenceSealing,
    EvidenceStore,
    FactViews,
    KeyStore,
    PayloadIndex,
    PurgeableStore,
    StateStore,
    VectorIndex,
)
from provmem.infra.vectors.sealed import SealedVectorIndex
from provmem.streams.pipeline import Deriver
from provmem.streams.topics import TopicNames

#: Derives every turn already on the log.
CatchUp = Callable[[], Awaitable[None]]
#: Waits until the views have applied what is on a fact-changes partition.
Settle = Callable[[int], Awaitable[None]]


@runtime_checkable
class CompactingLog(Protocol):
    async def compact(self, topic: str, *more: str) -> int:
        """Keep the latest record of each key of the topics; the records removed."""
        ...

    async def expunge(self, topic: str, partition: int, keys: Sequence[bytes]) -> int:
        """Delete every record under these keys (as stored) of one partition."""
        ...


@runtime_checkable
class RecordedKeyStore(Protocol):
    """A key store whose records are on the log (infra/crypto/logged_keys.py): the audit reads
    every record its topics still hold."""

    async def get(self, key_id: str) -> bytes | None: ...

    def records(self) -> AsyncIterator[tuple[str, bytes | None, bytes | None]]:
        """(location, key, value) of every record its topics hold."""
        ...


@dataclass(frozen=True)
class Capabilities:
    """The optional ports of one runtime's adapters (absent: the runtime has none)."""

    compacting: CompactingLog | None = None
    purgeable: tuple[tuple[str, PurgeableStore], ...] = ()
    payloads: PayloadIndex | None = None


def capabilities_of(
    log: EventLog, evidence: EvidenceStore, views: FactViews, vectors: VectorIndex | None
) -> Capabilities:
    """What these adapters offer beyond their ports. A sealed vector index is asked
    through to the index it wraps (sealing changes neither purging nor payloads)."""
    index = vectors.inner if isinstance(vectors, SealedVectorIndex) else vectors
    stores = [("vector_index", index), ("fact_views", views), ("evidence_store", evidence)]
    purgeable: list[tuple[str, PurgeableStore]] = []
    for name, store in [*stores, ("log", log)]:
        if isinstance(store, PurgeableStore):
            purgeable.append((name, store))
    return Capabilities(
        compacting=log if isinstance(log, CompactingLog) else None,
        purgeable=tuple(purgeable),
        payloads=index if isinstance(index, PayloadIndex) else None,
    )


class ErasureUnavailableError(RuntimeError):
    """This process cannot run an erasure: the gate state lives elsewhere."""


@dataclass(frozen=True)
class GateKeeper:
    """Where a scope's gate state lives: the store and the deriver that keeps it."""

    state: StateStore
    deriver: Deriver


async def _nothing() -> None:
    return None


async def _applied_inline(partition: int) -> None:
    return None


def _no_fault() -> None:
    return None


@dataclass(frozen=True)
class ErasureDeps:
    """What an erasure reads and writes. ``state`` and ``deriver`` are the gate's (absent
    in a process that only audits); ``ledger`` keeps what each request erased (ids and
    keyed fingerprints, never text) and its receipt; ``catch_up`` derives every turn
    already on the log, ``settle`` waits until the views have applied the changes sent;
    ``before_receipt`` runs just before the receipt is written (a fault point)."""

    settings: Settings
    names: TopicNames
    log: EventLog
    evidence: EvidenceStore
    views: FactViews
    keys: KeyStore
    sealer: EvidenceSealing
    vectors: VectorIndex | None
    embedder: CachingEmbedder
    ledger: StateStore
    state: StateStore | None = None
    deriver: Deriver | None = None
    catch_up: CatchUp = _nothing
    settle: Settle = _applied_inline
    before_receipt: Callable[[], None] = _no_fault
    capabilities: Capabilities = field(default_factory=Capabilities)

    def gate(self) -> GateKeeper | None:
        """The gate state, where it lives in this process."""
        if self.state is None or self.deriver is None:
            return None
        return GateKeeper(self.state, self.deriver)

    def gate_here(self) -> GateKeeper:
        gate = self.gate()
        if gate is None:
            raise ErasureUnavailableError(
                "erasure runs where the gate state lives: use the embedded runtime, or file "
                "the request on the erasure-requests topic for the workers"
            )
        return gate
