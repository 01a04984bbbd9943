"""The extractor's contract: typed signals and claims with support spans.

:func:`provmem.core.extraction.claims.extract_claims` produces these; the gate and the
stages consume them. Everything here is plain data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class SignalKind(StrEnum):
    ENTITY = "entity"
    SPEAKER = "speaker"
    DATE = "date"
    TEMPORAL = "temporal"
    DECISION = "decision"
    CORRECTION = "correction"
    PREFERENCE = "preference"
    DISLIKE = "dislike"
    CONSTRAINT = "constraint"
    NEGATION = "negation"
    ANCHOR = "anchor"


@dataclass(frozen=True)
class Signal:
    """A typed cue at characters ``[start, end)`` of the evidence text.

    ``value`` is the normalized form: an ISO date or ``start/end`` range for dates,
    the anchor type and value (``url:https://...``), the entity type (``person``...).
    """

    kind: SignalKind
    text: str
    start: int
    end: int
    value: str | None = None


@dataclass(frozen=True)
class Slot:
    """A canonical (subject, attribute) key with its value, e.g. (alice, lives_in, lisbon)."""

    subject: str
    attribute: str
    value: str

    @property
    def key(self) -> str:
        return f"{self.subject}|{self.attribute}"


@dataclass(frozen=True)
class Claim:
    """An atomic, self-contained candidate statement and the spans that support it."""

    statement: str
    spans: tuple[tuple[int, int], ...]
    slot: Slot | None = None
    entities: tuple[str, ...] = ()
    signals: tuple[Signal, ...] = ()
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    negated: bool = False
    correction: bool = False
    hedge: str | None = None
    """The cue ("I think", "heard that") that makes the claim tentative or second-hand."""
    review_reason: str | None = field(default=None)
    role: str = "user"
    """Who asserted it: ``user`` (the speaker) or ``assistant`` (the assistant's own
    recommendation or plan, its statement naming the assistant, never the user's fact)."""
    time_expressions: tuple[tuple[str, str], ...] = ()
    """Each date as said beside its resolved value, e.g. ("in October", "2026-10-01/...").
    A value without a year (``--03-03``, ``--10``) means none was said or implied."""

    @property
    def start(self) -> int:
        return min(start for start, _ in self.spans)

    @property
    def end(self) -> int:
        return max(end for _, end in self.spans)
