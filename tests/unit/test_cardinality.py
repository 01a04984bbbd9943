"""An attribute's cardinality: one value at a time, or many side by side, and the gate
keeping or superseding by it (pure code, hand-made vectors)."""

from __future__ import annotations

import pytest

from provmem.core.claim import Slot
from provmem.core.events import FactOp, FactStatus
from provmem.core.facts.memory_state import Cardinality, ScopeMemory, cardinality, slot_key
from provmem.core.stages import Candidate
from tests.unit.test_gate import claim, near, run, vec


@pytest.mark.parametrize("attribute", ["lives_in", "works_at", "job", "diet", "moved_to"])
def test_a_rules_single_valued_attribute_holds_one_value(attribute: str) -> None:
    assert cardinality(attribute) is Cardinality.ONE


@pytest.mark.parametrize("attribute", ["likes", "hobby", "has_pet", "favorite_color"])
def test_a_rules_other_attribute_holds_many_values(attribute: str) -> None:
    assert cardinality(attribute) is Cardinality.MANY


@pytest.mark.parametrize("attribute", ["response time", "docker image size", "ci run"])
def test_an_open_attribute_holds_one_value(attribute: str) -> None:
    assert cardinality(attribute) is Cardinality.ONE


@pytest.mark.parametrize("attribute", ["lives_in", "likes", "response time", "moved_to"])
def test_the_slot_key_names_the_value_only_of_a_many_valued_attribute(attribute: str) -> None:
    key = slot_key("alice", attribute, "porto")
    assert key.endswith("=porto") is (cardinality(attribute) is Cardinality.MANY)


def test_the_gate_keeps_two_values_of_a_many_valued_attribute() -> None:
    jazz, rock = Slot("alice", "likes", "jazz"), Slot("alice", "likes", "rock")
    first = run(ScopeMemory(), "t1", Candidate(claim("Alice likes jazz.", jazz), vec(1)))
    result = run(first.memory, "t2", Candidate(claim("Alice likes rock.", rock), near(vec(1), 0.8)))
    assert [c.op for c in result.changes] == [FactOp.ADD]
    assert len(result.memory.active) == 2


def test_the_gate_supersedes_the_value_of_a_one_valued_attribute() -> None:
    lisbon, porto = Slot("alice", "lives_in", "lisbon"), Slot("alice", "lives_in", "porto")
    first = run(ScopeMemory(), "t1", Candidate(claim("Alice lives in Lisbon.", lisbon), vec(1)))
    result = run(
        first.memory, "t2", Candidate(claim("Alice lives in Porto.", porto), near(vec(1), 0.8))
    )
    old, new = result.changes
    assert old.fact is not None and old.fact.status is FactStatus.SUPERSEDED
    assert result.memory.active == (new.fact_id,)
