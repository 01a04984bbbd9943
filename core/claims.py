"""Claim writing. For now a naive sentence splitter stands in for the extractor.

The real extractor (typed signals, slots, provenance validation) replaces
:func:`sentence_claims`; its output keeps this shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

EXTRACTION_VERSION = "naive-sentences/1"

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
_GREETING = re.compile(r"^(hi|hey|hello|thanks|thank you|bye|ok|okay|lol|wow)\b", re.I)
_MIN_WORDS = 3


@dataclass(frozen=True)
class Claim:
    """A candidate statement with the characters of the evidence that support it."""

    statement: str
    start: int
    end: int


def sentence_claims(text: str) -> list[Claim]:
    """One claim per declarative sentence; questions and short greetings yield none.

    >>> [c.statement for c in sentence_claims("Hi! I moved to Lisbon in May. Do you like it?")]
    ['I moved to Lisbon in May.']
    """
    claims = []
    for match in _SENTENCE.finditer(text):
        claim = _claim_from(match)
        if claim is not None:
            claims.append(claim)
    return claims


def _claim_from(match: re.Match[str]) -> Claim | None:
    raw = match.group(0)
    stripped = raw.strip()
    if not stripped or stripped.endswith("?") or _GREETING.match(stripped):
        return None
    if len(stripped.split()) < _MIN_WORDS:
        return None
    start = match.start() + (len(raw) - len(raw.lstrip()))
    return Claim(statement=stripped, start=start, end=start + len(stripped))


def normalize(statement: str) -> str:
    """The comparison form of a statement: lower case, single spaces, no end punctuation."""
    return " ".join(statement.lower().split()).rstrip(".!")
