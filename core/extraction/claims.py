"""Claim writing: a turn's text -> atomic, self-contained, provenance-checked claims.

The rules extractor (no LLM): segment the turn (prose, code, markup; only prose yields
claims), split the prose into clauses, keep only assertions (no questions, requests,
imperatives, greetings or thanks), rewrite each so that it stands alone (first person ->
the speaker, unambiguous he/she -> the named person, relative dates -> absolute dates),
key it by a (subject, attribute) slot when a slot rule matches, check its provenance and
keep the most salient few of the turn (:data:`~provmem.core.extraction.salience.CLAIM_BUDGET`).

Each clause's fate is recorded once (:class:`~provmem.core.extraction.outcomes.ClauseOutcome`):
:func:`extract_turn` keeps the claims, :func:`explain_turn` tells why the others were dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, time

from provmem.core.claim import Claim, Signal, SignalKind, Slot
from provmem.core.events import SpeakerRole as Role
from provmem.core.extraction.outcomes import ClauseOutcome, Drop, Dropped
from provmem.core.extraction.pronouns import antecedent_before, referring_subject, with_antecedent
from provmem.core.extraction.rewrite import addressee, rewrite_clause
from provmem.core.extraction.salience import CLAIM_BUDGET, salience, within_budget
from provmem.core.extraction.slot_rules import match_slot
from provmem.core.extraction.validation import validate_claim
from provmem.core.language.appositions import Apposed, relation_appositions, relation_statement
from provmem.core.language.assertions import (
    ASSISTANT,
    assistant_reading,
    has_finite_verb,
    speech_act,
    you_as_user,
)
from provmem.core.language.clause_ends import content_end, content_start
from provmem.core.language.clauses import Clause, sentence_spans, split_clauses
from provmem.core.language.fragments import (
    elided_words,
    elliptical,
    no_assertion,
    spelled,
    with_elided_it,
    with_subject,
)
from provmem.core.language.lexicon import (
    FIRST_PERSON,
    FUNCTION_WORDS,
    HEDGE_CUES,
    PHATIC_WORDS,
    SECOND_PERSON,
)
from provmem.core.language.names import proper_name
from provmem.core.language.segments import CODE_KINDS, Segment, prose_view, segment
from provmem.core.language.signals import find_signals, structure_anchors
from provmem.core.language.wordlists import word_list
from provmem.core.ports import ClauseParser

__all__ = [
    "EXTRACTION_VERSION",
    "extraction_version",
    "Claim",
    "TurnExtraction",
    "explain_turn",
    "extract_claims",
    "extract_turn",
    "normalize",
    "split_clauses",
]

EXTRACTION_VERSION = "rules/5"  # stop 23: pronoun subjects resolved or raw, numeric dates


def extraction_version(clauses: ClauseParser | None) -> str:
    """The rules' version, marked when a parser's comma splices break clauses too."""
    return EXTRACTION_VERSION if clauses is None else f"{EXTRACTION_VERSION}+parsed"


_NOT_NEGATING = re.compile(
    r"\b(?:can['’]t wait|couldn['’]t be happier|not only|no doubt|no wonder|never been happier"
    r"|no matter|not bad|nothing but)\b",
    re.I,
)
_OWN_SUBJECT = re.compile(r"(?:I|we|my|our)\b", re.I)
_WORD = re.compile(r"[A-Za-z][\w'’-]*|\d[\d,.]*")  # "p99", "k8s" and numbers are words too
_MIN_CONTENT_WORDS = 2
_LISTENER_LEFT = re.compile(r"\b(?:you|your|yours|yourself|yourselves)\b", re.I)
_IMAGE_SHARE = re.compile(r"\[shares? (?:an? )?(?:image|photo|picture)s?:\s*([^\]\n]+)\]", re.I)
_CAPTION_TEXT = re.compile(r"[^\s\[\]]+")
_DANGLING = word_list("provmem.core.extraction", "dangling_words")
_REPEATED_RUN = re.compile(r"\b((?:\w+ ){1,4}\w+)(?: and)? \1\b")


@dataclass(frozen=True)
class TurnExtraction:
    """What the extractor found in one turn.

    ``claims`` are the kept claims in text order; ``anchors`` the turn's hard anchors
    (from prose, code and markup) for the evidence's exact-match index; ``over_budget``
    counts the claims the budget left to the raw evidence; ``outcomes`` what became of each
    clause, shared image and apposition (kept claim or why dropped), in the order looked at.
    """

    claims: tuple[Claim, ...]
    segments: tuple[Segment, ...]
    anchors: tuple[Signal, ...]
    over_budget: int = 0
    outcomes: tuple[ClauseOutcome, ...] = ()


@dataclass(frozen=True)
class _Turn:
    text: str
    original: str
    signals: list[Signal]
    speaker: str
    listener: str | None
    captured_at: datetime
    role: Role
    code: tuple[Segment, ...]


def extract_claims(
    text: str,
    *,
    speaker: str,
    captured_at: datetime,
    role: Role = "user",
    participants: Sequence[str] = (),
    clauses: ClauseParser | None = None,
) -> list[Claim]:
    """The claims of one turn, each validated against the turn and its metadata
    (``clauses``: see :func:`extract_turn`).

    >>> from datetime import UTC
    >>> at = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    >>> [c.statement for c in extract_claims("Hi! I moved to Lisbon yesterday.",
    ...                                      speaker="Alice", captured_at=at)]
    ['Alice moved to Lisbon on 7 May 2023.']
    """
    return list(_extracted(text, speaker, captured_at, role, participants, clauses).claims)


def extract_turn(
    text: str,
    *,
    speaker: str,
    captured_at: datetime,
    role: Role = "user",
    participants: Sequence[str] = (),
    clauses: ClauseParser | None = None,
) -> TurnExtraction:
    """Segments, hard anchors and the budgeted claims of one turn (claims from prose only).

    A system or tool turn yields anchors but no claims; an assistant's turn only the
    assistant's own statements, with the assistant as their subject. ``participants``:
    the session's other speakers known from earlier turns, most recent first; when the
    turn names no addressee and there is exactly one other, "you" is that person.
    ``clauses``: a parser whose comma splices break clauses too (none: the word rules only).
    """
    segments = segment(text)
    anchors = tuple(structure_anchors(text, segments))
    if role not in ("user", "assistant"):
        return TurnExtraction((), segments, anchors)
    view, shares = _without_image_shares(prose_view(text, segments))
    subject = ASSISTANT if role == "assistant" else proper_name(speaker)
    signals = find_signals(view, speaker=subject, captured_at=captured_at)
    listener = None if role != "user" else addressee(view, signals) or _other(speaker, participants)
    listener = listener and proper_name(listener)
    code = tuple(s for s in segments if s.kind in CODE_KINDS)
    turn = _Turn(view, text, signals, subject, listener, captured_at, role, code)
    breaks = clauses.comma_breaks(view) if clauses is not None else ()
    outcomes = _outcomes(turn, split_clauses(view, breaks), shares)
    claims = sorted((o.claim for o in outcomes if o.kept and o.claim), key=_first_char)
    over = sum(o.why is Dropped.OVER_BUDGET for o in outcomes)
    return TurnExtraction(tuple(claims), segments, anchors, over, tuple(outcomes))


def explain_turn(
    text: str,
    *,
    speaker: str,
    captured_at: datetime,
    role: Role = "user",
    participants: Sequence[str] = (),
    clauses: ClauseParser | None = None,
) -> list[ClauseOutcome]:
    """What became of each clause of the turn: the claim kept, or why it was dropped.

    The same run as :func:`extract_turn` (whose claims are the kept ones here).

    >>> from datetime import UTC
    >>> at = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    >>> said = "Hi! Did you see it? I moved to Lisbon."
    >>> [(o.text, o.why and o.why.name) for o in explain_turn(said, speaker="Al", captured_at=at)]
    [('Hi!', 'NO_CONTENT'), ('Did you see it?', 'QUESTION'), ('I moved to Lisbon.', None)]
    """
    return list(_extracted(text, speaker, captured_at, role, participants, clauses).outcomes)


def _extracted(
    text: str,
    speaker: str,
    captured_at: datetime,
    role: Role,
    participants: Sequence[str],
    clauses: ClauseParser | None,
) -> TurnExtraction:
    """:func:`extract_turn` for the two readers of its result above."""
    return extract_turn(
        text,
        speaker=speaker,
        captured_at=captured_at,
        role=role,
        participants=participants,
        clauses=clauses,
    )


_Written = tuple[int, int, Claim | Drop]


def _outcomes(
    turn: _Turn, clauses: Sequence[Clause], shares: Sequence[tuple[int, int]]
) -> list[ClauseOutcome]:
    """Each clause and shared image written as a claim or dropped; the budget keeps the
    most salient; the relation claims of the clauses fill what room the budget leaves."""
    written: list[_Written] = [(c.start, c.end, _claim_for(turn, c)) for c in clauses]
    if turn.role == "user":
        written += [(start, end, _image_claim(turn, start, end)) for start, end in shares]
    checked = [(start, end, _checked(found, turn)) for start, end, found in written]
    claims = sorted((c for _, _, c in checked if isinstance(c, Claim)), key=_first_char)
    kept = within_budget(claims)
    outcomes = [_budgeted(turn, start, end, found, kept) for start, end, found in checked]
    return outcomes + _relations(turn, clauses, kept, claims)


def _checked(found: Claim | Drop, turn: _Turn) -> Claim | Drop:
    return _validated(found, turn) if isinstance(found, Claim) else found


def _budgeted(
    turn: _Turn, start: int, end: int, found: Claim | Drop, kept: list[Claim]
) -> ClauseOutcome:
    said = (turn.original[start:end].strip(), (start, end))
    if isinstance(found, Drop):
        return ClauseOutcome(*said, why=found.why, detail=found.detail)
    if any(found is k for k in kept):
        return ClauseOutcome(*said, claim=found)
    detail = f"salience {salience(found):.1f}; a turn keeps its {CLAIM_BUDGET} most salient claims"
    return ClauseOutcome(*said, claim=found, why=Dropped.OVER_BUDGET, detail=detail)


def _relations(
    turn: _Turn, clauses: Sequence[Clause], kept: list[Claim], claims: list[Claim]
) -> list[ClauseOutcome]:
    """The relation claims (core/language/appositions.py) of the kept claims' clauses, and of
    clauses that yielded no claim (a statement with a question after it): one the budget left out
    takes its appositions with it. The budget holds: relations fill what room is left."""
    apposed = [(a, _relation_claim(turn, a)) for c in clauses for a in _appositions(turn, c)]
    room = max(0, CLAIM_BUDGET - len(kept))
    outcomes = []
    for apposition, found in sorted(apposed, key=lambda pair: _first_char(pair[1])):
        claim = _validated(found, turn)
        said = (
            turn.original[apposition.start : apposition.end],
            (apposition.start, apposition.end),
        )
        if _within(claim, claims) and not _within(claim, kept):
            outcomes.append(ClauseOutcome(*said, claim=claim, why=Dropped.WITHIN_DROPPED))
        elif room > 0:
            room -= 1
            outcomes.append(ClauseOutcome(*said, claim=claim))
        else:
            outcomes.append(ClauseOutcome(*said, claim=claim, why=Dropped.NO_ROOM))
    return outcomes


def _validated(claim: Claim, turn: _Turn) -> Claim:
    return validate_claim(
        claim, turn.original, speaker=turn.speaker, captured_at=turn.captured_at, role=turn.role
    )


def _first_char(claim: Claim) -> int:
    return claim.spans[0][0]


def _within(claim: Claim, others: list[Claim]) -> bool:
    (start, end), spans = claim.spans[0], [s for c in others for s in c.spans]
    return any(s <= start and end <= e for s, e in spans)


def _other(speaker: str, participants: Sequence[str]) -> str | None:
    """The one participant of the session besides the speaker, or None."""
    others = {p for p in participants if p.strip() and p != speaker}
    return others.pop() if len(others) == 1 else None


def _without_image_shares(view: str) -> tuple[str, list[tuple[int, int]]]:
    """The view with each shared image's caption blanked ("[shares an image: a photo of a
    dog]", as the loaders mark one) and the captions' character ranges: a caption is no
    part of the sentence it follows."""
    shares = [m.span(1) for m in _IMAGE_SHARE.finditer(view)]
    for match in _IMAGE_SHARE.finditer(view):
        view = view[: match.start()] + " " * (match.end() - match.start()) + view[match.end() :]
    return view, shares


def _image_claim(turn: _Turn, start: int, end: int) -> Claim | Drop:
    """A shared image as a sentence with its sharer as subject: "Melanie shared a photo
    of a dog on a beach." (a caption alone is no statement)."""
    caption = " ".join(_CAPTION_TEXT.findall(turn.original[start:end])).strip(" .")
    caption = _REPEATED_RUN.sub(r"\1", caption)  # "a car with a broken window and a broken window"
    if len(caption.split()) < 3 or caption.split()[-1].lower() in _DANGLING:
        return Drop(
            Dropped.SHORT_CAPTION, caption
        )  # cut off: "a sign that says don't be afraid to"
    return _assemble(f"{turn.speaker} shared {caption}.", ((start, end),), None, False, (), turn)


def _claim_for(turn: _Turn, clause: Clause) -> Claim | Drop:
    if clause.question:
        return Drop(Dropped.QUESTION)
    if _in_code(turn, clause):
        return Drop(Dropped.IN_CODE)
    text = turn.text
    start = content_start(turn.text, clause.start, clause.end, turn.listener)
    end = content_end(text, start, clause.end, turn.listener)
    if end <= start:
        return Drop(Dropped.NO_CONTENT)
    if turn.role == "assistant":
        return _assistant_claim(turn, clause, start, end)
    body = text[start:end]
    act = speech_act(body)
    if act is not None:
        return Drop(Dropped.SPEECH_ACT, act)
    if _label(body):
        return Drop(Dropped.LABEL)
    inside = _inside(turn, clause)
    has_verb = has_finite_verb(body)
    elided = elided_words(body, has_verb)
    statement = rewrite_clause(
        text, start, end, turn.signals, turn.speaker, turn.listener, subject_elided=bool(elided)
    )
    pronoun = None if elided else referring_subject(body, statement)
    antecedent = pronoun and antecedent_before(text, sentence_spans(text), start, pronoun)
    if pronoun is not None and not antecedent:
        return Drop(Dropped.UNRESOLVED_PRONOUN, pronoun.word)  # "It is a Vue 3 SPA." alone
    named = text[antecedent.start : antecedent.end] + " " + body if antecedent else body
    slot_match = match_slot(body, turn.speaker, _stops(inside, start))
    if slot_match is None and not _informative(named, turn.listener is not None):
        return Drop(Dropped.NOT_INFORMATIVE)
    if no_assertion(body, has_verb, elided) or elliptical(body):
        return Drop(Dropped.NO_ASSERTION)  # an imperative or a verbless fragment: raw evidence
    if pronoun is not None and antecedent:
        rewrite = (turn.signals, turn.speaker, turn.listener)
        resolved = with_antecedent(text, start + pronoun.end, end, antecedent, pronoun, rewrite)
        if resolved is None:
            return Drop(Dropped.UNRESOLVED_PRONOUN, f"{pronoun.word}: no rewrite names it")
        statement = resolved
    if _tautology(statement):
        return Drop(Dropped.TAUTOLOGY, statement)
    if _LISTENER_LEFT.search(statement):  # "Your support means a lot to Jon"
        return Drop(Dropped.UNNAMED_LISTENER, statement)
    if elided:
        statement = with_subject(statement, turn.speaker, elided)
    else:
        statement = with_elided_it(spelled(statement))
    slot, rule_negated, ended = slot_match if slot_match else (None, False, False)
    spans = _support(turn, start, end)
    if not spans:
        return Drop(Dropped.ALL_CODE)
    if antecedent:
        spans += ((antecedent.start, antecedent.end),)
    claim = _assemble(statement, spans, slot, rule_negated, inside, turn, ended)
    hedge = HEDGE_CUES.search(text, clause.start, clause.end)
    return replace(claim, hedge=hedge.group(0).lower()) if hedge else claim


def _appositions(turn: _Turn, clause: Clause) -> list[Apposed]:
    return [] if clause.question else relation_appositions(turn.text, clause.start, clause.end)


def _relation_claim(turn: _Turn, apposed: Apposed) -> Claim:
    """ "my wife Keiko" -> "Keiko is Hiro's wife." (see core/language/appositions.py)."""
    spans = _support(turn, apposed.start, apposed.end)
    inside = tuple(s for s in turn.signals if apposed.start <= s.start and s.end <= apposed.end)
    statement = relation_statement(apposed, turn.speaker)
    return _assemble(statement[:1].upper() + statement[1:], spans, None, False, inside, turn)


def _assistant_claim(turn: _Turn, clause: Clause, start: int, end: int) -> Claim | Drop:
    """The assistant's own statement ("The assistant recommended ..."), never the user's."""
    reading = assistant_reading(turn.text[start:end])
    if reading is None:
        return Drop(Dropped.ASSISTANT_CHATTER)
    rest_at = start + reading.start
    rest = turn.text[rest_at:end]
    if _label(rest):
        return Drop(Dropped.LABEL)
    if not _informative(rest, True):
        return Drop(Dropped.NOT_INFORMATIVE)
    rest = rewrite_clause(turn.text, rest_at, end, turn.signals, turn.speaker, None)
    if not reading.prefix and not has_finite_verb(turn.text[start:end]):
        return Drop(Dropped.ASSISTANT_FRAGMENT)
    if reading.prefix and turn.text[rest_at : rest_at + 1].islower():
        rest = rest[:1].lower() + rest[1:]
    statement = you_as_user(reading.prefix + rest)
    spans = _support(turn, start, end)
    if not spans:
        return Drop(Dropped.ALL_CODE)
    return _assemble(statement, spans, None, False, _inside(turn, clause), turn)


def _inside(turn: _Turn, clause: Clause) -> tuple[Signal, ...]:
    return tuple(s for s in turn.signals if clause.start <= s.start and s.end <= clause.end)


def _in_code(turn: _Turn, clause: Clause) -> bool:
    """The clause's sentence holds code that prose does not keep (a command)."""
    first, last = clause.sentence
    return any(s.start < last and first < s.end and not s.inline for s in turn.code)


def _support(turn: _Turn, start: int, end: int) -> tuple[tuple[int, int], ...]:
    """``[start, end)`` minus the code spans inside it: no claim rests on code."""
    spans, cut = [], start
    for piece in turn.code:
        if piece.start < end and cut < piece.end:
            spans.append((cut, max(cut, piece.start)))
            cut = max(cut, piece.end)
    spans.append((cut, end))
    return tuple((s, e) for s, e in spans if e > s and turn.text[s:e].strip(" `.,;:!?"))


def _label(body: str) -> bool:
    """A heading line before a block ("Timings from the profiler:"), not a statement."""
    return body.rstrip().endswith(":") and _OWN_SUBJECT.match(body) is None


def _tautology(statement: str) -> bool:
    """ "Maya is Maya.": a self-introduction restated says nothing to remember."""
    match = re.fullmatch(r"(.+?)(?:['’]s name)? (?:is|was|am) (?:called )?(.+?)\.", statement)
    return match is not None and match.group(1).lower() == match.group(2).lower()


def _stops(inside: tuple[Signal, ...], start: int) -> list[int]:
    kinds = {SignalKind.DATE, SignalKind.ANCHOR, SignalKind.TEMPORAL, SignalKind.CORRECTION}
    return [s.start - start for s in inside if s.kind in kinds and s.start > start]


def _informative(body: str, listener_known: bool) -> bool:
    """A declarative clause with content words that are not chit-chat.

    A first-person clause needs one content word, any other clause two; a clause about an
    unnamed listener ("you") says nothing we could attribute.
    """
    words = [re.split(r"['’]", w.lower())[0].strip("-") for w in _WORD.findall(body)]
    if not listener_known and _addresses_listener(words):
        return False
    content = [
        w for w in words
        if (len(w) > 2 or w[:1].isdigit()) and w not in FUNCTION_WORDS | PHATIC_WORDS
    ]  # fmt: skip
    needed = 1 if not FIRST_PERSON.isdisjoint(words) else _MIN_CONTENT_WORDS
    return len(content) >= needed


def _addresses_listener(words: list[str]) -> bool:
    """About the listener only: second person and no first person (the listener is unnamed)."""
    return FIRST_PERSON.isdisjoint(words) and not SECOND_PERSON.isdisjoint(words)


def _assemble(
    statement: str,
    spans: tuple[tuple[int, int], ...],
    slot: Slot | None,
    rule_negated: bool,
    inside: tuple[Signal, ...],
    turn: _Turn,
    ended: bool = False,
) -> Claim:
    """The claim; ``ended``: its slot rule reads a relation that no longer holds ("I
    lived in X", "I worked as R"), as an "ended" time cue ("used to", "no longer") does."""
    kinds = {s.kind for s in inside}
    cued = any(s.kind is SignalKind.TEMPORAL and s.value == "ended" for s in inside)
    ended = ended or cued
    return Claim(
        statement=statement,
        spans=spans,
        slot=slot,
        entities=_entities(inside),
        signals=inside,
        valid_from=_valid_from(inside, turn.captured_at),
        valid_to=turn.captured_at if ended else None,
        negated=rule_negated or _negated(inside, statement),
        correction=SignalKind.CORRECTION in kinds,
        role=turn.role,
        time_expressions=_time_expressions(inside),
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


def _time_expressions(inside: tuple[Signal, ...]) -> tuple[tuple[str, str], ...]:
    """Each date as said beside its resolved value: ("in October", "2026-10-01/2026-10-31")."""
    return tuple((s.text, s.value) for s in inside if s.kind is SignalKind.DATE and s.value)


def _valid_from(inside: tuple[Signal, ...], captured_at: datetime) -> datetime | None:
    """The first date with a year (a yearless "on 3 March" bounds nothing)."""
    for signal in inside:
        if signal.kind is SignalKind.DATE and signal.value and signal.value[:1].isdigit():
            first = date.fromisoformat(signal.value.split("/")[0])
            return datetime.combine(first, time(), tzinfo=captured_at.tzinfo)
    return None


def normalize(statement: str) -> str:
    """The comparison form of a statement: lower case, single spaces, no end punctuation."""
    return " ".join(statement.lower().split()).rstrip(".!")
