from provmem.core.events import FactOp, FactStatus
from provmem.core.gate import GateState
from provmem.core.stages import derive_fact_changes
from tests.factories import turn


def test_first_turn_adds_one_fact_per_claim_with_provenance() -> None:
    t1 = turn("t1")
    state, changes = derive_fact_changes(t1, "I moved to Lisbon. I love jazz music.", GateState())
    assert [c.op for c in changes] == [FactOp.ADD, FactOp.ADD]
    for change in changes:
        assert change.fact is not None
        assert change.fact.evidence_ids == (t1.evidence_id,)
        assert change.fact.status is FactStatus.ACTIVE
        assert change.fact.extraction_version
    assert len(state.facts) == 2


def test_identical_facts_back_to_back_give_add_then_noop_with_corroboration() -> None:
    t1, t2 = turn("t1"), turn("t2", minute=1)
    state, first = derive_fact_changes(t1, "I moved to Lisbon.", GateState())
    state, second = derive_fact_changes(t2, "I moved to Lisbon.", state)
    assert [c.op for c in first + second] == [FactOp.ADD, FactOp.NOOP]
    noop = second[0]
    assert noop.fact_id == first[0].fact_id
    assert noop.version == 2
    assert noop.fact is not None and noop.fact.evidence_ids == (t1.evidence_id, t2.evidence_id)


def test_redelivered_turn_changes_nothing() -> None:
    t1 = turn("t1")
    state, _ = derive_fact_changes(t1, "I moved to Lisbon.", GateState())
    again, changes = derive_fact_changes(t1, "I moved to Lisbon.", state)
    assert changes == []
    assert again == state


def test_scopes_do_not_share_gate_state() -> None:
    state_a, _ = derive_fact_changes(turn("t1", scope="a/p/u1"), "I moved to Lisbon.", GateState())
    _, changes = derive_fact_changes(turn("t1", scope="b/p/u1"), "I moved to Lisbon.", GateState())
    assert changes[0].op is FactOp.ADD
    assert all(f.scope.key == "a/p/u1" for f in state_a.facts.values())


def test_derivation_is_deterministic() -> None:
    t1 = turn("t1")
    _, once = derive_fact_changes(t1, "I moved to Lisbon. I love jazz.", GateState())
    _, twice = derive_fact_changes(t1, "I moved to Lisbon. I love jazz.", GateState())
    assert once == twice


def test_state_round_trips_through_bytes() -> None:
    state, _ = derive_fact_changes(turn("t1"), "I moved to Lisbon.", GateState())
    assert GateState.from_bytes(state.to_bytes()) == state
