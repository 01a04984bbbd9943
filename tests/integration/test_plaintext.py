"""No personal plaintext at rest: after publishing, no word of the turns (their text, the
speaker's name, the facts' statements and entities) is readable in any file under the
data folder (the log's file included), in Redis, or in the log's retained records as the
broker holds them, on either runtime; a dead letter is sealed like the record it holds.

The residue scanner (infra/residue.py) tokenizes every byte of every file under the data
folder, every Redis key and value under the deployment's prefix and every retained log
record read raw (under the unsealing wrapper, ``raw_log``), and looks for the words and
numbers by keyed fingerprint. Each check is shown able to fail: the same scan finds the
words in the records read through the wrapper, and in a plain file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
import redis.asyncio as aioredis

from provmem.core.capture import TurnInput, record_turn
from provmem.core.events import Fact
from provmem.core.ports import Append
from provmem.core.scope import partition_for
from provmem.infra.crypto.envelope import EvidenceSealer, rotate_master_key
from provmem.infra.log.embedded import EmbeddedEventLog
from provmem.infra.log.sealed import SealedLog, is_sealed, raw_log
from provmem.infra.residue import Hit, ResidueScanner, audit_key, log_records, marks_of
from provmem.infra.stores.embedded import EmbeddedKeyStore, EmbeddedStores
from provmem.infra.stores.redis_stores import RedisNamespace
from provmem.schemas import load
from provmem.services.cli.demo import DEMO_SCOPE, demo_turns
from provmem.services.erasure.subject import erasure_request
from provmem.services.memory.dlq import DeadLetters
from provmem.streams.runtime.components import Components
from provmem.streams.runtime.sealed_topics import sealed_log
from provmem.streams.topics import ERASURE_REQUESTS, TURNS, TopicNames
from tests.conftest import REDIS_URL
from tests.harness import Runtime, said

SCOPE = "acme/support/u4711"  # the user id names nobody: the scope is an identifier
SAYS = [
    "My phone number is 5550142 and I live in Quetzalbrook.",
    "My cat Zanzibarite loves the Vorpalfield bakery.",
    "I work at Globexoria as a nurse since 2019.",
    "Actually, I moved to Porthmoria last month.",
]
SPEAKER = "Wilhelmina"
PARKED = "Ottoline"  # the speaker of a record that is dead-lettered
PARKED_TEXT = "I collect Snorkelwick stamps."
KEY = audit_key(os.urandom(32))


def _words_of(facts: list[Fact]) -> list[str]:
    return [text for f in facts for text in (f.statement, *f.entities, f.slot_value or "")]


async def _retained(components: Components) -> list[tuple[str, bytes | None, bytes | None]]:
    """Every record the log retains, as it is at rest (read under the sealing wrapper)."""
    assert isinstance(components.log, SealedLog)
    names = [config.name for config in components.names.configs()]
    return [r async for r in log_records(raw_log(components.log), names)]


async def _opened(components: Components) -> list[tuple[str, bytes | None, bytes | None]]:
    """The same records read through the wrapper (what the pipeline sees)."""
    names = [config.name for config in components.names.configs()]
    found = []
    for name in names:
        for partition in range(await components.log.partitions(name)):
            for r in await components.log.read(name, partition, 0, 10_000):
                found.append((f"{name}[{partition}]@{r.offset}", r.key, r.value))
    return found


async def _park_a_malformed_turn(runtime: Runtime) -> None:
    """A turn record without its turn id, appended by a producer of its own: the derive
    stage dead-letters it (the record, speaker included, goes into the letter)."""
    components = runtime.memory.components
    turn = TurnInput.model_validate(said("t-bad", PARKED_TEXT, 9, SCOPE) | {"speaker": PARKED})
    sealed, content_hash = await components.sealer.seal(SCOPE, turn.text)
    broken = json.loads(TURNS.encode(record_turn(turn, sealed, content_hash)))
    del broken["turn_id"]
    partition = partition_for(SCOPE, components.settings.partitions)
    value = json.dumps(broken).encode()
    await components.log.append(components.names.turns, [Append(partition, b"bad", value)])


async def _scan_everything(runtime: Runtime, scanner: ResidueScanner) -> list[Hit]:
    found = scanner.scan_folder(runtime.settings.data_dir)
    if runtime.settings.runtime == "kafka":
        client = aioredis.Redis.from_url(REDIS_URL)
        found += await scanner.scan_held(RedisNamespace(client, runtime.settings.redis_prefix))
        await client.aclose()
    return found + scanner.scan_records(await _retained(runtime.memory.components))


async def test_no_word_of_the_turns_is_readable_at_rest(runtime: Runtime) -> None:
    memory = runtime.memory
    turns = [said(f"t{i}", text, i, SCOPE) | {"speaker": SPEAKER} for i, text in enumerate(SAYS)]
    await memory.publish(turns)
    await _park_a_malformed_turn(runtime)
    letters = DeadLetters(memory.components.log, memory.components.names)

    async def parked() -> bool:
        return await runtime.caught_up() and len(await letters.letters()) == 1

    await runtime.settle(parked)
    facts = await memory.facts(SCOPE)
    assert len(facts) >= 3
    recollection = await memory.query(SCOPE, "Where does Wilhelmina live?")
    assert recollection is not None  # the sealed views, index and log still answer
    (letter,) = await letters.letters()
    assert "turn_id" in letter.error  # the letter opens for who holds the key

    said_words = [*SAYS, SPEAKER, PARKED, PARKED_TEXT, *_words_of(facts)]
    scanner = ResidueScanner(KEY, marks_of(KEY, [], said_words, [SCOPE.replace("/", " ")]))
    # rare names and numbers alone; every run of three words (issue 30: never a common word)
    assert len(scanner.marks.words) >= 8 and len(scanner.marks.spans) >= 20
    assert await _scan_everything(runtime, scanner) == []

    retained = await _retained(memory.components)
    values = [value for _, _, value in retained if value is not None]
    turn_topic = memory.components.names.turns
    assert sum(is_sealed(v) for loc, _, v in retained if turn_topic in loc) >= len(SAYS)
    schema = load("SealedRecord", 1)
    for value in filter(is_sealed, values):
        jsonschema.validate(json.loads(value), schema)
    opened = ResidueScanner(KEY, scanner.marks)  # the check can fail: opened, they speak
    assert len({h.fingerprint for h in opened.scan_records(await _opened(memory.components))}) >= 8
    assert values


async def test_the_demo_leaves_no_peanut_in_the_log(runtime: Runtime) -> None:
    """Regression: after the demo's turns, "peanut" was readable in log.db (fact changes)."""
    memory = runtime.memory
    await memory.publish(demo_turns())

    async def derived() -> bool:
        facts = await memory.facts(DEMO_SCOPE)
        return await runtime.caught_up() and any("peanut" in f.statement for f in facts)

    await runtime.settle(derived)
    folder = str(runtime.settings.data_dir).lower().encode()  # a store's own log names its path
    for path in runtime.settings.data_dir.rglob("*"):
        if path.is_file():
            assert b"peanut" not in path.read_bytes().lower().replace(folder, b""), path
    for location, key, value in await _retained(memory.components):
        assert b"peanut" not in (value or b"").lower() + (key or b""), location
    opened = await _opened(memory.components)
    assert any(b"peanut" in (value or b"") for _, _, value in opened)  # it is there, sealed


async def test_the_scanner_reads_plaintext_where_there_is_some(tmp_path: Path) -> None:
    """The check above can fail: the same scan finds the words in a plain file."""
    (tmp_path / "plain.json").write_text(f'{{"statement": "{SAYS[0]}", "speaker": "{SPEAKER}"}}')
    scanner = ResidueScanner(KEY, marks_of(KEY, [], [*SAYS, SPEAKER], []))
    hits = scanner.scan_folder(tmp_path)  # 5550142, quetzalbrook, wilhelmina; 8 spans
    assert {h.kind for h in hits} == {"word", "span"} and len(hits) == 11


async def test_the_sealed_log_reads_old_records_and_erased_ones(tmp_path: Path) -> None:
    """Upcasting and shredding at the log boundary, on the embedded log and key store: a
    record written before sealing reads as it is; a shredded subject's record reads as
    erased (None), also after the subject came back with a new key under the same id."""
    stores = EmbeddedStores(tmp_path / "views.db")
    keys = EmbeddedKeyStore(stores)
    sealer = EvidenceSealer(os.urandom(32), keys)
    names = TopicNames("t")
    log = sealed_log(EmbeddedEventLog(tmp_path / "log.db"), sealer, names)
    await log.ensure_topics(names.configs(1))
    turn = TurnInput.model_validate(said("t1", SAYS[0], 0, SCOPE) | {"speaker": SPEAKER})
    sealed_text, content_hash = await sealer.seal(SCOPE, turn.text)
    value = TURNS.encode(record_turn(turn, sealed_text, content_hash))
    old = Append(0, b"old", value)
    await raw_log(log).append(names.turns, [old])  # as a log written before sealing holds it
    await log.append(names.turns, [Append(0, b"new", value)])
    at_rest = await raw_log(log).read(names.turns, 0, 0, 10)
    assert at_rest[0].value == value and is_sealed(at_rest[1].value)
    assert SPEAKER.encode() not in (at_rest[1].value or b"")
    assert [r.value for r in await log.read(names.turns, 0, 0, 10)] == [value, value]

    assert await sealer.shred(SCOPE) == {"data_keys": 1, "log_keys": 1}
    assert [r.value for r in await log.read(names.turns, 0, 0, 10)] == [value, None]
    await log.append(names.turns, [Append(0, b"back", value)])  # new keys under the same ids
    assert [r.value for r in await log.read(names.turns, 0, 0, 10)] == [value, None, value]
    await log.close()
    await stores.close()


def test_sealed_records_follow_their_released_schema() -> None:
    """The envelope is versioned like the events (schemas/SealedRecord/v1)."""
    schema = load("SealedRecord", 1)
    jsonschema.validate(load("SealedRecord", 1, "example"), schema)
    envelope = {"seal": 1, "sealed": "pm1.dk_deployment.AAAA"}
    jsonschema.validate(envelope, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"seal": 2, "sealed": "pm1.dk_deployment.AAAA"}, schema)


async def test_records_under_the_deployment_key_open_after_a_rotation(tmp_path: Path) -> None:
    """An erasure request is sealed under the deployment's data key: a master key rotation
    re-wraps that key like a subject's, so the request still reads (and no erasure of a
    subject destroys it)."""
    stores = EmbeddedStores(tmp_path / "views.db")
    keys = EmbeddedKeyStore(stores)
    old, new = os.urandom(32), os.urandom(32)
    names = TopicNames("t")
    log = EmbeddedEventLog(tmp_path / "log.db")
    await log.ensure_topics(names.configs(1))
    request = erasure_request(SCOPE, ["ev_" + "0" * 32], None, False)
    value = ERASURE_REQUESTS.encode(request)
    await sealed_log(log, EvidenceSealer(old, keys), names).append(
        names.erasure_requests, [Append(0, b"r1", value)]
    )
    (at_rest,) = await log.read(names.erasure_requests, 0, 0, 10)
    assert is_sealed(at_rest.value) and b"ev_" not in (at_rest.value or b"")
    assert await rotate_master_key(keys, old, new) >= 1
    (opened,) = await sealed_log(log, EvidenceSealer(new, keys), names).read(
        names.erasure_requests, 0, 0, 10
    )
    assert opened.value == value
    await log.close()
    await stores.close()


async def test_a_source_uri_is_not_readable_at_rest(runtime: Runtime) -> None:
    """A turn's ``source_uri`` is the client's (an address, a path with a name in it); the
    evidence view indexes turns by their source for the raw neighbours of a hit, and did
    so under the URI itself, in plaintext."""
    source = "mailto:wilhelmina.snorkelbury@example.org"
    turns = [
        said(f"t{i}", text, i, SCOPE) | {"speaker": SPEAKER, "source_uri": source}
        for i, text in enumerate(SAYS)
    ]
    await runtime.memory.publish(turns)

    async def derived() -> bool:
        return await runtime.caught_up() and bool(await runtime.memory.facts(SCOPE))

    await runtime.settle(derived)
    evidence_id = (await runtime.memory.components.evidence.ids_in_scope(SCOPE))[1]
    neighbours = await runtime.memory.components.evidence.neighbours(evidence_id, 1)
    assert [t.turn_id for t in neighbours] == ["t0", "t1", "t2"]  # still found by source
    scanner = ResidueScanner(KEY, marks_of(KEY, [], ["snorkelbury"], []))
    assert await _scan_everything(runtime, scanner) == []
