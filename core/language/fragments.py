"""Verbless chat fragments: made into sentences where the elided words are clear, else
left to the raw evidence.

Chat drops the subject "I" and the copula: "Trying to get it fixed." ("I'm trying"),
"Love the colors!" ("I love"), "Really glad to have you as a friend" ("I'm really glad"),
"Pottery's so relaxing" ("Pottery is"). Each is rewritten with the speaker as subject or
the copula spelled out, so the statement has a subject and a finite verb. A bare-verb
fragment addressed to the listener ("Cherish those moments!", "Spill the beans") says
nothing about the speaker and is no claim; so is a fragment with no verb of its own
("Three times a week.", "So much since we talked"), an answer that needs the other
speaker's question, and an elided verb phrase ("Yeah, I love to."). :func:`answer_statement`
composes such an answer with the question it answers when the question's frame maps
cleanly ("Where do you work now?" + "At the library downtown." -> "Ann now works at the
library downtown."); the ingest path does not call it yet: the statement's verb comes
from the question's evidence, so the fact would have to cite both turns (and go when the
question is erased) before it may be kept.
"""

from __future__ import annotations

import re

from provmem.core.language.agreement import third_person
from provmem.core.language.assertions import (
    FINITE_WORD,
    elided_subject,
    has_finite_verb,
    verbless_main_clause,
)
from provmem.core.language.lexicon import FUNCTION_WORDS, IRREGULAR_PAST
from provmem.core.language.wordlists import word_list

__all__ = [
    "addressed_imperative",
    "answer_statement",
    "elided_words",
    "elliptical",
    "no_assertion",
    "spelled",
    "with_subject",
    "ambiguous_copula",
    "elided_copula",
    "elided_feeling",
    "elided_it",
    "elided_modal",
    "spelled_out_copula",
    "with_elided_it",
]

# Verbs of feeling or opinion whose subject "I" chat leaves out: "Love the colors".
_FEELING_VERBS = word_list("provmem.core.language", "feeling_verbs")
_ADVERBS_BEFORE_FEELING = word_list("provmem.core.language", "adverbs_before_feeling")
# Adjectives of feeling that chat says without "I'm": "Excited for this new chapter".
_FEELING_ADJECTIVES = word_list("provmem.core.language", "feeling_adjectives")
_DEGREE = r"(?:(?:really|so|very|super|pretty|just|totally|truly|kinda|quite|also|still) )*"
_FEELING_ADJECTIVE = re.compile(rf"^{_DEGREE}(?P<word>[A-Za-z]+)\b(?! (?:is|are|was|were)\b)", re.I)
_NOT_GERUNDS = word_list("provmem.core.language", "not_gerunds")
_GERUND = re.compile(rf"^{_DEGREE}(?P<word>[A-Za-z]{{2,}}ing)\b", re.I)
_AND_GERUND = re.compile(r",? (?:and|or) [a-z]{2,}ing\b")
# A finite verb after a leading gerund makes the gerund the subject ("Talking to them made
# me ...", "Painting and drawing have helped"): then nothing is elided.
_FINITE_AFTER = re.compile(
    r"\b(?:is|are|was|were|am|has|have|had|do|does|did|will|would|can|could|should|may"
    r"|might|must|make|makes|made|let|lets|help|helps|helped|keep|keeps|kept|give|gives|gave"
    r"|bring|brings|brought|mean|means|meant|matter|matters|feel|feels|felt|take|takes|took"
    r"|seem|seems|seemed|become|becomes|became|sounds|looks|[a-z]{3,}ly [a-z]{3,}s|"
    + "|".join(sorted(IRREGULAR_PAST))
    + r")\b|['’](?:s|re|ve|ll|d)\b|(?<!\bget )(?<!\bgot )(?<!\bit )(?<!\bbe )(?<!\bbeen )"
    r"\b[a-z]{3,}ed\b",
    re.I,
)
_TO_LISTENER = re.compile(
    r"^(?:just )?(?P<word>[A-Z][a-z]+) (?:the|those|these|that|this|a|an|any|all|every|your"
    r"|yours|yourself|it|them|each|some|more)\b"
)
_NOT_BARE_VERBS = (
    _FEELING_VERBS | FUNCTION_WORDS | word_list("provmem.core.language", "not_bare_verbs")
)
# "X's" before these is "X is" / "X has": "Life's tough", "the studio's been great".
_HAS_NEXT = r"been|got|gotten|had"
_IS_NEXT = (
    r"gonna|going|getting|[a-z]+ing|so|such|too|very|really|super|pretty|all|just|mostly"
    r"|always|never|not|a|an|the|about|from|like|everything|nothing|ok|okay|still|also"
    r"|good|great|nice|tough|hard|huge|fine|perfect|awesome|amazing|cool|fun|small|big"
    r"|short|busy|crazy|hilarious|important|beautiful|incredible|unpredictable|precious"
    r"|on|in|at|here|there|around"
)
# Words after "'s" that only a copula takes (an adverb, a determiner, a preposition): with
# any other (an adjective, an -ing word) the "'s" may be a possessive ("Jon's hard work").
_ONLY_COPULA_NEXT = (
    r"gonna|going|getting|so|such|too|very|really|super|pretty|all|just|mostly|always|never"
    r"|not|a|an|the|about|from|like|everything|nothing|ok|okay|still|also|my|your|his|her"
    r"|our|their|on|in|at|here|there|around"
)
# "It's definitely been ...": "has" also after an adverb.
_HAS_AFTER_ADVERB = re.compile(
    rf"^['’]s (?:[a-z]+ly|just|always|never|still|also) (?:{_HAS_NEXT})\b"
)
_ADJECTIVE_ENDINGS = r"[a-z]{3,}(?:able|ible|ful|ous|ive|ic|al|ent|ant|less)"
_CONTRACTED = re.compile(
    rf"^(?P<lead>[A-Z][a-z]+ly, )?"
    rf"(?P<subject>(?:[A-Z][\w-]*|[Tt]he [\w-]+)(?:['’]s)?(?: [a-z][\w-]*(?:['’]s)?){{0,5}}?)['’]s"
    rf" (?P<next>{_HAS_NEXT}|{_IS_NEXT}|{_ADJECTIVE_ENDINGS}|(?<=name['’]s )[A-Z]\w*"
    r"|my|your|his|her|our|their|[A-Z]\w*['’]s(?= [a-z]))\b(?![-'’])"
)

# A clause whose elided subject is the speaker, opening with a modal or a contraction of
# one ("Can't wait to see it" -> "Maya can't wait ..."; "Gotta focus" -> "Maya has got to").
_MODAL_OPENINGS = {
    "can't": "can't", "cannot": "cannot", "couldn't": "couldn't", "won't": "won't",
    "wouldn't": "wouldn't", "didn't": "didn't", "haven't": "hasn't", "gotta": "has got to",
    "gonna": "is going to", "wanna": "wants to",
}  # fmt: skip
# Verbs in the third person whose elided subject is "it" (what was just said or shown):
# "Reminds me of home" -> "It reminds Maya of home"; "Must have taken a lot of work".
_IT_OPENING = re.compile(
    r"^(?:(?:[Rr]eminds|[Mm]akes|[Gg]ives|[Bb]rings|[Kk]eeps|[Hh]elps|[Ss]ounds|[Ll]ooks"
    r"|[Ss]eems|[Mm]eans|[Ff]eels)\b|[Mm]ust (?:have|be)\b)(?! like\b)"
)


def elided_feeling(body: str) -> tuple[str, int] | None:
    """The verb phrase of a clause that leaves out "I" before a verb of feeling, in the
    third person, and how many words of the clause it replaces ("Love the colors" ->
    ``("loves", 1)``, "Really appreciate it" -> ``("really appreciates", 2)``), or None."""
    words = body.split(maxsplit=3)
    adverbs = 0
    while adverbs < len(words) - 1 and words[adverbs].lower() in _ADVERBS_BEFORE_FEELING:
        adverbs += 1
    first = words[adverbs].lower().strip(",.!") if words else ""
    if first not in _FEELING_VERBS:
        return None
    verb = first[:-1] + "ies" if first.endswith("y") and first != "enjoy" else first + "s"
    return " ".join([*(w.lower() for w in words[:adverbs]), verb]), adverbs + 1


def elided_modal(body: str) -> tuple[str, int] | None:
    """The modal an elided "I" leaves at the start ("Can't wait to see it" ->
    ``("can't", 1)``; "Gotta focus" -> ``("has got to", 1)``), or None."""
    words = body.lower().replace("’", "'").split(maxsplit=2)
    verb = _MODAL_OPENINGS.get(words[0]) if words else None
    if len(words) > 1 and words[1] == "be":
        return None  # "Gonna be a great night": the elided subject is "it", not "I"
    return (verb, 1) if verb else None


def elided_it(body: str) -> bool:
    """Whether the clause opens with a verb whose elided subject is "it" ("Reminds me of
    home", "Must have taken a lot of work")."""
    return _IT_OPENING.match(body) is not None


def with_elided_it(statement: str) -> str:
    """ "Reminds Maya of home." -> "It reminds Maya of home." (the elided "it")."""
    if _IT_OPENING.match(statement) is None:
        return statement
    return "It " + statement[:1].lower() + statement[1:]


def elided_copula(body: str, has_verb: bool) -> bool:
    """Whether the clause leaves out "I'm" before an adjective of feeling ("Really glad to
    have you here") or before a gerund no finite verb follows ("Trying to get it fixed";
    "Painting is my passion" has its subject). ``has_verb``: the clause has a finite verb
    by the extractor's looser test (then the gerund must be followed by none)."""
    adjective = _FEELING_ADJECTIVE.match(body)
    if adjective and adjective.group("word").lower() in _FEELING_ADJECTIVES:
        return True
    gerund = _GERUND.match(body)
    if gerund is None or gerund.group("word").lower() in _NOT_GERUNDS:
        return False
    if _AND_GERUND.match(body, gerund.end()):
        return False  # "Playing and singing let me ...": a compound subject
    return not (has_verb and _FINITE_AFTER.search(body, gerund.end()))


def addressed_imperative(body: str) -> bool:
    """A bare verb addressed to the listener: "Cherish those moments", "Spill the beans"."""
    match = _TO_LISTENER.match(body)
    if match is None:
        return False
    word = match.group("word").lower()
    return word not in _NOT_BARE_VERBS and not word.endswith(("ing", "ed", "ly"))


def spelled_out_copula(statement: str) -> str:
    """ "Pottery's so relaxing" -> "Pottery is so relaxing"; "The studio's been great" ->
    "The studio has been great" (the contraction the subject's "'s" stands for)."""
    match = _CONTRACTED.match(statement)
    if match is None:
        return statement
    if statement.startswith(("Here's", "Here’s")):
        return "Here is" + statement[6:]
    has = _HAS_AFTER_ADVERB.match(statement, match.end("subject")) is not None
    verb = "has" if has or re.fullmatch(_HAS_NEXT, match.group("next")) else "is"
    lead = match.group("lead") or ""
    return f"{lead}{match.group('subject')} {verb}{statement[match.end('subject') + 2 :]}"


def ambiguous_copula(statement: str) -> bool:
    """Whether the "'s" spelled out may be a possessive ("Caroline's painting", "Melanie's
    beautiful ..."): then only a statement with no other finite verb takes "is"."""
    match = _CONTRACTED.match(statement)
    if match is None:
        return False
    word = match.group("next")
    return not (
        re.fullmatch(_ONLY_COPULA_NEXT, word) or re.fullmatch(_HAS_NEXT, word) or word[:1].isupper()
    )


def no_assertion(body: str, has_verb: bool, elided: tuple[str, int] | None) -> bool:
    """A bare verb to the listener ("Cherish those moments") or a fragment without a verb of
    its own ("Three times a week.", "So much since we talked"): an answer or an exclamation
    that needs the other speaker's words to be a sentence, so it is no claim."""
    if elided is not None:
        return False
    if addressed_imperative(body) or verbless_main_clause(body):
        return True
    return not (has_verb or elided_it(body))


def elided_words(body: str, has_verb: bool) -> tuple[str, int] | None:
    """What an elided subject "I" needs: the verb to put before the clause ("Been busy" ->
    ``has``), or the clause's own first words in the third person and how many they are
    ("Love it" -> ``loves``, "Can't wait" -> ``can't``, replacing them), or None when the
    clause has its subject."""
    verb = elided_subject(body)
    if verb is not None:
        return verb, 0
    replaced = elided_feeling(body) or elided_modal(body)
    if replaced is not None:
        return replaced
    return ("is", 0) if elided_copula(body, has_verb) else None


def spelled(statement: str) -> str:
    """The copula a subject's "'s" stands for, spelled out when the statement has no other
    finite verb ("Life's tough" -> "Life is tough"; "Caroline's painting is done" stays)."""
    out = spelled_out_copula(statement)
    if out == statement or not ambiguous_copula(statement):
        return out
    bare = re.sub(r"['’]s\b(?: (?:been|got|gotten|had)\b)?|\bto \w+", "", statement)
    # The clause of the "'s" up to a relative clause or a complement ("Art's awesome for
    # showing who we are", "Life's unpredictable, but ...").
    segment = re.split(r";|,? but |\b(?:who|which|that|what|how|when|for|to)\b", bare)[0]
    return statement if FINITE_WORD.search(segment) or has_finite_verb(segment) else out


def with_subject(statement: str, speaker: str, elided: tuple[str, int]) -> str:
    """The statement with the speaker (and the verb the elision needs) put first."""
    verb, replaces = elided
    words = statement.split(" ", replaces)
    rest = words[-1] if replaces and len(words) > replaces else statement
    rest = rest if replaces else rest[:1].lower() + rest[1:]
    return " ".join(w for w in (speaker, verb, rest) if w)


def elliptical(body: str) -> bool:
    """A verb phrase left to the context: "Yeah, I love to.", "We will if we can"."""
    ellipsis = re.compile(
        r"\b(?:(?:love|like|want|need|have|has|had|try|tried|plan|hope|going|got|used|mean)s?"
        r"\s+to|if\s+\w+\s+can)\W*$",
        re.I,
    )
    return ellipsis.search(body) is not None


# -- answers composed with the question they answer ---------------------------------

# "Where do you work now?", "When do you start?": a wh-word, "do", "you", a verb (and
# what it takes), an optional time adverb; the answer fills the wh-word's place.
_DO_QUESTION = re.compile(
    r"(?i:where|when)\s+(?i:do)\s+you\s+(?P<verb>[a-z]+)(?P<rest>(?:\s+[a-z]+){0,2}?)"
    r"(?P<adverb>\s+(?:now|these days|currently|usually|nowadays))?\s*\?$"
)
# "Where are you moving?", "Where are you from?": "are you" and a gerund or "from".
_BE_QUESTION = re.compile(
    r"(?i:where|when)\s+(?i:are)\s+you\s+(?P<verb>[a-z]+ing|from|based|staying|living)"
    r"(?P<rest>(?:\s+[a-z]+){0,2}?)(?P<adverb>\s+(?:now|these days|currently))?\s*\?$"
)
# "What is your favourite film?" -> "<Answer> is"; "your" names the one who answers.
_YOUR_QUESTION = re.compile(
    r"(?i:what|who)(?:['’]s|\s+is|\s+are)\s+your\s+(?P<thing>[a-z]+(?:\s+[a-z]+){0,2})\s*\?$"
)
_PLACE_OR_TIME = re.compile(
    r"(?i:at|in|on|near|from|to|with|for|since|by|around|outside|inside|downtown|abroad"
    r"|home|next|last|this|every)\b"
)
_MAX_ANSWER_WORDS = 8
_NOT_AN_ANSWER = re.compile(
    r"\b(?i:yes|yeah|yep|no|nope|not|sure|maybe|probably|me|too|i|you|my|your|thanks|dunno)\b"
)


def answer_statement(question: str, answer: str, answerer: str) -> str | None:
    """A verbless answer made a sentence with the question it answers, when the question's
    frame maps cleanly: a wh-question to the answerer ("you") with a verb phrase, or
    "what is your X"; anything else (a yes/no question, a third person, an answer with a
    verb of its own, a long answer) is None and the answer stays raw evidence.

    >>> answer_statement("Where do you work now?", "At the library downtown.", "Ann")
    'Ann now works at the library downtown.'
    >>> answer_statement("Where does she work?", "At the library.", "Ann") is None
    True
    """
    said = answer.strip().rstrip(".!… ").strip()
    if not said or "?" in said or has_finite_verb(said) or len(said.split()) > _MAX_ANSWER_WORDS:
        return None
    if _NOT_AN_ANSWER.search(said):
        return None  # "Yeah, me too", "Not sure": a reply, not the value asked for
    asked = _last_question(question)
    framed = _do_frame(asked, said, answerer) or _be_frame(asked, said, answerer)
    return framed or _your_frame(asked, said, answerer)


def _last_question(text: str) -> str:
    questions = re.findall(r"[^.!?]*\?", text)
    return questions[-1].strip() if questions else ""


def _do_frame(asked: str, said: str, answerer: str) -> str | None:
    match = _DO_QUESTION.search(asked)
    if match is None or not _PLACE_OR_TIME.match(said):
        return None
    verb = third_person(match.group("verb").lower())
    adverb = (match.group("adverb") or "").strip()
    lead = f"{answerer} {adverb} {verb}" if adverb else f"{answerer} {verb}"
    return f"{lead}{match.group('rest')} {_lowered(said)}."


def _be_frame(asked: str, said: str, answerer: str) -> str | None:
    match = _BE_QUESTION.search(asked)
    if match is None:
        return None
    verb = match.group("verb").lower()
    if verb != "from" and not _PLACE_OR_TIME.match(said):
        return None
    adverb = (match.group("adverb") or "").strip()
    tail = f" {adverb}" if adverb else ""
    return f"{answerer} is {verb}{match.group('rest')} {_lowered(said)}{tail}."


def _your_frame(asked: str, said: str, answerer: str) -> str | None:
    match = _YOUR_QUESTION.search(asked)
    if match is None or _PLACE_OR_TIME.match(said):
        return None
    verb = "are" if asked.lower().split()[1:2] == ["are"] else "is"
    return f"{answerer}'s {match.group('thing').lower()} {verb} {said}."


def _lowered(said: str) -> str:
    """The answer's first word in lower case unless it is a name ("At" -> "at")."""
    first = said.split(" ", 1)[0]
    return said[:1].lower() + said[1:] if first.lower() in FUNCTION_WORDS else said
