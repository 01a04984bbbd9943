"""Redis restarts empty (it keeps nothing on disk here) under a running worker: a replay
from the log rebuilds the views, the evidence comes back readable (its data keys are on
the data-keys topic), and the pipeline goes on as if nothing had happened."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from provmem.config import Settings
from provmem.services.memory.memory import MemoryService
from provmem.services.replay.run import ReplayPlan, replay
from provmem.streams.runtime.components import build
from tests.harness import SCOPE, said
from tests.support.tansu import free_port
from tests.support.worker_process import WorkerProcess

DEADLINE_S = 120.0
BEFORE = ["I live in Paris.", "I work at Acme.", "I love hiking.", "I moved to Berlin."]
AFTER = ["I am allergic to peanuts.", "I live in Berlin."]


class RedisServer:
    """A redis-server of the test's own, without persistence, that can be restarted."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self._folder = folder
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        command = ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"]
        self._proc = subprocess.Popen(  # noqa: S603 - fixed command
            [*command, "--dir", str(self._folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return self
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def kill(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait(10)
            self._proc = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path).start()
    yield server
    server.kill()


def _turns(texts: list[str], first_minute: int) -> list[dict[str, Any]]:
    return [
        said(f"t{first_minute + n}", text, minute=first_minute + n) for n, text in enumerate(texts)
    ]


async def _caught_up(memory: MemoryService, worker: WorkerProcess, facts: int) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not (await memory.workers_caught_up() and len(await memory.facts(SCOPE)) >= facts):
        if not worker.alive or time.monotonic() > deadline:
            raise AssertionError(f"worker not caught up:\n{worker.log_text()[-4000:]}")
        await asyncio.sleep(0.3)


async def _state(memory: MemoryService) -> tuple[list[dict[str, Any]], list[str]]:
    facts = sorted((f.model_dump(mode="json") for f in await memory.facts(SCOPE)), key=str)
    quotes = []
    for fact in await memory.facts(SCOPE):
        detail = await memory.fact(fact["fact_id"] if isinstance(fact, dict) else fact.fact_id)
        quotes += [q.quote for q in detail.evidence] if detail else []
    return facts, sorted(quotes)


async def _clean_run(settings: Settings) -> tuple[list[dict[str, Any]], list[str]]:
    components = await build(settings)
    try:
        memory = MemoryService(components)
        await memory.publish(_turns(BEFORE, 0) + _turns(AFTER, 10))
        await memory.sync()
        return await _state(memory)
    finally:
        await components.close()


async def test_views_are_rebuilt_from_the_log_after_redis_restarts_empty(
    kafka_settings: Settings, embedded_settings: Settings, own_redis: RedisServer, tmp_path: Path
) -> None:
    settings = kafka_settings.model_copy(update={"redis_url": own_redis.url})
    components = await build(settings)
    memory = MemoryService(components)
    worker = WorkerProcess(settings, tmp_path / "worker.log").start()
    try:
        await worker.ready()
        await memory.publish(_turns(BEFORE, 0))
        await _caught_up(memory, worker, 4)
        before = await _state(memory)

        own_redis.kill()
        own_redis.start()  # same port, nothing kept
        assert await memory.facts(SCOPE) == []

        # the recovery runs as `provmem replay` does: with no other process on the folder
        # (it refuses one that serves it); this one holds the folder's local index open
        await components.close()
        result = await replay(settings, ReplayPlan("fact-changes"))
        assert result.switched
        components = await build(settings)  # a process started after the recovery
        memory = MemoryService(components)
        assert await _state(memory) == before  # views and readable evidence are back

        await memory.publish(_turns(AFTER, 10))
        await _caught_up(memory, worker, 5)
        assert await _state(memory) == await _clean_run(embedded_settings)
    finally:
        await worker.stop()
        await components.close()
