"""Value-change supersession and contradictions in the gate (pure code, hand-made vectors)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from provmem.core.claim import Claim, Signal, SignalKind
from provmem.core.events import FactChanged, FactOp, FactStatus
from provmem.core.facts.decision_reason import ReasonKind
from provmem.core.facts.gate import Verdict, slotted
from provmem.core.facts.memory_state import ScopeMemory
from provmem.core.stages import Candidate
from provmem.schemas import load
from tests.unit.test_gate import claim, near, run, vec


def said(statement: str, **extra: object) -> Claim:
    """A claim of Alice's as the extractor writes it (the speaker signal included)."""
    speaker = Signal(SignalKind.SPEAKER, "I", 0, 1, "Alice")
    return claim(statement, signals=(speaker,), **extra)


def test_a_later_value_with_a_change_cue_supersedes_and_keeps_history() -> None:
    first = run(ScopeMemory(), "t1", Candidate(said("The API response time was 800ms."), vec(1)))
    later = said("The response time has recently improved to 250ms.")
    result = run(first.memory, "t2", Candidate(later, near(vec(1), 0.6)), minute=5)
    old, new = result.changes
    assert result.decisions[0].verdict is Verdict.UPDATE
    assert result.decisions[0].reason.kind is ReasonKind.VALUE_CHANGED
    assert result.decisions[0].reason.text == "new value for response time: 800 ms -> 250 ms"
    assert old.op is new.op is FactOp.UPDATE and old.fact and new.fact
    assert old.fact.status is FactStatus.SUPERSEDED and old.fact.superseded_by == new.fact_id
    assert new.fact.supersedes == old.fact_id and new.fact.slot_value == "250 ms"
    assert old.fact.evidence_ids != new.fact.evidence_ids  # each keeps its own evidence
    assert result.memory.active == (new.fact_id,)


def test_a_count_said_in_passing_updates_the_count() -> None:
    first = run(ScopeMemory(), "t1", Candidate(said("The repo has 150 commits so far."), vec(1)))
    passing = said("I pushed the fixes last night, we're at 165 commits now, and CI is green.")
    result = run(first.memory, "t2", Candidate(passing, vec(0, 1)), minute=5)
    assert result.decisions[0].verdict is Verdict.UPDATE
    assert result.changes[0].fact.status is FactStatus.SUPERSEDED  # type: ignore[union-attr]


def test_a_later_measure_replaces_the_earlier_without_a_change_cue() -> None:
    first = run(ScopeMemory(), "t1", Candidate(said("The suite has 121 tests."), vec(1)))
    later = said("The suite has 140 tests.")
    result = run(first.memory, "t2", Candidate(later, near(vec(1), 0.9)), minute=5)
    assert result.decisions[0].verdict is Verdict.UPDATE
    assert result.decisions[0].reason.kind is ReasonKind.LATER_MEASURE
    assert result.decisions[0].reason.text == "a later measure of test: 121 -> 140"


def test_a_different_value_without_a_change_cue_is_a_conflict_and_both_stay() -> None:
    first = run(ScopeMemory(), "t1", Candidate(said("The app is hosted on Heroku."), vec(1)))
    other = said("The app is hosted on Render.")
    result = run(first.memory, "t2", Candidate(other, near(vec(1), 0.9)), minute=5)
    added, linked = result.changes
    assert result.decisions[0].verdict is Verdict.CONFLICT
    assert added.op is FactOp.ADD and linked.op is FactOp.UPDATE
    assert added.fact and linked.fact
    assert added.fact.conflicts_with == (linked.fact_id,)
    assert linked.fact.conflicts_with == (added.fact_id,) and linked.version == 2
    assert "conflict" in linked.reason and added.fact_id in linked.reason
    assert set(result.memory.active) == {added.fact_id, linked.fact_id}


def test_a_negation_contradicted_later_is_a_conflict() -> None:
    never = said("Alice has never written any Flask routes in this project.", negated=True)
    first = run(ScopeMemory(), "t1", Candidate(never, vec(1)))
    doing = said("Alice is implementing the homepage route with Flask.")
    result = run(first.memory, "t2", Candidate(doing, near(vec(1), 0.62)), minute=5)
    assert result.decisions[0].verdict is Verdict.CONFLICT
    added, linked = result.changes
    assert added.fact and linked.fact and linked.fact.negated
    assert added.fact.conflicts_with == (linked.fact_id,)
    assert linked.fact.status is FactStatus.ACTIVE


def test_no_longer_doing_something_supersedes_instead_of_conflicting() -> None:
    first = run(
        ScopeMemory(), "t1", Candidate(said("Alice uses Flask routes for the API."), vec(1))
    )
    stopped = said("Alice no longer uses Flask routes for the API.", negated=True)
    result = run(first.memory, "t2", Candidate(stopped, near(vec(1), 0.9)), minute=5)
    assert result.decisions[0].verdict is Verdict.UPDATE


def test_an_idiomatic_negation_is_no_contradiction() -> None:
    first = run(ScopeMemory(), "t1", Candidate(said("Alice keeps chasing Alice's dreams."), vec(1)))
    idiom = said("Alice is never gonna give up on Alice's dreams.", negated=True)
    result = run(first.memory, "t2", Candidate(idiom, near(vec(1), 0.8)), minute=5)
    assert result.decisions[0].verdict is not Verdict.CONFLICT


def test_values_of_other_kinds_or_attributes_do_not_meet() -> None:
    first = run(ScopeMemory(), "t1", Candidate(said("The API response time was 800ms."), vec(1)))
    for statement in ("Test coverage is now 85%.", "The open issues are now 12 open issues."):
        result = run(first.memory, "t2", Candidate(said(statement), vec(0, 1)), minute=5)
        assert result.decisions[0].verdict is Verdict.ADD, statement


def test_a_tentative_new_value_waits_for_review() -> None:
    first = run(ScopeMemory(), "t1", Candidate(said("The repo has 150 commits."), vec(1)))
    hedged = said("The repo has now reached 165 commits, I think.", hedge="i think")
    result = run(first.memory, "t2", Candidate(hedged, vec(0, 1)), minute=5)
    assert result.decisions[0].verdict is Verdict.REVIEW


@dataclass(frozen=True)
class AssistantClaim(Claim):
    role: str = "assistant"


def test_what_the_assistant_asserted_does_not_supersede_the_users_fact() -> None:
    first = run(ScopeMemory(), "t1", Candidate(said("The repo has 150 commits."), vec(1)))
    theirs = AssistantClaim("The repo now has 165 commits.", ((0, 29),))
    result = run(first.memory, "t2", Candidate(theirs, vec(0, 1)), minute=5)
    (added,) = result.changes
    assert added.op is FactOp.ADD and added.fact and added.fact.asserted_by == "assistant"
    assert len(result.memory) == 2


def test_a_claim_keyed_by_a_rule_keeps_its_slot() -> None:
    ruled = slotted(claim("Alice works at Globex.", slot=None), "Alice")
    assert ruled.slot is None  # no open reading: a rule's attribute or nothing
    read = slotted(said("The repo has 150 commits."), "Alice")
    assert read.slot is not None and (read.slot.key, read.slot.value) == ("alice|commit", "150")


def test_fact_changed_v1_records_upcast_to_v2() -> None:
    v1 = load("FactChanged", 1, "example")
    change = FactChanged.model_validate_json(json.dumps(v1))
    assert change.schema_version == 2 and change.fact is not None
    assert change.fact.conflicts_with == () and change.fact.asserted_by == "user"


def test_a_worded_otherwise_value_without_a_cue_or_far_in_meaning_does_not_update() -> None:
    first = run(ScopeMemory(), "t1", Candidate(said("The pipeline needs 19 minutes."), vec(1)))
    for statement, vector in (
        ("A CI run is 8 minutes.", near(vec(1), 0.5)),  # no change cue
        ("The standup is 8 minutes now.", near(vec(1), 0.2)),  # not close in meaning
        ("The suite has 8 tests now.", near(vec(1), 0.5)),  # a count, not a duration
    ):
        result = run(first.memory, "t2", Candidate(said(statement), vector), minute=5)
        assert result.decisions[0].verdict is not Verdict.UPDATE, statement


def test_another_past_measure_without_a_cue_is_another_event() -> None:
    first = run(ScopeMemory(), "t1", Candidate(said("Alice ran 5 miles on the trail."), vec(1)))
    later = said("Alice ran 10 miles on the trail.")
    result = run(first.memory, "t2", Candidate(later, near(vec(1), 0.5)), minute=5)
    assert result.decisions[0].verdict is Verdict.ADD
    assert len(result.memory.active) == 2


def test_a_verb_that_takes_a_thing_to_a_new_date_or_place_is_a_said_change() -> None:
    planned = said("We want to open the beta on June 11.")
    first = run(ScopeMemory(), "t1", Candidate(planned, vec(1)))
    later = said("We postponed the beta to July 23.")
    result = run(first.memory, "t2", Candidate(later, near(vec(1), 0.5)), minute=5)
    assert result.decisions[0].verdict is Verdict.UPDATE
    other = said("The beta is due on July 23.")  # another date, no change said: a conflict
    result = run(first.memory, "t2", Candidate(other, near(vec(1), 0.5)), minute=5)
    assert result.decisions[0].verdict is Verdict.CONFLICT
