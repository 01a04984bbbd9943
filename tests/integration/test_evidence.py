"""Evidence capture on both runtimes: encrypted at rest, idempotent, strict and lossless."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import sqlite3

import pytest
import redis

from provmem.config import Settings
from provmem.core.ports import Append
from provmem.core.scope import partition_for
from provmem.infra.crypto.envelope import (
    ForeignMasterKeyError,
    MissingDataKeyError,
    rotate_master_key,
)
from provmem.infra.log.sealed import record_keys
from provmem.services.memory.memory import MemoryService
from provmem.streams.runtime.components import build
from tests.conftest import REDIS_URL
from tests.harness import SCOPE, Runtime, said

SECRET = "My locker code is zebra-marmalade-7731 and I keep it private."
NEEDLE = b"zebra-marmalade"


async def _turn_log_values(runtime: Runtime) -> list[bytes]:
    log, topic = runtime.memory.components.log, runtime.memory.components.names.turns
    values = []
    for partition in range(await log.partitions(topic)):
        values += [r.value or b"" for r in await log.read(topic, partition, 0, 1000)]
    return values


def _evidence_store_bytes(settings: Settings) -> list[bytes]:
    if settings.runtime == "embedded":
        with sqlite3.connect(settings.data_dir / "views.db") as conn:
            rows = conn.execute("SELECT body FROM evidence UNION ALL SELECT wrapped FROM data_keys")
            return [r[0] if isinstance(r[0], bytes) else r[0].encode() for r in rows]
    client = redis.Redis.from_url(REDIS_URL)
    keys = [
        *client.scan_iter(f"{settings.redis_prefix}:evidence:*"),
        *client.scan_iter(f"{settings.redis_prefix}:key:*"),
    ]
    return [client.get(key) or b"" for key in keys]


async def test_no_plaintext_on_the_log_or_in_evidence_stores(runtime: Runtime) -> None:
    (result,) = await runtime.memory.publish([said("t1", SECRET)])
    await runtime.settle(lambda: _has_evidence(runtime, result.evidence_id))
    on_log = await _turn_log_values(runtime)
    stored = _evidence_store_bytes(runtime.settings)
    assert on_log and stored
    assert not [v for v in on_log + stored if NEEDLE in v]
    assert not [v for v in on_log if base64.b64encode(NEEDLE)[:12] in v]


async def _has_evidence(runtime: Runtime, evidence_id: str | None) -> bool:
    assert evidence_id is not None
    return await runtime.memory.components.evidence.get(evidence_id) is not None


async def test_decryption_round_trips_across_a_restart(runtime: Runtime) -> None:
    (result,) = await runtime.memory.publish([said("t1", SECRET)])
    await runtime.settle(lambda: _has_evidence(runtime, result.evidence_id))
    await runtime.restart()
    quote = await runtime.memory.evidence(result.evidence_id or "")
    assert quote is not None and quote.quote == SECRET and quote.source_turn_id == "t1"


async def test_concurrent_duplicate_publishes_record_one_evidence(runtime: Runtime) -> None:
    clients = [await build(runtime.settings) for _ in range(4)]
    try:
        batches = await asyncio.gather(
            *[
                MemoryService(c).publish(
                    [said("t1", "I moved to Lisbon."), said("t1", "I moved to Lisbon.")]
                )
                for c in clients
            ]
        )
    finally:
        for client in clients:
            await client.close()
    statuses = [r.status for batch in batches for r in batch]
    # Capture is log-first (nothing reserved): within a process a batch and concurrent
    # calls see each other; separate processes racing on one turn may each append it.
    # The copies are the same record under the same key, and derivation keeps one.
    assert statuses.count("accepted") >= 1 and set(statuses) <= {"accepted", "duplicate"}
    assert statuses.count("duplicate") >= len(clients)  # each batch's second copy

    async def one_fact_one_evidence() -> bool:
        facts = await runtime.memory.facts(SCOPE)
        return len(facts) == 1 and len(facts[0].evidence_ids) == 1

    await runtime.settle(one_fact_one_evidence)
    log, topic = runtime.memory.components.log, runtime.memory.components.names.turns
    keys = [
        r.key
        for partition in range(await log.partitions(topic))
        for r in await log.read(topic, partition, 0, 1000)
    ]
    assert len(set(keys)) == 1 and len(keys) == statuses.count("accepted")


BAD_TURNS = [
    ({"text": ""}, "text"),
    ({"text": "x" * (64 * 1024 + 1)}, "text"),
    ({"text": "broken \ud800 surrogate"}, "text"),
    ({"scope": "acme/only-two"}, "scope"),
    ({"scope": None}, "scope"),
    ({"captured_at": "2026-05-08T13:00:00"}, "captured_at"),
    ({"captured_at": "2999-01-01T00:00:00+00:00"}, "captured_at"),
    ({"mood": "happy"}, "mood"),
    ({"speaker": ["Alice"]}, "speaker"),
]


async def test_each_bad_turn_is_rejected_by_field_and_the_good_ones_land(
    runtime: Runtime,
) -> None:
    batch = [said("good-1", "I moved to Lisbon.")]
    for index, (changes, _) in enumerate(BAD_TURNS):
        batch.append({**said(f"bad-{index}", "Fine text."), **changes})
    batch.append(said("good-2", "I play the cello.", minute=1))
    results = await runtime.memory.publish(batch)
    assert results[0].status == results[-1].status == "accepted"
    for result, (_, field) in zip(results[1:-1], BAD_TURNS, strict=True):
        assert result.status == "rejected"
        assert result.error is not None and result.error.startswith(field), result.error
    await runtime.settle(lambda: _facts(runtime, 2))


async def _facts(runtime: Runtime, count: int) -> bool:
    return len(await runtime.memory.facts(SCOPE)) == count


async def test_malformed_records_on_the_topic_go_to_dead_letters(runtime: Runtime) -> None:
    components = runtime.memory.components
    partition = partition_for(SCOPE, runtime.settings.partitions)
    await components.log.append(
        components.names.turns,
        [
            Append(partition, b"bad-1", b"{not json"),
            Append(partition, b"bad-2", json.dumps({"evidence_id": "ev_x"}).encode()),
        ],
    )
    await runtime.memory.publish([said("t1", "I moved to Lisbon.")])
    await runtime.settle(lambda: _facts(runtime, 1))
    letters = await components.log.read(components.names.dead_letters, 0, 0, 10)
    bodies = [json.loads(r.value or b"{}") for r in letters]
    keys = record_keys(components.log)  # the keys as the stage read them: keyed
    keyed = [await keys.key_of(b"bad-1"), await keys.key_of(b"bad-2")]
    assert [base64.b64decode(b["key_b64"]) for b in bodies] == keyed
    assert [r.key for r in letters] == [None, None]  # the key is inside the sealed body
    assert all(b["stage"] == "derive" and b["topic"] == components.names.turns for b in bodies)
    assert "scope" in bodies[1]["error"]
    assert base64.b64decode(bodies[0]["value_b64"]) == b"{not json"


@pytest.mark.parametrize("runtime", ["embedded"], indirect=True)
async def test_master_key_rotation_rewraps_without_touching_the_log(runtime: Runtime) -> None:
    (result,) = await runtime.memory.publish([said("t1", SECRET)])
    await runtime.settle(lambda: _has_evidence(runtime, result.evidence_id))
    before = await _turn_log_values(runtime)
    old = (runtime.settings.data_dir / "master.key").read_text()
    new = os.urandom(32)
    keys = runtime.memory.components.keys
    # the subject's data key and log key, and the deployment's (record keys are keyed
    # from it)
    assert await rotate_master_key(keys, base64.b64decode(old), new) == 3
    assert await rotate_master_key(keys, base64.b64decode(old), new) == 0
    await runtime.stop()
    rotated = runtime.settings.model_copy(update={"master_key": base64.b64encode(new).decode()})
    runtime.settings = Settings.model_validate(rotated.model_dump())
    await runtime.start()
    quote = await runtime.memory.evidence(result.evidence_id or "")
    assert quote is not None and quote.quote == SECRET
    assert await _turn_log_values(runtime) == before
    await runtime.stop()
    runtime.settings = runtime.settings.model_copy(update={"master_key": None})
    with pytest.raises(ForeignMasterKeyError):  # the old key no longer starts at all
        await runtime.start()


def test_missing_data_key_is_reported() -> None:
    assert issubclass(MissingDataKeyError, LookupError)
