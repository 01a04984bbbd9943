"""Verbless chat fragments made into sentences, or left to the raw evidence."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from provmem.core.extraction.claims import extract_claims
from provmem.core.language.fragments import (
    addressed_imperative,
    answer_statement,
    elided_copula,
    elided_feeling,
    elided_modal,
    spelled_out_copula,
    with_elided_it,
)

AT = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def statements(text: str) -> list[str]:
    return [c.statement for c in extract_claims(text, speaker="Maya", captured_at=AT)]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("Trying to get it fixed but it's tough.", "Maya is trying to get it fixed."),
        ("Looking forward to more happy years.", "Maya is looking forward to more happy years."),
        (
            "Going for hikes, hanging out at the park, having picnics.",
            "Maya is going for hikes, hanging out at the park, having picnics.",
        ),
        ("Excited for this new chapter.", "Maya is excited for this new chapter."),
        ("Bet the atmosphere was incredible.", "Maya bets the atmosphere was incredible."),
        ("Pottery's so relaxing and creative.", "Pottery is so relaxing and creative."),
        ("Life's too short to do anything else.", "Life is too short to do anything else."),
        (
            "Opening the dance studio's been a great experience.",
            "Opening the dance studio has been a great experience.",
        ),
    ],
)
def test_an_elided_subject_or_copula_is_spelled_out(text: str, statement: str) -> None:
    assert statements(text)[0] == statement


@pytest.mark.parametrize(
    "text",
    [
        "Painting is my passion.",  # the gerund is the subject
        "Going to the gym and eating well is key.",
        "Caroline's painting is great.",  # a possessive, and a verb of its own
    ],
)
def test_a_clause_with_its_own_subject_is_left_as_it_is(text: str) -> None:
    assert statements(text)[0] == text.replace("my", "Maya's")


@pytest.mark.parametrize(
    "text", ["Cherish the moments, Mel!", "Spill the beans!", "If you need any help, let me know."]
)
def test_a_bare_verb_or_request_to_the_listener_is_no_claim(text: str) -> None:
    assert statements(text) == []


def test_the_rules_one_by_one() -> None:
    assert elided_feeling("Love the colors") == ("loves", 1)
    assert elided_feeling("Really appreciate it") == ("really appreciates", 2)
    assert elided_feeling("Really nice") is None
    assert elided_modal("Can't wait to see it") == ("can't", 1)
    assert elided_modal("Gotta focus") == ("has got to", 1)
    assert elided_modal("Don't forget the keys") is None  # to the listener
    assert with_elided_it("Reminds Maya of home.") == "It reminds Maya of home."
    assert with_elided_it("Sounds like fun.") == "Sounds like fun."
    assert with_elided_it("Makers gather here.") == "Makers gather here."
    # A clause after a vocative or a dash starts in lower case: "Thanks, Gina - really ...".
    assert elided_feeling("really appreciate your words") == ("really appreciates", 2)
    assert elided_modal("haven't talked for days") == ("hasn't", 1)
    assert elided_copula("Really glad to have you here", has_verb=True)
    assert not elided_copula("Painting is my passion", has_verb=True)
    assert addressed_imperative("Hold onto those moments") is False  # no determiner next
    assert addressed_imperative("Chase those dreams")
    assert not addressed_imperative("Love the colors")  # a feeling, the speaker's own
    assert spelled_out_copula("Life's tough.") == "Life is tough."
    assert spelled_out_copula("Maria's dog.") == "Maria's dog."
    assert spelled_out_copula("Her name's Coco.") == "Her name is Coco."
    assert spelled_out_copula("Maria's fam's small.") == "Maria's fam is small."


@pytest.mark.parametrize(
    "text",
    [
        "Talking to the community made me want to use my story.",
        "Playing and singing let me express myself.",
        "Painting and drawing have helped me a lot.",
    ],
)
def test_a_gerund_that_a_verb_follows_is_the_subject(text: str) -> None:
    assert not statements(text)[0].startswith("Maya is")


def test_after_an_elided_subject_a_later_i_is_they() -> None:
    said = statements("Yeah, I play clarinet! Started when I was young and it's been great.")
    assert "Maya started when they were young." in said


def test_a_statement_about_an_unnamed_listener_is_left_to_the_raw_evidence() -> None:
    assert statements("Thanks! Your support means a ton to me.") == []
    named = [
        c.statement
        for c in extract_claims(
            "Thanks, Jon! Your support means a ton to me.", speaker="Maya", captured_at=AT
        )
    ]
    assert named == ["Jon's support means a ton to Maya."]


def test_a_subordinate_opening_is_no_bare_verb() -> None:
    assert not addressed_imperative("Since the beta slipped to August 22 I have time")
    assert not addressed_imperative("After the launch we rested")


def test_the_one_other_participant_of_the_session_is_the_listener() -> None:
    def said(participants: tuple[str, ...]) -> list[str]:
        found = extract_claims(
            "Your support means a ton to me.",
            speaker="Maya",
            captured_at=AT,
            participants=participants,
        )
        return [c.statement for c in found]

    assert said(("Jon",)) == ["Jon's support means a ton to Maya."]
    assert said(("Maya", "Jon")) == ["Jon's support means a ton to Maya."]  # not the speaker
    assert said(("Jon", "Gina")) == []  # two others: the listener is not known
    assert said(()) == []
    both = extract_claims(
        "News that you two are getting along.",
        speaker="Maya",
        captured_at=AT,
        participants=("Jon",),
    )
    assert both == []  # "you two" is more than the listener


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        (
            "Where do you work now?",
            "At the library downtown.",
            "Ann now works at the library downtown.",
        ),
        ("Where do you live?", "In Lisbon.", "Ann lives in Lisbon."),
        ("When do you start?", "On Monday.", "Ann starts on Monday."),
        ("Oh nice! Where are you moving?", "To Seattle.", "Ann is moving to Seattle."),
        ("Where are you from?", "Portugal.", "Ann is from Portugal."),
        ("What is your favourite film?", "Alien.", "Ann's favourite film is Alien."),
    ],
)
def test_a_verbless_answer_takes_the_frame_of_the_question_it_answers(
    question: str, answer: str, expected: str
) -> None:
    assert answer_statement(question, answer, "Ann") == expected


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Do you work?", "Yes."),  # a yes/no question has no frame to fill
        ("Where does she work?", "At the library."),  # not the answerer
        ("Where do you work?", "I work at the library."),  # a sentence of its own
        ("What do you do?", "Nursing."),  # "do" with "what": no clean verb phrase
        ("Where do you work?", "Honestly no idea, it changes every week or so."),
        ("That sounds fun.", "At the library."),  # no question
        ("What's your fave?", "Yeah, me too."),  # a reply, not the value asked for
    ],
)
def test_an_answer_whose_question_does_not_map_cleanly_stays_raw(
    question: str, answer: str
) -> None:
    assert answer_statement(question, answer, "Ann") is None
