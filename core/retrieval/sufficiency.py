"""Query analysis and the sufficiency router (TierMem): ANSWER from facts or ESCALATE.

The router never answers; it says whether the retrieved facts state what the query
asks for (exact values, dates, names, negations, complete lists, attribution) or
whether the raw evidence must be read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from provmem.core.claim import SignalKind
from provmem.core.events import Fact
from provmem.core.language.temporal import find_temporal
from provmem.core.language.tense import Tense, tense_at
from provmem.core.language.wordlists import word_list
from provmem.core.retrieval.fusion import TimeAsked


class Need(StrEnum):
    DATE = "date"
    COUNT = "count"
    LIST = "list"
    NAME = "name"
    NEGATION = "negation"
    ATTRIBUTION = "attribution"
    VALUE = "value"
    ORDER = "order"


_NEEDS = [
    (Need.DATE, r"\bwhen\b|\bwhat (?:date|day|year|month|time)\b|\bhow long ago\b"),
    (Need.COUNT, r"\bhow many\b|\bhow often\b|\bnumber of\b"),
    (
        Need.LIST,
        r"\bwhat (?:are|were) (?:the|some|all)\b|\bwhich\b.*\b(?:all|both)\b"
        r"|\bwhat \w+s (?:has|have|did)\b|\b(?:list|all the)\b",
    ),
    (Need.NAME, r"\bwho\b|\bwhat(?:'s| is| was) the name\b|\bcalled\b"),
    (Need.NEGATION, r"\bnot\b|n't\b|\bnever\b|\bno longer\b"),
    (Need.ATTRIBUTION, r"\bwho (?:said|told|mentioned|suggested)\b|\baccording to\b"),
    (Need.VALUE, r"\bhow (?:much|far|old|big|long)\b|\bwhat (?:price|amount|size)\b"),
    (Need.ORDER, r"\b(?:first|last|before|after|earlier|later|latest|most recent)\b"),
]
_COMPILED = [(need, re.compile(pattern, re.I)) for need, pattern in _NEEDS]
_NAME_WORD = r"[A-Z][a-z]+(?:[A-Z][a-z0-9]+)*"  # "Melanie", "TrailMap"
_NAME = re.compile(rf"\b{_NAME_WORD}(?:\s+{_NAME_WORD})*\b")
_QUESTION_WORDS = word_list("provmem.core.retrieval", "question_words")


@dataclass(frozen=True)
class QueryIntent:
    needs: frozenset[Need]
    entities: tuple[str, ...]
    time_ranges: tuple[str, ...]
    present_at: datetime | None = None  # when it asks how things stand now ("where does ...")
    of_assistant: bool = False  # it asks what the assistant said ("what did you suggest?")
    asked: TimeAsked = TimeAsked.PAST  # what it asks of time (a question about before)


# A question about what held before the present value: "Where did Ana live before?",
# "What was her previous job?", "Where did she use to work?", "her former employer".
_HISTORY = re.compile(
    r"\b(?:before|previous(?:ly)?|used to|use to|former(?:ly)?|earlier|originally|prior"
    r"|in the past|any more|anymore|no longer)\b",
    re.I,
)


def asked_of_time(query: str) -> TimeAsked:
    """What a question asks of time: what held before (a history cue), what happened (a
    past tense), else what holds now.

    >>> [asked_of_time(q) for q in ("Where did Ana live before?", "Where did Ana go in May?",
    ...                             "Where does Ana live?")]
    [<TimeAsked.HISTORY: 'history'>, <TimeAsked.PAST: 'past'>, <TimeAsked.PRESENT: 'present'>]
    """
    if _HISTORY.search(query):
        return TimeAsked.HISTORY
    asked = query.rstrip(" ?!.")
    return TimeAsked.PAST if tense_at(asked, len(asked)) is Tense.PAST else TimeAsked.PRESENT


def analyze(query: str, now: datetime) -> QueryIntent:
    """What the query asks for, the names it mentions, the times it refers to, and
    ``now`` when it asks about the present (its tense, and no time of its own)."""
    needs = frozenset(need for need, pattern in _COMPILED if pattern.search(query))
    names = tuple(
        dict.fromkeys(
            m.group(0) for m in _NAME.finditer(query) if m.group(0) not in _QUESTION_WORDS
        )
    )
    times = tuple(
        s.value for s in find_temporal(query, now) if s.kind is SignalKind.DATE and s.value
    )
    asked = asked_of_time(query)
    present = not times and tense_at(query, 0) is Tense.PRESENT and asked is not TimeAsked.HISTORY
    asks_assistant = _OF_ASSISTANT.search(query) is not None
    return QueryIntent(needs, names, times, now if present else None, asks_assistant, asked)


# A question about what the assistant said: it addresses the assistant or names its advice.
_OF_ASSISTANT = re.compile(
    r"\b(?:you|your|assistant|agent|bot|recommend\w*|suggest\w*|advi[cs]\w*|propos\w*)\b",
    re.I,
)


def introduced_name(fact: Fact) -> str | None:
    """The name a speaker known only by an id gave themselves ("Hi! I'm Tomas." -> "The
    user is Tomas."; "The user's name is Tomas Berg."), or None: a query naming Tomas asks
    about that speaker."""
    if fact.asserted_by != "user" or fact.negated:
        return None
    match = _INTRODUCED.fullmatch(fact.statement)
    return match.group("name") if match else None


_INTRODUCED = re.compile(
    r"The user(?:['’]s (?:first |full )?name)? is (?:called )?"
    r"(?P<name>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?)\."
)


def unnamed_query(query: str, names: Sequence[str]) -> str:
    """The query with the names it mentions (and their possessive "'s") taken out: what is
    asked of them. Empty when it names none.

    >>> unnamed_query("How much of TrailMap is covered by tests?", ("TrailMap",))
    'How much of is covered by tests?'
    """
    if not names:
        return ""
    pattern = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    left = re.sub(rf"\b(?:{pattern})(?:['’]s?)?(?!\w)", " ", query)
    return " ".join(left.split())


class Path(StrEnum):
    ANSWER = "ANSWER"
    ESCALATE = "ESCALATE"


@dataclass(frozen=True)
class Routing:
    path: Path
    reasons: tuple[str, ...]


_DIGIT = re.compile(r"\d")


def _states(need: Need, facts: Sequence[Fact]) -> bool:
    """Whether some fact states what ``need`` asks for."""
    if need is Need.DATE:
        return any(f.valid_from is not None or "date" in f.signals for f in facts)
    if need in (Need.COUNT, Need.VALUE):
        return any(_DIGIT.search(f.statement) for f in facts)
    if need is Need.NAME:
        return any(len(f.entities) > 1 or "entity" in f.signals for f in facts)
    if need is Need.NEGATION:
        return any(f.negated for f in facts)
    if need is Need.LIST:
        return len(facts) >= 2 and len({f.slot for f in facts if f.slot}) == 1
    return True  # attribution and order: every fact carries its speaker and time


def route(intent: QueryIntent, facts: Sequence[Fact]) -> Routing:
    """ANSWER when the best fact states every need of the query (a list needs several
    facts of one slot), else ESCALATE with why."""
    if not facts:
        return Routing(Path.ESCALATE, ("no fact retrieved",))
    missing = [
        need.value
        for need in sorted(intent.needs)
        if not _states(need, facts if need is Need.LIST else facts[:1])
    ]
    if missing:
        return Routing(Path.ESCALATE, tuple(f"facts lack {m}" for m in missing))
    return Routing(Path.ANSWER, ("facts state what the query asks",))
