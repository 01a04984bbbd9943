"""bench/ingest: end-to-end ingest on the distributed runtime with 1 and 2 faust workers.

    python -m bench.ingest [--turns 1451] [--workers 1 2] [--broker HOST:PORT]

Turns are LoCoMo dev turns, one scope per (conversation, session) so they spread over the
partitions. Workers are started and ready before publishing; the clock runs from the first
publish until the workers' group has committed the end of the turns and fact-changes
topics. Baselines measured in the same run, on the same texts and records:

- raw embedding throughput: the MiniLM model on the turn texts, batches of 64;
- raw broker throughput: the same (sealed) turn records appended and read back.

Also reported: each worker's peak RSS, and whether every published turn was handled.
Without ``--broker`` a Tansu broker is started on a free port; Redis on 127.0.0.1:6379.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from provmem.core.ports import Append
from provmem.infra.embedding import MiniLMEmbedder
from provmem.infra.kafka_log import KafkaEventLog
from provmem.infra.settings import Settings
from provmem.services.memory.loaders import read_locomo
from provmem.services.memory.memory import MAX_BATCH, Memory
from provmem.streams.runtime.components import build
from tests.support.tansu import TansuBroker
from tests.support.worker_process import WorkerProcess

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo-dev.json"
PARTITIONS = 8


def bench_turns(count: int) -> list[dict[str, Any]]:
    """``count`` LoCoMo turns, one scope per conversation session (repeated with a new
    scope suffix when more turns are asked for than the file has)."""
    source = list(read_locomo(LOCOMO, org="bench"))
    turns: list[dict[str, Any]] = []
    round_ = 0
    while len(turns) < count:
        for turn in source[: count - len(turns)]:
            org, sample, _ = turn["scope"].split("/")
            scope = f"{org}/{sample}/{turn['session']}-{round_}"
            turns.append({**turn, "scope": scope, "turn_id": f"{turn['turn_id']}#{round_}"})
        round_ += 1
    return turns


def settings_for(broker: str, folder: Path) -> Settings:
    run = uuid.uuid4().hex[:8]
    return Settings(
        runtime="kafka",
        broker_url=broker,
        data_dir=folder / run,
        topic_prefix=f"bench-{run}",
        consumer_group=f"bench-{run}",
        redis_prefix=f"bench-{run}",
        partitions=PARTITIONS,
        producer_max_batch_size=1,  # Tansu (docs/ARCHITECTURE.md)
        broker_session_timeout_s=10,
        broker_heartbeat_interval_s=1,
    )


async def embedding_rate(texts: list[str]) -> float:
    embedder = MiniLMEmbedder()
    embedder.embed(texts[:64])  # warm up
    start = time.perf_counter()
    for i in range(0, len(texts), 64):
        embedder.embed(texts[i : i + 64])
    return len(texts) / (time.perf_counter() - start)


async def broker_rate(broker: str, records: list[bytes]) -> float:
    """Append the records (as the publisher does) and read them back: records/s."""
    log = KafkaEventLog(broker, max_batch_size=1)
    topic = f"bench-raw-{uuid.uuid4().hex[:8]}"
    try:
        from provmem.core.ports import Cleanup, TopicConfig

        await log.ensure_topics([TopicConfig(topic, PARTITIONS, Cleanup.DELETE)])
        start = time.perf_counter()
        for i in range(0, len(records), MAX_BATCH):
            batch = records[i : i + MAX_BATCH]
            await log.append(topic, [Append(n % PARTITIONS, None, r) for n, r in enumerate(batch)])
        read = 0
        for partition in range(PARTITIONS):
            offset = 0
            while page := await log.read(topic, partition, offset, 1000):
                read += len(page)
                offset = page[-1].offset + 1
        assert read == len(records), f"raw broker: read {read} of {len(records)}"  # noqa: S101
        return len(records) / (time.perf_counter() - start)
    finally:
        await log.close()


async def ingest_rate(
    broker: str, folder: Path, turns: list[dict[str, Any]], workers: int
) -> dict[str, Any]:
    settings = settings_for(broker, folder)
    components = await build(settings)
    memory = Memory(components)
    # One host: the workers share its cores, so each embeds on its share of them.
    threads = max(1, (os.cpu_count() or 1) // workers)
    settings = settings.model_copy(update={"embedding_threads": threads})
    started = [
        WorkerProcess(settings, folder / f"worker-{workers}-{n}.log").start()
        for n in range(workers)
    ]
    try:
        await asyncio.gather(*(w.ready(timeout_s=180) for w in started))
        start = time.perf_counter()
        for i in range(0, len(turns), MAX_BATCH):
            await memory.publish(turns[i : i + MAX_BATCH])
        published = time.perf_counter() - start
        while not await memory.workers_caught_up():
            if not all(w.alive for w in started):
                raise RuntimeError("a worker died; see " + str(folder))
            await asyncio.sleep(0.2)
        elapsed = time.perf_counter() - start
        peaks = [w.memory_mib()[1] for w in started]
        handled = await _handled(components, settings)
        return {
            "workers": workers,
            "turns_per_s": len(turns) / elapsed,
            "publish_per_s": len(turns) / published,
            "seconds": elapsed,
            "peak_rss_mib": peaks,
            "handled": handled,
        }
    finally:
        for worker in started:
            await worker.stop()
        await components.close()


async def _handled(components: Any, settings: Settings) -> int:
    """Turns the workers committed past (every one of them, when nothing was dropped)."""
    total = 0
    for partition in range(settings.partitions):
        total += await components.log.committed(
            settings.consumer_group, components.names.turns, partition
        )
    return total


async def sealed_records(broker: str, folder: Path, turns: list[dict[str, Any]]) -> list[bytes]:
    """The turn records as the publisher writes them (sealed), for the raw broker baseline."""
    from provmem.core.capture import TurnInput, record_turn
    from provmem.streams.topics import TURNS

    components = await build(settings_for(broker, folder))
    try:
        out = []
        for raw in turns:
            turn = TurnInput.model_validate(raw)
            sealed, digest = await components.sealer.seal(turn.resolved_scope().key, turn.text)
            out.append(TURNS.encode(record_turn(turn, sealed, digest)))
        return out
    finally:
        await components.close()


async def run(broker: str, count: int, folder: Path, workers: list[int], sample: int) -> None:
    turns = bench_turns(count)
    texts = [t["text"] for t in turns][:sample]  # a rate per text: a sample suffices
    embed = await embedding_rate(texts)
    raw = await broker_rate(broker, await sealed_records(broker, folder, turns))
    print(
        f"turns: {len(turns)} in {len({t['scope'] for t in turns})} scopes, {PARTITIONS} partitions"
    )
    print(f"raw embedding:  {embed:8.1f} texts/s (MiniLM, batches of 64)")
    print(f"raw broker:     {raw:8.1f} records/s (append + read back)")
    for count_ in workers:
        got = await ingest_rate(broker, folder, turns, count_)
        rss = ", ".join(f"{p:.0f}" for p in got["peak_rss_mib"])
        print(
            f"{count_} worker(s):    {got['turns_per_s']:8.1f} turns/s end to end "
            f"({got['seconds']:.1f} s; publish {got['publish_per_s']:.0f}/s) | "
            f"vs embedding {got['turns_per_s'] / embed:.2f}x | vs broker "
            f"{got['turns_per_s'] / raw:.2f}x | peak RSS MiB [{rss}] | "
            f"handled {got['handled']}/{len(turns)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=1451, help="turns to ingest")
    parser.add_argument("--broker", help="Kafka bootstrap servers (default: start Tansu)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts")
    parser.add_argument(
        "--baseline-sample", type=int, default=2000, help="texts the raw embedding rate uses"
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="provmem-bench-ingest-"))
    options = (args.turns, folder, args.workers, args.baseline_sample)
    if args.broker:
        asyncio.run(run(args.broker, *options))
        return
    with TansuBroker() as broker:
        asyncio.run(run(broker.bootstrap, *options))


if __name__ == "__main__":
    main()
