"""Claim rules: atomic, speaker-resolved statements with slots, spans and flags."""

from datetime import UTC, datetime

import pytest

from provmem.core.claim import Claim, Slot
from provmem.core.extraction.claims import EXTRACTION_VERSION, extract_claims

AT = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday


def claims(text: str, speaker: str = "Alice") -> list[Claim]:
    found = extract_claims(text, speaker=speaker, captured_at=AT)
    for claim in found:
        assert all(0 <= start < end <= len(text) for start, end in claim.spans)
        assert claim.review_reason is None, claim
    return found


def statements(text: str) -> list[str]:
    return [c.statement for c in claims(text)]


def only(text: str) -> Claim:
    found = claims(text)
    assert len(found) == 1, found
    return found[0]


def test_version_is_recorded() -> None:
    assert EXTRACTION_VERSION.startswith("rules/")


@pytest.mark.parametrize(
    "text",
    [
        "Hey Mel! Good to see you!",
        "How have you been?",
        "Thanks!",
        "That's awesome!",
        "lol",
        "Do you like living in Lisbon?",
        "Wow, that's so cool, Caroline!",
        "Take a look at this.",
        "You're so inspiring!",
    ],
)
def test_chit_chat_questions_and_greetings_yield_no_claim(text: str) -> None:
    assert claims(text) == []


def test_first_person_resolves_to_the_speaker() -> None:
    assert statements("I moved to Lisbon.") == ["Alice moved to Lisbon."]
    assert statements("My dog loves the beach.") == ["Alice's dog loves the beach."]
    assert statements("I'm swamped with work.") == ["Alice is swamped with work."]
    assert statements("I love jazz music.") == ["Alice loves jazz music."]
    assert statements("We went camping with the kids.") == [
        "Alice and others went camping with the kids."
    ]


def test_unambiguous_pronoun_resolves_to_the_named_person() -> None:
    assert statements("I met Anna at the gym. She teaches yoga there.") == [
        "Alice met Anna at the gym.",
        "Anna teaches yoga there.",
    ]


def test_a_named_listener_replaces_you() -> None:
    found = claims("Thanks, Bob! Your advice about the marathon training helped a lot.")
    assert [c.statement for c in found] == [
        "Bob's advice about the marathon training helped a lot."
    ]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I went to a support group yesterday.", "Alice went to a support group on 7 May 2023."),
        ("I saw Tom last Friday.", "Alice saw Tom on 5 May 2023."),
        ("I started two weeks ago.", "Alice started in the week of 24 April 2023."),
        ("I'm moving to Berlin next month.", "Alice is moving to Berlin in June 2023."),
        ("I painted that lake last year.", "Alice painted that lake in 2022."),
    ],
)
def test_relative_time_becomes_absolute(text: str, statement: str) -> None:
    claim = only(text)
    assert claim.statement == statement
    assert claim.valid_from is not None and claim.valid_from.tzinfo is not None


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I moved to Lisbon in May.", ("alice", "moved_to", "lisbon")),
        ("I live in Boston now.", ("alice", "lives_in", "boston")),
        ("I work at Google as an engineer.", ("alice", "works_at", "google")),
        ("I'm a nurse at the local hospital.", ("alice", "job", "nurse")),
        ("I love hiking in the mountains.", ("alice", "likes", "hiking in the mountains")),
        ("I hate cilantro.", ("alice", "dislikes", "cilantro")),
        ("I'm allergic to peanuts.", ("alice", "allergic_to", "peanuts")),
        ("I'm vegetarian.", ("alice", "diet", "vegetarian")),
        ("I have a dog.", ("alice", "has_pet", "dog")),
        ("My dog is called Biscuit.", ("alice", "pet_name", "biscuit")),
        ("I have two kids.", ("alice", "has_child", "kids")),
        ("I got married last year.", ("alice", "relationship_status", "married")),
        ("I'm studying psychology at college.", ("alice", "studies", "psychology")),
        ("I play the guitar every evening.", ("alice", "plays_instrument", "guitar")),
        ("I go swimming with the kids.", ("alice", "hobby", "swimming")),
        ("My favourite band is The Beatles.", ("alice", "favorite_band", "beatles")),
        ("I decided to learn Spanish.", ("alice", "plans", "learn spanish")),
        ("Anna lives in Berlin.", ("anna", "lives_in", "berlin")),
    ],
)
def test_slot_rules(text: str, slot: tuple[str, str, str]) -> None:
    assert only(text).slot == Slot(*slot)


def test_a_declarative_sentence_without_a_slot_still_yields_a_general_claim() -> None:
    claim = only("Painting is a great way to relax after a long day.")
    assert claim.slot is None
    assert claim.statement == "Painting is a great way to relax after a long day."


def test_negation_is_kept() -> None:
    claim = only("I don't eat meat.")
    assert claim.statement == "Alice does not eat meat."
    assert claim.negated is True
    assert claim.slot == Slot("alice", "diet", "no meat")
    assert "eats meat" not in claim.statement


def test_dont_like_is_a_negated_dislike() -> None:
    claim = only("I don't like horror movies.")
    assert claim.statement == "Alice does not like horror movies."
    assert (claim.negated, claim.slot) == (True, Slot("alice", "dislikes", "horror movies"))


def test_correction_sets_the_flag_and_keeps_the_new_value() -> None:
    claim = only("Actually, I moved to Porto, not Lisbon.")
    assert claim.correction is True
    assert claim.negated is False
    assert claim.slot == Slot("alice", "moved_to", "porto")
    assert claim.statement == "Alice moved to Porto, not Lisbon."


def test_no_longer_ends_validity() -> None:
    claim = only("I don't live in Lisbon anymore.")
    assert claim.negated and claim.correction
    assert claim.valid_to == AT
    assert claim.slot == Slot("alice", "lives_in", "not lisbon")


def test_compound_sentences_split_into_atomic_claims_with_their_own_spans() -> None:
    text = "I'm allergic to peanuts and I hate cilantro."
    found = claims(text)
    assert [c.statement for c in found] == [
        "Alice is allergic to peanuts.",
        "Alice hates cilantro.",
    ]
    assert [text[c.start : c.end] for c in found] == ["I'm allergic to peanuts", "I hate cilantro."]


def test_spans_point_at_the_supporting_clause() -> None:
    text = "Hi! I moved to Lisbon in May. Do you like it?"
    (claim,) = claims(text)
    assert text[claim.start : claim.end] == "I moved to Lisbon in May."


def test_entities_include_the_speaker_and_named_entities() -> None:
    assert only("I visited Paris with Anna.").entities == ("Alice", "Paris", "Anna")


def test_extraction_is_deterministic() -> None:
    text = "Actually, I moved to Porto last month. I love jazz! How are you?"
    assert claims(text) == claims(text)


def test_a_short_lead_in_before_a_colon_is_no_part_of_the_claim() -> None:
    assert statements("Good news: the p95 latency is now 290ms.") == [
        "The p95 latency is now 290ms."
    ]


def test_a_statement_before_a_question_in_one_sentence_is_kept() -> None:
    said = statements("The image is 380MB now, so can we try the slim base?")
    assert said == ["The image is 380MB now."]
    assert statements("When it failed, why did it retry?") == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("The requirements now pin `flask==3.0.2`.", "flask==3.0.2"),
        ("Our coverage sits at 59% according to `coverage report`.", "coverage report"),
    ],
)
def test_a_short_inline_name_or_pin_stays_a_word_of_the_prose(text: str, kept: str) -> None:
    found = only(text)
    assert kept in found.statement
    start = text.index(kept)
    assert all(not (s <= start < e) for s, e in found.spans)  # no claim rests on code


def test_moving_to_a_version_is_no_move_to_a_place() -> None:
    assert only("We moved to Python 3.11.").slot is None
    assert only("We moved to Lisbon.").slot == Slot("alice", "moved_to", "lisbon")


def test_a_shared_image_is_a_sentence_with_its_sharer_as_subject() -> None:
    text = "We went hiking! [shares an image: a photo of a lake with mountains behind it]"
    said = statements(text)
    assert "Alice shared a photo of a lake with mountains behind it." in said
    assert all("[" not in s and "shares an image" not in s for s in said)
    caption = next(c for c in claims(text) if c.statement.startswith("Alice shared"))
    start, end = caption.spans[0]
    assert text[start:end] == "a photo of a lake with mountains behind it"


def test_a_sentence_ending_inside_quotes_keeps_its_quote_and_the_next_starts_clean() -> None:
    said = statements('We did a piece called "Finding Freedom." It was really moving to us.')
    assert said[0].endswith('called "Finding Freedom".')
    assert not said[1].startswith('"')


def test_a_clause_with_its_own_verb_before_a_comma_and_a_new_subject_stands_alone() -> None:
    said = statements("The pottery class is on Fridays, it brings me so much joy.")
    assert said == [
        "The pottery class is on Fridays.",
        "The pottery class brings Alice so much joy.",
    ]
