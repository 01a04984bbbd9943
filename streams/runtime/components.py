"""Bootstrap: build the components of one runtime from settings. Nothing global."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ...core.ports import (
    EventLog,
    EvidenceStore,
    FactViews,
    KeyStore,
    StateStore,
    VectorIndex,
)
from ...infra.crypto import EvidenceSealer, master_key
from ...infra.embedding import DIM as EMBEDDING_DIM
from ...infra.embedding import MiniLMEmbedder
from ...infra.generations import Generation, read_file_pointer
from ...infra.sealed_vectors import SealedVectorIndex
from ...infra.sealing import SealedGateState, ViewSealer
from ...infra.settings import Settings
from ...infra.sparse import BM25Encoder
from ..gate_store import GateStore
from ..indexing import EvidenceIndexer, SearchIndex
from ..pipeline import Deriver, Materializer
from ..runner import Runner, StageBinding
from ..sealed_topics import sealed_log
from ..topics import DATA_KEYS, TopicNames
from ..wiring import derive_deps


@dataclass
class Components:
    """Everything a process of one runtime needs, wired once at start-up."""

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
    closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    state: StateStore | None = None
    deriver: Deriver | None = None
    generation: Generation = Generation()

    async def close(self) -> None:
        for close in reversed(self.closers):
            await close()

    def pipeline_groups(self) -> dict[str, str]:
        """The consumer group deriving the turns and the one materializing the fact
        changes, per topic: the faust workers' group on Kafka; on the embedded runtime
        the live generation's (a replay switch moves them)."""
        base = self.settings.consumer_group
        if self.settings.runtime == "kafka":
            return {self.names.turns: base, self.names.fact_changes: base}
        facts_group, _ = view_groups(self.settings, self.generation)
        return {
            self.names.turns: self.generation.derive_group(base),
            self.names.fact_changes: facts_group,
        }


async def build(settings: Settings, generation: Generation | None = None) -> Components:
    """Components of the runtime ``settings.runtime`` names, on the live generation of
    views (see infra/generations.py) or on ``generation`` (a replay builds one)."""
    if settings.runtime == "kafka":
        return await _build_kafka(settings, generation)
    return await _build_embedded(settings, generation)


def pointer_path(settings: Settings) -> Path:
    """The embedded runtime's generation pointer."""
    return settings.data_dir / "generation.json"


def view_groups(settings: Settings, generation: Generation) -> tuple[str, str]:
    """Consumer groups projecting fact changes and turns into a generation's views."""
    base = settings.consumer_group
    if settings.runtime == "kafka":
        base = _local_index_group(settings)
    group = generation.views_group(base)
    return group, group + ".evidence"


async def _build_embedded(settings: Settings, chosen: Generation | None) -> Components:
    from ...infra.embedded_log import EmbeddedEventLog
    from ...infra.embedded_stores import (
        EmbeddedEvidenceStore,
        EmbeddedFactViews,
        EmbeddedKeyStore,
        EmbeddedStateStore,
        EmbeddedStores,
    )
    from ...infra.vectors import EdgeVectorIndex

    generation = chosen or read_file_pointer(pointer_path(settings)).live
    names = TopicNames(settings.topic_prefix)
    log = EmbeddedEventLog(settings.data_dir / "log.db")
    await log.ensure_topics(names.configs(settings.partitions))
    stores = EmbeddedStores(settings.data_dir / "views.db")
    fact_stores = stores
    if generation.views:
        fact_stores = EmbeddedStores(settings.data_dir / f"views{generation.suffix()}.db")
    evidence, views = EmbeddedEvidenceStore(stores), EmbeddedFactViews(fact_stores)
    keys, state = EmbeddedKeyStore(stores), EmbeddedStateStore(stores)
    sealer, view_sealer = await _sealers(settings, keys)
    log = sealed_log(log, sealer, names)  # seal: record values sealed at the log boundary
    stores.seal_with(view_sealer)
    fact_stores.seal_with(view_sealer)
    state = SealedGateState(state, view_sealer)
    embedder = MiniLMEmbedder(threads=settings.embedding_threads)
    folder = settings.data_dir / f"vectors{generation.suffix()}"
    vectors = SealedVectorIndex(EdgeVectorIndex(folder, EMBEDDING_DIM), view_sealer)
    deps = derive_deps(settings, evidence, state, sealer, embedder)
    deps = replace(deps, gate=GateStore(state, generation.gate_namespace()))
    deriver = Deriver(names, settings.partitions, deps)
    index = SearchIndex(vectors, embedder, BM25Encoder())
    facts_group, evidence_group = view_groups(settings, generation)
    derive_group = generation.derive_group(settings.consumer_group)
    runner = Runner(
        log,
        state,
        [
            StageBinding("derive", names.turns, derive_group, deriver),
            StageBinding(
                "materialize", names.fact_changes, facts_group, Materializer(names, views, index)
            ),
            StageBinding(
                "index-evidence", names.turns, evidence_group, EvidenceIndexer(index, sealer)
            ),
        ],
    )
    closers = [log.close, vectors.close, stores.close]
    if fact_stores is not stores:
        closers.append(fact_stores.close)
    return Components(
        settings,
        names,
        log,
        evidence,
        views,
        keys,
        sealer,
        vectors,
        embedder,
        index,
        runner,
        closers,
        state,
        deriver,
        generation,
    )


async def _build_kafka(settings: Settings, chosen: Generation | None) -> Components:
    from ...infra.generations import FollowingFactViews, RedisPointer, redis_pointer_key
    from ...infra.kafka_log import KafkaEventLog
    from ...infra.logged_keys import LoggedKeyStore
    from ...infra.redis_client import redis_client
    from ...infra.redis_stores import RedisEvidenceStore, RedisFactViews, RedisKeys, RedisKeyStore

    names = TopicNames(settings.topic_prefix)
    log = KafkaEventLog(
        settings.broker_url,
        max_batch_size=settings.producer_max_batch_size,
        request_timeout_s=settings.broker_request_timeout_s,
    )
    await log.ensure_topics(names.configs(settings.partitions))
    client = redis_client(settings.redis_url)
    pointer = RedisPointer(client, redis_pointer_key(settings.redis_prefix))
    generation = chosen or (await pointer.read()).live
    redis_keys = RedisKeys(settings.redis_prefix)
    keys = LoggedKeyStore(RedisKeyStore(client, redis_keys), log, DATA_KEYS.config(names.prefix))
    sealer, view_sealer = await _sealers(settings, keys)
    log = sealed_log(log, sealer, names)  # seal: record values sealed at the log boundary
    evidence = RedisEvidenceStore(client, redis_keys, view_sealer)
    views: FactViews = FollowingFactViews(client, settings.redis_prefix, view_sealer)
    if chosen is not None:  # a replay's target: exactly that generation
        target = RedisKeys(chosen.redis_prefix(settings.redis_prefix))
        views = RedisFactViews(client, target, view_sealer)
    embedder = MiniLMEmbedder(threads=settings.embedding_threads)
    vectors = SealedVectorIndex(_reader_vectors(settings, generation), view_sealer)
    local = settings.qdrant_url is None  # this process's own index: it purges it
    index = SearchIndex(vectors, embedder, BM25Encoder(), purge_after_erase=local)
    runner = Runner(log, None, _reader_stages(settings, names, index, sealer, generation))
    closers = [log.close, vectors.close, client.aclose]
    return Components(
        settings,
        names,
        log,
        evidence,
        views,
        keys,
        sealer,
        vectors,
        embedder,
        index,
        runner,
        closers,
        generation=generation,
    )


async def _sealers(settings: Settings, keys: KeyStore) -> tuple[EvidenceSealer, ViewSealer]:
    """The evidence sealer, checked against the deployment's master key before anything
    else (a foreign key refuses to start: infra/crypto.py), and the views' sealer."""
    sealer = EvidenceSealer(master_key(settings), keys)
    await sealer.verify()
    return sealer, ViewSealer(sealer)


def _reader_stages(
    settings: Settings,
    names: TopicNames,
    index: SearchIndex,
    sealer: EvidenceSealer,
    generation: Generation,
) -> list[StageBinding]:
    """Without a Qdrant server this process keeps its own local index current."""
    if settings.qdrant_url is not None:
        return []
    facts_group, evidence_group = view_groups(settings, generation)
    return [
        StageBinding("index", names.fact_changes, facts_group, Materializer(names, None, index)),
        StageBinding("index-evidence", names.turns, evidence_group, EvidenceIndexer(index, sealer)),
    ]


def _reader_vectors(settings: Settings, generation: Generation) -> VectorIndex:
    from ...infra.vectors import EdgeVectorIndex, QdrantVectorIndex

    if settings.qdrant_url is not None:
        collection = f"{settings.topic_prefix}-facts"
        return QdrantVectorIndex(url=settings.qdrant_url, collection=collection, dim=EMBEDDING_DIM)
    folder = settings.data_dir / f"vectors-local{generation.suffix()}"
    return EdgeVectorIndex(folder, EMBEDDING_DIM)


def _local_index_group(settings: Settings) -> str:
    """A consumer group per local index folder: its offsets belong to that folder."""
    folder = str(Path(settings.data_dir).resolve()).encode()
    return f"{settings.consumer_group}.index.{hashlib.sha256(folder).hexdigest()[:12]}"
