"""The novelty gate and the stage around it, on hand-made vectors (pure code, no model)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from provmem.core.claim import Claim, Slot
from provmem.core.events import FactOp, FactStatus
from provmem.core.facts.decision_reason import ReasonKind
from provmem.core.facts.gate import GateConfig, Verdict, adaptive_threshold, decide, novelty
from provmem.core.facts.memory_state import ScopeMemory, as_unit
from provmem.core.stages import Candidate, derive_fact_changes
from tests.factories import turn

CONFIG = GateConfig()
DIM = 8


def vec(*weights: float) -> np.ndarray:
    return as_unit([*weights, *[0.0] * (DIM - len(weights))])


def near(base: np.ndarray, angle_cos: float) -> np.ndarray:
    """A unit vector whose cosine with ``base`` is ``angle_cos`` (base must be axis 0)."""
    return vec(angle_cos, math.sqrt(1 - angle_cos**2))


def claim(statement: str, slot: Slot | None = None, **extra: object) -> Claim:
    return Claim(statement=statement, spans=((0, len(statement)),), slot=slot, **extra)  # type: ignore[arg-type]


def run(memory: ScopeMemory, turn_id: str, *candidates: Candidate, minute: int = 0):  # type: ignore[no-untyped-def]
    return derive_fact_changes(
        turn(turn_id, minute=minute), list(candidates), memory, CONFIG, "test/1"
    )


LISBON = Slot("alice", "lives_in", "lisbon")
PORTO = Slot("alice", "lives_in", "porto")


def test_empty_store_adds() -> None:
    result = run(ScopeMemory(), "t1", Candidate(claim("Alice lives in Lisbon."), vec(1)))
    assert [c.op for c in result.changes] == [FactOp.ADD]
    assert result.decisions[0].reason.kind is ReasonKind.STORE_EMPTY
    assert result.changes[0].reason == "store empty"


def test_identical_back_to_back_is_add_then_noop_with_corroboration() -> None:
    first = run(ScopeMemory(), "t1", Candidate(claim("Alice lives in Lisbon."), vec(1)))
    second = run(first.memory, "t2", Candidate(claim("Alice lives in Lisbon."), vec(1)), minute=1)
    (noop,) = second.changes
    assert noop.op is FactOp.NOOP and noop.fact_id == first.changes[0].fact_id
    assert noop.fact is not None and len(noop.fact.evidence_ids) == 2
    assert noop.fact.confidence > first.changes[0].fact.confidence  # type: ignore[union-attr]


def test_a_paraphrase_close_enough_is_a_noop() -> None:
    first = run(ScopeMemory(), "t1", Candidate(claim("Alice lives in Lisbon."), vec(1)))
    result = run(
        first.memory, "t2", Candidate(claim("Alice's home is Lisbon."), near(vec(1), 0.93))
    )
    assert result.changes[0].op is FactOp.NOOP


def test_unrelated_is_added() -> None:
    first = run(ScopeMemory(), "t1", Candidate(claim("Alice lives in Lisbon."), vec(1)))
    result = run(first.memory, "t2", Candidate(claim("Alice plays cello."), vec(0, 0, 1)))
    assert result.changes[0].op is FactOp.ADD and len(result.memory) == 2


def test_new_value_of_a_single_valued_slot_supersedes() -> None:
    first = run(ScopeMemory(), "t1", Candidate(claim("Alice lives in Lisbon.", LISBON), vec(1)))
    result = run(
        first.memory, "t2", Candidate(claim("Alice lives in Porto.", PORTO), near(vec(1), 0.95))
    )
    old, new = result.changes
    assert old.op is new.op is FactOp.UPDATE
    assert old.fact is not None and new.fact is not None
    assert old.fact.status is FactStatus.SUPERSEDED and old.fact.superseded_by == new.fact_id
    assert new.fact.supersedes == old.fact_id and new.fact.status is FactStatus.ACTIVE
    assert result.memory.active == (new.fact_id,)


def test_another_value_of_a_multi_valued_slot_is_kept_apart() -> None:
    jazz, rock = Slot("alice", "likes", "jazz"), Slot("alice", "likes", "rock")
    first = run(ScopeMemory(), "t1", Candidate(claim("Alice likes jazz.", jazz), vec(1)))
    result = run(first.memory, "t2", Candidate(claim("Alice likes rock.", rock), near(vec(1), 0.8)))
    assert [c.op for c in result.changes] == [FactOp.ADD]
    assert len(result.memory) == 2


def test_negation_of_a_known_slot_value_supersedes() -> None:
    meat = Slot("alice", "likes", "meat")
    first = run(ScopeMemory(), "t1", Candidate(claim("Alice likes meat.", meat), vec(1)))
    result = run(
        first.memory,
        "t2",
        Candidate(
            claim("Alice no longer likes meat.", meat, negated=True, correction=True),
            near(vec(1), 0.9),
        ),
    )
    old, new = result.changes
    assert old.fact is not None and old.fact.status is FactStatus.SUPERSEDED
    assert new.fact is not None and new.fact.negated


def test_near_duplicate_with_other_numbers_is_not_a_noop() -> None:
    first = run(ScopeMemory(), "t1", Candidate(claim("Alice has 2 dogs."), vec(1)))
    result = run(first.memory, "t2", Candidate(claim("Alice has 3 dogs."), near(vec(1), 0.97)))
    assert result.changes[0].op is not FactOp.NOOP


def test_same_slot_and_value_with_detail_in_the_band_merges() -> None:
    first = run(
        ScopeMemory(),
        "t1",
        Candidate(claim("Alice works at Globex.", Slot("alice", "works_at", "globex")), vec(1)),
    )
    detailed = claim(
        "Alice works at Globex as a senior welder.", Slot("alice", "works_at", "globex")
    )
    result = run(first.memory, "t2", Candidate(detailed, near(vec(1), 0.82)))
    (merged,) = result.changes
    assert merged.op is FactOp.UPDATE and merged.fact is not None
    assert merged.fact.statement == detailed.statement and len(merged.fact.evidence_ids) == 2


def test_unvalidated_claim_needs_review_and_stays_out_of_the_active_set() -> None:
    result = run(
        ScopeMemory(),
        "t1",
        Candidate(claim("Alice owns a yacht.", review_reason="untraceable: yacht"), vec(1)),
    )
    (change,) = result.changes
    assert change.fact is not None and change.fact.status is FactStatus.NEEDS_REVIEW
    assert change.fact.review_reason == "untraceable: yacht"
    assert len(result.memory) == 0


def test_a_tentative_new_slot_value_waits_for_review_instead_of_superseding() -> None:
    first = run(ScopeMemory(), "t1", Candidate(claim("Alice lives in Lisbon.", LISBON), vec(1)))
    hedged = claim("Alice thinks Alice lives in Porto.", PORTO, hedge="i think")
    result = run(first.memory, "t2", Candidate(hedged, near(vec(1), 0.95)))
    (change,) = result.changes
    assert result.decisions[0].verdict is Verdict.REVIEW
    assert change.op is FactOp.ADD and change.fact is not None
    assert change.fact.status is FactStatus.NEEDS_REVIEW
    assert change.fact.review_reason == (
        f"tentative ('i think') value would supersede {first.changes[0].fact_id}"
    )
    assert result.memory.active == first.memory.active  # Lisbon stays the belief


def test_a_tentative_claim_without_a_conflict_is_added_as_usual() -> None:
    hedged = claim("Alice thinks Alice lives in Porto.", PORTO, hedge="i think")
    result = run(ScopeMemory(), "t1", Candidate(hedged, vec(1)))
    assert result.decisions[0].verdict is Verdict.ADD
    assert result.changes[0].fact.status is FactStatus.ACTIVE  # type: ignore[union-attr]


class CountingAdvisor:
    def __init__(self) -> None:
        self.calls = 0

    def advise(self, claim: Claim, neighbour: object) -> Verdict | None:
        self.calls += 1
        return Verdict.NOOP


def test_merge_advisor_is_called_only_in_the_uncertain_band() -> None:
    advisor = CountingAdvisor()
    memory = run(ScopeMemory(), "t1", Candidate(claim("Alice likes jazz."), vec(1))).memory
    for cosine in (1.0, 0.2):
        decide(memory, claim("x y z."), near(vec(1), cosine), CONFIG, advisor)
    assert advisor.calls == 0
    decision = decide(memory, claim("x y z."), near(vec(1), 0.83), CONFIG, advisor)
    assert advisor.calls == 1 and decision.advised and decision.verdict is Verdict.NOOP


def test_novelty_is_the_cosine_distance_to_a_lone_neighbour() -> None:
    memory = run(ScopeMemory(), "t1", Candidate(claim("Alice likes jazz."), vec(1))).memory
    found = novelty(memory, near(vec(1), 0.7), CONFIG)
    assert found.score == pytest.approx(0.3, abs=1e-5) and found.similarity == pytest.approx(0.7)


def test_many_near_neighbours_lower_novelty() -> None:
    one = ScopeMemory().put(_fact("a"), near(vec(1), 0.8))
    many = one.put(_fact("b"), vec(0.8, 0, 0.6)).put(_fact("c"), vec(0.8, 0, 0, 0.6))
    probe = vec(1)
    assert novelty(many, probe, CONFIG).score < novelty(one, probe, CONFIG).score


def test_threshold_tightens_in_a_dense_store() -> None:
    rng = np.random.default_rng(7)
    base = vec(1)
    memory = ScopeMemory()
    for i in range(12):
        memory = memory.put(_fact(f"f{i}"), as_unit(base + 0.05 * rng.standard_normal(DIM)))
    assert adaptive_threshold(memory, CONFIG) < CONFIG.threshold
    sparse = ScopeMemory()
    for i in range(DIM):
        sparse = sparse.put(_fact(f"s{i}"), vec(*[0.0] * i, 1.0))
    assert adaptive_threshold(sparse, CONFIG) == CONFIG.threshold


def _fact(fact_id: str):  # type: ignore[no-untyped-def]
    result = run(ScopeMemory(), fact_id, Candidate(claim(f"Fact {fact_id} here."), vec(1)))
    return result.changes[0].fact.model_copy(update={"fact_id": fact_id})  # type: ignore[union-attr]


def test_moving_somewhere_else_supersedes_where_one_lived() -> None:
    paris = claim("Alice lives in Paris.", Slot("alice", "lives_in", "paris"))
    berlin = claim("Alice moved to Berlin.", Slot("alice", "moved_to", "berlin"))
    first = run(ScopeMemory(), "t1", Candidate(paris, vec(1)))
    result = run(first.memory, "t2", Candidate(berlin, vec(0.6, 0.8)))
    old, new = result.changes
    assert old.fact is not None and old.fact.status is FactStatus.SUPERSEDED
    assert new.fact is not None and new.fact.supersedes == old.fact_id


class SilentAdvisor:
    def __init__(self) -> None:
        self.calls = 0

    def advise(self, claim: Claim, neighbour: object) -> Verdict | None:
        self.calls += 1
        return None


def test_an_advisor_that_abstains_is_still_counted_and_the_rules_decide() -> None:
    advisor = SilentAdvisor()
    memory = run(ScopeMemory(), "t1", Candidate(claim("Alice likes jazz."), vec(1))).memory
    decision = decide(memory, claim("x y z."), near(vec(1), 0.83), CONFIG, advisor)
    assert advisor.calls == 1 and decision.advised and decision.verdict is Verdict.ADD
