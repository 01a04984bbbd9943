"""Kill the process in the middle of an erasure cascade; after a restart the cascade
completes and the audit finds no residue (the embedded CLI process; a Kafka worker)."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from provmem.config import Settings
from provmem.core.capture import TurnInput, turn_evidence_id
from provmem.core.scope import Scope, partition_for
from provmem.infra.log.record_keys import is_keyed
from provmem.services.erasure.subject import eraser_for, erasure_request
from provmem.services.memory.memory import MemoryService
from provmem.streams.runtime.components import build
from tests.harness import SCOPE, Runtime, said

TURNS = 40


def _turns() -> list[dict[str, object]]:
    return [
        said(
            f"t{i}",
            " ".join(f"I met friend {i}-{j} at the {j}th market in {1900 + j}." for j in range(6)),
            minute=i,
        )
        for i in range(TURNS)
    ]


def _tombstones(log_db: Path) -> int:
    try:
        with sqlite3.connect(log_db, timeout=1) as conn:
            return int(
                conn.execute(
                    "SELECT COUNT(*) FROM records WHERE value IS NULL AND topic LIKE '%.turns'"
                ).fetchone()[0]
            )
    except sqlite3.OperationalError:
        return 0


async def _facts(folder: Path, turns: list[dict[str, object]]) -> list[dict[str, object]]:
    components = await build(Settings(data_dir=folder, partitions=2))
    memory = MemoryService(components)
    await memory.publish(turns)
    await memory.sync()
    facts = sorted(
        (f.model_dump(exclude={"version"}) for f in await memory.facts(SCOPE)),
        key=lambda f: str(f["fact_id"]),
    )
    await components.close()
    return facts


async def test_a_killed_cascade_completes_after_restart(tmp_path: Path) -> None:
    live, fresh = tmp_path / "live", tmp_path / "fresh"
    turns = _turns()
    await _facts(live, turns)
    ids = [turn_evidence_id(TurnInput.model_validate(t)) for t in turns]
    chosen = ids[::2]
    args = [sys.executable, "-m", "provmem.services.cli", "erase", SCOPE, "--data-dir", str(live)]
    for evidence_id in chosen:
        args += ["--evidence", evidence_id]
    child = subprocess.Popen(
        args,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PROVMEM_PARTITIONS": "2"},
    )
    deadline = time.monotonic() + 120
    while _tombstones(live / "log.db") == 0 and child.poll() is None:
        assert time.monotonic() < deadline, "the erasure never started"
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait(30)
    assert child.returncode == -signal.SIGKILL, "the erasure finished before it was killed"

    components = await build(Settings(data_dir=live, partitions=2))
    eraser = eraser_for(components)
    request = erasure_request(SCOPE, chosen, None, False)
    receipt = await eraser.erase(request)
    assert receipt.residue_found == 0 and receipt.evidence_erased == len(chosen)
    assert (await eraser.audit(request.request_id)).total == 0
    memory = MemoryService(components)
    after = sorted(
        (f.model_dump(exclude={"version"}) for f in await memory.facts(SCOPE)),
        key=lambda f: str(f["fact_id"]),
    )
    await components.close()
    kept = [t for t, i in zip(turns, ids, strict=True) if i not in set(chosen)]
    assert after == await _facts(fresh, kept)


async def _first_tombstone(runtime: Runtime, partition: int, start: int) -> None:
    """Wait until the cascade has put a tombstone on the scope's turns partition."""
    components = runtime.memory.components
    deadline = time.monotonic() + 120
    offset = start
    while True:
        for record in await components.log.read(components.names.turns, partition, offset, 500):
            offset = record.offset + 1
            if record.value is None and is_keyed(record.key):  # not the control record's
                return
        assert time.monotonic() < deadline, "the erasure never started"
        await asyncio.sleep(0.02)


async def test_a_killed_worker_completes_the_cascade_after_restart(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    """Kafka: SIGKILL the faust worker in the middle of the cascade (after its first
    tombstones, so after it moved the subject to a new log-key epoch); the restarted
    worker meets the uncommitted control record again, re-runs the cascade (another
    epoch), and the audit finds no residue and nothing that opens under a retired key."""
    runtime = await Runtime(kafka_settings, tmp_path).start()
    turns = _turns()[:12]
    await runtime.memory.publish(turns)
    await runtime.settle(runtime.caught_up)
    ids = [turn_evidence_id(TurnInput.model_validate(t)) for t in turns]
    chosen = ids[::2]
    request = erasure_request(SCOPE, chosen, None, False)
    log, names = runtime.memory.components.log, runtime.memory.components.names
    partition = partition_for(Scope.parse(SCOPE).key, kafka_settings.partitions)
    start = await log.end_offset(names.turns, partition)
    assert await runtime.memory.request_erasure(request) is None  # queued for the workers
    await _first_tombstone(runtime, partition, start)
    assert await runtime.memory.erasure_receipt(request.request_id) is None, "finished too soon"
    await runtime.restart(kill=True)

    async def completed() -> bool:
        return await runtime.memory.erasure_receipt(request.request_id) is not None

    await runtime.settle(completed)
    await runtime.settle(runtime.caught_up)
    receipt = await runtime.memory.erasure_receipt(request.request_id)
    assert receipt is not None and receipt.residue_found == 0, receipt
    audit = await eraser_for(runtime.memory.components).audit(request.request_id)
    assert audit.total == 0 and audit.awaiting.records == 0  # both retired log keys are gone
    after = sorted(
        (f.model_dump(exclude={"version"}) for f in await runtime.memory.facts(SCOPE)),
        key=lambda f: str(f["fact_id"]),
    )
    await runtime.stop()
    kept = [t for t, i in zip(turns, ids, strict=True) if i not in set(chosen)]
    assert after == await _facts(tmp_path / "fresh", kept)
