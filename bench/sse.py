"""bench/sse: the connect cost of a fact-change subscription at 100k fact changes.

    python -m bench.sse [--changes 100000] [--users 200] [--connects 20]

A subscription that starts at the end of the log (``start=latest``) or resumes from a
``Last-Event-ID`` first learns the live facts of its scope, so that it can stream their
erasure (services/api/changes.py ``facts_at_start``). It reads them from the views' index
of fact versions by scope (``FactViews.versions_under``); before, an organisation's or a
project's stream read the whole fact-changes topic at every connect.

Writes ``--changes`` fact changes (ADDs, then UPDATEs of earlier facts: about a third)
of ``--users`` user scopes under one organisation (four projects) to an embedded data
folder's fact-changes topic and views, and the same facts to Redis views under a prefix of
its own (the Kafka runtime's views; removed afterwards). Then times, per connect, the
cursor at the end plus ``facts_at_start`` for the organisation, a project and a user
scope, on both views; the same-run baseline is one raw read of the whole topic (every
partition, 1,000 records a read), the least that reading the topic at connect costs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from provmem.config import Settings
from provmem.core.events import Fact, FactChanged, FactOp
from provmem.core.ports import EventLog, FactViews
from provmem.core.scope import Scope, partition_for
from provmem.core.stages import fact_changed
from provmem.services.api.changes import facts_at_start, scope_partitions, start_cursor
from provmem.streams.runtime.components import build
from provmem.streams.topics import FACT_CHANGES

ORG = "benchsse"
BATCH = 2_000


def scope_of(user: int) -> Scope:
    return Scope.parse(f"{ORG}/p{user % 4}/u{user}")


def changes(count: int, users: int, seed: int) -> list[FactChanged]:
    """ADDs of new facts, and about a third UPDATEs of facts made before."""
    rng, when = random.Random(seed), datetime(2026, 1, 1, tzinfo=UTC)
    made: list[Fact] = []
    out: list[FactChanged] = []
    for i in range(count):
        if made and rng.random() < 0.33:
            which = rng.randrange(len(made))
            fact = made[which].model_copy(update={"version": made[which].version + 1})
            made[which] = fact
            out.append(fact_changed(FactOp.UPDATE, fact, "bench", "bench"))
            continue
        fact = Fact(
            fact_id=f"fact_{i:08d}",
            scope=scope_of(rng.randrange(users)),
            statement=f"User {i} likes the number {i}.",
            evidence_ids=(f"ev_{i:08d}",),
            extraction_version="bench",
            last_verified_at=when,
            version=1,
        )
        made.append(fact)
        out.append(fact_changed(FactOp.ADD, fact, "bench", "bench"))
    return out


async def write(log: EventLog, topic: str, views: list[FactViews], made: list[FactChanged]) -> None:
    partitions = await log.partitions(topic)
    for start in range(0, len(made), BATCH):
        batch = made[start : start + BATCH]
        records = [FACT_CHANGES.record(partition_for(c.scope.key, partitions), c) for c in batch]
        await log.append(topic, records)
        for view in views:
            await view.apply_batch(batch)


async def raw_read(log: EventLog, topic: str) -> int:
    """Every record of the topic, read once (the old connect's floor)."""
    read = 0
    for partition in range(await log.partitions(topic)):
        offset, end = 0, await log.end_offset(topic, partition)
        while offset < end:
            records = await log.read(topic, partition, offset, 1_000)
            if not records:
                break
            read += len(records)
            offset = records[-1].offset + 1
    return read


async def connect(log: EventLog, topic: str, views: FactViews, prefix: str) -> int:
    """What a subscription does before its first frame: its cursor and its known facts."""
    partitions = scope_partitions(prefix, await log.partitions(topic))
    cursor = await start_cursor(log, topic, partitions, None, "latest")
    return len(await facts_at_start(views, prefix, cursor))


async def timed(work: Callable[[], Awaitable[int]], times: int) -> tuple[float, float, int]:
    ms, size = [], 0
    for _ in range(times):
        started = time.perf_counter()
        size = await work()
        ms.append((time.perf_counter() - started) * 1000)
    return statistics.median(ms), max(ms), size


async def run(count: int, users: int, connects: int, folder: Path) -> list[str]:
    import redis.asyncio as aioredis

    from provmem.infra.stores.redis_stores import RedisFactViews, RedisKeys

    settings = Settings(data_dir=folder, partitions=4)
    components = await build(settings)
    redis_url = os.environ.get("PROVMEM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    client = aioredis.Redis.from_url(redis_url)
    prefix = f"bench-sse-{uuid.uuid4().hex[:8]}"
    redis_views = RedisFactViews(client, RedisKeys(prefix))
    log, topic = components.log, components.names.fact_changes
    try:
        started = time.perf_counter()
        await write(log, topic, [components.views, redis_views], changes(count, users, seed=1))
        lines = [f"wrote {count:,} fact changes in {time.perf_counter() - started:.0f} s"]
        base_p50, base_max, read = await timed(lambda: raw_read(log, topic), 3)
        lines.append(
            f"baseline: raw read of the whole topic ({read:,} records) p50 {base_p50:.0f} ms,"
            f" max {base_max:.0f} ms"
        )
        for name, views in (("embedded views", components.views), ("redis views", redis_views)):
            for scope in (ORG, f"{ORG}/p0", scope_of(0).key):
                work = partial(connect, log, topic, views, scope)
                p50, top, known = await timed(work, connects)
                lines.append(
                    f"{name:<14} connect {scope:<18} knows {known:>6,} facts: p50 {p50:7.1f} ms"
                    f" max {top:7.1f} ms | {p50 / base_p50:.3f}x the raw topic read"
                )
        lines.append(f"load average (1 min) {os.getloadavg()[0]:.1f}")
        return lines
    finally:
        async for key in client.scan_iter(match=f"{prefix}:*", count=1000):
            await client.delete(key)
        await client.aclose()
        await components.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--changes", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--connects", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="provmem-bench-sse-") as folder:
        lines = asyncio.run(run(args.changes, args.users, args.connects, Path(folder)))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
