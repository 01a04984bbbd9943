"""Dates and temporal qualifiers, resolved against the turn's capture time.

A closed English grammar of date expressions ("yesterday", "last Friday", "two weeks
ago", "next month", "in May", "on 8 May 2023"...) becomes DATE signals whose value is
an ISO date (``2023-05-07``) or an inclusive range (``2023-05-01/2023-05-31``).
Vaguer cues ("recently", "for two weeks", "anymore") become TEMPORAL signals.

A date said without a year resolves by what it dates (``core/language/tense.py``): "in October"
said in April is this year's October of a coming occasion ("we're flying to Japan in
October", "we might go in October", "our flight is on 3 October") and last year's of a
past one ("we went in October"). A recurring or life date ("my birthday is on 3 March",
"I was born on 3 March") and what the present says of every year ("Rome is lovely in
October") have no year said or implied, and the value has none: ``--03-03``, ``--10``
(ISO 8601's yearless forms), unless the caller asks to assume one (``assume_year``: a
query's "in May" means the nearest past May). Numeric dates ("27/06", "6/27/2025",
"27.06.", "2025-06-27") are read by ``core/language/numeric_dates.py``: day or month first only
when the numbers or the form say so; an ambiguous "03/04" stays undated. Weekdays take
the nearest past occurrence, or the nearest future one of a coming occasion.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

from provmem.core.claim import Signal, SignalKind
from provmem.core.language.lexicon import (
    MONTH_ABBREVIATIONS,
    MONTHS,
    NUMBER_WORDS,
    SEASONS,
    WEEKDAYS,
)
from provmem.core.language.numeric_dates import NUMERIC_DATE, numeric_date
from provmem.core.language.tense import Tense, date_tense, tense_at

__all__ = ["Tense", "find_temporal", "render", "tense_at"]


Resolver = Callable[[re.Match[str], date, Tense], str | None]

_MONTH = r"(?:[Jj]an(?:uary)?|[Ff]eb(?:ruary)?|March|[Aa]pr(?:il)?|May|[Jj]une?|[Jj]uly?"
_MONTH += r"|[Aa]ug(?:ust)?|[Ss]ep(?:t(?:ember)?)?|[Oo]ct(?:ober)?|[Nn]ov(?:ember)?"
_MONTH += r"|[Dd]ec(?:ember)?)"
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_WEEKDAY = r"(?:" + "|".join(w.capitalize() + "|" + w for w in WEEKDAYS) + r")"
_COUNT = r"(?:a couple of|couple of|a couple|a few|few|several|an?|\d{1,2}|"
_COUNT += "|".join(w for w in NUMBER_WORDS if " " not in w and len(w) > 2) + ")"
_UNIT = r"(?:day|week|month|year)s?"
_PREP = r"(?:(?i:on|in|during|at|by|from|until|till) )?"


def find_temporal(text: str, captured_at: datetime, *, assume_year: bool = True) -> list[Signal]:
    """DATE and TEMPORAL signals of ``text``, non-overlapping, in text order.

    Without ``assume_year`` a yearless date in the present tense keeps no year.
    """
    today = captured_at.date()
    taken: list[Signal] = []
    for pattern, resolver in _DATE_RULES:
        for match in pattern.finditer(text):
            signal = _resolve(match, resolver, text, today, assume_year)
            if signal is not None and not _overlaps(signal, taken):
                taken.append(signal)
    for pattern, meaning in _QUALIFIERS:
        for match in pattern.finditer(text):
            signal = Signal(SignalKind.TEMPORAL, match.group(0), *match.span(), meaning)
            if not _overlaps(signal, taken):
                taken.append(signal)
    return sorted(taken, key=lambda s: (s.start, s.end))


def render(value: str) -> str:
    """The English phrase for a resolved value: ``on 7 May 2023``, ``in May 2023``...

    >>> render("--03-03"), render("--10")
    ('on 3 March', 'in October')
    """
    if value.startswith("--"):
        return _render_yearless(value)
    if "/" not in value:
        return "on " + _long(date.fromisoformat(value))
    first, last = (date.fromisoformat(part) for part in value.split("/"))
    return _render_range(first, last)


def _render_range(first: date, last: date) -> str:
    if first == date(first.year, 1, 1) and last == date(first.year, 12, 31):
        return f"in {first.year}"
    if first.day == 1 and last == _month_end(first):
        return f"in {MONTHS[first.month - 1].capitalize()} {first.year}"
    season = _season_name(first, last)
    if season:
        return f"in the {season} of {first.year}"
    if first.weekday() == 0 and last - first == timedelta(days=6):
        return "in the week of " + _long(first)
    if first.weekday() == 5 and last - first == timedelta(days=1):
        return "on the weekend of " + _long(first)
    return f"between {_long(first)} and {_long(last)}"


def _season_name(first: date, last: date) -> str | None:
    for name, (first_month, last_month) in SEASONS.items():
        same_year = first.year == last.year and first.day == 1 and last == _month_end(last)
        if same_year and (first.month, last.month) == (first_month, last_month):
            return name
    return None


def _render_yearless(value: str) -> str:
    month, _, day = value[2:].partition("-")
    name = MONTHS[int(month) - 1].capitalize()
    return f"on {int(day)} {name}" if day else f"in {name}"


def _long(day: date) -> str:
    return f"{day.day} {MONTHS[day.month - 1].capitalize()} {day.year}"


def _resolve(
    match: re.Match[str], resolver: Resolver, text: str, today: date, assume_year: bool
) -> Signal | None:
    said = match.groupdict()
    day = bool(said.get("day") or said.get("first") or said.get("iso_day"))
    tense = date_tense(text, match.start(), day=day)
    if assume_year and tense is Tense.PRESENT:
        tense = Tense.PAST
    try:
        value = resolver(match, today, tense)
    except (ValueError, OverflowError):
        return None  # off the calendar (year 0 or 10000): the expression stays unresolved
    if value is None:
        return None
    return Signal(SignalKind.DATE, match.group(0), match.start(), match.end(), value)


def _overlaps(signal: Signal, taken: list[Signal]) -> bool:
    return any(signal.start < other.end and other.start < signal.end for other in taken)


# -- calendar arithmetic -------------------------------------------------------------


def _month_end(day: date) -> date:
    following = _shift_months(day.replace(day=1), 1)
    return following - timedelta(days=1)


def _shift_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _span(first: date, last: date) -> str:
    return f"{first.isoformat()}/{last.isoformat()}"


def _month_span(first: date) -> str:
    return _span(first.replace(day=1), _month_end(first))


def _year_span(year: int) -> str:
    return _span(date(year, 1, 1), date(year, 12, 31))


def _week_span(day: date) -> str:
    monday = day - timedelta(days=day.weekday())
    return _span(monday, monday + timedelta(days=6))


def _month_number(name: str) -> int:
    return MONTH_ABBREVIATIONS[name[:3].lower()]


def _count(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.get(word)


def _nearest_month(month: int, today: date, tense: Tense) -> date:
    year = today.year
    if tense is Tense.FUTURE and month < today.month:
        year += 1
    elif tense is not Tense.FUTURE and month > today.month:
        year -= 1
    return date(year, month, 1)


_PAST_PREPOSITIONS = frozenset({"since", "from"})
_FUTURE_PREPOSITIONS = frozenset({"until", "till", "by"})


def _implied_tense(match: re.Match[str], tense: Tense) -> Tense:
    """ "since May" is past and "until May" future, whatever the verb."""
    words = match.group(0).lower().split()
    if words and words[0] in _PAST_PREPOSITIONS:
        return Tense.PAST
    if words and words[0] in _FUTURE_PREPOSITIONS:
        return Tense.FUTURE
    return tense


# -- resolvers: (match, today, tense) -> ISO value ---------------------------


def _numeric(match: re.Match[str], today: date, tense: Tense) -> str | None:
    """ "on 27/06", "6/27/2025", "2025-06-27": core/language/numeric_dates.py reads the order."""
    said = numeric_date(match)
    if said is None:
        return None
    return _calendar_day(said.day, said.month, said.year, match, today, tense)


def _day_month_year(match: re.Match[str], today: date, tense: Tense) -> str | None:
    day = int(re.sub(r"\D", "", match.group("day")))
    month = _month_number(match.group("month"))
    year = int(match.group("year")) if match.group("year") else None
    return _calendar_day(day, month, year, match, today, tense)


def _calendar_day(
    day: int, month: int, year: int | None, match: re.Match[str], today: date, tense: Tense
) -> str | None:
    """A day of the calendar; without a year, yearless in the present, else by tense."""
    tense = _implied_tense(match, tense)
    try:
        if year is None and tense is Tense.PRESENT:
            return date(2000, month, day).isoformat().replace("2000", "-", 1)
        year = year if year is not None else _nearest_day(month, day, today, tense).year
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def _nearest_day(month: int, day: int, today: date, tense: Tense) -> date:
    """This year's day, or the next (future) or the last (past) year's when it is on the
    wrong side of today."""
    this_year = date(today.year, month, day) if (month, day) != (2, 29) else date(2000, 2, 29)
    if tense is Tense.FUTURE and (month, day) < (today.month, today.day):
        return this_year.replace(year=today.year + 1)
    if tense is not Tense.FUTURE and (month, day) > (today.month, today.day):
        return this_year.replace(year=today.year - 1)
    return this_year.replace(year=today.year)


def _month_phrase(match: re.Match[str], today: date, tense: Tense) -> str | None:
    month = _month_number(match.group("month"))
    if match.group("year"):
        return _month_span(date(int(match.group("year")), month, 1))
    which = (match.group("which") or "").lower()
    tense = Tense.FUTURE if which == "next" else _implied_tense(match, tense)
    if not which and tense is Tense.PRESENT:
        return f"--{month:02d}"
    first = _nearest_month(month, today, tense)
    if which == "last" and first.year == today.year and month >= today.month:
        first = first.replace(year=first.year - 1)
    return _month_span(first)


def _year(match: re.Match[str], today: date, tense: Tense) -> str | None:
    year = int(match.group("year"))
    return _year_span(year) if 1900 <= year <= 2100 else None


def _named_day(match: re.Match[str], today: date, tense: Tense) -> str | None:
    offsets = {"today": 0, "tonight": 0, "yesterday": -1, "last night": -1}
    offsets |= {"this morning": 0, "this afternoon": 0, "this evening": 0}
    offsets |= {"tomorrow": 1, "the day before yesterday": -2, "the day after tomorrow": 2}
    word = " ".join(match.group("word").lower().split())
    return (today + timedelta(days=offsets[word])).isoformat()


def _relative_period(match: re.Match[str], today: date, tense: Tense) -> str | None:
    step = {"last": -1, "past": -1, "previous": -1, "this": 0, "next": 1, "coming": 1}
    offset = step[match.group("which").lower()]
    unit = match.group("unit").lower()
    if unit == "week":
        return _week_span(today + timedelta(weeks=offset))
    if unit == "weekend":
        return _weekend(today, offset)
    if unit == "month":
        return _month_span(_shift_months(today, offset))
    return _year_span(today.year + offset)


def _weekend(today: date, offset: int) -> str:
    saturday = today + timedelta(days=5 - today.weekday())
    if today.weekday() == 6:
        saturday -= timedelta(days=7)
    saturday += timedelta(weeks=offset)
    return _span(saturday, saturday + timedelta(days=1))


def _weekday(match: re.Match[str], today: date, tense: Tense) -> str | None:
    target = WEEKDAYS.index(match.group("weekday").lower())
    which = (match.group("which") or "").lower()
    if which in {"this", "next"}:
        monday = today - timedelta(days=today.weekday())
        weeks = 1 if which == "next" else 0
        return (monday + timedelta(weeks=weeks, days=target)).isoformat()
    delta = (today.weekday() - target) % 7 or 7
    if tense is Tense.FUTURE and which != "last":
        return (today + timedelta(days=(target - today.weekday()) % 7 or 7)).isoformat()
    return (today - timedelta(days=delta)).isoformat()


def _ago(match: re.Match[str], today: date, tense: Tense) -> str | None:
    sign = 1 if match.group("direction") is None else -1
    if match.group("direction") is None and match.group("into") is None:
        return None
    unit = match.group("unit").lower().rstrip("s")
    count = _count(match.group("count"))
    if count is None:
        return _vague_offset(unit, today, sign)
    return _offset(unit, count * sign, today)


def _offset(unit: str, count: int, today: date) -> str:
    if unit == "day":
        return (today + timedelta(days=count)).isoformat()
    if unit == "week":
        return _week_span(today + timedelta(weeks=count))
    if unit == "month":
        return _month_span(_shift_months(today, count))
    return _year_span(today.year + count)


def _vague_offset(unit: str, today: date, sign: int) -> str:
    days = {"day": 1, "week": 7, "month": 30, "year": 365}[unit]
    near, far = today + timedelta(days=2 * days * sign), today + timedelta(days=5 * days * sign)
    return _span(min(near, far), max(near, far))


def _season(match: re.Match[str], today: date, tense: Tense) -> str | None:
    first_month, last_month = SEASONS[match.group("season").lower()]
    which = match.group("which").lower()
    year = today.year
    in_season = first_month <= today.month <= last_month
    if which == "last" and (in_season or today.month < first_month):
        year -= 1
    elif which == "next" and (in_season or today.month > last_month):
        year += 1
    elif which == "this" and tense is not Tense.FUTURE and today.month < first_month:
        year -= 1
    first = date(year, first_month, 1)
    return _span(first, _month_end(date(year, last_month, 1)))


def _rule(pattern: str, resolver: Resolver, flags: int = re.I) -> tuple[re.Pattern[str], Resolver]:
    return re.compile(pattern, flags), resolver


_DATE_RULES: tuple[tuple[re.Pattern[str], Resolver], ...] = (
    (NUMERIC_DATE, _numeric),
    _rule(
        rf"\b{_PREP}(?:the )?(?P<day>{_DAY}) (?:of )?(?P<month>{_MONTH})\b"
        r"(?:,? (?P<year>\d{4}))?",
        _day_month_year,
        0,
    ),
    _rule(
        rf"\b{_PREP}(?P<month>{_MONTH}) (?P<day>{_DAY})\b(?:,? (?P<year>\d{{4}}))?",
        _day_month_year,
        0,
    ),
    _rule(
        r"\b(?:(?:on|in|during|at|by|from|until|till) )?(?P<which>last|this|past|previous"
        r"|next|coming) (?P<unit>weekend|week|month|year)\b",
        _relative_period,
    ),
    _rule(
        rf"\b(?:(?P<into>in) )?(?P<count>{_COUNT}) (?P<unit>{_UNIT})(?: (?P<direction>ago))?\b",
        _ago,
    ),
    _rule(
        r"\b(?:(?:on|at) )?(?P<word>the day before yesterday|the day after tomorrow|yesterday"
        r"|today|tonight|tomorrow|last night|this morning|this afternoon|this evening)\b",
        _named_day,
    ),
    _rule(
        r"\b(?:(?i:on|by|until) )?(?:(?P<which>(?i:last|this|next|on)) )?"
        rf"(?P<weekday>{_WEEKDAY})\b",
        _weekday,
        0,
    ),
    _rule(
        rf"\b(?:(?i:in|during) )?(?P<which>(?i:last|this|next)) (?P<month>{_MONTH})\b"
        r"(?: (?P<year>\d{4}))?",
        _month_phrase,
        0,
    ),
    _rule(
        r"\b(?i:in|during|since|until|by|from|of|early|late|mid) (?P<which>)"
        rf"(?P<month>{_MONTH})\b(?: (?P<year>\d{{4}}))?",
        _month_phrase,
        0,
    ),
    _rule(rf"\b(?P<month>{_MONTH}) (?P<year>\d{{4}})\b(?P<which>)", _month_phrase, 0),
    _rule(
        r"\b(?:(?:in|during) )?(?P<which>last|this|next) (?P<season>spring|summer|autumn|fall)\b",
        _season,
    ),
    _rule(r"\b(?:in|during|since|of|back in|until) (?P<year>(?:19|20)\d\d)\b(?!-)", _year),
)

_QUALIFIERS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), meaning)
    for pattern, meaning in (
        (r"\b(?:recently|lately|the other day|not long ago|just now)\b", "recent"),
        (r"\b(?:soon|someday|one day|in the future|eventually|upcoming)\b", "future"),
        (r"\b(?:currently|nowadays|these days|right now|at the moment|at present)\b", "ongoing"),
        (r"\b(?:no longer|anymore|any more|used to|formerly)\b", "ended"),
        (r"\b(?:always|every (?:day|week|month|year|morning|night)|daily|weekly)\b", "habitual"),
        (rf"\bfor (?:the (?:past|last) )?{_COUNT} {_UNIT}\b", "duration"),
        (r"\bsince\b", "since"),
    )
)
