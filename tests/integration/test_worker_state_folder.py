"""The worker keeps the gate's per-scope state in RocksDB under its own state folder: a
worker killed and started again on that folder holds the same gate state (a repeated
turn is still a NOOP), and a second worker on the same host takes a folder of its own."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

from provmem.config import Settings
from provmem.services.memory.memory import MemoryService
from provmem.streams.runtime.components import build
from provmem.streams.topics import GATE_TABLE
from tests.harness import SCOPE, said
from tests.support.worker_process import RECOVERED_LINE, WorkerProcess

DEADLINE_S = 120.0
FACTS = ["I live in Paris.", "I work at Acme.", "I love hiking."]


async def _caught_up(memory: MemoryService, worker: WorkerProcess) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not await memory.workers_caught_up():
        if not worker.alive or time.monotonic() > deadline:
            raise AssertionError(f"worker not caught up:\n{worker.log_text()[-4000:]}")
        await asyncio.sleep(0.3)


def _gate_databases(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"**/{GATE_TABLE}-*.db"))


async def test_a_worker_restarted_on_its_state_folder_keeps_the_gate_state(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    components = await build(kafka_settings)
    memory = MemoryService(components)
    folder = kafka_settings.data_dir / "faust" / f"{socket.gethostname()}-0"
    worker = WorkerProcess(kafka_settings, tmp_path / "worker.log").start()
    try:
        await worker.ready()
        await memory.publish([said(f"t{n}", text, minute=n) for n, text in enumerate(FACTS)])
        await _caught_up(memory, worker)
        facts = {f.fact_id for f in await memory.facts(SCOPE)}
        assert len(facts) == len(FACTS)
        assert _gate_databases(folder), "no RocksDB database of the gate table on disk"

        await worker.stop(kill=True)  # a crash: nothing flushed on the way out
        worker = WorkerProcess(kafka_settings, tmp_path / "worker-again.log").start()
        await worker.ready(line=RECOVERED_LINE)
        await memory.publish([said("again", FACTS[0], minute=10)])  # the same fact again
        await _caught_up(memory, worker)
        assert {f.fact_id for f in await memory.facts(SCOPE)} == facts  # NOOP: state kept

        await memory.publish([said("new", "I am allergic to peanuts.", minute=11)])
        await _caught_up(memory, worker)
        assert len(await memory.facts(SCOPE)) == len(FACTS) + 1  # the gate still adds
    finally:
        await worker.stop()
        await components.close()


async def test_two_workers_on_one_host_take_their_own_state_folders(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    workers = [WorkerProcess(kafka_settings, tmp_path / f"w{n}.log").start() for n in range(2)]
    try:
        await asyncio.gather(*(w.ready() for w in workers))
        root = kafka_settings.data_dir / "faust"
        held = sorted(p.name for p in root.iterdir() if p.is_dir())
        host = socket.gethostname()
        assert held == [f"{host}-0", f"{host}-1"]
        assert all(w.alive for w in workers)
        assert "lock" not in "".join(w.log_text() for w in workers).lower()
    finally:
        for worker in workers:
            await worker.stop()
