from datetime import UTC, datetime

from provmem.core.claims import extract_claims, normalize

AT = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def test_declarative_sentences_become_claims_with_spans() -> None:
    text = "Hi! I moved to Lisbon in May. My dog is called Biscuit."
    claims = extract_claims(text, speaker="Alice", captured_at=AT)
    assert [c.statement for c in claims] == [
        "Alice moved to Lisbon in May 2023.",
        "Alice's dog is called Biscuit.",
    ]
    assert [text[c.start : c.end] for c in claims] == [
        "I moved to Lisbon in May.",
        "My dog is called Biscuit.",
    ]


def test_questions_and_greetings_yield_no_claim() -> None:
    for text in ("How are you doing today?", "Hello there, friend!", "ok"):
        assert extract_claims(text, speaker="Alice", captured_at=AT) == []


def test_normalize_ignores_case_spacing_and_final_stop() -> None:
    assert normalize("I  moved to Lisbon.") == normalize("i moved to lisbon")
