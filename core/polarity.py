"""Polarity: what a negated statement denies, and when two statements are about one matter.

The write gate's contradiction rules read statements with these: a negation names the
terms it denies ("never used SQLAlchemy" -> ``sqlalchemy``), "never" denies for all time
(a later "now" contradicts it rather than updates it), "no longer" or "started" says the
polarity changed, and two statements about the same subject share content lemmas.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .attributes import NON_NAMES, lemma
from .lexicon import CALENDAR_WORDS, FUNCTION_WORDS

__all__ = [
    "content_lemmas",
    "denied_terms",
    "denies_for_all_time",
    "lead_subject",
    "mentions",
    "plain_negation",
    "polarity_change_cue",
]

_STARTED_OR_STOPPED = re.compile(
    r"\b(?:no longer|anymore|any more|stopped|quit|gave up|given up|started|starting|began"
    r"|begun|now|switched|finally|these days|nowadays)\b",
    re.I,
)


def polarity_change_cue(statement: str) -> bool:
    """Whether the statement says something stopped or started ("no longer", "now")."""
    return _STARTED_OR_STOPPED.search(statement) is not None


_WORD = re.compile(r"[A-Za-z][\w'’+#-]*")
_NEGATIONS = frozenset({"not", "never", "no", "none", "nothing", "nobody", "neither", "nor"})
_COLLOQUIAL = frozenset({"gonna", "wanna", "gotta", "kinda", "sorta", "lemme", "gimme", "others"})
# A negation that says something positive: "never give up", "not just a hobby".
_POSITIVE_NEGATION = re.compile(
    r"(?:\b(?:not|never|no|cannot)|n['’]t)\s+(?:\w+\s+){0,2}?(?:just|only|give up|giving up"
    r"|quit|stop|beat|wait|believe|help|last|matter|doubt|wonder|forget|regret|mind|miss"
    r"|be happier|be prouder|enough)\b",
    re.I,
)


_NEGATION_CUE = re.compile(r"\b(?:not|never|no|nobody|none|nothing|cannot)\b|n['’]t\b", re.I)
_ALL_TIME = re.compile(r"\b(?:never|ever|nobody|no one|none of)\b", re.I)
_TERM = re.compile(r"`[^`]+`|[A-Za-z][\w.+#/-]*")


def denied_terms(statement: str, speaker: str) -> tuple[str, ...]:
    """What a negation denies, where it names things: the technical or proper terms after
    the negation cue ("never used SQLAlchemy" -> ``sqlalchemy``, "never run Beacon on
    Windows" -> ``beacon``, ``windows``), lower case, the speaker left out."""
    cue = _NEGATION_CUE.search(statement)
    if cue is None:
        return ()
    words = (m.group(0).strip("`.") for m in _TERM.finditer(statement, cue.end()))
    return tuple(w.lower() for w in words if _topical(w) and w.lower() != speaker.lower())


def mentions(statement: str, term: str) -> bool:
    """Whether the statement names ``term`` as a word of its own (any case)."""
    pattern = rf"(?<![\w@/.-]){re.escape(term)}(?![\w-])"
    return re.search(pattern, statement, re.I) is not None


def denies_for_all_time(statement: str) -> bool:
    """ "Never", "nobody ever": a denial about all time, which a later "now" contradicts
    rather than updates."""
    return _ALL_TIME.search(statement) is not None


def _topical(word: str) -> bool:
    """A named or technical term: capitalized, an acronym, or with digits or symbols."""
    lowered = word.lower()
    if lowered in NON_NAMES | FUNCTION_WORDS | CALENDAR_WORDS or not any(c.isalpha() for c in word):
        return False
    return word[0].isupper() or any(c.isdigit() or c in "._+#/" for c in word)


def plain_negation(statement: str) -> bool:
    """Whether a negated statement denies something (not an idiom such as "never give
    up" or "not just a hobby", nor a caption)."""
    return not statement.startswith("[") and _POSITIVE_NEGATION.search(statement) is None


def lead_subject(statement: str) -> str:
    """The statement's first word, lower case, without a possessive: who it is about
    ("" for a pronoun or a function word: that says nothing about who)."""
    first = statement.split(maxsplit=1)[0] if statement.strip() else ""
    word = first.replace("’", "'").removesuffix("'s").lower()
    return "" if word in FUNCTION_WORDS or word in NON_NAMES else word


@lru_cache(maxsize=65536)
def content_lemmas(statement: str) -> frozenset[str]:
    """The statement's common content words as lemmas (no names, function words or
    negations): what two statements must share to be about the same thing."""
    common = (w for w in _WORD.findall(statement) if not w[0].isupper())
    words = (w.replace("’", "'").removesuffix("'s").lower() for w in common)
    return frozenset(
        lemma(w)
        for w in words
        if w not in FUNCTION_WORDS | _NEGATIONS | _COLLOQUIAL and len(w) > 2 and "'" not in w
    )
