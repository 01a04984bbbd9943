"""The gate's memory survives persistence exactly (row order and distances included)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from provmem.core.claim import Claim, Slot
from provmem.core.events import Fact
from provmem.core.facts.attribute_similarity import attribute_parts
from provmem.core.facts.gate import GateConfig
from provmem.core.facts.memory_state import AttributeVectors, ScopeMemory, as_unit
from provmem.core.stages import Candidate, derive_fact_changes
from provmem.infra.crypto.envelope import EvidenceSealer
from provmem.infra.crypto.sealing import SealedGateState, ViewSealer
from provmem.infra.stores.bulk_state import PerKeyBulkState
from provmem.infra.stores.embedded import EmbeddedKeyStore, EmbeddedStateStore, EmbeddedStores
from provmem.streams.gate_store import FactVersion, GateStore
from tests.factories import DictState, turn


async def test_saved_memory_restores_identically() -> None:
    state, rng = DictState(), np.random.default_rng(3)
    store = GateStore(PerKeyBulkState(state))
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
    fresh = GateStore(PerKeyBulkState(state))
    loaded_revision, loaded = await fresh.load(turn("x").scope.key, {})
    assert loaded_revision == revision
    assert loaded.active == memory.active and loaded.nearest_distance == memory.nearest_distance
    assert np.array_equal(loaded.matrix, memory.matrix)
    assert dict(loaded.facts) == dict(memory.facts)
    assert await fresh.seen(turn("x").scope.key, turn("t3").evidence_id, {})


async def _saved(state: DictState, turns: int) -> tuple[int, ScopeMemory]:
    """``turns`` turns through the gate, each saved as the derive stage saves it."""
    store, rng = GateStore(PerKeyBulkState(state)), np.random.default_rng(5)
    memory, revision = ScopeMemory(), 0
    for i in range(turns):
        t = turn(f"t{i}", minute=i)
        text = f"Fact number {i} is here."
        candidate = Candidate(Claim(text, ((0, len(text)),)), as_unit(rng.standard_normal(16)))
        result = derive_fact_changes(t, [candidate], memory, GateConfig(), "test/1")
        for key, value in store.dump(
            t.scope.key, revision, memory, result.memory, t.evidence_id
        ).items():
            await state.save(key, value)
        memory, revision = result.memory, revision + 1
    return revision, memory


def one_fact() -> Fact:
    t = turn("t0")
    candidate = Candidate(Claim("Alice lives in Lisbon.", ((0, 22),)), as_unit(np.ones(16)))
    result = derive_fact_changes(t, [candidate], ScopeMemory(), GateConfig(), "test/1")
    return next(iter(result.memory.facts.values()))


async def test_versions_cold_and_cached_match_the_memory() -> None:
    state = DictState()
    revision, memory = await _saved(state, 12)
    scope = turn("x").scope.key
    facts = sorted(memory.facts.values(), key=lambda f: f.fact_id)
    wanted = [FactVersion(f.fact_id, f.scope, f.version) for f in facts]
    cold = GateStore(PerKeyBulkState(state))
    cold_revision, found = await cold.versions(scope)
    assert cold_revision == revision and sorted(found, key=lambda v: v.fact_id) == wanted
    await cold.load(scope, {})
    cached_revision, cached = await cold.versions(scope)
    assert cached_revision == revision and sorted(cached, key=lambda v: v.fact_id) == wanted


async def test_versions_extracted_by_sqlite_match_the_decoded_ones(tmp_path: Path) -> None:
    from provmem.infra.stores.embedded import EmbeddedStateStore, EmbeddedStores

    state, stores = DictState(), EmbeddedStores(tmp_path / "views.db")
    await _saved(state, 12)
    sqlite = EmbeddedStateStore(stores)
    for key, value in state.data.items():
        await sqlite.save(key, value)
    scope = turn("x").scope.key
    decoded = await GateStore(PerKeyBulkState(state)).versions(scope)
    assert await GateStore(sqlite).versions(scope) == decoded
    await stores.close()


async def test_clear_leaves_an_empty_memory_at_the_next_revision() -> None:
    state = DictState()
    revision, memory = await _saved(state, 5)
    scope = turn("x").scope.key
    store = GateStore(PerKeyBulkState(state))
    seen = [turn(f"t{i}").evidence_id for i in range(5)]
    await store.clear(scope, revision, sorted(memory.facts), seen)
    assert list(state.data) == [f"gate|{scope}|index"]
    for fresh in (store, GateStore(PerKeyBulkState(state))):
        loaded_revision, loaded = await fresh.load(scope, {})
        assert loaded_revision == revision + 1 and not loaded.facts
        assert not await fresh.seen(scope, seen[0], {})


async def test_clear_on_sqlite_swaps_the_records_in_one_go(tmp_path: Path) -> None:
    from provmem.infra.stores.embedded import EmbeddedStateStore, EmbeddedStores

    state, stores = DictState(), EmbeddedStores(tmp_path / "views.db")
    revision, memory = await _saved(state, 5)
    sqlite = EmbeddedStateStore(stores)
    for key, value in state.data.items():
        await sqlite.save(key, value)
    scope = turn("x").scope.key
    seen = [turn(f"t{i}").evidence_id for i in range(5)]
    await GateStore(sqlite).clear(scope, revision, sorted(memory.facts), seen)
    assert await sqlite.keys_with_prefix("gate|") == [f"gate|{scope}|index"]
    loaded_revision, loaded = await GateStore(sqlite).load(scope, {})
    assert loaded_revision == revision + 1 and not loaded.facts
    await stores.close()


def _with_attribute() -> tuple[ScopeMemory, str]:
    """One fact whose open reading's attribute phrase was embedded (three parts)."""
    rng = np.random.default_rng(11)
    parts = {p: as_unit(rng.standard_normal(16)) for p in attribute_parts("worker ram")}
    slot = Slot("alice", "worker ram", "900 mb")
    text = "Each worker uses 900MB of RAM."
    claim = Claim(text, ((0, len(text)),), slot=slot)
    candidate = Candidate(claim, as_unit(np.ones(16)), AttributeVectors("worker ram", parts))
    result = derive_fact_changes(turn("t0"), [candidate], ScopeMemory(), GateConfig(), "test/1")
    return result.memory, turn("t0").scope.key


async def test_attribute_vectors_survive_persistence_to_float16_precision() -> None:
    state = DictState()
    memory, scope = _with_attribute()
    for key, value in (
        GateStore(PerKeyBulkState(state)).dump(scope, 0, ScopeMemory(), memory, "t0").items()
    ):
        await state.save(key, value)
    _, loaded = await GateStore(PerKeyBulkState(state)).load(scope, {})
    (fact_id,) = memory.facts
    saved, restored = memory.attributes[fact_id], loaded.attributes[fact_id]
    assert restored.phrase == "worker ram" and set(restored.parts) == set(saved.parts)
    for part, vector in saved.parts.items():
        assert restored.parts[part].dtype == np.float32
        assert np.allclose(restored.parts[part], vector, atol=1e-3)


async def test_attribute_phrases_are_sealed_at_rest(tmp_path: Path) -> None:
    stores, keys = EmbeddedStores(tmp_path / "views.db"), EmbeddedStores(tmp_path / "keys.db")
    plain = EmbeddedStateStore(stores)
    sealed = SealedGateState(
        plain, ViewSealer(EvidenceSealer(os.urandom(32), EmbeddedKeyStore(keys)))
    )
    memory, scope = _with_attribute()
    store = GateStore(sealed)
    await sealed.replace_many([], store.dump(scope, 0, ScopeMemory(), memory, "t0"))
    (fact_id,) = memory.facts
    _, loaded = await GateStore(sealed).load(scope, {})
    assert loaded.attributes[fact_id].phrase == "worker ram"
    await stores.close()
    await keys.close()
    at_rest = b"".join(f.read_bytes() for f in tmp_path.iterdir() if f.is_file())
    assert at_rest  # the store's files
    assert b"worker ram" not in at_rest and fact_id.encode() not in at_rest


class _KilledAfter(DictState):
    """A state store whose process dies after ``deletes`` more deletes."""

    def __init__(self, data: dict[str, bytes], deletes: int) -> None:
        super().__init__()
        self.data, self.left = data, deletes

    async def delete(self, key: str) -> None:
        if self.left == 0:
            raise SystemExit("killed")
        self.left -= 1
        await super().delete(key)


async def test_an_erasure_retried_after_a_clear_killed_midway_clears_the_rest() -> None:
    """A worker killed inside a subject erasure's clear (its faust table deletes one key
    at a time, the index last) left an index naming deleted records; the retry read the
    versions, failed with LookupError ("id page 0 is missing") and the derive agent
    crash-looped. Now the retry skips what is gone and clears the rest."""
    scope = turn("x").scope.key
    for killed_at in (0, 70, 140, 141):  # among the fact records, then at each id page
        state = DictState()
        revision, memory = await _saved(state, 140)  # two pages of ids
        store = GateStore(PerKeyBulkState(_KilledAfter(state.data, killed_at)))
        _, versions = await store.versions(scope)
        try:
            await store.clear(scope, revision, [v.fact_id for v in versions], [])
        except SystemExit:
            pass
        retry = GateStore(PerKeyBulkState(state))
        revision, versions = await retry.versions(scope)
        await retry.clear(scope, revision, [v.fact_id for v in versions], [])
        assert [k for k in state.data if "|fact|" in k or "|ids|" in k] == [], killed_at
        assert (await retry.load(scope, {}))[1].facts == {}


async def test_value_states_survive_persistence() -> None:
    from provmem.core.extraction.values import ValueKind, ValueReading
    from provmem.core.facts.value_state import SaidValue

    state = DictState()
    store = GateStore(PerKeyBulkState(state))
    reading = ValueReading("Alice", "prints sold", "4", ValueKind.COUNT, "4", "I sold 4.", 7, 8)
    said = SaidValue(reading, as_unit(np.ones(16)), as_unit(np.arange(16.0)), as_unit(np.ones(16)))
    t = turn("t0")
    result = derive_fact_changes(t, [], ScopeMemory(), GateConfig(), "test/1", said=[said])
    for key, value in store.dump(
        t.scope.key, 0, ScopeMemory(), result.memory, t.evidence_id
    ).items():
        await state.save(key, value)
    _, loaded = await GateStore(PerKeyBulkState(state)).load(t.scope.key, {})
    (fact_id,) = loaded.value_facts
    (kept,) = loaded.values[fact_id]
    (saved,) = result.memory.values[fact_id]
    assert (kept.holder, kept.attribute, kept.value, kept.group) == (
        "Alice",
        "prints sold",
        "4",
        "amount",
    )
    assert kept.evidence_id == t.evidence_id and kept.at == t.captured_at
    assert np.allclose(kept.context_vector, saved.context_vector, atol=1e-3)
