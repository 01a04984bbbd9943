"""bench/erasure on the Kafka runtime: one evidence erased in folders of N turns.

    python -m tests.support.testbed -- python -m bench.erasure --kafka --one-evidence 10 1000

Per folder size N: fresh topics (a prefix of their own), a Redis prefix of their own and
one faust worker (``provmem worker``, started as tests/ start it); the N turns of
bench/erasure's ``--one-evidence`` folder (one sentence each, scopes of ten turns) are
published and derived by the worker (the model embeds every turn: no stand-in vectors in
a worker). Then the worker erases one turn of the first scope (its first erasure, not
counted), then ``repeats`` more turns of that scope one after another, each timed from
filing the request on the erasure-requests topic to its receipt (polled every 20 ms).
No copies: the erasures follow each other on one broker. The worker's own
``erasure.steps`` line of each timed erasure is printed with it. The broker comes from
``PROVMEM_TEST_BROKER`` (the testbed starts Tansu), Redis from ``PROVMEM_TEST_REDIS_URL``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from pathlib import Path

from bench.ingest import settings_for
from provmem.config import Settings
from provmem.core.events import ErasureRequested
from provmem.services.erasure.subject import erasure_request
from provmem.services.memory.memory import MAX_BATCH, MemoryService
from provmem.streams.runtime.components import build
from tests.support.worker_process import WorkerProcess

PARTITIONS = 4  # as the embedded folders
STEPS = re.compile(r"erasure\.steps\s.*?request_id=(\S+)\s+seconds=(\{[^}]*\})")


def kafka_settings(folder: Path) -> Settings:
    """Settings of one folder size's run: its own topics, group and Redis prefix (as
    bench/ingest's), on the testbed's broker and Redis, with this bench's partitions."""
    redis_url = os.environ.get("PROVMEM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    settings = settings_for(os.environ["PROVMEM_TEST_BROKER"], folder)
    return settings.model_copy(update={"redis_url": redis_url, "partitions": PARTITIONS})


async def erase_on_kafka(
    turns: list[dict[str, str]], repeats: int, folder: Path, bar_type: type
) -> tuple[list[float], list[dict[str, float]]]:
    """Publish ``turns``, let a worker derive them, erase 1 + ``repeats`` turns of the
    first scope; the seconds to each timed receipt and the worker's steps of each."""
    settings = kafka_settings(folder)
    components = await build(settings)
    memory = MemoryService(components)
    worker = WorkerProcess(settings, folder / f"worker-{len(turns)}.log").start()
    try:
        await worker.ready(timeout_s=180)
        erasable = await publish_all(memory, turns, bar_type)
        cold = await erase_timed(memory, worker, erasable[0], turns[0]["scope"])
        print(f"first erasure of the worker (another turn): receipt {cold:.2f} s")
        times = []
        for evidence_id in erasable[1 : 1 + repeats]:
            times.append(await erase_timed(memory, worker, evidence_id, turns[0]["scope"]))
        return times, worker_steps(worker)[1:]
    finally:
        await worker.stop()
        await components.close()
        forget_redis(settings)


async def publish_all(
    memory: MemoryService, turns: list[dict[str, str]], bar_type: type
) -> list[str]:
    """Publish in batches, wait for the worker after each; the first scope's evidence ids."""
    bar = bar_type(f"kafka: {len(turns):,} turns", len(turns))
    first: list[str] = []
    try:
        for start in range(0, len(turns), MAX_BATCH):
            chunk = turns[start : start + MAX_BATCH]
            results = await memory.publish(chunk)
            first = first or [str(r.evidence_id) for r in results[:10]]
            await memory.settle(timeout_s=1800)
            bar.advance(len(chunk))
    finally:
        bar.close()
    return first


async def erase_timed(
    memory: MemoryService, worker: WorkerProcess, evidence_id: str, scope: str
) -> float:
    """File the erasure of one evidence; seconds until its receipt is readable."""
    request: ErasureRequested = erasure_request(scope, [evidence_id], None, False)
    started = time.perf_counter()
    await memory.file_erasure(request)
    while await memory.erasure_receipt(request.request_id) is None:
        if not worker.alive:
            raise RuntimeError(f"worker died: {worker.log_text()[-3000:]}")
        if time.perf_counter() - started > 600:
            raise TimeoutError(f"no receipt for {request.request_id} in 600 s")
        await asyncio.sleep(0.02)
    return time.perf_counter() - started


def worker_steps(worker: WorkerProcess) -> list[dict[str, float]]:
    """The ``erasure.steps`` of each erasure the worker logged, in order."""
    steps = []
    for _, seconds in STEPS.findall(worker.log_text()):
        try:
            steps.append(json.loads(seconds.replace("'", '"')))
        except ValueError:
            steps.append({})
    return steps


def forget_redis(settings: Settings) -> None:
    """Remove the run's keys from the shared Redis."""
    import redis

    client = redis.Redis.from_url(settings.redis_url or "redis://127.0.0.1:6379/0")
    for key in client.scan_iter(match=f"{settings.redis_prefix}:*", count=500):
        client.delete(key)
    client.close()
