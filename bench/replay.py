"""bench/replay: rebuild rate of a replay against the raw log read rate, in one run.

    python -m bench.replay [--facts 1000] [--scopes 4]
    python -m tests.support.testbed -- python -m bench.replay --kafka   # broker, Redis, 1 worker
    python -m tests.support.testbed -- python -m bench.replay --kafka-turns   # + Qdrant, switched

Builds the scopes through the real pipeline (publish, extract, embed, gate, views,
index), then, in the same run:

- the baseline: reads the turns and fact-changes topics end to end through the EventLog
  port (batches of 256, as the runner reads them) and reports records/s;
- ``provmem replay --from fact-changes`` and ``--from turns`` (each in fresh components,
  as the CLI runs it: cold embedding cache), reporting facts/s of the rebuild stage
  (materialize or derive), the whole replay's seconds (with the evidence re-index, the
  catch-up and the checksum report) and whether the report says equal.

The ratio printed is raw read rate (records/s) over rebuild rate (facts/s). With
``--kafka`` (under the testbed) one faust worker derives and materializes, the replay from
fact changes switches the Redis views while the worker runs, and the replay from turns is a
check only (docs/replay.md, limits).

``--kafka-turns``: the Kafka runtime with a Qdrant server (qdrant-client's local mode,
``PROVMEM_QDRANT_URL=file:<folder>``): one faust worker derives, is stopped, and
``replay --from turns`` re-derives into a collection and gate table of its own and
switches them in. Same-run baselines: reading the turns topic end to end through the
EventLog port, and embedding the turn texts and the facts' statements (what the gate and
the evidence index embed) with a fresh embedder, batches of 64.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

from bench.erasure import subject_turns
from bench.ingest import settings_for
from provmem.config import Settings
from provmem.infra.models.embedding import MiniLMEmbedder
from provmem.services.memory.logs import configure_logging
from provmem.services.memory.memory import MemoryService
from provmem.services.replay.run import ReplayPlan, ReplayResult, replay
from provmem.streams.runtime.components import build
from tests.support.worker_process import WorkerProcess

READ_BATCH = 256


async def ingest(settings: Settings, scopes: int, facts: int) -> int:
    """Publish ``facts`` statements spread over ``scopes`` and process them; facts made."""
    components = await build(settings)
    memory = MemoryService(components)
    try:
        for n in range(scopes):
            turns = subject_turns(f"bench/replay/subject-{n}", facts // scopes)
            for start in range(0, len(turns), 1000):
                await memory.publish(turns[start : start + 1000])
        await memory.settle()
        names = [f"bench/replay/subject-{n}" for n in range(scopes)]
        return sum([len(await memory.facts(s)) for s in names])
    finally:
        await components.close()


async def raw_read_rate(settings: Settings, turns_only: bool = False) -> tuple[int, float]:
    """Records and seconds to read the turns and fact-changes topics through EventLog."""
    components = await build(settings)
    log, names, records = components.log, components.names, 0
    try:
        started = time.perf_counter()
        topics = (names.turns,) if turns_only else (names.turns, names.fact_changes)
        for topic in topics:
            for partition in range(await log.partitions(topic)):
                offset = 0
                while batch := await log.read(topic, partition, offset, READ_BATCH):
                    offset = batch[-1].offset + 1
                    records += len(batch)
        return records, time.perf_counter() - started
    finally:
        await components.close()


def describe(result: ReplayResult, read_rate: float) -> str:
    stage = "derive" if result.mode == "turns" else "materialize"
    seconds = result.stage_seconds.get(stage, result.seconds)
    rate = result.facts / seconds if seconds else 0.0
    return (
        f"replay --from {result.mode}: {result.facts} fact changes, {stage} {seconds:.2f} s "
        f"({rate:.0f} facts/s); whole replay {result.seconds:.2f} s "
        f"({result.records} records, stages {result.stage_seconds}); "
        f"report equal: {result.report.equal}; raw read / rebuild = {read_rate / rate:.0f}x"
    )


async def run(settings: Settings, scopes: int, facts: int) -> None:
    async with AsyncExitStack() as stack:
        if settings.runtime == "kafka":
            stack.push_async_callback(forget_redis_keys, settings)
            settings.data_dir.mkdir(parents=True, exist_ok=True)
            worker = WorkerProcess(settings, settings.data_dir / "worker.log").start()
            stack.push_async_callback(worker.stop)
            await worker.ready(timeout_s=180)
        await measure(settings, scopes, facts)


async def forget_redis_keys(settings: Settings) -> None:
    """The shared Redis keeps nothing of this run."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(settings.redis_url)
    try:
        async for key in client.scan_iter(match=f"{settings.redis_prefix}:*", count=500):
            await client.delete(key)
    finally:
        await client.aclose()


async def measure(settings: Settings, scopes: int, facts: int) -> None:
    started = time.perf_counter()
    made = await ingest(settings, scopes, facts)
    print(f"ingested {made} facts in {scopes} scopes in {time.perf_counter() - started:.1f} s")
    records, seconds = await raw_read_rate(settings)
    read_rate = records / seconds
    print(f"raw log read: {records} records in {seconds:.3f} s ({read_rate:.0f} records/s)")
    for mode in ("fact-changes", "turns"):
        switch = settings.runtime == "embedded" or mode == "fact-changes"
        result = await replay(settings, ReplayPlan(mode, switch=switch))
        print(describe(result, read_rate))


async def run_turns_switch(settings: Settings, scopes: int, facts: int) -> None:
    """Kafka with a Qdrant server: ingest with a worker, stop it, replay from turns switched."""
    settings = settings.model_copy(update={"qdrant_url": f"file:{settings.data_dir / 'qdrant'}"})
    async with AsyncExitStack() as stack:
        stack.push_async_callback(forget_redis_keys, settings)
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        worker = WorkerProcess(settings, settings.data_dir / "worker.log").start()
        try:
            await worker.ready(timeout_s=180)
            started = time.perf_counter()
            made = await ingest(settings, scopes, facts)
            print(
                f"ingested {made} facts in {scopes} scopes in {time.perf_counter() - started:.1f} s"
            )
        finally:
            await worker.stop()
        records, seconds = await raw_read_rate(settings, turns_only=True)
        read_rate = records / seconds
        print(f"raw turns read: {records} records in {seconds:.3f} s ({read_rate:.0f}/s)")
        texts, seconds = await raw_embedding(settings, scopes, facts)
        print(f"raw embedding: {texts} texts in {seconds:.2f} s ({texts / seconds:.0f} texts/s)")
        result = await replay(settings, ReplayPlan("turns"))
        print(f"{describe(result, read_rate)}; switched: {result.switched} ({result.note})")


async def raw_embedding(settings: Settings, scopes: int, facts: int) -> tuple[int, float]:
    """The turn texts and the live facts' statements embedded by a fresh embedder."""
    components = await build(settings)
    try:
        texts = []
        for n in range(scopes):
            scope = f"bench/replay/subject-{n}"
            texts += [t["text"] for t in subject_turns(scope, facts // scopes)]
            texts += [f.statement for f in await MemoryService(components).facts(scope)]
    finally:
        await components.close()
    embedder = MiniLMEmbedder(threads=settings.embedding_threads)
    embedder.embed(["a warm-up text the bench does not embed again"])  # loads the model
    started = time.perf_counter()
    for start in range(0, len(texts), 64):
        embedder.embed(texts[start : start + 64])
    return len(texts), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--facts", type=int, default=1000, help="statements in all")
    parser.add_argument("--scopes", type=int, default=4)
    parser.add_argument(
        "--kafka", action="store_true", help="the distributed runtime (PROVMEM_TEST_BROKER)"
    )
    parser.add_argument(
        "--kafka-turns",
        action="store_true",
        help="Kafka with Qdrant (local mode): replay --from turns switched, workers stopped",
    )
    args = parser.parse_args()
    configure_logging("WARNING")
    with tempfile.TemporaryDirectory(prefix="provmem-bench-replay-") as folder:
        settings = Settings(data_dir=Path(folder), partitions=4, topic_prefix="bench-replay")
        if args.kafka or args.kafka_turns:
            settings = settings_for(os.environ["PROVMEM_TEST_BROKER"], Path(folder))
        if args.kafka_turns:
            asyncio.run(run_turns_switch(settings, args.scopes, args.facts))
            return
        asyncio.run(run(settings, args.scopes, args.facts))


if __name__ == "__main__":
    main()
