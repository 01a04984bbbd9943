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
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from provmem.core.language.lexicon import FUNCTION_WORDS
from provmem.core.language.wordlists import word_list
from provmem.core.retrieval.sufficiency import Path, Routing, unnamed_query

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
    """The words of ``query`` that name what it asks of its ``holders`` (their names, the
    question and function words and the words of a kind taken out), in order, each once."""
    asked = unnamed_query(query, holders) if holders else query
    words = (w.split("'")[0].split("’")[0] for w in _WORD.findall(asked.lower()))
    return tuple(
        dict.fromkeys(
            w
            for w in words
            if len(w) >= _MIN_LENGTH
            and w not in FUNCTION_WORDS
            and w not in _QUESTION_WORDS
            and w not in KIND_WORDS
        )
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
