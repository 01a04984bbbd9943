"""Every clause the extractor drops records why (core/extraction/outcomes.py), and
extract_turn keeps exactly the claims explain_turn reports as kept."""

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from provmem.core.claim import Claim
from provmem.core.events import SpeakerRole as Role
from provmem.core.extraction.claims import explain_turn, extract_turn
from provmem.core.extraction.outcomes import ClauseOutcome, Dropped
from provmem.core.language.clauses import split_clauses
from provmem.core.language.segments import prose_view, segment

AT = datetime(2026, 4, 8, 13, 56, tzinfo=UTC)
DATA = Path(__file__).resolve().parents[2] / "bench" / "data"

BUDGETED = (
    "I like tea. I live in Oslo. I work at Acme in Berlin. I moved to Rome on 3 May. "
    "I prefer Python to Go. My sister Ana lives in Paris."
)
FAMILY = "I love Rome. My wife Keiko, my brother Jonah, my sister Ana and my son Kai live in Rome."

DROPS = [
    ("Where do you live?", "user", "Where do you live?", Dropped.QUESTION),
    ("Run `pytest -q` again after this change.", "user", "Run `pytest -q`", Dropped.IN_CODE),
    ("Thanks so much!", "user", "Thanks so much!", Dropped.NO_CONTENT),
    ("Please review this and tell me.", "user", "Please review", Dropped.SPEECH_ACT),
    ("Timings from the profiler:", "user", "Timings", Dropped.LABEL),
    ("It is a Vue 3 SPA.", "user", "It is a Vue 3 SPA.", Dropped.UNRESOLVED_PRONOUN),
    ("Hi again!", "user", "Hi again!", Dropped.NOT_INFORMATIVE),
    ("Three times a week.", "user", "Three times a week.", Dropped.NO_ASSERTION),
    ("My name is Maya.", "user", "My name is Maya.", Dropped.TAUTOLOGY),
    ("Your support means a lot to me.", "user", "Your support", Dropped.UNNAMED_LISTENER),
    ("The queries go in another file.", "assistant", "The queries", Dropped.ASSISTANT_CHATTER),
    ("[shares a photo: a dog] I love my dog.", "user", "a dog", Dropped.SHORT_CAPTION),
    (BUDGETED, "user", "My sister Ana lives in Paris.", Dropped.OVER_BUDGET),
    (BUDGETED, "user", "My sister Ana", Dropped.WITHIN_DROPPED),
    (FAMILY, "user", "my son Kai", Dropped.NO_ROOM),
]


@pytest.mark.parametrize(("text", "role", "clause", "why"), DROPS)
def test_each_dropped_clause_names_its_kind(
    text: str, role: Role, clause: str, why: Dropped
) -> None:
    outcomes = explain_turn(text, speaker="Maya", captured_at=AT, role=role)
    (outcome,) = [o for o in outcomes if o.text.startswith(clause) and o.why is why]
    assert not outcome.kept and text[slice(*outcome.span)].strip() == outcome.text


def test_a_kept_clause_carries_its_claim_and_no_why() -> None:
    (outcome,) = explain_turn("I moved to Lisbon yesterday.", speaker="Maya", captured_at=AT)
    assert outcome.kept and outcome.why is None and outcome.review is None
    assert (
        outcome.claim is not None
        and outcome.claim.statement == "Maya moved to Lisbon on 7 April 2026."
    )


def test_a_kept_claim_that_failed_validation_names_its_untraceable_words() -> None:
    claim = Claim("Maya owns a yacht.", ((0, 5),), review_reason="untraceable: yacht")
    assert ClauseOutcome("I own", (0, 5), claim).review == "untraceable: yacht"
    over = ClauseOutcome("I own", (0, 5), claim, Dropped.OVER_BUDGET)
    assert over.review is None and replace(over, why=None).kept


def test_the_budget_count_is_the_over_budget_outcomes() -> None:
    found = extract_turn(BUDGETED, speaker="Maya", captured_at=AT)
    assert found.over_budget == sum(o.why is Dropped.OVER_BUDGET for o in found.outcomes) > 0


def _corpus() -> list[dict[str, str]]:
    files = [DATA / "chats.jsonl", DATA / "techchats.jsonl"]
    return [json.loads(line) for path in files for line in path.read_text().splitlines()]


def _prose(text: str) -> str:
    return prose_view(text, segment(text))


def test_extract_turn_keeps_exactly_the_kept_claims_of_explain_turn() -> None:
    for turn in _corpus():
        role: Role = "assistant" if turn["speaker"] == "assistant" else "user"
        when = datetime.fromisoformat(turn["captured_at"])
        text, speaker = turn["text"], turn["speaker"]
        claims = extract_turn(text, speaker=speaker, captured_at=when, role=role).claims
        outcomes = explain_turn(text, speaker=speaker, captured_at=when, role=role)
        kept = sorted(
            (o.claim for o in outcomes if o.kept and o.claim), key=lambda c: c.spans[0][0]
        )
        assert list(claims) == kept, turn["turn_id"]
        spans = {o.span for o in outcomes}
        assert all((c.start, c.end) in spans for c in split_clauses(_prose(turn["text"]))), turn[
            "turn_id"
        ]
