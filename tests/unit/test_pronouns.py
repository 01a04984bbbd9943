"""Pronoun subjects: resolved to the one antecedent in the turn, or no claim."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from provmem.core.extraction.claims import extract_claims
from provmem.core.extraction.pronouns import dummy_it, pronoun_subject

AT = datetime(2026, 4, 10, 12, 0, tzinfo=UTC)


def statements(text: str) -> list[str]:
    return [c.statement for c in extract_claims(text, speaker="Ann", captured_at=AT)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The subject of the sentence before is the antecedent.
        (
            "The app uses Flask. It doesn't block the event loop.",
            "The app doesn't block the event loop.",
        ),
        # What the speaker got or made is the speaker's.
        ("I got a new bike. It's red and fast.", "Ann's new bike is red and fast."),
        # A count stays with the sentence that said it (a later change reaches one fact).
        ("I have two sons. They are twins.", "Ann's sons are twins."),
        ("We have 51 tests and they all pass.", "Ann's tests all pass."),
        ("We built the dashboard last month. It is a Vue 3 SPA.", "The dashboard is a Vue 3 SPA."),
        # A question the speaker asks and answers names the subject.
        ("My daughter's birthday? It's on 27 June.", "Ann's daughter's birthday is on 27 June."),
        (
            "My brother's birthday's coming up. It's on 22 April.",
            "Ann's brother's birthday is on 22 April.",
        ),
        # An activity named by a gerund.
        ("I love dancing. It is a must-have in my life.", "Dancing is a must-have in Ann's life."),
        # A group noun is "they", and its verb singular.
        ("My family has been there for me. They are my rock.", "Ann's family is Ann's rock."),
        ("My family has been there for me. They keep me going.", "Ann's family keeps Ann going."),
        # A plural possessor takes an apostrophe alone.
        (
            "These friends helped me. Their love was so important.",
            "These friends' love was so important.",
        ),
        # A possessive the rewrite left open names the one person before it.
        ("I talked to my mom. Her birthday is on 27 June.", "Ann's mom's birthday is on 27 June."),
        # An earlier clause of the same sentence.
        ("I bought a kayak and it is bright yellow.", "Ann's kayak is bright yellow."),
    ],
)
def test_a_pronoun_subject_takes_its_one_antecedent(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize(
    "text",
    [
        "It is a Vue 3 SPA.",  # nothing before it
        "They are twins.",
        "That was a great trip to Rome.",
        "Her birthday is on 27 June.",
        "We adopted a puppy and a kitten. It is tiny.",  # two candidates: ambiguous
        "I went to the park with my dog. It was lovely.",  # "it" names the outing, not an object
        "Reminds me of home.",  # an elided "it" with no antecedent
        "Thankfully, they enjoyed the Grand Canyon a lot.",
        "The party is on 27 June. They are twins.",  # a date or a measure is no antecedent
        "The commute takes 30 minutes. They are long.",  # after an adverb, still a subject
        "I love my family. These are the moments that matter.",  # a group is not "these"
    ],
)
def test_a_pronoun_with_no_single_antecedent_yields_no_claim(text: str) -> None:
    found = statements(text)
    opening = {"It", "They", "That", "This", "These", "Her", "Reminds", "Thankfully,"}
    assert not any(s.split()[0] in opening for s in found)
    assert not any(s.startswith(("Ann's family are", "The June", "The minutes")) for s in found)
    assert not any(
        s.startswith(("The puppy", "The kitten", "The park", "Ann's dog")) for s in found
    )


@pytest.mark.parametrize(
    "text",
    [
        "It's raining all week here in Manchester.",
        "It takes me 30 minutes to get to work.",
        "It's great to see you doing so well.",
        "It is important that we keep the tests green.",
        "It must have been great to be involved.",
        "It was so cool spending time with them.",
        "It seems that the train is late.",
    ],
)
def test_a_dummy_it_is_no_pronoun_to_resolve(text: str) -> None:
    assert dummy_it(text)
    assert pronoun_subject(text) is None


def test_a_clause_with_a_dummy_it_stays_a_claim() -> None:
    assert statements("It takes me 30 minutes to get to work.") == [
        "It takes Ann 30 minutes to get to work."
    ]


@pytest.mark.parametrize(
    ("body", "pronoun"),
    [
        ("That charity race sounds great.", None),  # a determiner
        ("Those colors are so vivid.", None),
        ("That sounds great.", "that"),
        ("These are the moments that matter.", "these"),
        ("It is so rewarding.", "it"),  # an adjective, not an extraposed gerund
    ],
)
def test_a_demonstrative_is_a_pronoun_only_before_a_verb(body: str, pronoun: str | None) -> None:
    found = pronoun_subject(body)
    assert (found.word if found else None) == pronoun


def test_a_resolved_pronoun_opens_its_sentence_with_a_capital_for_an_id_speaker() -> None:
    from datetime import UTC, datetime

    from provmem.core.extraction.claims import extract_claims

    at = datetime(2026, 4, 8, tzinfo=UTC)
    found = extract_claims("I have a dog. It loves the park.", speaker="u_1", captured_at=at)
    assert [c.statement for c in found] == ["The user has a dog.", "The user's dog loves the park."]
