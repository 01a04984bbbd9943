"""After an evidence erasure a fact's history equals a replay without that evidence.

On 96a0921 the fact that came back (its successor's evidence was erased) kept a version
"superseded by" the erased fact: a replay without the erased turn has only version 1."""

from __future__ import annotations

from pathlib import Path

from provmem.config import Settings
from provmem.core.events import Fact
from provmem.services.erasure.subject import erasure_request
from provmem.services.memory.memory import MemoryService
from provmem.streams.runtime.components import build
from tests.harness import SCOPE, said

TURNS = [said("t1", "I live in Paris."), said("t2", "I moved to Lisbon.", minute=5)]


def _versions(history: tuple[Fact, ...]) -> list[dict[str, object]]:
    return [v.model_dump(mode="json", exclude={"version"}) for v in history]


async def _histories(folder: Path, turns: list[dict[str, object]], erase: int | None) -> object:
    memory = MemoryService(await build(Settings(data_dir=folder, partitions=2)))
    try:
        published = await memory.publish(turns)
        await memory.sync()
        if erase is not None:
            chosen = [published[erase].evidence_id or ""]
            await memory.request_erasure(erasure_request(SCOPE, chosen, None, False))
        details = [await memory.fact(f.fact_id) for f in await memory.facts(SCOPE)]
        return {d.fact.fact_id: _versions(d.history) for d in details if d is not None}
    finally:
        await memory.components.close()


async def test_a_revived_fact_s_history_equals_a_replay_without_the_erased_turn(
    tmp_path: Path,
) -> None:
    erased = await _histories(tmp_path / "live", TURNS, erase=1)
    replayed = await _histories(tmp_path / "fresh", TURNS[:1], erase=None)
    assert erased == replayed
