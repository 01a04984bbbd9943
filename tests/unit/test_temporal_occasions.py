"""A yearless date's year by what it dates: a coming occasion, a past one, or a recurring
or life date (a birthday, a birth) that has none."""

from datetime import UTC, datetime

import pytest

from provmem.core.claim import SignalKind
from provmem.core.extraction.claims import extract_turn
from provmem.core.language.temporal import find_temporal

JUNE = datetime(2026, 6, 21, 12, tzinfo=UTC)
JANUARY = datetime(2026, 1, 10, 12, tzinfo=UTC)


def dates(text: str, said_at: datetime = JUNE) -> list[str | None]:
    found = find_temporal(text, said_at, assume_year=False)
    return [s.value for s in found if s.kind is SignalKind.DATE]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I was born on 5 July.", "--07-05"),
        ("My brother was born on 12 January.", "--01-12"),
        ("She was born in Lagos on 9 November.", "--11-09"),
        ("i was born in may and he was born on 2 December", "--12-02"),
        ("I was born in May.", "--05"),
        ("Her birthday's coming up: it falls on 2 July.", "--07-02"),
        ("My birthday's coming up, it's on 27 June.", "--06-27"),
        ("Our anniversary is coming up on 12 August.", "--08-12"),
        ("His birthday falls on 3 March.", "--03-03"),
    ],
)
def test_a_birthday_or_a_birth_date_gets_no_year_whatever_the_tense(text: str, value: str) -> None:
    assert dates(text) == [value]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I was born on 5 July 1990.", "1990-07-05"),
        ("Our son was just born on 3 June.", "2026-06-03"),
        ("For my birthday we're going to Paris on 27 July.", "2026-07-27"),
        ("My birthday party is on 3 July.", "2026-07-03"),
        ("My son, who was born in 2019, starts school on 3 September.", "2026-09-03"),
    ],
)
def test_a_said_year_a_recent_birth_or_an_occasion_on_a_birthday_keeps_its_year(
    text: str, value: str
) -> None:
    assert dates(text)[-1] == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Our flight to Lisbon is on 27 August.", "2026-08-27"),
        ("Our flight to Lisbon is on 27 May.", "2027-05-27"),
        ("We fly out to Chile on 8 February!", "2027-02-08"),
        ("The kids start school on 3 September.", "2026-09-03"),
        ("We might visit Kyoto in March.", "2027-03-01/2027-03-31"),
        ("We'd love to go back in October.", "2026-10-01/2026-10-31"),
        ("She's graduating in September.", "2026-09-01/2026-09-30"),
        ("The conference is in October.", "2026-10-01/2026-10-31"),
        ("I have a dentist appointment on 3 July.", "2026-07-03"),
        ("We booked a table for 3 July.", "2026-07-03"),
        ("I've booked flights for 3 March.", "2027-03-03"),
        ("The baby is due in May.", "2027-05-01/2027-05-31"),
        ("We loved Rome, and our flight home is on 3 May.", "2027-05-03"),
    ],
)
def test_a_coming_occasion_in_the_present_or_with_a_modal_is_the_next_such_date(
    text: str, value: str
) -> None:
    assert dates(text) == [value]


@pytest.mark.parametrize(
    ("text", "said_at", "value"),
    [
        ("I was in Rome on 3 March.", JUNE, "2026-03-03"),
        ("I was in Rome on 3 March.", JANUARY, "2025-03-03"),
        ("We went to Porto in November.", JANUARY, "2025-11-01/2025-11-30"),
        ("We ran a half marathon on 3 May.", JUNE, "2026-05-03"),
        ("I moved to Berlin in March.", JUNE, "2026-03-01/2026-03-31"),
        ("I moved back to Rome on 3 March.", JUNE, "2026-03-03"),
        ("We talked about the meeting on 3 March.", JUNE, "2026-03-03"),
        ("We might have gone in March.", JUNE, "2026-03-01/2026-03-31"),
        ("He's been here since 3 March.", JUNE, "2026-03-03"),
        ("The meeting on 3 August got cancelled.", JUNE, "2025-08-03"),
    ],
)
def test_a_past_occasion_keeps_its_year_by_tense(text: str, said_at: datetime, value: str) -> None:
    assert dates(text, said_at) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "We always go to the lake in July.",
        "Rome is lovely in October.",
        "The festival is in August every year.",
        "School starts in September.",
        "I usually leave on 3 July.",
    ],
)
def test_what_happens_every_year_keeps_no_year(text: str) -> None:
    (value,) = dates(text)
    assert value is not None and value.startswith("--")


def test_the_statement_keeps_the_expression_beside_the_resolved_date() -> None:
    (birth,) = extract_turn("I was born on 5 July.", speaker="Maya", captured_at=JUNE).claims
    assert birth.statement == "Maya was born on 5 July."
    assert birth.time_expressions == (("on 5 July", "--07-05"),)
    (flight,) = extract_turn(
        "Our flight to Lisbon is on 27 May.", speaker="Maya", captured_at=JUNE
    ).claims
    assert "on 27 May 2027" in flight.statement
    assert flight.time_expressions == (("on 27 May", "2027-05-27"),)


def test_would_of_a_past_habit_is_no_future() -> None:
    (habit,) = dates("We would go there in July when I was a kid.")
    (wish,) = dates("We would love to go there in July.")
    assert habit is not None and habit < "2026-06-21"
    assert wish == "2026-07-01/2026-07-31"
