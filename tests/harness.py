"""Drive either runtime the same way: publish, let it process, restart, query."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from provmem.config import Settings
from provmem.core.events import ErasureCompleted, ErasureRequested
from provmem.services.memory.memory import MemoryService
from provmem.streams.runtime.components import Components, build

DEADLINE_S = 90.0
SCOPE = "acme/support/alice"
T0 = datetime(2026, 5, 8, 13, 0, tzinfo=UTC)


def said(turn_id: str, text: str, minute: int = 0, scope: str = SCOPE) -> dict[str, Any]:
    """A publishable turn of Alice's."""
    return {
        "scope": scope,
        "speaker": "Alice",
        "text": text,
        "turn_id": turn_id,
        "session": "s1",
        "captured_at": (T0 + timedelta(minutes=minute)).isoformat(),
    }


def settings_env(settings: Settings) -> dict[str, str]:
    """The environment that recreates ``settings`` in a child process."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROVMEM_")}
    for name, value in settings.model_dump().items():
        if value is not None:
            env[f"PROVMEM_{name.upper()}"] = str(value)
    return env


class Runtime:
    """One runtime under test. ``settle`` waits until everything published is processed."""

    def __init__(self, settings: Settings, log_dir: Path) -> None:
        self.settings = settings
        self._log_dir = log_dir
        self._components: Components | None = None
        self._worker: subprocess.Popen[bytes] | None = None
        self.memory: MemoryService

    async def start(self) -> Runtime:
        self._components = await build(self.settings)
        self.memory = MemoryService(self._components)
        if self.settings.runtime == "kafka":
            self._start_worker()
            await self._worker_ready()
        return self

    async def _worker_ready(self) -> None:
        """Wait until the worker has joined its group and recovered its tables.

        Turns published while a restarted worker is still rebalancing on Tansu were seen
        to stall in its stream (see docs/ARCHITECTURE.md, known issues)."""
        deadline = time.monotonic() + DEADLINE_S
        while "[^Worker]: Ready" not in self._current_log.read_text(errors="replace"):
            if self._worker is not None and self._worker.poll() is not None:
                raise AssertionError(f"worker exited: {self.worker_log()[-3000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"worker not ready: {self.worker_log()[-3000:]}")
            await asyncio.sleep(0.2)

    def _start_worker(self) -> None:
        self._current_log = self._log_dir / f"worker-{time.monotonic_ns()}.log"
        log = self._current_log.open("wb")
        self._worker = subprocess.Popen(
            [sys.executable, "-m", "provmem.services.cli", "worker", "--loglevel", "info"],
            env={**settings_env(self.settings), "PROVMEM_LOG_LEVEL": "DEBUG"},
            stdout=log,
            stderr=subprocess.STDOUT,
        )

    async def stop(self, kill: bool = False) -> None:
        if self._worker is not None:
            self._worker.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                await asyncio.to_thread(self._worker.wait, 30)
            except subprocess.TimeoutExpired:  # a slow shutdown on busy cores: not the test's
                self._worker.kill()
                await asyncio.to_thread(self._worker.wait, 30)
            self._worker = None
        if self._components is not None:
            await self._components.close()
            self._components = None

    async def restart(self, kill: bool = False) -> None:
        await self.stop(kill)
        await self.start()

    async def erase(self, request: ErasureRequested) -> ErasureCompleted:
        """File an erasure and wait for its receipt: run here (embedded) or by a worker
        (Kafka), then the views and this process's local index caught up."""
        receipt = await self.memory.request_erasure(request)
        if receipt is None:

            async def completed() -> bool:
                return await self.memory.erasure_receipt(request.request_id) is not None

            await self.settle(completed)
            receipt = await self.memory.erasure_receipt(request.request_id)
        assert receipt is not None, f"no receipt for {request.request_id}"
        await self.settle(self.caught_up)
        return receipt

    async def settle(self, ready: Callable[[], Awaitable[bool]]) -> None:
        """Process (embedded) or wait for the workers (kafka) until ``ready()`` holds."""
        deadline = time.monotonic() + DEADLINE_S
        while True:
            await self.memory.sync()
            if await ready():
                return
            if self._worker is not None and self._worker.poll() is not None:
                raise AssertionError(
                    f"worker exited with {self._worker.returncode}: {self.worker_log()[-3000:]}"
                )
            if time.monotonic() > deadline:
                facts = [
                    (f.statement, f.status.value, f.review_reason)
                    for f in await self.memory.facts(SCOPE)
                ]
                raise AssertionError(
                    f"not ready after {DEADLINE_S}s; facts of {SCOPE}: {facts}"
                    f"\n{self.worker_log()[-6000:]}"
                )
            await asyncio.sleep(0.2)

    async def caught_up(self) -> bool:
        """Every record on the turns and fact-changes topics has been handled."""
        return await self.memory.workers_caught_up()

    def worker_log(self) -> str:
        logs = sorted(self._log_dir.glob("worker-*.log"))
        return "\n".join(p.read_text(errors="replace") for p in logs)
