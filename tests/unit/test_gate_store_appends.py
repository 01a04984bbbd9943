"""A turn writes what it touched, never the whole scope; the earlier form is still read."""

from __future__ import annotations

import base64
import json

import numpy as np

from provmem.core.claim import Claim
from provmem.core.facts.gate import GateConfig
from provmem.core.facts.memory_state import ScopeMemory, as_unit
from provmem.core.stages import Candidate, derive_fact_changes
from provmem.infra.stores.bulk_state import PerKeyBulkState
from provmem.streams.gate_store import PAGE, GateStore
from tests.factories import DictState, turn


def _candidate(i: int, rng: np.random.Generator) -> Candidate:
    text = f"Fact number {i} is here."
    return Candidate(Claim(text, ((0, len(text)),)), as_unit(rng.standard_normal(16)))


async def _grown(state: DictState, turns: int) -> tuple[int, ScopeMemory, list[int]]:
    """``turns`` turns saved as the derive stage saves them; how many records each wrote."""
    store, rng = GateStore(PerKeyBulkState(state)), np.random.default_rng(5)
    memory, revision, written = ScopeMemory(), 0, []
    for i in range(turns):
        t = turn(f"t{i}", minute=i)
        result = derive_fact_changes(t, [_candidate(i, rng)], memory, GateConfig(), "test/1")
        writes = store.dump(t.scope.key, revision, memory, result.memory, t.evidence_id)
        written.append(len(writes))
        for key, value in writes.items():
            await state.save(key, value)
        memory, revision = result.memory, revision + 1
    return revision, memory, written


async def test_a_turn_writes_its_own_records_and_a_small_index() -> None:
    state = DictState()
    revision, memory, written = await _grown(state, PAGE + 40)
    scope = turn("x").scope.key
    assert max(written[-40:]) <= 8  # seen, the fact, a few neighbours, a page, the index
    assert len(state.data[f"gate|{scope}|index"]) < 100
    _, loaded = await GateStore(PerKeyBulkState(state)).load(scope, {})
    assert loaded.active == memory.active and loaded.nearest_distance == memory.nearest_distance
    assert np.array_equal(loaded.matrix, memory.matrix)


async def test_an_index_of_the_earlier_form_is_read_then_rewritten() -> None:
    state = DictState()
    revision, memory, _ = await _grown(state, 20)
    scope = turn("x").scope.key
    _as_earlier_form(state, scope, revision, memory)
    store = GateStore(PerKeyBulkState(state))
    loaded_revision, loaded = await store.load(scope, {})
    assert loaded_revision == revision and loaded.active == memory.active
    assert loaded.nearest_distance == memory.nearest_distance
    t = turn("t99", minute=99)
    rng = np.random.default_rng(9)
    result = derive_fact_changes(t, [_candidate(99, rng)], loaded, GateConfig(), "test/1")
    for key, value in store.dump(scope, revision, loaded, result.memory, t.evidence_id).items():
        await state.save(key, value)
    _, again = await GateStore(PerKeyBulkState(state)).load(scope, {})
    assert again.active == result.memory.active
    assert again.nearest_distance == result.memory.nearest_distance


def _as_earlier_form(state: DictState, scope: str, revision: int, memory: ScopeMemory) -> None:
    """The scope's records as the earlier form kept them: one index with every id, the
    active order and the distances; fact records without order or distance."""
    for key in [k for k in state.data if "|ids|" in k]:
        del state.data[key]
    for fact_id, fact in memory.facts.items():
        vector = base64.b64encode(memory.vectors[fact_id].astype(np.float32).tobytes())
        record = {"fact": fact.model_dump(mode="json"), "vector": vector.decode("ascii")}
        state.data[f"gate|{scope}|fact|{fact_id}"] = json.dumps(record).encode()
    index = {
        "revision": revision,
        "facts": sorted(memory.facts),
        "active": list(memory.active),
        "distances": memory.nearest_distance,
    }
    state.data[f"gate|{scope}|index"] = json.dumps(index).encode()


def test_a_later_version_never_changes_an_earlier_one() -> None:
    rng = np.random.default_rng(3)
    base = ScopeMemory()
    for i in range(5):
        base = derive_fact_changes(
            turn(f"t{i}", minute=i), [_candidate(i, rng)], base, GateConfig(), "test/1"
        ).memory
    matrix, distances = base.matrix.copy(), dict(base.nearest_distance)
    left = derive_fact_changes(turn("l"), [_candidate(7, rng)], base, GateConfig(), "test/1")
    right = derive_fact_changes(turn("r"), [_candidate(8, rng)], base, GateConfig(), "test/1")
    assert np.array_equal(base.similarities(base.matrix[0]), matrix @ matrix[0])
    assert base.nearest_distance == distances and len(base) == 5
    left_row = left.memory.similarities(left.memory.matrix[-1])
    right_row = right.memory.similarities(right.memory.matrix[-1])
    assert len(left.memory) == len(right.memory) == 6
    assert not np.array_equal(left_row, right_row)
