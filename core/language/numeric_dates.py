"""Numeric dates: "2025-06-27", "27/06/2025", "6/27/2025", "27.06.", "on 27/06".

Which number is the day is read from the numbers themselves, never guessed:

- ``YYYY-MM-DD`` (ISO 8601) and ``YYYY/MM/DD`` put the year first, then month and day.
- With dots ("27.06.2025", "27.06.") the day comes first: the dotted form is day-first
  wherever it is written (German, Russian, ...).
- With slashes or dashes ("27/06", "6/27/2025", "03-04-2025") a number above 12 is the
  day ("27/06" is 27 June, "6/27" is 27 June); when both are 12 or less and differ
  ("03/04") the order is a locale's convention: ``day_first`` (True: day-month, as in most
  of the world; False: month-day, as in the US) decides, and with no locale known
  (``None``, what the extractor passes: a turn carries no locale) the date stays
  unresolved, said but not dated. The same number twice ("06/06") is unambiguous.

A numeric date must look like one: it has a year, or a word of time before it ("on
27/06", "by 6/30", "due 6/30", "before 1.3."). A fraction, a score, a version or "24/7"
has none of these; a dotted pair needs its closing dot too ("on 27.06."). Two-digit
years are this century's ("6/27/25").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["NUMERIC_DATE", "NumericDate", "numeric_date"]

NUMERIC_DATE = re.compile(
    r"(?<![\w./-])(?:(?P<prep>(?i:on|by|until|till|from|since)) (?:the )?)?"
    r"(?:(?P<iso_year>\d{4})(?P<iso_sep>[-/])(?P<iso_month>\d{1,2})(?P=iso_sep)(?P<iso_day>\d{1,2})"
    r"|(?P<first>\d{1,2})(?P<sep>[/-])(?P<second>\d{1,2})(?:(?P=sep)(?P<year>\d{4}|\d{2}))?"
    r"|(?P<dfirst>\d{1,2})\.(?P<dsecond>\d{1,2})\.(?P<dyear>\d{4}|\d{2})?)"
    r"(?![\w/-]|\.\d)"
)
_CONTEXT = re.compile(r"\b(?:before|after|due|dated|as of)\s+(?:the\s+)?$", re.I)


@dataclass(frozen=True)
class NumericDate:
    """A numeric date read: its day, month and year (None when not said)."""

    day: int
    month: int
    year: int | None


def numeric_date(match: re.Match[str], day_first: bool | None = None) -> NumericDate | None:
    """The day, month and year a :data:`NUMERIC_DATE` match says, or None when it is not
    a date (no year, preposition or closing dot; numbers out of range) or its order is
    ambiguous and ``day_first`` is None.

    >>> [numeric_date(NUMERIC_DATE.search(s)) for s in ("on 27/06", "on 03/04")]
    [NumericDate(day=27, month=6, year=None), None]
    """
    if match.group("iso_year"):
        return _checked(int(match["iso_day"]), int(match["iso_month"]), int(match["iso_year"]))
    dotted = match.group("dfirst") is not None
    year = _year(match.group("dyear") if dotted else match.group("year"))
    timed = bool(match.group("prep")) or _CONTEXT.search(match.string, 0, match.start())
    if year is None and not timed:
        return None  # "24/7", "3/4 of the tests", "Python 3.11.": no sign of a date
    if dotted:
        return _checked(int(match["dfirst"]), int(match["dsecond"]), year)
    first, second = int(match["first"]), int(match["second"])
    if first > 12 or first == second:
        return _checked(first, second, year)
    if second > 12:
        return _checked(second, first, year)
    if day_first is None:
        return None  # "03/04": 3 April or 4 March, by a locale the turn does not carry
    return _checked(first, second, year) if day_first else _checked(second, first, year)


def _year(text: str | None) -> int | None:
    if not text:
        return None
    return int(text) + 2000 if len(text) == 2 else int(text)


def _checked(day: int, month: int, year: int | None) -> NumericDate | None:
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    if year is not None and not 1900 <= year <= 2100:
        return None
    return NumericDate(day, month, year)
