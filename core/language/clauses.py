"""Clauses: a turn's prose split into sentences, then into clauses that can stand alone.

A sentence breaks at ';', a dash, 'and/but/so/because' before a new subject or a comma
before one; a subordinate opening ("When I was young,") stays with its main clause, and
in a question only the interrogative clause is a question ("The image is 380MB now, so can
we try the slim base?" states its first clause).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, replace

from provmem.core.language.assertions import elided_subject, has_finite_verb
from provmem.core.language.fragments import elided_feeling, elided_modal

__all__ = ["HAS_SUBJECT", "Clause", "sentence_spans", "split_clauses"]

_SENTENCE = re.compile(
    r"(?:[^.!?\n]|[.!?]+(?![\s\"”)]|$))+(?:[.!?]+[\"”)]*(?=\s|$)|[.!?]+(?=[\"”)])|(?=\n)|$)"
    r"|[.!?]+"
)
_ABBREVIATION = re.compile(r"\b(?:mr|mrs|ms|dr|st|vs|etc|e\.g|i\.e|jr|sr|prof)\.$", re.I)
_CLAUSE_BREAK = re.compile(
    r"\s*;\s*|\s+[-–—]\s+"
    r"|,?\s+(?:and|but|so|because)\s+(?=(?:I|we|he|she|they|it)\b|my(?:\s+\w+){1,2}\s+"
    r"(?:is|was|are|were|has|had|have|will|just|also|\w+ed|\w+s)\b)"
    r"|(?:,\s+|,?\s+(?:and|but|so)\s+)(?=(?:please|pls|kindly)\b"
    r"|(?:can|could|would|should|shall|may)\s+(?:you|we|I|he|she|they|it)\b)"
    # "I'm allergic to latex, so no latex gloves please": a request after its reason
    r"|,\s+(?=so\s+[^,.;!?]*\b(?:please|pls)\b)"
    r"|,\s+(?=(?:so|and|but)\s+(?:make\s+sure|don['’]t|remember|keep|be\s+sure)\b)"
    r"|,\s+(?=I(?:['’](?:m|ve|ll|d))?\s|(?i:it|we|they|he|she)(?:['’](?:s|re|ve|ll|d))?\s"
    r"|(?:everything|everyone|nothing|nobody|someone|something)\s+[a-z]+s\b"
    r"|(?:there['’]s|that['’]s)\s"
    r"|(?:the|only|this|these|those|each|every)\s+(?:[\w'’-]+\s+){0,3}(?:is|are|was|were|has|have"
    r"|(?:really|also|just|still|always|never)\s+[a-z]{3,})\b"
    # An elided "I" before "been" and a gerund subject before its verb: "Store's going
    # good, just been busy"; "You're right, staying positive is key".
    r"|(?:just\s+|also\s+)?been\s|[a-z]{2,}ing\s+(?:[\w'’-]+\s+){0,8}(?:is|was|makes|helps|keeps)\b"
    r"|(?:his|her|their|my|our)\s+[\w'’-]+\s+(?:[a-z]+ly\s+)?(?:is|are|was|were|has|have|\w+ed)\b"
    r"|[A-Z][a-z]+\s+(?:did|is|was|has|does)\b)"
)
_NOUN_PHRASE = re.compile(
    r"(?!(?:I|we|he|she|they|it|you)\b)(?:(?:my|our|his|her|their|the|a|an)\s+)?[\w'’-]+"
    r"(?:\s+[\w'’-]+)?",
    re.I,
)
HAS_SUBJECT = re.compile(r"\b(?:I|I['’]\w+|we|he|she|they|it|it['’]s|that['’]s|there['’]s)\b", re.I)
_SUBORDINATE = re.compile(
    r"(?:when|whenever|if|because|since|after|before|while|although|though|once|as|until"
    r"|unless|whether|even though|so that|now that)\b",
    re.I,
)
# A question that follows a statement in one sentence: "The image is 380MB now, so can we
# try the slim base?" asks only in its last clause.
_INTERROGATIVE = re.compile(
    r"(?:so\s+|and\s+|but\s+)?(?:can|could|would|should|shall|will|do|does|did|is|are|am"
    r"|what|how|why|where|when|which|who|any\s+idea)\b",
    re.I,
)


@dataclass(frozen=True)
class Clause:
    start: int
    end: int
    question: bool
    sentence: tuple[int, int] = (0, 0)


def split_clauses(text: str, breaks: Collection[int] = ()) -> list[Clause]:
    """Sentences, then clauses joined by ';', a dash, 'and/but/so' or a comma before a new
    subject; a subordinate opening ("When I was young,") stays with its main clause.
    ``breaks``: the offsets of commas that a parse found joining two main clauses (a comma
    splice: "I run 3 times a week, my longest run is 12 km"), each a clause break too."""
    clauses = []
    for start, end in _sentences(text):
        question = text[start:end].rstrip().endswith("?")
        cut, found = start, []
        for brk_start, brk_end in _breaks(text, start, end, breaks):
            if brk_start < cut:
                continue
            found.append(Clause(cut, brk_start, question, (start, end)))
            cut = brk_end
        asks = question and _INTERROGATIVE.match(text, cut) is not None
        found = [replace(c, question=question and not asks) for c in found]
        clauses += [*found, Clause(cut, end, question, (start, end))]
    return [c for c in (_trimmed(text, c) for c in clauses) if c.end > c.start]


def _breaks(text: str, start: int, end: int, parsed: Collection[int]) -> list[tuple[int, int]]:
    """The clause breaks of the sentence ``text[start:end]``, in order: the word rules'
    (:data:`_CLAUSE_BREAK`, less a subordinate opening or a compound subject) and the
    parsed comma splices, each a span of the text to drop between two clauses."""
    found, cut = [], start
    for brk in _CLAUSE_BREAK.finditer(text[start:end]):
        before, after = text[cut : start + brk.start()], text[start + brk.end() :]
        if not _keeps_together(before, brk.group(0), after):
            found.append((start + brk.start(), start + brk.end()))
            cut = start + brk.end()
    spans = {b for b in found}
    for comma in parsed:
        if start < comma < end and not any(a <= comma < b for a, b in spans):
            spans.add((comma, comma + 1 + _space_after(text, comma + 1)))
    return sorted(spans)


def _space_after(text: str, at: int) -> int:
    return len(text[at:]) - len(text[at:].lstrip())


def _keeps_together(before: str, joint: str, after: str) -> bool:
    """A subordinate opening ("When I was young, I ...") or a compound subject ("My wife
    and I moved") is no clause of its own; a clause with its own verb before a comma is
    ("Clay is incredible, it brings me joy": two clauses, no comma splice)."""
    before = before.strip()
    if joint.strip() == ",":
        has_clause = HAS_SUBJECT.search(before) or has_finite_verb(before) or _elided(before)
        return _SUBORDINATE.match(before) is not None or not has_clause
    compound = joint.strip() == "and" and after.startswith("I ")
    return compound and _NOUN_PHRASE.fullmatch(before) is not None


def _elided(before: str) -> bool:
    """A clause whose subject "I" is left out ("Really appreciate your support, it means a
    lot"): a clause of its own before the comma."""
    body = before.strip()
    return bool(elided_feeling(body) or elided_modal(body) or elided_subject(body))


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """The character spans of the text's sentences, in order."""
    return _sentences(text)


def _sentences(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for match in _SENTENCE.finditer(text):
        start, end = match.span()
        if spans and _ABBREVIATION.search(text[spans[-1][0] : spans[-1][1]]):
            start = spans.pop()[0]
        if end > start:
            spans.append((start, end))
    return spans


def _trimmed(text: str, clause: Clause) -> Clause:
    raw = text[clause.start : clause.end]
    start = clause.start + len(raw) - len(raw.lstrip())
    end = clause.start + len(raw.rstrip())
    return replace(clause, start=start, end=end)
