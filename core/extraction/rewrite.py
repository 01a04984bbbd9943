"""Rewriting a clause so that it stands alone: speaker, named person and absolute dates.

Only words from a closed template set (``lexicon.TEMPLATE_WORDS``), the speaker's name,
names already in the text and rendered dates are introduced, so every rewrite stays
traceable by :mod:`provmem.core.extraction.validation`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from provmem.core.claim import Signal, SignalKind
from provmem.core.language.agreement import (
    Replacement,
    agreeing_verb,
    coordinated,
    verb_after_adverbs,
)
from provmem.core.language.lexicon import FUNCTION_WORDS, PAST_PARTICIPLES
from provmem.core.language.temporal import render

_Q = "['’]"
_OWN_PREPOSITIONS = {"on", "in", "at", "during"}
_OUTER_PREPOSITION = re.compile(
    r"\b(?:since|until|till|from|before|after|by|of|to|for|through|and)\s+$", re.I
)
# A date that is the subject of its clause ("Yesterday was amazing") takes no preposition.
_VERB_AFTER_DATE = re.compile(
    r"\s+(?:was|is|were|are|has|had|will|would|works|worked|seems|seemed|sounds|looks|felt)\b"
)
_SPAN_PREPOSITION = re.compile(
    r"^(?P<prep>on|in|during|at|by|from|until|till|since|of|early|late|mid)\s+", re.I
)
# a pronoun is a word of its own, never part of a name or value ("us-east-1", "my_app")
_NOT_IN_NAME, _NOT_BEFORE_NAME = r"(?<![-/._])", r"(?![-/_]\w)"
_FIRST_PERSON = re.compile(
    rf"{_NOT_IN_NAME}\b(?:(?P<i>[Ii])"
    rf"(?P<tail>{_Q}m|{_Q}ve|{_Q}ll|{_Q}d| am| haven{_Q}t| have not| have| do not| don{_Q}t| do\b)?"
    rf"|(?P<we>[Ww]e)(?P<wetail>{_Q}re|{_Q}ve|{_Q}ll|{_Q}d)?"
    r"|(?P<other>[Mm]yself|[Mm]ine|[Mm]y|[Mm]e|[Oo]urselves|[Oo]urs|[Oo]ur|[Uu]s))\b"
    rf"{_NOT_BEFORE_NAME}"
)
_SECOND_PERSON = re.compile(
    rf"{_NOT_IN_NAME}\b(?P<word>[Yy]ourself|[Yy]ours|[Yy]our|[Yy]ou)"
    rf"(?P<tail>{_Q}re|{_Q}ve|{_Q}ll|{_Q}d| are| have| were)?\b{_NOT_BEFORE_NAME}"
)
_PLURAL_YOU = re.compile(r"\s+(?:two|three|both|all|guys|folks|people)\b", re.I)
_YOU_TAILS = {
    "'re": "is",
    " are": "is",
    "'ve": "has",
    " have": "has",
    "'ll": "will",
    "'d": "would",
    " were": "was",
}
_SUBJECT_POSITION = re.compile(
    r"(?:^|[,.;:!?–—-]|\b(?:that|because|and|but|if|when|whenever|since|so|as|while|once|unless|until"
    r"|though|although|sure|think|bet|hope|how|what))"
    r"\s*$",
    re.I,
)
_THIRD_PERSON = re.compile(r"\b(?:[Hh]e|[Ss]he|[Hh]im|[Hh]is|[Hh]er|[Hh]ers)\b")
_VOCATIVE_AFTER = re.compile(r"^\s*[!?]|^\s*,\s*(?:[a-z]+\s+){0,2}[!?]")
_VOCATIVE_BEFORE = re.compile(
    r"\b(?:hey|hi|hello|thanks|thank you|wow|yes|yeah|yep|yup|ok|okay|oh|sure|well|bye|congrats"
    r"|dear|agree)[,!]?\s+$",
    re.I,
)


def rewrite_clause(
    text: str,
    start: int,
    end: int,
    signals: list[Signal],
    speaker: str,
    listener: str | None,
    *,
    subject_elided: bool = False,
) -> str:
    """The clause ``text[start:end]`` rewritten as a self-contained statement.

    ``listener`` is the addressee named in the turn ("Thanks, Mel!"), if any: "you" becomes
    that name. ``subject_elided``: the speaker will be put before the clause ("Started when
    I was young" -> "Maya started when they were young"), so a later "I" is "they".
    """
    edits = [
        *_date_edits(text, start, end, signals),
        *_self_introduction_edits(text, start, end, speaker),
        *_first_person_edits(text, start, end, speaker, named=subject_elided),
        *_third_person_edits(text, start, end, signals),
    ]
    if listener is not None:
        edits += _second_person_edits(text, start, end, listener)
        edits += _inner_vocative_edits(text, start, end, listener)
    clause = text[start:end]
    for edit_start, edit_end, replacement in sorted(edits, reverse=True):
        clause = clause[: edit_start - start] + replacement + clause[edit_end - start :]
    return _finish(clause)


_TRAILING_TAG = re.compile(
    r",\s*(?:by\s+the\s+way|btw|lol|haha\w*|honestly|for\s+sure|though|right|you\s+know)"
    r"\s*[.!?…]*$",
    re.I,
)


def _finish(clause: str) -> str:
    clause = " ".join(clause.split()).rstrip(" ,;:-–—")
    clause = _TRAILING_TAG.sub("", clause)  # "Mei's birthday is on 5 February, by the way."
    clause = re.sub(
        r"\b(a|an|the|to|of|and|in|on)\s+\1\b", r"\1", clause, flags=re.I
    )  # "a a bunch"
    clause = re.sub(r"[.!…]+([\"”)]+)$", r"\1", clause)  # the full stop after a closing quote
    clause = re.sub(r"[.!…]+$", "", clause).rstrip()
    return clause[:1].upper() + clause[1:] + "."


def _date_edits(text: str, start: int, end: int, signals: list[Signal]) -> list[Replacement]:
    edits = []
    for signal in signals:
        inside = start <= signal.start and signal.end <= end
        possessive = text[signal.end : signal.end + 2] in ("'s", "’s")
        if inside and signal.kind is SignalKind.DATE and signal.value and not possessive:
            if not re.search(r"\b\d{4}\b", signal.text):
                phrase = _date_phrase(text[: signal.start], signal.text, signal.value)
                if _date_as_subject(text, start, signal):
                    phrase = re.sub(r"^(?:on|in) ", "", phrase)
                edits.append((signal.start, signal.end, phrase))
    return edits


def _date_as_subject(text: str, start: int, signal: Signal) -> bool:
    """ "Yesterday was amazing" -> "13 August 2023 was amazing", not "On 13 August ..."."""
    opening = not text[start : signal.start].strip()
    return opening and _VERB_AFTER_DATE.match(text, signal.end) is not None


def _date_phrase(before: str, span_text: str, value: str) -> str:
    phrase = render(value)
    bare = re.sub(r"^(?:on|in) ", "", phrase)
    own = _SPAN_PREPOSITION.match(span_text)
    if own and own.group("prep").lower() not in _OWN_PREPOSITIONS:
        return f"{own.group('prep')} {bare}"
    if not own and _OUTER_PREPOSITION.search(before):
        return bare
    return phrase


def _first_person_edits(
    text: str, start: int, end: int, speaker: str, named: bool = False
) -> list[Replacement]:
    """The first subject "I"/"we" names the speaker; once it (or "me") is named, a later
    subject is "they" ("Maya gets this error when they hit the endpoint", "Maya was scared
    when they got into the accident"), as a writer would put it; but after "we", a later
    "I" is named again ("Since Maya and others last spoke, Maya took ..."): "they" would be
    the group. "my" and "me" keep the name."""
    edits: list[Replacement] = []
    said: set[str] = {"i"} if named else set()
    for match in _FIRST_PERSON.finditer(text, start, end):
        word = match.group(0).lower()
        number = "i" if match.group("i") else "we" if match.group("we") else _NUMBER.get(word, "")
        if match.group("i") or match.group("we"):
            later = number in said or (number == "we" and bool(said))
            edit = (
                _later_subject(text, match) if later else _subject_edit(text, match, end, speaker)
            )
            edits.append(edit)
            if not later and match.group("i") and not match.group("tail"):
                edits += coordinated(text, edit, match, end)
        elif said and word in _LATER_OBJECTS:
            edits.append((match.start(), match.end(), _LATER_OBJECTS[word]))
        else:
            edits.append((match.start(), match.end(), _object_phrase(match.group(0), speaker)))
        said |= {number} if number else set()
    return edits


_NUMBER = {"me": "i", "us": "we"}
"""Which first person a word names: the speaker alone or the speaker and others."""

_LATER_OBJECTS = {
    "us": "them", "our": "their", "ours": "theirs", "ourselves": "themselves",
    "myself": "themselves",
}  # fmt: skip
"""After the speaker is named, "us" is "them" and "myself" "themselves" ("Maya lets Maya
express themselves"); "me" and "my" keep the name (unambiguous)."""


def _subject_edit(text: str, match: re.Match[str], end: int, speaker: str) -> Replacement:
    if match.group("i"):
        return _i_edit(text, match, end, speaker)
    return match.start(), match.end(), _we_phrase(match, speaker)


_THEY_TAILS = {
    "'m": "are",
    "'re": "are",
    "'ve": "have",
    "'ll": "will",
    "'d": "would",
    " am": "are",
    " have": "have",
    " haven't": "have not",
    " have not": "have not",
    " do not": "do not",
    " don't": "do not",
    " do": "do",
}


def _later_subject(text: str, match: re.Match[str]) -> Replacement:
    tail = (match.group("tail") or match.group("wetail") or "").replace("’", "'")
    if tail:
        return match.start(), match.end(), f"they {_THEY_TAILS[tail]}"
    was = re.match(r"\s+was\b", text[match.end() : match.end() + 5])
    if match.group("i") and was:
        return match.start(), match.end() + was.end(), "they were"
    return match.start(), match.end(), "they"


_I_TAILS = {
    "'m": "is",
    "'ve": "has",
    "'ll": "will",
    " am": "is",
    " have": "has",
    " haven't": "has not",
    " have not": "has not",
    " do not": "does not",
    " don't": "does not",
    " do": "does",
}


def _i_edit(text: str, match: re.Match[str], end: int, speaker: str) -> Replacement:
    tail = (match.group("tail") or "").replace("’", "'")
    if tail == "'d":
        verb = verb_after_adverbs(text[match.end() : end])
        had = verb in PAST_PARTICIPLES or verb.endswith("ed")
        return match.start(), match.end(), f"{speaker} {'had' if had else 'would'}"
    if tail:
        return match.start(), match.end(), f"{speaker} {_I_TAILS[tail]}"
    return agreeing_verb(text, match, end, speaker)


def _second_person_edits(text: str, start: int, end: int, listener: str) -> list[Replacement]:
    """ "you" names the listener; once a "you" subject is named, a later one is "they"
    ("Jon found his true self and now they are helping others")."""
    edits: list[Replacement] = []
    named = False
    for match in _SECOND_PERSON.finditer(text, start, end):
        if _PLURAL_YOU.match(text, match.end()):
            continue  # "you two", "you guys": more than the listener, left unresolved
        word, tail = match.group("word").lower(), (match.group("tail") or "").replace("’", "'")
        subject = bool(tail) or (
            word == "you" and _SUBJECT_POSITION.search(text, 0, match.start()) is not None
        )
        if word.startswith("your"):
            edits.append(
                (match.start(), match.end(), f"{listener}'s" if word != "yourself" else listener)
            )
        elif subject and named:
            edits.append((match.start(), match.end(), f"they{_THEY_YOU_TAILS.get(tail, '')}"))
        elif tail:
            edits.append((match.start(), match.end(), f"{listener} {_YOU_TAILS[tail]}"))
        elif subject:
            edits.append(agreeing_verb(text, match, end, listener))
            edits += coordinated(text, edits[-1], match, end)
        else:
            edits.append((match.start(), match.end(), listener))
        named = named or subject
    return edits


_THEY_YOU_TAILS = {
    "'re": " are", " are": " are", "'ve": " have", " have": " have", "'ll": " will",
    "'d": " would", " were": " were",
}  # fmt: skip


def _inner_vocative_edits(text: str, start: int, end: int, listener: str) -> list[Replacement]:
    """ "Your support, Gina, means a lot" -> "Gina's support means a lot": the listener's
    name set off by commas inside the clause is an address, no part of the statement."""
    pattern = re.compile(rf",\s*{re.escape(listener)}\s*,\s*")
    return [
        (m.start(), m.end(), " ")
        for m in pattern.finditer(text, start, end)
        if _SECOND_PERSON.search(text, start, m.start())  # "One of them, Laura, wrote": apposition
    ]


def addressee(text: str, signals: list[Signal]) -> str | None:
    """The one person the turn addresses by name ("Wow, Mel!"), or None."""
    names = {
        s.text
        for s in signals
        if s.kind is SignalKind.ENTITY and s.value == "person" and _vocative(text, s)
    }
    return names.pop() if len(names) == 1 else None


def _self_introduction_edits(text: str, start: int, end: int, speaker: str) -> list[Replacement]:
    """ "I'm Maya, a nurse" -> "I'm a nurse": the speaker's name in apposition to "I"."""
    intro = re.compile(
        rf"(?:I{_Q}m|I am|[Mm]y name is|[Mm]e)\s+(?P<name>{re.escape(speaker)})\s*,\s*"
        r"(?=[a-z])"
    )
    match = intro.match(text, start, end)
    return [(match.start("name"), match.end(), "")] if match else []


def _we_phrase(match: re.Match[str], speaker: str) -> str:
    tails = {"'re": " are", "'ve": " have", "'ll": " will", "'d": " would"}
    tail = (match.group("wetail") or "").replace("’", "'")
    return f"{speaker} and others{tails.get(tail, '')}"


def _object_phrase(word: str, speaker: str) -> str:
    forms: dict[str, Callable[[str], str]] = {
        "myself": lambda s: s,
        "me": lambda s: s,
        "us": lambda s: f"{s} and others",
        "ourselves": lambda s: "themselves",
    }
    form = forms.get(word.lower())
    return form(speaker) if form else f"{speaker}'s"


def _third_person_edits(
    text: str, start: int, end: int, signals: list[Signal]
) -> list[Replacement]:
    people = [s for s in signals if s.kind is SignalKind.ENTITY and s.value == "person"]
    named = [s for s in people if not _vocative(text, s)]
    if len({s.text for s in named}) != 1:
        return []
    person = named[0]
    name = re.sub(r"['’]s$", "", person.text)  # "Oliver's done" names Oliver
    return [
        (m.start(), m.end(), _person_form(text, m, name))
        for m in _THIRD_PERSON.finditer(text, start, end)
        if m.start() > person.end
    ]


def _person_form(text: str, match: re.Match[str], name: str) -> str:
    word = match.group(0).lower()
    if word in {"his", "hers"}:
        return f"{name}'s"
    if word == "her":
        following = re.match(r"\s+([a-z]+)", text[match.end() :])
        possessive = following is not None and following.group(1) not in FUNCTION_WORDS
        return f"{name}'s" if possessive else name
    return name


def _vocative(text: str, entity: Signal) -> bool:
    after = text[entity.end : entity.end + 20]
    before = text[max(0, entity.start - 40) : entity.start]
    if _VOCATIVE_AFTER.match(after) or _VOCATIVE_BEFORE.search(before):
        return True
    comma_before = re.search(r",\s*$", before) is not None or not before.strip()
    if comma_before and _AFTER_A_NAME.search(before):
        return False  # an apposition: "3 Baker Lane, Bristol", "Porto, Portugal"
    return comma_before and re.match(r"\s*[.!?,]", after) is not None


_AFTER_A_NAME = re.compile(r"\w\s+[A-Z][\w'’-]*,\s*$")
