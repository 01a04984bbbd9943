"""Measured readings: a quantity with its unit, a money amount or a count that a clause
gives to a noun phrase, read as (subject, attribute, value) before the general grammar of
core/extraction/attributes.py (which calls :func:`read_measures` first, clause by clause).

    >>> read_measures(["The p99 latency of /items is 420 ms in production"], "dev", False)[0]
    Measured(subject='dev', attribute='production item p99 latency', value='420 ms', changed=False)
    >>> read_measures(["We bumped the pods to 1Gi memory"], "dev", False)[0].attribute
    'pod memory'

What it reads, in general English and engineering syntax:

- a subject, a verb of being, having or measuring, and a measure: "Tomas's resting heart
  rate is 58 bpm", "each pod has 512Mi of memory", "the fan spins at 1200 rpm";
- a change verb that takes a thing to a value ("bumped the pods to 1Gi", "raised the
  timeout from 30 s to 60 s") or a thing that moves to one ("the p99 dropped to 95 ms",
  "the pods were bumped to 2Gi"): a change said by the clause itself;
- a second verb phrase joined by "and" shares the first one's subject ("the CI runs on
  GitHub Actions and takes about 12 minutes");
- a pronoun given a measure with a change cue ("it's 54 bpm now"): the attribute is then
  named by its unit, as nothing else names it.

The attribute keeps the head noun and what tells one thing from another: "the A of B"
and "A per B" read "B A", a place or environment after the value or in the phrase ("in
production", "in staging") is a modifier, a noun after the measure names what is measured
("512Mi of memory", "1Gi memory"), and a unit stays with its value ("58 bpm").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

from provmem.core.language.lexicon import CALENDAR_WORDS, FUNCTION_WORDS, IRREGULAR_PAST, UNITS
from provmem.core.language.wordlists import word_list

__all__ = ["Measured", "first_reading", "read_measures"]

T = TypeVar("T")


class Measured(NamedTuple):
    subject: str
    attribute: str
    value: str
    changed: bool


_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_UNIT = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
# Kubernetes-style binary suffixes, in their own case only ("512Mi" is no mile).
_BINARY = {"Ki": "kib", "Mi": "mib", "Gi": "gib", "Ti": "tib"}
_COUNTED = r"(?:[a-z][a-z-]* )?[a-z][a-z-]*s"
_MEASURE = (
    rf"(?P<cur>[$€£])\s?(?P<amount>{_NUMBER})(?P<mult>[kKmM]\b)?"
    rf"|(?P<num>{_NUMBER})\s?(?:(?P<binary>Ki|Mi|Gi|Ti)|(?P<unit>(?i:{_UNIT})))(?!\w|\.\d)"
    rf"|(?P<cnum>{_NUMBER}) (?P<counted>{_COUNTED})\b"
)
# A plain number a thing is changed to is a count (a version or a date is no measure).
_CHANGED_TO = rf"{_MEASURE}|(?P<bare>\d[\d,]*)(?![\w.%]| (?i:{'|'.join(CALENDAR_WORDS)})\b)"
_DET = r"(?:the|a|an|our|my|your|his|her|its|their|this|that|these|those|each|every|all)"
_WORD = r"[\w/'’.+#@()-]+"
_NP = rf"(?P<np>(?:(?i:{_DET}) )?(?:{_WORD} ){{0,6}}?{_WORD})"
_ADV = (
    r"(?:(?:now|currently|still|usually|typically|normally|always|also|just|already"
    r"|actually|only|roughly|recently|finally|lately|today) )*"
)
_APPROX = (
    r"(?:(?:at|around|about|roughly|approximately|nearly|almost|over|under|only|just|~"
    r"|down to|up to|to|in|on|of|for|within|by|with|near) )*"
)
_STATIVE = (
    r"is|are|was|were|'s|’s|'re|’re|has been|have been|had been|remains|remained|stays"
    r"|stayed|becomes|became|has|have|had|uses|use|used|takes|take|took|needs|need|needed"
    r"|costs|cost|weighs|weighed|lasts|last|lasted|holds|hold|held|gets|get|got|gives|give"
    r"|runs|run|averages|averaged|peaks|peaked|hovers|sits|sat|stands|stood|consumes"
    r"|consume|handles|handle|serves|serve|allows|allow|requires|require|fits|measures"
    r"|comes in|came in|amounts"
)
_VERBS = _STATIVE.replace("|comes in|came in", "")
_PAST = "|".join(sorted(IRREGULAR_PAST))
_STATIVE += r"|[a-z]{3,}s"
_CHANGE = (
    r"raised|bumped|increased|decreased|reduced|cut|lowered|dropped|upgraded|downgraded"
    r"|scaled|set|changed|updated|doubled|tripled|halved|boosted|trimmed|shrank|shrunk"
    r"|expanded|grew|grown|extended|shortened|capped|limited|pushed|brought|tuned|adjusted"
    r"|resized|slashed|lifted|fell|fallen|rose|risen|went|gone|climbed|jumped|improved"
    r"|slipped|moved|come down|came down"
)
_AFTER = r"(?P<tail>(?: .*)?)$"
_OBJECT = rf"(?P<obj>(?:(?i:{_DET}) )?(?:{_WORD} ){{0,4}}?{_WORD})"
_FROM = rf"(?: from (?:{_NUMBER})\s?(?:[A-Za-z%]+)?)?"
_PATTERNS = (
    # "the pods were bumped to 2Gi", "the p99 dropped to 95 ms", "went from 512Mi to 1Gi"
    re.compile(
        rf"^{_NP} (?:(?:has|have|had|was|were|got|is|are|been) )*{_ADV}(?P<cue>{_CHANGE})"
        rf"(?: (?:up|down|back))?{_FROM} to (?:{_APPROX})(?:{_CHANGED_TO}){_AFTER}"
    ),
    # "bumped the pods to 1Gi memory", "raised the timeout from 30 s to 60 s"
    re.compile(
        rf"\b(?P<cue>{_CHANGE}) {_OBJECT}(?: (?:up|down|back))?{_FROM}"
        rf" to (?:{_APPROX})(?:{_CHANGED_TO}){_AFTER}"
    ),
    # "Tomas's resting heart rate is 58 bpm", "each pod has 512Mi of memory"
    re.compile(
        rf"^{_NP} {_ADV}(?:{_STATIVE}) (?:(?:us|me|them|you) )?{_ADV}(?:{_APPROX})"
        rf"(?:{_MEASURE}){_AFTER}"
    ),
    # "(workers at 610MB each)", "with hosting at $420 a month": a noun phrase at a
    # measure, no verb between
    re.compile(
        rf"^(?!(?:\S+ ){{0,2}}(?:{_VERBS}|{_PAST}|\w+ed)\b)(?P<np>(?:(?i:{_DET}) )?"
        rf"(?:{_WORD} ){{0,2}}?{_WORD}) (?:at|around|near) (?:{_APPROX})(?:{_MEASURE}){_AFTER}"
    ),
)
_PRONOUN_MEASURE = re.compile(
    r"^(?:it|that|this)(?:'s|’s| is| was| has been| sits at| stands at)? "
    rf"{_ADV}(?:{_APPROX})(?P<num>{_NUMBER})\s?(?:(?P<binary>Ki|Mi|Gi|Ti)|(?P<unit>(?i:{_UNIT})))"
    r"(?!\w|\.\d)",
    re.I,
)
# A clause that opens on a verb has the subject of the clause before it ("... and takes
# about 12 minutes"), which opens on a noun phrase and its verb.
_OPENS_ON_VERB = re.compile(rf"^{_ADV}(?:{_STATIVE})\b")
_SUBJECT_OF = re.compile(rf"^{_NP} {_ADV}(?:{_STATIVE}|[a-z]{{3,}}ed)\b")
_MEASURE_ALONE = re.compile(rf"^(?:{_APPROX})(?:{_MEASURE})")
_CLAUSE_WORDS = word_list("provmem.core.language", "clause_words")
_PRONOUNS = word_list("provmem.core.language", "pronoun_subjects")
_GENERIC = word_list("provmem.core.language", "generic_measure_words")
# What may follow a measure and is no measured thing or place ("2 GB last week").
_NOT_QUALIFIERS = word_list("provmem.core.language", "not_qualifiers") | CALENDAR_WORDS
_TIME_NOUNS = word_list("provmem.core.language", "time_nouns")
# What follows a measure: the measured thing ("512Mi of memory", "1Gi memory") and a
# place or environment it holds in ("420 ms in production").
_JOINS = r"of|in|on|at|for|with|from|by|to|because|since|after|before|when|while|so|and|but|as"
_MEASURED_THING = re.compile(
    rf"^ (?:of (?P<of>[A-Za-z][\w-]*)|(?P<noun>[a-z][a-z-]*|[A-Z]{{2,5}})(?=$| (?:{_JOINS})\b))"
)
_PLACE = re.compile(r" (?:in|on) (?:the )?(?P<env>[a-z][\w-]*)(?= |$)")
KEY_WORDS = 4


def read_measures(clauses: Sequence[str], speaker: str, changed: bool) -> list[Measured | None]:
    """A measured reading or None for each clause of one statement, in order."""
    readings: list[Measured | None] = []
    before = ""
    for clause in clauses:
        shared = _shared(before, clause) if before else None
        before = f"{shared} {clause}" if shared else clause
        reading = _read(before, speaker, changed)
        readings.append(reading or _pronoun_measure(clause, speaker, changed))
    return readings


def _shared(before: str, clause: str) -> str | None:
    """What ``clause`` leaves to the clause before: its subject when it opens on a verb
    ("... and takes about 12 minutes"), its subject and verb when it is a measure alone
    ("has 16 GB of RAM and 4 vCPUs")."""
    found = _SUBJECT_OF.match(before)
    if found is None or found.group("np").lower() in _PRONOUNS:
        return None
    if _OPENS_ON_VERB.match(clause):
        return found.group("np")
    if _MEASURE_ALONE.match(clause):
        return found.group(0)
    return None


def first_reading(
    patterns: Sequence[re.Pattern[str]],
    clause: str,
    read: Callable[[re.Match[str], str, bool], T | None],
    speaker: str,
    changed: bool,
) -> T | None:
    """The first reading ``read`` makes of a pattern's match in ``clause``, in pattern order;
    the first two patterns are change forms ("X went up to V"), so they say a change."""
    for number, pattern in enumerate(patterns):
        match = pattern.search(clause)
        if match is not None:
            reading = read(match, speaker, changed or number < 2)
            if reading is not None:
                return reading
    return None


def _read(clause: str, speaker: str, changed: bool) -> Measured | None:
    return first_reading(_PATTERNS, clause, _measured, speaker, changed)


def _pronoun_measure(clause: str, speaker: str, changed: bool) -> Measured | None:
    """ "It's 54 bpm now": a measure said of a pronoun, read only with a change cue."""
    match = _PRONOUN_MEASURE.match(clause) if changed else None
    if match is None:
        return None
    value = _value(match)
    return Measured(speaker, value.partition(" ")[2], value, True) if value else None


def _measured(match: re.Match[str], speaker: str, changed: bool) -> Measured | None:
    groups = match.groupdict()
    phrase = groups.get("np") or groups.get("obj") or ""
    owned = _owner(phrase, speaker)
    value = _value(match)
    if owned is None or value is None:
        return None
    subject, words = owned
    tail = groups.get("tail") or ""
    thing, place = _MEASURED_THING.match(tail), _PLACE.search(tail)
    measured = (thing.group("of") or thing.group("noun")) if thing else None
    env = place.group("env") if place else None
    counted = groups.get("counted")
    if counted:
        if counted.split()[-1] in _TIME_NOUNS:
            return None
        words = [*words, *counted.split()] if len(_content(words)) > 1 else counted.split()
    elif measured and _qualifier(measured):
        words = [*words, measured]
    if env and _qualifier(env):
        words = [env, *words]
    attribute = _attribute(words)
    return Measured(subject, attribute, value, changed) if attribute else None


def _owner(phrase: str, speaker: str) -> tuple[str, list[str]] | None:
    """The subject and the attribute's words of a noun phrase: a possessive name owns
    it ("Tomas's resting heart rate"), else the speaker; "X and others" is the speaker.
    A pronoun, a name alone or a phrase with a clause in it reads nothing."""
    text = re.sub(r"\b\w+ and others(?:['’]s?|['’])?(?= |$)", "", phrase.replace("’", "'"))
    words = text.split()
    if not words or any(w.lower() in _CLAUSE_WORDS or w.lower() == "and" for w in words):
        return None
    if len(words) == 1 and words[0].lower() in _PRONOUNS:
        return None
    subject = speaker
    first = words[0]
    if first.endswith(("'s", "s'")) and first[:1].isupper():
        subject = first.removesuffix("'s").removesuffix("'").lower()
        words = words[1:]
    return subject, _reordered([w.lower() for w in words if w.lower() != speaker])


def _reordered(words: list[str]) -> list[str]:
    """ "the A of B", "A per B", "A for B", "A in B", "A on B": "B A"."""
    for joint in ("of", "per", "for", "in", "on", "at"):
        if joint in words[1:]:
            cut = words.index(joint, 1)
            return _reordered(words[cut + 1 :]) + words[:cut]
    return words


def _qualifier(word: str) -> bool:
    """A word that can name a measured thing or a place: no function word, time word or
    adverb ("lately")."""
    lowered = word.lower()
    adverb = lowered.endswith("ly") and len(lowered) > 4
    return not adverb and lowered not in FUNCTION_WORDS and lowered not in _NOT_QUALIFIERS


def _attribute(words: list[str]) -> str:
    return " ".join(_content(words)[-KEY_WORDS:])


def _content(words: list[str]) -> list[str]:
    """The content lemmas of a phrase: no function word, qualifier ("average"), number
    or possessive owner that is not its subject ("the API's p95" -> "p95")."""
    lemmas = [_lemma(_bare(w)) for w in words if "'" not in w]
    return [
        w for w in lemmas
        if len(w) > 1 and not w.isdigit() and w not in FUNCTION_WORDS and w not in _GENERIC
    ]  # fmt: skip


def _bare(word: str) -> str:
    """A word without its punctuation and parentheses ("/items" -> "items",
    "items(sku)" -> "items")."""
    return re.sub(r"\(.*$", "", word).strip("/'.,:;#@-").lower()


def _value(match: re.Match[str]) -> str | None:
    groups = match.groupdict()
    if groups.get("cur"):
        return f"{groups['cur']}{_number(groups['amount'])}{(groups.get('mult') or '').lower()}"
    if groups.get("binary"):
        return f"{_number(groups['num'])} {_BINARY[groups['binary']]}"
    if groups.get("unit"):
        return f"{_number(groups['num'])} {UNITS[groups['unit'].lower()]}"
    number = groups.get("cnum") or groups.get("bare")
    return _number(number) if number else None


def _number(text: str) -> str:
    plain = text.replace(",", "")
    return plain.removesuffix(".0") if "." in plain else plain


def _lemma(word: str) -> str:
    """A noun's singular form by suffix (pods -> pod, replicas -> replica)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word
