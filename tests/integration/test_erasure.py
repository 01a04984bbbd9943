"""Erasure equivalence on both runtimes: after erasing any set of evidence, the views
equal a fresh replay without it, and the audit finds no residue.

The embedded runtime runs the cascade in-process; on Kafka the request goes through the
erasure-requests topic to a control record on the scope's turns partition, where the
worker's derive agent runs it against its faust table. One runtime serves every example
of a test (each example has a scope of its own); the fresh replay runs on the embedded
runtime, so on Kafka it also shows that both runtimes derive the same views.
"""

from __future__ import annotations

import asyncio
import tempfile
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provmem.config import Settings
from provmem.core.capture import TurnInput, turn_evidence_id
from provmem.core.events import Fact
from provmem.infra.crypto.envelope import DEPLOYMENT_KEY_ID
from provmem.services.erasure.subject import eraser_for, erasure_request
from provmem.services.memory.memory import MemoryService
from provmem.streams.runtime.components import build
from tests.harness import SCOPE, Runtime, said

SAYINGS = [
    "I live in Paris.",
    "I moved to Berlin.",
    "I moved to Oslo.",
    "I love jazz.",
    "I really love jazz.",
    "I have a dog named Rex.",
    "Actually, I moved to Porto, not Berlin.",
    "I work at Globex.",
    "I now work at Initech.",
    "I am allergic to peanuts.",
]

EXAMPLES = st.fixed_dictionaries(
    {
        "texts": st.lists(st.sampled_from(SAYINGS), min_size=2, max_size=7),
        "republish": st.lists(st.integers(0, 6), max_size=2),
        "erase": st.lists(st.integers(0, 6), min_size=1, max_size=3),
        "subject": st.booleans(),
    }
)
SHARED_RUNTIME = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


def _view(facts: list[Fact]) -> list[dict[str, object]]:
    return sorted(
        (f.model_dump(exclude={"version"}) for f in facts), key=lambda f: str(f["fact_id"])
    )


async def _fresh_replay(scope: str, turns: list[dict[str, object]]) -> list[dict[str, object]]:
    """The views a fresh embedded replay of ``turns`` derives."""
    with tempfile.TemporaryDirectory() as folder:
        components = await build(Settings(data_dir=Path(folder), partitions=2))
        memory = MemoryService(components)
        await memory.publish(turns)
        await memory.sync()
        view = _view(await memory.facts(scope))
        await components.close()
    return view


async def _scenario(runtime: Runtime, example: dict[str, list[object] | bool]) -> None:
    texts, republish, erase = example["texts"], example["republish"], example["erase"]
    assert isinstance(texts, list) and isinstance(republish, list) and isinstance(erase, list)
    scope = f"acme/support/u{uuid.uuid4().hex[:10]}"
    turns = [said(f"t{i}", str(text), minute=i, scope=scope) for i, text in enumerate(texts)]
    again = [turns[int(i) % len(turns)] for i in republish]
    await runtime.memory.publish(turns + again)
    await runtime.settle(runtime.caught_up)
    ids = [turn_evidence_id(TurnInput.model_validate(t)) for t in turns]
    chosen = sorted({ids[int(i) % len(ids)] for i in erase})
    subject = bool(example["subject"])
    request = erasure_request(scope, [] if subject else chosen, None, subject)
    receipt = await runtime.erase(request)
    eraser = eraser_for(runtime.memory.components)
    assert receipt.residue_found == 0, receipt
    assert (await eraser.audit(request.request_id)).total == 0
    assert await runtime.erase(request) == receipt  # idempotent
    erased = set(ids) if subject else set(chosen)
    kept = [t for t, i in zip(turns, ids, strict=True) if i not in erased]
    # what the erasure re-derived from the kept evidence reaches the views through the
    # workers on Kafka: after the receipt, not before it
    await runtime.settle(runtime.caught_up)
    assert _view(await runtime.memory.facts(scope)) == await _fresh_replay(scope, kept)


@pytest.fixture
async def embedded_runtime(embedded_settings: Settings, tmp_path: Path) -> AsyncIterator[Runtime]:
    started = await Runtime(embedded_settings, tmp_path).start()
    yield started
    await started.stop()


@settings(max_examples=12, deadline=None, suppress_health_check=SHARED_RUNTIME)
@given(example=EXAMPLES)
async def test_erasure_equals_a_fresh_replay_embedded(
    embedded_runtime: Runtime, example: dict[str, list[object] | bool]
) -> None:
    await _scenario(embedded_runtime, example)


def test_subject_erasure_destroys_the_data_key(tmp_path: Path) -> None:
    async def scenario() -> None:
        components = await build(Settings(data_dir=tmp_path, partitions=2))
        memory = MemoryService(components)
        await memory.publish([said("t1", "I live in Paris.")])
        await memory.sync()
        receipt = await eraser_for(components).erase(erasure_request(SCOPE, [], None, True))
        assert receipt.removed_per_store["data_keys"] == 1
        assert await memory.facts(SCOPE) == []
        assert await components.keys.key_ids() == [DEPLOYMENT_KEY_ID]  # the subject's is gone
        await components.close()

    asyncio.run(scenario())
