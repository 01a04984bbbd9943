"""The gate's memory survives persistence exactly (row order and distances included)."""

from __future__ import annotations

import numpy as np

from provmem.core.extraction import Claim
from provmem.core.gate import GateConfig
from provmem.core.memory_state import ScopeMemory, as_unit
from provmem.core.stages import Candidate, derive_fact_changes
from provmem.streams.gate_store import GateStore
from tests.factories import turn


class DictState:
    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}

    async def load(self, key: str) -> bytes | None:
        return self.data.get(key)

    async def save(self, key: str, value: bytes) -> None:
        self.data[key] = value


async def test_saved_memory_restores_identically() -> None:
    state, rng = DictState(), np.random.default_rng(3)
    store = GateStore(state)
    memory, revision = ScopeMemory(), 0
    for i in range(12):
        t = turn(f"t{i}", minute=i)
        vector = as_unit(rng.standard_normal(16))
        text = f"Statement number {i} here."
        result = derive_fact_changes(
            t, [Candidate(Claim(text, ((0, len(text)),)), vector)], memory, GateConfig(), "test/1"
        )
        for key, value in store.dump(
            t.scope.key, revision, memory, result.memory, t.evidence_id
        ).items():
            await state.save(key, value)
        memory, revision = result.memory, revision + 1
    fresh = GateStore(state)
    loaded_revision, loaded = await fresh.load(turn("x").scope.key, {})
    assert loaded_revision == revision
    assert loaded.active == memory.active and loaded.nearest_distance == memory.nearest_distance
    assert np.array_equal(loaded.matrix, memory.matrix)
    assert dict(loaded.facts) == dict(memory.facts)
    assert await fresh.seen(turn("x").scope.key, turn("t3").evidence_id, {})
