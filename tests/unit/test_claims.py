from datetime import UTC, datetime

from provmem.core.extraction.claims import extract_claims, normalize

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


def test_tentative_and_second_hand_claims_carry_their_cue() -> None:
    said = {
        "I think I live in Berlin now.": "i think",
        "I heard that John lives in Rome.": "i heard",
        "Maybe my favorite color is blue.": "maybe",
        "I live in Berlin.": None,
        "I definitely work at Acme.": None,
    }
    for text, cue in said.items():
        (claim,) = extract_claims(text, speaker="Alice", captured_at=AT)
        assert claim.hedge == cue, text


def test_an_adverb_before_the_verb_keeps_the_verb_agreeing() -> None:
    (claim,) = extract_claims("I probably work at Acme.", speaker="Alice", captured_at=AT)
    assert claim.statement == "Alice probably works at Acme."


def test_a_sentence_adverb_is_not_taken_for_the_slot_subject() -> None:
    for text in ("Maybe Bob lives in Oslo.", "Bob probably lives in Oslo."):
        (claim,) = extract_claims(text, speaker="Alice", captured_at=AT)
        assert claim.slot is not None and claim.slot.key == "bob|lives_in", text
