"""The Kafka event log: :class:`~provmem.core.ports.EventLog` over aiokafka.

Works against Apache Kafka and against Tansu (see :mod:`tests.support.tansu`).
Two Tansu quirks shape this adapter:

* Tansu answers ``InitProducerId`` with an error, so the producer is not
  idempotent (``acks="all"``, one request in flight per broker keeps order).
* Tansu's high-water mark (``ListOffsets`` latest, ``end_offsets()``) advances by
  one per *record batch*, not per record: after a 5-record batch at offsets 3..7
  it reports 4 instead of 8, although the records themselves get the right
  offsets and are all readable. ``end_offset`` is therefore only correct when
  every batch holds exactly one record, which ``max_batch_size=1`` forces
  (aiokafka always admits the first record into a batch, whatever its size).
  It costs throughput (~7.5k records/s instead of ~190k/s on loopback) and is
  the default; pass a larger ``max_batch_size`` only for a real Kafka cluster.

A read returns no record only at the partition's end (``start`` at or past the end offset,
or everything before the end deleted by retention): a fetch that gives nothing before the
end is a stall (a broker under load, a wedged connection), read again with a fresh reader,
then :class:`ReadStalled`. Every partition scan (``while batch := await log.read(...)``)
takes an empty read for the end, so a stall must never look like one.

Tansu also auto-creates unknown topics on any topic Metadata request, so every
per-topic call first checks the topic exists (via an all-topics Metadata
request, which creates nothing) to avoid creating topics with default settings.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from typing import Any

import structlog
from aiokafka import (  # type: ignore[import-untyped,unused-ignore]
    AIOKafkaConsumer,
    AIOKafkaProducer,
    TopicPartition,
)
from aiokafka.admin import (  # type: ignore[import-untyped,unused-ignore]
    AIOKafkaAdminClient,
    NewTopic,
)
from aiokafka.errors import (  # type: ignore[import-untyped,unused-ignore]
    KafkaError,
    TopicAlreadyExistsError,
    for_code,
)

from provmem.core.ports import Append, LogRecord, TopicConfig
from provmem.infra.log.embedded import UnknownTopicError

_log = structlog.get_logger(__name__)

# One record per batch keeps Tansu's high-water marks right (see module doc).
_SAFE_BATCH_SIZE = 1
_REPLICATION_FACTOR = 1
_TOPIC_WAIT_S = 10.0
_READ_WAIT_S = 10.0
_READ_TRIES = 3
_POLL_MS = 500


class BrokerUnavailableError(ConnectionError):
    """The broker did not take the records in time; which of them it has is unknown."""


class ReadStalled(BrokerUnavailableError):
    """Fetches gave nothing from an offset before the partition's end: not the end."""


async def _start(client: Any) -> Any:
    await client.start()
    return client


def topic_configs(config: TopicConfig) -> dict[str, str]:
    """The broker's topic configs of a topic: its cleanup policy, retention and, for a
    compacted topic, the bound on its compaction (core/ports.py ``CompactionBound``)."""
    configs = {"cleanup.policy": config.cleanup.value}
    if config.retention_ms >= 0:
        configs["retention.ms"] = str(config.retention_ms)
    if (bound := config.compaction) is not None:
        configs["max.compaction.lag.ms"] = str(bound.max_lag_ms)
        configs["segment.ms"] = str(bound.segment_ms)
        configs["min.cleanable.dirty.ratio"] = str(bound.min_dirty_ratio)
        configs["delete.retention.ms"] = str(bound.tombstone_retention_ms)
    return configs


def _new_topic(config: TopicConfig) -> NewTopic:
    configs = topic_configs(config)
    return NewTopic(config.name, config.partitions, _REPLICATION_FACTOR, topic_configs=configs)


def _raise_for_create_errors(response: Any) -> None:
    for topic, code, *rest in response.topic_errors:
        if code == 0 or code == TopicAlreadyExistsError.errno:
            continue
        message = rest[0] if rest else None
        raise for_code(code)(f"create topic {topic!r}: {message}")


class KafkaEventLog:
    """An event log on a Kafka-protocol broker; clients start lazily on first use."""

    def __init__(
        self,
        bootstrap: str,
        client_id: str = "provmem",
        max_batch_size: int | None = None,
        request_timeout_s: float = 40.0,
        read_wait_s: float = _READ_WAIT_S,
    ) -> None:
        self._bootstrap = bootstrap
        self._read_wait_s = read_wait_s
        self._request_timeout_ms = int(request_timeout_s * 1000)
        self._client_id = client_id
        self._max_batch_size = max_batch_size or _SAFE_BATCH_SIZE
        self._producer: AIOKafkaProducer | None = None
        self._reader: AIOKafkaConsumer | None = None
        self._admin: AIOKafkaAdminClient | None = None
        self._groups: dict[str, AIOKafkaConsumer] = {}
        self._group_locks: dict[str, asyncio.Lock] = {}
        self._partition_counts: dict[str, int] = {}
        self._start_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    # -- client lifecycle -------------------------------------------------

    async def _get_producer(self) -> AIOKafkaProducer:
        async with self._start_lock:
            if self._producer is None:
                self._producer = await _start(self._make_producer())
            return self._producer

    def _make_producer(self) -> AIOKafkaProducer:
        return AIOKafkaProducer(
            bootstrap_servers=self._bootstrap,
            client_id=self._client_id,
            acks="all",
            enable_idempotence=False,  # Tansu fails InitProducerId
            linger_ms=0,
            max_batch_size=self._max_batch_size,
            request_timeout_ms=self._request_timeout_ms,
        )

    async def _get_reader(self) -> AIOKafkaConsumer:
        async with self._start_lock:
            if self._reader is None:
                self._reader = await _start(self._make_reader())
            return self._reader

    def _make_reader(self) -> AIOKafkaConsumer:
        return AIOKafkaConsumer(
            bootstrap_servers=self._bootstrap,
            client_id=f"{self._client_id}-reader",
            group_id=None,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
        )

    async def _get_admin(self) -> AIOKafkaAdminClient:
        async with self._start_lock:
            if self._admin is None:
                self._admin = await _start(self._make_admin())
            return self._admin

    def _make_admin(self) -> AIOKafkaAdminClient:
        return AIOKafkaAdminClient(
            bootstrap_servers=self._bootstrap, client_id=f"{self._client_id}-admin"
        )

    async def _get_group(self, group: str) -> AIOKafkaConsumer:
        async with self._start_lock:
            if group not in self._groups:
                self._groups[group] = await _start(self._make_group(group))
            return self._groups[group]

    def _make_group(self, group: str) -> AIOKafkaConsumer:
        return AIOKafkaConsumer(
            bootstrap_servers=self._bootstrap,
            client_id=f"{self._client_id}-{group}",
            group_id=group,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
        )

    # -- topics -----------------------------------------------------------

    async def ensure_topics(self, topics: Sequence[TopicConfig]) -> None:
        admin = await self._get_admin()
        existing = set(await admin.list_topics())
        missing = [t for t in topics if t.name not in existing]
        if missing:
            response = await admin.create_topics([_new_topic(t) for t in missing])
            _raise_for_create_errors(response)
            _log.info("kafka_log.topics_created", topics=[t.name for t in missing])
        await self._wait_for_partitions(topics)

    async def topics(self) -> list[str]:
        """Every topic on the broker (an all-topics request: it creates none)."""
        return sorted(await self._fetch_partition_counts())

    async def delete_topics(self, names: Sequence[str]) -> None:
        """Delete topics (a key-ring generation, infra/crypto/key_ring.py); absent ones: ignored."""
        present = [name for name in names if name in await self._fetch_partition_counts()]
        if present:
            admin = await self._get_admin()
            await admin.delete_topics(present)
            _log.info("kafka_log.topics_deleted", topics=present)
        for name in names:
            self._partition_counts.pop(name, None)

    async def _wait_for_partitions(self, topics: Sequence[TopicConfig]) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + _TOPIC_WAIT_S
        pending = {t.name for t in topics}
        while pending:
            counts = await self._fetch_partition_counts()
            pending = {name for name in pending if counts.get(name, 0) < 1}
            if pending and loop.time() > deadline:
                raise TimeoutError(f"topics without partitions after {_TOPIC_WAIT_S}s: {pending}")
            if pending:
                await asyncio.sleep(0.05)

    async def _fetch_partition_counts(self) -> dict[str, int]:
        """Partition counts of all topics; an all-topics request never auto-creates one."""
        admin = await self._get_admin()
        counts: dict[str, int] = {}
        for topic in await admin.describe_topics():
            if topic["error_code"] == 0:
                counts[topic["topic"]] = len(topic["partitions"])
        self._partition_counts = dict(counts)  # a deleted topic is no longer there
        return counts

    async def _partition_count(self, topic: str) -> int | None:
        if topic not in self._partition_counts:
            await self._fetch_partition_counts()
        return self._partition_counts.get(topic)

    async def partitions(self, topic: str) -> int:
        count = await self._partition_count(topic)
        if count is None:
            raise UnknownTopicError(topic)
        return count

    async def _check_partition(self, topic: str, partition: int) -> None:
        count = await self.partitions(topic)
        if not 0 <= partition < count:  # the cached count may be stale: partitions can grow
            self._partition_counts.pop(topic, None)
            count = await self.partitions(topic)
        if not 0 <= partition < count:
            raise ValueError(f"partition {partition} out of range for {topic} ({count})")

    # -- records ------------------------------------------------------------

    async def append(self, topic: str, records: Sequence[Append]) -> list[int]:
        if not records:
            return []
        for partition in {r.partition for r in records}:
            await self._check_partition(topic, partition)
        producer = await self._get_producer()
        futures = [
            await producer.send(topic, value=r.value, key=r.key, partition=r.partition)
            for r in records
        ]
        results = await asyncio.gather(*futures, return_exceptions=True)
        offsets: list[int] = []
        for result in results:  # every future is awaited, then the first failure raised
            if isinstance(result, KafkaError):
                raise BrokerUnavailableError(
                    f"broker {self._bootstrap}: {type(result).__name__}; "
                    "the records may be retried (the pipeline is idempotent)"
                ) from result
            if isinstance(result, BaseException):
                raise result
            offsets.append(int(result.offset))
        return offsets

    async def end_offset(self, topic: str, partition: int) -> int:
        return await self._bounded(self._end_offset(topic, partition), f"end of {topic}")

    async def _end_offset(self, topic: str, partition: int) -> int:
        if await self._partition_count(topic) is None:
            return 0
        await self._check_partition(topic, partition)  # aiokafka retries forever otherwise
        reader = await self._get_reader()
        tp = TopicPartition(topic, partition)
        offsets = await reader.end_offsets([tp])
        return int(offsets[tp])

    async def read(self, topic: str, partition: int, start: int, limit: int) -> list[LogRecord]:
        if limit <= 0:
            return []
        async with self._read_lock:
            end = await self.end_offset(topic, partition)
            if start >= end:
                return []
            return await self._fetch_some(topic, partition, start, min(limit, end - start), end)

    async def _fetch_some(
        self, topic: str, partition: int, start: int, limit: int, end: int
    ) -> list[LogRecord]:
        """At least one record from ``start`` (before ``end``): an empty fetch is a stall,
        fetched again by a fresh reader, then :class:`ReadStalled` (see the module doc)."""
        for attempt in range(1, _READ_TRIES + 1):
            if out := await self._fetch(topic, partition, start, limit, end):
                return out
            await self._drop_reader()
            if await self._start_offset(topic, partition) >= end:
                return []  # retention deleted every record before the end
            _log.warning(
                "kafka_log.read_stalled",
                topic=topic,
                partition=partition,
                offset=start,
                end=end,
                attempt=attempt,
            )
        raise ReadStalled(
            f"broker {self._bootstrap}: {topic}[{partition}] gave no record from offset"
            f" {start}, before its end {end}, in {_READ_TRIES} fetches of"
            f" {self._read_wait_s:g} s; the broker is slow or away: retry when it answers"
        )

    async def _start_offset(self, topic: str, partition: int) -> int:
        """The partition's first offset (what retention left), bounded like the end's."""

        async def first() -> int:
            tp = TopicPartition(topic, partition)
            offsets = await (await self._get_reader()).beginning_offsets([tp])
            return int(offsets[tp])

        return await self._bounded(first(), f"start of {topic}")

    async def _drop_reader(self) -> None:
        """Stop the reader (its connection may be wedged); the next read starts another."""
        async with self._start_lock:
            reader, self._reader = self._reader, None
        if reader is not None:
            await _quietly(reader.stop())

    async def _fetch(
        self, topic: str, partition: int, start: int, limit: int, end: int
    ) -> list[LogRecord]:
        reader = await self._get_reader()
        tp = TopicPartition(topic, partition)
        if reader.assignment() != {tp}:
            reader.assign([tp])
        reader.seek(tp, start)
        reader.resume(tp)
        try:
            out = await self._poll(reader, tp, start, limit, end)
        finally:
            reader.pause(tp)  # no background prefetching or long-polling between reads
        if len(out) < limit and (not out or out[-1].offset + 1 < end):
            _log.warning("kafka_log.short_read", topic=topic, partition=partition, got=len(out))
        return out

    async def _poll(
        self, reader: AIOKafkaConsumer, tp: Any, start: int, limit: int, end: int
    ) -> list[LogRecord]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._read_wait_s
        out: list[LogRecord] = []
        position = start
        while len(out) < limit and position < end and loop.time() < deadline:
            batch = await reader.getmany(tp, timeout_ms=_POLL_MS, max_records=limit - len(out))
            for msg in batch.get(tp, []):
                out.append(LogRecord(tp.topic, tp.partition, msg.offset, msg.key, msg.value))
                position = msg.offset + 1
        return out

    # -- consumer-group offsets -------------------------------------------

    async def commit(self, group: str, topic: str, partition: int, offset: int) -> None:
        await self._check_partition(topic, partition)
        consumer = await self._get_group(group)
        tp = TopicPartition(topic, partition)
        async with self._group_locks.setdefault(group, asyncio.Lock()):
            assigned = consumer.assignment()
            if tp not in assigned:
                # commit() needs the partition assigned; paused, so it is never fetched.
                consumer.assign([*assigned, tp])
                consumer.pause(*consumer.assignment())
            await consumer.commit({tp: offset})

    async def committed(self, group: str, topic: str, partition: int) -> int:
        return await self._bounded(self._committed(group, topic, partition), f"{group} offset")

    async def _committed(self, group: str, topic: str, partition: int) -> int:
        if await self._partition_count(topic) is None:
            return 0
        consumer = await self._get_group(group)
        offset = await consumer.committed(TopicPartition(topic, partition))
        return 0 if offset is None else int(offset)

    async def _bounded(self, work: Awaitable[int], what: str) -> int:
        """A lookup aiokafka would retry forever while the broker is away, bounded by the
        request timeout (capture reads the log's tail before it appends)."""
        try:
            return await asyncio.wait_for(work, self._request_timeout_ms / 1000)
        except TimeoutError as error:
            raise BrokerUnavailableError(
                f"broker {self._bootstrap}: no answer for the {what} within "
                f"{self._request_timeout_ms / 1000:g} s; retry when it is back"
            ) from error

    async def close(self) -> None:
        async with self._start_lock:
            clients: list[Any] = [self._producer, self._reader, *self._groups.values()]
            self._producer, self._reader, self._groups = None, None, {}
            admin, self._admin = self._admin, None
        for client in clients:
            if client is not None:
                await _quietly(client.stop())
        if admin is not None:
            await _quietly(admin.close())


async def _quietly(closing: Awaitable[None]) -> None:
    try:
        await closing
    except Exception:  # noqa: BLE001 - closing must stop every client
        _log.exception("kafka_log.close_failed")
