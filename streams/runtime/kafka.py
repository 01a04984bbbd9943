"""The distributed runtime's composition root: Kafka topics, Redis views and keys, Qdrant
or a local vector index. Worker processes (streams/faust/app.py) derive and materialize;
a process built here publishes, reads, and keeps its own local index current when there
is no Qdrant server: the data folder's ``vectors-local`` for the first process on the
folder (a running API), a reader slot ``vectors-local-rN`` beside it for the others (a CLI
command), each filled from the log in consumer groups of its own and purged of what an
erasure's ERASE changes name (streams/runtime/index_slots.py)."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from provmem.config import Settings
from provmem.core.ports import (
    Append,
    BulkStateStore,
    Cleanup,
    EventLog,
    EvidenceStore,
    FactViews,
    HeldBytes,
    KeyStore,
    StateStore,
    TopicConfig,
)
from provmem.core.scope import partition_for
from provmem.infra.crypto.envelope import EvidenceSealer, master_key
from provmem.infra.models.embedding import DIM as EMBEDDING_DIM
from provmem.infra.models.embedding import MiniLMEmbedder
from provmem.infra.models.sparse import BM25Encoder
from provmem.infra.stores.generations import Generation, GenerationPointer
from provmem.infra.stores.leases import redis_lease
from provmem.infra.vectors.sealed import SealedVectorIndex
from provmem.streams.indexing import SearchIndex
from provmem.streams.runner import Runner, StageBinding
from provmem.streams.runtime.base import Closer, Components
from provmem.streams.runtime.sealed_topics import sealed_log
from provmem.streams.runtime.wiring import sealers, stage_bindings
from provmem.streams.topics import DATA_KEYS, TopicNames, gate_changelog

if TYPE_CHECKING:
    import redis.asyncio as aioredis

    from provmem.core.ports import ApiKeyStore
    from provmem.infra.log.kafka import KafkaEventLog
    from provmem.infra.vectors.qdrant import QdrantVectorIndex
    from provmem.streams.runtime.index_slots import IndexSlot

#: The fact-view key families of infra/stores/redis_stores.py (generation 0 shares its prefix
#: with evidence and data keys, which a replay never drops).
#: ``PROVMEM_QDRANT_URL=file:<folder>``: qdrant-client's local mode (:func:`server_vectors`).
LOCAL_QDRANT = "file:"
#: Records per append when a replay writes or tombstones the workers' gate changelog.
CHANGELOG_BATCH = 500
_REDIS_FACT_FAMILIES = ["fact:*", "scope:*:facts", "evfacts:*", "history:*", "entity:*", "slot:*"]


@dataclass(frozen=True)
class KafkaRuntime:
    """Workers derive; this process reads, and indexes locally without Qdrant."""

    settings: Settings
    derives_in_workers: bool = True
    memory_in_folder: bool = False

    async def build(self, generation: Generation | None = None) -> Components:
        """Components on the live generation, or exactly on ``generation`` (a replay's)."""
        return await _build(self, generation)

    def view_groups(self, generation: Generation) -> tuple[str, str]:
        """The groups projecting fact changes and turns into this process's local index."""
        group = generation.views_group(_local_index_group(self.settings))
        return group, group + ".evidence"

    def pipeline_groups(self, generation: Generation) -> dict[str, str]:
        """The faust workers' group of the generation's gate, on both pipeline topics."""
        names = TopicNames(self.settings.topic_prefix)
        group = generation.derive_group(self.settings.consumer_group)
        return {names.turns: group, names.fact_changes: group}

    def open_key_store(self) -> ApiKeyStore:
        from provmem.infra.crypto.logged_keys import LoggedApiKeyStore
        from provmem.infra.log.kafka import KafkaEventLog
        from provmem.infra.stores.redis_client import redis_client
        from provmem.infra.stores.redis_stores import RedisApiKeyStore, RedisKeys
        from provmem.streams.topics import API_KEYS

        settings = self.settings
        cache = RedisApiKeyStore(redis_client(settings.redis_url), RedisKeys(settings.redis_prefix))
        log = KafkaEventLog(
            settings.broker_url,
            client_id="provmem-api-keys",
            max_batch_size=settings.producer_max_batch_size,
        )
        return LoggedApiKeyStore(cache, log, API_KEYS.config(settings.topic_prefix))

    async def open_pointer(self, stack: AsyncExitStack) -> GenerationPointer:
        from provmem.infra.stores.generations import RedisPointer, redis_pointer_key
        from provmem.infra.stores.redis_client import redis_client

        client = redis_client(self.settings.redis_url)
        stack.push_async_callback(client.aclose)
        return RedisPointer(client, redis_pointer_key(self.settings.redis_prefix))

    def replay_lease(self, job_id: str) -> AbstractAsyncContextManager[None]:
        from provmem.streams.runtime.worker_presence import replay_lease_key

        key = replay_lease_key(self.settings.redis_prefix)
        return redis_lease(self.settings.redis_url, key, job_id)

    def vectors_folder(self, generation: Generation) -> Path:
        return self.settings.data_dir / f"vectors-local{generation.suffix()}"

    async def drop_views(self, generation: Generation, vectors: bool = True) -> None:
        """A generation's Redis keys (generation 0: its fact-view families), local vectors
        (unless ``vectors`` is False)."""
        from provmem.infra.stores.redis_client import redis_client

        if vectors:
            shutil.rmtree(self.vectors_folder(generation), True)
        prefix = generation.redis_prefix(self.settings.redis_prefix)
        families = ["*"] if generation.views else _REDIS_FACT_FAMILIES
        client = redis_client(self.settings.redis_url)
        try:
            for family in families:
                async for key in client.scan_iter(match=f"{prefix}:{family}", count=500):
                    await client.delete(key)
        finally:
            await client.aclose()

    async def drop_gate_state(self, generation: Generation) -> None:
        """A gate generation's state: a replay's local file, the workers' table changelog of
        that generation, and its Qdrant server collection."""
        from provmem.infra.log.kafka import KafkaEventLog

        for suffix in ("", "-wal", "-shm"):
            (self.settings.data_dir / f"replay{generation.suffix()}.db{suffix}").unlink(True)
        if self.settings.qdrant_url is not None:
            await server_vectors(self.settings, generation).drop()
        topic = gate_changelog(generation.derive_group(self.settings.consumer_group))
        broker = KafkaEventLog(self.settings.broker_url, client_id="provmem-replay-gate")
        try:
            if topic in await broker.topics():
                await broker.delete_topics([topic])
        finally:
            await broker.close()

    def replay_refusal(self, mode: str, switch: bool, whole_log: bool) -> str | None:
        return None  # a switch from turns waits for the workers to stop: switch_refusal

    async def switch_refusal(self, mode: str) -> str | None:
        """A replay from turns switches the gate state the workers derive with: refused
        while any runs (streams/runtime/worker_presence.py)."""
        from provmem.streams.runtime.worker_presence import running_workers

        workers = await running_workers(self.settings) if mode == "turns" else []
        if not workers:
            return None
        return (
            "from turns with a switch on the kafka runtime: the workers derive with the live "
            f"gate state; stop them first (running: {', '.join(workers)}), they start on the "
            "new generation; or pass --no-switch (switch=false) to check it"
        )

    async def hand_over_gate(self, generation: Generation, state: Mapping[str, bytes]) -> None:
        """Before a re-derived generation goes live: its gate state (raw keys, sealed
        values) onto the changelog of the workers' table of that generation, which a
        worker started on it recovers (streams/faust/app.py: a table per gate generation)."""
        from provmem.infra.log.kafka import KafkaEventLog

        settings = self.settings
        topic = gate_changelog(generation.derive_group(settings.consumer_group))
        broker = KafkaEventLog(settings.broker_url, client_id="provmem-replay-gate")
        try:
            await broker.ensure_topics([_changelog_config(topic, settings.partitions)])
            await _write_changelog(broker, topic, state)
        finally:
            await broker.close()

    async def hand_over_groups(
        self, live: Generation, generation: Generation, fact_changes: Mapping[int, int]
    ) -> None:
        """Before a re-derived generation goes live: the group of its workers starts on the
        fact-changes topic at ``fact_changes`` (what the old gate published is re-derived
        in the new views) and on the erasure requests where the live workers' group is
        (their erasures are done). On the turns topic it is where the replay's derivation
        stopped already: the replay derived as that group."""
        from provmem.infra.log.kafka import KafkaEventLog

        settings, names = self.settings, TopicNames(self.settings.topic_prefix)
        group = generation.derive_group(settings.consumer_group)
        before = live.derive_group(settings.consumer_group)
        broker = KafkaEventLog(settings.broker_url, client_id="provmem-replay-gate")
        try:
            for partition, end in fact_changes.items():
                await broker.commit(group, names.fact_changes, partition, end)
            requests = names.erasure_requests
            for partition in range(await broker.partitions(requests)):
                offset = await broker.committed(before, requests, partition)
                await broker.commit(group, requests, partition, offset)
        finally:
            await broker.close()


def _changelog_config(topic: str, partitions: int) -> TopicConfig:
    """The workers' gate changelog as faust creates it (compacted, a partition per turns
    partition), for a deployment whose workers never started."""
    return TopicConfig(topic, partitions, Cleanup.COMPACT)


async def _write_changelog(log: KafkaEventLog, topic: str, state: Mapping[str, bytes]) -> None:
    """Gate-state records onto ``topic``, each in its scope's partition (as faust writes
    a table update: in the partition of the turn being derived)."""
    partitions = await log.partitions(topic)
    batch: list[tuple[int, Append]] = []
    for key, value in state.items():
        batch.append((_scope_partition(key, partitions), Append(0, key.encode(), value)))
    for partition in range(partitions):
        records = [replace(r, partition=partition) for p, r in batch if p == partition]
        for start in range(0, len(records), CHANGELOG_BATCH):
            await log.append(topic, records[start : start + CHANGELOG_BATCH])


def _scope_partition(key: str, partitions: int) -> int:
    """The partition of a gate-state key's scope (``[gN/]gate|<scope>|…``)."""
    scope = key.split("gate|", 1)[1].split("|", 1)[0]
    return partition_for(scope, partitions)


async def _build(runtime: KafkaRuntime, chosen: Generation | None) -> Components:
    from provmem.infra.log.kafka import KafkaEventLog
    from provmem.infra.stores.generations import FollowingFactViews, RedisPointer, redis_pointer_key
    from provmem.infra.stores.redis_client import redis_client
    from provmem.infra.stores.redis_stores import (
        RedisEvidenceStore,
        RedisFactViews,
        RedisKeys,
        RedisNamespace,
        RedisStateStore,
    )

    settings = runtime.settings
    names = TopicNames(settings.topic_prefix)
    broker_log = KafkaEventLog(
        settings.broker_url,
        max_batch_size=settings.producer_max_batch_size,
        request_timeout_s=settings.broker_request_timeout_s,
    )
    await broker_log.ensure_topics(names.configs(settings.partitions, key_ring=False))
    client = redis_client(settings.redis_url)
    pointer = RedisPointer(client, redis_pointer_key(settings.redis_prefix))
    generation = chosen or (await pointer.read()).live
    redis_keys = RedisKeys(settings.redis_prefix)
    keys = _data_keys(settings, broker_log, client)
    sealer, view_sealer = await sealers(settings, keys)
    log = sealed_log(broker_log, sealer, names)  # seal: record values sealed at the log boundary
    views: FactViews = FollowingFactViews(client, settings.redis_prefix, view_sealer)
    if chosen is not None:  # a replay's target: exactly that generation
        target = RedisKeys(chosen.redis_prefix(settings.redis_prefix))
        views = RedisFactViews(client, target, view_sealer)
    embedder = MiniLMEmbedder(threads=settings.embedding_threads)
    slot = await _local_slot(runtime, generation, log)  # None: the workers' Qdrant server
    local = slot.index if slot is not None else None
    server = [] if local is not None else [server_vectors(settings, generation)]
    plain = local if local is not None else server[0]
    vectors = SealedVectorIndex(plain, view_sealer)
    index = SearchIndex(vectors, embedder, BM25Encoder(), purge_after_erase=local)
    bindings: list[StageBinding] = []
    closers: list[Closer] = [log.close, vectors.close, client.aclose]
    if slot is not None:  # this process keeps its own local index current (and purges it)
        bindings = stage_bindings(
            names, slot.groups, deriver=None, views=None, index=index, sealer=sealer, log=log
        )
        closers.insert(1, slot.release)  # after the index closed (closers run in reverse)
    return Components(
        runtime=runtime,
        settings=settings,
        names=names,
        log=log,
        evidence=RedisEvidenceStore(client, redis_keys, view_sealer),
        views=views,
        keys=keys,
        sealer=sealer,
        vectors=vectors,
        embedder=embedder,
        index=index,
        runner=Runner(log, None, bindings),
        ledger=RedisStateStore(client, redis_keys),  # the workers' erasure ledger
        closers=closers,
        generation=generation,
        elsewhere=(RedisNamespace(client, settings.redis_prefix), *server),
        index_slot=slot.number if slot is not None else 0,
    )


@dataclass(frozen=True)
class WorkerAdapters:
    """The adapters a faust worker's agents use (streams/faust/app.py). ``index``: the
    shared Qdrant collection's, when there is one (else the readers index locally);
    ``cascade_log``: the erasure cascade's own producer; ``elsewhere``: Redis and the
    Qdrant server, whose bytes its erasures' audit reads."""

    evidence: EvidenceStore
    views: FactViews
    embedder: MiniLMEmbedder
    index: SearchIndex | None
    ledger: StateStore
    cascade_log: EventLog
    elsewhere: tuple[HeldBytes, ...] = ()


def worker_sealer(settings: Settings) -> EvidenceSealer:
    """A worker's evidence sealer over the deployment's data keys (Redis, logged)."""
    from provmem.infra.log.kafka import KafkaEventLog
    from provmem.infra.stores.redis_client import redis_client

    key_log = KafkaEventLog(  # the key ring's rewrites batch as the deployment's producers
        settings.broker_url,
        client_id="provmem-worker-keys",
        max_batch_size=settings.producer_max_batch_size,
    )
    keys = _data_keys(settings, key_log, redis_client(settings.redis_url))
    return EvidenceSealer(master_key(settings), keys)


def worker_adapters(
    settings: Settings, sealer: EvidenceSealer, generation: Generation
) -> WorkerAdapters:
    """Redis evidence and views (following a replay's switch), the embedder, the shared
    index (the collection of ``generation``, the one the worker started on), the erasure
    ledger and the cascade's producer of one worker."""
    from provmem.infra.crypto.sealing import ViewSealer
    from provmem.infra.log.kafka import KafkaEventLog
    from provmem.infra.stores.generations import FollowingFactViews
    from provmem.infra.stores.redis_client import redis_client
    from provmem.infra.stores.redis_stores import (
        RedisEvidenceStore,
        RedisKeys,
        RedisNamespace,
        RedisStateStore,
    )

    client, keys = redis_client(settings.redis_url), RedisKeys(settings.redis_prefix)
    view_sealer = ViewSealer(sealer)
    embedder = MiniLMEmbedder(threads=settings.embedding_threads)
    index = None
    elsewhere: list[HeldBytes] = [RedisNamespace(client, settings.redis_prefix)]
    if settings.qdrant_url is not None:  # workers write the index only when it is shared
        server = server_vectors(settings, generation)
        index = SearchIndex(SealedVectorIndex(server, view_sealer), embedder, BM25Encoder())
        elsewhere.append(server)
    return WorkerAdapters(
        evidence=RedisEvidenceStore(client, keys, view_sealer),
        views=FollowingFactViews(client, settings.redis_prefix, view_sealer),
        embedder=embedder,
        index=index,
        ledger=RedisStateStore(client, keys),
        cascade_log=KafkaEventLog(
            settings.broker_url, max_batch_size=settings.producer_max_batch_size
        ),
        elsewhere=tuple(elsewhere),
    )


def worker_gate_state(table: StateStore, sealer: EvidenceSealer) -> BulkStateStore:
    """A worker's gate state over its faust ``table``: read per key, sealed under the views'
    sealer."""
    from provmem.infra.crypto.sealing import SealedGateState, ViewSealer
    from provmem.infra.stores.bulk_state import PerKeyBulkState

    return SealedGateState(PerKeyBulkState(table), ViewSealer(sealer))


def delivery_log(settings: Settings) -> EventLog:
    """The log a worker's delivery guards read offsets and records from."""
    from provmem.infra.log.kafka import KafkaEventLog

    return KafkaEventLog(settings.broker_url)


async def verify_deployment_key(settings: Settings) -> None:
    """Refuse to start with a master key that is not the deployment's (infra/crypto/envelope.py)."""
    from provmem.infra.log.kafka import KafkaEventLog
    from provmem.infra.stores.redis_client import redis_client

    key_log = KafkaEventLog(settings.broker_url, client_id="provmem-worker-keycheck")
    client = redis_client(settings.redis_url)
    try:
        await EvidenceSealer(master_key(settings), _data_keys(settings, key_log, client)).verify()
    finally:
        await key_log.close()
        await client.aclose()


def _data_keys(settings: Settings, key_log: KafkaEventLog, client: aioredis.Redis) -> KeyStore:
    """The deployment's data keys: a Redis cache of the data-keys topic."""
    from provmem.infra.crypto.logged_keys import LoggedKeyStore
    from provmem.infra.stores.leases import redis_mutex
    from provmem.infra.stores.redis_stores import RedisKeys, RedisKeyStore

    cache = RedisKeyStore(client, RedisKeys(settings.redis_prefix))
    lock = redis_mutex(client, f"{settings.redis_prefix}:key-ring-lock")
    return LoggedKeyStore(cache, key_log, DATA_KEYS.config(settings.topic_prefix), lock)


async def _local_slot(
    runtime: KafkaRuntime, generation: Generation, log: EventLog
) -> IndexSlot | None:
    """This process's own index, without a Qdrant server: the folder's, when it is free,
    else a reader slot (which starts empty and reads the log from its start)."""
    from provmem.streams.runtime.index_slots import claim_index

    if runtime.settings.qdrant_url is not None:
        return None
    names = TopicNames(runtime.settings.topic_prefix)
    view_groups = runtime.view_groups(generation)
    topics = (names.fact_changes, names.turns)
    slot = await claim_index(runtime.vectors_folder(generation), view_groups, log, topics)
    slot.groups = local_index_groups(slot.number, view_groups)
    return slot


def local_index_groups(number: int, view_groups: tuple[str, str]) -> dict[str, str]:
    """The consumer groups a local index slot's stages read as (the owner's: the views'
    groups of its folder; a reader's: those with ``.rN``)."""
    facts, evidence = view_groups
    if number:
        facts, evidence = f"{facts}.r{number}", f"{evidence}.r{number}"
    return {"index": facts, "index-evidence": evidence}


def server_vectors(settings: Settings, generation: Generation) -> QdrantVectorIndex:
    """The Qdrant collection of ``generation`` (``settings.qdrant_url`` set); a URL
    ``file:<folder>`` is qdrant-client's local mode, a folder per collection that one
    process at a time may open (tests: no Qdrant server can run there)."""
    from provmem.infra.vectors.edge import QdrantVectorIndex

    url = settings.qdrant_url
    assert url is not None  # noqa: S101 - called only with a server
    collection = generation.collection(f"{settings.topic_prefix}-facts")
    if url.startswith(LOCAL_QDRANT):
        folder = Path(url.removeprefix(LOCAL_QDRANT)) / collection
        return QdrantVectorIndex(path=folder, collection=collection, dim=EMBEDDING_DIM)
    return QdrantVectorIndex(url=url, collection=collection, dim=EMBEDDING_DIM)


def _local_index_group(settings: Settings) -> str:
    """A consumer group per local index folder: its offsets belong to that folder."""
    folder = str(Path(settings.data_dir).resolve()).encode()
    return f"{settings.consumer_group}.index.{hashlib.sha256(folder).hexdigest()[:12]}"
