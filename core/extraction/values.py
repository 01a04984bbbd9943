"""Value-state readings: (holder, attribute phrase, value, time) wherever a value is said.

A value is state wherever it is said: in a statement, a question, a request or a
subordinate clause ("I've only sold 4 of the prints so far, is that normal?" reads as
(speaker, "prints sold", 4)). The reader takes a parsed turn (core/language/parsed.py)
and returns one :class:`ValueReading` per value: amounts, counts, percentages, money,
dates, versions, and the names and places that a copula or a living/working frame
assigns ("my cat's name is Pixie", "I now work at Swedish Medical Center").

- **value**: an entity of the parse (MONEY, PERCENT, QUANTITY, CARDINAL, DATE, TIME,
  and the proper names of a copula or a frame), or a version number after a name;
- **attribute**: the noun phrase the value measures: the noun it counts ("30 titles"),
  the subject of its clause ("my reading list has grown to 30 titles"), the verb it is
  the object of ("sold 4 of the prints": "prints sold"); when the clause names none
  ("after the first pass I'm at 40%"), the nearest noun phrase of the turn before it.
  ``context`` is the sentence it was said in: the matcher compares both by meaning;
- **holder**: the speaker, unless the clause's subject or the attribute's possessor is a
  named person or a person noun ("my sister's rent", "Dana works at...");
- **time**: a relative time said in the clause ("last month", "so far"), if any;
- **changed**: the clause says the value changed or corrects it ("now", "new", "has
  grown to", "actually", "not X").

Pure: no I/O beyond the package's word files.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from provmem.core.extraction.attributes import change_cue
from provmem.core.language.parsed import Entity, ParsedText, Token
from provmem.core.language.wordlists import word_list

#: People a holder may be ("my sister", "her husband"): kin, partners, friends and roles.
PERSON_NOUNS = word_list("provmem.core.extraction", "person_nouns")
#: Verbs and adverbs that say a value changed or is corrected (see words/change_words.txt).
CHANGE_WORDS = word_list("provmem.core.extraction", "change_words")
#: Verbs whose place or organisation object is where the holder is: lives in, works at.
WHERE_VERBS = word_list("provmem.core.extraction", "where_verbs")
#: Verbs that give a thing its name ("the shop is now called X", "we named the puppy X").
NAMING_VERBS = {"name", "named", "call", "called", "rename", "renamed", "dub", "dubbed"}
#: Verbs whose "at/by/for" organisation is an employer ("hired by", "started at").
_JOB_VERBS = {"hire", "employ", "start", "begin", "intern", "volunteer"}
#: Naming verbs whose object is who is called, not a name: "call Tara" is a phone call.
_CALLING = {"call"}
#: Where-verbs of a state (not an event): their simple past is a state that has ended.
_STATE_VERBS = {"live", "work", "study", "stay", "base"}
_AUXILIARIES = {"aux", "auxpass"}
#: Where-verb attributes that are a person's; a thing's is its place.
_WHERE_OF_PEOPLE = {"home city", "employer"}
#: Where a where-verb's object is a place or employer ("lives in", "works for"), not a
#: companion ("lives with my partner Dev") or a place left ("moved from Leeds").
_WHERE_PREPOSITIONS = {"in", "at", "to", "for", "near", "into"}
#: Homes whose "in X" is where the holder lives ("a small place in Oakland").
_HOME_NOUNS = {"place", "house", "home", "apartment", "flat", "condo", "townhouse", "studio"}
#: What a where-verb's object is the value of: "moved to Denver" says where one lives.
WHERE_ATTRIBUTES = {
    "live": "home city", "lives": "home city", "lived": "home city", "living": "home city",
    "move": "home city", "moved": "home city", "moving": "home city",
    "relocate": "home city", "relocated": "home city", "stay": "home city",
    "stays": "home city", "based": "home city",
    "work": "employer", "works": "employer", "worked": "employer", "working": "employer",
    "join": "employer", "joined": "employer",
    "study": "school", "studies": "school", "studied": "school",
}  # fmt: skip

_NUMBER_LABELS = {"MONEY", "PERCENT", "QUANTITY", "CARDINAL"}
_TIME_LABELS = {"DATE", "TIME"}
_NAME_LABELS = {"PERSON", "GPE", "LOC", "ORG", "FAC", "NORP", "PRODUCT"}
_PRONOUNS = {"i", "me", "we", "us", "you", "it", "they", "them", "that", "this", "he", "she"}
_SPEAKER_WORDS = {"i", "me", "my", "we", "our", "us", "mine"}
_THIRD = {"he", "she", "his", "her", "him", "they", "their"}
_DIGIT = re.compile(r"\d")
_MONTH = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\b\d{4}\b", re.I
)
_MONTH_NAME = re.compile(
    r"^(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?"
    r"|oct(ober)?|nov(ember)?|dec(ember)?)$",
    re.I,
)
_CODE = re.compile(r"`|==|\(\)|[{}]|\w\.\w+\(|^\s*[$>#] ")
_VERSION = re.compile(r"^v?\d+(\.\d+)+$")
#: Words around a number that say it is approximate ("about 40" is the value 40).
_APPROXIMATELY = re.compile(r"^(about|around|roughly|nearly|almost|approximately|some|over)\s+")
#: Words of a wish or plan: a value under them is a goal, not a state ("my goal is to
#: hit 100 loaves", "I'd love to go under 3:45").
_INTENTIONS = {
    "goal", "target", "aim", "plan", "hope", "want", "wish", "love", "like", "try",
    "dream", "intend", "expect", "would",
}  # fmt: skip
_ARGUMENTS = {"nsubj", "nsubjpass", "dobj", "attr", "oprd"}
_SUBJECTS = {"nsubj", "nsubjpass"}


class ValueKind(StrEnum):
    MONEY = "money"
    PERCENT = "percent"
    QUANTITY = "quantity"
    COUNT = "count"
    DATE = "date"
    VERSION = "version"
    NAME = "name"


#: Kinds of value one attribute can hold in turn (a count said as a quantity, a place
#: said as an organisation): the matcher compares values within a group only.
KIND_GROUP = {
    ValueKind.MONEY: "money",
    ValueKind.PERCENT: "percent",
    ValueKind.QUANTITY: "amount",
    ValueKind.COUNT: "amount",
    ValueKind.DATE: "date",
    ValueKind.VERSION: "version",
    ValueKind.NAME: "name",
}


@dataclass(frozen=True)
class ValueReading:
    """One value said in a turn, with what it is the value of and whose."""

    holder: str
    attribute: str
    value: str
    kind: ValueKind
    said: str
    context: str
    start: int
    end: int
    time: str | None = None
    changed: bool = False
    aliases: tuple[str, ...] = ()
    """The holder's other names in the turn ("my brother Tom": "brother" and "Tom")."""

    @property
    def group(self) -> str:
        return KIND_GROUP[self.kind]


def read_values(parsed: ParsedText, speaker: str) -> list[ValueReading]:
    """Every value the speaker's turn states, in text order (one per value said)."""
    readings: list[ValueReading] = []
    seen: set[tuple[str, str]] = set()
    for first, last, kind in _values(parsed):
        reading = _reading(parsed, first, last, kind, speaker)
        if reading is None or (reading.attribute, reading.value) in seen:
            continue
        seen.add((reading.attribute, reading.value))
        readings.append(reading)
    return readings


def read_turn_values(
    turn: ParsedText,
    statements: Sequence[tuple[ParsedText, tuple[int, int]]],
    speaker: str,
) -> list[ValueReading]:
    """The values of a turn read from its text and from the statements extracted from it
    (each with its span in the turn): a statement's regular form ("Maya works at X.") reads
    what the turn's wording may hide. One reading per holder, attribute and value."""
    found = read_values(turn, speaker)
    keys = {(r.holder, r.attribute, r.value) for r in found}
    for parsed, (start, end) in statements:
        for reading in read_values(parsed, speaker):
            key = (reading.holder, reading.attribute, reading.value)
            if key not in keys:
                keys.add(key)
                found.append(replace(reading, start=start, end=end))
    return found


def normalized(said: str, kind: ValueKind) -> str:
    """A value as compared: lower case, no currency signs, spaces or thousands commas."""
    text = said.lower().strip()
    if kind in (ValueKind.NAME, ValueKind.DATE):
        text = re.sub(r"^(the|a|an)\s+", "", text)
        return re.sub(r"\s+", " ", re.sub(r"[^\w\s.-]", "", text)).strip()
    text = _APPROXIMATELY.sub("", text)
    return re.sub(r"[\s,$£€]|percent|per cent", "", text).replace("%", "")


def _values(parsed: ParsedText) -> list[tuple[int, int, ValueKind]]:
    found = _month_days(parsed)
    taken = {i for first, last, _ in found for i in range(first, last)}
    for entity in _merged(parsed):
        if any(i in taken for i in range(entity.first, entity.last)):
            continue
        kind = _entity_kind(parsed, entity)
        if kind is not None and not _denied(parsed, entity.first, entity.last):
            first = _after_to(parsed, entity)
            last = entity.first + 1 if kind is ValueKind.VERSION else entity.last
            found.append((first, last, kind))
            taken.update(range(entity.first, entity.last))
    for index, token in enumerate(parsed.tokens):
        if index in taken:
            continue
        if _VERSION.match(token.text) and _after_name(parsed, index):
            found.append((index, index + 1, ValueKind.VERSION))
        elif (
            token.pos == "PROPN"
            and token.dep in ("attr", "oprd", "dobj", "pobj", "appos", "nsubj")
            and _assigned_name(parsed, index)
            and not _denied(parsed, index, index + 1)
        ):
            found.append((_compound_start(parsed, index), index + 1, ValueKind.NAME))
    return sorted(found)


def _after_to(parsed: ParsedText, entity: Entity) -> int:
    """Where the new value of a "30 to 40" entity starts (the whole entity otherwise)."""
    for index in range(entity.last - 2, entity.first, -1):
        if parsed.tokens[index].lower in ("to", "-", "–"):
            return index + 1
    return entity.first


def _month_days(parsed: ParsedText) -> list[tuple[int, int, ValueKind]]:
    """Day-and-month dates the entity tagger may miss ("is 9 May", "May 9th")."""
    found = []
    tokens = parsed.tokens
    for index, token in enumerate(tokens):
        if token.pos != "PROPN" or not _MONTH_NAME.match(token.text):
            continue
        first = index - 1 if index > 0 and tokens[index - 1].text.isdigit() else index
        last = index + 1
        if last < len(tokens) and re.match(r"^\d{1,2}(st|nd|rd|th)?$", tokens[last].text):
            last += 1
        if first == index and last == index + 1:
            continue
        if last < len(tokens) and re.match(r"^\d{4}$", tokens[last].text):
            last += 1
        found.append((first, last, ValueKind.DATE))
    return found


def _merged(parsed: ParsedText) -> list[Entity]:
    """Entities with a number run into the month right after it ("9" + "May")."""
    merged: list[Entity] = []
    for entity in parsed.entities:
        last = merged[-1] if merged else None
        if (
            last is not None
            and last.label == "CARDINAL"
            and entity.label in _TIME_LABELS
            and last.last == entity.first
            and _MONTH.search(parsed.span_text(entity.first, entity.last)) is not None
        ):
            merged[-1] = Entity(entity.label, last.first, entity.last)
        else:
            merged.append(entity)
    return merged


def _entity_kind(parsed: ParsedText, entity: Entity) -> ValueKind | None:
    said = parsed.span_text(entity.first, entity.last)
    label = entity.label
    if label == "MONEY":
        return ValueKind.MONEY
    if label == "PERCENT":
        return ValueKind.PERCENT
    if label == "QUANTITY":
        return ValueKind.QUANTITY
    if label == "CARDINAL":
        return _cardinal_kind(parsed, entity, said)
    if label in _TIME_LABELS:
        if _VERSION.match(parsed.tokens[entity.first].text) and _after_name(parsed, entity.first):
            return ValueKind.VERSION
        return ValueKind.DATE if _DIGIT.search(said) or _MONTH.search(said) else None
    if label in _NAME_LABELS:
        root = _root_of(parsed, entity.first, entity.last)
        return ValueKind.NAME if _assigned_name(parsed, root) else None
    return None


def _cardinal_kind(parsed: ParsedText, entity: Entity, said: str) -> ValueKind | None:
    if not _DIGIT.search(said) and entity.last - entity.first == 1:
        word = parsed.tokens[entity.first].lower
        if word in {"one", "a", "an"}:
            return None  # "one of the...", an article, not a count worth tracking
    if _VERSION.match(said) and _after_name(parsed, entity.first):
        return ValueKind.VERSION
    return ValueKind.COUNT


def _denied(parsed: ParsedText, first: int, last: int) -> bool:
    """The value is the one a correction denies ("Pixie, not Pixel"): a negation right
    before it or hanging on it from before."""
    before = parsed.tokens[first - 1] if first > 0 else None
    return (before is not None and before.dep == "neg") or any(
        parsed.tokens[child].dep == "neg" and child < first
        for index in range(first, last)
        for child in parsed.children(index)
    )


def _after_name(parsed: ParsedText, index: int) -> bool:
    return index > 0 and parsed.tokens[index - 1].pos == "PROPN"


def _assigned_name(parsed: ParsedText, index: int) -> bool:
    """A name the clause assigns: the complement of a copula ("my cat's name is Pixie"),
    the place or employer of a where-verb ("lives in Portland", "works at Acme"), the
    name a thing is given ("the shop is now called Fern"), an organisation one has a job
    at ("a nurse at Mercy Hospital")."""
    token = parsed.tokens[index]
    if token.dep in ("attr", "appos") and _copular_name(parsed, index):
        return True
    return _framed_name(parsed, index) is not None


def _framed_name(parsed: ParsedText, index: int) -> str | None:
    """The attribute a where-verb, a naming verb or a job gives the name at ``index``."""
    token = parsed.tokens[index]
    head = parsed.tokens[token.head]
    if _named_by(token, head):
        return f"{_named_thing(parsed, index, token.head)} name".strip()
    thing = _named_beside(parsed, index)
    if thing is not None:
        return f"{_phrase(parsed, thing)} name"
    if token.dep not in ("pobj", "dobj"):
        return None
    changed = _changed_object(parsed, index)
    if changed is not None:
        return _phrase(parsed, changed)
    at = head.head if token.dep == "pobj" else token.head
    verb = parsed.tokens[at]
    where_to = token.dep == "dobj" or head.lower in _WHERE_PREPOSITIONS
    if verb.pos in ("VERB", "AUX") and where_to:
        where = WHERE_ATTRIBUTES.get(verb.lower) or WHERE_ATTRIBUTES.get(verb.lemma)
        if where is not None:
            return None if _past_state(parsed, at) else where
    if token.dep == "pobj" and head.lower == "in" and verb.lower in _HOME_NOUNS:
        return "home city"
    at_job = token.dep == "pobj" and head.lower in ("at", "for", "with", "by")
    be_at = verb.lemma == "be" and head.lower == "at"
    job = verb.pos == "NOUN" or verb.lemma in _JOB_VERBS or be_at
    employer = token.entity in ("ORG", "FAC") or token.entity == "PERSON" and verb.pos == "VERB"
    if at_job and employer and job:
        return "employer"
    return None


def _named_by(token: Token, verb: Token) -> bool:
    """A name a naming verb gives: its object complement ("the shop is called Fern"), or
    the object of "name" ("we named the puppy Biscuit"); the object of "call" is the one
    called ("remind me to call Tara"), not a name given."""
    lemma = verb.lemma or verb.lower
    if lemma not in NAMING_VERBS:
        return False
    return token.dep == "oprd" or token.dep == "dobj" and lemma not in _CALLING


def _past_state(parsed: ParsedText, verb: int) -> bool:
    """A where-verb's state that held before and holds no longer: "we lived in Glasgow for
    6 years before", "I was based in Lyon", "I used to work at Acme" (the simple past of a
    state; "we moved to Leeds", an event, says where one lives now)."""
    token = parsed.tokens[verb]
    if token.lemma not in _STATE_VERBS:
        return False
    auxiliaries = [c for c in parsed.children(verb) if parsed.tokens[c].dep in _AUXILIARIES]
    if token.tag == "VBD" or any(parsed.tokens[c].tag == "VBD" for c in auxiliaries):
        return True
    head = parsed.tokens[token.head]
    return token.dep == "xcomp" and head.lemma == "use" and head.tag == "VBD"


def _named_beside(parsed: ParsedText, index: int) -> int | None:
    """The thing a name stands beside ("my protagonist, Elena,", "my cat Pixel"): a
    speaker's noun that is not a person (a person's name is who they are, not a value)."""
    tokens = parsed.tokens
    token = tokens[index]
    if token.dep == "appos":
        noun = token.head
    elif index > 0 and tokens[index - 1].pos == "NOUN" and tokens[index - 1].dep != "compound":
        noun = index - 1
    else:
        return None
    owner = [c for c in parsed.children(noun) if tokens[c].dep == "poss"]
    mine = bool(owner) and tokens[owner[0]].lower in _SPEAKER_WORDS
    if tokens[noun].pos != "NOUN" or _is_person(parsed, noun) or not mine:
        return None
    return noun


def _named_thing(parsed: ParsedText, name: int, verb: int) -> str:
    """What a naming verb names: its passive subject or object ("the shop is called X",
    "named the puppy X", "a blog called X")."""
    tokens = parsed.tokens
    for child in [*parsed.children(name), *parsed.children(verb)]:
        if (
            tokens[child].dep in ("nsubjpass", "dobj", "compound")
            and tokens[child].pos
            in (
                "NOUN",
                "ADJ",
            )
            and tokens[child].lower == tokens[child].text
        ):
            return tokens[child].lower
    if tokens[verb].dep == "acl":
        return tokens[tokens[verb].head].lower
    return ""


def _copular_name(parsed: ParsedText, index: int) -> bool:
    token = parsed.tokens[index]
    head = parsed.tokens[token.head]
    if token.dep == "appos":
        return _copular_name(parsed, token.head) if head.dep == "attr" else False
    subject = _subject(parsed, token.head)
    return head.lemma == "be" and subject is not None and parsed.tokens[subject].pos == "NOUN"


def _compound_start(parsed: ParsedText, index: int) -> int:
    start = index
    while (
        start > 0
        and parsed.tokens[start - 1].dep == "compound"
        and (parsed.tokens[start - 1].pos == "PROPN")
    ):
        start -= 1
    return start


def _reading(
    parsed: ParsedText, first: int, last: int, kind: ValueKind, speaker: str
) -> ValueReading | None:
    root = _root_of(parsed, first, last)
    said = parsed.span_text(first, last)
    if kind is ValueKind.MONEY and first > 0 and parsed.tokens[first - 1].text in "$£€":
        said = parsed.tokens[first - 1].text + said
    value = normalized(said, kind)
    if not value:
        return None
    attribute, owner = _attribute(parsed, root, first, last, kind)
    if not attribute:
        return None
    sentence = parsed.sentence_of(root)
    context = parsed.span_text(*sentence)
    if _CODE.search(context):
        return None  # a value in code or markup is not a state of the holder
    holder, aliases = _holder(parsed, owner, speaker)
    names = {holder.lower(), speaker.lower()}
    attribute = " ".join(w for w in attribute.split() if w not in names)  # "Rosa can bake 12"
    if not attribute or _intended(parsed, root):
        return None  # no attribute but a name ("Kofi is up to 42"), or a goal
    return ValueReading(
        holder=holder,
        aliases=aliases,
        attribute=attribute,
        value=value,
        kind=kind,
        said=said,
        context=context,
        start=parsed.tokens[first].start,
        end=parsed.tokens[last - 1].start + len(parsed.tokens[last - 1].text),
        time=_time(parsed, sentence, first, last),
        changed=_changed(parsed, sentence, root),
    )


def _intended(parsed: ParsedText, root: int) -> bool:
    """The value is under a wish or plan: a verb or subject of its clause chain is one."""
    index, seen = root, 0
    while seen < 8:
        token = parsed.tokens[index]
        if (token.lemma or token.lower) in _INTENTIONS and token.pos in ("VERB", "AUX", "NOUN"):
            return True
        subject = _subject(parsed, index) if token.pos in ("VERB", "AUX") else None
        if subject is not None and parsed.tokens[subject].lower in _INTENTIONS:
            return True
        if token.head == index:
            return False
        index, seen = token.head, seen + 1
    return False


def _root_of(parsed: ParsedText, first: int, last: int) -> int:
    """The token of ``[first, last)`` whose head lies outside it."""
    for index in range(first, last):
        head = parsed.tokens[index].head
        if head == index or not first <= head < last:
            return index
    return last - 1


def _attribute(
    parsed: ParsedText, root: int, first: int, last: int, kind: ValueKind
) -> tuple[str, int | None]:
    """The attribute phrase and the token that owns it (for the holder)."""
    tokens = parsed.tokens
    counted = _counted(parsed, root)
    noun = _noun_of(parsed, root) if counted is None else None
    noun = _changed_object(parsed, root) if noun is None and counted is None else noun
    predicate = _predicate(parsed, counted if counted is not None else root)
    subject = _subject(parsed, predicate) if predicate is not None else None
    where = _framed_name(parsed, root) if kind is ValueKind.NAME else None
    words: list[str] = []
    owner: int | None = subject if subject is None or not first <= subject < last else None
    if where is not None:
        words.append(_place_of(parsed, subject) or where if where in _WHERE_OF_PEOPLE else where)
    elif noun is not None:
        words.append(_phrase(parsed, noun))
        owner = noun
    elif subject is not None and _describes(parsed, subject):
        if not _is_person(parsed, subject) or tokens[root].dep == "attr":
            words.append(_phrase(parsed, subject))
            words += _qualifiers(parsed, predicate, root)
    if counted is not None:
        words.append(_phrase(parsed, counted))
        owner = owner if owner is not None else counted
    if kind is ValueKind.DATE and not _date_state(parsed, predicate, noun, words, root):
        return "", owner  # the date of an event ("went there on 7 May"): not a state
    if predicate is not None and noun is None and where is None and len(words) < 2:
        verb = tokens[predicate]
        if verb.pos == "VERB" and verb.lemma not in ("be", "have") and (counted or not words):
            words.append(_verb_phrase(parsed, predicate, root))
    if not words:
        words.append(_topic_before(parsed, first))
    return " ".join(w for w in words if w).strip(), owner


def _describes(parsed: ParsedText, subject: int) -> bool:
    """A subject that names what the value is of ("the translation is 70% done", "Acme's
    headcount"), not its holder: a noun, or a proper name that is not a person's ("Rosa
    can bake 12 loaves": Rosa holds the value, "loaves" says what of)."""
    token = parsed.tokens[subject]
    if token.pos == "NOUN":
        return True
    return token.pos == "PROPN" and token.entity not in ("PERSON", "")


def _place_of(parsed: ParsedText, subject: int | None) -> str:
    """Where a where-verb puts its subject: a person's home city or employer, a thing's
    place ("Lena's shop moved to Scottsdale": the shop's place, not a home)."""
    token = parsed.tokens[subject] if subject is not None else None
    if token is None or token.pos != "NOUN" or token.text != token.lower:
        return ""  # no subject, or a name (the tagger may call "Ravi" a noun)
    if _is_person(parsed, subject or 0):
        return ""
    return f"{_phrase(parsed, subject or 0)} place"


def _date_state(
    parsed: ParsedText, predicate: int | None, noun: int | None, words: list[str], root: int
) -> bool:
    """A date is a state's value when a noun holds it ("the deadline is 9 May", "a
    deadline of 9 May", "moved the appointment to 3 June"), not when it dates an event."""
    if noun is not None:
        return True
    verb = parsed.tokens[predicate] if predicate is not None else None
    token = parsed.tokens[root]
    said_of = token.dep == "attr" or (  # "is 9 May", "is due on 9 May"; not "in 2024"
        token.dep == "pobj" and parsed.tokens[parsed.tokens[token.head].head].pos == "ADJ"
    )
    return bool(words) and verb is not None and verb.lemma == "be" and said_of


def _qualifiers(parsed: ParsedText, predicate: int | None, root: int) -> list[str]:
    """What narrows a subject's value: the adjective of its copula ("is due") and what the
    value is for ("due on 3 May for the first chapter")."""
    words: list[str] = []
    heads = [root] if predicate is None else [predicate, root]
    for head in heads:
        for child in parsed.children(head):
            token = parsed.tokens[child]
            if token.dep == "acomp" and token.pos == "ADJ":
                words.append(token.lower)
            elif token.dep == "prep" and token.lower == "for":
                objects = [c for c in parsed.children(child) if parsed.tokens[c].dep == "pobj"]
                if objects and parsed.tokens[objects[0]].pos == "NOUN":
                    words.append(f"for {_phrase(parsed, objects[0])}")
    return words


def _changed_object(parsed: ParsedText, root: int) -> int | None:
    """The thing a verb changes to the value: "raised the budget to $15,000", "changed
    the band name to The Owls"."""
    token = parsed.tokens[root]
    if token.dep != "pobj" or parsed.tokens[token.head].lower not in ("to", "from"):
        return None
    verb = parsed.tokens[token.head].head
    if parsed.tokens[verb].pos != "VERB":
        return None
    objects = [c for c in parsed.children(verb) if parsed.tokens[c].dep in ("dobj", "nsubjpass")]
    found = [c for c in objects if parsed.tokens[c].pos == "NOUN"]
    return found[0] if found else None


def _noun_of(parsed: ParsedText, root: int) -> int | None:
    """The noun a value is the object of ("a budget of $500", "the party on June 3") or
    stands beside ("the deadline, 9 May")."""
    token = parsed.tokens[root]
    if token.dep in ("appos", "compound") and parsed.tokens[token.head].pos == "NOUN":
        return token.head
    if token.dep != "pobj":
        return None
    prep = parsed.tokens[token.head]
    owner = parsed.tokens[prep.head]
    return prep.head if owner.pos == "NOUN" and prep.head != token.head else None


def _counted(parsed: ParsedText, root: int) -> int | None:
    """The noun a number counts: "30 titles", "4 of the prints"."""
    token = parsed.tokens[root]
    if token.dep in ("nummod", "quantmod") and parsed.tokens[token.head].pos in ("NOUN", "PROPN"):
        return token.head
    for child in parsed.children(root):
        if parsed.tokens[child].lower == "of":
            objects = [c for c in parsed.children(child) if parsed.tokens[c].dep == "pobj"]
            if objects:
                return objects[0]
    return None


def _predicate(parsed: ParsedText, index: int) -> int | None:
    """The verb (or adjective) whose clause the value or its noun sits in."""
    seen = 0
    while seen < 6:
        token = parsed.tokens[index]
        if token.pos in ("VERB", "AUX") or token.dep in ("ROOT", "ccomp", "conj", "advcl", "relcl"):
            return index if token.pos in ("VERB", "AUX", "ADJ") else None
        if token.head == index:
            return None
        index = token.head
        seen += 1
    return None


def _subject(parsed: ParsedText, predicate: int) -> int | None:
    for child in parsed.children(predicate):
        if parsed.tokens[child].dep in ("nsubj", "nsubjpass"):
            return child
    token = parsed.tokens[predicate]
    if token.dep in ("xcomp", "conj", "acomp") and token.head != predicate:
        return _subject(parsed, token.head)
    return None


def _phrase(parsed: ParsedText, head: int) -> str:
    """A noun phrase's content words (compounds, the noun, its "of/in/for" object)."""
    words = [
        parsed.tokens[c].lower
        for c in parsed.children(head)
        if c < head
        and (
            parsed.tokens[c].dep == "compound"
            or parsed.tokens[c].dep == "poss"
            and parsed.tokens[c].pos == "NOUN"
            and not _is_person(parsed, c)
        )
    ]
    words.append(parsed.tokens[head].lower)
    for child in parsed.children(head):
        token = parsed.tokens[child]
        if child > head and token.dep == "prep" and token.lower in ("of", "for", "in", "on"):
            objects = [c for c in parsed.children(child) if parsed.tokens[c].dep == "pobj"]
            if objects and parsed.tokens[objects[0]].pos in ("NOUN", "PROPN"):
                words += [token.lower, parsed.tokens[objects[0]].lower]
    return " ".join(words)


def _verb_phrase(parsed: ParsedText, verb: int, value: int) -> str:
    """The verb and the preposition before the value: "work at", "sold"."""
    word = parsed.tokens[verb].lower
    head = parsed.tokens[value].head
    if parsed.tokens[value].dep == "pobj" and parsed.tokens[head].head == verb:
        return f"{word} {parsed.tokens[head].lower}"
    return word


def _topic_before(parsed: ParsedText, first: int) -> str:
    """The nearest noun phrase of the turn before the value."""
    nouns = [
        i
        for i, t in enumerate(parsed.tokens)
        if t.pos == "NOUN" and t.dep in _ARGUMENTS and not t.entity
    ]
    before = [i for i in nouns if i < first]
    chosen = before[-1] if before else None  # a noun after it is another clause's
    if chosen is None:
        return ""
    verb = parsed.tokens[parsed.tokens[chosen].head]
    doing = verb.pos == "VERB" and verb.lemma not in ("be", "have", "do", "get")
    return f"{verb.lower} {_phrase(parsed, chosen)}" if doing else _phrase(parsed, chosen)


def _is_person(parsed: ParsedText, index: int) -> bool:
    token = parsed.tokens[index]
    return token.entity == "PERSON" or token.lower in PERSON_NOUNS


def _holder(parsed: ParsedText, owner: int | None, speaker: str) -> tuple[str, tuple[str, ...]]:
    """Whose value it is, and the holder's other names in the turn: a named person or a
    person noun owning the attribute (its subject or possessor), else the speaker."""
    if owner is None:
        return speaker, ()
    for index in (owner, *_beside(parsed, owner), *_possessors(parsed, owner)):
        token = parsed.tokens[index]
        if token.lower in _SPEAKER_WORDS:
            return speaker, ()
        if _is_person(parsed, index) or token.pos == "PROPN" and token.dep == "poss":
            return _person(parsed, index), _other_names(parsed, index)
        if token.lower in _THIRD:
            found = _last_person(parsed, index)
            if found is None:
                return speaker, ()
            return _person(parsed, found), _other_names(parsed, found)
    return speaker, ()


def _beside(parsed: ParsedText, owner: int) -> list[int]:
    """What stands in apposition to a subject ("Anika, my sister, is ..."), as the parser
    may read it: the subject's apposition, or a second subject of its verb."""
    token = parsed.tokens[owner]
    found = [c for c in parsed.children(owner) if parsed.tokens[c].dep == "appos"]
    if token.dep in _SUBJECTS and token.head != owner:
        found += [
            c
            for c in parsed.children(token.head)
            if c != owner and parsed.tokens[c].dep in _SUBJECTS
        ]
    return found


def _other_names(parsed: ParsedText, index: int) -> tuple[str, ...]:
    """A person's other name beside it: "my brother Tom", "Anika, my sister" (an
    apposition either way, or a second subject of one verb)."""
    token = parsed.tokens[index]
    near = [c for c in parsed.children(index) if parsed.tokens[c].dep in ("appos", "compound")]
    if token.dep in ("appos", "compound"):
        near.append(token.head)
    near += _beside(parsed, index) if token.dep in _SUBJECTS else []
    names = [_person(parsed, c) for c in dict.fromkeys(near) if _names_one(parsed, c)]
    return tuple(n for n in names if n != _person(parsed, index))


def _names_one(parsed: ParsedText, index: int) -> bool:
    """A person noun or a name (a proper noun the tagger may leave untyped, "Anika")."""
    token = parsed.tokens[index]
    if _is_person(parsed, index):
        return True
    return token.text[:1].isupper() and token.entity in ("", "PERSON") and token.pos != "PRON"


def _possessors(parsed: ParsedText, index: int) -> list[int]:
    chain: list[int] = []
    current = index
    while len(chain) < 3:
        owners = [c for c in parsed.children(current) if parsed.tokens[c].dep == "poss"]
        if not owners:
            break
        current = owners[0]
        chain.append(current)
    return chain


def _person(parsed: ParsedText, index: int) -> str:
    token = parsed.tokens[index]
    if token.entity == "PERSON" or token.pos == "PROPN":
        return parsed.span_text(_compound_start(parsed, index), index + 1)
    return f"{token.lower}"


def _last_person(parsed: ParsedText, before: int) -> int | None:
    for index in range(before - 1, -1, -1):
        if _is_person(parsed, index):
            return index
    return None


def _time(parsed: ParsedText, sentence: tuple[int, int], first: int, last: int) -> str | None:
    """A relative time said in the value's sentence ("last month"), not a value itself."""
    for entity in parsed.entities:
        if entity.label not in _TIME_LABELS or not sentence[0] <= entity.first < sentence[1]:
            continue
        if entity.first < last and first < entity.last:
            continue
        said = parsed.span_text(entity.first, entity.last)
        if not _DIGIT.search(said):
            return said.lower()
    return None


def _changed(parsed: ParsedText, sentence: tuple[int, int], root: int) -> bool:
    """The value's sentence says it changed or corrects it."""
    words = parsed.tokens[sentence[0] : sentence[1]]
    if any((t.lemma or t.lower) in CHANGE_WORDS or t.lower in CHANGE_WORDS for t in words):
        return True
    if any(t.dep == "neg" and t.head != root and _near(t, root) for t in words):
        return True
    return change_cue(parsed.span_text(*sentence))


def _near(token: Token, root: int) -> bool:
    return abs(token.head - root) <= 3
