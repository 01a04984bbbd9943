"""bench/erasure_log: the embedded log's part of one evidence erasure, at any folder size.

    python -m bench.erasure_log [--turns 10 1000 10000 100000] [--repeats 3]

A 100,000-turn folder takes an hour to build through the pipeline on a shared host; the
log steps that grew with the folder need only the log. Per size N, an EmbeddedEventLog
(4 partitions) holds N turn records in scopes of ten turns and 1.4 fact-change records a
turn (bench/erasure's folders hold 14,304 for 10,000 turns), each a sealed envelope of
~600 bytes as the sealer writes them (random ciphertext: nothing is opened here). Timed,
for the first scope: what the erasure did before the scope index (read the scope's
whole partition of both topics; compact the whole log) beside what it does now (read the
scope's records and those of no scope; compact those on its partition), wall and CPU
seconds, p50 over ``repeats``; each repeat tombstones another turn of the scope first
(so each compaction has a record to remove). Ratios to the smallest size, same run.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from provmem.core.ports import Append, Cleanup, TopicConfig
from provmem.core.scope import partition_for
from provmem.infra.log.embedded import EmbeddedEventLog
from provmem.infra.log.reads import partition_records, scope_records

TURNS, CHANGES = "bench.turns", "bench.fact-changes"
PARTITIONS, SCOPE_TURNS, CHANGES_PER_TEN = 4, 10, 14


def scope_key(turn: int) -> str:
    return f"bench/erasure/scope-{turn // SCOPE_TURNS}"


def envelope(scope: str) -> bytes:
    org, project, user = scope.split("/")
    shown = {"org": org, "project": project, "user": user}
    sealed = "pm1.dk_0." + base64.b64encode(os.urandom(420)).decode()
    return json.dumps({"seal": 1, "scope": shown, "sealed": sealed}, separators=(",", ":")).encode()


async def filled(path: Path, turns: int) -> EmbeddedEventLog:
    log = EmbeddedEventLog(path)
    await log.ensure_topics([TopicConfig(t, PARTITIONS, Cleanup.COMPACT) for t in (TURNS, CHANGES)])
    for start in range(0, turns, 5000):
        batch = range(start, min(turns, start + 5000))
        records = [(scope_key(t), f"t{t}".encode()) for t in batch]
        await log.append(TURNS, [Append(partition(s), k, envelope(s)) for s, k in records])
        changes = [
            (scope_key(t), f"f{t}-{n}".encode())
            for t in batch
            for n in range(1 + (t % SCOPE_TURNS < CHANGES_PER_TEN - SCOPE_TURNS))
        ]
        await log.append(CHANGES, [Append(partition(s), k, envelope(s)) for s, k in changes])
    return log


def partition(scope: str) -> int:
    return partition_for(scope, PARTITIONS)


async def clocked(work: Callable[[], Awaitable[int]]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    await work()
    return time.perf_counter() - wall, time.process_time() - cpu


async def measure(log: EmbeddedEventLog, repeat: int) -> dict[str, tuple[float, float]]:
    scope = scope_key(0)
    part = partition(scope)
    await log.append(TURNS, [Append(part, f"t{repeat}".encode(), None)])  # a tombstone

    async def whole_partitions() -> int:
        return sum([1 for t in (TURNS, CHANGES) async for _ in partition_records(log, t, part)])

    async def scope_only() -> int:
        return sum([1 for t in (TURNS, CHANGES) async for _ in scope_records(log, t, part, scope)])

    return {
        "read: whole partition (before)": await clocked(whole_partitions),
        "read: scope index (after)": await clocked(scope_only),
        "compact: whole log (before)": await clocked(lambda: log.compact(TURNS, CHANGES)),
        "compact: scope (after)": await clocked(
            lambda: log.compact_scope(scope, part, TURNS, CHANGES)
        ),
    }


async def run(sizes: list[int], repeats: int, folder: Path) -> None:
    table: dict[int, dict[str, list[tuple[float, float]]]] = {}
    for size in sizes:
        started = time.perf_counter()
        log = await filled(folder / f"log-{size}.db", size)
        print(f"{size:,} turns: log filled in {time.perf_counter() - started:.1f} s")
        for repeat in range(repeats):
            for step, seconds in (await measure(log, repeat)).items():
                table.setdefault(size, {}).setdefault(step, []).append(seconds)
        await log.close()
    report(table, os.getloadavg())


def report(table: dict[int, dict[str, list[tuple[float, float]]]], load: tuple[float, ...]) -> None:
    smallest = min(table)
    print(f"step | turns | wall p50 | cpu p50 | wall ratio to {smallest} turns")
    for step in table[smallest]:
        base = statistics.median(w for w, _ in table[smallest][step])
        for size in sorted(table):
            walls = [w for w, _ in table[size][step]]
            cpus = [c for _, c in table[size][step]]
            wall = statistics.median(walls)
            print(
                f"{step} | {size:,} | {wall * 1000:.1f} ms | "
                f"{statistics.median(cpus) * 1000:.1f} ms | {wall / base:.1f}x"
            )
    print("load average: " + " / ".join(f"{v:.2f}" for v in load))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, nargs="+", default=[10, 1000, 10_000, 100_000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="provmem-bench-erasure-log-") as folder:
        asyncio.run(run(args.turns, args.repeats, Path(folder)))


if __name__ == "__main__":
    main()
