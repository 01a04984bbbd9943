"""A per-turn claim budget: the most salient claims, in text order; the rest stays raw."""

from datetime import UTC, datetime

from provmem.core.extraction.claims import extract_turn
from provmem.core.extraction.salience import CLAIM_BUDGET, salience, within_budget

AT = datetime(2026, 4, 8, 13, 56, tzinfo=UTC)

LONG = (
    "The weather was grey all week. I moved to Lisbon in March. The coffee tasted odd. "
    "I decided to switch the API to PostgreSQL 16. The bus ride felt quite long today. "
    "My sister Ana works at Acme Corp. Some neighbours seemed friendly enough. "
    "I prefer tabs over spaces."
)


def test_a_long_turn_yields_at_most_the_budget() -> None:
    result = extract_turn(LONG, speaker="Dev", captured_at=AT)
    assert len(result.claims) == CLAIM_BUDGET
    assert result.over_budget > 0


def test_the_budget_keeps_entities_values_decisions_and_preferences() -> None:
    kept = [c.statement for c in extract_turn(LONG, speaker="Dev", captured_at=AT).claims]
    assert kept == [
        "Dev moved to Lisbon in March 2026.",
        "Dev decided to switch the API to PostgreSQL 16.",
        "Dev's sister Ana works at Acme Corp.",
        "Dev prefers tabs over spaces.",
    ]


def test_a_short_turn_keeps_all_its_claims_in_order() -> None:
    claims = extract_turn("I like tea. I live in Oslo.", speaker="Dev", captured_at=AT).claims
    assert within_budget(claims) == list(claims)


def test_salience_ranks_a_slot_above_chit_chat() -> None:
    plain, keyed = extract_turn(
        "The weather was grey. I live in Oslo.", speaker="Dev", captured_at=AT
    ).claims
    assert salience(keyed) > salience(plain)


def test_a_measure_given_to_an_attribute_counts_as_keyed() -> None:
    from provmem.core.claim import Claim

    keyed = Claim("The backlog has 43 open issues.", ((0, 1),))
    plain = Claim("The backlog is long.", ((0, 1),))
    assert salience(keyed) > salience(plain)
