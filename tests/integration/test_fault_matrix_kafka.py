"""The fault matrix on the Kafka runtime (issue 30, item 1; the embedded one is
``test_fault_matrix.py``).

A running ``provmem api --runtime kafka`` and a faust worker process share one deployment
(a Tansu broker, Redis, one data folder and so one master key). Four HTTP writers and a CLI
``provmem publish`` on the API's own data folder (a reader slot of its local vector index
beside the API's) write at once, then SIGKILLs land at seeded random points
(``PROVMEM_FAULT_SEED``, printed): case ``ingest`` kills the API, then the worker, while
turns are written one by one; case ``erasure`` kills the worker during a subject's erasure
cascade, then a ``provmem replay --from fact-changes`` beside the running deployment. What
was killed is restarted. After the last restart every acknowledged turn is on the turns
topic exactly once and in the evidence store (but the erased subjects'), the erasures'
receipts say residue 0 and ``provmem audit erasure`` agrees, no erased quote's bytes are in
any file of the folder, Redis value or broker record, and the next erasure succeeds. The
API reads once after the first writes, so its own index holds facts of a subject erased
later with no read after: they must leave it all the same (its background follow and its
last sync when it stops).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import redis

from provmem.config import Settings
from provmem.core.scope import Scope, partition_for
from provmem.infra.log.kafka import KafkaEventLog
from provmem.infra.log.record_keys import is_keyed
from provmem.infra.stores.generations import redis_pointer_key
from provmem.streams.indexing import decode_turn
from provmem.streams.runtime.components import build
from provmem.streams.topics import TopicNames
from tests.integration.test_api_workers import api_server
from tests.integration.test_fault_matrix import SEED, killed_after, quote, rare, timed
from tests.integration.test_findings_live_api import (
    LiveApi,
    _token,
    audited,
    cli,
    files_under,
    log_records,
    redis_values,
    until,
)
from tests.support.worker_process import WorkerProcess, settings_env

AT = "2026-05-08T13:00:00+00:00"
WRITERS, TURNS = 4, 3
ERASED = {"victim", "w0"}


def deployment_settings(kafka_settings: Settings) -> Settings:
    """Two partitions (a faster test) and one master key for every process, the CLI's too."""
    key = base64.b64encode(os.urandom(32)).decode()
    return Settings.model_validate(
        {**kafka_settings.model_dump(), "partitions": 2, "master_key": key}
    )


def scope(user: str) -> str:
    return f"acme/support/{user}"


class Deployment:
    """The API and the worker on one Kafka deployment, each restartable after a kill."""

    def __init__(self, settings: Settings, logs: Path) -> None:
        self.settings, self.logs = settings, logs
        self.token = _token(settings)
        self.worker = WorkerProcess(settings, logs / "worker.log")
        self.lives = 0  # worker lives started, for its log's ready lines

    async def start_worker(self) -> None:
        await self.worker.start().ready(seen=self.lives)
        self.lives += 1

    @asynccontextmanager
    async def api(self) -> AsyncIterator[LiveApi]:
        async with api_server(self.settings, self.logs / "api.log", token=self.token) as live:
            yield live


async def add(live: LiveApi, user: str, text: str) -> list[str]:
    said = {"scope": scope(user), "speaker": user, "session": "s", "text": text,
            "captured_at": AT}  # fmt: skip
    async with live.client() as client:
        answer = await client.post("/v1/turns", json={"turns": [said]})
    assert answer.status_code == 200, answer.text
    return [r["evidence_id"] for r in answer.json() if r["status"] == "accepted"]


async def file_erasure(live: LiveApi, user: str) -> str:
    body = {"scope": scope(user), "subject": True, "reason": "asked"}
    async with live.client() as client:
        filed = await client.post("/v1/erasures", json=body)
    assert filed.status_code in (200, 202), filed.text
    return str(filed.json()["request_id"])


async def receipt_of(live: LiveApi, request_id: str) -> dict[str, Any] | None:
    async with live.client() as client:
        answer = await client.get(f"/v1/erasures/{request_id}")
    return answer.json() if answer.status_code == 200 else None


async def erased(live: LiveApi, user: str) -> dict[str, Any]:
    """A subject erasure filed and completed; its receipt (residue 0)."""
    receipt = await completed(live, await file_erasure(live, user))
    assert receipt["residue_found"] == 0, (user, receipt)
    return receipt


async def completed(live: LiveApi, request_id: str) -> dict[str, Any]:
    async def done() -> bool:
        return await receipt_of(live, request_id) is not None

    await until(done, f"erased ({request_id})")
    receipt = await receipt_of(live, request_id)
    assert receipt is not None
    return receipt


async def test_no_accepted_write_is_lost_and_no_erased_byte_stays_on_kafka(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    """Case ``ingest`` (case ``erasure``: test_fault_matrix_kafka_erasure.py)."""
    await fault_matrix("ingest", kafka_settings, tmp_path)


async def fault_matrix(case: str, kafka_settings: Settings, tmp_path: Path) -> None:
    seed = SEED + (case == "erasure")
    print(f"kafka fault matrix {case}: seed {seed} (PROVMEM_FAULT_SEED={SEED})")
    draw = random.Random(seed)
    settings = deployment_settings(kafka_settings)
    deployment = Deployment(settings, tmp_path)
    acked: dict[str, list[str]] = {}
    took: dict[str, Any] = {}
    with timed("worker", took):
        await deployment.start_worker()
    try:
        with timed("writers, cli publish", took):
            async with deployment.api() as live:
                await writers_beside_a_cli(live, acked)
        if case == "ingest":
            await ingest_killed(deployment, draw, acked, took)
        else:
            await erasure_and_replay_killed(deployment, draw, took)
        with timed("restart, erasures", took):
            async with deployment.api() as live:
                receipts = [await erased(live, user) for user in sorted(ERASED)]  # the victim
                # filed (again after a killed cascade), then the next one
        with timed("checks", took):  # the audit on the API's folder once it stopped
            for user, receipt in zip(sorted(ERASED), receipts, strict=True):
                took[f"erasure of {user}"] = receipt["seconds_to_receipt"]
                assert audited(settings, receipt["request_id"])["total"] == 0, receipt
            await every_acked_turn_is_kept(settings, acked)
            assert await erased_bytes(settings) == []
    finally:
        await deployment.worker.stop(kill=True)
    api_log = (tmp_path / "api.log").read_text(errors="replace")
    assert "Traceback" not in api_log, api_log[-3000:]
    print(f"kafka fault matrix {case}: {took}")


async def writers_beside_a_cli(live: LiveApi, acked: dict[str, list[str]]) -> None:
    """Four HTTP writers at once, and a ``provmem publish`` on the API's folder beside them."""
    users = ["victim", *(f"w{i}" for i in range(WRITERS - 1))]

    async def write(user: str) -> None:
        for index in range(TURNS):
            acked.setdefault(user, []).extend(await add(live, user, quote(user, index)))

    args = ["--scope", scope("w2"), "--speaker", "w2", "--text", quote("w2", 99), "--json"]
    publishing = asyncio.to_thread(cli, live.settings, "publish", "--at", AT, *args)
    writing = asyncio.gather(*(write(u) for u in users))
    _, published = await asyncio.gather(writing, publishing)
    assert published.returncode == 0, published.stdout + published.stderr
    # a read: the API's own index now holds w0's facts, which no later read removes (the
    # API follows the log and applies what is left when it stops: services/api/pump.py)
    await until(lambda: has_facts(live, "w0"), "w0's facts derived")
    rows = json.loads(published.stdout)
    acked["w2"] += [r["evidence_id"] for r in rows if r["status"] == "accepted"]


async def has_facts(live: LiveApi, user: str) -> bool:
    """A read (the API syncs its own index first): some fact of ``user``'s is there."""
    async with live.client() as client:
        answer = await client.get("/v1/facts", params={"scope": scope(user)})
    assert answer.status_code == 200, answer.text
    return len(answer.json()) > 0


async def ingest_killed(
    deployment: Deployment, draw: random.Random, acked: dict[str, list[str]], took: dict[str, Any]
) -> None:
    """Turns written one by one while the API, then (in its next life) the worker, is
    SIGKILLed after a drawn delay; each is restarted."""
    with timed("killed api during ingest", took):
        async with deployment.api() as live:
            await written_until(live, killed_after(live.process, draw.uniform(0.05, 1.5)), acked)
    with timed("killed worker during ingest", took):
        async with deployment.api() as live:
            kill = deployment.worker.stop(kill=True)
            await written_until(live, delayed(draw.uniform(0.05, 1.5), kill), acked)
            await deployment.start_worker()


async def delayed(delay: float, then: Any) -> None:
    await asyncio.sleep(delay)
    await then


async def written_until(live: LiveApi, fault: Any, acked: dict[str, list[str]]) -> None:
    """w1 writes turns one by one until ``fault`` has happened (and a turn after it, when
    the API still answers)."""
    start = len(acked.get("w1", []))

    async def write() -> None:
        for index in range(TURNS + start, 1000):
            acked.setdefault("w1", []).extend(await add(live, "w1", quote("w1", index)))
            if faulted.done():
                return

    faulted = asyncio.ensure_future(fault)
    await asyncio.gather(write(), faulted, return_exceptions=True)


async def erasure_and_replay_killed(
    deployment: Deployment, draw: random.Random, took: dict[str, Any]
) -> None:
    """The worker SIGKILLed at a drawn point of the victim's erasure cascade, restarted,
    the cascade completed; then a replay killed at a drawn point."""
    with timed("killed worker during erasure", took):
        async with deployment.api() as live:
            start = await turns_end(deployment.settings, "victim")
            request_id = await file_erasure(live, "victim")
            await first_tombstone(deployment.settings, "victim", start)  # the cascade runs
            await asyncio.sleep(draw.uniform(0.0, 0.5))
            took["receipt before the kill"] = await receipt_of(live, request_id) is not None
            await deployment.worker.stop(kill=True)
            await deployment.start_worker()
            receipt = await completed(live, request_id)
            assert receipt["residue_found"] == 0, receipt
    with timed("killed replay", took):
        replay = replay_killed(deployment.settings, deployment.logs, draw.uniform(0.0, 1.5))
        took["replay killed"] = await replay


async def turns_end(settings: Settings, user: str) -> int:
    """The end offset of ``user``'s partition of the turns topic."""
    log = KafkaEventLog(settings.broker_url)
    try:
        return await log.end_offset(
            TopicNames(settings.topic_prefix).turns, partition(settings, user)
        )
    finally:
        await log.close()


def partition(settings: Settings, user: str) -> int:
    return partition_for(Scope.parse(scope(user)).key, settings.partitions)


async def first_tombstone(settings: Settings, user: str, offset: int) -> None:
    """Wait until the cascade has put a turn's tombstone on ``user``'s partition (the
    control record's own tombstone is not keyed)."""
    log, deadline = KafkaEventLog(settings.broker_url), time.monotonic() + 60
    topic = TopicNames(settings.topic_prefix).turns
    try:
        while True:
            for record in await log.read(topic, partition(settings, user), offset, 500):
                offset = record.offset + 1
                if record.value is None and is_keyed(record.key):
                    return
            assert time.monotonic() < deadline, "the erasure cascade never started"
            await asyncio.sleep(0.02)
    finally:
        await log.close()


async def replay_killed(settings: Settings, logs: Path, delay: float) -> bool:
    """``provmem replay --from fact-changes`` beside the running worker, SIGKILLed
    ``delay`` s after it put its pending generation in the pointer (one done by then is
    not killed); whether it was killed."""
    pointer = redis.Redis.from_url(settings.redis_url)
    key = redis_pointer_key(settings.redis_prefix)
    before = pointer.get(key)
    command = [sys.executable, "-m", "provmem.services.cli", "replay"]
    with (logs / "replay.log").open("ab") as out:
        replay = subprocess.Popen(
            command, env=settings_env(settings), stdout=out, stderr=subprocess.STDOUT
        )
    while replay.poll() is None and pointer.get(key) == before:
        await asyncio.sleep(0.02)
    pointer.close()
    await killed_after(replay, delay)
    said = (logs / "replay.log").read_text(errors="replace")[-3000:]
    assert replay.returncode in (0, -signal.SIGKILL), said  # done, or killed: not failed
    return replay.returncode == -signal.SIGKILL


async def every_acked_turn_is_kept(settings: Settings, acked: dict[str, list[str]]) -> None:
    """On the turns topic once each, and in the evidence store (but the erased subjects')."""
    kept = [i for user, ids in acked.items() if user not in ERASED for i in ids]
    components = await build(settings)
    try:
        on_log = await turns_on_topic(components)
        missing = [i for i in kept if await components.evidence.get(i) is None]
    finally:
        await components.close()
    assert [i for i in kept if on_log.count(i) != 1] == [], "not on the turns topic exactly once"
    assert missing == [], "acknowledged but not in the evidence store"


async def turns_on_topic(components: Any) -> list[str]:
    """The evidence ids of every turn record on the turns topic (Tansu never compacts:
    an erased turn's sealed record stays, under a shredded key)."""
    log, topic, ids = components.log, components.names.turns, []
    for partition in range(await log.partitions(topic)):
        end = await log.end_offset(topic, partition)
        for record in await log.read(topic, partition, 0, end + 1):
            turn = decode_turn(record.value) if record.value is not None else None
            if turn is not None:
                ids.append(turn.evidence_id)
    return ids


async def erased_bytes(settings: Settings) -> list[tuple[str, bytes]]:
    """(where, the bytes around it) for every erased subject's code word in the folder,
    Redis or the log (a record: its key, then its value). The whole word: ``rare`` alone
    is five letters, which can turn up by chance in the base64 of the log's ciphertext."""
    users = b"|".join(rare(user)[2:-1] for user in sorted(ERASED))
    word = re.compile(rb"zq(?:" + users + rb")x\d+vorp")
    places = [*files_under(settings.data_dir), *redis_values(settings)]
    places += [(where, key + b" | " + value) for where, key, value in await log_records(settings)]
    return [
        (where, data[max(found.start() - 120, 0) : found.end() + 60])
        for where, data in places
        for found in word.finditer(data.lower())
    ]
