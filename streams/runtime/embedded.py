"""The embedded runtime's composition root: a durable single-node log on local disk, local
SQLite views and an edge vector index, every stage run by this process's runner."""

from __future__ import annotations

import shutil
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...infra.embedding import DIM as EMBEDDING_DIM
from ...infra.embedding import MiniLMEmbedder
from ...infra.generations import FilePointer, Generation, GenerationPointer, read_file_pointer
from ...infra.leases import file_lease
from ...infra.sealed_vectors import SealedVectorIndex
from ...infra.sealing import SealedGateState
from ...infra.settings import Settings
from ...infra.sparse import BM25Encoder
from ..gate_store import GateStore
from ..indexing import SearchIndex
from ..pipeline import Deriver
from ..runner import Runner
from ..sealed_topics import sealed_log
from ..topics import TopicNames
from ..wiring import derive_deps, sealers, stage_bindings
from .base import Components

if TYPE_CHECKING:
    from ...core.ports import ApiKeyStore

#: The fact-view tables of views.db (generation 0 keeps them beside evidence and keys).
_FACT_TABLES = ("facts", "fact_evidence", "fact_history", "fact_entities", "fact_slots")


@dataclass(frozen=True)
class EmbeddedRuntime:
    """Everything in this process: it derives, materializes and indexes itself."""

    settings: Settings
    derives_in_workers: bool = False

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
        from ...infra.embedded_stores import EmbeddedApiKeyStore

        return EmbeddedApiKeyStore(self.settings.data_dir / "api-keys.db")

    async def open_pointer(self, stack: AsyncExitStack) -> GenerationPointer:
        return FilePointer(self.pointer_path())

    def replay_lease(self, job_id: str) -> AbstractAsyncContextManager[None]:
        return file_lease(self.settings.data_dir / "replay.lock")

    def vectors_folder(self, generation: Generation) -> Path:
        return self.settings.data_dir / f"vectors{generation.suffix()}"

    async def drop_views(self, generation: Generation) -> None:
        """A generation's views file, or generation 0's fact tables, and its vectors."""
        from ...infra.sqlite_db import connect

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
        from ...infra.embedded_stores import EmbeddedStateStore, EmbeddedStores

        stores = EmbeddedStores(self.settings.data_dir / "views.db")
        try:
            state = EmbeddedStateStore(stores)
            for key in await state.keys_with_prefix(generation.gate_namespace() + "gate|"):
                await state.delete(key)
        finally:
            await stores.close()

    def replay_refusal(self, mode: str, switch: bool, whole_log: bool) -> str | None:
        return None  # the gate state and the views are both here: every replay runs


async def _build(runtime: EmbeddedRuntime, generation: Generation) -> Components:
    from ...infra.embedded_log import EmbeddedEventLog
    from ...infra.embedded_stores import (
        EmbeddedEvidenceStore,
        EmbeddedFactViews,
        EmbeddedKeyStore,
        EmbeddedStateStore,
        EmbeddedStores,
    )
    from ...infra.vectors import EdgeVectorIndex

    settings = runtime.settings
    names = TopicNames(settings.topic_prefix)
    log = EmbeddedEventLog(settings.data_dir / "log.db")
    await log.ensure_topics(names.configs(settings.partitions))
    stores = EmbeddedStores(settings.data_dir / "views.db")
    fact_stores = stores
    if generation.views:
        fact_stores = EmbeddedStores(settings.data_dir / f"views{generation.suffix()}.db")
    keys = EmbeddedKeyStore(stores)
    sealer, view_sealer = await sealers(settings, keys)
    log = sealed_log(log, sealer, names)  # seal: record values sealed at the log boundary
    stores.seal_with(view_sealer)
    fact_stores.seal_with(view_sealer)
    state = SealedGateState(EmbeddedStateStore(stores), view_sealer)
    embedder = MiniLMEmbedder(threads=settings.embedding_threads)
    folder = runtime.vectors_folder(generation)
    vectors = SealedVectorIndex(EdgeVectorIndex(folder, EMBEDDING_DIM), view_sealer)
    evidence, views = EmbeddedEvidenceStore(stores), EmbeddedFactViews(fact_stores)
    deps = derive_deps(settings, evidence, state, sealer, embedder)
    deps = replace(deps, gate=GateStore(state, generation.gate_namespace()))
    deriver = Deriver(names, settings.partitions, deps)
    index = SearchIndex(vectors, embedder, BM25Encoder())
    facts_group, evidence_group = runtime.view_groups(generation)
    groups = {
        "derive": generation.derive_group(settings.consumer_group),
        "materialize": facts_group,
        "index-evidence": evidence_group,
    }
    bindings = stage_bindings(
        names, groups, deriver=deriver, views=views, index=index, sealer=sealer, log=log
    )
    closers = [log.close, vectors.close, stores.close]
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
        runner=Runner(log, state, bindings),
        ledger=state,
        closers=closers,
        state=state,
        deriver=deriver,
        generation=generation,
    )
