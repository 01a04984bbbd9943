"""Claims only from assertions; an assistant's turn yields only the assistant's statements."""

from datetime import UTC, datetime

import pytest

from provmem.core.events import SpeakerRole
from provmem.core.extraction.claims import extract_turn
from provmem.core.language.assertions import has_finite_verb, speech_act, verbless_main_clause

AT = datetime(2026, 4, 8, 13, 56, tzinfo=UTC)


def statements(text: str, role: SpeakerRole = "user", speaker: str = "Dev") -> list[str]:
    found = extract_turn(text, speaker=speaker, captured_at=AT, role=role).claims
    assert all(c.role == role and c.review_reason is None for c in found), found
    return [c.statement for c in found]


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("can you fill in the remaining routes", "request"),
        ("Could you explain the cache", "request"),
        ("Please add docstrings", "request"),
        ("I need you to review this", "request"),
        ("Let's use Redis", "request"),
        ("Here is my code", "request"),
        ("Thanks for the help", "expressive"),
        ("Congratulations on the new job", "expressive"),
        ("Good luck with the launch", "expressive"),
        ("Add a test for the parser", "imperative"),
        ("Run pytest", "imperative"),
        ("Test coverage is at 80%", None),
        ("Build times went down", None),
        ("I moved to Lisbon", None),
    ],
)
def test_speech_acts(text: str, act: str | None) -> None:
    assert speech_act(text) == act


def test_requests_to_the_assistant_are_no_facts() -> None:
    text = "I built the login page. Can you fill in the signup route. Please keep it short."
    assert statements(text) == ["Dev built the login page."]


def test_thanks_before_an_assertion_keeps_the_assertion() -> None:
    assert statements("Thanks, I moved to Lisbon in 2025.") == ["Dev moved to Lisbon in 2025."]


def test_an_assistant_turn_never_yields_facts_about_the_user() -> None:
    text = (
        "Congratulations on the move to Seattle! You live near the office now. "
        "Your app uses Flask 2.3."
    )
    assert statements(text, role="assistant", speaker="assistant") == []


def test_the_assistant_s_recommendations_and_plans_are_labelled_as_its_own() -> None:
    text = "I'd suggest you switch to Redis. You should pin flask==2.3.1. I'll add the tests."
    assert statements(text, role="assistant", speaker="Claude") == [
        "The assistant recommended the user switch to Redis.",
        "The assistant recommended that the user pin flask==2.3.1.",
        "The assistant will add the tests.",
    ]


@pytest.mark.parametrize("role", ["system", "tool"])
def test_system_and_tool_turns_yield_anchors_but_no_claims(role: SpeakerRole) -> None:
    result = extract_turn(
        "I moved to Lisbon. Wrote src/app.py.", speaker="x", captured_at=AT, role=role
    )
    assert result.claims == ()
    assert any(a.value == "path:src/app.py" for a in result.anchors)


def test_a_request_after_an_assertion_leaves_the_assertion() -> None:
    assert statements("I am allergic to peanuts, so please never suggest satay.") == [
        "Dev is allergic to peanuts."
    ]
    assert statements("I built the login page, can you add the signup route") == [
        "Dev built the login page."
    ]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("I don't eat meat, so protein ideas without meat please.", "Dev does not eat meat."),
        ("I'm allergic to latex, so no latex gloves please.", "Dev is allergic to latex."),
        ("My brother Luis is visiting from Madrid, can he come?", "Dev's brother Luis is visiting"),
    ],
)
def test_an_assertion_keeps_out_the_request_or_question_after_it(text: str, kept: str) -> None:
    found = [s for s in statements(text) if " is Dev's " not in s]  # a relation apart
    assert len(found) == 1 and found[0].startswith(kept), found
    assert "please" not in found[0] and "come" not in found[0]


@pytest.mark.parametrize(
    "body",
    [
        "Caroline values honesty",
        "My sister, Ana, lives in Madrid",
        "Each stroke carries a part of me",
        "The colors really blend nicely",
        "People seem to like my designs",
        "Playing and singing let me express myself",
        "Taking care of myself physically and mentally helps me",
        "My family motivates me",
        "The woman in the painting stands for acceptance",
    ],
)
def test_a_subject_and_its_verb_make_a_finite_clause(body: str) -> None:
    assert has_finite_verb(body)


@pytest.mark.parametrize(
    "body",
    [
        "Three times a week",
        "Plenty of times",
        "Mainly the roadways",
        "Such a gorgeous piece",
        "Many little moments like that",
        "Besides the dance classes and workshops",
        "Kudos for helping kids learn",
        "Especially these days",
        "5 years already",
        "My family, exercise, and spending time with friends",
    ],
)
def test_a_noun_phrase_alone_has_no_finite_verb(body: str) -> None:
    assert not has_finite_verb(body)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("So much since we talked", True),
        ("Almost as silly as when I fed a horse", True),
        ("Especially after the accident, I thought a lot", False),  # a main clause follows
        ("When I was young", False),  # a subordinate clause alone is no head fragment
        ("I moved when I was young", False),
    ],
)
def test_words_before_a_subordinate_clause_need_a_verb(body: str, expected: bool) -> None:
    assert verbless_main_clause(body) is expected


@pytest.mark.parametrize(
    "body", ["Hold onto those moments", "Just remember that it passes", "When it rains, stay in"]
)
def test_imperatives_after_an_adverb_or_a_subordinate_opening(body: str) -> None:
    assert speech_act(body) == "imperative"


@pytest.mark.parametrize("body", ["I bet!", "Kudos for helping kids learn", "Way to go"])
def test_bare_replies_and_compliments_are_expressive(body: str) -> None:
    assert speech_act(body) == "expressive"
