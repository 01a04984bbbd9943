"""Why the write gate decided as it did: a kind and its details, and the text fact changes
carry on the wire (``FactChanged.reason``).

Stored logs and their readers hold that text, so each kind's template is fixed. Readers
branch on the kind: on the decision itself, or, for text read back from stored events,
on what :meth:`DecisionReason.from_text` makes of it (every kind round-trips:
tests/unit/test_decision_reason.py).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, fields
from enum import Enum
from functools import cache
from string import Formatter
from typing import NamedTuple

# What the text of a reason that holds the fact for review starts with.
REVIEW_LEAD = "needs review: "


class ReasonKind(Enum):
    """What the gate saw; each value is the template of the reason's text (after the
    review lead for the kinds that hold a fact for review)."""

    HELD_FOR_REVIEW = "{detail}"  # the claim failed validation
    TENTATIVE = "tentative ({hedge!r}) value would supersede {fact_id}"
    STORE_EMPTY = "store empty"
    KNOWN = "already known (corroborates)"
    NOVEL = "novel"
    ENDED = "{attribute}: {value} ended"
    ENDED_BESIDE_CURRENT = "history: an ended {attribute} beside the current"
    RIVAL_CHANGED = "new {category} (changed)"
    RIVAL_CONFLICT = "conflicts with {fact_id}: another {category}, no change cue"
    SINGLE_VALUED_CHANGE = "new value for a single-valued slot"
    VALUE_CHANGED = "new value for {attribute}: {old} -> {new}"
    PAST_MEASURE = "another past measure of {attribute}: {old} -> {new}: an event"
    LATER_MEASURE = "a later measure of {attribute}: {old} -> {new}"
    VALUE_CONFLICT = (
        "conflicts with {fact_id}: another value for {attribute}: {old} -> {new}, no change cue"
    )
    POLARITY_CHANGED = "polarity changed (stopped or started)"
    NEGATES = "conflicts with {fact_id}: negates it"
    CONTRADICTS_NEGATION = "conflicts with {fact_id}: contradicts its negation"
    ADVISED = "resolved by merge advisor"
    SAME_SLOT_AND_VALUE = "same slot and value, new detail"
    CORRECTION = "correction of a close fact"
    UNCERTAIN = "uncertain band, no slot match: kept apart"

    @property
    def held_for_review(self) -> bool:
        return self in (ReasonKind.HELD_FOR_REVIEW, ReasonKind.TENTATIVE)


@dataclass(frozen=True)
class DecisionReason:
    """A kind and the details its template names (the others stay empty)."""

    kind: ReasonKind
    detail: str = ""
    hedge: str = ""
    fact_id: str = ""
    attribute: str = ""
    value: str = ""
    old: str = ""
    new: str = ""
    category: str = ""

    @property
    def review_text(self) -> str:
        """The text without the review lead: what a fact held for review keeps as its
        ``review_reason``."""
        details = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "kind"}
        return self.kind.value.format(**details)

    @property
    def text(self) -> str:
        """The reason as fact changes carry it."""
        return REVIEW_LEAD + self.review_text if self.kind.held_for_review else self.review_text

    @classmethod
    def from_text(cls, text: str) -> DecisionReason | None:
        """The reason a fact change's text states, or None for a text the gate does not
        write (a correction's, an erasure's)."""
        for pattern in _patterns():
            found = pattern.regex.fullmatch(text)
            details = None if found is None else _details(found, pattern.quoted)
            if details is not None:
                return cls(pattern.kind, **details)
        return None

    @classmethod
    def from_review_text(cls, review_reason: str) -> DecisionReason | None:
        """The reason a fact held for review keeps (its ``review_reason``), read back."""
        return cls.from_text(REVIEW_LEAD + review_reason)


class _Pattern(NamedTuple):
    kind: ReasonKind
    regex: re.Pattern[str]
    quoted: frozenset[str]  # the details the text shows in ``repr`` form
    literal: int  # how many characters of the text are the template's own


@cache
def _patterns() -> tuple[_Pattern, ...]:
    """Each kind's full text as a pattern, most literal text first (so a tentative
    reason is not read as "needs review: {detail}", nor that as "{attribute}: ... ended")."""
    return tuple(sorted((_pattern(kind) for kind in ReasonKind), key=lambda p: -p.literal))


def _pattern(kind: ReasonKind) -> _Pattern:
    lead = REVIEW_LEAD if kind.held_for_review else ""
    parts, quoted, literal = [re.escape(lead)], set(), len(lead)
    for text, name, _, conversion in Formatter().parse(kind.value):
        parts.append(re.escape(text))
        literal += len(text)
        if name:
            parts.append(f"(?P<{name}>.*?)")
            if conversion == "r":
                quoted.add(name)
    return _Pattern(kind, re.compile("".join(parts)), frozenset(quoted), literal)


def _details(found: re.Match[str], quoted: frozenset[str]) -> dict[str, str] | None:
    """The details a matched text names, or None when a quoted one is no string literal."""
    details = found.groupdict()
    try:
        unquoted = {name: ast.literal_eval(details[name]) for name in quoted}
    except (ValueError, SyntaxError):
        return None
    if not all(isinstance(value, str) for value in unquoted.values()):
        return None
    return {**details, **unquoted}
