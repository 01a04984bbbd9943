"""The distributed runtime: a faust-streaming app whose agents are thin wrappers.

Each agent decodes nothing and decides nothing: it hands the record to the same
pipeline handler the embedded runner uses, sends what the handler returns, waits
for the broker to acknowledge it, and only then saves state (a faust table whose
changelog is a compacted Kafka topic). Offsets are committed after that, so a
crash replays the record and the idempotent handlers make the replay harmless.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import faust
import structlog
from faust.types import TP

from provmem.config import Settings
from provmem.core.ports import (
    BulkStateStore,
    CachingEmbedder,
    EventLog,
    EvidenceStore,
    FactViews,
    HeldBytes,
    KeyStore,
    LogRecord,
    StateStore,
    VectorIndex,
)
from provmem.streams.delivery import DeliveryGuard, Partition
from provmem.streams.erasure.cascade import views_applied
from provmem.streams.erasure.eraser import Eraser
from provmem.streams.erasure.requests import ErasureRouter, ScopeRecords
from provmem.streams.faust.compat import fence_commits, quick_stop_worker, require_tested_faust
from provmem.streams.faust.health import Assignment, serve_health
from provmem.streams.faust.state_folder import StateFolder, claim_state_folder, worker_name
from provmem.streams.gate_store import GateStore
from provmem.streams.indexing import EvidenceIndexer, TombstonedTurns
from provmem.streams.outcome import Origin, Outgoing, execute
from provmem.streams.pipeline import Deriver, Materializer
from provmem.streams.runtime.adapters import EvidenceSealer, Generation, RecordKeys
from provmem.streams.runtime.erasure import erasure_deps
from provmem.streams.runtime.kafka import (
    delivery_log,
    verify_deployment_key,
    worker_adapters,
    worker_gate_state,
    worker_sealer,
)
from provmem.streams.runtime.sealed_topics import log_sealer, sealed_log
from provmem.streams.runtime.wiring import derive_deps
from provmem.streams.runtime.worker_presence import RENEW_S, WorkerPresence
from provmem.streams.topics import GATE_TABLE, TopicNames
from provmem.streams.topology import DERIVE, INDEX_EVIDENCE, MATERIALIZE, ROUTE_ERASURES, outputs_of

log = structlog.get_logger(__name__)

#: Indexing raw evidence (with a Qdrant server) takes up to this many records at once
#: (acked after the batch is handled, so delivery stays at-least-once): the model embeds
#: a batch in one call. The derive agent stays one event at a time: a faust table write
#: goes to the changelog partition of the stream's current event, which in a batch is the
#: last one buffered.
BATCH = 64
BATCH_WAIT_S = 0.2
#: RocksDB's per-database memory (one database per partition held, standbys included):
#: faust's defaults are a 2 GiB block cache and three 64 MiB write buffers per database.
#: Reads of the gate state are one key per turn, so a small cache costs little.
ROCKSDB_OPTIONS = {
    "block_cache_size": 8 * 1024**2,
    "write_buffer_size": 4 * 1024**2,
    "max_write_buffer_number": 2,
}
#: How often the delivery guards compare their frontiers with the log.
REPAIR_INTERVAL_S = 2.0


class TableStateStore:
    """The gate's per-scope state in a faust table (a changelogged, partitioned dict)."""

    def __init__(self, table: Any) -> None:
        self._table = table

    async def load(self, key: str) -> bytes | None:
        value = self._table.get(key.encode())
        return None if value is None else bytes(value)

    async def save(self, key: str, value: bytes) -> None:
        self._table[key.encode()] = value

    async def delete(self, key: str) -> None:
        self._table.pop(key.encode(), None)  # writes a tombstone to the changelog


@dataclass
class Delivery:
    """Runs the agents' delivery guards against the log (see ``streams/delivery.py``):
    records a consumer skipped are fetched again by seeking back to the frontier."""

    app: faust.App
    log: EventLog
    group: str
    guards: list[DeliveryGuard] = field(default_factory=list)
    fenced: object | None = field(default=None, init=False)  # the consumer fenced

    def __post_init__(self) -> None:
        """A worker starts only on a faust-streaming the fence was tested with."""
        require_tested_faust()

    def guard(self) -> DeliveryGuard:
        guard = DeliveryGuard()
        self.guards.append(guard)
        return guard

    def frontier(self, tp: Partition) -> int | None:
        """The lowest frontier the agents hold for ``tp`` (None: no agent tracks it)."""
        held = [guard.frontier(tp) for guard in self.guards if guard.knows(tp)]
        return min(held) if held else None

    def fence(self) -> None:
        """Commit no offset past a frontier. faust counts records it skipped as done: a
        jump in delivery is recorded as a gap and committed over, and an off-by-one in
        its commit logic passes the first record after the committed offset. The commit
        is the promise that every record before it was handled; the frontier is that.
        The patch of faust's consumer lives in streams/faust/compat.py."""
        consumer = self.app.consumer
        if self.fenced is not consumer:
            fence_commits(consumer, self.frontier)
            self.fenced = consumer

    async def admit(self, guard: DeliveryGuard, event: Any) -> bool:
        """Whether ``event`` may be handled now: not when records before it were
        skipped (they are sought back first, so a partition's order holds)."""
        self.fence()
        origin = _origin(event)
        tp, offset = (origin.topic, origin.partition), origin.offset
        if not guard.knows(tp):
            guard.start(tp, await self.log.committed(self.group, *tp))
        if not guard.ahead(tp, offset):
            return True
        if guard.seeking(tp):
            return False
        first = await self.log.read(*tp, guard.frontier(tp), 1)
        if first and first[0].offset < offset:
            await self._seek_back(guard, tp)
            return False
        guard.skip_to(tp, offset)  # compacted away: nothing was skipped
        return True

    async def handle(
        self, guard: DeliveryGuard, event: Any, work: Callable[[], Awaitable[None]]
    ) -> None:
        """Run ``work`` for ``event`` unless records before it were skipped (they are
        sought back and come first); the event is handled once ``work`` returns."""
        if not await self.admit(guard, event):
            return
        origin = _origin(event)
        tp = (origin.topic, origin.partition)
        guard.begin(tp, origin.offset)
        try:
            await work()
        except BaseException:
            guard.abandon(tp)
            raise
        guard.done(tp, origin.offset)

    def forget(self, revoked: Any) -> None:
        for guard in self.guards:
            guard.forget((tp.topic, tp.partition) for tp in revoked)

    async def repair(self) -> None:
        if self.app.rebalancing:
            return
        assigned = {(tp.topic, tp.partition) for tp in self.app.consumer.assignment()}
        for guard in self.guards:
            for tp, frontier in guard.suspects():
                if tp in assigned:
                    await self._check(guard, tp, frontier)

    async def _check(self, guard: DeliveryGuard, tp: Partition, frontier: int) -> None:
        topic, partition = tp
        if frontier >= await self.log.end_offset(topic, partition):
            return
        first = await self.log.read(topic, partition, frontier, 1)
        if not first:
            return
        if first[0].offset > frontier:  # compacted away: nothing was skipped there
            guard.skip_to(tp, first[0].offset)
            return
        await self._seek_back(guard, tp)

    async def _seek_back(self, guard: DeliveryGuard, tp: Partition) -> None:
        topic, partition = tp
        frontier = guard.frontier(tp)
        log.warning("delivery.skipped", topic=topic, partition=partition, frontier=frontier)
        await self.app.consumer.seek(TP(topic, partition), frontier)
        guard.sought(tp)


@dataclass
class WorkerApp:
    """The faust app of one worker and the handlers its agents call."""

    app: faust.App
    deriver: Deriver
    materializer: Materializer
    state_folder: StateFolder


def create_app(
    settings: Settings, generation: Generation, presence: WorkerPresence | None = None
) -> WorkerApp:
    """Build the faust app for ``settings``; connects to nothing until it starts. It
    derives with the gate state of ``generation`` (the live one the worker read at
    start) and writes that generation's Qdrant collection; ``presence``: the key it
    renews while it runs (streams/runtime/worker_presence.py)."""
    settings = on_generation(settings, generation)
    folder = claim_state_folder(settings.data_dir / "faust", worker_name(settings.worker_name))
    app = faust.App(
        settings.consumer_group,
        **_faust_config(settings, generation_folder(folder.path, generation)),
    )
    names = TopicNames(settings.topic_prefix)
    turns = _raw_topic(app, DERIVE.input(names), settings.partitions)
    fact_changes = _raw_topic(app, MATERIALIZE.input(names), settings.partitions)
    table = app.Table(
        GATE_TABLE,
        default=None,
        partitions=settings.partitions,
        key_type=bytes,
        value_type=bytes,
        options=dict(ROCKSDB_OPTIONS),  # faust's store pops keys from it: a copy
    )
    sealer = worker_sealer(settings)
    sealed = log_sealer(sealer, names)  # seal: values opened as they come in, sealed going out
    state = worker_gate_state(TableStateStore(table), sealer)
    deriver, records, materializer, indexer = _handlers(settings, names, state, sealer, generation)
    delivery = Delivery(app, delivery_log(settings), settings.consumer_group)
    derive_guard, materialize_guard, route_guard = (delivery.guard() for _ in range(3))
    assignment = Assignment()
    serve_health(app, settings, assignment)  # GET /health when worker_web_port is set

    @app.on_partitions_revoked.connect  # type: ignore[arg-type]  # faust passes these by name
    async def forget_revoked(sender: Any, revoked: Any, **_: Any) -> None:
        delivery.forget(revoked)

    @app.on_partitions_assigned.connect  # type: ignore[arg-type]  # faust passes these by name
    async def announce_ready(sender: Any, assigned: Any, **_: Any) -> None:
        assignment.hold(_partitions_of(assigned, names.turns))
        log.info("worker.ready", partitions=assignment.partitions)

    @app.timer(interval=REPAIR_INTERVAL_S)
    async def repair_delivery() -> None:
        await delivery.repair()

    if presence is not None:

        @app.timer(interval=RENEW_S)
        async def renew_presence() -> None:
            await presence.refresh()

    requests = _raw_topic(app, ROUTE_ERASURES.input(names), None)
    router = ErasureRouter(names, settings.partitions)
    outputs = outputs_of(names, DERIVE, MATERIALIZE, ROUTE_ERASURES)
    outgoing = {name: _raw_topic(app, name, None) for name in outputs}

    async def send(items: Sequence[Outgoing]) -> None:
        for item in items:
            record = await sealed.seal(item.topic, item.record)
            delivered = await outgoing[item.topic].send(
                key=record.key, value=record.value, partition=record.partition
            )
            await delivered

    async def derive_one(event: Any) -> None:
        outcome = await records.handle_batch([await sealed.open(_record(event))])
        await execute(outcome, send, state.save)

    async def materialize_one(event: Any) -> None:
        await execute(
            await materializer.handle_batch([await sealed.open(_record(event))]), send, None
        )

    async def route_one(event: Any) -> None:
        await execute(await router.handle_batch([await sealed.open(_record(event))]), send, None)

    @app.agent(turns, name=DERIVE.name)
    async def derive(stream: faust.StreamT[bytes]) -> AsyncIterator[None]:
        async for event in stream.events():
            log.debug("derive.received", origin=_origin(event))
            await delivery.handle(derive_guard, event, partial(derive_one, event))
            yield None

    @app.agent(fact_changes, name=MATERIALIZE.name)
    async def materialize(stream: faust.StreamT[bytes]) -> AsyncIterator[None]:
        async for event in stream.events():
            log.debug("materialize.received", origin=_origin(event))
            await delivery.handle(materialize_guard, event, partial(materialize_one, event))
            yield None

    @app.agent(requests, name=ROUTE_ERASURES.name)
    async def route_erasures(stream: faust.StreamT[bytes]) -> AsyncIterator[None]:
        async for event in stream.events():
            await delivery.handle(route_guard, event, partial(route_one, event))
            yield None

    if indexer is not None:

        @app.agent(turns, name=INDEX_EVIDENCE.name)
        async def index_evidence(stream: faust.StreamT[bytes]) -> AsyncIterator[None]:
            async for events in stream.take_events(BATCH, within=BATCH_WAIT_S):  # type: ignore[attr-defined]
                await indexer.handle_batch(await sealed.open_all([_record(e) for e in events]))
                yield None

    return WorkerApp(app, deriver, materializer, folder)


def on_generation(settings: Settings, generation: Generation) -> Settings:
    """A worker's settings on a gate generation: its faust app (the consumer group, the
    gate table's changelog) is the generation's own (``<group>.gN``, generation 0: the
    plain group), so a replay from turns hands a worker on its generation the table it
    re-derived and the offsets where it stopped (streams/runtime/kafka.py)."""
    group = generation.derive_group(settings.consumer_group)
    return settings.model_copy(update={"consumer_group": group})


def generation_folder(state_folder: Path, generation: Generation) -> Path:
    """Where the tables of ``generation`` live in a worker's state folder (faust keeps
    them under ``v1/tables`` of it, with the changelog offset each has applied, whichever
    topic that was): the folder itself for generation 0, ``gN`` in it for a later one.
    The other generations' tables go: a replay from turns retired them."""
    current = state_folder if generation.gate == 0 else state_folder / f"g{generation.gate}"
    kept = current / "v1" if generation.gate == 0 else current
    for held in (state_folder / "v1", *state_folder.glob("g*")):
        if held.is_dir() and held != kept:
            shutil.rmtree(held, ignore_errors=True)
    current.mkdir(parents=True, exist_ok=True)
    return current


def _faust_config(settings: Settings, state_folder: Path) -> dict[str, Any]:
    config: dict[str, Any] = {
        "broker": f"kafka://{settings.broker_url}",
        "store": f"{settings.worker_store}://",
        "key_serializer": "raw",
        "value_serializer": "raw",
        "topic_partitions": settings.partitions,
        "topic_replication_factor": 1,
        "web_enabled": settings.worker_web_port is not None,
        "web_port": settings.worker_web_port or 6066,
        "broker_session_timeout": settings.broker_session_timeout_s,
        "broker_heartbeat_interval": settings.broker_heartbeat_interval_s,
        "datadir": str(state_folder),
    }
    if settings.producer_max_batch_size is not None:
        config["producer_max_batch_size"] = settings.producer_max_batch_size
    return config


def _raw_topic(app: faust.App, name: str, partitions: int | None) -> faust.TopicT:
    return app.topic(
        name,
        key_type=bytes,
        value_type=bytes,
        partitions=partitions,
        key_serializer="raw",
        value_serializer="raw",
    )


@dataclass(frozen=True)
class WorkerParts:
    """What a worker's erasures use (:class:`~provmem.streams.erasure.ports.ErasureParts`):
    its adapters, the deployment's sealer and log behind it, and the gate it keeps."""

    settings: Settings
    names: TopicNames
    log: EventLog
    evidence: EvidenceStore
    views: FactViews
    keys: KeyStore
    sealer: EvidenceSealer
    vectors: VectorIndex | None
    embedder: CachingEmbedder
    ledger: StateStore
    state: StateStore
    deriver: Deriver
    elsewhere: tuple[HeldBytes, ...]


def _handlers(
    settings: Settings,
    names: TopicNames,
    state: BulkStateStore,
    sealer: EvidenceSealer,
    generation: Generation,
) -> tuple[Deriver, ScopeRecords, Materializer, EvidenceIndexer | None]:
    """The agents' handlers over the adapters the Kafka root builds for a worker, on the
    gate state and the collection of ``generation``."""
    adapters = worker_adapters(settings, sealer, generation)
    evidence, views, embedder, index = (
        adapters.evidence,
        adapters.views,
        adapters.embedder,
        adapters.index,
    )
    deps = derive_deps(settings, evidence, state, sealer, embedder)
    deps = replace(deps, gate=GateStore(state, generation.gate_namespace()))
    deriver = Deriver(names, settings.partitions, deps)
    materializer = Materializer(names, views, index)
    tombstones = TombstonedTurns(RecordKeys(sealer))  # a worker's cascade deletes its points
    indexer = EvidenceIndexer(index, sealer, tombstones) if index is not None else None
    cascade_log = adapters.cascade_log
    parts = WorkerParts(
        settings=settings,
        names=names,
        log=sealed_log(cascade_log, sealer, names),
        evidence=evidence,
        views=views,
        keys=sealer.keys,
        sealer=sealer,
        vectors=index.vectors if index is not None else None,
        embedder=embedder,
        ledger=adapters.ledger,
        state=state,
        deriver=deriver,
        elsewhere=adapters.elsewhere,
    )
    settle = partial(views_applied, cascade_log, settings.consumer_group, names.fact_changes)
    eraser = Eraser(erasure_deps(parts, settle=settle))
    return deriver, ScopeRecords(deriver, eraser), materializer, indexer


def _partitions_of(assigned: Any, topic: str) -> list[int]:
    """The partitions of ``topic`` among a faust assignment (a set of TopicPartition)."""
    return sorted(tp.partition for tp in assigned if tp.topic == topic)


def _origin(event: Any) -> Origin:
    message = event.message
    return Origin(message.topic, message.partition, message.offset)


def _record(event: Any) -> LogRecord:
    origin = _origin(event)
    return LogRecord(origin.topic, origin.partition, origin.offset, event.key, event.value)


def run_worker(settings: Settings, loglevel: str = "warning") -> None:
    """Start one faust worker in the foreground (blocks until stopped)."""
    from faust.worker import Worker as FaustWorker

    asyncio.run(verify_deployment_key(settings))  # a foreign master key never joins
    presence = WorkerPresence(settings)
    generation = asyncio.run(presence.join())  # after a replay from turns that is switching
    try:
        worker = create_app(settings, generation, presence)
        quick = quick_stop_worker(FaustWorker)
        quick(worker.app, loglevel=loglevel, quiet=True).execute_from_commandline()
    finally:
        presence.leave()
