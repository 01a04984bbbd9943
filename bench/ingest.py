"""bench/ingest: end-to-end ingest on the distributed runtime with 1 and 2 faust workers.

    python -m bench.ingest [--turns 1451] [--workers 1 2] [--stores rocksdb] [--broker HOST:PORT]
        [--trace FILE] [--restart]

Turns are LoCoMo dev turns, one scope per (conversation, session) so they spread over the
partitions. Workers are started and ready before publishing; the clock runs from the first
publish until the workers' group has committed the end of the turns and fact-changes
topics. Baselines measured in the same run, on the same texts and records:

- raw embedding throughput: the MiniLM model on the turn texts, batches of 64;
- raw broker throughput: the same (sealed) turn records appended and read back.

Also reported: each worker's peak RSS and an RSS trace (each worker's RSS against the turns
handled, sampled every second; its slope in MiB per 1,000 turns over the run's second half),
and whether every published turn was handled. ``--stores memory rocksdb`` runs each worker
count with the gate table in memory and on RocksDB (the same-run baseline). ``--restart``
then restarts one worker on the last run's topics and times start-to-recovered with its
state folder kept and with it removed (recovered from the changelog).
Without ``--broker`` a Tansu broker is started on a free port; Redis on 127.0.0.1:6379.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from provmem.config import Settings
from provmem.core.ports import Append
from provmem.infra.log.kafka import KafkaEventLog
from provmem.infra.models.embedding import MiniLMEmbedder
from provmem.services.memory.loaders import read_locomo
from provmem.services.memory.memory import MAX_BATCH, MemoryService
from provmem.streams.runtime.components import build
from tests.support.tansu import TansuBroker
from tests.support.worker_process import RECOVERED_LINE, WorkerProcess

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo-dev.json"
PARTITIONS = 8


def bench_turns(count: int, locomo: Path = LOCOMO) -> list[dict[str, Any]]:
    """``count`` LoCoMo turns, one scope per conversation session (repeated with a new
    scope suffix when more turns are asked for than the file has)."""
    source = list(read_locomo(locomo, org="bench"))
    turns: list[dict[str, Any]] = []
    round_ = 0
    while len(turns) < count:
        for turn in source[: count - len(turns)]:
            org, sample, _ = turn["scope"].split("/")
            scope = f"{org}/{sample}/{turn['session']}-{round_}"
            turns.append({**turn, "scope": scope, "turn_id": f"{turn['turn_id']}#{round_}"})
        round_ += 1
    return turns


def settings_for(broker: str, folder: Path, store: str = "rocksdb") -> Settings:
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
        worker_store=store,
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
    broker: str, folder: Path, turns: list[dict[str, Any]], workers: int, store: str
) -> dict[str, Any]:
    settings = settings_for(broker, folder, store)
    components = await build(settings)
    memory = MemoryService(components)
    # One host: the workers share its cores, so each embeds on its share of them.
    threads = max(1, (os.cpu_count() or 1) // workers)
    settings = settings.model_copy(update={"embedding_threads": threads})
    started = [
        WorkerProcess(settings, folder / f"worker-{store}-{workers}-{n}.log").start()
        for n in range(workers)
    ]
    trace: list[dict[str, Any]] = []
    try:
        await asyncio.gather(*(w.ready(timeout_s=180) for w in started))
        sampler = asyncio.create_task(_sample_rss(components, settings, started, trace))
        start = time.perf_counter()
        for i in range(0, len(turns), MAX_BATCH):
            await memory.publish(turns[i : i + MAX_BATCH])
        published = time.perf_counter() - start
        while not await memory.workers_caught_up():
            if not all(w.alive for w in started):
                raise RuntimeError("a worker died; see " + str(folder))
            await asyncio.sleep(0.2)
        elapsed = time.perf_counter() - start
        sampler.cancel()
        peaks = [w.memory_mib()[1] for w in started]
        handled = await _handled(components, settings)
        trace.append(await _rss_sample(components, settings, started))
        return {
            "workers": workers,
            "store": store,
            "turns_per_s": len(turns) / elapsed,
            "publish_per_s": len(turns) / published,
            "seconds": elapsed,
            "peak_rss_mib": peaks,
            "handled": handled,
            "trace": trace,
            "slope_mib_per_1k": _slopes(trace, workers),
            "settings": settings,
        }
    finally:
        for worker in started:
            await worker.stop()
        await components.close()


async def _rss_sample(
    components: Any, settings: Settings, workers: list[WorkerProcess]
) -> dict[str, Any]:
    rss = [w.memory_mib()[0] for w in workers]
    return {"handled": await _handled(components, settings), "rss_mib": rss}


async def _sample_rss(
    components: Any, settings: Settings, workers: list[WorkerProcess], trace: list[Any]
) -> None:
    while True:
        trace.append(await _rss_sample(components, settings, workers))
        await asyncio.sleep(1.0)


def _slopes(trace: list[dict[str, Any]], workers: int) -> list[float]:
    """Each worker's RSS slope (least squares, MiB per 1,000 turns handled) over the
    second half of the run: the first half holds the start-up growth (model, caches)."""
    last = trace[-1]["handled"]
    half = [p for p in trace if p["handled"] >= last / 2]
    xs = [p["handled"] / 1000 for p in half]
    slopes = []
    for n in range(workers):
        ys = [p["rss_mib"][n] for p in half]
        mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
        var = sum((x - mean_x) ** 2 for x in xs)
        cov = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
        slopes.append(cov / var if var else 0.0)
    return slopes


def _trace_lines(trace: list[dict[str, Any]], every: int) -> list[str]:
    """The trace at about every ``every`` turns handled (and its last point)."""
    lines, mark = [], 0
    for point in trace:
        if point["handled"] >= mark or point is trace[-1]:
            rss = ", ".join(f"{r:.0f}" for r in point["rss_mib"])
            lines.append(f"    {point['handled']:>7} turns: RSS MiB [{rss}]")
            mark = point["handled"] + every
    return lines


async def restart_times(settings: Settings, folder: Path) -> dict[str, float]:
    """Seconds from start to recovered for one worker on ``settings``' topics, with its
    state folder kept, then with it removed (the changelog is read from the start)."""
    times = {}
    for case in ("folder kept", "folder removed"):
        if case == "folder removed":
            shutil.rmtree(settings.data_dir / "faust")
        worker = WorkerProcess(settings, folder / f"restart-{case.split()[1]}.log")
        start = time.perf_counter()
        worker.start()
        try:
            await worker.ready(timeout_s=600, line=RECOVERED_LINE)
            times[case] = time.perf_counter() - start
        finally:
            await worker.stop()
    return times


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


async def run(
    broker: str, count: int, folder: Path, workers: list[int], sample: int, options: Any
) -> None:
    turns = bench_turns(count, Path(options.locomo))
    texts = [t["text"] for t in turns][:sample]  # a rate per text: a sample suffices
    embed = await embedding_rate(texts)
    raw = await broker_rate(broker, await sealed_records(broker, folder, turns))
    print(
        f"turns: {len(turns)} in {len({t['scope'] for t in turns})} scopes, {PARTITIONS} partitions"
    )
    print(f"raw embedding:  {embed:8.1f} texts/s (MiniLM, batches of 64)")
    print(f"raw broker:     {raw:8.1f} records/s (append + read back)")
    results = []
    for store in options.stores:
        for count_ in workers:
            got = await ingest_rate(broker, folder, turns, count_, store)
            results.append(got)
            rss = ", ".join(f"{p:.0f}" for p in got["peak_rss_mib"])
            slope = ", ".join(f"{s:+.1f}" for s in got["slope_mib_per_1k"])
            print(
                f"{count_} worker(s), {store}: {got['turns_per_s']:8.1f} turns/s end to end "
                f"({got['seconds']:.1f} s; publish {got['publish_per_s']:.0f}/s) | "
                f"vs embedding {got['turns_per_s'] / embed:.2f}x | vs broker "
                f"{got['turns_per_s'] / raw:.2f}x | peak RSS MiB [{rss}] | "
                f"RSS slope MiB/1k turns [{slope}] | handled {got['handled']}/{len(turns)}"
            )
            print("\n".join(_trace_lines(got["trace"], max(1, count // 10))))
    if options.trace:
        keep = ("workers", "store", "turns_per_s", "peak_rss_mib", "slope_mib_per_1k", "trace")
        rows = [{k: r[k] for k in keep} for r in results]
        Path(options.trace).write_text(json.dumps(rows, indent=1))
    if options.restart:
        times = await restart_times(results[-1]["settings"], folder)
        print(
            "restart to recovered: "
            + ", ".join(f"{case} {s:.1f} s" for case, s in times.items())
            + f" (gate state of {len(turns)} turns)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=1451, help="turns to ingest")
    parser.add_argument("--broker", help="Kafka bootstrap servers (default: start Tansu)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts")
    parser.add_argument(
        "--baseline-sample", type=int, default=2000, help="texts the raw embedding rate uses"
    )
    parser.add_argument(
        "--stores",
        nargs="+",
        default=["rocksdb"],
        choices=["rocksdb", "memory"],
        help="gate table stores to run (memory: the baseline before RocksDB)",
    )
    parser.add_argument("--locomo", default=str(LOCOMO), help="the LoCoMo dev file")
    parser.add_argument("--trace", help="write the RSS traces to this JSON file")
    parser.add_argument(
        "--restart", action="store_true", help="time a worker restart after the last run"
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="provmem-bench-ingest-"))
    options = (args.turns, folder, args.workers, args.baseline_sample, args)
    if args.broker:
        asyncio.run(run(args.broker, *options))
        return
    with TansuBroker() as broker:
        asyncio.run(run(broker.bootstrap, *options))


if __name__ == "__main__":
    main()
