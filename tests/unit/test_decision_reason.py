"""The gate's typed reason: its wire text stays as stored logs hold it, and reads back."""

from __future__ import annotations

import pytest

from provmem.core.facts.decision_reason import DecisionReason, ReasonKind

DETAILS = {
    "detail": "untraceable: Lisbon",
    "hedge": "maybe",
    "fact_id": "f_12",
    "attribute": "response time",
    "value": "porto",
    "old": "800 ms",
    "new": "250 ms",
    "category": "database",
}


def example(kind: ReasonKind) -> DecisionReason:
    """A reason of ``kind`` with every detail its template names."""
    named = {name: said for name, said in DETAILS.items() if "{" + name in kind.value}
    return DecisionReason(kind, **named)


@pytest.mark.parametrize("kind", list(ReasonKind))
def test_every_kind_round_trips_through_its_text(kind: ReasonKind) -> None:
    reason = example(kind)
    assert DecisionReason.from_text(reason.text) == reason


@pytest.mark.parametrize("kind", [k for k in ReasonKind if k.held_for_review])
def test_a_review_reason_round_trips_through_the_facts_review_text(kind: ReasonKind) -> None:
    reason = example(kind)
    assert reason.text == "needs review: " + reason.review_text
    assert DecisionReason.from_review_text(reason.review_text) == reason


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("store empty", ReasonKind.STORE_EMPTY),
        ("needs review: tentative ('maybe') value would supersede f_1", ReasonKind.TENTATIVE),
        ("needs review: support span outside the evidence", ReasonKind.HELD_FOR_REVIEW),
        ("needs review: lives_in: lisbon ended", ReasonKind.HELD_FOR_REVIEW),
        ("lives_in: lisbon ended", ReasonKind.ENDED),
        ("history: an ended lives_in beside the current", ReasonKind.ENDED_BESIDE_CURRENT),
        ("new value for response time: 800 ms -> 250 ms", ReasonKind.VALUE_CHANGED),
        ("new value for a single-valued slot", ReasonKind.SINGLE_VALUED_CHANGE),
        ("a later measure of test: 121 -> 140", ReasonKind.LATER_MEASURE),
        ("conflicts with f_1: another database, no change cue", ReasonKind.RIVAL_CONFLICT),
        (
            "conflicts with f_1: another value for x: 1 -> 2, no change cue",
            ReasonKind.VALUE_CONFLICT,
        ),
        ("same slot and value, new detail", ReasonKind.SAME_SLOT_AND_VALUE),
    ],
)
def test_the_texts_stored_logs_hold_read_as_their_kind(text: str, kind: ReasonKind) -> None:
    reason = DecisionReason.from_text(text)
    assert reason is not None and reason.kind is kind and reason.text == text


@pytest.mark.parametrize("text", ["approved by ops: checked", "no live evidence supports it", ""])
def test_a_text_the_gate_does_not_write_reads_as_none(text: str) -> None:
    assert DecisionReason.from_text(text) is None


def test_a_tentative_text_whose_hedge_is_no_string_literal_is_held_for_review() -> None:
    reason = DecisionReason.from_text("needs review: tentative (maybe) value would supersede f_1")
    assert reason is not None and reason.kind is ReasonKind.HELD_FOR_REVIEW
