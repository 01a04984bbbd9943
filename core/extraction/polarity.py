"""Polarity: what a negated statement denies, and when two statements are about one matter.

The write gate's contradiction rules read statements with these: a negation names the
terms it denies ("never used SQLAlchemy" -> ``sqlalchemy``), "never" denies for all time
(a later "now" contradicts it rather than updates it), "no longer" or "started" says the
polarity changed, and two statements about the same subject share content lemmas.
"""

from __future__ import annotations

import re
from functools import lru_cache

from provmem.core.extraction.attributes import NON_NAMES, lemma
from provmem.core.language.lexicon import ADVERBS_BEFORE_VERB, CALENDAR_WORDS, FUNCTION_WORDS
from provmem.core.language.wordlists import word_list

__all__ = [
    "content_lemmas",
    "denied_head",
    "denied_terms",
    "denies_for_all_time",
    "lead_subject",
    "mentions",
    "names_matter",
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
_NEGATIONS = word_list("provmem.core.extraction", "negations")
_COLLOQUIAL = word_list("provmem.core.extraction", "colloquial_words")
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
    boundary = _CLAUSE_END.search(statement, cue.end())  # "..., Ines owns that code"
    end = boundary.start() if boundary else len(statement)
    found = [m.group(0).strip("`.") for m in _TERM.finditer(statement, cue.end(), end)]
    terms = [w.lower() for w in found if _topical(w) and w.lower() != speaker.lower()]
    return tuple(terms + _initials(found))


_CLAUSE_END = re.compile(r"[,;:!?]|\.(?:\s|$)")


def _initials(words: list[str]) -> list[str]:
    """The acronyms a denial spells out: the initials of two or three consecutive common
    content words ("never had any continuous integration" -> ``ci``), for a later
    statement that writes the acronym in capitals."""
    content = [w.lower() for w in words if w.islower() and w not in FUNCTION_WORDS]
    runs = (content[i : i + n] for n in (2, 3) for i in range(len(content) - n + 1))
    return [SPELLED + "".join(w[0] for w in run) for run in runs if all(len(w) > 2 for w in run)]


SPELLED = "~"  # marks a denied term the denial spelled out (compare in capitals only)


def mentions(statement: str, term: str) -> bool:
    """Whether the statement names ``term`` as a word of its own (any case)."""
    pattern = rf"(?<![\w@/.-]){re.escape(term)}(?![\w-])"
    return re.search(pattern, statement, re.I) is not None


def spells_out(statement: str, acronym: str) -> bool:
    """Whether consecutive words of the statement have the acronym's letters as initials
    ("object relational mapper" for ``ORM``); three letters at least (two-letter initials
    are everywhere: "container image" is no "CI").

    >>> spells_out("We map rows with an object relational mapper.", "ORM")
    True
    """
    letters = acronym.lower()
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", statement)).lower()
    return 3 <= len(letters) <= 5 and letters in initials and _spelled(statement, letters)


def _spelled(statement: str, letters: str) -> bool:
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", statement)]
    span = len(letters)
    return any(
        "".join(w[0] for w in words[i : i + span]) == letters
        and all(len(w) > 2 for w in words[i : i + span])
        for i in range(len(words) - span + 1)
    )


def names_matter(statement: str, term: str, denial: str) -> bool:
    """Whether ``statement`` names the denied ``term`` and, when the denial gives the term
    a head noun ("never wrote Flask *routes*"), that head too: "building it with Flask"
    does not say what "never wrote Flask routes" denies. An acronym the denial wrote in
    capitals also counts spelled out ("CI" / "continuous integration")."""
    if term.startswith(SPELLED):  # spelled out in the denial: the acronym in capitals
        return _capitals(statement, term.removeprefix(SPELLED).upper())
    named = mentions(statement, term) or (
        _capitals(denial, term.upper()) and spells_out(statement, term)
    )
    head = denied_head(denial, term)
    return named and (head is None or _shares_stem(statement, head))


def _capitals(statement: str, acronym: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(acronym)}(?![\w-])", statement) is not None


_HEAD_AFTER = re.compile(r"\s+([a-z]{3,})\b")
_NOT_HEADS = word_list("provmem.core.extraction", "not_denied_heads")
STEM = 4  # letters two forms of one word share ("routes", "routing", "route")


def denied_head(denial: str, term: str) -> str | None:
    """The noun the denied term modifies in the denial ("Flask routing code" -> ``routing``),
    or None when the term is the head itself ("never used Docker for ...")."""
    found = re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", denial, re.I)
    after = _HEAD_AFTER.match(denial, found.end()) if found else None
    word = after.group(1) if after else ""
    if not word or word in FUNCTION_WORDS | _NEGATIONS | ADVERBS_BEFORE_VERB | _NOT_HEADS:
        return None
    return None if word.endswith(("ly", "where")) else word


def _shares_stem(statement: str, head: str) -> bool:
    stem = lemma(head)[:STEM]
    return any(lemma(w).startswith(stem) for w in _WORD.findall(statement.lower()))


def denies_for_all_time(statement: str) -> bool:
    """ "Never", "nobody ever": a denial about all time, which a later "now" contradicts
    rather than updates."""
    return _ALL_TIME.search(statement) is not None


def _topical(word: str) -> bool:
    """A named or technical term: capitalized, an acronym, in mixed case ("gRPC", "iOS"), or
    with digits or symbols."""
    lowered = word.lower()
    if lowered in NON_NAMES | FUNCTION_WORDS | CALENDAR_WORDS or not any(c.isalpha() for c in word):
        return False
    return any(c.isupper() for c in word) or any(c.isdigit() or c in "._+#/" for c in word)


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
