"""Time with tense: a yearless date gets a year only when the tense implies one."""

from datetime import UTC, datetime

import pytest

from provmem.core.extraction.claims import extract_turn
from provmem.core.language.temporal import Tense, find_temporal, render, tense_at

APRIL = datetime(2026, 4, 8, 13, 56, tzinfo=UTC)


def dates(text: str, assume_year: bool = False) -> list[str | None]:
    return [s.value for s in find_temporal(text, APRIL, assume_year=assume_year)]


@pytest.mark.parametrize(
    ("text", "tense"),
    [
        ("We're flying to Japan in October.", Tense.FUTURE),
        ("We will go in October.", Tense.FUTURE),
        ("We went to Japan in October.", Tense.PAST),
        ("I've visited Japan in October.", Tense.PAST),
        ("My trip is in October.", Tense.PRESENT),
        ("I'm excited about October.", Tense.PRESENT),
    ],
)
def test_the_tense_of_a_sentence(text: str, tense: Tense) -> None:
    assert tense_at(text, text.index("October")) is tense


def test_in_october_said_in_april_resolves_by_tense() -> None:
    assert dates("We're flying to Japan in October.") == ["2026-10-01/2026-10-31"]
    assert dates("We went to Japan in October.") == ["2025-10-01/2025-10-31"]


def test_a_date_without_a_year_keeps_none_in_the_present_tense() -> None:
    assert dates("My birthday is on 3 March.") == ["--03-03"]
    assert dates("Rome is lovely in October.") == ["--10"]
    assert render("--03-03") == "on 3 March" and render("--10") == "in October"


def test_a_preposition_can_imply_the_tense() -> None:
    assert dates("I've been here since March.") == ["2026-03-01/2026-03-31"]
    assert dates("The report is due by 3 May.") == ["2026-05-03"]


def test_a_query_still_assumes_the_nearest_past() -> None:
    assert dates("What happened in October?", assume_year=True) == ["2025-10-01/2025-10-31"]


def test_the_claim_keeps_the_expression_beside_its_resolution() -> None:
    (claim,) = extract_turn("My birthday is on 3 March.", speaker="Maya", captured_at=APRIL).claims
    assert claim.statement == "Maya's birthday is on 3 March."
    assert claim.time_expressions == (("on 3 March", "--03-03"),)
    assert claim.valid_from is None
    (trip,) = extract_turn(
        "We're flying to Japan in October.", speaker="Maya", captured_at=APRIL
    ).claims
    assert trip.time_expressions == (("in October", "2026-10-01/2026-10-31"),)


@pytest.mark.parametrize(
    "text",
    [
        "The launch slipped to August 27.",
        "With the launch pushed to August 27 we can do the accessibility pass first.",
        "They moved the release to March 3.",
    ],
)
def test_a_date_something_was_moved_to_is_ahead_whatever_the_tense(text: str) -> None:
    said_in_april = [s.value for s in find_temporal(text, APRIL)]
    assert said_in_april and str(said_in_april[0]) > "2026-04-08"


def test_a_rendered_date_keeps_the_preposition_it_follows() -> None:
    statement = (
        extract_turn(
            "The beta slipped to August 22, and on May 3 we demoed it.",
            speaker="Maya",
            captured_at=APRIL,
        )
        .claims[0]
        .statement
    )
    assert "slipped to 22 August 2026" in statement
    assert " to on " not in statement


EDGES = [datetime(1, 1, 1, 3, tzinfo=UTC), datetime(9999, 12, 31, 20, tzinfo=UTC)]
RELATIVE = [
    "I moved to Lisbon last year.",
    "I'll move to Lisbon next year.",
    "Yesterday I adopted a dog.",
    "Tomorrow I start my new job.",
    "Two days ago I bought a bike.",
    "In two weeks we fly to Peru.",
    "I moved 5 years ago.",
    "Last week I visited Porto.",
    "Next month I get a cat.",
    "We went to Japan in October.",
    "We're flying to Japan in December.",
    "My birthday is on 3 March.",
    "I started in the spring.",
    "Last weekend we hiked.",
    "On Monday I called my mum.",
]


@pytest.mark.parametrize("at", EDGES, ids=["year 1", "year 9999"])
def test_a_turn_said_at_the_calendar_s_edge_is_read_without_error(at: datetime) -> None:
    """A time that would fall off the calendar (year 0, year 10000) is left unresolved;
    the turn is still read (an error here stopped the derive stage for every scope)."""
    for text in RELATIVE:
        extract_turn(text, speaker="Ann", captured_at=at)
        assert all(s.value is None or "0000" not in s.value for s in find_temporal(text, at))
