"""Erasure equivalence on the embedded runtime: after erasing any set of evidence, the
views equal a fresh replay without it, and the audit finds no residue."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provmem.core.events import Fact
from provmem.infra.settings import Settings
from provmem.services.bootstrap import build
from provmem.services.erasure import Eraser, erasure_request
from provmem.services.memory import Memory
from tests.harness import SCOPE, said

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


def _view(facts: list[Fact]) -> list[dict[str, object]]:
    return sorted(
        (f.model_dump(exclude={"version"}) for f in facts), key=lambda f: str(f["fact_id"])
    )


async def _memory_of(folder: Path, turns: list[dict[str, object]]) -> tuple[Memory, object]:
    components = await build(Settings(data_dir=folder, partitions=2))
    memory = Memory(components)
    await memory.publish(turns)
    await memory.sync()
    return memory, components


async def _scenario(
    texts: list[str], republish: list[int], erase: list[int], subject: bool
) -> None:
    turns = [said(f"t{i}", text, minute=i) for i, text in enumerate(texts)]
    again = [turns[i % len(turns)] for i in republish]
    with tempfile.TemporaryDirectory() as live_dir, tempfile.TemporaryDirectory() as fresh_dir:
        memory, components = await _memory_of(Path(live_dir), turns + again)
        ids = [await _evidence_id(memory, i) for i in range(len(turns))]
        chosen = sorted({ids[i % len(ids)] for i in erase})
        request = (
            erasure_request(SCOPE, [], None, True)
            if subject
            else erasure_request(SCOPE, chosen, None, False)
        )
        eraser = Eraser(memory.components)
        receipt = await eraser.erase(request)
        assert receipt.residue_found == 0, receipt
        assert (await eraser.audit(request.request_id)).total == 0
        assert await eraser.erase(request) == receipt  # idempotent
        erased = set(ids) if subject else set(chosen)
        kept = [t for t, i in zip(turns, ids, strict=True) if i not in erased]
        fresh, fresh_components = await _memory_of(Path(fresh_dir), kept)
        assert _view(await memory.facts(SCOPE)) == _view(await fresh.facts(SCOPE))
        await components.close()  # type: ignore[attr-defined]
        await fresh_components.close()  # type: ignore[attr-defined]


async def _evidence_id(memory: Memory, index: int) -> str:
    from provmem.core.capture import TurnInput, turn_evidence_id

    return turn_evidence_id(TurnInput.model_validate(said(f"t{index}", "x", minute=index)))


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    texts=st.lists(st.sampled_from(SAYINGS), min_size=2, max_size=7),
    republish=st.lists(st.integers(0, 6), max_size=2),
    erase=st.lists(st.integers(0, 6), min_size=1, max_size=3),
    subject=st.booleans(),
)
def test_erasure_equals_a_fresh_replay_without_the_evidence(
    texts: list[str],
    republish: list[int],
    erase: list[int],
    subject: bool,
) -> None:
    asyncio.run(_scenario(texts, republish, erase, subject))


def test_subject_erasure_destroys_the_data_key(tmp_path: Path) -> None:
    async def scenario() -> None:
        memory, components = await _memory_of(tmp_path, [said("t1", "I live in Paris.")])
        receipt = await Eraser(memory.components).erase(erasure_request(SCOPE, [], None, True))
        assert receipt.removed_per_store["data_keys"] == 1
        assert await memory.facts(SCOPE) == []
        assert await memory.components.keys.key_ids() == []
        await components.close()  # type: ignore[attr-defined]

    asyncio.run(scenario())
