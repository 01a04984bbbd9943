"""Pronoun subjects: "It is a Vue 3 SPA." names what "it" is, or is no claim.

A clause whose subject is "it", "they", "this", "that", "these" or "those" says nothing
on its own. Its antecedent is looked for in the turn before the clause: the earlier
clauses of its sentence and the sentence before it (a question the speaker asks and
answers, "My daughter's birthday? It's on 27 June.", included). The antecedent is a
noun phrase opened by a determiner, a possessive or a number ("a new bike", "my
daughter's birthday", "two sons") of the pronoun's number; when exactly one such phrase
is there, it replaces the pronoun ("The new bike is red."; "I have a dog. It is called
Max." -> "Maya's dog is called Max."). With none, or more than one, the clause stays raw
evidence.

A dummy "it" refers to nothing and is kept as it is: weather and time ("It's raining",
"It's 5 o'clock"), an extraposed subject ("It's great to see you", "It takes 30 minutes
to get there", "It is important that ..."), a cleft ("It is in these moments that ..."),
an appearance ("It seems that ...", "It sounds like ...").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from provmem.core.claim import Signal
from provmem.core.extraction.rewrite import rewrite_clause
from provmem.core.language.agreement import third_person
from provmem.core.language.fragments import elided_it
from provmem.core.language.lexicon import (
    CALENDAR_WORDS,
    FUNCTION_WORDS,
    IRREGULAR_PAST,
    NUMBER_WORDS,
    PAST_PARTICIPLES,
)
from provmem.core.language.wordlists import word_list

__all__ = [
    "Antecedent",
    "PronounSubject",
    "antecedent",
    "antecedent_before",
    "dummy_it",
    "pronoun_subject",
    "referring_subject",
    "with_antecedent",
]

_Q = "['’]"
_PRONOUN = re.compile(
    rf"(?P<word>it|they|this|that|these|those)(?P<tail>{_Q}(?:s|re|ll|d|ve)\b)?(?=\s|$|{_Q})",
    re.I,
)
_SINGULAR = frozenset({"it", "this", "that"})
# What follows "this"/"that" when it is a pronoun rather than a determiner ("That sounds
# great" but "That charity race was fun"): a verb, an adverb before one, or a contraction.
_VERB_FORMS = word_list("provmem.core.extraction", "verb_forms_after_pronoun") | IRREGULAR_PAST
_ADVERBS = word_list("provmem.core.extraction", "adverbs_before_verb")
# Dummy "it": weather and time, extraposition, clefts and appearance verbs.
_WEATHER = (
    r"rain\w*|snow\w*|pour\w*|drizzl\w*|freezing|sunny|cloudy|windy|foggy|stormy|hot|cold|warm"
    r"|chilly|humid|dark|light|late|early|noon|midnight|\d+(?::\d+)?\s*(?:o['’]clock|am|pm)"
    r"|(?:a\s+)?(?:long\s+)?(?:while|time|ages|years?|months?|weeks?|days?)\b"
)
_BE = (
    rf"(?:{_Q}s|\s+(?:is|was|isn['’]t|wasn['’]t|is not|was not)"
    rf"|(?:{_Q}ll|{_Q}d|\s+(?:will|would|might|may|can|could|must|should))(?:\s+not)?"
    rf"\s+(?:have\s+been|be)|\s+(?:has|had)\s+been)"
)
# What an extraposed gerund clause goes on with ("It was great bonding over it", "fun
# sharing stories"), unlike an adjective in -ing ("a rewarding experience", "calming and").
_GERUND_OBJECT = (
    r"(?:over|into|with|about|for|at|in|on|to|out|up|around|through|the|a|an|my|your|his|her"
    r"|our|their|it|them|this|that|these|those|some|time|people|others|everyone|[a-z]+[^s\W]s)\b"
)
_DUMMY = re.compile(
    rf"it(?:{_BE}(?:\s+(?:been|getting|gotten|going to be|still|so|really|very|quite|pretty"
    rf"|already|almost|nearly|just|finally|now))*\s+(?:{_WEATHER})\b"
    rf"|(?:\s+(?:\w+ly\s+)?(?:takes|took|take|costs|cost|seems|seemed|appears|appeared|sounds"
    rf"|sounded|looks|looked|feels|felt|turns out|turned out|happens|happened|means|meant"
    rf"|matters|mattered|pays|paid|helps|helped|hurts|hurt)\b)"
    rf"|{_BE}\s+(?:(?:not|so|very|really|such|also|just|always|never|still|quite|pretty|super"
    rf"|a|an|the|my|his|her|our|their|kind of)\s+)*[\w-]+(?:\s+[\w-]+){{0,3}}?"
    rf"\s+(?:to\s+(?!(?:the|a|an|my|your|his|her|our|their|me|him|them|us|it|this|that)\b"
    rf"|(?-i:[A-Z]))[a-z]+|that|when|how|what|whether|if|who"
    rf"|[a-z]{{2,}}ing\s+(?={_GERUND_OBJECT}))\b)",
    re.I,
)
_COUNTS = frozenset(w for w, n in NUMBER_WORDS.items() if n > 1 and " " not in w)
_NOT_IN_PHRASE = "|".join(sorted(FUNCTION_WORDS))
_PHRASE_WORD = rf"(?!(?i:{_NOT_IN_PHRASE})\b)[A-Za-z][\w'’-]*"
_NP = re.compile(
    r"\b(?P<det>(?i:the|a|an|one|my|our|your|his|her|their|this|that|these|those|some|several|"
    + "|".join(sorted(_COUNTS))
    + r")|\d{1,2}|(?!(?:It|That|This|There|Here|What|Who|Where|How|He|She|Let|Everything|Everyone"
    + r"|Nothing|Something|Someone|Life|Today|Tonight)['’])[A-Z][a-z]+['’]s)"
    + rf"\s+(?P<words>{_PHRASE_WORD}(?:\s+{_PHRASE_WORD}){{0,3}})(?=[\s.,!?;:)\"”]|$)"
)
_NOT_HEADS = word_list("provmem.core.extraction", "not_referent_heads")
_HAVING = re.compile(
    rf"\b(?:I|we)(?:{_Q}ve|\s+have|\s+had|\s+got|\s+own|\s+owned|\s+bought|\s+adopted|\s+found"
    rf"|\s+made|\s+built|\s+started|\s+have\s+got|{_Q}ve\s+got|\s+just\s+got)\s+$",
    re.I,
)
_GET_VERBS = (
    r"love|loves|like|likes|enjoy|enjoys|miss|have|has|had|got|get|own|owned|bought|buy|adopted|adopt|found|made|make|built|build"
    r"|started|created|wrote|painted|baked|cooked|received|won|picked"
)
_GETTING = re.compile(rf"\b(?:{_GET_VERBS})(?:\s+(?:myself|ourselves|me|us))?\s+$", re.I)
_LEAD = re.compile(r"\s*(?:[\w'’]+(?:\s+[\w'’]+)?\s*[,!]\s*){0,3}(?:(?i:and|but|so|then|also)\s+)?")
# What follows a verb rather than a noun: its object ("uses Flask", "love the park").
_PREPOSITIONS = word_list("provmem.core.extraction", "prepositions")
_STOPS = FUNCTION_WORDS | _VERB_FORMS | _PREPOSITIONS
_TIME_WORDS = CALENDAR_WORDS | word_list("provmem.core.extraction", "time_words")
_OBJECT_NEXT = re.compile(
    r"\s*(?:[A-Z]|(?:the|a|an|my|your|his|her|our|their|this|that|these|those|it|them|him"
    r"|me|us|to)\b)"
)
# A gerund opening a sentence or after a verb of liking or taking up names an activity.
_GERUND = (
    r"(?P<activity>(?i:[a-z]{3,}ing))\b(?!\s+(?i:the|a|an|my|your|his|her|our|their|to|it|them"
    r"|this|that|with|for|on|in|at|out|up|back)\b)"
)
_GERUND_ACTIVITY = re.compile(
    r"\b(?i:love|loves|like|likes|enjoy|enjoys|started|start|tried|began|begin|took up"
    r"|picked up|into|about|doing|practice|practise)\s+" + _GERUND
)
_GERUND_OPENING = re.compile(r"\s*" + _GERUND)
_NOT_ACTIVITIES = word_list("provmem.core.extraction", "not_activities")
# Nouns of a group, named by "they": "My family has been there. They are my rock."
_COLLECTIVE = word_list("provmem.core.extraction", "collective_nouns")
_CONTRACTED_NEXT = re.compile(r"\s+(?:[a-z]+ing|been|got|gotten|not|going|gonna|coming)\b")
_POSSESSIVE = re.compile(r"(his|her|its|their)\s+[a-z]", re.I)
# People a "his" or "her" may name: kin, partners, friends and roles.
_PERSON_NOUNS = word_list("provmem.core.extraction", "person_nouns")
_INDEFINITE = frozenset({"a", "an", "some", "several"})
_SINGULAR_DETS = word_list("provmem.core.extraction", "singular_determiners")
_PLURAL_DETS = frozenset({"these", "those", "several"}) | _COUNTS


@dataclass(frozen=True)
class PronounSubject:
    """The pronoun opening a clause: its word, where it ends in the clause, its number
    and its contraction ("'s", "'re", ...; empty when none)."""

    word: str
    end: int
    plural: bool
    tail: str
    possessive: bool = False


@dataclass(frozen=True)
class Antecedent:
    """A noun phrase in the turn that a pronoun names: its span and whether the speaker's
    own ("I have a dog" -> "Maya's dog")."""

    start: int
    end: int
    determiner: str
    owned: bool


def pronoun_subject(body: str) -> PronounSubject | None:
    """The referring pronoun that is the subject of ``body``, or None (no pronoun, a
    determiner "That charity race ...", or a dummy "it").

    >>> pronoun_subject("It's on 27 June.")
    PronounSubject(word='it', end=4, plural=False, tail="'s")
    >>> pronoun_subject("It's raining again.") is None
    True
    """
    match = _PRONOUN.match(body)
    if match is None:
        return None
    word = match.group("word").lower()
    tail = (match.group("tail") or "").replace("’", "'")
    if word in {"this", "that", "these", "those"} and not tail and _determiner(body, match.end()):
        return None
    if word == "it" and dummy_it(body):
        return None
    return PronounSubject(word, match.end(), word not in _SINGULAR, tail)


def referring_subject(body: str, rewritten: str) -> PronounSubject | None:
    """The pronoun subject of a clause, also the "it" a clause leaves out ("Reminds me of
    home", "Must have taken a lot of work": ``end`` 0) and a possessive the rewrite left
    unresolved ("Her birthday is ..." when the turn names no one): ``rewritten``."""
    if elided_it(body):
        return PronounSubject("it", 0, False, "")
    owner = _POSSESSIVE.match(body)
    if owner and rewritten.lower().startswith(owner.group(1).lower() + " "):
        word = owner.group(1).lower()
        return PronounSubject(word, owner.end(1), word == "their", "", possessive=True)
    lead = _LEADING_ADVERB.match(body)
    found = pronoun_subject(body[lead.end() :] if lead else body)
    if found is None or lead is None:
        return found
    return replace(found, end=found.end + lead.end())  # "Thankfully, it's over": the adverb goes


_LEADING_ADVERB = re.compile(r"(?i:[a-z]+ly|still|anyway|plus|now|then|sadly|luckily)\b,?\s+")


def _determiner(body: str, end: int) -> bool:
    """ "That charity race" (a determiner) rather than "That sounds great" (a pronoun)."""
    words = body[end:].split()
    while words and words[0].lower() in _ADVERBS:
        words = words[1:]
    if not words:
        return False
    following = words[0].lower().strip(",.!?;:")
    verb_like = following in _VERB_FORMS or following.endswith(("ed", "n't"))
    singular = body[:end].lower() in {"this", "that"}  # "Those colors": a plural noun
    third_s = singular and following.endswith("s") and not following.endswith(("ss", "us", "is"))
    return not (verb_like or third_s)


def dummy_it(body: str) -> bool:
    """An "it" that refers to nothing: weather, time, extraposition, a cleft, appearance.

    >>> [dummy_it(s) for s in ("It's great to see you", "It is still a work in progress")]
    [True, False]
    """
    return _DUMMY.match(body) is not None


def antecedent(text: str, start: int, end: int, plural: bool) -> Antecedent | None:
    """The one noun phrase of the pronoun's number in ``text[start:end]`` (the turn before
    the clause), or None when there is none or more than one."""
    found = _candidates(text, start, end, plural)
    return found[-1] if len({text[p.start : p.end].lower() for p in found}) == 1 else None


def _candidates(
    text: str, start: int, end: int, plural: bool, anywhere: bool = False
) -> list[Antecedent]:
    """The noun phrases "it" or "they" may name. "They" may name any plural phrase; "it",
    "this" and "that", which as often name a whole event, only the subject of the
    sentence ("The app uses Flask. It ...") or what the speaker got or made ("I got a
    new bike. It ..."): the centre of attention, as centering theory ranks it."""
    phrases = [_phrase(text, m, start) for m in _NP.finditer(text, start, end)]
    if not plural and not anywhere:
        phrases = [p for p in phrases if p and (_opening(text, start, p) or _made(text, p))]
    if not plural:
        opening = _GERUND_OPENING.match(text, start, end)
        phrases += [_gerund(m) for m in _GERUND_ACTIVITY.finditer(text, start, end)]
        phrases += [_gerund(opening)] if opening else []
    found = [p for p in phrases if p is not None and _number_fits(text, p, plural)]
    return sorted(found, key=lambda p: p.start)


def _fits(text: str, phrase: Antecedent, subject: PronounSubject) -> bool:
    """ "his"/"her" name a person ("my mom"), "it" and "its" a thing."""
    head = re.sub(r"['’]s$", "", text[phrase.start : phrase.end].split()[-1].lower())
    person = head in _PERSON_NOUNS or head.removesuffix("s") in _PERSON_NOUNS
    if subject.word in {"these", "those"} and head in _COLLECTIVE:
        return False  # "These are the moments": a group noun is "they", not "these"
    return person if subject.word in {"his", "her"} else not person or subject.plural


def _opening(text: str, start: int, phrase: Antecedent) -> bool:
    """The phrase opens its sentence or clause (after discourse words: "Yeah, the app ...")."""
    return _LEAD.fullmatch(text, start, phrase.start) is not None


def _made(text: str, phrase: Antecedent) -> bool:
    """The phrase is what a verb of getting or making takes ("got the tattoo")."""
    return _GETTING.search(text, max(0, phrase.start - 30), phrase.start) is not None


def _gerund(match: re.Match[str]) -> Antecedent | None:
    """An activity named by a gerund ("Dancing helps me", "I love running")."""
    word = match.group("activity").lower()
    return None if word in _NOT_ACTIVITIES else Antecedent(*match.span("activity"), "", False)


def _phrase(text: str, match: re.Match[str], start: int) -> Antecedent | None:
    """The noun phrase a determiner opens: up to the first function word or verb form."""
    det = match.group("det").lower()
    if det in {"that", "this"} and not _determiner(text[match.start() :], len(det)):
        return None  # "that was ...": a pronoun, not a determiner
    last = match.start("words")
    for word in re.finditer(r"[\w'’-]+", match.group("words")):
        lowered = word.group(0).lower()
        later = last > match.start("words")
        stop = lowered in _STOPS or (later and lowered.endswith("ly"))
        if stop or (later and lowered in _TIME_WORDS):
            break  # "the dashboard last month": the phrase ends before the date
        after = match.start("words") + word.end()
        if _CONTRACTED_NEXT.match(text, after) and lowered.endswith(("'s", "’s")):
            return _clipped(match, start, text, after - 2)  # "her birthday's coming up"
        if later and word.group(0).islower() and _OBJECT_NEXT.match(text, after):
            break  # "the app uses Flask", "my kids love the park": a verb and its object
        last = after
    if last == match.start("words") or re.match(r"\s+of\b", text[last:]):
        return None  # "the importance [of ...]": part of a longer phrase
    head = re.split(r"\s+", text[match.start("words") : last])[-1].lower()
    if re.sub(r"['’]s$", "", head) in _NOT_HEADS | _TIME_WORDS:
        return None
    return Antecedent(match.start(), last, det, _owned(text, start, match.start(), det))


def _clipped(match: re.Match[str], start: int, text: str, end: int) -> Antecedent:
    det = match.group("det").lower()
    return Antecedent(match.start(), end, det, _owned(text, start, match.start(), det))


def _owned(text: str, start: int, at: int, det: str) -> bool:
    """What the speaker has: "I have a dog", "we have 51 tests"."""
    counted = det in _INDEFINITE | _COUNTS or det.isdigit()
    return counted and _HAVING.search(text, start, at) is not None


def _number_fits(text: str, phrase: Antecedent, plural: bool, collective: bool = True) -> bool:
    head = text[phrase.start : phrase.end].split()[-1].lower()
    if collective and head in _COLLECTIVE and phrase.determiner not in _SINGULAR_DETS:
        return True  # "my family": "it" or "they" (the verb then singular: _singular_verb)
    if phrase.determiner in _SINGULAR_DETS:
        return not plural
    if phrase.determiner in _PLURAL_DETS or phrase.determiner.isdigit():
        return plural
    many = head.endswith("s") and not head.endswith(("ss", "us", "is", "'s", "’s"))
    return many == plural


def antecedent_before(
    text: str, sentences: list[tuple[int, int]], start: int, subject: PronounSubject
) -> Antecedent | None:
    """The antecedent of the pronoun opening the clause at ``start``: in the clause's
    sentence before it, else in the sentence before (and, while that one opens with the
    same pronoun and names nothing, the one before it; at most three back). Two different
    candidates where the first are found make it ambiguous: None."""
    current = next((i for i, (s, e) in enumerate(sentences) if s <= start < e), None)
    if current is None:
        return None
    spans = [(sentences[current][0], start)] + sentences[max(current - 3, 0) : current][::-1]
    for begin, end in spans:
        person = subject.word in {"his", "her"}  # a person, named anywhere in the sentence
        found = _candidates(text, begin, end, subject.plural, anywhere=person)
        found = [p for p in found if _fits(text, p, subject)]
        if found:
            distinct = {text[p.start : p.end].lower() for p in found}
            return found[-1] if len(distinct) == 1 else None
        opening = pronoun_subject(text[begin:end].lstrip())
        same = opening is not None and opening.word == subject.word
        if begin != spans[0][0] and not same:
            return None
    return None


_TAILS = {"'re": "are", "'ll": "will", "'ve": "have"}


def with_antecedent(
    text: str,
    rest_at: int,
    end: int,
    found: Antecedent,
    subject: PronounSubject,
    rewrite: tuple[list[Signal], str, str | None],
) -> str | None:
    """The clause with its pronoun replaced by the antecedent ("It's on 27 June." ->
    "Maya's daughter's birthday is on 27 June."), or None when the antecedent itself opens
    with an unresolved possessive. ``rewrite``: the signals, speaker and listener the
    clause is rewritten with."""
    signals, speaker, listener = rewrite
    phrase = rewrite_clause(text, found.start, found.end, signals, speaker, listener)
    if _POSSESSIVE.match(phrase):
        return None  # "Their stories": the antecedent itself names no one
    phrase = _definite(phrase.rstrip("."), found, speaker)
    rest = rewrite_clause(text, rest_at, end, signals, speaker, listener)
    rest = rest[:1].lower() + rest[1:]
    if subject.possessive:
        owner = f"{phrase}'" if phrase.endswith("s") else f"{phrase}'s"
        return f"{owner[:1].upper()}{owner[1:]} {rest}"
    if subject.tail:
        rest = _spelled_tail(subject.tail, rest)
    if subject.plural and not _number_fits(text, found, True, collective=False):
        rest = _singular_verb(rest)  # "They are my rock" of "my family": "... is my rock"
    return f"{phrase[:1].upper()}{phrase[1:]} {rest}"  # "the user's dog ..." opens a sentence


_SINGULAR_FORMS = {"are": "is", "were": "was", "have": "has", "do": "does", "don't": "doesn't"}
_MODALS = word_list("provmem.core.extraction", "modal_verbs")


def _singular_verb(rest: str) -> str:
    """The clause's first verb agreeing with a singular group noun."""
    verb, _, after = rest.partition(" ")
    if verb in _SINGULAR_FORMS:
        verb = _SINGULAR_FORMS[verb]
    elif verb.isalpha() and verb not in _MODALS and not verb.endswith(("s", "ed")):
        verb = third_person(verb)
    return f"{verb} {after}".rstrip()


def _definite(phrase: str, found: Antecedent, speaker: str) -> str:
    """ "a new bike" -> "The new bike"; the speaker's own ("I have a dog") -> "Maya's dog".
    A count stays with the sentence that said it ("We have 51 tests. They all pass." ->
    "The tests all pass."): repeated, it would be a second fact of a value that a later
    change of it would not reach."""
    _, _, rest = phrase.partition(" ")
    dropped = found.determiner in _INDEFINITE | _COUNTS or found.determiner.isdigit()
    if found.owned:
        return f"{speaker}'s {rest}" if dropped else f"{speaker}'s {phrase[:1].lower()}{phrase[1:]}"
    if dropped or found.determiner == "one":
        return f"The {rest}"
    return phrase[:1].upper() + phrase[1:]


def _spelled_tail(tail: str, rest: str) -> str:
    """The verb a pronoun's contraction stands for, before the rest of the clause."""
    following = rest.split(" ", 1)[0].lower()
    if tail == "'s":
        verb = "has" if following in {"been", "got", "gotten", "had"} else "is"
    elif tail == "'d":
        verb = "had" if following in PAST_PARTICIPLES or following.endswith("ed") else "would"
    else:
        verb = _TAILS[tail]
    return f"{verb} {rest}"
