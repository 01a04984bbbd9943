"""Provenance validation: claims whose words the evidence cannot account for go to review."""

from datetime import UTC, datetime

from provmem.core.claim import Claim
from provmem.core.extraction.claims import extract_claims
from provmem.core.extraction.validation import stem, untraceable_words, validate_claim

AT = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
TEXT = "I went to a jazz concert yesterday with Anna."


def check(statement: str, text: str = TEXT) -> Claim:
    claim = Claim(statement=statement, spans=((0, len(text)),))
    return validate_claim(claim, text, speaker="Alice", captured_at=AT)


def test_a_word_absent_from_the_evidence_is_untraceable() -> None:
    claim = check("Alice went to a rock concert with Anna.")
    assert claim.review_reason == "untraceable: rock"


def test_an_invented_number_is_untraceable() -> None:
    assert check("Alice went to 3 jazz concerts.").review_reason == "untraceable: 3"


def test_speaker_resolved_date_and_template_words_are_traceable() -> None:
    claim = check("Alice went to a jazz concert on 7 May 2023 with Anna.")
    assert claim.review_reason is None


def test_a_date_the_evidence_does_not_resolve_to_is_untraceable() -> None:
    claim = check("Alice went to a jazz concert on 9 May 2023.")
    assert claim.review_reason == "untraceable: 9"


def test_morphological_variants_are_traceable() -> None:
    text = "I love trying new recipes and I go running."
    assert (
        untraceable_words(
            "Alice loves tries recipe goes runs.", text, speaker="Alice", captured_at=AT
        )
        == []
    )
    assert stem("tries") == stem("try") == stem("tried")


def test_a_span_outside_the_evidence_is_rejected() -> None:
    claim = Claim(statement="Alice went to a jazz concert.", spans=((0, 999),))
    checked = validate_claim(claim, TEXT, speaker="Alice", captured_at=AT)
    assert checked.review_reason == "support span outside the evidence"


def test_a_valid_claim_is_returned_unchanged() -> None:
    claim = Claim(statement="Alice went to a jazz concert.", spans=((0, 10),))
    assert validate_claim(claim, TEXT, speaker="Alice", captured_at=AT) is claim


def test_every_rules_claim_is_validated() -> None:
    text = "I moved to Lisbon two weeks ago. My sister Maria loves it, she says the food is great."
    found = extract_claims(text, speaker="Alice", captured_at=AT)
    assert found and all(c.review_reason is None for c in found)


def test_an_invented_negation_is_untraceable() -> None:
    text = "I eat meat every day."
    claim = Claim(statement="Alice does not eat meat.", spans=((0, len(text)),))
    checked = validate_claim(claim, text, speaker="Alice", captured_at=AT)
    assert checked.review_reason == "untraceable: not"


def test_a_negation_from_the_support_span_is_traceable() -> None:
    text = "I don't eat meat."
    claim = Claim(statement="Alice does not eat meat.", spans=((0, len(text)),))
    assert validate_claim(claim, text, speaker="Alice", captured_at=AT).review_reason is None
