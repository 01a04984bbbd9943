"""Verb agreement for a rewritten subject: "I (adverbs) verb" -> "Maya (adverbs) verbs".

Closed word lists only (``lexicon``): a present verb after the subject and its adverbs is
put in the third person, an auxiliary after adverbs too ("I definitely don't" -> "Maya
definitely doesn't"), and a second verb joined by "and" and an adverb ("and always try"
-> "and always tries"); past forms, modals and function words stay as they are.
"""

from __future__ import annotations

import re

from provmem.core.language.lexicon import (
    ADVERB_PHRASES,
    ADVERBS_BEFORE_VERB,
    FUNCTION_WORDS,
    MODALS_AND_PAST,
    VERBS_ENDING_IN_ED_OR_ING,
    VERBS_ENDING_IN_LY,
)

__all__ = ["Replacement", "agreeing_verb", "coordinated", "third_person", "verb_after_adverbs"]

Replacement = tuple[int, int, str]
_Q = "['’]"
_NEXT_WORDS = re.compile(r"\s+((?:[a-z]+(?:-[a-z]+)*(?:\s+|(?=[^\w'’-])|$)){0,3})")
_AUXILIARY_AFTER_ADVERBS = re.compile(
    rf"\s+(?P<adverbs>(?:[a-z]+ly\s+|never\s+|just\s+|still\s+|also\s+|really\s+)+)"
    rf"(?P<aux>don{_Q}t|do not|haven{_Q}t|have not|have|am|{_Q}m)\b"
)
_AUXILIARY_FORMS = {
    "don't": "doesn't", "do not": "does not", "haven't": "hasn't", "have not": "has not",
    "have": "has", "am": "is",
}  # fmt: skip


def verb_after_adverbs(following: str) -> str:
    words = re.findall(r"[a-z]+", following.lower())[:4]
    adverbs = _leading_adverbs(words)
    return words[len(adverbs)] if len(adverbs) < len(words) else ""


def _leading_adverbs(words: list[str]) -> list[str]:
    """The adverbs before a verb: "now", "really", "kind of", any "-ly" but "apply"."""
    adverbs: list[str] = []
    while len(adverbs) < len(words):
        word = words[len(adverbs)]
        pair = tuple(words[len(adverbs) : len(adverbs) + 2])
        if pair in ADVERB_PHRASES:
            adverbs += list(pair)
        elif word in ADVERBS_BEFORE_VERB or _ly_adverb(word):
            adverbs.append(word)
        else:
            break
    return adverbs


def _ly_adverb(word: str) -> bool:
    return len(word) > 4 and word.endswith("ly") and word not in VERBS_ENDING_IN_LY


def agreeing_verb(text: str, match: re.Match[str], end: int, speaker: str) -> Replacement:
    """``I (adverbs) verb`` -> ``Speaker (adverbs) verbs`` for a present-tense verb (and an
    auxiliary after adverbs: "I definitely don't" -> "Maya definitely doesn't")."""
    inverted = _INVERTED.search(text, 0, match.start())
    if inverted is not None:  # "Not once have I written ..." -> "... has Maya written ..."
        form = _INVERTED_FORMS.get(inverted.group("aux").lower(), inverted.group("aux"))
        return inverted.start("aux"), match.end(), f"{form} {speaker}"
    auxiliary = _AUXILIARY_AFTER_ADVERBS.match(text, match.end(), end)
    if auxiliary and auxiliary.group("aux").replace("’", "'") in _AUXILIARY_FORMS:
        form = _AUXILIARY_FORMS[auxiliary.group("aux").replace("’", "'")]
        return match.start(), auxiliary.end(), f"{speaker} {auxiliary.group('adverbs')}{form}"
    following = _NEXT_WORDS.match(text, match.end(), end)
    words = following.group(1).split() if following else []
    adverbs = _leading_adverbs(words)
    if len(adverbs) == len(words) or not _present_verb(words[len(adverbs)]):
        return match.start(), match.end(), speaker
    verb = words[len(adverbs)]
    stop = text.index(verb, match.end()) + len(verb)
    return match.start(), stop, " ".join([speaker, *adverbs, _third_person(verb)])


# An auxiliary before the subject (after "never", "not once", "only then"...): the subject
# follows it and the auxiliary agrees, the verb after the subject stays as it is.
_INVERTED = re.compile(
    r"(?i:\b(?:never|not once|not only|nor|neither|rarely|seldom|only then|little)\s+)"
    r"(?P<aux>have|do|am|was|were|did|had|can|could|will|would|should)\s+$"
)
_INVERTED_FORMS = {"have": "has", "do": "does", "am": "is", "were": "was"}


_COORDINATED_VERB = re.compile(
    r"\b(?P<lead>and\s+(?:always|also|never|often|usually|sometimes|really|just|still)\s+)"
    r"(?P<verb>[a-z]+)\b"
)


def coordinated(text: str, first: Replacement, match: re.Match[str], end: int) -> list[Replacement]:
    """After a verb made third person, a second verb joined to it by "and" and an adverb
    agrees too ("I never shy away and always try" -> "Maya never shies away and always
    tries"); a bare "and" is left ("cats and dogs": no lexicon tells verb from noun)."""
    if first[1] == match.end():
        return []  # no verb of the clause was made third person
    found = []
    for also in _COORDINATED_VERB.finditer(text, first[1], end):
        verb = also.group("verb")
        if _present_verb(verb) and not verb.endswith(("s", "ed", "ing")):
            found.append((also.start("verb"), also.end("verb"), _third_person(verb)))
    return found


def _present_verb(word: str) -> bool:
    if word in MODALS_AND_PAST or not word.replace("-", "").isalpha():
        return False
    if any(word.endswith(past) for past in _PAST_ENDINGS):
        return False  # "overcame", "undertook", "forgave": a past form after a prefix
    if word.endswith(("ed", "ing")) and word not in VERBS_ENDING_IN_ED_OR_ING:
        return False
    return word not in FUNCTION_WORDS - {"have", "do", "go"} and len(word) > 1


_PAST_ENDINGS = tuple(
    p
    for p in MODALS_AND_PAST
    if len(p) >= 4 and p not in {"would", "could", "should", "might", "must", "used"}
)


def third_person(verb: str) -> str:
    """A present-tense verb's third person singular: "work" -> "works", "go" -> "goes"."""
    return _third_person(verb)


def _third_person(verb: str) -> str:
    irregular = {"have": "has", "do": "does", "go": "goes", "be": "is"}
    if verb in irregular:
        return irregular[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"
