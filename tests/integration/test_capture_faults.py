"""SIGKILL ``provmem ingest`` at each step of capture, ingest the file again: the log and
the views are exactly those of a clean run (both runtimes).

The crash points are ``PROVMEM_FAULT`` steps (services/memory/faults.py). On 96a0921
evidence ids were reserved before the append, so a kill after the reservation lost those
turns for good: the re-ingest answered ``duplicate`` and they never reached the log.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from provmem.config import Settings
from provmem.core.ports import LogRecord
from provmem.services.memory.faults import STEPS
from tests.harness import Runtime, said, settings_env

SCOPES = ("acme/support/alice", "acme/support/bob")
TEXTS = (
    "I live in Lyon and I work at Acme as a nurse.",
    "My dog is called Rex and he is three years old.",
    "I moved to Paris last spring.",
    "My favourite food is ramen.",
    "I play the cello on Sundays.",
    "My sister Ana lives in Porto.",
)


def _turn_file(folder: Path) -> Path:
    turns = [
        said(f"t{n}", f"{text} Note {n}.", minute=n, scope=scope)
        for n, (scope, text) in enumerate(
            (scope, text) for text in TEXTS for scope in SCOPES for _ in range(2)
        )
    ]
    path = folder / "turns.jsonl"
    path.write_text("\n".join(json.dumps(t) for t in turns) + "\n")
    return path


def _fresh(settings: Settings, folder: Path) -> Settings:
    """A deployment of its own: data folder, topics, consumer group and Redis prefix."""
    tag = uuid.uuid4().hex[:8]
    return settings.model_copy(
        update={
            "data_dir": folder,
            "topic_prefix": f"{settings.topic_prefix}-{tag}",
            "consumer_group": f"{settings.consumer_group}-{tag}",
            "redis_prefix": f"{settings.redis_prefix}:{tag}",
        }
    )


def _ingest(settings: Settings, path: Path, fault: str | None = None) -> int:
    env = settings_env(settings)
    if fault is not None:
        env["PROVMEM_FAULT"] = fault
    command = [sys.executable, "-m", "provmem.services.cli", "ingest", str(path), "--json"]
    done = subprocess.run(command, env=env, capture_output=True, timeout=600, check=False)
    return done.returncode


def _named(record: LogRecord) -> tuple[str | bytes | None, bool]:
    """A record by the evidence id its value names (a record key is a fingerprint keyed per
    deployment, so two deployments' keys differ), and whether it holds a value."""
    if record.value is None:
        return record.key, False
    return json.loads(record.value).get("evidence_id", record.key), True


async def _outcome(settings: Settings, log_dir: Path) -> dict[str, Any]:
    """The turns log (keys, in order, per partition) and the views once all is derived."""
    runtime = await Runtime(settings, log_dir).start()
    try:
        memory = runtime.memory

        async def derived() -> bool:
            return settings.runtime == "embedded" or await runtime.caught_up()

        await runtime.settle(derived)
        c = memory.components
        log = {
            p: [_named(r) for r in await c.log.read(c.names.turns, p, 0, 1000)]
            for p in range(settings.partitions)
        }
        facts = {
            scope: sorted(
                (f.model_dump(mode="json") for f in await memory.facts(scope)),
                key=lambda f: str(f["fact_id"]),
            )
            for scope in SCOPES
        }
        evidence = {s: sorted(await c.evidence.ids_in_scope(s)) for s in SCOPES}
        return {"log": log, "facts": facts, "evidence": evidence}
    finally:
        await runtime.stop()


_CLEAN: dict[str, dict[str, Any]] = {}  # a clean run's outcome, per runtime (plain data)


async def _clean_outcome(deployment: Settings, path: Path, folder: Path) -> dict[str, Any]:
    if deployment.runtime not in _CLEAN:
        clean = _fresh(deployment, folder / "clean")
        assert await asyncio.to_thread(_ingest, clean, path) == 0
        outcome = await _outcome(clean, folder)
        assert sum(len(keys) for keys in outcome["log"].values()) == 2 * len(TEXTS) * len(SCOPES)
        assert all(outcome["facts"].values())
        _CLEAN[deployment.runtime] = outcome
    return _CLEAN[deployment.runtime]


@pytest.fixture(params=["embedded", "kafka"])
def deployment(request: pytest.FixtureRequest) -> Settings:
    settings: Settings = request.getfixturevalue(f"{request.param}_settings")
    return settings


@pytest.mark.parametrize("step", STEPS)
async def test_a_kill_at_a_step_of_capture_then_a_re_ingest_equals_a_clean_run(
    deployment: Settings, step: str, tmp_path: Path
) -> None:
    path = _turn_file(tmp_path)
    expected = await _clean_outcome(deployment, path, tmp_path)
    settings = _fresh(deployment, tmp_path / step)
    assert await asyncio.to_thread(_ingest, settings, path, step) == -9  # SIGKILLed there
    assert await asyncio.to_thread(_ingest, settings, path) == 0
    assert await _outcome(settings, tmp_path) == expected
