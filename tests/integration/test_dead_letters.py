"""Dead letters on both runtimes: a bad record is parked with its reason, the pipeline goes
on, and re-driving the fixed record processes it once; a subject's letters go with it."""

from __future__ import annotations

import json

import pytest

from provmem.core.capture import TurnInput, record_turn
from provmem.core.ports import Append
from provmem.core.scope import partition_for
from provmem.infra.crypto.envelope import subject_key_id
from provmem.infra.log.sealed import is_sealed, raw_log, record_keys
from provmem.services.erasure.subject import erasure_request
from provmem.services.memory.dlq import DeadLetters
from provmem.streams.topics import TURNS
from tests.harness import SCOPE, Runtime, said


async def _recorded(runtime: Runtime, turn_id: str, text: str) -> bytes:
    """A sealed turn record, as the publisher would append it."""
    turn = TurnInput.model_validate(said(turn_id, text, minute=1))
    sealer = runtime.memory.components.sealer
    sealed, content_hash = await sealer.seal(turn.resolved_scope().key, turn.text)
    return TURNS.encode(record_turn(turn, sealed, content_hash))


async def _append_raw(runtime: Runtime, value: bytes) -> None:
    components = runtime.memory.components
    partition = partition_for(SCOPE, components.settings.partitions)
    await components.log.append(components.names.turns, [Append(partition, b"bad", value)])


async def _facts_about(runtime: Runtime, word: str, count: int) -> list[str]:
    async def ready() -> bool:
        facts = await runtime.memory.facts(SCOPE)
        return await runtime.caught_up() and sum(word in f.statement for f in facts) == count

    await runtime.settle(ready)
    return [f.statement for f in await runtime.memory.facts(SCOPE) if word in f.statement]


async def test_a_bad_record_is_parked_and_redriven_once_fixed(runtime: Runtime) -> None:
    good = await _recorded(runtime, "t9", "I play the cello.")
    broken = json.loads(good)
    del broken["speaker"]
    await _append_raw(runtime, json.dumps(broken).encode())
    await runtime.memory.publish([said("t1", "I live in Paris.")])
    assert await _facts_about(runtime, "Paris", 1)  # the pipeline went on past the bad record

    letters = DeadLetters(runtime.memory.components.log, runtime.memory.components.names)
    (letter,) = await letters.letters()
    assert letter.stage == "derive" and "speaker" in letter.error
    assert letter.topic == runtime.memory.components.names.turns

    (done,) = await letters.redrive([letter.offset], value=good)
    assert done.letter == letter.offset and done.topic == letter.topic
    assert await _facts_about(runtime, "cello", 1) == ["Alice plays the cello."]
    assert await letters.letters() == []
    (kept,) = await letters.letters(include_redriven=True)
    assert kept.redriven
    with pytest.raises(ValueError, match="already re-driven"):
        await letters.redrive([letter.offset])
    with pytest.raises(LookupError, match="not found"):
        await letters.letter(10_000)


async def test_a_subjects_dead_letters_are_erased_with_it(runtime: Runtime) -> None:
    """A letter holds the failed record (speaker, ids): sealed under its subject's data key,
    keyed by nothing in the clear, it reads as erased once the subject's key is shredded."""
    good = await _recorded(runtime, "t9", "I play the cello.")
    broken = json.loads(good)
    del broken["speaker"]
    await _append_raw(runtime, json.dumps(broken).encode())
    await runtime.memory.publish([said("t1", "I live in Paris.")])
    assert await _facts_about(runtime, "Paris", 1)
    components = runtime.memory.components
    letters = DeadLetters(components.log, components.names)
    (letter,) = await letters.letters()
    # the failed record's key as it is on the log (keyed: infra/log/record_keys.py)
    keyed = await record_keys(components.log).key_of(b"bad")
    assert letter.key == keyed.decode() and letter.value is not None  # opened for who holds the key
    (at_rest,) = await raw_log(components.log).read(components.names.dead_letters, 0, 0, 10)
    assert at_rest.key is None and is_sealed(at_rest.value)
    assert b"Alice" not in at_rest.value and b"cello" not in at_rest.value

    request = erasure_request(SCOPE, [], None, True)
    if await runtime.memory.request_erasure(request) is None:  # Kafka: a worker runs it

        async def completed() -> bool:
            return await runtime.memory.erasure_receipt(request.request_id) is not None

        await runtime.settle(completed)

    async def gone() -> bool:  # this process trusts a key it read for KEY_CACHE_S at most
        return await letters.letters(include_redriven=True) == []

    await runtime.settle(gone)
    (still,) = await raw_log(components.log).read(components.names.dead_letters, 0, 0, 10)
    assert still.value == at_rest.value  # ciphertext under a destroyed key
    assert await components.keys.get(subject_key_id(SCOPE)) is None
