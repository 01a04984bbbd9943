"""Slot rules: first-person (or named-subject) patterns that key a claim by (subject, attribute).

Each rule is a regular expression with a ``value`` group (and optionally ``subject`` and
``kind`` groups). The first rule that matches a clause wins. Values are cut at clause
boundaries and dates, stripped of determiners and lower-cased.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from provmem.core.claim import Slot
from provmem.core.extraction.relations import RELATIONS, Relation
from provmem.core.language.lexicon import (
    CHILDREN,
    DIETS,
    INSTRUMENTS,
    NOT_OCCUPATIONS,
    OCCUPATION_SUFFIXES,
    PETS,
    RELATIONSHIP_STATES,
)

_Q = "['’]"
_I = r"\b(?:I|i)(?![A-Za-z])"
_ME = rf"{_I}(?:{_Q}m| am)"
_WE = r"\b(?:I|i|[Ww]e)"
_ADV = r"(?:(?:really|absolutely|also|just|truly|totally|still|definitely|kinda|so|now|recently"
_ADV += r"|finally|actually|always|usually|often|sometimes|probably|maybe|perhaps|apparently) )*"
_NOT = rf"(?:don{_Q}t|do not|never|can{_Q}t|cannot|no longer)"
_ARTICLE = r"(?:(?:a|an|the|my|our|some|two|three|\d+) )?"
_VALUE = r"(?P<value>[^,.;!?()]+)"
_NAME = r"(?P<value>[A-Z][\w’'-]+(?: [A-Z][\w’'-]+)*)"
_PRONOUNS = r"(?:He|She|It|They|We|You|This|That|There|Here|Who|My|Our|His|Her|Their|Your"
_PRONOUNS += r"|Maybe|Perhaps|Probably|Apparently|Actually|Also|Now|Then|So|Well|And|But)\b"
_NAMED = rf"\b(?!{_PRONOUNS})(?P<subject>[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
_MY = r"\b(?:[Mm]y|[Oo]ur)"


def _alternatives(words: frozenset[str]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


@dataclass(frozen=True)
class SlotRule:
    attribute: str
    pattern: re.Pattern[str]
    negated: bool = False
    prefix: str = ""


def _rule(attribute: str, pattern: str, negated: bool = False, prefix: str = "") -> SlotRule:
    return SlotRule(attribute, re.compile(pattern), negated, prefix)


SLOT_RULES: tuple[SlotRule, ...] = (
    _rule("lives_in", rf"{_I} ?{_ADV}{_NOT} live in {_VALUE}", True, "not "),
    _rule(
        "moved_to",
        rf"{_WE} ?{_ADV}(?:have |{_Q}ve )?{_ADV}(?:moved|relocated) (?:back )?to {_VALUE}",
    ),
    _rule("moved_to", rf"{_NAMED} {_ADV}(?:has |just )?(?:moved|relocated) (?:back )?to {_NAME}"),
    _rule(
        "lives_in",
        rf"{_WE} ?{_ADV}(?:live|(?:{_Q}m|am) (?:living|based|staying)|reside)(?: now)? in {_VALUE}",
    ),
    _rule("lives_in", rf"{_NAMED} {_ADV}(?:lives|is living|is based) in {_NAME}"),
    _rule("from", rf"{_ME} {_ADV}(?:originally )?from {_NAME}"),
    _rule("works_at", rf"{_I} ?{_ADV}{_NOT} work (?:at|for) {_VALUE}", True, "not "),
    _rule(
        "works_at",
        rf"{_I} ?{_ADV}(?:work|(?:{_Q}m|am) working|(?:got|have|started|took) a (?:new )?job"
        rf"|(?:got )?hired|(?:have |{_Q}ve )?started working) (?:at|for|with) {_VALUE}",
    ),
    _rule("works_at", rf"{_I} ?{_ADV}(?:joined|work at|work for) {_NAME}"),
    _rule("works_at", rf"{_NAMED} {_ADV}(?:works|is working) (?:at|for) {_NAME}"),
    _rule("job", rf"{_I} ?{_ADV}(?:work|(?:{_Q}m|am) working) as (?:a |an )?{_VALUE}"),
    _rule("job", rf"{_MY} (?:job|role|position|profession) is (?:a |an )?{_VALUE}"),
    _rule(
        "job",
        rf"{_ME} {_ADV}(?:now )?(?:a|an) (?P<value>(?:[a-z-]+ ){{0,2}}?[a-z-]+)"
        r"(?=\s+(?:at|in|for|with|from|and|who|since|now)\b|\s*[,.!;]|\s*$)",
    ),
    _rule("allergic_to", rf"{_ME} {_ADV}(?:severely |very )?allergic to {_VALUE}"),
    _rule("allergic_to", rf"{_I} have (?:a |an )?(?:severe )?(?P<value>[\w -]+?) allerg(?:y|ies)"),
    _rule("diet", rf"{_ME} {_ADV}(?:a )?(?P<value>{_alternatives(DIETS)})\b"),
    _rule("diet", rf"{_I} ?{_ADV}{_NOT} (?:eat|drink) (?:any )?{_VALUE}", True, "no "),
    _rule(
        "dislikes", rf"{_WE} ?{_ADV}(?:don{_Q}t|do not) {_ADV}(?:like|enjoy|love) {_VALUE}", True
    ),
    _rule(
        "dislikes",
        rf"{_I} ?{_ADV}(?:hate|dislike|detest|despise|can{_Q}t stand|cannot stand) {_VALUE}",
    ),
    _rule("dislikes", rf"{_ME} not (?:a )?(?:big |huge )?fan of {_VALUE}", negated=True),
    _rule(
        "favorite_(?kind)",
        rf"{_MY} (?:all[- ]time )?favou?rite (?P<kind>[a-z]+(?: [a-z]+)?) (?:is|are|was|has"
        rf" (?:always )?been) {_VALUE}",
    ),
    _rule(
        "plays_instrument",
        rf"{_I} ?{_ADV}(?:play|played|(?:{_Q}m|am) (?:learning|playing)"
        rf"|learned|learnt|started playing|(?:have|{_Q}ve) been playing)(?: the)? "
        rf"(?P<value>{_alternatives(INSTRUMENTS)})\b",
    ),
    _rule("likes", rf"{_WE} ?{_ADV}(?:love|like|enjoy|adore|prefer)(?!\w) (?!to be\b){_VALUE}"),
    _rule("likes", rf"{_ME} {_ADV}(?:a )?(?:big |huge )?(?:fan of|into) {_VALUE}"),
    _rule(
        "pet_name",
        rf"{_MY} (?:{_alternatives(PETS)})"
        rf"(?:{_Q}s name is|,| is (?:called|named)| named| called)? {_NAME}",
    ),
    _rule(
        "has_pet",
        rf"{_WE} ?{_ADV}(?:have|{_Q}ve got|have got|got|adopted) {_ARTICLE}(?:new |little |\w+ )?"
        rf"(?P<value>{_alternatives(PETS)})\b",
    ),
    _rule("child_name", rf"{_MY} (?:{_alternatives(CHILDREN)}),? {_NAME}"),
    _rule(
        "has_child",
        rf"{_WE} ?{_ADV}(?:have|{_Q}ve got|had) {_ARTICLE}(?:little |young |baby |\w+-year-old )?"
        rf"(?P<value>{_alternatives(CHILDREN)})\b",
    ),
    _rule(
        "relationship_status",
        rf"{_I}(?:{_Q}m| am| got| just got| recently got|{_Q}ve been| have been)? {_ADV}"
        rf"(?P<value>{_alternatives(RELATIONSHIP_STATES)})\b",
    ),
    _rule(
        "studies",
        rf"{_I} ?{_ADV}(?:(?:{_Q}m|am) (?:studying|majoring in)|study|studied|majored in"
        rf"|(?:{_Q}m|am) (?:doing|taking) (?:a )?(?:degree|course|class|classes|courses) (?:in|on))"
        rf" {_VALUE}",
    ),
    _rule("hobby", rf"{_MY} (?:hobby is|hobbies are|hobbies include) {_VALUE}"),
    _rule("hobby", rf"{_I} ?{_ADV}(?:go|went|love going|enjoy going) (?P<value>[a-z]+ing)\b"),
    _rule("hobby", rf"{_I} ?{_ADV}(?:took up|picked up|started) (?P<value>[a-z]+ing)\b"),
    _rule(
        "plans",
        rf"{_I} ?{_ADV}(?:(?:have |{_Q}ve )?decided|(?:{_Q}m|am) (?:going|planning)|plan)"
        rf" to {_VALUE}",
    ),
    _rule("plans", rf"\b(?:I|we)(?:{_Q}ll| will) go with {_VALUE}"),
)

# The attributes the hand-written rules know; any other attribute is an open reading
# (core/extraction/attributes.py): one value at a time per subject.
RULE_ATTRIBUTES: frozenset[str] = frozenset(r.attribute for r in SLOT_RULES)


def is_open_attribute(attribute: str) -> bool:
    return attribute not in RULE_ATTRIBUTES and not attribute.startswith("favorite_")


_BOUNDARY = re.compile(
    r"\s+(?:and|but|because|since|so|when|where|while|who|which|that|though|although|"
    r"if|as|until|with|at|after|before|now|too|anymore|lately|recently|these days|right now"
    r"|for|i|we|he|she|they|you)\b.*",
    re.I,
)
_DETERMINERS = re.compile(r"^(?:(?:a|an|the|some|any|my|our|to|really|about)\s+)+", re.I)


class SlotMatch(NamedTuple):
    """A clause's slot, whether its rule is negative ("I don't live in X"), and whether it
    says the relation ended ("I used to live in X", "I worked as R": history)."""

    slot: Slot
    negated: bool
    ended: bool = False


def match_slot(clause: str, subject: str, stop_at: list[int]) -> SlotMatch | None:
    """The slot of the first matching rule (the relation families of core/extraction/relations.py,
    then the hand-written rules), or None: a family states a single-valued relation,
    which says more than a many-valued rule in the same clause ("the new flat in X is
    tiny but I love it").

    ``stop_at`` are clause offsets (dates, anchors) where a value must end.
    """
    relation = _relation(clause, subject, stop_at)
    if relation is not None:
        return relation
    for rule in SLOT_RULES:
        match = rule.pattern.search(clause)
        if match is None:
            continue
        value = _clean_value(match, stop_at, subject)
        if rule.attribute in _PLACE_ATTRIBUTES and _versioned(clause, match):
            continue  # "moved to Python 3.11" names no place
        if value and _plausible(rule.attribute, value):
            slot = Slot(_subject(match, subject), _attribute(rule, match), rule.prefix + value)
            return SlotMatch(slot, rule.negated)
    return None


def _relation(clause: str, subject: str, stop_at: list[int]) -> SlotMatch | None:
    """The first relation family form that reads the clause (the speaker's own relation)."""
    for form in RELATIONS:
        match = form.pattern.search(clause)
        value = _clean_value(match, stop_at, subject) if match else ""
        if match and value and _fits(form, value, clause, match):
            return SlotMatch(Slot(subject.lower(), form.attribute, value), False, form.ended)
    return None


def _fits(form: Relation, value: str, clause: str, match: re.Match[str]) -> bool:
    """A place that is no version ("moved to 3.11"), a role that is no kin or fan ("I've
    been a fan since"): a frame that says nothing of a role has its value checked."""
    if form.attribute in _PLACE_ATTRIBUTES:
        return not _versioned(clause, match)
    if form.attribute != "job":
        return True
    return _plausible("job", value) if form.role_checked else _a_role(value)


def _subject(match: re.Match[str], speaker: str) -> str:
    named = match.groupdict().get("subject")
    return (named or speaker).lower()


def _attribute(rule: SlotRule, match: re.Match[str]) -> str:
    if "(?kind)" not in rule.attribute:
        return rule.attribute
    kind = re.sub(r"\W+", "_", match.group("kind").lower())
    return rule.attribute.replace("(?kind)", kind)


def _clean_value(match: re.Match[str], stop_at: list[int], speaker: str) -> str:
    raw = match.group("value")
    end = min([p for p in stop_at if match.start("value") < p] + [match.end("value")])
    raw = raw[: end - match.start("value")]
    raw = _BOUNDARY.sub("", raw)
    raw = _DETERMINERS.sub("", raw.strip())
    owner = f"{speaker.lower()}'s"
    words = [owner if w in {"my", "our"} else w for w in raw.lower().replace("’", "'").split()]
    return " ".join(words[:6]).strip(" -'\"")


_PLACE_ATTRIBUTES = frozenset({"lives_in", "moved_to", "from"})
_VERSIONED = re.compile(r"\d+\.\d+")


def _versioned(clause: str, match: re.Match[str]) -> bool:
    return _VERSIONED.search(clause, match.start("value"), match.end("value") + 4) is not None


def _a_role(value: str) -> bool:
    return value.split()[-1] not in NOT_OCCUPATIONS


def _plausible(attribute: str, value: str) -> bool:
    if attribute != "job":
        return True
    head = value.split()[-1]
    return head not in NOT_OCCUPATIONS and head.endswith(OCCUPATION_SUFFIXES)
