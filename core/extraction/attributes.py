"""Open attribute readings: a statement read as (subject, attribute, value).

No slot is written by hand per attribute: a measure, count, version, date or name that a
statement gives to a noun phrase is read by a small grammar over the statement.

    >>> read_attribute("The API response time was 800ms.", "Alice")
    Reading(subject='alice', attribute='api response time', value='800 ms', changed=False)
    >>> read_attribute("It has now reached 165 commits.", "Alice").key
    'alice|commit'

Attribute keys are normalized so paraphrases meet: lower case, plural nouns singular,
function words, qualifiers ("current", "average") and generic heads ("count", "number of")
left out, at most the last three content words kept ("the average API response time" is
``api response time``); two keys meet when the head of one is a word of the other. The
subject is a named owner ("Anna's dog") or else the speaker. ``changed`` says the
statement itself says the value changed (a cue such as "now", "improved to", "from ... to",
or a correction); without a cue a different value is a conflict, not an update.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from provmem.core.extraction.categories import CATEGORIES
from provmem.core.language.lexicon import FUNCTION_WORDS, MONTHS, NOT_NAMES, UNITS
from provmem.core.language.measures import first_reading, read_measures
from provmem.core.language.wordlists import word_list

__all__ = [
    "Reading",
    "change_cue",
    "lemma",
    "read_attribute",
    "read_attributes",
    "value_change_cue",
]


@dataclass(frozen=True)
class Reading:
    subject: str
    attribute: str
    value: str
    changed: bool = False

    @property
    def key(self) -> str:
        return f"{self.subject}|{self.attribute}"


_UNIT = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_MONTH = "|".join(m.capitalize() for m in MONTHS)
_COUNTED = r"(?:[a-z][a-z-]* ){0,2}?[a-z][a-z-]*s"  # "open issues": a plural noun phrase
_IDENT = r"(?=[a-z0-9-]*\d)[a-z][a-z0-9]*(?:-[a-z0-9]+){1,4}"
_VALUE = (
    rf"(?P<cur>[$€£])\s?(?P<camount>{_NUMBER})(?P<cmult>[kKmM]\b)?"
    rf"|(?P<qnum>{_NUMBER})\s?(?P<unit>(?i:{_UNIT}))(?![\w.])"
    r"|(?P<version>v?\d+(?:\.\d+){1,3})(?![\w.%])"
    rf"|(?P<date>(?:\d{{1,2}} )?(?:{_MONTH})(?: \d{{1,2}})?(?: \d{{4}})?)\b"
    rf"|(?P<cnum>{_NUMBER}) (?P<noun>{_COUNTED})\b"
    rf"|(?P<anum>{_NUMBER}) (?P<acronym>(?!(?:AM|PM)\b)[A-Z]{{2,5}})s?\b"
    rf"|(?P<num>{_NUMBER})(?![\w.])"
    rf"|(?P<ident>{_IDENT})\b"
    r"|(?P<name>[A-Z][\w+#-]*(?:\.[A-Za-z]\w*)?(?: (?:[A-Z][\w+#-]*|\d+(?:\.\d+)*))*)"
)
_MEASURE = (
    rf"(?P<cur>[$€£])\s?(?P<camount>{_NUMBER})(?P<cmult>[kKmM]\b)?"
    rf"|(?P<qnum>{_NUMBER})\s?(?P<unit>(?i:{_UNIT}))(?![\w.])"
    r"|(?P<version>v?\d+(?:\.\d+){1,3})(?![\w.%])"
    rf"|(?P<ident>{_IDENT})\b"
    rf"|(?P<anum>{_NUMBER}) (?P<acronym>(?!(?:AM|PM)\b)[A-Z]{{2,5}})s?\b"
)
# A subject phrase without a preposition, for the open verb below ("the worker", not
# "we depend on"), and words that are no verb.
_FUNCTION = r"(?:the|a|an|our|its|their|his|her|my|your|this|that|and|but|or|for|with|from"
_FUNCTION += r"|into|onto|around|about|over|under|than|then|also|very)"
_PREPOSITION = r"(?:on|in|at|to|for|of|by|with|from|per|into|onto|after|before)"
_PLAIN_NP = rf"(?P<np>[A-Za-z][\w'’+#-]*(?: (?!{_PREPOSITION}\b)[A-Za-z][\w'’+#-]*){{0,3}}?)"
_NOT_VERB = _FUNCTION
_NP = r"(?P<np>[A-Za-z][\w'’+#-]*(?: [A-Za-z][\w'’+#-]*){0,6}?)"
_ADV = (
    r"(?:(?:now|currently|recently|finally|just|already|still|actually|officially|also"
    r"|lately|today) )*"
)
_HAVE = r"(?:(?:has|have|had) (?:now |recently |finally |just |already )*(?:been )?)?"
_CHANGE_VERB = (
    r"improved|increased|decreased|dropped|reduced|cut|grown|grew|rose|risen|fallen|fell"
    r"|reached|hit|climbed|jumped|changed|moved|shrunk|shrank|gone|went|come down|came down"
    r"|bumped|upgraded|downgraded|updated|raised|lowered|brought|pushed|expanded|slowed"
    r"|sped up|doubled|tripled|halved|switched|migrated|slipped|shifted|fell back"
)
_COPULA = (
    r"(?:is|was|are|were|has been|have been|had been|stands at|stood at|sits at|sat at"
    r"|remains|remained|became|becomes|'s|’s|'re|’re|'m|’m"
    r"|(?:is|are|was|were|'s|'re|’re) (?:down|up) to|(?:is|are|was|were) (?:at|around)"
    r"|(?:is|are|was|were) (?:hosted|deployed|located|based|running) (?:in|on|at)"
    r"|(?:is|are|was|were) (?:now )?(?:planned|scheduled|set|due|slated|targeted|expected)"
    r" (?:for|on|in|by)"
    r"|weighs|weighed|takes|took|needs|needed|costs|cost|lasts|lasted|averages|averaged"
    r"|hovers (?:at|around)|comes to|came to|amounts to|runs at|completes in|finishes in)"
)
# What follows an activity without being part of it: "to get to work now / each way".
_AFTER_ACTIVITY = (
    r"(?:now|currently|again|today|these|each|every|because|since|when|if|anymore|lately"
    r"|recently|nowadays|so|but|and)\b"
)
_APPROX = (
    r"(?:(?:at|around|about|roughly|approximately|nearly|almost|over|under|only|just|~"
    r"|down to|up to|on|in|by) )?"
)
_FROM = r"(?: from \S+(?: [a-z%]+)?)?"
_PATTERNS = (
    re.compile(
        rf"^{_NP} {_HAVE}{_ADV}(?P<cue>{_CHANGE_VERB})(?: (?:up|down|back))?{_FROM}"
        rf" to {_APPROX}(?P<value>{_VALUE})"
    ),
    re.compile(
        rf"\b(?P<cue>{_CHANGE_VERB}|[a-z]{{3,}}(?:ed|ing))"
        rf" (?P<obj>(?:the |our |its |their |his |her )?"
        rf"[A-Za-z][\w'’+#-]*(?: [A-Za-z][\w'’+#-]*){{0,3}}?)(?: (?:up|down|back))?{_FROM}"
        rf" to {_APPROX}(?P<value>{_VALUE})"
    ),
    re.compile(rf"^{_NP} {_ADV}(?:is|was|are|were) {_ADV}(?:called|named) (?P<called>{_VALUE})"),
    # "About 1.8% of requests fail": the share of a group that does something
    re.compile(
        rf"^(?i:{_APPROX})(?P<value>(?P<qnum>{_NUMBER})\s?(?P<unit>%|percent)) of"
        r" (?:the |our |all |its |their )?(?P<np>(?:[A-Za-z][\w-]* )??[a-z][\w-]*s)"
        r" (?P<predicate>[a-z]{3,})\b"
    ),
    re.compile(rf"^{_NP} {_ADV}{_COPULA} {_ADV}{_APPROX}(?P<value>{_VALUE})"),
    re.compile(
        rf"^{_NP} {_HAVE}{_ADV}(?:has|have|had|got|gets|reached|hit|passed|crossed|surpassed"
        rf"|totals|totaled|totalled|counts|shows|lists|says) {_ADV}{_APPROX}"
        rf"(?P<value>{_VALUE})"
    ),
    # "Each worker uses 900MB of RAM", "the image comes in at 1.8GB": a measure given to
    # the subject by any verb (names and plain numbers need the copulas above)
    re.compile(
        rf"^{_PLAIN_NP} {_HAVE}{_ADV}(?!{_NOT_VERB}\b)(?P<verb>[a-z]{{3,}})"
        rf" (?:(?:in|out|up|down|back) )?(?:(?:in|at|on|to|for|within|by|with) )?{_APPROX}"
        rf"(?:(?:the|our|its|their) )?(?P<value>{_MEASURE})(?: of (?P<of>[A-Za-z][\w-]*))?"
    ),
    # "It takes me 30 minutes to get to work", "it took Ana two hours to set up the
    # printer": a measure of an activity, the activity is the attribute
    re.compile(
        rf"^(?i:it) {_HAVE}{_ADV}(?:(?:usually|normally|often|always|only) )?(?:takes|took"
        rf"|will take|would take) (?:(?P<np>[A-Z][\w'’-]*|me|us) )?{_APPROX}"
        rf"(?P<value>{_MEASURE}) (?:to|for)"
        rf" (?P<activity>[a-z][\w'’-]*(?: (?!{_AFTER_ACTIVITY})[a-z][\w'’-]*){{0,4}})"
    ),
    # "Arjun is our tech lead": a name that is the attribute's value
    re.compile(
        rf"^(?P<value>(?P<name>[A-Z][a-z]+)) {_ADV}(?:is|was|'s|’s|became|becomes) {_ADV}"
        r"(?:our|the|my|their|its|his|her|[A-Z][a-z]+['’]s) (?:(?:new|current) )?"
        r"(?!(?:only|sole|\w+est)\b)"
        r"(?P<np>[a-z][\w-]*(?: [a-z][\w-]*){0,2}?)(?= (?:on|of|for|in|at|as|since|now)\b|$)"
    ),
)
# A thing set to happen on a date: "ship the beta on 17 April", "release v2 by June".
_SCHEDULED = re.compile(
    r"\b(?:ship|launch|release|deploy|publish|deliver|finish|complete|open)(?:s|es|ed|ing)?"
    r" (?P<obj>(?:the |our |its |their |his |her )?[a-z][\w-]*(?: [a-z][\w-]*)?)"
    rf" (?:on|by|for|in) (?P<value>(?P<date>(?:\d{{1,2}} )?(?:{_MONTH})(?: \d{{1,2}})?"
    r"(?: \d{4})?)\b)"
)
_IN_PASSING = (
    re.compile(rf"\b(?P<value>(?P<cnum>{_NUMBER}) (?P<noun>{_COUNTED}))\b"),
    # "lists the app image at 240MB": a measure given to a noun phrase in passing
    re.compile(
        r"\b(?:the|our|my|its|their|his|her) (?P<thing>[a-z][\w-]*(?: [a-z][\w-]*){0,2})"
        rf" (?:is |was )?(?:at|of) (?:(?:only|just|about|roughly|around|now) )?"
        rf"(?P<value>(?P<qnum>{_NUMBER})\s?(?P<unit>(?i:{_UNIT}))(?![\w.]))"
    ),
    re.compile(
        r"\b(?P<thing>[A-Za-z][\w.-]*?)(?:@|==|>=|~=|<=)(?P<value>(?P<version>\d+(?:\.\d+){1,3}))"
    ),
    re.compile(
        r"\b(?P<thing>[A-Z][\w+#-]*) (?P<value>(?P<version>v?\d+(?:\.\d+){1,2}))(?![\w.%])"
        rf"(?!\s?(?i:{_UNIT})\b)"
    ),
    # "depend on fastapi 0.110.0": a package's three-part version, the name in any case
    re.compile(r"\b(?P<thing>[a-z][\w-]+) (?P<value>(?P<version>\d+\.\d+\.\d+))(?![\w.%])"),
)
# A value in parentheses right after a noun phrase qualifies it: "the image (only 380MB now)".
_APPOSITION = re.compile(
    r"\b(?P<np>(?:the|our|my|its|their|his|her) [a-z][\w-]*(?: [a-z][\w-]*)?) \("
    rf"(?:(?:only|just|about|roughly|now|at) )*(?P<value>{_VALUE})"
)
_CLAUSE = re.compile(
    r"(?<=[\w%)])[.!?]\s+(?=[A-Z`])|,\s+|;\s*|:\s+|\s+[-–—]\s+|\s+\((?=\w)|\)\s*"
    r"|\s+(?=(?:and|but|while|whereas|because|since|so|although|though|which|that|when|after"
    r"|before|once|until|as|where|who|with)\s)",
)
_LEAD = re.compile(
    r"^(?:(?:and|but|while|whereas|because|since|so|although|though|which|that|when|after"
    r"|before|once|until|as|where|who|with|then|also|now|actually|meanwhile|currently|today"
    r"|recently|lately|finally)\s+)+",
    re.I,
)
_CHANGE_CUE = re.compile(
    r"\b(?:now|currently|these days|nowadays|recently|lately|anymore|any more|no longer"
    r"|at this point|as of|since then|new|newly|latest|updated?|changed?|switched"
    rf"|moved|relocated|renamed|joined|left|started|{_CHANGE_VERB}|actually|correction"
    r"|meant|mistake|instead|rather|down to|up to|slipped|pushed|went|gone)\b"
    r"|\bfrom \S+(?: \S+)? to\b",
    re.I,
)
# A value's own change, for the gate's guesses across wording: time ("now", "these
# days") or a change verb, not a start or a novelty ("since the project started").
_VALUE_CHANGE = re.compile(
    r"\b(?:now|currently|these days|nowadays|recently|lately|anymore|any more|no longer"
    rf"|as of|{_CHANGE_VERB}|down to|up to)\b|\bfrom \S+(?: \S+)? to\b",
    re.I,
)
_GENERIC = word_list("provmem.core.extraction", "generic_attribute_words")
_TIME_NOUNS = word_list("provmem.core.extraction", "time_nouns")
NON_NAMES = NOT_NAMES | word_list("provmem.core.extraction", "more_non_names")
_UNNAMED_VALUES = word_list("provmem.core.extraction", "unnamed_values")
# Content words an attribute key keeps, the head last ("the API's p95 response time" ->
# "p95 response time"): enough that a shorter mention ("the p95") still meets it.
KEY_WORDS = 3


def read_attribute(statement: str, speaker: str) -> Reading | None:
    """The first (subject, attribute, value) reading of ``statement``, or None."""
    readings = read_attributes(statement, speaker)
    return readings[0] if readings else None


@lru_cache(maxsize=65536)
def read_attributes(statement: str, speaker: str) -> tuple[Reading, ...]:
    """Every reading of ``statement``, one per clause at most, in order."""
    text = statement.strip().rstrip(".!")
    changed = change_cue(text)
    found: dict[str, Reading] = {}
    apposition = _APPOSITION.search(text)
    if apposition is not None:
        reading = _reading(apposition, speaker.lower(), changed)
        if reading is not None:
            found[reading.key] = reading
    clauses = _clauses(text)
    measures = read_measures(clauses, speaker.lower(), changed)  # core/language/measures.py first
    for clause, measured in zip(clauses, measures, strict=True):
        reading = Reading(*measured) if measured else _read_clause(clause, speaker.lower(), changed)
        if reading is not None and reading.key not in found:
            found[reading.key] = reading
    return tuple(found.values())


def value_change_cue(statement: str) -> bool:
    """Whether the statement says a value changed by time or a change verb ("now",
    "dropped to", "from X to Y"): what the gate's guesses across wording need."""
    return _VALUE_CHANGE.search(statement) is not None


def change_cue(statement: str) -> bool:
    """Whether the statement says something changed ("now", "improved to", "from X to")."""
    return _CHANGE_CUE.search(statement) is not None


def _clauses(text: str) -> list[str]:
    parts = [_LEAD.sub("", part.strip()) for part in _CLAUSE.split(text)]
    return [part for part in parts if part]


def _read_clause(clause: str, speaker: str, changed: bool) -> Reading | None:
    reading = first_reading(_PATTERNS, clause, _reading, speaker, changed)
    if reading is not None:
        return reading
    for pattern in (*_IN_PASSING, _SCHEDULED):
        passing = pattern.search(clause)
        reading = _reading(passing, speaker, changed) if passing else None
        if reading is not None:
            return reading
    return None


def _reading(match: re.Match[str], speaker: str, changed: bool) -> Reading | None:
    groups = match.groupdict()
    phrase = groups.get("np") or groups.get("obj") or groups.get("thing") or ""
    subject, words = _owner(phrase, speaker, named_alone=bool(groups.get("np")))
    if groups.get("called"):
        words = [*words, "name"]
    if groups.get("activity"):  # "it takes me 30 minutes to get to work": its duration
        words = groups["activity"].split()
    value = _value(match)
    if value is None:
        return None
    if not words and subject != speaker and value[1] == "quantity" and not groups.get("noun"):
        subject, words = speaker, [subject]  # "Coverage stands at 74%": no one's name
    noun = groups.get("noun")
    if groups.get("acronym"):
        return Reading(subject, groups["acronym"], value[0], changed)
    if groups.get("predicate"):
        words = [*words, groups["predicate"]]
    if groups.get("of"):  # "uses 900MB of RAM": a measure of the worker's RAM
        words = [*words, groups["of"]]
    if noun:
        nouns = noun.split()
        if nouns[-1] in _TIME_NOUNS or nouns[-1] in FUNCTION_WORDS:
            return None
        words = nouns
    versioned = _NAMED_VERSION.fullmatch(value[0]) if value[1] == "name" else None
    if versioned:  # "is on Postgres 15.6": the version of a named thing
        words, value = [*words, *versioned.group(1).split()], (versioned.group(2), "version")
    words = _attribute_words(words, speaker)
    if value[1] == "version" and "version" not in words:
        words.append("version")
    if len(words) == 1:  # "our Postgres runs in ...": where the database runs
        words = [_KIND_OF.get(words[0], words[0])]
    attribute = " ".join(words[-KEY_WORDS:])
    if not attribute or (value[1] == "name" and not _named_value(match)):
        return None
    return Reading(subject, attribute, value[0], changed)


def _owner(phrase: str, speaker: str, named_alone: bool) -> tuple[str, list[str]]:
    """The named owner of a noun phrase (else the speaker) and its remaining words: a
    possessive name, or a name that is the whole subject phrase ("Maya")."""
    words = phrase.replace("’", "'").split()
    subject = speaker
    kept: list[str] = []
    for word in words:
        bare = word.removesuffix("'s").removesuffix("'")
        named = bare[:1].isupper() and not bare.isupper() and bare.lower() not in NON_NAMES
        named = named and "'" not in bare
        alone = named_alone and len(words) == 1
        if named and subject == speaker and (word.endswith("'s") or alone):
            subject = bare.lower()
            continue
        kept.append(bare)
    return subject, kept


_NAMED_VERSION = re.compile(r"([a-z][\w+#-]*(?: [a-z][\w+#-]*)?) v?(\d+(?:\.\d+){1,3})")
# Prepositions after which a phrase only qualifies its head ("the tech lead on Ledgerly",
# "latency at p95"): the attribute is what comes before.
_QUALIFYING = word_list("provmem.core.extraction", "qualifying_prepositions")


def _attribute_words(words: list[str], speaker: str) -> list[str]:
    """Content lemmas of an attribute phrase; "X of Y" and "X per Y" read as "Y X", and a
    qualifying phrase ("on the site", "at p95") is left out."""
    lowered = [w.lower() for w in words]
    cut = next((i for i, w in enumerate(lowered) if w in _QUALIFYING and i > 0), len(lowered))
    lowered = lowered[:cut]
    for joint in ("of", "per"):
        if joint in lowered:
            cut = lowered.index(joint)
            lowered = lowered[cut + 1 :] + lowered[:cut]
    content = [
        w for w in lowered if w not in FUNCTION_WORDS and w != speaker and "'" not in w
    ]  # fmt: skip
    lemmas = [lemma(w) for w in content]
    return [w for w in lemmas if w not in _GENERIC and not w.isdigit() and len(w) > 1]


def _value(match: re.Match[str]) -> tuple[str, str] | None:
    """The normalized value and its kind (quantity, version, date, count, name)."""
    group = match.groupdict()
    if group.get("cur"):
        amount = _number(group["camount"]) + (group.get("cmult") or "").lower()
        return f"{group['cur']}{amount}", "quantity"
    if group.get("unit"):
        return f"{_number(group['qnum'])} {UNITS[group['unit'].lower()]}", "quantity"
    if group.get("version"):
        return group["version"].removeprefix("v"), "version"
    if group.get("date"):
        return group["date"].lower(), "date"
    if group.get("ident"):
        return group["ident"], "ident"
    number = group.get("cnum") or group.get("anum") or group.get("num")
    if number:
        return _number(number), "count"
    name = group.get("name")
    return (name.lower(), "name") if name else None


def _named_value(match: re.Match[str]) -> bool:
    name = match.groupdict().get("name") or ""
    first = name.split()[0].lower() if name else ""
    return bool(name) and first not in NON_NAMES and first not in _UNNAMED_VALUES


def _number(text: str) -> str:
    plain = text.replace(",", "")
    return plain.removesuffix(".0") if "." in plain else plain


def lemma(word: str) -> str:
    """A noun's singular form by suffix (commits -> commit, queries -> query)."""
    word = word.lower().strip("'-")
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


# A member of an exclusive category that is a whole attribute names the category's thing
# ("our Postgres runs in eu-west-1": where the database runs); "Postgres version" stays.
_KIND_OF = {
    lemma(alias): category.split()[-1]
    for category, members in CATEGORIES.items()
    for aliases in members.values()
    for alias in aliases
    if " " not in alias and "." not in alias
}
