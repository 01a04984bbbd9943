"""A relation apposition ("my wife Keiko") is a fact of its own."""

from datetime import UTC, datetime

import pytest

from provmem.core.extraction.claims import extract_claims
from provmem.core.language.appositions import relation_appositions

AT = datetime(2026, 4, 8, 13, 56, tzinfo=UTC)


def statements(text: str) -> list[str]:
    return [c.statement for c in extract_claims(text, speaker="Hiro", captured_at=AT)]


@pytest.mark.parametrize(
    ("text", "relation"),
    [
        ("We're going to Japan with my wife Keiko.", "Keiko is Hiro's wife."),
        ("My brother Luis is visiting from Madrid, can he come?", "Luis is Hiro's brother."),
        ("Of course! My dog Pepper will be there too.", "Pepper is Hiro's dog."),
        ("My best friend Anna Lee got married.", "Anna Lee is Hiro's best friend."),
        ("my son Jack's school is great", "Jack is Hiro's son."),
    ],
)
def test_a_relation_apposition_is_a_fact_of_its_own(text: str, relation: str) -> None:
    assert relation in statements(text)


@pytest.mark.parametrize(
    "text",
    [
        "I called my dad Monday.",  # a day, no name
        "Is my sister Maria coming?",  # a question asserts nothing
        "My new Honda runs well.",  # no relation noun
        "My team Arsenal lost again.",  # "team" is no relation to a person
    ],
)
def test_no_relation_without_a_relation_noun_and_a_name(text: str) -> None:
    assert not any(" is Hiro's " in s for s in statements(text)), statements(text)


def test_appositions_are_found_with_their_characters() -> None:
    text = "Lunch with my aunt Rosa and my cat Miso."
    found = relation_appositions(text, 0, len(text))
    assert [(a.name, a.relation, text[a.start : a.end]) for a in found] == [
        ("Rosa", "aunt", "my aunt Rosa"),
        ("Miso", "cat", "my cat Miso"),
    ]
