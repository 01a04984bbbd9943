"""The embedded runtime's composition root: a durable single-node log on local disk, local
SQLite views and an edge vector index, every stage run by this process's runner."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from provmem.config import Settings
from provmem.infra.crypto.sealing import SealedGateState
from provmem.infra.models.embedding import MiniLMEmbedder
from provmem.infra.models.sparse import BM25Encoder
from provmem.infra.stores.generations import (
    FilePointer,
    Generation,
    GenerationPointer,
    read_file_pointer,
)
from provmem.infra.stores.leases import file_lease
from provmem.infra.vectors.sealed import SealedVectorIndex
from provmem.streams.gate_store import GateStore
from provmem.streams.indexing import SearchIndex
from provmem.streams.pipeline import Deriver
from provmem.streams.runner import Runner
from provmem.streams.runtime.base import Closer, Components
from provmem.streams.runtime.index_slots import ReaderRunner, claim_index, slot_groups
from provmem.streams.runtime.sealed_topics import sealed_log
from provmem.streams.runtime.wiring import derive_deps, sealers, stage_bindings
from provmem.streams.topics import TopicNames

if TYPE_CHECKING:
    from provmem.core.ports import ApiKeyStore

#: The fact-view tables of views.db (generation 0 keeps them beside evidence and keys).
_FACT_TABLES = ("facts", "fact_evidence", "fact_history", "fact_entities", "fact_slots")


@dataclass(frozen=True)
class EmbeddedRuntime:
    """Everything in this process: it derives, materializes and indexes itself."""

    settings: Settings
    derives_in_workers: bool = False
    memory_in_folder: bool = True

    async def build(self, generation: Generation | None = None) -> Components:
        """Components on the live generation of views, or on ``generation`` (a replay's)."""
        return await _build(self, generation or read_file_pointer(self.pointer_path()).live)

    def pointer_path(self) -> Path:
        return self.settings.data_dir / "generation.json"

    def view_groups(self, generation: Generation) -> tuple[str, str]:
        group = generation.views_group(self.settings.consumer_group)
        return group, group + ".evidence"

    def pipeline_groups(self, generation: Generation) -> dict[str, str]:
        names = TopicNames(self.settings.topic_prefix)
        return {
            names.turns: generation.derive_group(self.settings.consumer_group),
            names.fact_changes: self.view_groups(generation)[0],
        }

    def open_key_store(self) -> ApiKeyStore:
        from provmem.infra.stores.embedded import EmbeddedApiKeyStore

        return EmbeddedApiKeyStore(self.settings.data_dir / "api-keys.db")

    async def open_pointer(self, stack: AsyncExitStack) -> GenerationPointer:
        return FilePointer(self.pointer_path())

    def replay_lease(self, job_id: str) -> AbstractAsyncContextManager[None]:
        return file_lease(self.settings.data_dir / "replay.lock")

    def vectors_folder(self, generation: Generation) -> Path:
        return self.settings.data_dir / f"vectors{generation.suffix()}"

    async def drop_views(self, generation: Generation, vectors: bool = True) -> None:
        """A generation's views file, or generation 0's fact tables, and its vectors
        (unless ``vectors`` is False)."""
        from provmem.infra.stores.sqlite import connect

        if vectors:
            shutil.rmtree(self.vectors_folder(generation), True)
        if generation.views:
            for suffix in ("", "-wal", "-shm"):
                (self.settings.data_dir / f"views{generation.suffix()}.db{suffix}").unlink(True)
            return
        conn = connect(self.settings.data_dir / "views.db", durable=False)
        try:
            with conn:
                for table in _FACT_TABLES:
                    conn.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed table names
        finally:
            conn.close()

    async def drop_gate_state(self, generation: Generation) -> None:
        from provmem.infra.stores.embedded import EmbeddedStateStore, EmbeddedStores

        stores = EmbeddedStores(self.settings.data_dir / "views.db")
        try:
            state = EmbeddedStateStore(stores)
            for key in await state.keys_with_prefix(generation.gate_namespace() + "gate|"):
                await state.delete(key)
        finally:
            await stores.close()

    def replay_refusal(self, mode: str, switch: bool, whole_log: bool) -> str | None:
        return None  # the gate state and the views are both here: every replay runs

    async def switch_refusal(self, mode: str) -> str | None:
        return None  # no workers: the replay holds the folder's index (the owner's)

    async def hand_over_gate(self, generation: Generation, state: Mapping[str, bytes]) -> None:
        return None  # the replay derived into the folder's own gate state

    async def hand_over_groups(
        self, live: Generation, generation: Generation, fact_changes: Mapping[int, int]
    ) -> None:
        return None  # the new generation's groups are the replay's


async def _build(runtime: EmbeddedRuntime, generation: Generation) -> Components:
    from provmem.infra.log.embedded import EmbeddedEventLog
    from provmem.infra.stores.embedded import (
        EmbeddedEvidenceStore,
        EmbeddedFactViews,
        EmbeddedKeyStore,
        EmbeddedStateStore,
        EmbeddedStores,
    )

    settings = runtime.settings
    names = TopicNames(settings.topic_prefix)
    local_log = EmbeddedEventLog(settings.data_dir / "log.db")
    await local_log.ensure_topics(names.configs(settings.partitions))
    stores = EmbeddedStores(settings.data_dir / "views.db")
    fact_stores = stores
    if generation.views:
        fact_stores = EmbeddedStores(settings.data_dir / f"views{generation.suffix()}.db")
    keys = EmbeddedKeyStore(stores)
    sealer, view_sealer = await sealers(settings, keys)
    log = sealed_log(local_log, sealer, names)  # seal: record values sealed at the log boundary
    stores.seal_with(view_sealer)
    fact_stores.seal_with(view_sealer)
    state = SealedGateState(EmbeddedStateStore(stores), view_sealer)
    embedder = MiniLMEmbedder(threads=settings.embedding_threads)
    view_groups = runtime.view_groups(generation)
    topics = (names.fact_changes, names.turns)
    slot = await claim_index(runtime.vectors_folder(generation), view_groups, log, topics)
    vectors = SealedVectorIndex(slot.index, view_sealer)
    evidence, views = EmbeddedEvidenceStore(stores), EmbeddedFactViews(fact_stores)
    deps = derive_deps(settings, evidence, state, sealer, embedder)
    deps = replace(deps, gate=GateStore(state, generation.gate_namespace()))
    deriver = Deriver(names, settings.partitions, deps)
    index = SearchIndex(vectors, embedder, BM25Encoder())
    groups = slot_groups(slot.number, view_groups)
    groups["derive"] = generation.derive_group(settings.consumer_group)
    owner = slot.number == 0
    bindings = stage_bindings(
        names,
        groups,
        deriver=deriver if owner else None,
        views=views if owner else None,
        index=index,
        sealer=sealer,
        log=log,
    )
    runner = Runner(log, state, bindings)
    if not owner:
        erasures = (settings.consumer_group, names.erasure_requests)
        runner = ReaderRunner(log, bindings, slot, erasures)
    closers: list[Closer] = [log.close, slot.release, vectors.close, stores.close]
    if fact_stores is not stores:
        closers.append(fact_stores.close)
    return Components(
        runtime=runtime,
        settings=settings,
        names=names,
        log=log,
        evidence=evidence,
        views=views,
        keys=keys,
        sealer=sealer,
        vectors=vectors,
        embedder=embedder,
        index=index,
        runner=runner,
        ledger=state,
        closers=closers,
        state=state if owner else None,
        deriver=deriver if owner else None,
        generation=generation,
        index_slot=slot.number,
    )
