"""bench/replay: rebuild rate of a replay against the raw log read rate, in one run.

    python -m bench.replay [--facts 1000] [--scopes 4]
    python -m tests.support.testbed -- python -m bench.replay --kafka   # broker, Redis, 1 worker

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


async def raw_read_rate(settings: Settings) -> tuple[int, float]:
    """Records and seconds to read the turns and fact-changes topics through EventLog."""
    components = await build(settings)
    log, names, records = components.log, components.names, 0
    try:
        started = time.perf_counter()
        for topic in (names.turns, names.fact_changes):
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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--facts", type=int, default=1000, help="statements in all")
    parser.add_argument("--scopes", type=int, default=4)
    parser.add_argument(
        "--kafka", action="store_true", help="the distributed runtime (PROVMEM_TEST_BROKER)"
    )
    args = parser.parse_args()
    configure_logging("WARNING")
    with tempfile.TemporaryDirectory(prefix="provmem-bench-replay-") as folder:
        settings = Settings(data_dir=Path(folder), partitions=4, topic_prefix="bench-replay")
        if args.kafka:
            settings = settings_for(os.environ["PROVMEM_TEST_BROKER"], Path(folder))
        asyncio.run(run(settings, args.scopes, args.facts))


if __name__ == "__main__":
    main()
