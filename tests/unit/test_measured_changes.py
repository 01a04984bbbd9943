"""Measured readings through the gate (pure code, hand-made vectors): an update said with
a change verb supersedes the measure it changes; two things of one head told apart by
their modifiers are never linked, not even by the guess across wording."""

from __future__ import annotations

from datetime import UTC, datetime

from provmem.core.extraction.claims import extract_claims
from provmem.core.facts.gate import Verdict
from provmem.core.facts.memory_state import ScopeMemory
from provmem.core.stages import Candidate
from tests.unit.test_gate import near, run, vec
from tests.unit.test_value_changes import said


def _after(first: str, later: str, similarity: float = 0.8) -> Verdict:
    start = run(ScopeMemory(), "t1", Candidate(said(first), vec(1)))
    result = run(start.memory, "t2", Candidate(said(later), near(vec(1), similarity)), minute=5)
    return result.decisions[0].verdict


def test_a_change_verb_that_takes_a_thing_to_a_value_supersedes_it() -> None:
    assert _after("Each pod has 512Mi of memory.", "We bumped the pods to 1Gi memory.") is (
        Verdict.UPDATE
    )
    assert _after("The p99 latency of /items is 420 ms.", "The p99 dropped to 95 ms.") is (
        Verdict.UPDATE
    )
    assert (
        _after(
            "Alice's CI runs on GitHub Actions and takes about 12 minutes.",
            "The CI now takes 7 minutes.",
        )
        is Verdict.UPDATE
    )


def test_things_told_apart_by_their_modifiers_are_not_linked() -> None:
    for first, later in [
        ("The web pod has 512Mi of memory.", "We raised the worker pod memory to 2Gi."),
        ("The staging p99 is 300 ms.", "The production p99 is now 420 ms."),
        ("The web deployment runs 3 replicas.", "The worker deployment now runs 5 replicas."),
    ]:
        assert _after(first, later, similarity=0.9) is not Verdict.UPDATE, later


def test_a_short_measured_clause_is_a_claim() -> None:
    at = datetime(2026, 5, 8, tzinfo=UTC)
    for text in ["The p99 is 95 ms.", "MAU is up to 3,100.", "The staging p99 is 300 ms."]:
        assert [c.statement for c in extract_claims(text, speaker="Ann", captured_at=at)] == [text]
    assert extract_claims("Yeah 2 of them.", speaker="Ann", captured_at=at) == []
