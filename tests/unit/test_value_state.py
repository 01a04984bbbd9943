"""Value state across turns (core/facts/value_state.py through core/stages.py): pure code,
hand-made readings and vectors."""

from __future__ import annotations

from datetime import timedelta

import numpy as np

from provmem.core.events import VALUE_STATE, FactStatus
from provmem.core.extraction.values import ValueKind, ValueReading
from provmem.core.facts.memory_state import ScopeMemory, as_unit
from provmem.core.facts.value_state import SaidValue, states
from provmem.core.stages import Candidate, GateResult, derive_fact_changes
from tests.factories import turn
from tests.unit.test_gate import CONFIG, claim

DIM = 64


def axis(k: int) -> np.ndarray:
    """A unit vector of its own per ``k`` (orthogonal to every other ``k`` below DIM)."""
    return as_unit([1.0 if i == k % DIM else 0.0 for i in range(DIM)])


def reading(
    attribute: str, said: str, kind: ValueKind = ValueKind.COUNT, **more: object
) -> ValueReading:
    fields: dict[str, object] = {
        "holder": "Alice", "attribute": attribute, "value": said.lower().replace("$", ""),
        "kind": kind, "said": said, "context": f"... {said} ...", "start": 0, "end": 1,
    }  # fmt: skip
    fields.update(more)
    return ValueReading(**fields)  # type: ignore[arg-type]


def told(
    memory: ScopeMemory,
    turn_id: str,
    value: ValueReading,
    attribute: int,
    *statements: str,
    day: int = 0,
) -> GateResult:
    """A turn of Alice's stating ``statements`` (as claims) and the one value."""
    candidates = [
        Candidate(claim(s), axis(10 + 5 * int(turn_id[1:]) + k)) for k, s in enumerate(statements)
    ]
    said = SaidValue(value, axis(attribute), axis(0), axis(40 + int(turn_id[1:])))
    at = turn(turn_id, minute=day * 24 * 60)
    return derive_fact_changes(at, candidates, memory, CONFIG, "test/1", said=[said])


def facts(result: GateResult) -> dict[str, tuple[FactStatus, str | None, tuple[str, ...]]]:
    return {
        f.statement: (f.status, f.supersedes, f.conflicts_with)
        for f in result.memory.facts.values()
    }


def test_a_value_inside_a_question_stands_as_a_state_record_and_a_later_one_supersedes_it() -> None:
    first = told(ScopeMemory(), "t1", reading("prints sold", "2"), 1)
    assert list(facts(first)) == ["Alice's prints sold is 2."]
    (record,) = first.memory.facts.values()
    assert VALUE_STATE in record.signals  # recall keeps its turn raw evidence beside it
    later = told(first.memory, "t2", reading("prints sold", "4"), 1, day=8)
    found = facts(later)
    old = next(f for f in later.memory.facts.values() if f.statement.endswith("is 2."))
    assert found["Alice's prints sold is 2."][0] is FactStatus.SUPERSEDED
    assert found["Alice's prints sold is 4."] == (FactStatus.ACTIVE, old.fact_id, ())


def test_an_update_takes_the_fact_stating_the_new_value_and_retires_every_old_one() -> None:
    first = told(
        ScopeMemory(), "t1", reading("employer", "Mercy Hospital", ValueKind.NAME), 2,
        "Alice works at Mercy Hospital.", "Alice's shifts at Mercy Hospital are long.",
    )  # fmt: skip
    assert len(first.memory.active) == 2  # both carry the value: no state record
    later = told(
        first.memory, "t2",
        reading("employer", "Swedish Medical Center", ValueKind.NAME, changed=True), 2,
        "Alice now works at Swedish Medical Center.",
    )  # fmt: skip
    found = facts(later)
    assert found["Alice works at Mercy Hospital."][0] is FactStatus.SUPERSEDED
    assert found["Alice's shifts at Mercy Hospital are long."][0] is FactStatus.SUPERSEDED
    status, predecessor, _ = found["Alice now works at Swedish Medical Center."]
    assert status is FactStatus.ACTIVE and predecessor is not None
    assert "Mercy Hospital" in later.memory.facts[predecessor].statement


def test_a_different_attribute_is_left_alone() -> None:
    first = told(ScopeMemory(), "t1", reading("prints sold", "2"), 1)
    later = told(first.memory, "t2", reading("reading list titles", "30"), 5, day=3)
    assert all(status is FactStatus.ACTIVE for status, _, _ in facts(later).values())


def test_the_same_value_again_changes_nothing() -> None:
    first = told(ScopeMemory(), "t1", reading("budget", "$500", ValueKind.MONEY), 1)
    later = told(first.memory, "t2", reading("budget", "$500", ValueKind.MONEY), 1, day=2)
    assert all(status is FactStatus.ACTIVE for status, _, _ in facts(later).values())
    assert all(sup is None for _, sup, _ in facts(later).values())


def test_another_value_in_the_same_session_without_a_change_cue_is_a_conflict() -> None:
    first = told(ScopeMemory(), "t1", reading("daughter age", "7"), 1)
    later = told(first.memory, "t2", reading("daughter age", "9"), 1)
    found = facts(later)
    seven, nine = found["Alice's daughter age is 7."], found["Alice's daughter age is 9."]
    assert seven[0] is nine[0] is FactStatus.ACTIVE
    assert seven[2] and nine[2]  # linked both ways
    changed = told(first.memory, "t2", reading("daughter age", "9", changed=True), 1)
    assert facts(changed)["Alice's daughter age is 7."][0] is FactStatus.SUPERSEDED


def test_another_holders_value_is_not_the_speakers() -> None:
    first = told(ScopeMemory(), "t1", reading("rent", "$900", ValueKind.MONEY), 1)
    sister = reading("rent", "$1,900", ValueKind.MONEY, holder="sister", changed=True)
    later = told(first.memory, "t2", sister, 1, day=1)
    assert all(status is FactStatus.ACTIVE for status, _, _ in facts(later).values())


def test_a_value_is_stated_as_a_whole_number_or_whole_words() -> None:
    assert states("Alice has sold 4 prints.", "4")
    assert not states("Alice has sold 14 prints.", "4")
    assert not states("The ratio is 4.5.", "4")
    assert states("Alice works at Mercy  Hospital.", "mercy hospital")
    assert not states("Alice works at Mercyhospitals.", "mercy hospital")


def test_a_later_session_counts_as_a_change_over_time() -> None:
    assert timedelta(days=1)  # the rule: values said a day or more apart are an update
    first = told(ScopeMemory(), "t1", reading("daughter age", "7"), 1, "Alice's daughter is 7.")
    later = told(
        first.memory, "t2", reading("daughter age", "8"), 1, "Alice's daughter is 8.", day=400
    )
    assert facts(later)["Alice's daughter is 7."][0] is FactStatus.SUPERSEDED


def test_a_change_retires_the_old_value_of_that_attribute_only() -> None:
    kids = told(ScopeMemory(), "t1", reading("kids", "2"), 7, "Alice has 2 kids.")
    prints = told(kids.memory, "t2", reading("prints sold", "2"), 1, "Alice has sold 2 prints.")
    later = told(prints.memory, "t3", reading("prints sold", "4", changed=True), 1, day=3)
    found = facts(later)
    assert found["Alice has sold 2 prints."][0] is FactStatus.SUPERSEDED
    assert found["Alice has 2 kids."][0] is FactStatus.ACTIVE  # 2 kids is no old "prints sold"


def test_a_value_said_inside_a_tentative_claim_changes_nothing() -> None:
    """ "I think I live in Berlin now": the claim waits for review, and so does its value
    (no state record, the old value stays active)."""
    first = told(ScopeMemory(), "t1", reading("home city", "Paris", ValueKind.NAME), 3)
    hedged = claim("Alice thinks she lives in Berlin now.", hedge="I think", review_reason="x")
    said = SaidValue(reading("home city", "Berlin", ValueKind.NAME), axis(3), axis(0), axis(42))
    at = turn("t2", minute=8 * 24 * 60)
    later = derive_fact_changes(
        at, [Candidate(hedged, axis(60))], first.memory, CONFIG, "t/1", said=[said]
    )
    found = facts(later)
    assert found["Alice's home city is Paris."][0] is FactStatus.ACTIVE
    assert not [s for s in found if "Berlin" in s and "thinks" not in s], found
