"""What an erasure reads and writes (:class:`ErasureDeps`), and the capabilities only some
adapters have, as ports.

- :class:`CompactingLog`: a log that compacts when asked (the embedded log; a Kafka
  broker's log cleaner compacts on its own schedule);
- :class:`PurgeableStore`: a store that can drop deleted data physically (the edge
  vector shard is rebuilt, SQLite files are checkpointed and their WAL truncated);
- :class:`PayloadIndex`: an index that reads a point's payload back by id (the audit).

:func:`~provmem.streams.runtime.erasure.erasure_deps` composes an erasure's dependencies in
one place, from what a process's composition root holds (:class:`ErasureParts`: the
runtime's ``Components``, or a faust worker's parts), and asks the adapters' types once,
there; the cascade and the audit then use the ports they were given and never probe an
adapter for a method.
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
    HeldBytes,
    KeyStore,
    PayloadIndex,
    PurgeableStore,
    StateStore,
    VectorIndex,
)
from provmem.streams.erasure.secrets import ErasureSecrets
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
class ScopeCompacting(Protocol):
    async def compact_scope(self, scope_key: str, partition: int, topic: str, *more: str) -> int:
        """``compact`` of one scope's records (and of those that show no scope) on one
        partition of the topics: an erasure's cost follows its scope, not the log."""
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
    ``before_receipt`` runs just before the receipt is written (a fault point);
    ``secrets``: what it derives from the master key; ``elsewhere``: the stores outside
    the data folder whose bytes the audit reads (a Redis namespace, a Qdrant server's
    collection), the root's own clients."""

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
    secrets: ErasureSecrets
    state: StateStore | None = None
    deriver: Deriver | None = None
    elsewhere: tuple[HeldBytes, ...] = ()
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


class ErasureParts(Protocol):
    """What a process's composition root holds that an erasure uses: the runtime's
    ``Components`` (streams/runtime/base.py) or a faust worker's parts (streams/faust/app.py).
    ``state`` and ``deriver`` are None where the gate state lives in another process;
    ``elsewhere``: the stores outside the data folder (:class:`HeldBytes`) it has clients of."""

    @property
    def settings(self) -> Settings: ...
    @property
    def names(self) -> TopicNames: ...
    @property
    def log(self) -> EventLog: ...
    @property
    def evidence(self) -> EvidenceStore: ...
    @property
    def views(self) -> FactViews: ...
    @property
    def keys(self) -> KeyStore: ...
    @property
    def sealer(self) -> EvidenceSealing: ...
    @property
    def vectors(self) -> VectorIndex | None: ...
    @property
    def embedder(self) -> CachingEmbedder: ...
    @property
    def ledger(self) -> StateStore: ...
    @property
    def state(self) -> StateStore | None: ...
    @property
    def deriver(self) -> Deriver | None: ...
    @property
    def elsewhere(self) -> tuple[HeldBytes, ...]: ...
