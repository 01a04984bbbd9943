"""Residue and plaintext at rest with a live ``provmem api`` process holding the files
(issue 17, findings R1, R1b, R2 and R3), driven only through the surfaces every version
shares: the CLI, the HTTP API, the files under the data folder, Redis and the broker.

A real API process (and on Kafka a real worker) serves the data folder. Distinctive
words, numbers and speaker names are published over HTTP, then a subject, a session and
one evidence item are erased over HTTP while the process keeps running, and every byte of
every file under the data folder (the SQLite WALs included), every Redis key and value of
the deployment and every record the log retains is read raw: no planted word or number
anywhere, nor the erased evidence and fact ids, not even as the log's record keys (a
tombstone's key is a keyed fingerprint of the id). The audit agrees.

On 96a0921, with the API running, ``views.db`` and the vector payload pages held the fact
statements and speaker names in plaintext before any erasure, and after the erasures
``log.db-wal``, ``views.db-wal`` and the vector WAL and payload pages still held the
erased words, numbers and ids."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from provmem.config import Settings
from provmem.infra.log.record_keys import is_keyed
from tests.conftest import unique_prefix
from tests.support.tansu import free_port
from tests.support.worker_process import WorkerProcess, settings_env

DEADLINE_S = 120.0
SUBJECT = "acme/support/u7"  # erased whole (--subject)
SESSIONS = "acme/support/bob"  # session s2 erased
ITEMS = "acme/support/dana"  # one evidence item erased
WHEN = "2026-05-08T13:{:02d}:00+00:00"


@dataclass(frozen=True)
class Said:
    """A turn to publish and the distinctive tokens only it carries."""

    scope: str
    speaker: str
    session: str
    text: str
    erased: bool
    planted: tuple[str, ...]


SAID = [
    Said(SUBJECT, "Vexmorra", "s1", "My phone number is 5550142 and I live in Quetzalbrook.",
         True, ("Vexmorra", "5550142", "Quetzalbrook")),
    Said(SUBJECT, "Vexmorra", "s1", "My cat Zanzibarite loves the Vorpalfield bakery.",
         True, ("Zanzibarite", "Vorpalfield")),
    Said(SESSIONS, "Bob", "s1", "I work at Initech in Springfield.",
         False, ("Initech", "Springfield")),
    Said(SESSIONS, "Bob", "s2", "My phone number is 4417093 and I live in Brumbleton.",
         True, ("4417093", "Brumbleton")),
    Said(ITEMS, "Dana", "s1", "My dog Glimmerforth loves the Kestrelmoor park.",
         True, ("Glimmerforth", "Kestrelmoor")),
    Said(ITEMS, "Dana", "s1", "I work at Hooli in Ravenholt.",
         False, ("Hooli", "Ravenholt")),
]  # fmt: skip


@dataclass
class LiveApi:
    """A running ``provmem api`` process (and worker) on ``settings.data_dir``."""

    settings: Settings
    url: str
    headers: dict[str, str]
    process: subprocess.Popen[bytes]

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.url, headers=self.headers, timeout=120)


def cli(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    """``provmem ARGS`` against the deployment of ``settings``."""
    command = [sys.executable, "-m", "provmem.services.cli", *args]
    env = settings_env(settings)
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


def _token(settings: Settings) -> str:
    issued = cli(settings, "keys", "create", "--scope", "acme", "--json")
    assert issued.returncode == 0, issued.stdout + issued.stderr
    return str(json.loads(issued.stdout)["token"])


async def _answering(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + DEADLINE_S
    async with httpx.AsyncClient(base_url=url, timeout=5) as client:
        while True:
            assert process.poll() is None, log.read_text(errors="replace")[-3000:]
            try:
                if (await client.get("/v1/health")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            await asyncio.sleep(0.3)


@pytest.fixture(params=["embedded", "kafka"])
async def live_api(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[LiveApi]:
    """A ``provmem api`` process on a data folder; on Kafka with a worker beside it."""
    kafka = request.param == "kafka"
    settings = request.getfixturevalue("kafka_settings") if kafka else embedded(tmp_path)
    async with api_process(settings, tmp_path) as live:
        yield live


@pytest.fixture
async def embedded_api(tmp_path: Path) -> AsyncIterator[LiveApi]:
    """A ``provmem api`` process on an embedded data folder."""
    async with api_process(embedded(tmp_path), tmp_path) as live:
        yield live


def embedded(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", partitions=2, topic_prefix=unique_prefix())


@asynccontextmanager
async def api_process(settings: Settings, logs: Path) -> AsyncIterator[LiveApi]:
    """Run ``provmem api`` (and on Kafka ``provmem worker``) on ``settings``, logging
    under ``logs`` (outside the data folder)."""
    token = _token(settings)
    worker = WorkerProcess(settings, logs / "worker.log")
    if settings.runtime == "kafka":
        await worker.start().ready()
    port, log = free_port(), logs / "api.log"
    with log.open("wb") as out:
        command = [sys.executable, "-m", "provmem.services.cli", "api", "--port", str(port)]
        env = settings_env(settings)
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        await _answering(url, process, log)
        yield LiveApi(settings, url, {"Authorization": f"Bearer {token}"}, process)
    finally:
        process.terminate()
        await asyncio.to_thread(process.wait, 60)
        await worker.stop()


def turn_of(said: Said, minute: int) -> dict[str, Any]:
    return {
        "scope": said.scope,
        "speaker": said.speaker,
        "session": said.session,
        "text": said.text,
        "turn_id": f"t{minute}",
        "captured_at": WHEN.format(minute),
    }


async def until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not await condition():
        assert time.monotonic() < deadline, f"not {what} after {DEADLINE_S}s"
        await asyncio.sleep(0.5)


async def facts_of(client: httpx.AsyncClient, scope: str) -> list[dict[str, Any]]:
    answer = await client.get("/v1/facts", params={"scope": scope})
    assert answer.status_code == 200, answer.text
    facts: list[dict[str, Any]] = answer.json()
    return facts


async def published(live: LiveApi) -> list[str]:
    """Publish ``SAID`` over HTTP and wait until every turn supports a fact of its own;
    the evidence ids, in ``SAID``'s order."""
    async with live.client() as client:
        answer = await client.post("/v1/turns", json={"turns": [turn_of(s, i) for i, s in
                                                                  enumerate(SAID)]})  # fmt: skip
        assert answer.status_code == 200, answer.text
        assert {r["status"] for r in answer.json()} == {"accepted"}, answer.text
        ids = [str(r["evidence_id"]) for r in answer.json()]

        async def every_turn_has_a_fact() -> bool:
            supported: set[str] = set()
            for scope in {s.scope for s in SAID}:
                supported |= {e for f in await facts_of(client, scope) for e in f["evidence_ids"]}
            return set(ids) <= supported

        await until(every_turn_has_a_fact, "derived")
    return ids


def marks(values: Iterable[str]) -> set[bytes]:
    """What is looked for, case-insensitively (entities are kept lower-cased)."""
    return {v.lower().encode() for v in values}


def found_in(data: bytes, sought: set[bytes]) -> set[bytes]:
    lowered = data.lower()
    return {mark for mark in sought if mark in lowered}


def files_under(folder: Path) -> Iterator[tuple[str, bytes]]:
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        yield str(path.relative_to(folder)), path.read_bytes()


def term_ids_at_rest(folder: Path, words: Iterable[bytes]) -> list[tuple[str, bytes]]:
    """R3b: each file holding the BM25 term id a reader computes for a word with the
    product's own unkeyed encoder (as a 32-bit integer, either byte order)."""
    from provmem.infra.models.sparse import BM25Encoder

    vectors = BM25Encoder().embed_documents([w.decode() for w in words])
    sought = {
        i.to_bytes(4, order) for v in vectors for i in v.indices for order in ("big", "little")
    }
    return [(where, m) for where, data in files_under(folder) for m in sought if m in data]


def redis_values(settings: Settings) -> Iterator[tuple[str, bytes]]:
    """Every key and value of the deployment's Redis prefix, read by type."""
    client = redis.Redis.from_url(settings.redis_url)
    try:
        for key in client.scan_iter(match=f"{settings.redis_prefix}*", count=500):
            yield f"redis:{key!r}", key + b"\n" + _redis_value(client, key)
    finally:
        client.close()


def _redis_value(client: redis.Redis, key: bytes) -> bytes:
    kind = client.type(key).decode()
    read = {
        "string": lambda: [client.get(key) or b""],
        "hash": lambda: [b for kv in client.hgetall(key).items() for b in kv],
        "set": lambda: list(client.smembers(key)),
        "zset": lambda: [m for m, _ in client.zrange(key, 0, -1, withscores=True)],
        "list": lambda: client.lrange(key, 0, -1),
        "stream": lambda: [b for _, f in client.xrange(key) for kv in f.items() for b in kv],
    }
    return b"\n".join(read.get(kind, list)())


async def log_records(settings: Settings) -> list[tuple[str, bytes, bytes]]:
    """Every record the broker retains on the deployment's topics and on the workers'
    own (faust's, named by the consumer group: the gate table's changelog): (where, key,
    value)."""
    from aiokafka import AIOKafkaConsumer, TopicPartition

    consumer = AIOKafkaConsumer(bootstrap_servers=settings.broker_url, enable_auto_commit=False)
    await consumer.start()
    try:
        owners = (settings.topic_prefix, settings.consumer_group)
        topics = [t for t in await consumer.topics() if t.startswith(owners)]
        parts = [
            TopicPartition(t, p) for t in topics for p in consumer.partitions_for_topic(t) or ()
        ]
        consumer.assign(parts)
        await consumer.seek_to_beginning(*parts)
        ends, found = await consumer.end_offsets(parts), []
        while [p for p, end in ends.items() if await consumer.position(p) < end]:
            for part, batch in (await consumer.getmany(timeout_ms=2000)).items():
                where = f"log:{part.topic}[{part.partition}]"
                found += [(f"{where}@{r.offset}", r.key or b"", r.value or b"") for r in batch]
    finally:
        await consumer.stop()
    return found


async def residue(live: LiveApi, words: set[bytes], ids: set[bytes]) -> list[tuple[str, bytes]]:
    """Every (where, mark) at rest: ``words`` and ``ids`` anywhere, the log's record keys
    and the embedded log's files included."""
    hits: list[tuple[str, bytes]] = []
    for where, data in files_under(live.settings.data_dir):
        hits += [(where, m) for m in found_in(data, words | ids)]
    if live.settings.runtime == "kafka":
        for where, data in redis_values(live.settings):
            hits += [(where, m) for m in found_in(data, words | ids)]
        for where, key, value in await log_records(live.settings):
            hits += [(where, m) for m in found_in(key, words | ids) | found_in(value, words | ids)]
    return sorted(hits)


def by_place(hits: list[tuple[str, bytes]]) -> str:
    """Each place and how many marks it holds (the failure message)."""
    places = [re.sub(r"[0-9a-z-]{20,}", "*", where.split("@")[0]) for where, _ in hits]
    return "; ".join(f"{place}: {places.count(place)}" for place in sorted(set(places)))


async def erased_over_http(live: LiveApi, ids: list[str]) -> list[str]:
    """Erase the subject, Bob's session s2 and Dana's first item while the API runs; the
    request ids, once each erasure has completed."""
    bodies = [
        {"scope": SUBJECT, "subject": True},
        {"scope": SESSIONS, "session": "s2"},
        {"scope": ITEMS, "evidence_ids": [ids[4]]},
    ]
    requests = []
    async with live.client() as client:
        for body in bodies:
            answer = await client.post("/v1/erasures", json=body)
            assert answer.status_code in (200, 202), answer.text
            requests.append(str(answer.json()["request_id"]))
        for request_id in requests:

            async def completed(rid: str = request_id) -> bool:
                return (await client.get(f"/v1/erasures/{rid}")).status_code == 200

            await until(completed, f"erased ({request_id})")
    return requests


async def erased_facts_gone(live: LiveApi, gone: set[str]) -> None:
    """The API answers without the erased facts (on Kafka its local views follow the log)."""
    async with live.client() as client:

        async def none_left() -> bool:
            left = {
                f["fact_id"] for s in {x.scope for x in SAID} for f in await facts_of(client, s)
            }
            return not left & gone

        await until(none_left, "rid of the erased facts")


async def fact_ids(live: LiveApi, erased: set[str]) -> set[str]:
    """The facts every one of whose evidence is in ``erased``."""
    async with live.client() as client:
        facts = [f for s in {x.scope for x in SAID} for f in await facts_of(client, s)]
    return {f["fact_id"] for f in facts if set(f["evidence_ids"]) <= erased}


def audited(settings: Settings, request_id: str) -> dict[str, Any]:
    run = cli(settings, "audit", "erasure", request_id)
    assert run.returncode == 0, run.stdout + run.stderr
    audit: dict[str, Any] = json.loads(run.stdout)
    return audit


async def test_planted_words_are_unreadable_at_rest_and_erasures_leave_no_byte_of_them(
    live_api: LiveApi,
) -> None:
    """One API (and worker) per runtime, published to once, serves both findings: R3 is
    checked on what the publishing left, then R1, R1b and R2 on what the erasures left."""
    ids = await published(live_api)
    await _nothing_readable_after_publishing(live_api, ids)
    await _erasures_leave_no_byte(live_api, ids)


async def _nothing_readable_after_publishing(live_api: LiveApi, ids: list[str]) -> None:
    """R3: after publishing, none of the turns' distinctive words, numbers or speaker
    names is readable in any file, Redis or the log (on 96a0921: views.db, the vector
    payloads and the fact-changes topic held them). R3b (embedded): no file holds the
    unkeyed BM25 term id of a planted word (on 96a0921 the vector files held each one, so a
    reader could test words)."""
    words = marks(w for s in SAID for w in s.planted)
    hits = await residue(live_api, words, set())
    assert not hits, by_place(hits)
    assert await residue(live_api, set(), marks(ids))  # the scan reads what is there
    if live_api.settings.runtime == "kafka":  # the log's records and Redis too
        records = await log_records(live_api.settings)
        turns = [key for where, key, _ in records if ".turns[" in where]
        assert len(turns) >= len(ids) and all(is_keyed(key) for key in turns)  # keyed ids
        assert not [key for _, key, _ in records if found_in(key, marks(ids))]
        assert list(redis_values(live_api.settings))
    else:
        long_words = [w for w in words if w.isalpha() and len(w) > 8]
        assert not term_ids_at_rest(live_api.settings.data_dir, long_words)
    assert live_api.process.poll() is None


async def _erasures_leave_no_byte(live_api: LiveApi, ids: list[str]) -> None:
    """R1, R1b, R2: a subject, a session and one evidence item erased over HTTP while the
    API process holds the files: no byte of them anywhere, and the audit agrees."""
    erased = {i for i, s in zip(ids, SAID, strict=True) if s.erased}
    gone = await fact_ids(live_api, erased)
    assert len(gone) >= 3, gone  # each erased turn supported a fact of its own
    requests = await erased_over_http(live_api, ids)
    await erased_facts_gone(live_api, gone)
    words = marks(w for s in SAID if s.erased for w in s.planted)
    hits = await residue(live_api, words, marks([*erased, *gone]))
    assert not hits, by_place(hits)
    assert live_api.process.poll() is None  # scanned while the API held its files
    live_api.process.terminate()
    await asyncio.to_thread(live_api.process.wait, 60)
    for request_id in requests:  # nothing left that opens under a live key either
        audit = audited(live_api.settings, request_id)
        assert audit["total"] == 0 and audit["awaiting_compaction"]["records"] == 0, audit
    kept = kept_facts(live_api.settings)
    assert "Initech" in kept and "Hooli" in kept  # what was not erased stays


def kept_facts(settings: Settings) -> str:
    """The facts of the scopes that kept a turn, as the CLI shows them."""
    shown = [cli(settings, "facts", scope, "--json") for scope in (SESSIONS, ITEMS)]
    assert all(run.returncode == 0 for run in shown), [run.stderr for run in shown]
    return "".join(run.stdout for run in shown)
