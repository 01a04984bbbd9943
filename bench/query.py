"""bench/query: query latency at 10k, 100k and 1M facts in one scope, with filters.

    python -m bench.query [--sizes 10000 100000 1000000] [--queries 200] [--cache DIR]
                          [--profile 40]

Loads facts straight into the embedded views and index in chunks of 5,000, one views
transaction each (dense float32 vectors from a clustered synthetic distribution, BM25 from
the statements; ``--cache`` keeps each size's loaded folder for later runs), then times the
full multi-route recall of distinct queries (embedding the query, dense and BM25 routes
over facts and raw evidence, the entity route, projection, views reads, router) and, in the
same run, a raw filtered dense search of the same index as the baseline. Reports p50/p95
wall-clock and CPU time per query, the process's peak RSS, and the host's load average
(other processes compete for the cores: wall-clock figures mean little without it).
``--profile`` prints the recalls' cProfile (cumulative time, the given number of lines).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import resource
import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from provmem.config import Settings
from provmem.core.events import Fact, FactOp
from provmem.core.ports import VectorPoint
from provmem.core.scope import Scope
from provmem.core.stages import fact_changed
from provmem.services.memory.memory import MemoryService
from provmem.streams.runtime.components import Components, build

SCOPE = "bench/query/sam"
THINGS = [
    "guitar",
    "garden",
    "novel",
    "marathon",
    "bakery",
    "violin",
    "kayak",
    "museum",
    "recipe",
    "telescope",
    "puppy",
    "painting",
    "podcast",
    "chess",
    "camera",
]
VERBS = ["likes", "bought", "visited", "talked about", "finished", "started", "lost"]
NAMES = ["Ana", "Ben", "Chloe", "Dev", "Eli", "Farah", "Gus", "Hana"]


def statement(i: int, rng: random.Random) -> str:
    return (
        f"{rng.choice(NAMES)} {rng.choice(VERBS)} the {rng.choice(THINGS)} "
        f"number {i} with {rng.choice(NAMES)}."
    )


CHUNK = 5_000  # facts generated, written and indexed at a time: memory stays flat


def facts(numbers: range, rng: random.Random) -> list[Fact]:
    scope, when = Scope.parse(SCOPE), datetime(2026, 1, 1, tzinfo=UTC)
    return [
        Fact(
            fact_id=f"fact_{i:08d}",
            scope=scope,
            statement=statement(i, rng),
            evidence_ids=(f"ev_{i:08d}",),
            entities=(rng.choice(NAMES),),
            extraction_version="bench",
            last_verified_at=when,
            version=1,
        )
        for i in numbers
    ]


def vectors(count: int, centres: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Unit float32 vectors scattered around the given cluster centres."""
    dim = centres.shape[1]
    points = centres[rng.integers(0, len(centres), count)]
    points += 0.6 * rng.standard_normal((count, dim), dtype=np.float32)
    return points / np.linalg.norm(points, axis=1, keepdims=True)


async def load(components: Components, count: int, seed: int) -> None:
    """Write ``count`` facts to the views and the index, one chunk at a time."""
    rng, vector_rng = random.Random(seed), np.random.default_rng(seed)
    centres = vector_rng.standard_normal((64, components.embedder.dim), dtype=np.float32)
    for start in range(0, count, CHUNK):
        made = facts(range(start, min(count, start + CHUNK)), rng)
        await components.views.apply_batch(
            [fact_changed(FactOp.ADD, fact, "bench", "bench") for fact in made]
        )
        await components.vectors.upsert(
            points(components, made, vectors(len(made), centres, vector_rng))
        )
    await optimize_index(components.vectors)


async def optimize_index(vectors: object) -> None:
    """Optimize the edge index, also beneath a wrapper (the sealed index keeps it as
    ``inner`` and does not forward ``optimize``); an index without one is left as it is."""
    while vectors is not None:
        optimize = getattr(vectors, "optimize", None)
        if optimize is not None:
            await optimize()
            return
        vectors = getattr(vectors, "inner", None)


def points(components: Components, made: list[Fact], dense: np.ndarray) -> list[VectorPoint]:
    sparse = components.index.keywords.embed_documents([f.statement for f in made])
    return [
        VectorPoint(
            f.fact_id,
            d,
            SCOPE,
            "active",
            f.statement,
            s,
            tuple(e.lower() for e in f.entities),
            None,
            "fact",
        )
        for f, d, s in zip(made, dense, sparse, strict=True)
    ]


async def time_queries(
    memory: MemoryService, queries: list[str], profile: cProfile.Profile | None = None
) -> tuple[list[float], list[float], list[float]]:
    """Wall-clock ms of each recall, CPU ms of the process (all threads) during it, and
    wall-clock ms of the raw filtered dense search of the same query (the recalls alone
    under ``profile`` when one is given)."""
    recall_ms, cpu_ms, raw_ms = [], [], []
    components = memory.components
    for query in queries:
        started, cpu = time.perf_counter(), time.process_time()
        if profile is not None:
            profile.enable()
        await memory.query(SCOPE, query, limit=10)
        if profile is not None:
            profile.disable()
        recall_ms.append((time.perf_counter() - started) * 1000)
        cpu_ms.append((time.process_time() - cpu) * 1000)
        vector = components.embedder.embed_query(query)  # cached by the recall: no model run
        started = time.perf_counter()
        await components.vectors.search(SCOPE, vector, 10)
        raw_ms.append((time.perf_counter() - started) * 1000)
    return recall_ms, cpu_ms, raw_ms


def p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


LOADED = "bench-query-loaded"  # written into a cached folder once its load finished


async def run_size(count: int, queries: int, folder: Path, profile: int = 0) -> str:
    cached = (folder / LOADED).exists()
    if not cached:
        shutil.rmtree(folder, ignore_errors=True)  # an unfinished load of an earlier run
        folder.mkdir(parents=True)
    components = await build(Settings(data_dir=folder, partitions=2))
    memory = MemoryService(components)
    started = time.perf_counter()
    if not cached:
        await load(components, count, seed=count)
        (folder / LOADED).write_text(f"{count}\n")
    loaded = time.perf_counter() - started
    rng = random.Random(1)
    asked = [  # all distinct: no query vector comes from the embedding cache
        f"What did {rng.choice(NAMES)} do with the {rng.choice(THINGS)} number {i}?"
        for i in rng.sample(range(count), queries)
    ]
    await memory.query(SCOPE, "What did Ana do?")  # load the model
    load_before = os.getloadavg()[0]
    profiler = cProfile.Profile() if profile else None
    recall_ms, cpu_ms, raw_ms = await time_queries(memory, asked, profiler)
    load_after = os.getloadavg()[0]
    await components.close()
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(profile)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    how = "opened from the cache" if cached else "loaded"
    return (
        f"{count:>7} facts ({how} in {loaded:.0f} s): recall p50 "
        f"{statistics.median(recall_ms):.1f} ms p95 {p95(recall_ms):.1f} ms (CPU p50 "
        f"{statistics.median(cpu_ms):.1f} ms p95 {p95(cpu_ms):.1f} ms) | raw filtered "
        f"dense search p50 {statistics.median(raw_ms):.2f} ms p95 {p95(raw_ms):.2f} ms | "
        f"ratio p95 {p95(recall_ms) / p95(raw_ms):.0f}x | peak RSS {peak_mib:.0f} MiB | "
        f"load average (1 min) {load_before:.1f} before, {load_after:.1f} after the queries"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--cache",
        type=Path,
        help="keep each size's loaded folder here and reuse it (the same facts and vectors "
        "for a given size; remove it after a change of the views' or the index's layout)",
    )
    parser.add_argument(
        "--profile", type=int, default=0, help="print this many lines of the recalls' cProfile"
    )
    args = parser.parse_args()
    for size in args.sizes:
        if args.cache is not None:
            line = asyncio.run(
                run_size(size, args.queries, args.cache / f"query-{size}", args.profile)
            )
            print(line, flush=True)
            continue
        with tempfile.TemporaryDirectory(prefix="provmem-bench-query-") as folder:
            line = asyncio.run(run_size(size, args.queries, Path(folder), args.profile))
            print(line, flush=True)


if __name__ == "__main__":
    main()
