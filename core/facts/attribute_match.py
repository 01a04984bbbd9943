"""When two open readings are about one attribute, and when their values can replace
each other (core/extraction/attributes.py reads them).

    >>> same_attribute("image size", "docker image"), same_attribute("build time", "response time")
    (True, False)
    >>> value_shape("3.11"), value_shape("4"), value_shape("250 ms"), value_shape("june 8")
    ('version', 'count', 'duration', 'date')
"""

from __future__ import annotations

import re

from provmem.core.language.lexicon import MONTHS, UNITS

__all__ = ["comparable", "same_attribute", "value_kind", "value_shape"]


_UNIT_CLASS = {
    **dict.fromkeys(("ns", "ms", "s", "min", "h"), "duration"),
    **dict.fromkeys(("kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib"), "size"),
    **dict.fromkeys(("usd", "$"), "usd"),
    **dict.fromkeys(("eur", "€"), "eur"),
}
_PLAIN_NUMBER = re.compile(r"^\d+(?:\.\d+)*$")


def value_kind(value: str) -> str:
    """``number`` (counts, versions), a quantity's unit (``ms``, ``$``), else ``text``
    (names, places, dates)."""
    if _PLAIN_NUMBER.match(value):
        return "number"
    if value[:1] in "$€£" and value[1:2].isdigit():
        return _UNIT_CLASS.get(value[0], value[0])
    number, _, unit = value.partition(" ")
    if _PLAIN_NUMBER.match(number) and unit in UNITS.values():
        return _UNIT_CLASS.get(unit, unit)
    return "text"


_DATE_VALUE = re.compile(rf"\b(?:{'|'.join(MONTHS)})\b")


def value_shape(value: str) -> str:
    """A finer kind of value: a count apart from a version ("4" / "3.11"), a date apart
    from a name; quantities by unit class as in :func:`value_kind`."""
    kind = value_kind(value)
    if kind == "number":
        return "version" if "." in value else "count"
    if kind == "text":
        return "date" if _DATE_VALUE.search(value) else "text"
    return kind


def same_attribute(first: str, second: str) -> bool:
    """Whether two attribute keys name the same thing: the head word of one is a word of
    the other ("image size" ~ "docker image" ~ "image"; "open issue" !~ "open ticket"), or
    one is an acronym of the other ("MAU" ~ "monthly user": first and last initials); with
    one head, the modifiers of one are among the other's ("pod memory" ~ "web pod memory"),
    else they tell two things apart ("python version" !~ "express version", "web pod
    memory" !~ "worker pod memory", "staging p99" !~ "production p99")."""
    words, others = first.lower().split(), second.lower().split()
    if not (words and others):
        return False
    if words[-1] == others[-1]:  # one head: the modifiers must not name two things
        mine, theirs = set(words[:-1]), set(others[:-1])
        return mine <= theirs or theirs <= mine
    return (
        words[-1] in others
        or others[-1] in words
        or _acronym_of(first, others)
        or _acronym_of(second, words)
    )


def _acronym_of(acronym: str, words: list[str]) -> bool:
    """ "MAU" for "monthly (active) user": its first letter starts the phrase, its last
    starts the head, and it has a letter for every word."""
    if not (acronym.isupper() and acronym.isalpha()) or len(words) < 2:
        return False
    letters = acronym.lower()
    return letters[0] == words[0][0] and letters[-1] == words[-1][0] and len(words) <= len(letters)


def comparable(first: str, second: str) -> bool:
    """Whether two values of one attribute can replace each other: the same kind of value
    (a number, a quantity in the same unit, a text)."""
    return value_kind(first) == value_kind(second)
