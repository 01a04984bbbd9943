"""bench/log_compaction: the crypto-compaction of one subject on Kafka (a session or an
evidence erasure's extra step, streams/erasure/log_compaction.py).

    python -m bench.log_compaction [--live 1000] [--others 4000] [--broker HOST:PORT]

One subject has ``--live`` turn records and as many fact-change records on its partition,
beside ``--others`` records of other subjects on the same partitions (they are scanned,
never re-sealed). The clock runs from the end of the switch wait (1.5 s after the
rotation, reported apart: it is a wait, not work) to the retired key's destruction: the
scan of both topics' partition, the re-sealed copies appended, the key ring rewritten.
Baseline in the same run, on the same broker: the raw broker appending the subject's
records as they are (no sealing) and reading the partitions back, i.e. what a scan and
an append cost without crypto. Checked: every live record opens after, every old one
not. Without ``--broker`` a Tansu broker is started on a free port; Redis on
127.0.0.1:6379 (the key ring's cache).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
import uuid

import redis.asyncio as aioredis

from provmem.core.ports import Append, Cleanup, TopicConfig
from provmem.core.scope import partition_for
from provmem.infra.crypto.envelope import EvidenceSealer
from provmem.infra.crypto.logged_keys import LoggedKeyStore
from provmem.infra.log.kafka import KafkaEventLog
from provmem.infra.log.sealed import raw_log
from provmem.infra.stores.redis_stores import RedisKeys, RedisKeyStore
from provmem.streams.erasure.log_compaction import CryptoCompaction
from provmem.streams.runtime.sealed_topics import sealed_log
from provmem.streams.topics import TopicNames
from tests.support.tansu import TansuBroker

PARTITIONS = 4
SUBJECT = "bench/compaction/alice"
REDIS_URL = "redis://127.0.0.1:6379/0"
MINE = b'"scope":{"org":"bench","project":"compaction","user":"alice"}'  # on its envelope


def turn_value(scope: str, n: int) -> bytes:
    org, project, user = scope.split("/")
    body = (
        f'{{"scope":{{"org":"{org}","project":"{project}","user":"{user}"}},'
        f'"n":{n},"text":"{"I met a friend at the harbour in 1901. " * 6}"}}'
    )
    return body.encode()


async def write(log: object, names: TopicNames, scope: str, count: int) -> None:
    partition = partition_for(scope, PARTITIONS)
    for topic in (names.turns, names.fact_changes):
        records = [
            Append(partition, f"{scope}|{n}".encode(), turn_value(scope, n)) for n in range(count)
        ]
        for start in range(0, count, 500):
            await log.append(topic, records[start : start + 500])  # type: ignore[attr-defined]


async def raw_baseline(broker: str, names: TopicNames, count: int) -> float:
    """Append ``count`` records of the subject's size per topic and read the partitions
    back, unsealed: the broker's share of a crypto-compaction."""
    log = KafkaEventLog(broker, max_batch_size=1)
    topics = [f"{names.prefix}.raw-{t}" for t in ("turns", "fact-changes")]
    await log.ensure_topics([TopicConfig(t, PARTITIONS, Cleanup.COMPACT) for t in topics])
    partition = partition_for(SUBJECT, PARTITIONS)
    started = time.perf_counter()
    for topic in topics:
        records = [
            Append(partition, f"k{n}".encode(), turn_value(SUBJECT, n)) for n in range(count)
        ]
        for start in range(0, count, 500):
            await log.append(topic, records[start : start + 500])
        offset = 0
        while batch := await log.read(topic, partition, offset, 1000):
            offset = batch[-1].offset + 1
    elapsed = time.perf_counter() - started
    await log.close()
    return elapsed


async def run(broker: str, live: int, others: int) -> None:
    names = TopicNames("bench" + uuid.uuid4().hex[:8])
    kafka = KafkaEventLog(broker, max_batch_size=1)
    await kafka.ensure_topics(names.configs(PARTITIONS))
    cache = RedisKeyStore(aioredis.Redis.from_url(REDIS_URL), RedisKeys(names.prefix))
    ring = KafkaEventLog(broker)
    keys = LoggedKeyStore(cache, ring, TopicConfig(names.data_keys, 1, Cleanup.COMPACT))
    sealer = EvidenceSealer(os.urandom(32), keys)
    log = sealed_log(kafka, sealer, names)
    for n in range(others // live or 1):  # other subjects, some on the subject's partition
        await write(log, names, f"bench/compaction/other-{n}", live)
    await write(log, names, SUBJECT, live)
    topics = (names.turns, names.fact_changes)

    compaction = await CryptoCompaction.rotated(log, topics, PARTITIONS, SUBJECT)
    waited = time.perf_counter()
    await compaction.switched()
    waited = time.perf_counter() - waited
    started = time.perf_counter()
    closed = await compaction.finish()
    elapsed = time.perf_counter() - started
    opened, shut = await check(log, names)
    base = await raw_baseline(broker, names, live)
    print(f"subject: {live} turns + {live} fact changes; other records: {others * 2}")
    print(
        f"records closed: {closed}; the subject's after: {opened} open, {shut} closed "
        f"(expected {live * 2} and {live * 2})"
    )
    print(f"switch wait: {waited:.2f} s (fixed)")
    print(f"crypto-compaction: {elapsed:.2f} s ({live * 2 / elapsed:,.0f} live records/s)")
    print(f"raw broker append + read of the same records: {base:.2f} s")
    print(f"ratio crypto-compaction / raw broker: {elapsed / base:.2f}x")
    await log.close()
    await keys.close()
    await ring.close()


async def check(log: object, names: TopicNames) -> tuple[int, int]:
    """How many of the subject's retained records open with a fresh reader, how many not."""
    partition = partition_for(SUBJECT, PARTITIONS)
    opened = shut = 0
    for topic in (names.turns, names.fact_changes):
        offset = 0
        while batch := await raw_log(log).read(topic, partition, offset, 1000):
            offset = batch[-1].offset + 1
            mine = [r for r in batch if MINE in (r.value or b"")]
            read = await log.sealer.open_all(mine)  # type: ignore[attr-defined]
            opened += sum(r.value is not None for r in read)
            shut += sum(r.value is None for r in read)
    return opened, shut


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--live", type=int, default=1000, help="the subject's records per topic")
    parser.add_argument(
        "--others", type=int, default=4000, help="other subjects' records per topic"
    )
    parser.add_argument("--broker", help="Kafka bootstrap servers (default: start Tansu)")
    args = parser.parse_args()
    if args.broker:
        asyncio.run(run(args.broker, args.live, args.others))
        return
    with TansuBroker() as broker:
        asyncio.run(run(broker.bootstrap, args.live, args.others))


if __name__ == "__main__":
    main()
