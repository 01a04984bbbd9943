"""The answer first: the fused top reordered where the question says more than fusion.

Fusion ranks by how much a result resembles the question; a question asks of someone (its
holder: a named person, "my sister", the user) a value of some kind (where: a place; when:
a date or time; how many, how much: a number; who: a name). Within the first places, a
result goes above another when it agrees with what is asked at least as well (it shows the
asked holder, not a relative or the person a relative belongs to; it states a value of the
asked kind) and is at least as close to what is asked of the names (the similarity the
query's dense search for it already gave, a difference within ``CLOSER`` counting as none),
and better on one of the two; asked how things stand, closeness alone never lifts an
earlier fact over a later one. Otherwise the fused order stands. Only places within the
window move, so what the top holds is unchanged (recall at its depth); the raw tier's
guarantee is applied after.

Light structure only, no parse and no second embedding at query time: the question's
wh-word, the names it mentions and the person nouns they own; a fact's opening possessive
chain ("Maya's sister's rent"), its digits, time expressions, names and place phrases.
Measured on the blind split (docs/benchmarks.md, branch rerank): a stricter order (holder
and kind first, or closeness first) moved as many answers down as up.

>>> asked_holder("Where does Maya's sister live?", ("Maya",))
('maya', 'sister')
>>> fact_holder("Maya's sister Lena lives in Denver.")
('maya', 'sister')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from provmem.core.events import Fact
from provmem.core.language.lexicon import CALENDAR_WORDS, NUMBER_WORDS, PLACE_PREPOSITIONS
from provmem.core.language.wordlists import word_list
from provmem.core.retrieval.fusion import FusedBundle

#: People a holder may be ("my sister", "her husband"): kin, partners, friends and roles.
PERSON_NOUNS = word_list("provmem.core.extraction", "person_nouns")
#: Words of time ("in the mornings", "at night", "on weekends", "in two weeks", "next"):
#: a preposition before them says when, not where (a singular is read by its plural).
TIME_NOUNS = word_list("provmem.core.extraction", "time_nouns") | word_list(
    "provmem.core.extraction", "time_words"
)
WINDOW = 5  # the places reordered: the answer lost at ranking is most often 2nd to 5th
#: A difference of cosines within it is no difference: near-identical statements differ
#: by a few thousandths, what a question asks of them by tenths.
CLOSER = 0.02


class Kind(StrEnum):
    """The kind of value a question asks for."""

    NAME = "name"  # who, what is ... called: a person, an organisation, a thing's name
    PLACE = "place"  # where: a name or a place phrase ("in Leeds", "at a brewery")
    TIME = "time"  # when, what date, what time
    NUMBER = "number"  # how many, how much, how old, what price


_ASKED = (
    (Kind.TIME, re.compile(r"\bwhen\b|\bwhat (?:date|day|year|month|time)\b", re.I)),
    (Kind.NUMBER, re.compile(r"\bhow (?:many|much|old|far|long|often|big)\b", re.I)),
    (Kind.PLACE, re.compile(r"\bwhere\b", re.I)),
    (Kind.NAME, re.compile(r"\bwho(?:m|se)?\b|\bname\b|\bcalled\b", re.I)),
)
_NAME = r"[A-Z][\w-]*(?: [A-Z][\w-]*)*"
_CHAIN = re.compile(rf"(?P<name>[Tt]he user|{_NAME})(?P<rest>(?:['’]s [\w-]+)*)")
_OWNED = re.compile(r"['’]s ([\w-]+)")
_CAPITAL = re.compile(r"(?<!^)(?<![.!?] )\b[A-Z][\w-]*\b(?!['’]s\b)")  # an owner is no value
#: Prepositions that say where: "lives in", "works at", "moved to"; a time after one is no place.
_WHERE = "|".join(
    sorted(PLACE_PREPOSITIONS | word_list("provmem.core.language", "prepositions_of_place"))
)
_PLACE = re.compile(rf"\b(?:{_WHERE}) (?:(?:the|a|an|my|his|her|their|our) )?(?P<word>[\w-]+)")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_CALENDAR = "|".join(sorted((w.capitalize() for w in CALENDAR_WORDS), key=len, reverse=True))
_NAMED_DAY = re.compile(rf"\b(?:{_CALENDAR})\b")  # capitalised: "May", not "may"
_DAY = re.compile(
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?(?: of)? (?:{_CALENDAR})\b"
    rf"|\b(?:{_CALENDAR}) \d{{1,2}}(?:st|nd|rd|th)?\b"
)
_CLOCK = re.compile(r"\b\d{1,2}(?::\d\d)?\s?(?:am|pm)\b|\b\d{1,2}:\d\d\b", re.I)
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[a-z]+")
_COUNTS = {w for w in NUMBER_WORDS if " " not in w and w not in ("a", "an")}


def asked_kind(query: str) -> Kind | None:
    """The kind of value the question asks for (its first wh-phrase that names one)."""
    found = [(m.start(), kind) for kind, pattern in _ASKED if (m := pattern.search(query))]
    return min(found)[1] if found else None


def _chain(text: str, at: int = 0) -> tuple[str, ...]:
    """The holder a possessive chain starting at ``at`` names: the name and the person
    nouns owned after it ("Maya's sister's rent" -> maya, sister)."""
    match = _CHAIN.match(text, at)
    if match is None:
        return ()
    name = match.group("name").lower()
    holder = ["user" if name == "the user" else name]
    for owned in _OWNED.findall(match.group("rest")):
        if owned.lower() not in PERSON_NOUNS:
            break
        holder.append(owned.lower())
    return tuple(holder)


def asked_holder(query: str, names: Sequence[str]) -> tuple[str, ...]:
    """Whom the question asks about: the first name it mentions with the person nouns it
    owns ("Maya's sister"); empty when it names no one (a first person is resolved to the
    user's name before)."""
    for name in names:
        at = query.find(name)
        if at >= 0:
            return _chain(query, at)
    return ()


def fact_holder(statement: str) -> tuple[str, ...]:
    """Whom a fact is about when its statement opens with a name: the name and the person
    nouns it owns; empty otherwise."""
    return _chain(statement)


def holder_agreement(asked: tuple[str, ...], fact: Fact) -> int:
    """1 when the fact opens with the asked holder, -1 when it opens with someone else of
    the same name's circle (the person asked about, or one of their relatives, when another
    is asked), 0 when it does not show."""
    shown = fact_holder(fact.statement)
    if not asked or not shown:
        return 0
    if shown == asked:
        return 1
    return -1 if shown[0] == asked[0] else 0


def stated_kinds(fact: Fact) -> set[Kind]:
    """The kinds of value a fact states: a time (a time expression, a date signal, a
    calendar word, a clock time), a number (a digit or a number word outside the times),
    a name (a capitalised word after the statement's opening name)."""
    text = fact.statement
    words = set(_WORD.findall(text.lower()))
    kinds: set[Kind] = set()
    timeless = _DAY.sub(" ", _CLOCK.sub(" ", _YEAR.sub(" ", text)))
    for said, _ in fact.time_expressions:
        timeless = timeless.replace(said, " ")
    if fact.time_expressions or "date" in fact.signals or _NAMED_DAY.search(text):
        kinds.add(Kind.TIME)
    if _CLOCK.search(text) or _YEAR.search(text):
        kinds.add(Kind.TIME)
    if _DIGIT.search(timeless) or words & _COUNTS:
        kinds.add(Kind.NUMBER)
    opening = _CHAIN.match(text)
    rest = text[opening.end() :] if opening else text
    if any(not _NAMED_DAY.fullmatch(m.group(0)) for m in _CAPITAL.finditer(rest)):
        kinds |= {Kind.NAME, Kind.PLACE}
    if any(_is_place(m.group("word")) for m in _PLACE.finditer(rest)):
        kinds.add(Kind.PLACE)
    return kinds


def _is_place(word: str) -> bool:
    """Whether the word after a preposition of place starts a place, not a time."""
    low = word.lower()
    timed = low in TIME_NOUNS or f"{low}s" in TIME_NOUNS or low in _COUNTS
    return not (word[0].isdigit() or _NAMED_DAY.fullmatch(word) or timed)


def kind_agreement(kind: Kind | None, fact: Fact) -> int:
    """1 when the fact states a value of the asked kind, -1 when it states none, 0 when
    the question asks for no kind."""
    if kind is None:
        return 0
    return 1 if kind in stated_kinds(fact) else -1


def agreement(fact: Fact | None, holder: tuple[str, ...], kind: Kind | None) -> int:
    """How well a result agrees with what is asked (0 for a raw turn: not read here)."""
    if fact is None:
        return 0
    return holder_agreement(holder, fact) + kind_agreement(kind, fact)


def answer_first(
    bundles: Sequence[FusedBundle],
    holder: tuple[str, ...],
    kind: Kind | None,
    close: Mapping[str, float],
    window: int = WINDOW,
    present: bool = False,
) -> list[FusedBundle]:
    """The bundles with the first ``window`` reordered where the question says more than
    fusion did: a result goes above another when it agrees with what is asked at least as
    well (:func:`agreement`) and is at least as close to what is asked (``close``: the
    similarities the query's dense search gave, by bundle key), and better on one of the two.
    Asked how things stand (``present``), closeness alone never puts a fact above a later
    one: an old value still active reads as close as the new one. Otherwise the fused order
    stands, and the places after the window stay as they are. A question that names no
    holder and asks no kind keeps the fused order: closeness alone does not overrule fusion."""
    if not holder and kind is None:
        return list(bundles)
    head = list(bundles[:window])
    marks = {id(b): _Mark(agreement(b.fact, holder, kind), close.get(b.key, 0.0), b) for b in head}
    moved = True
    while moved:  # a pair swapped is never swapped back: it ends
        moved = False
        for at in range(len(head) - 1):
            if _better(marks[id(head[at + 1])], marks[id(head[at])], present):
                head[at], head[at + 1] = head[at + 1], head[at]
                moved = True
    return head + list(bundles[window:])


@dataclass(frozen=True)
class _Mark:
    agrees: int
    close: float
    bundle: FusedBundle

    @property
    def ended(self) -> bool:
        return self.bundle.fact is not None and self.bundle.fact.valid_to is not None

    @property
    def said(self) -> datetime | None:
        fact = self.bundle.fact
        return None if fact is None else (fact.valid_from or fact.last_verified_at)


def _better(first: _Mark, second: _Mark, present: bool) -> bool:
    """Whether ``first`` goes above ``second``: at least as good on both marks and better on
    one, closeness counting only beyond ``CLOSER`` (a pair swapped is never swapped back);
    asked about the present, nothing lifts a fact that has ended over one that holds, and
    closeness alone does not lift an earlier fact over a later one."""
    agrees, closer = first.agrees - second.agrees, first.close - second.close
    if present and first.ended and not second.ended:  # "used to ..." stays below what holds
        return False
    if agrees > 0:
        return closer >= -CLOSER
    mine, theirs = first.said, second.said
    earlier = present and mine is not None and theirs is not None and mine < theirs
    return agrees == 0 and closer > CLOSER and not earlier
