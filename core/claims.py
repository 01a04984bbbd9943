"""Claim writing: a turn's text -> atomic, self-contained, provenance-checked claims.

The rules extractor (no LLM): split the turn into clauses, drop questions and chit-chat,
rewrite each remaining clause so that it stands alone (first person -> the speaker,
unambiguous he/she -> the named person, relative dates -> absolute dates), key it by a
(subject, attribute) slot when a slot rule matches, and check its provenance.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time

from .extraction import Claim, Signal, SignalKind, Slot
from .lexicon import FIRST_PERSON, FUNCTION_WORDS, HEDGE_CUES, PHATIC_WORDS, SECOND_PERSON
from .rewrite import addressee, rewrite_clause
from .signals import find_signals
from .slot_rules import match_slot
from .validation import validate_claim

__all__ = ["EXTRACTION_VERSION", "Claim", "extract_claims", "normalize", "split_clauses"]

EXTRACTION_VERSION = "rules/2"

_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+(?=\s|$|[\"”)])|\n|$)|[^\n]+?(?:\n|$)")
_ABBREVIATION = re.compile(r"\b(?:mr|mrs|ms|dr|st|vs|etc|e\.g|i\.e|jr|sr|prof)\.$", re.I)
_CLAUSE_BREAK = re.compile(
    r"\s*;\s*|\s+[-–—]\s+|,?\s+(?:and|but|so|because)\s+(?=(?:I|we|my|he|she|they|it)\b)"
)
_DISCOURSE = re.compile(
    r"(?:(?i:hey|hi|hello|wow|whoa|oh|ooh|yeah|yes|yep|yup|nope|no|well|so|haha\w*|lol|omg|aww*"
    r"|ah|ok(?:ay)?|sure|thanks|thank you|anyway|by the way|btw|honestly|actually|also|plus|and"
    r"|but|totally|true|right|hmm+|um+|oh my|gosh|man|dude|cool|nice|awesome|great|congrats|sorry)"
    r"\b[,!.…]*\s*)*"
)
_IMPERATIVE = re.compile(
    r"^(?:take|check|let|look|see|keep|make|try|remember|have|come|tell|give|enjoy|stay|don['’]t"
    r"|do|be|please|imagine|guess|thank|thanks|good|nice|glad|happy|hope|wish|talk|catch|bye)\b",
    re.I,
)
_NOT_NEGATING = re.compile(
    r"\b(?:can['’]t wait|couldn['’]t be happier|not only|no doubt|no wonder|never been happier"
    r"|no matter|not bad|nothing but)\b",
    re.I,
)
_LEADING_VOCATIVE = re.compile(r"([A-Z][a-z]+)[,!]\s+")
_TRAILING_VOCATIVE = re.compile(r",\s*[A-Z][a-z]+\s*[.!…]*\s*$")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_MIN_CONTENT_WORDS = 2


@dataclass(frozen=True)
class _Turn:
    text: str
    signals: list[Signal]
    speaker: str
    listener: str | None
    captured_at: datetime


@dataclass(frozen=True)
class _Clause:
    start: int
    end: int
    question: bool


def extract_claims(text: str, *, speaker: str, captured_at: datetime) -> list[Claim]:
    """The claims of one turn, each validated against the turn and its metadata.

    >>> from datetime import UTC
    >>> at = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    >>> [c.statement for c in extract_claims("Hi! I moved to Lisbon yesterday.",
    ...                                      speaker="Alice", captured_at=at)]
    ['Alice moved to Lisbon on 7 May 2023.']
    """
    signals = find_signals(text, speaker=speaker, captured_at=captured_at)
    turn = _Turn(text, signals, speaker, addressee(text, signals), captured_at)
    claims = []
    for clause in split_clauses(text):
        claim = _claim_for(turn, clause)
        if claim is not None:
            claims.append(validate_claim(claim, text, speaker=speaker, captured_at=captured_at))
    return claims


def split_clauses(text: str) -> list[_Clause]:
    """Sentences, then clauses joined by ';', a dash, or 'and/but/so' before a new subject."""
    clauses = []
    for start, end in _sentences(text):
        sentence = text[start:end]
        question = sentence.rstrip().endswith("?")
        cut = start
        for brk in _CLAUSE_BREAK.finditer(sentence):
            clauses.append(_Clause(cut, start + brk.start(), question))
            cut = start + brk.end()
        clauses.append(_Clause(cut, end, question))
    return [c for c in (_trimmed(text, c) for c in clauses) if c.end > c.start]


def _sentences(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for match in _SENTENCE.finditer(text):
        start, end = match.span()
        if spans and _ABBREVIATION.search(text[spans[-1][0] : spans[-1][1]]):
            start = spans.pop()[0]
        if end > start:
            spans.append((start, end))
    return spans


def _trimmed(text: str, clause: _Clause) -> _Clause:
    raw = text[clause.start : clause.end]
    start = clause.start + len(raw) - len(raw.lstrip())
    end = clause.start + len(raw.rstrip())
    return _Clause(start, end, clause.question)


def _claim_for(turn: _Turn, clause: _Clause) -> Claim | None:
    if clause.question:
        return None
    text = turn.text
    start = _content_start(turn, clause)
    vocative = _TRAILING_VOCATIVE.search(text, start, clause.end)
    end = vocative.start() if vocative else clause.end
    body = text[start:end]
    inside = tuple(s for s in turn.signals if clause.start <= s.start and s.end <= clause.end)
    slot_match = match_slot(body, turn.speaker, _stops(inside, start))
    if slot_match is None and not _informative(body, turn.listener is not None):
        return None
    statement = rewrite_clause(text, start, end, turn.signals, turn.speaker, turn.listener)
    slot, rule_negated = slot_match if slot_match else (None, False)
    claim = _assemble(statement, (start, end), slot, rule_negated, inside, turn.captured_at)
    hedge = HEDGE_CUES.search(text, clause.start, clause.end)
    return replace(claim, hedge=hedge.group(0).lower()) if hedge else claim


def _content_start(turn: _Turn, clause: _Clause) -> int:
    """Past leading interjections ("Wow, ") and a leading vocative ("Mel, ")."""
    lead = _DISCOURSE.match(turn.text, clause.start, clause.end)
    start = lead.end() if lead else clause.start
    name = _LEADING_VOCATIVE.match(turn.text, start, clause.end)
    if name and name.group(1) == turn.listener:
        return name.end()
    return start


def _stops(inside: tuple[Signal, ...], start: int) -> list[int]:
    kinds = {SignalKind.DATE, SignalKind.ANCHOR, SignalKind.TEMPORAL, SignalKind.CORRECTION}
    return [s.start - start for s in inside if s.kind in kinds and s.start > start]


def _informative(body: str, listener_known: bool) -> bool:
    """A declarative clause with content words that are not chit-chat.

    A first-person clause needs one content word, any other clause two; a clause about an
    unnamed listener ("you") says nothing we could attribute.
    """
    words = [re.split(r"['’]", w.lower())[0].strip("-") for w in _WORD.findall(body)]
    if _IMPERATIVE.match(body) or (not listener_known and _addresses_listener(words)):
        return False
    content = [w for w in words if len(w) > 2 and w not in FUNCTION_WORDS | PHATIC_WORDS]
    needed = 1 if not FIRST_PERSON.isdisjoint(words) else _MIN_CONTENT_WORDS
    return len(content) >= needed


def _addresses_listener(words: list[str]) -> bool:
    """About the listener only: second person and no first person (the listener is unnamed)."""
    return FIRST_PERSON.isdisjoint(words) and not SECOND_PERSON.isdisjoint(words)


def _assemble(
    statement: str,
    span: tuple[int, int],
    slot: Slot | None,
    rule_negated: bool,
    inside: tuple[Signal, ...],
    captured_at: datetime,
) -> Claim:
    kinds = {s.kind for s in inside}
    ended = any(s.kind is SignalKind.TEMPORAL and s.value == "ended" for s in inside)
    return Claim(
        statement=statement,
        spans=(span,),
        slot=slot,
        entities=_entities(inside),
        signals=inside,
        valid_from=_valid_from(inside, captured_at),
        valid_to=captured_at if ended else None,
        negated=rule_negated or _negated(inside, statement),
        correction=SignalKind.CORRECTION in kinds,
    )


def _entities(inside: tuple[Signal, ...]) -> tuple[str, ...]:
    names = [s.value or s.text for s in inside if s.kind is SignalKind.SPEAKER]
    names += [s.text for s in inside if s.kind is SignalKind.ENTITY]
    return tuple(dict.fromkeys(names))


def _negated(inside: tuple[Signal, ...], statement: str) -> bool:
    """A negation cue outside corrections ("Porto, not Lisbon") and positive idioms."""
    corrections = [s for s in inside if s.kind is SignalKind.CORRECTION]
    negations = [
        s
        for s in inside
        if s.kind is SignalKind.NEGATION
        and not any(c.start <= s.start and s.end <= c.end for c in corrections)
    ]
    return bool(negations) and _NOT_NEGATING.search(statement) is None


def _valid_from(inside: tuple[Signal, ...], captured_at: datetime) -> datetime | None:
    for signal in inside:
        if signal.kind is SignalKind.DATE and signal.value:
            first = date.fromisoformat(signal.value.split("/")[0])
            return datetime.combine(first, time(), tzinfo=captured_at.tzinfo)
    return None


def normalize(statement: str) -> str:
    """The comparison form of a statement: lower case, single spaces, no end punctuation."""
    return " ".join(statement.lower().split()).rstrip(".!")
