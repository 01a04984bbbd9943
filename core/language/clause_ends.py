"""Where a clause's content starts and ends: past interjections, a leading vocative,
thanks or a lead-in ("Wow, Mel! I ...", "Update: we moved"); before a trailing vocative or
a closing particle.

"Thanks for the tip, Mel." ends before ", Mel" (the listener, addressed); "I have a bad
knee though." before " though" (a discourse particle says nothing of the clause). After a
proper name, a capitalised word is an apposition, a place most often ("3 Baker Lane,
Bristol", "Porto, Portugal"), and stays, unless it names the listener.
"""

from __future__ import annotations

import re

from provmem.core.language.assertions import has_finite_verb, past_expressive
from provmem.core.language.clauses import HAS_SUBJECT
from provmem.core.language.lexicon import ADVERBS_BEFORE_VERB, CALENDAR_WORDS, NOT_NAMES

__all__ = ["content_end", "content_start"]

_DISCOURSE = re.compile(
    r"(?:(?:(?i:hey|hi|hello|wow|whoa|oh|ooh|yeah|yes|yep|yup|haha\w*|lol|omg|aww*"
    r"|ah|oof|woah|yay|ugh|phew|ok(?:ay)?|anyway|by the way|btw|honestly|actually|also"
    r"|plus|and|but|hmm+|um+|oh my|gosh|guess what|you know what|sure thing|no doubt)\b"
    # An exclamation before its clause: "So cool you found a class", "How nice you came".
    r"|(?i:so|how|really)\s+(?i:cool|nice|great|awesome|amazing|wonderful|sweet|lovely|fun"
    r"|good)\b"
    # Words that are interjections only when set off ("No, ...", but "No doubt ..."; "So
    # I ...", but "So much ..."; "Great, ...", but "Great to chat").
    r"|(?i:no|nope|not yet|not really|not at all|not exactly|well|sure|totally|true|right|man"
    r"|dude|cool|nice|awesome|great|sorry)"
    r"(?=[,!.…])|(?i:so)\b(?=[,!.…]|\s+(?:I|we|he|she|they|it|my|our|the|that|this)\b))"
    r"[,!.…]*\s*)*"
)
_LEADING_VOCATIVE = re.compile(r"([A-Z][a-z]+)(?:[,!]\s+|(?P<bare>\s+)(?=(?:you|your)\b))")
_ADDRESSED = re.compile(
    r"(?:I|I['’]\w+|we|my|you|your|that['’]s|that is|this is|those|these|it['’]s|what a)\b"
)
"""After "Name, ": the rest speaks to that person or of what is before them ("Mel, that's
a great pic"), so the name is a vocative, not a subject."""
_APPOSITION = re.compile(r"(?:my|our|his|her|their)\s+[\w'’-]+(?:\s+[\w'’-]+)?,")
# A short lead-in without a subject before a colon introduces the clause after it: "Good news: the
# p95 latency is now 290ms", "Update: we moved to Seattle".
# A reminder to the listener asserts its complement: "Just remember that it gets easier".
_REMINDER = re.compile(
    r"(?:just\s+|always\s+)?(?:remember|don['’]t\s+forget|never\s+forget|keep\s+in\s+mind)"
    r"\s+that\s+(?=\w)",
    re.I,
)
_LEAD_IN = re.compile(r"(?:[A-Za-z][\w'’-]*\s+){0,2}[A-Za-z][\w'’-]*:\s+(?=\S)")

_TRAILING_VOCATIVE = re.compile(r",\s*[A-Z][a-z]+\s*[.!…]*\s*$")
_TRAILING_PARTICLE = re.compile(
    r"(?:[,\s]+(?i:though|anyway|anyways|lol|haha\w*|tbh|honestly)\b)+\s*[.!…]*\s*$"
)


def content_end(text: str, start: int, end: int, listener: str | None) -> int:
    """The end of the clause ``text[start:end]`` without its vocative or closing particle."""
    vocative = _trailing_vocative(text, start, end, listener)
    end = vocative if vocative is not None else end
    particle = _TRAILING_PARTICLE.search(text, start, end)
    return particle.start() if particle else end


def _trailing_vocative(text: str, start: int, end: int, listener: str | None) -> int | None:
    found = _TRAILING_VOCATIVE.search(text, start, end)
    if found is None:
        return None
    name = found.group(0).strip(" ,.!…")
    before = text[start : found.start()].split()
    after_a_name = len(before) > 1 and before[-1][:1].isupper()
    return None if after_a_name and name != listener else found.start()


def content_start(text: str, start: int, end: int, listener: str | None) -> int:
    """Past interjections ("Wow, "), a leading vocative and thanks ("Thanks, I ...");
    the clause's end when it only thanks or congratulates."""
    lead = _DISCOURSE.match(text, start, end)
    start = lead.end() if lead else start
    heading = _LEAD_IN.match(text, start, end)
    if heading and not HAS_SUBJECT.search(heading.group(0)):
        start = heading.end()
    name = _LEADING_VOCATIVE.match(text, start, end)
    addressed = name is not None and name.group(1) == listener
    if name and (addressed or (not name.group("bare") and _called_by_name(text, name))):
        lead = _DISCOURSE.match(text, name.end(), end)
        start = lead.end() if lead else name.end()
    reminder = _REMINDER.match(text, start, end)
    if reminder and has_finite_verb(text[reminder.end() : end]):
        start = reminder.end()  # "Just remember that setbacks can be lessons": the speaker's view
    past = past_expressive(text[start:end])
    if past > 0:
        return content_start(text, start + past, end, listener)
    return start if past == 0 else end


def _called_by_name(text: str, name: re.Match[str]) -> bool:
    """ "Caroline, I started ...": a name, not an adverb ("Lately, I ..."), before a clause
    that speaks to its listener."""
    word = name.group(1).lower()
    common = word in NOT_NAMES | ADVERBS_BEFORE_VERB | CALENDAR_WORDS or word.endswith("ly")
    if _APPOSITION.match(text, name.end()):
        return False  # "Jonah, my brother, is based in Chicago": the subject and its apposition
    return not common and _ADDRESSED.match(text, name.end()) is not None
