"""The pure scoring rules of bench/techbench and bench/common (no pipeline)."""

from types import SimpleNamespace

import pytest

from bench.common import token_f1
from bench.extraction import misattributed, wrong_speaker
from bench.techbench import above, conflicts_of, span_from_code, states

RANGES = [[10, 40, "fence"], [50, 60, "inline"], [70, 72, "marker"]]


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (0, 9, False),  # prose before the fence
        (5, 12, True),  # touches the fenced block
        (50, 60, True),  # all inline code
        (44, 62, True),  # mostly inline code (10 of 18)
        (41, 70, False),  # a sentence that mentions `code` in passing
        (69, 80, False),  # a list item: the marker is not code
    ],
)
def test_a_span_comes_from_code_when_it_touches_a_block_or_is_mostly_inline(
    start: int, end: int, expected: bool
) -> None:
    assert span_from_code(start, end, RANGES) is expected


@pytest.mark.parametrize(
    ("statement", "value", "expected"),
    [
        ("The p95 latency is 250 ms.", "250ms", True),
        ("The p95 latency is 1250ms.", "250ms", False),
        ("Greenhouse has 1200 monthly active users.", "1,200", True),
        ("The beta launches on 27 August.", "August 27", True),
        ("Coverage is 72 percent.", "72%", True),
        ("The suite has 51 tests.", "5", False),
        ("Flask 3.0.2 is used.", "3.0", False),
    ],
)
def test_a_statement_states_a_value_in_its_usual_spellings(
    statement: str, value: str, expected: bool
) -> None:
    assert states(statement, value) is expected


def test_conflicts_are_read_defensively() -> None:
    assert conflicts_of(SimpleNamespace()) == set()
    assert conflicts_of(SimpleNamespace(conflicts_with=("f1", "f2"))) == {"f1", "f2"}
    assert conflicts_of(SimpleNamespace(conflicts_with=[{"fact_id": "f3"}])) == {"f3"}
    assert conflicts_of(SimpleNamespace(conflicts_with="f4")) == {"f4"}


def test_above_needs_the_new_one_present_and_first() -> None:
    assert above(0, 3) and above(2, None)
    assert not above(None, 1) and not above(3, 3) and not above(4, 1)


def test_token_f1() -> None:
    assert token_f1("Maya moved to Seattle.", "maya moved to seattle") == 1.0
    assert token_f1("a b", "c d") == 0.0
    assert token_f1("Maya lives in Seattle", "Maya lives in Chicago") == pytest.approx(0.75)


def _fact(statement: str, **fields: str) -> SimpleNamespace:
    return SimpleNamespace(statement=statement, **fields)


PEOPLE = {"Caroline", "Melanie", "assistant"}


@pytest.mark.parametrize(
    ("statement", "subject", "speakers", "expected"),
    [
        ("Caroline moved to Chicago.", "Caroline", {"Caroline"}, False),
        ("Melanie moved to Chicago.", "Melanie", {"Caroline"}, True),  # the other speaker
        ("Melanie's kids love the beach.", "Melanie's kids", {"Melanie"}, False),
        ("The team uses Redis.", "The team", {"Caroline"}, False),  # no participant named
        ("Caroline should add an index.", "Caroline", {"assistant"}, True),  # assistant's words
        ("The assistant recommended an index.", "The assistant", {"assistant"}, False),
    ],
)
def test_wrong_speaker(statement: str, subject: str, speakers: set, expected: bool) -> None:
    assert wrong_speaker(_fact(statement), subject, speakers, PEOPLE) is expected


def test_an_attribution_field_marks_the_assistants_claims() -> None:
    fact = _fact("Use an index on orders.", speaker="assistant")
    assert not wrong_speaker(fact, "", {"assistant"}, PEOPLE)


@pytest.mark.parametrize(
    ("statement", "subject", "support", "expected"),
    [
        # A statement about the listener, grounded in "you": wrong speaker, not misattributed.
        ("Melanie's passion is awesome.", "Melanie's passion", "Your passion is awesome!", False),
        ("Melanie has a dog.", "Melanie", "Melanie has a dog, I think.", False),  # named
        ("Melanie moved to Chicago.", "Melanie", "I moved to Chicago.", True),  # put on her
        ("Caroline moved to Chicago.", "Caroline", "I moved to Chicago.", False),  # the speaker
        ("Caroline should add an index.", "Caroline", "You should add an index.", True),
    ],
)
def test_misattributed_counts_a_statement_put_on_the_wrong_person(
    statement: str, subject: str, support: str, expected: bool
) -> None:
    speakers = {"assistant"} if statement.startswith("Caroline should") else {"Caroline"}
    fact = _fact(statement)
    assert misattributed(fact, subject, speakers, PEOPLE, [support]) is expected
    if not expected and subject.startswith("Melanie"):
        assert wrong_speaker(fact, subject, speakers, PEOPLE)  # the old check counts it
