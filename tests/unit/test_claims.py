from provmem.core.claims import normalize, sentence_claims


def test_declarative_sentences_become_claims_with_spans() -> None:
    text = "Hi! I moved to Lisbon in May. My dog is called Biscuit."
    claims = sentence_claims(text)
    assert [c.statement for c in claims] == [
        "I moved to Lisbon in May.",
        "My dog is called Biscuit.",
    ]
    for claim in claims:
        assert text[claim.start : claim.end] == claim.statement


def test_questions_and_greetings_yield_no_claim() -> None:
    assert sentence_claims("How are you doing today?") == []
    assert sentence_claims("Hello there, friend!") == []
    assert sentence_claims("ok") == []


def test_normalize_ignores_case_spacing_and_final_stop() -> None:
    assert normalize("I  moved to Lisbon.") == normalize("i moved to lisbon")
