"""Whether memory mentions what a query asks: a query memory cannot answer takes the
escalate path with no result (issue 31 item 4).

A value is state (holder, attribute, value, time): "What is Caroline's passport number?"
asks of its holder, Caroline, the attribute "passport number". Memory can state that value
only if something said mentions the thing asked, in its own words or in close ones. A
global similarity floor cannot tell this question from an answerable one: it is as close
to Caroline's facts as the questions they answer, because they name her
(docs/benchmarks.md, bench/unanswerable). So the check reads what is asked of the holder
(the query less the names of those who hold it, :func:`asked_terms`) and memory cannot
answer when both hold:

- some term of it occurs in no fact and no raw turn of the scope (an exact word-stem
  search: memory never said "passport"), and
- what is asked is far from every fact and raw turn (cosine below ``ASKED_FLOOR``: no
  paraphrase of it was said either, "bike" for "bicycle").

The words that name the kind of answer wanted or a generic act ("hobby", "job", "city",
"happened": words/asked_kinds.txt) are no terms: a question names the kind, a fact names a
member of it ("What hobby does Alice have?" is answered by "Alice repairs old bicycles").
A query with no term left ("Tell me about Alice", "What happened two weeks ago?") is left
to the router, and so is a question asking for a judgement ("Would Caroline pursue
writing as a career?", "What might John's financial status be?"): its answer is never
said, it is read from what was said about the holder. A query with no word at all to look
up ("x", "?") asks nothing memory holds.

Pure: the searches are the caller's (services/memory/search_routes.py).

>>> asked_terms("What is Caroline's passport number?", ("Caroline",))
('passport',)
>>> asked_terms("What hobby does Alice have?", ("Alice",))
()
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from provmem.core.language.lexicon import CALENDAR_WORDS, FUNCTION_WORDS
from provmem.core.language.wordlists import word_list
from provmem.core.retrieval.sufficiency import Path, Routing

KIND_WORDS = word_list("provmem.core.retrieval", "asked_kinds")
_QUESTION_WORDS = frozenset(
    w.lower() for w in word_list("provmem.core.retrieval", "question_words")
)
# Measured (docs/benchmarks.md, bench/unanswerable, stop 34): the cosine of what a question
# asks of its holder to the closest fact or turn is 0.34-0.45 at the 5th percentile of
# LoCoMo dev's answerable questions (by category) and 0.31 at the 90th of unanswerable ones.
ASKED_FLOOR = 0.33
_WORD = re.compile(r"[a-z]+(?:['’][a-z]+)?")
_MIN_LENGTH = 3  # "x", "wi" (of "wi-fi"): too short to name a thing


def asked_terms(query: str, holders: Sequence[str]) -> tuple[str, ...]:
    """The words of ``query`` that name the things it asks about, in order, each once: the
    words in a noun's place (after a determiner, a possessive, "which"/"what", "how
    much/many" or a number, up to the next function word), less the words of a kind and
    the ``holders``' names. A query of keywords alone (no function or question word) is
    all terms. The verbs and adverbs of a question are no terms: they say how the thing is
    held, which people tell in many words ("based" for "lives", "for fun" for a hobby).

    >>> asked_terms("How much tax did Jon pay last year?", ("Jon",))
    ('tax',)
    >>> asked_terms("What is the name of Jon's iguana?", ("Jon",))
    ('iguana',)
    >>> asked_terms("Where is Sofia based?", ("Sofia",))
    ()
    """
    names = {w for holder in holders for w in holder.split()}
    tokens = _TOKEN.findall(query)
    plain = [t.lower() for t in tokens]
    if not any(t in FUNCTION_WORDS or t in _QUESTION_WORDS for t in plain):
        return _terms(t for t, token in zip(plain, tokens, strict=True) if token not in names)
    terms: list[str] = []
    in_noun = False
    for token, word in zip(tokens, plain, strict=True):
        owner, possessive = _POSSESSIVE.subn("", token)
        if owner in names:
            in_noun = bool(possessive)
            continue
        if word in _NOUN_MARKERS or word.isdigit():
            in_noun = True
        elif word in FUNCTION_WORDS or word in _QUESTION_WORDS:
            in_noun = False
        elif in_noun:
            terms.append(owner.lower())
            in_noun = True
    return _terms(terms)


def named_terms(query: str, names: Sequence[str], user: str) -> tuple[str, ...]:
    """The words of the ``names`` a query mentions that memory must mention too: not the
    scope's ``user`` (known by their id), not a word of the calendar (a time is the temporal
    route's: "What did I do in March?"), not the query's first word (a capital there says
    nothing: "Convert 5 miles ...", "Remind me ...").

    >>> named_terms("Remind me where Ben works in May", ("Remind", "Ben", "May"), "Ann")
    ('ben',)
    """
    first = query.split(maxsplit=1)[0] if query.strip() else ""
    words = (w.lower() for name in names if name not in (user, first) for w in name.split())
    return tuple(dict.fromkeys(w for w in words if w not in CALENDAR_WORDS))


def _terms(words: Iterable[str]) -> tuple[str, ...]:
    kept = (w for w in words if len(w) >= _MIN_LENGTH and w not in KIND_WORDS)
    return tuple(dict.fromkeys(w for w in kept if w not in FUNCTION_WORDS))


_TOKEN = re.compile(r"[A-Za-z]+(?:['’]s\b)?|\d+")
_POSSESSIVE = re.compile(r"['’]s$")
# After these a noun comes: determiners, possessive pronouns, "which"/"what"/"whose" before
# a noun, "how much/many".
_NOUN_MARKERS = frozenset(
    "a an the my your his her their our its this that these those some any each every "
    "which what whose much many".split()
)


_JUDGEMENT = re.compile(r"\b(?:would|might|could|likely|probably|possibly)\b", re.I)


def asks_judgement(query: str) -> bool:
    """Whether ``query`` asks what would or might hold (an inference from what was said).

    >>> asks_judgement("What might John's financial status be?")
    True
    """
    return _JUDGEMENT.search(query) is not None


def asks_nothing(query: str) -> bool:
    """Whether ``query`` holds no word to look up: none of two letters or more but question
    and function words, and no number.

    >>> asks_nothing("x"), asks_nothing("Who?"), asks_nothing("lol")
    (True, True, False)
    """
    words = _WORD.findall(query.lower())
    looked_up = [w for w in words if len(w) >= 2 and w not in FUNCTION_WORDS | _QUESTION_WORDS]
    return not looked_up and not _DIGIT.search(query)


_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class Mentions:
    """What memory holds of a query: its terms found in no fact or turn, how close what it
    asks is to the closest fact or turn (cosine), and whether it holds no word at all."""

    unmentioned: tuple[str, ...]
    closeness: float
    nothing_asked: bool = False


def unanswerable(mentions: Mentions, floor: float = ASKED_FLOOR) -> Routing | None:
    """ESCALATE (no result) when the query asks nothing, or when memory mentions some term
    of it nowhere and nothing is close to what it asks; None when the router decides."""
    if mentions.nothing_asked:
        return Routing(Path.ESCALATE, ("the query names nothing to look up",))
    if not mentions.unmentioned or mentions.closeness >= floor:
        return None
    said = ", ".join(f'"{term}"' for term in mentions.unmentioned)
    return Routing(Path.ESCALATE, (f"memory never mentions {said}",))


def unmentioned(terms: Sequence[str], found: Collection[str]) -> tuple[str, ...]:
    """The ``terms`` not among those ``found`` in memory."""
    return tuple(t for t in terms if t not in found)
