"""The log's retained records, as someone holding the master key reads them.

A broker that never compacts (Tansu; Apache Kafka before its log cleaner ran) keeps every
record a tombstone superseded, and the wrapped data key of a shredded subject on the
data-keys topic. These tests read every retained record of every topic of the
deployment, open what the live keys open and unwrap what the master key unwraps, and
look for what was erased:

- after a subject erasure nothing of the subject opens: its records are ciphertext under
  a destroyed key, and no copy of that key is left on the log (nor in Redis, nor, on the
  embedded runtime, in any byte of its SQLite files);
- after a session or an evidence erasure nothing of what it erased opens either, on a
  broker that never compacts too: the subject's live records were sealed again under a
  new log key and the old one destroyed (streams/erasure/log_compaction.py), so what the broker
  retains of the erased turns and facts is ciphertext under a destroyed key; nothing
  awaits compaction, and what the erasure kept is all there and opens. The workers' own
  topics (the gate table's changelog on Kafka) are read too.

On 4bd08fe the Kafka runtime kept the erased subject's wrapped data key on the data-keys
topic (the master key unwrapped it and opened every sealed record of the subject) and the
audit said 0; after a session erasure the audit read only each key's latest record and
said 0 while the superseded turn and fact changes opened under the subject's live key.
On e25c3b8 the superseded turn, fact changes and gate-changelog records of a session or
evidence erasure still opened on Kafka under the subject's live key (reported as
"awaiting compaction", which Tansu never does).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from cryptography.exceptions import InvalidTag

from provmem.core.events import TurnRecorded
from provmem.core.ports import LogRecord
from provmem.infra.crypto.envelope import EvidenceSealer, KeyWrapper, master_key, subject_key_id
from provmem.infra.log.sealed import LogSealer, is_sealed, raw_log
from provmem.infra.residue import ErasedMarks, ResidueScanner, marks_of
from provmem.services.api.inspector import erasure_requests
from provmem.services.erasure.subject import eraser_for, erasure_request
from provmem.streams.pipeline import CONTROL_PREFIX
from provmem.streams.topics import TURNS
from tests.harness import Runtime, said
from tests.integration.test_residue import ALICE, BOB, KEY
from tests.integration.test_residue_parts import CAT, KEPT, PHONE


@dataclass(frozen=True)
class Found:
    """A retained record that opens and holds a mark; ``superseded``: a later record of
    its key is on the partition (a compacting broker drops it)."""

    location: str
    superseded: bool


async def _topics(runtime: Runtime) -> list[str]:
    """Every topic of the deployment the log holds (key-ring generations included)."""
    log, prefix = raw_log(runtime.memory.components.log), runtime.settings.topic_prefix
    if runtime.settings.runtime == "embedded":
        names = runtime.memory.components.names
        return [c.name for c in names.configs()]
    from aiokafka.admin import AIOKafkaAdminClient

    admin = AIOKafkaAdminClient(bootstrap_servers=runtime.settings.broker_url)
    await admin.start()
    try:
        listed = await admin.list_topics()
    finally:
        await admin.close()
    assert log is not None
    owners = (prefix + ".", runtime.settings.consumer_group)  # faust's own: the changelog
    return sorted(t for t in listed if t.startswith(owners))


async def _retained(runtime: Runtime, topic: str) -> list[LogRecord]:
    log = raw_log(runtime.memory.components.log)
    records: list[LogRecord] = []
    for partition in range(await log.partitions(topic)):
        offset = 0
        while batch := await log.read(topic, partition, offset, 1000):
            offset = batch[-1].offset + 1
            records += batch
    return records


async def _readable(runtime: Runtime, scanner: ResidueScanner) -> list[Found]:
    """Retained records whose key, value or opened value holds a mark (a fresh sealer:
    no data key cached). The erasure's own records (its request, its control record)
    name the ids they erase: only their words count; an ERASE change holds no content.
    A record's key always counts (record keys are keyed fingerprints: infra/log/record_keys.py),
    a tombstone's included."""
    components = runtime.memory.components
    sealer = EvidenceSealer(master_key(runtime.settings), components.keys)
    opener = LogSealer(sealer, _none)
    words = ResidueScanner(scanner.key, ErasedMarks(frozenset(), scanner.marks.words))
    found = []
    for topic in await _topics(runtime):
        records = await _retained(runtime, topic)
        last = {(r.partition, r.key): r.offset for r in records if r.key is not None}
        for record in records:
            at = f"{topic}[{record.partition}]@{record.offset}"
            if record.key and scanner.scan_bytes(record.key, topic):
                found.append(Found(at, False))  # keys are keyed: an erased id is residue
            if record.value is None:
                continue  # a tombstone: nothing but its key
            opened = await opener.open(record) if is_sealed(record.value) else record
            parts = [record.value, opened.value, await _state_body(sealer, record.value)]
            parts.append(await _turn_text(sealer, topic, opened.value))
            if _erase_change(opened.value):
                continue  # ids, the scope and a fixed reason (core/erasure.py erasure_of)
            scan = words if _bookkeeping(topic, record) else scanner
            if any(scan.scan_bytes(p, topic) for p in parts if p):
                superseded = last.get((record.partition, record.key), -1) > record.offset
                found.append(Found(at, superseded))
    return found


def _none(topic: str, record: object) -> None:
    return None


async def _state_body(sealer: EvidenceSealer, value: bytes) -> bytes | None:
    """A gate-state record's sealed body (``{"fact": …, "sealed": "pm1…"}``: the faust
    table's changelog), opened with the live keys."""
    try:
        body = json.loads(value)
        sealed = body.get("sealed") if isinstance(body, dict) and "seal" not in body else None
        return await sealer.open_bytes(sealed) if isinstance(sealed, str) else None
    except (ValueError, LookupError, InvalidTag):
        return None  # not a state record, or sealed under a destroyed key


async def _turn_text(sealer: EvidenceSealer, topic: str, value: bytes | None) -> bytes | None:
    """A turn's own text, sealed inside its record: what the opened record says."""
    if not topic.endswith(".turns") or value is None or not value.startswith(b"{"):
        return None
    try:
        turn = TURNS.decode(value)
        assert isinstance(turn, TurnRecorded)
        return (await sealer.open(turn.text)).encode("utf-8")
    except (LookupError, ValueError):
        return None  # a control record, or its key is destroyed


def _bookkeeping(topic: str, record: LogRecord) -> bool:
    if topic.endswith((".erasure-requests", ".erasure-receipts")):
        return True
    return (record.key or b"").startswith(CONTROL_PREFIX)


def _erase_change(opened: bytes | None) -> bool:
    body = json.loads(opened) if opened and opened.startswith(b"{") else {}
    return isinstance(body, dict) and body.get("op") == "ERASE" and body.get("fact") is None


async def _copies_of_key(runtime: Runtime, key_id: str) -> list[str]:
    """Retained data-keys records of ``key_id`` that the master key unwraps."""
    wrapper, copies = KeyWrapper(master_key(runtime.settings)), []
    for topic in await _topics(runtime):
        if ".data-keys" not in topic:
            continue
        for record in await _retained(runtime, topic):
            if record.key == key_id.encode() and record.value is not None:
                wrapper.unwrap(key_id, record.value)  # raises unless the master key wraps it
                copies.append(f"{topic}[{record.partition}]@{record.offset}")
    return copies


async def _bytes_anywhere(runtime: Runtime, wrapped: bytes) -> list[str]:
    """Where the wrapped key's bytes are: files under the data folder, Redis values."""
    settings, places = runtime.settings, []
    for path in sorted(p for p in settings.data_dir.rglob("*") if p.is_file()):
        if wrapped in path.read_bytes():
            places.append(str(path.relative_to(settings.data_dir)))
    if settings.runtime == "kafka":
        from provmem.infra.stores.redis_client import redis_client

        client = redis_client(settings.redis_url)
        async for key in client.scan_iter(match=f"{settings.redis_prefix}:*"):
            if (await client.type(key)) == b"string" and wrapped in (await client.get(key) or b""):
                places.append(key.decode())
        await client.aclose()
    return places


async def _derived(runtime: Runtime, turns: list[dict[str, object]], facts: int) -> list[str]:
    memory = runtime.memory
    published = await memory.publish(turns)

    async def ready() -> bool:
        return await runtime.caught_up() and len(await memory.facts(ALICE)) >= facts

    await runtime.settle(ready)
    return [p.evidence_id for p in published]


async def test_a_subject_erasure_leaves_nothing_that_opens_nor_a_copy_of_its_key(
    runtime: Runtime,
) -> None:
    memory = runtime.memory
    turns = [said("a0", PHONE, 0, ALICE), said("a1", CAT, 1, ALICE)]
    ids = await _derived(runtime, [*turns, said("b0", KEPT, 5, BOB) | {"speaker": "Bob"}], 2)
    key_id = subject_key_id(ALICE)
    wrapped = await memory.components.keys.get(key_id)
    assert wrapped is not None
    facts = [f.fact_id for f in await memory.facts(ALICE)]
    scanner = ResidueScanner(KEY, marks_of(KEY, [*ids[:2], *facts], [PHONE, CAT], [KEPT]))
    assert await _readable(runtime, scanner)  # before: the subject's records open

    request = erasure_request(ALICE, [], None, True)
    receipt = await runtime.erase(request)

    assert await _copies_of_key(runtime, key_id) == []
    assert await _bytes_anywhere(runtime, wrapped) == []
    assert await _readable(runtime, scanner) == []  # ciphertext under a destroyed key only
    audit = await eraser_for(memory.components).audit(request.request_id)
    assert receipt.residue_found == 0 and audit.total == 0, audit.found
    assert audit.found["log_data_keys"] == 0 and audit.awaiting.records == 0
    assert await memory.facts(BOB)  # the other subject's key and records are untouched


@pytest.mark.parametrize("part", ["session", "evidence"])
async def test_an_erasure_of_part_of_a_subject_leaves_nothing_that_opens(
    runtime: Runtime, part: str
) -> None:
    memory = runtime.memory
    turns = [said("a0", PHONE, 0), said("a2", KEPT, 2), said("a1", CAT, 1) | {"session": "s2"}]
    ids = await _derived(runtime, turns, 3)
    gone = [f.fact_id for f in await memory.facts(ALICE) if list(f.evidence_ids) == [ids[2]]]
    assert gone  # the erased turn's own facts (their ids are marks too)
    untouched = {f.fact_id for f in await memory.facts(ALICE) if ids[2] not in f.evidence_ids}
    scanner = ResidueScanner(KEY, marks_of(KEY, [ids[2], *gone], [CAT], [PHONE, KEPT]))
    assert await _readable(runtime, scanner)  # before: the turn and its facts open

    session, evidence = ("s2", []) if part == "session" else (None, [ids[2]])
    request = erasure_request(ALICE, evidence, session, False)
    receipt = await runtime.erase(request)

    assert await _readable(runtime, scanner) == []  # Tansu too: under a destroyed key
    audit = await eraser_for(memory.components).audit(request.request_id)
    assert audit.total == 0 and receipt.residue_found == 0, audit.found
    assert audit.awaiting.records == 0 and receipt.awaiting_compaction == 0
    after = await memory.facts(ALICE)
    assert untouched <= {f.fact_id for f in after}  # what it kept is all there
    assert all(ids[2] not in f.evidence_ids for f in after)
    assert await _opened_turns(runtime) == {ids[0], ids[1]}  # what it kept still opens
    again = await _derived(runtime, [said("a3", KEPT, 3)], len(after))
    corroborated = {f.fact_id for f in await memory.facts(ALICE) if again[0] in f.evidence_ids}
    assert corroborated and corroborated <= {f.fact_id for f in after}  # the gate state opens


async def _opened_turns(runtime: Runtime) -> set[str]:
    """The evidence ids of the turns the log's latest records open to (a fresh sealer)."""
    components = runtime.memory.components
    opener = LogSealer(EvidenceSealer(master_key(runtime.settings), components.keys), _none)
    topic = components.names.turns
    latest = {(r.partition, r.key): r for r in await _retained(runtime, topic)}
    opened = [await opener.open(r) for r in latest.values() if r.value is not None]
    turns = [TURNS.decode(r.value) for r in opened if r.value and r.value.startswith(b"{")]
    return {t.evidence_id for t in turns if isinstance(t, TurnRecorded)}


async def test_a_later_erasure_of_part_of_a_subject_keeps_what_the_earlier_kept(
    runtime: Runtime,
) -> None:
    """After a crypto-compaction the kept turns' first records read as erased (their key
    is destroyed) and their copies follow: a second erasure must take the copies for the
    turns, not the first records for tombstones (which erased the kept turn's facts)."""
    memory = runtime.memory
    turns = [said("a0", PHONE, 0), said("a2", KEPT, 2), said("a1", CAT, 1) | {"session": "s2"}]
    ids = await _derived(runtime, turns, 3)
    phone = {f.fact_id for f in await memory.facts(ALICE) if list(f.evidence_ids) == [ids[0]]}
    assert phone

    await runtime.erase(erasure_request(ALICE, [], "s2", False))
    await runtime.erase(erasure_request(ALICE, [ids[1]], None, False))

    after = await memory.facts(ALICE)
    assert phone <= {f.fact_id for f in after}
    assert all(set(f.evidence_ids) <= {ids[0]} for f in after)
    assert await _opened_turns(runtime) == {ids[0]}


async def test_an_erasure_reason_naming_the_person_goes_with_the_subject(
    runtime: Runtime,
) -> None:
    """The reason stays on the erasure-requests topic for years and may name the person:
    it is sealed under the subject's data key, so a subject erasure shreds it and the
    audit (which opens it with the live keys) finds nothing. On e25c3b8 the reason was
    plaintext inside the request: the receipt said residue 1 and a holder of the master
    key read the name for the topic's retention."""
    memory = runtime.memory
    await _derived(runtime, [said("a0", PHONE, 0)], 1)
    request = erasure_request(ALICE, [], None, True, "GDPR request from Quetzalbrook")

    receipt = await runtime.erase(request)

    assert receipt.residue_found == 0
    audit = await eraser_for(memory.components).audit(request.request_id)
    assert audit.total == 0, audit.found
    requests = await _retained(runtime, memory.components.names.erasure_requests)
    assert requests and all(b"Quetzalbrook" not in (r.value or b"") for r in requests)
    (filed,) = [r for r in await erasure_requests(memory) if r.request_id == request.request_id]
    assert await memory.erasure_reason(filed) is None  # shredded with the subject
