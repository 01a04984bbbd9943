"""What a composition root builds (:class:`Components`) and what each runtime offers the
layers above it (:class:`Runtime`): the choices that differ between the embedded and the
distributed runtime, made once by the root and asked for by name, never by comparing
``settings.runtime``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from provmem.config import Settings
from provmem.core.ports import (
    EventLog,
    EvidenceStore,
    FactViews,
    HeldBytes,
    KeyStore,
    StateStore,
    VectorIndex,
)
from provmem.infra.crypto.envelope import EvidenceSealer
from provmem.infra.models.embedding import MiniLMEmbedder
from provmem.infra.stores.generations import Generation, GenerationPointer
from provmem.streams.indexing import SearchIndex
from provmem.streams.pipeline import Deriver
from provmem.streams.runner import Runner
from provmem.streams.topics import TopicNames

if TYPE_CHECKING:
    from provmem.core.ports import ApiKeyStore


class Runtime(Protocol):
    """One runtime's answers to what the service layer must not decide by name.

    ``derives_in_workers``: turns are derived by worker processes (faust), not by this
    process's runner; the service layer waits for them instead of running stages."""

    @property
    def settings(self) -> Settings: ...

    @property
    def derives_in_workers(self) -> bool: ...

    @property
    def memory_in_folder(self) -> bool:
        """The data folder holds the memory itself (a read needs it)."""
        ...

    async def build(self, generation: Generation | None = None) -> Components: ...

    def view_groups(self, generation: Generation) -> tuple[str, str]: ...

    def pipeline_groups(self, generation: Generation) -> dict[str, str]: ...

    def open_key_store(self) -> ApiKeyStore: ...

    async def open_pointer(self, stack: AsyncExitStack) -> GenerationPointer: ...

    def replay_lease(self, job_id: str) -> AbstractAsyncContextManager[None]: ...

    def vectors_folder(self, generation: Generation) -> Path: ...

    async def drop_views(self, generation: Generation, vectors: bool = True) -> None: ...

    async def drop_gate_state(self, generation: Generation) -> None: ...

    def replay_refusal(self, mode: str, switch: bool, whole_log: bool) -> str | None: ...

    async def switch_refusal(self, mode: str) -> str | None:
        """Why a replay in ``mode`` may not switch now (workers hold the live gate)."""
        ...

    async def hand_over_gate(self, generation: Generation, state: Mapping[str, bytes]) -> None:
        """Put a re-derived gate state where the workers of ``generation`` will read it."""
        ...

    async def hand_over_groups(
        self, live: Generation, generation: Generation, fact_changes: Mapping[int, int]
    ) -> None:
        """Move the workers' groups to where a switched replay from turns stopped."""
        ...


Closer = Callable[[], Awaitable[None]]


@dataclass(kw_only=True)
class Components:
    """Everything a process of one runtime needs, wired once at start-up by its root.

    ``ledger`` keeps the erasure requests' entries and receipts; ``state`` and
    ``deriver`` are the gate's, present where this process derives (embedded);
    ``elsewhere``: the stores outside the data folder it holds clients of (Redis, a
    Qdrant server), whose bytes an erasure audit reads; ``index_slot``: 0 where this
    process owns the folder's vector index, N where it reads beside the owner in a slot
    of its own (streams/runtime/index_slots.py)."""

    runtime: Runtime
    settings: Settings
    names: TopicNames
    log: EventLog
    evidence: EvidenceStore
    views: FactViews
    keys: KeyStore
    sealer: EvidenceSealer
    vectors: VectorIndex
    embedder: MiniLMEmbedder
    index: SearchIndex
    runner: Runner
    ledger: StateStore
    closers: list[Closer] = field(default_factory=list)
    state: StateStore | None = None
    deriver: Deriver | None = None
    generation: Generation = Generation()
    elsewhere: tuple[HeldBytes, ...] = ()
    index_slot: int = 0

    async def close(self) -> None:
        for close in reversed(self.closers):
            await close()

    def pipeline_groups(self) -> dict[str, str]:
        """The consumer group deriving the turns and the one materializing the fact
        changes, per topic (the runtime says which)."""
        return self.runtime.pipeline_groups(self.generation)
