"""Speech acts: which clauses assert something, and what an assistant's turn asserts.

Only assertions become claims. Questions, requests and instructions to the assistant
("can you...", "please...", an imperative), greetings, thanks, congratulations and
filler do not. An assistant's turn never yields facts about the user: only what the
assistant itself says it did, will do or recommends, labelled as the assistant's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provmem.core.language.lexicon import (
    ADJECTIVES_IN_ED,
    FUNCTION_WORDS,
    IRREGULAR_PAST,
    NUMBER_WORDS,
    VERBS_ENDING_IN_LY,
)
from provmem.core.language.wordlists import word_list, word_sequence

ASSISTANT = "the assistant"
"""How a statement names the assistant (first person of an assistant turn)."""
ROLE_WORDS = frozenset({"assistant", "recommended", "user"})
"""Words the claim writer introduces for an assistant's statements."""

_Q = "['’]"
_REQUEST = re.compile(
    rf"\b(?:(?:can|could|would|will|won{_Q}t|wouldn{_Q}t)\s+you|^(?:please|pls|plz|kindly)"
    r"|(?:please|pls|plz)\W*$"
    rf"|(?:I|we)\s+(?:need|want|would like|{_Q}d like)\s+(?:you|u)\s+to"
    r"|^(?:just\s+)?(?:help|show|tell|give|walk|let)\s+me\b|\b(?:let\s+(?:me|us)|lemme)\s+know\b"
    rf"|let{_Q}s|lets\s+(?:go|try|do|see|make|get)|I\s+(?:was|am|{_Q}m)\s+wondering"
    r"|do\s+you\s+(?:know|think|have)|any\s+(?:idea|tips|suggestions)\b"
    rf"|^(?:here(?:{_Q}s|\s+is|\s+are)|(?:this|that)\s+is)\s+(?:(?:my|the|our|some)\s+)?"
    r"(?:current\s+|full\s+|updated\s+)?(?:code|output|error|logs?|config|file|snippet"
    r"|traceback|stack\s*trace|diff|script|query|schema|function|class|example)\b)",
    re.I,
)
_EXPRESSIVE = re.compile(
    r"^(?:thanks|thank\s+(?:you|u)|thx|ty|congrat\w*|welcome|cheers|good\s+luck|best\s+of\s+luck"
    r"|happy\s+\w+|sorry\s+(?:to|for|about)|glad\s+to|nice\s+to|good\s+to|great\s+to"
    r"|well\s+done|good\s+job|great\s+job|nice\s+work|great\s+work|fingers\s+crossed"
    r"|have\s+(?:a|fun)|enjoy|take\s+care|see\s+you|talk\s+(?:soon|later)|bye"
    r"|kudos|props|hats\s+off|bravo|way\s+to\s+go|respect\s+for|well\s+said)\b"
    # A bare reply that asserts nothing of its own: "I bet!", "I agree.", "I know, right?"
    r"|^I\s+(?:bet|agree|know|see|guess\s+so|hope\s+so|think\s+so|totally\s+agree)\W*$",
    re.I,
)
_SPEAKER_LEAD = re.compile(rf"(?:[,!.;]|\s+and)\s+(?=(?:I|I{_Q}\w+|we|my)\b)")
_IMPERATIVE_VERBS = word_list("provmem.core.language", "imperative_verbs")
# What may come before an imperative's verb: "Just remember ...", "When things get rough,
# keep going", "Always believe in yourself".
_BEFORE_IMPERATIVE = re.compile(
    r"^(?:(?:when|whenever|if|once|while|before|after)\b[^,]{1,80},\s*)?"
    r"(?:(?:just|always|never|and|then|now)\s+)*",
    re.I,
)
_DETERMINER_NEXT = re.compile(
    r"\s+(?:a|an|the|this|that|these|those|it|me|us|them|my|your|our|some|all|any|in|out|up"
    r"|on|off|to|for|with|me|him|her|sure|\W)",
    re.I,
)
_FINITE_NEXT = re.compile(
    r"(?:\s+[\w'’-]+){0,2}?\s+(?:is|was|are|were|has|had|have|went|got|became|\w+ed|'s|’s)\b"
    r"|\s+of\b|\s*:",
    re.I,
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_COMMENT = re.compile(
    r"^(?:sounds|seems|looks|feels)\s+(?:like|good|great|fun|amazing|awesome)\b", re.I
)
_FINITE = re.compile(
    r"\b(?:is|are|was|were|am|has|have|had|do|does|did|will|would|shall|should|can|could|may"
    r"|might|must|ought|cannot)\b|\w['’](?:s|re|ve|ll|d|m)\b|n['’]t\b"
    r"|\b(?!(?:need|feed|speed|seed|bleed|breed|red|bed|shed|"
    + "|".join(sorted(ADJECTIVES_IN_ED))
    + r")\b)[a-z]{2,}ed\b|\b(?:"
    + "|".join(sorted(IRREGULAR_PAST))
    + r")\b",
    re.I,
)
FINITE_WORD = _FINITE
"""An auxiliary, a modal, a contraction, a past tense: a finite verb by closed lists only."""
_PRONOUN_VERB = re.compile(
    r"\b(?:I|we|they|he|she|[Ii])\s+(?:[a-z]+ly\s+|never\s+|always\s+"
    r"|also\s+|just\s+|still\s+|often\s+|now\s+|even\s+)?[a-z]{2,}\b"
    r"|\b(?:it|that|which|who|you)\s+(?:[a-z]+ly\s+)?[a-z]{2,}s\b",
    re.I,
)
_COMMON_S_VERBS = word_list("provmem.core.language", "common_s_verbs")
# Words ending in -s that are no verbs: "gorgeous", "business", "bonus", "basis", "physics".
_NOT_VERB_ENDINGS = word_sequence("provmem.core.language", "not_verb_endings")
NOT_SUBJECTS = frozenset(NUMBER_WORDS) | word_list("provmem.core.language", "not_subjects")
"""Words that are never the last word of a subject before its verb."""
_FRAGMENT_OPENERS = frozenset(NUMBER_WORDS) | word_list("provmem.core.language", "fragment_openers")
"""Words that open a noun phrase or a fragment, not a clause ("Three times a week", "Plenty
of times", "Such a gorgeous piece", "For love and to teach the kids")."""
# Words in -ly that are nouns or adjectives, not adverbs: "My family motivates me".
_NOT_LY_ADVERBS = VERBS_ENDING_IN_LY | word_list("provmem.core.language", "not_ly_adverbs")
_OBJECT_PRONOUNS = word_list("provmem.core.language", "object_pronouns")
_DETERMINERS = word_list("provmem.core.language", "determiners")
_IRREGULAR_PLURALS = frozenset({"people", "children", "men", "women"})
_PHRASE_ENDS = word_list("provmem.core.language", "phrase_ends")
_TOKENS = re.compile(r"[A-Za-z][\w'’-]*|\d[\d.,:]*|[,;.!?]")
_VERB_S = re.compile(r"[a-z]{2,}s")
_YOU_IT_THEY = re.compile(r"^(?:you|it|they)\s+(?:[a-z]+ly\s+)?[a-z]{2,}\b", re.I)
_ONGOING = re.compile(r"(?:still|just|currently|now|always)\s+[a-z]{3,}ing\b", re.I)
_NOT_A_CLAUSE_AFTER = re.compile(r"\s+(?:is|was|are|were|by|and|or|to\b(?!\s+\w+\s))", re.I)


def speech_act(body: str) -> str | None:
    """Why the clause ``body`` is not an assertion (``request``...), or None when it is."""
    if _REQUEST.search(body):
        return "request"
    if _EXPRESSIVE.match(body):
        return "expressive"
    if _COMMENT.match(body):
        return "comment"
    if imperative(body):
        return "imperative"
    return None


def has_finite_verb(body: str) -> bool:
    """Whether the clause says something of something: a finite verb, as far as closed word
    lists can tell ("Timings from the profiler", "Going for hikes" have none)."""
    if _FINITE.search(body) or _PRONOUN_VERB.search(body):
        return True
    return _YOU_IT_THEY.search(body) is not None or _noun_and_verb(body)


def _noun_and_verb(body: str) -> bool:
    """A noun and a verb in -s after it ("Each stroke carries", "Caroline's mom loves"), or
    a plural noun and the word that must be its verb ("The colors really blend"); not a noun
    phrase alone: "Three times a week", "with friends", "a gorgeous piece", "the dance
    classes and workshops", "helping kids"."""
    words = _TOKENS.findall(body)
    if not words:
        return False
    if words[0].lower() in _FRAGMENT_OPENERS or words[0][:1].isdigit():
        # "Plenty of times.", "To help out veterans."; but "About 2.5% of requests fail"
        return any(
            _quantity_of(words, at) and _plural_before_verb(words, at)
            for at in range(2, len(words))
        )
    if _plural_before_verb(words, 0) or _compound_gerund(words):
        return True
    later = range(1, len(words))
    return any(_verb_after(words, at) or _plural_before_verb(words, at) for at in later)


_QUANTITIES = word_list("provmem.core.language", "quantities")


def _quantity_of(words: list[str], at: int) -> bool:
    """ "2.5% of requests", "most of the tests": a plural after a quantity and "of"."""
    before = words[at - 2 : at]
    if len(before) == 2 and before[1].lower() == "the" and at >= 3:
        before = words[at - 3 : at - 1]
    return (
        len(before) == 2
        and before[1].lower() == "of"
        and (before[0][:1].isdigit() or before[0].lower() in _QUANTITIES)
    )


def _compound_gerund(words: list[str]) -> bool:
    """ "Playing and singing let me ...": two gerunds are a plural subject."""
    if len(words) < 4 or not all(w.lower().endswith("ing") for w in words[0:3:2]):
        return False
    verb = words[3]
    return words[1] in ("and", "or") and verb.islower() and not _inflected(verb)


def _no_subject(words: list[str], before: int, adverb_and_verb: bool) -> bool:
    """The word before an -s word cannot be the end of its subject: a preposition, a
    number, a comma ("Three times", "with friends"), a gerund's object ("helping kids").
    After a gerund opening ("Taking care of myself helps me") or with an adverb before a
    common verb ("mentally helps") any word may end the subject."""
    if words[before] == "," and "," in words[max(0, before - 6) : before]:
        before = before - 1 - words[before - 1 :: -1].index(",") - 1  # "My sister, Ana, lives"
    subject = words[before].lower() if before >= 0 else ","
    if adverb_and_verb or words[0].lower().endswith("ing") or subject in _OBJECT_PRONOUNS:
        return False
    if subject in (",", ";") or subject in FUNCTION_WORDS | NOT_SUBJECTS:
        return True
    determined = before > 1 and words[before - 1].lower() in _DETERMINERS
    return before > 0 and subject.endswith("ing") and words[before].islower() and not determined


def _plural_before_verb(words: list[str], at: int) -> bool:
    """A plural noun after its determiner or modifier and a bare verb after it, maybe past
    an adverb: "The colors really blend", "Those moments make", "Caroline's kids love"."""
    noun = words[at]
    plural = _VERB_S.fullmatch(noun) and not noun.endswith(_NOT_VERB_ENDINGS)
    if not plural and noun.lower() not in _IRREGULAR_PLURALS:
        return False
    before = words[at - 1].lower() if at else ""
    if before.endswith("ing") and at > 1:
        return False  # "helping kids learn": a gerund's object
    quantity = before == "of" and _quantity_of(words, at)
    if before in (",", ";") or (
        before in NOT_SUBJECTS - {"many", "some", "few", "all", "both"} and not quantity
    ):
        return False
    if words[at + 1 : at + 2] and words[at + 1].lower() in _PLACE_PREPOSITIONS:
        return _verb_after_phrase(words, at + 2)  # "the paths in settings.py break"
    rest = words[at + 1 : at + 3]
    if rest and _ly_adverb(rest[0]):
        rest = rest[1:]
    verb = rest[0] if rest else ""
    closed = FUNCTION_WORDS | NOT_SUBJECTS
    return verb.isalpha() and verb.islower() and verb not in closed and not _inflected(verb)


_PLACE_PREPOSITIONS = word_list("provmem.core.language", "prepositions_of_place")


def _verb_after_phrase(words: list[str], start: int) -> bool:
    """A bare verb that ends the clause within a short phrase: "(in) settings.py break."."""
    closed = FUNCTION_WORDS | NOT_SUBJECTS
    for at in range(start + 1, min(start + 5, len(words))):
        word, after = words[at], words[at + 1 : at + 2]
        ends = not after or after[0] in (".", ",", ";", "!", "?")
        if ends and word.isalpha() and word.islower() and word not in closed:
            return not _inflected(word)
    return False


def _inflected(word: str) -> bool:
    return word.endswith(("ing", "ed", "ly", "s")) or len(word) < 3


def _verb_after(words: list[str], at: int) -> bool:
    word = words[at]
    if not _VERB_S.fullmatch(word) or word.endswith(_NOT_VERB_ENDINGS):
        return False
    before = at - 1
    adverb = _ly_adverb(words[before]) and before > 0
    before -= adverb
    if _no_subject(words, before, adverb and word in _COMMON_S_VERBS):
        return False
    following = words[at + 1].lower() if at + 1 < len(words) else "."
    ends = following in _PHRASE_ENDS and not adverb and word not in _COMMON_S_VERBS
    return not ends  # "the dance classes and workshops", "these days."


def _ly_adverb(word: str) -> bool:
    ly = len(word) > 4 and word.islower() and word.endswith("ly")
    return ly and word not in _NOT_LY_ADVERBS


_SUBORDINATOR = re.compile(
    r"\b(?:since|when|whenever|because|if|while|after|before|until|though|although)\b"
    r"(?=(?:\s+[\w'’-]+){2})",
    re.I,
)


def verbless_main_clause(body: str) -> bool:
    """Words before a subordinate clause with no verb of their own: "So much since we
    talked", "Almost as silly as when she fed a horse", "Mainly because it is cheap"."""
    if _SUBORDINATE_ONLY.match(body) and "," not in body:
        # "Now that we are in Valencia.", "Even though it can be hard." have no main
        # clause; "Now that we're on Python 3.13 I'd like ..." has one without a comma
        return len(_SUBJECT_PRONOUN.findall(body)) < 2
    cut = _SUBORDINATOR.search(body)
    if cut is None or cut.start() == 0 or "," in body[cut.end() :]:
        return False  # "Especially after the accident, she thought ...": a main clause follows
    head = body[: cut.start()]
    return not (has_finite_verb(head) or HAS_PRONOUN_SUBJECT.search(head))


# Openings that make a clause subordinate even without a comma after a fronted phrase
# ("Since March I have lived here" has its main clause; "Because I love it." has none).
_SUBORDINATE_ONLY = re.compile(
    r"(?:now\s+that|even\s+though|even\s+if|although|though|because|unless|whereas|so\s+that)\b",
    re.I,
)
HAS_PRONOUN_SUBJECT = re.compile(r"\b(?:I|we|he|she|they|it|you)\b", re.I)
_SUBJECT_PRONOUN = re.compile(r"\b(?:I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey)\b")  # never an object


_ADVERBS_BEFORE_PAST = re.compile(
    r"(?:(?:just|finally|recently|also|actually|already|totally|really)\s+)+(?=[a-z]+ed\b|been\b)",
    re.I,
)


def elided_subject(body: str) -> str | None:
    """The verb an elided "I" needs, or None: "Fixed the CORS headers" -> "" (the speaker
    goes first), "Been busy" -> "has", "Still working on it" -> "is", "Just finished it"
    -> ""."""
    lead = _ADVERBS_BEFORE_PAST.match(body)
    first = _WORD.match(body, lead.end() if lead else 0)
    if first is None or _NOT_A_CLAUSE_AFTER.match(body, first.end()):
        return None
    word = first.group(0).lower()
    if word == "been":
        return "has"
    if _ONGOING.match(body):
        return "is"
    past = word in IRREGULAR_PAST - {"was", "were", "had", "did"} or (
        word.endswith("ed") and len(word) > 4 and word not in ADJECTIVES_IN_ED
    )
    return "" if past else None


def past_expressive(body: str) -> int:
    """Where an assertion starts after a leading thanks or congratulations, else -1.

    "Thanks, I moved to Lisbon" asserts the move; "Thanks for the help" asserts nothing.
    """
    lead = _EXPRESSIVE.match(body)
    if lead is None:
        return 0
    rest = _SPEAKER_LEAD.search(body, lead.end())
    return rest.end() if rest and body[lead.end() : rest.start()].count(" ") <= 4 else -1


def imperative(body: str) -> bool:
    """A clause opening with a bare verb ("Add a test", "Fill in the form", "Just remember
    that ...", "When things get rough, keep going")."""
    lead = _BEFORE_IMPERATIVE.match(body)
    first = _WORD.match(body, lead.end() if lead else 0)
    if first is None:
        return False
    word = first.group(0).lower().replace("’", "'")
    if word not in _IMPERATIVE_VERBS:
        return False
    after = first.end()
    return bool(_DETERMINER_NEXT.match(body, after)) or not _FINITE_NEXT.match(body, after)


@dataclass(frozen=True)
class AssistantReading:
    """An assistant clause as the assistant's own statement: a prefix and the rest."""

    prefix: str
    start: int


_RECOMMENDATION = re.compile(
    rf"^(?:I(?:\s+would|{_Q}d)?\s+(?:strongly\s+|really\s+|also\s+)?(?:recommend|suggest|advise)"
    r"(?:\s+that)?|(?:My\s+)?(?:recommendation|suggestion|advice)\s+(?:is|would\s+be)(?:\s+to)?)"
    r"\s+",
    re.I,
)
_YOU_SHOULD = re.compile(
    rf"^(?:you|u)\s+(?:should|could|might\s+want\s+to|may\s+want\s+to|{_Q}d\s+better"
    r"|need\s+to|have\s+to|must)\s+(?:probably\s+|really\s+|also\s+|definitely\s+)?",
    re.I,
)
_CONSIDER = re.compile(r"^(?:consider|try)\s+(?=\w+ing\b)", re.I)
_ASSISTANT_SELF = re.compile(rf"\bI\b|\bI{_Q}(?:m|ve|ll|d)\b|\b(?:my|me|myself)\b")


def assistant_reading(body: str) -> AssistantReading | None:
    """The assistant's own assertion in ``body`` or None (then it yields no claim).

    A recommendation ("I'd suggest X", "You should X", "Consider Xing") becomes
    "The assistant recommended ..."; a first-person statement ("I'll add the tests")
    speaks of the assistant. Anything else (about the user, general knowledge) is not kept.
    """
    for pattern, prefix in (
        (_RECOMMENDATION, "The assistant recommended "),
        (_YOU_SHOULD, "The assistant recommended that the user "),
        (_CONSIDER, "The assistant recommended "),
    ):
        match = pattern.match(body)
        if match:
            return AssistantReading(prefix, match.end())
    if _ASSISTANT_SELF.search(body) and not speech_act(body):
        return AssistantReading("", 0)
    return None


_USER_FORMS = {
    "your": "the user's",
    "yours": "the user's",
    "yourself": "the user",
    "you're": "the user is",
    "you've": "the user has",
    "you'll": "the user will",
    "you'd": "the user would",
    "you are": "the user is",
    "you have": "the user has",
    "you were": "the user was",
}
_YOU = re.compile(
    rf"\b(?:you(?:{_Q}(?:re|ve|ll|d)|\s+(?:are|have|were))?|your(?:s|self)?|u)\b", re.I
)


def you_as_user(statement: str) -> str:
    """In an assistant's statement, the addressee is the user ("you're" -> "the user is")."""

    def form(match: re.Match[str]) -> str:
        said = " ".join(match.group(0).lower().replace("’", "'").split())
        return _USER_FORMS.get(said, "the user")

    return _YOU.sub(form, statement)
