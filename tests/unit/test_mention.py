"""Whether memory mentions what a query asks (core/retrieval/mention.py, pure)."""

from __future__ import annotations

import pytest

from provmem.core.retrieval.mention import (
    ASKED_FLOOR,
    Mentions,
    asked_terms,
    asks_judgement,
    asks_nothing,
    unanswerable,
    unmentioned,
)
from provmem.core.retrieval.sufficiency import Path


@pytest.mark.parametrize(
    ("query", "holders", "terms"),
    [
        ("What is Caroline's passport number?", ("Caroline",), ("passport",)),
        ("Which submarine did Jon command?", ("Jon",), ("submarine",)),
        ("How much tax did Jon pay last year?", ("Jon",), ("tax",)),
        ("What is Jon's wi-fi password?", ("Jon",), ("password",)),
        ("What's the weather in Porto?", ("Porto",), ("weather",)),
        ("How does Ann reset Ann's router?", ("Ann",), ("router",)),
        ("Convert 5 miles to kilometres.", (), ("miles",)),
        ("asdf qwerty", (), ("asdf", "qwerty")),
    ],
)
def test_the_terms_name_what_is_asked(
    query: str, holders: tuple[str, ...], terms: tuple[str, ...]
) -> None:
    assert asked_terms(query, holders) == terms


@pytest.mark.parametrize(
    ("query", "holders"),
    [
        ("What hobby does Alice have?", ("Alice",)),  # the kind asked, a fact names a member
        ("What was Priya's previous job?", ("Priya",)),
        ("What does Priya do for fun?", ("Priya",)),  # a verb or an adverb: how it is held
        ("Where is Sofia based?", ("Sofia",)),
        ("Tell me about Alice", ("Alice",)),
        ("What happened two weeks ago?", ()),
        ("Which city does Lena like?", ("Lena",)),
        ("x", ()),
    ],
)
def test_a_kind_a_verb_or_a_time_is_no_term(query: str, holders: tuple[str, ...]) -> None:
    assert asked_terms(query, holders) == ()


def test_a_term_memory_never_said_and_nothing_close_escalates() -> None:
    routing = unanswerable(Mentions(("passport",), closeness=ASKED_FLOOR - 0.01))
    assert routing is not None and routing.path is Path.ESCALATE
    assert routing.reasons == ('memory never mentions "passport"',)


def test_a_paraphrase_close_enough_is_left_to_the_router() -> None:
    assert unanswerable(Mentions(("bike",), closeness=ASKED_FLOOR)) is None


def test_every_term_mentioned_is_left_to_the_router() -> None:
    assert unanswerable(Mentions((), closeness=0.0)) is None


def test_the_unmentioned_terms_keep_their_order() -> None:
    assert unmentioned(["tax", "pay", "year"], {"pay"}) == ("tax", "year")


def test_a_query_with_nothing_to_look_up_escalates() -> None:
    assert asks_nothing("x") and asks_nothing("What is it?")
    assert not asks_nothing("lol") and not asks_nothing("2026")
    routing = unanswerable(Mentions((), closeness=1.0, nothing_asked=True))
    assert routing is not None and routing.path is Path.ESCALATE


def test_a_question_asking_a_judgement_is_told_apart() -> None:
    """Its answer is never said (read from what was said): the service leaves it to the
    router."""
    assert asks_judgement("What would Caroline's political leaning likely be?")
    assert asks_judgement("Would Caroline pursue writing as a career option?")
    assert not asks_judgement("What is Caroline's passport number?")
