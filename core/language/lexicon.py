"""Closed word lists shared by the signal finder, the claim writer and the validator.

Everything here is data: small, explicit and reviewed by hand. A word list grows
only with general English, never with words picked from an evaluation set.
"""

from __future__ import annotations

import re

MONTHS: tuple[str, ...] = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
MONTH_ABBREVIATIONS: dict[str, int] = {name[:3]: index + 1 for index, name in enumerate(MONTHS)}
WEEKDAYS: tuple[str, ...] = (
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)
CALENDAR_WORDS: frozenset[str] = frozenset(MONTHS + WEEKDAYS) | frozenset(
    {"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"}
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
FUNCTION_WORDS: frozenset[str] = frozenset(
    """
    a an the and or but nor so yet if then than that this these those there here
    i me my mine myself we us our ours ourselves you your yours yourself yourselves
    he him his himself she her hers herself it its itself they them their theirs themselves
    who whom whose which what when where why how
    is am are was were be been being do does did doing done have has had having
    will would shall should can could may might must ought
    to of in on at by for with from into onto about as up down out off over under
    again further once just very too also only own same such not no nor s t d ll re ve m
    all any both each few more most other some lot lots much many really quite
    don didn doesn isn wasn aren weren haven hasn hadn won wouldn couldn shouldn ain
    """.split()
)

# Words the claim writer itself introduces (pronoun resolution, verb agreement,
# date rendering). The validator accepts them even when absent from the evidence.
TEMPLATE_WORDS: frozenset[str] = frozenset(
    """
    others is has does not cannot was were will would on in during the of week weekend
    before after and around between night evening morning going got want
    """.split()
)

# Sentence-initial capitalised words that are not names.
NOT_NAMES: frozenset[str] = frozenset(
    """
    i i'm i've i'd i'll a an the this that these those there here it it's its he she
    we they you my your our his her their what when where why how who which
    yes yeah yep yup no nope ok okay oh ah aw aww hey hi hello wow well so and but or
    thanks thank sure great cool awesome nice good glad congrats congratulations
    sounds totally definitely absolutely really actually anyway also just maybe
    haha hahaha lol omg btw if then because after before while once since though although
    not never always sometimes today yesterday tomorrow tonight last next
    love like hope wish let take check remember keep make try look see go thinking
    gonna wanna nah hmm um uh please sorry bye cheers dear however meanwhile besides
    otherwise instead anyways again still
    """.split()
)
ORGANISATION_SUFFIXES: frozenset[str] = frozenset(
    """
    inc corp corporation ltd llc gmbh company co university college school institute
    bank group foundation club hospital agency labs studio studios association center centre
    """.split()
)
PLACE_PREPOSITIONS: frozenset[str] = frozenset({"in", "to", "from", "near", "visit", "visited"})

# Phatic and evaluative words: a sentence made only of these says nothing to remember.
PHATIC_WORDS: frozenset[str] = frozenset(
    """
    hey hi hello wow oh ah aw aww yeah yes yep yup ok okay sure thanks thank cheers bye
    awesome amazing cool great nice good glad sweet lovely wonderful fantastic incredible
    beautiful neat fun funny super brilliant impressive inspiring exciting excited
    haha hahaha lol omg lmao congrats congratulations sorry totally agree agreed true
    definitely absolutely exactly indeed right sounds sound seems seem looks look
    see hear talk soon later care luck love appreciate appreciated means mean thing
    man dude buddy friend guys well really pretty kind keep going tell know let
    nah gotcha gonna wanna gotta yay woah whoa news time long stuff things wait believe
    """.split()
)

FIRST_PERSON: frozenset[str] = frozenset(
    {"i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself", "we", "we're", "we've"}
    | {"we'll", "we'd", "us", "our", "ours", "ourselves"}
)
SECOND_PERSON: frozenset[str] = frozenset({"you", "your", "yours", "yourself", "ya", "u"})

MODALS_AND_PAST: frozenset[str] = frozenset(
    """
    can could will would shall should may might must was were had did am used got went
    came saw made took gave found felt thought told said bought brought caught taught
    began ran sang swam wrote drove rode ate drank met left kept slept spent sent lost
    won built heard knew grew threw flew fell held read became paid stood understood
    chose spoke broke woke forgot sold became hung led lit meant put set let cut hit
    """.split()
)
ADVERBS_BEFORE_VERB: frozenset[str] = frozenset(
    """
    really also just still totally always never usually often actually definitely
    absolutely sometimes recently finally truly honestly even already mostly kinda
    probably maybe perhaps possibly apparently supposedly certainly rarely
    now currently mainly only barely hardly generally typically normally occasionally
    constantly basically literally simply seriously then again soon once first
    """.split()
)
VERBS_ENDING_IN_LY: frozenset[str] = frozenset(
    {"apply", "reply", "rely", "supply", "multiply", "comply", "imply", "fly", "ally"}
)
VERBS_ENDING_IN_ED_OR_ING: frozenset[str] = frozenset(
    """
    need feed speed seed bleed breed proceed exceed succeed embed shed heed shred wed
    sing bring ring swing sling sting cling fling wring spring string
    """.split()
)
IRREGULAR_PAST: frozenset[str] = frozenset(
    """
    went came saw made took gave found felt thought told said bought brought caught taught
    began ran sang swam wrote drove rode ate drank met left kept slept spent sent lost won
    built heard knew grew threw flew fell held became paid stood understood chose spoke broke
    woke forgot sold hung led got did had was were
    """.split()
)
ADJECTIVES_IN_ED: frozenset[str] = frozenset(
    """
    excited interested tired married scared worried bored pleased thrilled stressed
    supposed based used engaged obsessed amazed relieved blessed inspired motivated
    surprised shocked confused exhausted overwhelmed delighted disappointed annoyed
    impressed committed dedicated talented related detailed advanced experienced
    """.split()
)
ADVERB_PHRASES: frozenset[tuple[str, str]] = frozenset(
    {("kind", "of"), ("sort", "of"), ("kinda", "of")}
)
PAST_PARTICIPLES: frozenset[str] = frozenset(
    """
    been gone done seen had got gotten made known taken given written eaten driven
    forgotten begun run come become thought told found left lost met heard
    """.split()
)

INSTRUMENTS: frozenset[str] = frozenset(
    """
    guitar piano violin drums drum bass cello flute saxophone sax trumpet ukulele
    clarinet harp keyboard banjo trombone harmonica accordion mandolin viola
    """.split()
)
OCCUPATION_SUFFIXES: tuple[str, ...] = (
    "er",
    "or",
    "ist",
    "ian",
    "ant",
    "ent",
    "eer",
    "nurse",
    "chef",
    "coach",
    "doctor",
    "lawyer",
    "pilot",
    "architect",
    "cook",
)
NOT_OCCUPATIONS: frozenset[str] = frozenset(
    {"fan", "lover", "person", "member", "player", "beginner", "other", "number", "winner"}
    | {"mother", "father", "brother", "sister", "daughter", "partner", "parent", "student"}
    | {"bit", "little", "big", "huge", "lot", "part"}
    | {"team", "group", "pair", "family", "whole", "guest", "regular", "customer", "visitor"}
)
PETS: frozenset[str] = frozenset(
    {"dog", "dogs", "cat", "cats", "puppy", "kitten", "rabbit", "bunny", "hamster", "parrot"}
    | {"bird", "fish", "turtle", "horse", "guinea pig", "pup", "pet", "pets", "snake"}
)
CHILDREN: frozenset[str] = frozenset(
    {"kid", "kids", "child", "children", "son", "sons", "daughter", "daughters", "baby"}
)
RELATIONSHIP_STATES: frozenset[str] = frozenset(
    {"single", "married", "engaged", "divorced", "separated", "widowed", "dating"}
)
DIETS: frozenset[str] = frozenset(
    {"vegetarian", "vegan", "pescatarian", "gluten-free", "lactose intolerant", "keto"}
)

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
