"""Bootstrap: build the components of one runtime from settings. Nothing global."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..core.ports import (
    EventLog,
    EvidenceStore,
    FactViews,
    KeyStore,
    StateStore,
    VectorIndex,
)
from ..infra.crypto import EvidenceSealer, master_key
from ..infra.embedding import DIM as EMBEDDING_DIM
from ..infra.embedding import MiniLMEmbedder
from ..infra.settings import Settings
from ..infra.sparse import BM25Encoder
from ..streams.indexing import EvidenceIndexer, SearchIndex
from ..streams.pipeline import Deriver, Materializer
from ..streams.runner import Runner, StageBinding
from ..streams.topics import TopicNames
from ..streams.wiring import derive_deps


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

    async def close(self) -> None:
        for close in reversed(self.closers):
            await close()


async def build(settings: Settings) -> Components:
    """Components of the runtime ``settings.runtime`` names."""
    if settings.runtime == "kafka":
        return await _build_kafka(settings)
    return await _build_embedded(settings)


async def _build_embedded(settings: Settings) -> Components:
    from ..infra.embedded_log import EmbeddedEventLog
    from ..infra.embedded_stores import (
        EmbeddedEvidenceStore,
        EmbeddedFactViews,
        EmbeddedKeyStore,
        EmbeddedStateStore,
        EmbeddedStores,
    )
    from ..infra.vectors import EdgeVectorIndex

    names = TopicNames(settings.topic_prefix)
    log = EmbeddedEventLog(settings.data_dir / "log.db")
    await log.ensure_topics(names.configs(settings.partitions))
    stores = EmbeddedStores(settings.data_dir / "views.db")
    evidence, views = EmbeddedEvidenceStore(stores), EmbeddedFactViews(stores)
    keys, state = EmbeddedKeyStore(stores), EmbeddedStateStore(stores)
    sealer = EvidenceSealer(master_key(settings), keys)
    embedder = MiniLMEmbedder(threads=settings.embedding_threads)
    vectors = EdgeVectorIndex(settings.data_dir / "vectors", EMBEDDING_DIM)
    deriver = Deriver(
        names, settings.partitions, derive_deps(settings, evidence, state, sealer, embedder)
    )
    index = SearchIndex(vectors, embedder, BM25Encoder())
    group = settings.consumer_group
    runner = Runner(
        log,
        state,
        [
            StageBinding("derive", names.turns, group, deriver),
            StageBinding(
                "materialize", names.fact_changes, group, Materializer(names, views, index)
            ),
            StageBinding(
                "index-evidence", names.turns, group + ".evidence", EvidenceIndexer(index, sealer)
            ),
        ],
    )
    closers = [log.close, vectors.close, stores.close]
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
    )


async def _build_kafka(settings: Settings) -> Components:
    import redis.asyncio as aioredis

    from ..infra.kafka_log import KafkaEventLog
    from ..infra.redis_stores import RedisEvidenceStore, RedisFactViews, RedisKeys, RedisKeyStore

    names = TopicNames(settings.topic_prefix)
    log = KafkaEventLog(settings.broker_url, max_batch_size=settings.producer_max_batch_size)
    await log.ensure_topics(names.configs(settings.partitions))
    client = aioredis.Redis.from_url(settings.redis_url)
    redis_keys = RedisKeys(settings.redis_prefix)
    evidence, views = RedisEvidenceStore(client, redis_keys), RedisFactViews(client, redis_keys)
    keys = RedisKeyStore(client, redis_keys)
    sealer = EvidenceSealer(master_key(settings), keys)
    embedder = MiniLMEmbedder(threads=settings.embedding_threads)
    vectors = _reader_vectors(settings)
    index = SearchIndex(vectors, embedder, BM25Encoder())
    runner = Runner(log, None, _reader_stages(settings, names, index, sealer))
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
    )


def _reader_stages(
    settings: Settings, names: TopicNames, index: SearchIndex, sealer: EvidenceSealer
) -> list[StageBinding]:
    """Without a Qdrant server this process keeps its own local index current."""
    if settings.qdrant_url is not None:
        return []
    group = _local_index_group(settings)
    return [
        StageBinding("index", names.fact_changes, group, Materializer(names, None, index)),
        StageBinding(
            "index-evidence", names.turns, group + ".evidence", EvidenceIndexer(index, sealer)
        ),
    ]


def _reader_vectors(settings: Settings) -> VectorIndex:
    from ..infra.vectors import EdgeVectorIndex, QdrantVectorIndex

    if settings.qdrant_url is not None:
        collection = f"{settings.topic_prefix}-facts"
        return QdrantVectorIndex(url=settings.qdrant_url, collection=collection, dim=EMBEDDING_DIM)
    return EdgeVectorIndex(settings.data_dir / "vectors-local", EMBEDDING_DIM)


def _local_index_group(settings: Settings) -> str:
    """A consumer group per local index folder: its offsets belong to that folder."""
    folder = str(Path(settings.data_dir).resolve()).encode()
    return f"{settings.consumer_group}.index.{hashlib.sha256(folder).hexdigest()[:12]}"
