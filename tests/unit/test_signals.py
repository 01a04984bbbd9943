"""Typed signals: one test per kind, spans point into the text, dates resolve against capture."""

from datetime import UTC, datetime

import pytest

from provmem.core.claim import Signal, SignalKind
from provmem.core.language.signals import find_signals
from provmem.core.language.temporal import render

AT = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday


def signals(text: str, kind: SignalKind) -> list[Signal]:
    found = [s for s in find_signals(text, speaker="Alice", captured_at=AT) if s.kind is kind]
    for signal in found:
        assert text[signal.start : signal.end] == signal.text
    return found


def values(text: str, kind: SignalKind) -> list[str | None]:
    return [s.value for s in signals(text, kind)]


def test_first_person_words_refer_to_the_speaker() -> None:
    found = signals("I told my sister about it.", SignalKind.SPEAKER)
    assert [(s.text, s.value) for s in found] == [("I", "Alice"), ("my", "Alice")]


def test_capitalised_names_are_entities_but_sentence_initial_common_words_are_not() -> None:
    found = signals("Yesterday I visited Paris with Anna. Thanks for asking!", SignalKind.ENTITY)
    assert [(s.text, s.value) for s in found] == [("Paris", "place"), ("Anna", "person")]


def test_entity_types_from_context() -> None:
    assert values("I work at Acme Corp now.", SignalKind.ENTITY) == ["organisation"]
    assert values("She moved to Lisbon.", SignalKind.ENTITY) == ["place"]


@pytest.mark.parametrize(
    ("phrase", "value"),
    [
        ("yesterday", "2023-05-07"),
        ("today", "2023-05-08"),
        ("last Friday", "2023-05-05"),
        ("two weeks ago", "2023-04-24/2023-04-30"),
        ("3 days ago", "2023-05-05"),
        ("next month", "2023-06-01/2023-06-30"),
        ("last month", "2023-04-01/2023-04-30"),
        ("last year", "2022-01-01/2022-12-31"),
        ("this weekend", "2023-05-13/2023-05-14"),
        ("last week", "2023-05-01/2023-05-07"),
        ("in May", "2023-05-01/2023-05-31"),
        ("on 8 May 2023", "2023-05-08"),
        ("on May 3, 2022", "2022-05-03"),
        ("in 2019", "2019-01-01/2019-12-31"),
    ],
)
def test_relative_and_absolute_dates_resolve_against_capture_time(phrase: str, value: str) -> None:
    found = signals(f"We went there {phrase}.", SignalKind.DATE)
    assert [(s.text, s.value) for s in found] == [(phrase, value)]


def test_bare_month_in_a_future_sentence_is_the_next_one() -> None:
    assert values("I will go to Japan in March.", SignalKind.DATE) == ["2024-03-01/2024-03-31"]
    assert values("I went to Japan in March.", SignalKind.DATE) == ["2023-03-01/2023-03-31"]


def test_modal_may_is_not_a_date() -> None:
    assert signals("I may go there, we will see.", SignalKind.DATE) == []


def test_renderings_are_absolute() -> None:
    assert render("2023-05-07") == "on 7 May 2023"
    assert render("2023-05-01/2023-05-31") == "in May 2023"
    assert render("2022-01-01/2022-12-31") == "in 2022"
    assert render("2023-04-24/2023-04-30") == "in the week of 24 April 2023"
    assert render("2023-05-13/2023-05-14") == "on the weekend of 13 May 2023"


def test_temporal_qualifiers() -> None:
    assert values("I recently started, I don't smoke anymore.", SignalKind.TEMPORAL) == [
        "recent",
        "ended",
    ]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I decided to quit my job.", SignalKind.DECISION),
        ("We'll go with Postgres.", SignalKind.DECISION),
        ("I'm going to learn Spanish.", SignalKind.DECISION),
        ("Actually, it was Tuesday.", SignalKind.CORRECTION),
        ("I meant the other one.", SignalKind.CORRECTION),
        ("It was not Lisbon but Porto.", SignalKind.CORRECTION),
        ("I no longer drink coffee.", SignalKind.CORRECTION),
        ("I love hiking.", SignalKind.PREFERENCE),
        ("My favourite food is ramen.", SignalKind.PREFERENCE),
        ("I can't stand cilantro.", SignalKind.DISLIKE),
        ("I hate mornings.", SignalKind.DISLIKE),
        ("I'm allergic to peanuts.", SignalKind.CONSTRAINT),
        ("I'm vegetarian.", SignalKind.CONSTRAINT),
        ("I don't eat meat.", SignalKind.CONSTRAINT),
        ("I don't eat meat.", SignalKind.NEGATION),
        ("I never go there.", SignalKind.NEGATION),
    ],
)
def test_cues(text: str, kind: SignalKind) -> None:
    assert signals(text, kind)


def test_a_plain_statement_has_no_cue() -> None:
    text = "I moved to Lisbon."
    kinds = {s.kind for s in find_signals(text, speaker="Alice", captured_at=AT)}
    assert kinds == {SignalKind.SPEAKER, SignalKind.ENTITY}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("See https://example.com/docs?page=2. Thanks", "url:https://example.com/docs?page=2"),
        ("Mail me at Bob.Smith@Example.org please", "email:bob.smith@example.org"),
        ("The file is in /etc/provmem/config.toml today", "path:/etc/provmem/config.toml"),
        ("We run v1.2.3 in production", "version:v1.2.3"),
        ("Ticket PROJ-142 is open", "id:proj-142"),
        ("It cost $30, a bargain", "amount:$30"),
        ("I ran 5 km this morning", "quantity:5 km"),
        ("Prices rose 20% last year", "percent:20%"),
    ],
)
def test_hard_anchors(text: str, value: str) -> None:
    assert values(text, SignalKind.ANCHOR) == [value]


def test_signals_are_deterministic_and_sorted() -> None:
    text = "Actually, I moved to Porto last month, not Lisbon. See https://x.io/a."
    once = find_signals(text, speaker="Alice", captured_at=AT)
    assert once == find_signals(text, speaker="Alice", captured_at=AT)
    assert once == sorted(once, key=lambda s: (s.start, s.end, s.kind.value))
