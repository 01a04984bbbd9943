"""A change acts on every active fact of the holder that still states the old value."""

from __future__ import annotations

from provmem.core.events import FactStatus
from provmem.core.facts.memory_state import ScopeMemory
from provmem.core.stages import Candidate
from tests.unit.test_gate import near, run, vec
from tests.unit.test_value_changes import said


def _status(memory: ScopeMemory, statement: str) -> FactStatus:
    return next(f.status for f in memory.facts.values() if f.statement == statement)


def _after(first: tuple[str, ...], later: str) -> ScopeMemory:
    said_first = [Candidate(said(s), vec(*[0.0] * i, 1)) for i, s in enumerate(first)]
    memory = run(ScopeMemory(), "t1", *said_first).memory
    return run(memory, "t2", Candidate(said(later), near(vec(1), 0.9)), minute=5).memory


def test_a_corrected_name_supersedes_each_fact_of_the_holder_that_states_the_old_name() -> None:
    first = (
        "Alice's dog is called Biscuit.",
        "Alice walks Biscuit by the canal.",
        "Bob's parrot is called Biscuit.",
    )
    memory = _after(first, "Correction: Alice's dog is called Muffin, not Biscuit.")
    assert _status(memory, "Alice's dog is called Biscuit.") is FactStatus.SUPERSEDED
    assert _status(memory, "Alice walks Biscuit by the canal.") is FactStatus.SUPERSEDED
    assert _status(memory, "Bob's parrot is called Biscuit.") is FactStatus.ACTIVE
    assert _status(memory, "Correction: Alice's dog is called Muffin, not Biscuit.") is (
        FactStatus.ACTIVE
    )


def test_a_changed_count_leaves_other_facts_with_the_same_number_alone() -> None:
    memory = _after(
        ("Alice's team is 4 people.", "Alice has 4 cats."), "Alice's team is now 6 people."
    )
    assert _status(memory, "Alice has 4 cats.") is FactStatus.ACTIVE
