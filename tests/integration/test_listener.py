"""A statement addressed to the other participant of a session names them (real pipeline)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from provmem.config import Settings
from tests.harness import SCOPE, Runtime, said


@pytest.fixture
async def embedded(embedded_settings: Settings, tmp_path: Path) -> AsyncIterator[Runtime]:
    started = await Runtime(embedded_settings, tmp_path).start()
    yield started
    await started.stop()


def _by(speaker: str, turn: dict[str, str]) -> dict[str, str]:
    return {**turn, "speaker": speaker}


async def test_you_names_the_other_speaker_of_the_session_across_batches(
    embedded: Runtime,
) -> None:
    memory = embedded.memory
    await memory.publish([_by("Jon", said("t1", "I finally opened my dance studio downtown."))])
    await embedded.settle(embedded.caught_up)
    await memory.publish(
        [
            said("t2", "I love that you opened a studio downtown.", minute=1),
            said("t3", "Your support means a ton to me.", minute=2),
        ]
    )
    await embedded.settle(embedded.caught_up)
    statements = {f.statement for f in await memory.facts(SCOPE)}
    assert "Alice loves that Jon opened a studio downtown." in statements
    assert "Jon's support means a ton to Alice." in statements
    assert not any("you" in s.lower().split() for s in statements)


async def test_without_another_speaker_you_stays_unresolved_and_no_fact_is_made(
    embedded: Runtime,
) -> None:
    await embedded.memory.publish([said("t1", "Your support means a ton to me.")])
    await embedded.settle(embedded.caught_up)
    assert await embedded.memory.facts(SCOPE) == []
