"""The tense of a sentence, and the year a date said in it without one implies.

``tense_at`` reads a sentence's grammatical tense from its verbs and time words: the cue
nearest before a position wins. ``date_tense`` reads what a date said without a year
refers to, which is not always the verb's tense:

- a date something was moved to or set for lies ahead ("the launch slipped to 27 August");
- a recurring or life date has no year, whatever the tense: "I was born on 5 July", "my
  birthday's coming up, it's on 27 June" (a year is implied only by a recency cue, "was
  just born on 3 May");
- in the present, English speaks of a coming one-off occasion by a modal ("we might go in
  July"), the progressive ("she's graduating in June"), an occasion's noun with a copula
  ("our flight is on 27 August") or, for a particular day, the timetable present ("we fly
  out on 8 February"): the next such date. A habitual cue ("always", "every") keeps the
  present's reading, no year.
"""

from __future__ import annotations

import re
from enum import StrEnum

from provmem.core.language.lexicon import HEDGE_CUES, IRREGULAR_PAST


class Tense(StrEnum):
    PAST = "past"
    PRESENT = "present"
    FUTURE = "future"


_FUTURE = re.compile(
    r"\b(?:will|'ll|going to|gonna|(?:am|are|is|'m|'re) going|plan(?:ning|s)?|hope|hoping"
    r"|want to|wanna|next|upcoming"
    r"|tomorrow|can't wait|looking forward|about to|intend|schedul"
    r"|(?:am|is|are|'m|'re|'s|’m|’re)\s+(?:\w+ly\s+)?(?:heading|flying|leaving|traveling"
    r"|travelling|moving|starting|visiting|coming|getting married|having|hosting|attending"
    r"|taking|meeting|seeing|doing|running|driving|off)\b)",
    re.I,
)
_PAST = re.compile(
    r"\b(?:was|were|did|had|went|got|ago|last|yesterday|used to|came|saw|made|took|met|left"
    r"|bought|spent|visited|began|became|gave|found|told|said|wrote|won|lost|flew|drove|ate"
    r"|(?:have|has|'ve|’ve)\s+(?:\w+ly\s+)?(?:been|\w+ed))\b"
    r"|(?<!\bam )(?<!\bis )(?<!\bare )(?<!'m )(?<!’m )(?<!\bso )(?<!\bvery )(?<!\bget )"
    r"\b(?!(?:need|feed|speed|seed|bleed|breed|proceed|exceed|succeed|indeed|embed|shed|red"
    r"|bed|wed|excited|interested|tired|married|scared|worried|bored|pleased|thrilled"
    r"|stressed|supposed|based|used|engaged|obsessed|amazed|relieved)\b)[a-z]{2,}ed\b",
    re.I,
)
_SENTENCE_EDGE = re.compile(r"[.!?\n]")
# A date something was moved to or set for is a target, ahead of when it is said, whatever
# the verb's tense: "the launch slipped to August 27", "the beta is planned for June 11".
_TARGET_DATE = re.compile(
    r"\b(?:pushed|moved|postponed|delayed|slipped|rescheduled|deferred|planned|scheduled"
    r"|set|due|slated|targeted|bumped|shifted|brought forward|booked|reserved)"
    r"(?: (?:back|out|up))?"
    r"(?: (?:(?:the|our|its|their|his|her|my|an?) )?[a-z]+)?(?: (?:back|out|up))?"
    r" (?:to|for|until|till)(?: (?:on|in))? $"
    r"|\bdue $",
    re.I,
)
# A recurring or life date: the date of a birthday or an anniversary, or of a birth.
_RECURRING_DATE = re.compile(
    r"\b(?:birthday|b-?day|anniversary|name ?day|birth ?date|date of birth)"
    r"(?:'s|’s|\s+(?:is|falls|comes|lands|will be|would be))"
    r"(?:\s+(?:always|usually|actually|also|coming up|soon|this year|again))*"
    r"(?:[,:;]?\s+(?:it|that|which)(?:'s|’s|\s+(?:is|falls|will be)))?\s*$"
    r"|\bborn\b(?:\s+(?!and\b|but\b)[\w'’-]+){0,4}\s*$",
    re.I,
)
_RECENT_BIRTH = re.compile(r"\b(?:just|recently|newly)\s+(?:been\s+)?born\b", re.I)
_IRREGULAR_PAST = re.compile(r"\b(?:" + "|".join(sorted(IRREGULAR_PAST)) + r")\b", re.I)
_PAST_MODAL = re.compile(
    r"\b(?:might|could|would|should|must|may)(?:'ve|’ve|\s+(?:not\s+)?have)\s+[a-z]+", re.I
)
_SINCE = re.compile(r"\bsince\s*$", re.I)
# The present of a coming one-off occasion, nearest before the date as tense cues are.
# "would" is a wish only before "like", "love" or "rather" ("we would go every summer").
_MODAL = re.compile(
    r"(?:\b(?i:might|could|should|shall)|(?<!in )(?<!of )\bmay"
    r"|(?i:would|'d|’d)(?= (?i:like|love|rather)))"
    r"\s+(?:\w+ly\s+|also\s+|still\s+|not\s+|even\s+)?+(?!have\b|been\b)[a-z]+"
)
_PROGRESSIVE = re.compile(
    r"\b(?:I'm|I’m|I am|(?:we|you|they)(?:'re|’re| are)|(?:he|she)(?:'s|’s| is))\s+"
    r"(?:\w+ly\s+|also\s+|still\s+|finally\s+)?"
    r"(?!(?:interest|amaz|excit|bor|tir|exhaust|relax|annoy|will|frustrat|overwhelm|lov"
    r"|confus|surpris|disappoint|promis|charm|worry|depress)ing\b)[a-z]{2,}ing\b",
    re.I,
)
_OCCASION_NOUN = (
    r"\b(?:flight|trip|holiday|vacation|honeymoon|cruise|tour|visit|move|wedding|party"
    r"|conference|meeting|appointment|interview|exam|surgery|operation|concert|gig|show"
    r"|game|match|race|marathon|tournament|festival|ceremony|graduation|reunion|launch"
    r"|release|deadline|due date|start date|presentation|talk|performance|recital"
    r"|premiere|opening|exhibition|trial|hearing|event)s?\b"
)
# "our flight to Norway is on 27 August": the copula is the present's own cue.
_OCCASION_IS = re.compile(
    _OCCASION_NOUN + r"[^,.;:!?]{0,40}?\s*(?:\bis|\bare|'s|’s)"
    r"(?:\s+(?:now|also|still|finally|actually|booked|set|planned|happening|taking place))*"
    r"\s*$",
    re.I,
)
# "I have a meeting on 3 July": the occasion's own date, in a sentence with no tense cue.
_OCCASION_DATE = re.compile(
    _OCCASION_NOUN + r"(?:\s+(?:to|in|at|with|for|from|of)(?:\s+[\w'’-]+){1,2})?\s*$", re.I
)
_TIMETABLE = re.compile(
    r"(?<!\bto )\b(?:fly|flies|leave|leaves|depart|departs|arrive|arrives|land|lands|go|goes"
    r"|head|heads|set off|sets off|start|starts|begin|begins|return|returns|move|moves"
    r"|travel|travels|open|opens|launch|launches|ship|ships|kick off|kicks off|take off"
    r"|takes off)\b",
    re.I,
)
_HABITUAL = re.compile(
    r"\b(?:always|usually|often|normally|typically|generally|sometimes|never|rarely|every"
    r"|each|tends? to|annually|yearly)\b",
    re.I,
)


def tense_at(text: str, position: int) -> Tense:
    """The tense of the sentence around ``position``: its cue nearest before it wins."""
    start, stop = _sentence(text, position)
    return _nearest(_tense_cues(text, start, stop), position) or Tense.PRESENT


def date_tense(text: str, position: int, *, day: bool) -> Tense:
    """The tense a date said without a year at ``position`` resolves by; PRESENT: no year.

    ``day``: the date names a day of a month (the timetable present reads only so).
    """
    start, stop = _sentence(text, position)
    before = text[start:position]
    fixed = _fixed_by_what_precedes(before)
    if fixed is not None:
        return fixed
    cues = _tense_cues(text, start, stop)
    for past in (_IRREGULAR_PAST, _PAST_MODAL):
        cues += [(m.start(), Tense.PAST) for m in past.finditer(text, start, stop)]
    habitual = _HABITUAL.search(text, start, stop) is not None
    if not habitual:
        cues += _coming_occasion_cues(text, start, stop, position, day)
    tense = _nearest(cues, position)
    if tense is None and not habitual and _OCCASION_DATE.search(before):
        return Tense.FUTURE
    return tense or Tense.PRESENT


def _fixed_by_what_precedes(before: str) -> Tense | None:
    """A date set for (ahead), one since (past), a recurring or life date (no year)."""
    if _TARGET_DATE.search(before[-60:]):
        return Tense.FUTURE
    if _SINCE.search(before):
        return Tense.PAST
    if _RECURRING_DATE.search(before) and not _RECENT_BIRTH.search(before):
        return Tense.PRESENT
    return None


def _sentence(text: str, position: int) -> tuple[int, int]:
    starts = [m.end() for m in _SENTENCE_EDGE.finditer(text, 0, position)]
    edge = _SENTENCE_EDGE.search(text, position)
    return (starts[-1] if starts else 0), (edge.start() if edge else len(text))


def _tense_cues(text: str, start: int, stop: int) -> list[tuple[int, Tense]]:
    cues = [(m.start(), Tense.FUTURE) for m in _FUTURE.finditer(text, start, stop)]
    return cues + [(m.start(), Tense.PAST) for m in _PAST.finditer(text, start, stop)]


def _coming_occasion_cues(
    text: str, start: int, stop: int, position: int, day: bool
) -> list[tuple[int, Tense]]:
    """Where the present speaks of a coming occasion: a modal, the progressive, an
    occasion's noun and copula right before the date, the timetable present of a day."""
    patterns = [_MODAL, _PROGRESSIVE, *([_TIMETABLE] if day else [])]
    cues = [(m.start(), Tense.FUTURE) for p in patterns for m in p.finditer(text, start, stop)]
    occasion = _OCCASION_IS.search(text, start, position)
    return cues + ([(occasion.end() - 1, Tense.FUTURE)] if occasion else [])


def _nearest(cues: list[tuple[int, Tense]], position: int) -> Tense | None:
    if not cues:
        return None
    before = [cue for cue in cues if cue[0] < position]
    return max(before)[1] if before else min(cues)[1]


def unrealized(statement: str) -> bool:
    """Whether a statement speaks of what is not (yet) so: a plan, a wish, a possibility
    or a hedge ("wants to learn Rust", "might move to Lyon", "I think it's Tuesday").

    >>> unrealized("Maya plans to adopt a cat."), unrealized("Maya adopted a cat.")
    (True, False)
    """
    return any(p.search(statement) for p in (_INTENTION, _MODAL, HEDGE_CUES))


_INTENTION = re.compile(
    r"\b(?:will|'ll|’ll|going to|gonna|plan(?:ning|s)? (?:to|on)|hop(?:e|es|ing) to"
    r"|wants? to|wanted to|wanna|would like|intend|trying to|tries to|thinking (?:of|about)"
    r"|considering|not sure|wonder)",
    re.I,
)
