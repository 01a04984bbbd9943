"""Closed word lists shared by the signal finder, the claim writer and the validator.

Everything here is data: small, explicit and reviewed by hand. The plain word lists live
in ``words/*.txt`` beside this module (one entry a line, a ``#`` header saying what the
list is for), read once by ``wordlists``; the mappings stay here. A word list grows only
with general English, never with words picked from an evaluation set.
"""

from __future__ import annotations

import re

from provmem.core.language.wordlists import word_list, word_sequence

MONTHS: tuple[str, ...] = word_sequence("provmem.core.language", "months")
MONTH_ABBREVIATIONS: dict[str, int] = {name[:3]: index + 1 for index, name in enumerate(MONTHS)}
WEEKDAYS: tuple[str, ...] = word_sequence("provmem.core.language", "weekdays")
CALENDAR_WORDS: frozenset[str] = frozenset(MONTHS + WEEKDAYS) | word_list(
    "provmem.core.language", "month_abbreviations"
)
NUMBER_WORDS: dict[str, int] = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "couple of": 2,
    "a couple": 2,
}
SEASONS: dict[str, tuple[int, int]] = {
    "spring": (3, 5),
    "summer": (6, 8),
    "autumn": (9, 11),
    "fall": (9, 11),
}

# Function words: exempt from provenance checks and not counted as content.
FUNCTION_WORDS: frozenset[str] = word_list("provmem.core.language", "function_words")

# Words the claim writer itself introduces (pronoun resolution, verb agreement,
# date rendering). The validator accepts them even when absent from the evidence.
TEMPLATE_WORDS: frozenset[str] = word_list("provmem.core.language", "template_words")

# Sentence-initial capitalised words that are not names.
NOT_NAMES: frozenset[str] = word_list("provmem.core.language", "not_names")
ORGANISATION_SUFFIXES: frozenset[str] = word_list("provmem.core.language", "organisation_suffixes")
PLACE_PREPOSITIONS: frozenset[str] = word_list("provmem.core.language", "place_prepositions")

# Phatic and evaluative words: a sentence made only of these says nothing to remember.
PHATIC_WORDS: frozenset[str] = word_list("provmem.core.language", "phatic_words")

FIRST_PERSON: frozenset[str] = word_list("provmem.core.language", "first_person")
SECOND_PERSON: frozenset[str] = word_list("provmem.core.language", "second_person")

MODALS_AND_PAST: frozenset[str] = word_list("provmem.core.language", "modals_and_past")
ADVERBS_BEFORE_VERB: frozenset[str] = word_list("provmem.core.language", "adverbs_before_verb")
VERBS_ENDING_IN_LY: frozenset[str] = word_list("provmem.core.language", "verbs_ending_in_ly")
VERBS_ENDING_IN_ED_OR_ING: frozenset[str] = word_list(
    "provmem.core.language", "verbs_ending_in_ed_or_ing"
)
IRREGULAR_PAST: frozenset[str] = word_list("provmem.core.language", "irregular_past")
ADJECTIVES_IN_ED: frozenset[str] = word_list("provmem.core.language", "adjectives_in_ed")
ADVERB_PHRASES: frozenset[tuple[str, str]] = frozenset(
    {("kind", "of"), ("sort", "of"), ("kinda", "of")}
)
PAST_PARTICIPLES: frozenset[str] = word_list("provmem.core.language", "past_participles")

INSTRUMENTS: frozenset[str] = word_list("provmem.core.language", "instruments")
OCCUPATION_SUFFIXES: tuple[str, ...] = word_sequence("provmem.core.language", "occupation_suffixes")
NOT_OCCUPATIONS: frozenset[str] = word_list("provmem.core.language", "not_occupations")
PETS: frozenset[str] = word_list("provmem.core.language", "pets")
CHILDREN: frozenset[str] = word_list("provmem.core.language", "children")
RELATIONSHIP_STATES: frozenset[str] = word_list("provmem.core.language", "relationship_states")
DIETS: frozenset[str] = word_list("provmem.core.language", "diets")

# Attributes whose newer value supersedes the older one (others accumulate values).
SINGLE_VALUED_ATTRIBUTES: frozenset[str] = frozenset(
    {"lives_in", "moved_to", "works_at", "job", "relationship_status", "diet", "studies"}
)


# Cues that make a statement tentative or second-hand: a belief, a guess or a report of
# what somebody else said. Such a claim is evidence, but not enough to overturn a belief.
HEDGE_CUES = re.compile(
    r"\b(?:i (?:think|guess|suppose|believe|reckon|heard)|not sure|maybe|perhaps|probably"
    r"|possibly|might|apparently|supposedly|rumou?r|(?:said|told me|heard) that)\b",
    re.I,
)

# Units of measure as written, each to its normal form ("milliseconds" -> "ms").
UNITS: dict[str, str] = {
    "%": "%",
    "percent": "%",
    "ms": "ms",
    "millisecond": "ms",
    "milliseconds": "ms",
    "s": "s",
    "sec": "s",
    "secs": "s",
    "second": "s",
    "seconds": "s",
    "min": "min",
    "mins": "min",
    "minute": "min",
    "minutes": "min",
    "h": "h",
    "hr": "h",
    "hrs": "h",
    "hour": "h",
    "hours": "h",
    "kb": "kb",
    "mb": "mb",
    "gb": "gb",
    "tb": "tb",
    "kib": "kib",
    "mib": "mib",
    "gib": "gib",
    "k": "k",
    "x": "x",
    "rps": "rps",
    "qps": "qps",
    "fps": "fps",
    "px": "px",
    "usd": "usd",
    "eur": "eur",
    "dollars": "usd",
    "euros": "eur",
    "km": "km",
    "kg": "kg",
    "lbs": "lb",
    "miles": "mi",
    "tib": "tib",
    "ns": "ns",
    "bpm": "bpm",
    "rpm": "rpm",
    "mbps": "mbps",
    "gbps": "gbps",
    "mhz": "mhz",
    "ghz": "ghz",
    "vcpu": "vcpu",
    "vcpus": "vcpu",
}
