"""Numeric dates: the order read from the numbers or the form, never guessed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from provmem.core.extraction.claims import extract_claims
from provmem.core.language.numeric_dates import NUMERIC_DATE, NumericDate, numeric_date
from provmem.core.language.temporal import find_temporal

AT = datetime(2026, 4, 10, 12, 0, tzinfo=UTC)


def dates(text: str) -> list[tuple[str, str]]:
    return [(s.text, s.value) for s in find_temporal(text, AT) if s.kind.value == "date"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("We shipped it on 2025-06-27.", "2025-06-27"),  # ISO: year, month, day
        ("We shipped it on 27/06/2025.", "2025-06-27"),  # 27 > 12: the day
        ("We shipped it on 6/27/2025.", "2025-06-27"),  # 27 > 12: the day, month first
        ("We shipped it on 27.06.2025.", "2025-06-27"),  # dotted: day first
        ("We moved on 6/6/25.", "2025-06-06"),  # the same number twice; a two-digit year
        ("We paid the invoice on 6/30.", "2025-06-30"),  # past tense, no year: last June
        ("The invoice is due 6/30.", "2026-06-30"),  # a coming date: the next 30 June
    ],
)
def test_an_unambiguous_numeric_date_is_resolved(text: str, value: str) -> None:
    assert [v for _, v in dates(text)] == [value]


@pytest.mark.parametrize(
    "text",
    [
        "The meeting moved to 03/04/2026.",  # 3 April or 4 March: no locale known
        "The shop is open 24/7.",  # no year, no word of time
        "I finished 3/4 of the tests.",
        "We use Python 3.11.",
        "See section 2.3.1 of the spec.",
    ],
)
def test_an_ambiguous_or_non_date_number_is_not_dated(text: str) -> None:
    assert dates(text) == []


def test_a_locale_default_decides_an_ambiguous_order() -> None:
    match = NUMERIC_DATE.search("on 03/04/2026")
    assert match is not None
    assert numeric_date(match, day_first=True) == NumericDate(3, 4, 2026)
    assert numeric_date(match, day_first=False) == NumericDate(4, 3, 2026)
    assert numeric_date(match) is None


def test_a_yearless_numeric_date_takes_its_year_from_tense() -> None:
    said = {
        "I flew to Rome on 27/06.": "2025-06-27",  # past: last June
        "We'll fly to Rome on 27/06.": "2026-06-27",  # future: this June
        "My birthday is on 27/06.": "--06-27",  # recurring: no year
    }
    for text, value in said.items():
        (claim,) = extract_claims(text, speaker="Ann", captured_at=AT)
        assert claim.time_expressions == (("on 27/06", value),)


def test_the_statement_keeps_a_year_as_said_and_renders_one_it_resolved() -> None:
    (said,) = extract_claims("We shipped the app on 6/27/2025.", speaker="Ann", captured_at=AT)
    assert said.statement == "Ann and others shipped the app on 6/27/2025."
    (resolved,) = extract_claims("I flew to Rome on 27/06.", speaker="Ann", captured_at=AT)
    assert resolved.statement == "Ann flew to Rome on 27 June 2025."
