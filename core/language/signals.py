"""Typed signals: cues in a turn's text, each with its character span.

:func:`find_signals` is pure and deterministic: the same text, speaker and capture
time always give the same signals, sorted by position.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from provmem.core.claim import Signal, SignalKind
from provmem.core.language.lexicon import (
    CALENDAR_WORDS,
    FIRST_PERSON,
    FUNCTION_WORDS,
    NOT_NAMES,
    ORGANISATION_SUFFIXES,
    PLACE_PREPOSITIONS,
)
from provmem.core.language.segments import CODE_KINDS, PROSE_KINDS, SHELL_LINE, Segment, segment
from provmem.core.language.temporal import find_temporal
from provmem.core.language.wordlists import word_list

_Q = "['’]"
_SUBJECT = rf"\b(?:I|we|I{_Q}m|we{_Q}re)\b"
_ADVERBS = r"(?:(?:really|absolutely|also|just|truly|totally|still|definitely|kinda|so) )*"
_FIRST_PERSON = re.compile(
    rf"\b(?:{'|'.join(sorted(FIRST_PERSON, key=len, reverse=True))})(?![\w'’])", re.I
)
_NAME_WORD = r"[A-Z][A-Za-z0-9&.'’-]*[A-Za-z0-9]|[A-Z]"
_NAME = re.compile(
    rf"\b(?:{_NAME_WORD})(?:(?: (?:of|de|da|van|von|del|la|the))? (?:{_NAME_WORD}))*"
)
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n\"“(]\s*|\s-\s)$")
_WORK_CONTEXT = re.compile(
    r"\b(?:work|works|working|worked|job|joined|hired|intern\w*) (?:at|for|by)\s$"
)
_PRODUCT_CONTEXT = re.compile(
    r"\b(?:bought|buy|got|using|use|used|play|played|playing|read|reading|watched|watching)"
    r" (?:a |an |the |my |new )*$"
)

_CUE_RULES: tuple[tuple[SignalKind, str], ...] = (
    (
        SignalKind.DECISION,
        rf"{_SUBJECT} (?:have |{_Q}ve )?(?:decided|chose|chosen|opted|resolved|made up my mind)\b"
        rf"|\b(?:I|we){_Q}ll go with\b|\b(?:I|we) will go with\b"
        rf"|\b(?:I{_Q}m|I am|we{_Q}re|we are) (?:going to|gonna|planning to|planning on)\b"
        rf"|\b(?:I|we) (?:plan to|intend to)\b",
    ),
    (
        SignalKind.CORRECTION,
        r"\bactually\b|\bI meant\b|\bI mean\b|\bcorrection\b|\bscratch that\b"
        r"|\bnot [\w'’ -]{1,30},? but\b|, not (?:in |at |to )?[\w'’-]+\b|\bno longer\b"
        r"|\bany ?more\b|\brather than\b",
    ),
    (
        SignalKind.PREFERENCE,
        rf"{_SUBJECT} {_ADVERBS}(?:love|like|enjoy|adore|prefer)\b"
        rf"|\b(?:my|our) (?:all[- ]time )?favou?rite\b"
        rf"|\b(?:I{_Q}m|I am) (?:a )?(?:big |huge )?fan of\b|\b(?:I{_Q}m|I am) (?:really )?into\b",
    ),
    (
        SignalKind.DISLIKE,
        rf"{_SUBJECT} {_ADVERBS}(?:hate|dislike|detest|despise|can{_Q}t stand|cannot stand)\b"
        rf"|\b(?:I|we) (?:do not|don{_Q}t) {_ADVERBS}(?:like|enjoy|love)\b"
        rf"|\b(?:I{_Q}m|I am) not (?:a )?(?:big |huge )?fan of\b",
    ),
    (
        SignalKind.CONSTRAINT,
        rf"\ballergic to\b|\ballerg(?:y|ies)\b|\b(?:vegetarian|vegan|pescatarian|gluten[- ]free)\b"
        rf"|\blactose[- ]intolerant\b|\b(?:can{_Q}t|cannot|don{_Q}t|do not|never) (?:eat|drink)\b"
        rf"|\bintoleran(?:t|ce)\b",
    ),
    (
        SignalKind.NEGATION,
        # "No, we moved ..." answers a question: an interjection ("no" before a comma or a
        # stop) negates nothing in the clause that follows it
        # ("Not yet, I start on the 15th" likewise)
        rf"\bnot\b(?!\s+(?:yet|really|at all|exactly)\s*[,!.?;])"
        rf"|\b(?:never|nothing|nobody|none|neither|nor|cannot)\b|\bno\b(?!\s*[,!.?;])"
        rf"|\b\w+n{_Q}t\b",
    ),
)
_CUES = tuple((kind, re.compile(pattern, re.I)) for kind, pattern in _CUE_RULES)


def _trim(url: str) -> str:
    return url.rstrip(".,;:!?)]}'\"")


_ANCHOR_RULES: tuple[tuple[str, str, Callable[[str], str]], ...] = (
    ("url", r"\bhttps?://[^\s<>\"]+|\bwww\.[^\s<>\"]+", _trim),
    ("email", r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b", str.lower),
    ("path", r"(?<![\w/])(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)+/?|\b[A-Za-z]:\\[\w\\. -]+", _trim),
    ("version", r"\bv\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?\b|\b\d+\.\d+\.\d+(?:[-+][\w.]+)?\b", _trim),
    (
        "id",
        r"\b[A-Z]{2,10}-\d+\b|#\d+\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
        str.lower,
    ),
    (
        "amount",
        r"[$€£¥]\s?\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?(?:k|K|m|M|bn)\b)?"
        r"|\b\d[\d,]*(?:\.\d+)?\s?(?:dollars|bucks|euros|pounds sterling|usd|eur|gbp)\b",
        lambda text: " ".join(text.split()),
    ),
    ("percent", r"\b\d+(?:\.\d+)?\s?(?:%|percent\b)", lambda text: " ".join(text.split())),
    (
        "quantity",
        r"\b\d+(?:\.\d+)?\s?(?:km|kilometers|kilometres|mi|miles|kg|kilos|lbs?|pounds|cm|mm|m"
        r"|meters|metres|feet|ft|hours?|hrs?|minutes?|mins?|seconds?|secs?|days|weeks|months"
        r"|years old|years|gb|mb|tb|ml|l|liters|litres)\b",
        lambda text: " ".join(text.split()),
    ),
)
_ANCHORS = tuple((name, re.compile(pattern), form) for name, pattern, form in _ANCHOR_RULES)


def find_signals(text: str, *, speaker: str, captured_at: datetime) -> list[Signal]:
    """Every typed signal of ``text``, sorted by (start, end, kind)."""
    fixed = [*find_temporal(text, captured_at, assume_year=False), *anchor_signals(text)]
    entities = [e for e in entity_signals(text, speaker) if not _overlaps(e, fixed)]
    signals = [*speaker_signals(text, speaker), *entities, *fixed, *cue_signals(text)]
    return sorted(signals, key=lambda s: (s.start, s.end, s.kind.value))


def _overlaps(signal: Signal, others: list[Signal]) -> bool:
    return any(signal.start < other.end and other.start < signal.end for other in others)


def speaker_signals(text: str, speaker: str) -> list[Signal]:
    """First-person words, each referring to the speaker (value = the speaker's name)."""
    return [
        Signal(SignalKind.SPEAKER, m.group(0), m.start(), m.end(), speaker)
        for m in _FIRST_PERSON.finditer(text)
        if m.group(0) == "I" or not m.group(0).isupper()
    ]


def cue_signals(text: str) -> list[Signal]:
    """Decision, correction, preference, dislike, constraint and negation cues."""
    found = []
    for kind, pattern in _CUES:
        found += [Signal(kind, m.group(0), m.start(), m.end()) for m in pattern.finditer(text)]
    return found


def anchor_signals(text: str) -> list[Signal]:
    """Hard anchors (value ``type:normalized``); an earlier type wins an overlap."""
    taken: list[Signal] = []
    for name, pattern, form in _ANCHORS:
        for match in pattern.finditer(text):
            raw = form(match.group(0)) if name in {"url", "path"} else match.group(0)
            signal = Signal(
                SignalKind.ANCHOR,
                raw,
                match.start(),
                match.start() + len(raw),
                f"{name}:{form(raw)}",
            )
            if not _overlaps(signal, taken):
                taken.append(signal)
    return taken


def entity_signals(text: str, speaker: str) -> list[Signal]:
    """Capitalised names (value = person, place, organisation, product or other)."""
    found = []
    for match in _NAME.finditer(text):
        name, start = _strip_initial_word(text, match)
        if name and _is_name(text, name, start, speaker):
            kind = SignalKind.ENTITY
            found.append(
                Signal(kind, name, start, start + len(name), _entity_type(text, name, start))
            )
    return found


def _strip_initial_word(text: str, match: re.Match[str]) -> tuple[str, int]:
    """Drop a sentence-initial capitalised word that is a common word, not a name."""
    name, start = match.group(0).rstrip(".'’"), match.start()
    first = name.split(" ")[0]
    if first.lower().rstrip("'’s") in NOT_NAMES or first.lower() in NOT_NAMES:
        rest = name[len(first) :].lstrip()
        return rest, start + len(name) - len(rest)
    return name, start


def _is_name(text: str, name: str, start: int, speaker: str) -> bool:
    if name.lower() in NOT_NAMES | CALENDAR_WORDS or name == speaker or not name[0].isupper():
        return False
    if not _SENTENCE_START.search(text[:start]) or " " in name:
        return True
    return re.search(rf"[^.!?\n]\s+{re.escape(name)}\b", text) is not None or name.isupper()


def _entity_type(text: str, name: str, start: int) -> str:
    before = text[max(0, start - 40) : start]
    words = before.lower().split()
    if name.split(" ")[-1].lower().rstrip(".") in ORGANISATION_SUFFIXES:
        return "organisation"
    if _WORK_CONTEXT.search(before.lower()) or (name.isupper() and len(name) > 1):
        return "organisation"
    if _PRODUCT_CONTEXT.search(before.lower()) or re.search(r"[a-z][A-Z]|\d", name):
        return "product"
    if words and words[-1] in PLACE_PREPOSITIONS | {"at"}:
        return "place"
    return "person"


# -- hard anchors of code and markup ---------------------------------------------------

_SHELL_INFO = word_list("provmem.core.language", "shell_info")
_CODE_KEYWORDS = word_list("provmem.core.language", "code_keywords")
_IDENTIFIER = re.compile(
    r"(?<![\w.])(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[a-z]+(?:_[a-z0-9]+)+|_\w+"
    r"|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][A-Z0-9]*_[A-Z0-9_]+"
    r"|[A-Za-z_]\w*(?=\())(?![\w])"
)
_FILE_PATH = re.compile(
    r"(?<![\w/.-])(?:[\w.-]+/)*[\w-]+\.(?:py|pyi|js|jsx|ts|tsx|json|ya?ml|toml|md|txt|cfg|ini"
    r"|sh|go|rs|java|kt|rb|php|c|h|cpp|hpp|cs|html|css|scss|sql|lock|env|xml|csv|ipynb)\b"
)
_PACKAGE = re.compile(
    r"(?<![\w@.-])(?P<name>[A-Za-z][\w.-]*?)(?:@|==|>=|<=|~=|\^| v?(?=\d+\.\d))"
    r"(?P<version>\d+(?:\.\d+){0,3}(?:[-+.]?[A-Za-z]+\d*)?)(?!\w|\.\w)"
)
_MEASURE = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds|minutes|mins?|h|hrs?|hours"
    r"|[kmgt]i?b|[KMGT]i?B|rps|qps|req/s|fps|k|x|%|commits|requests|users|tests|lines|files"
    r"|errors|issues|endpoints|queries|rows|records|nodes|pods|replicas|workers|threads|cores"
    r"|stars|downloads|PRs|pull requests|bugs|deploys|builds)(?![\w/])"
)
_DECLARATION = re.compile(
    r"^[ \t]*(?:(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+(?P<imported>[\w., \t]+)"
    r"|(?P<assigned>[A-Za-z_]\w*)[ \t]*=(?!=))",
    re.M,
)
_ERROR = re.compile(
    r"\b(?:[A-Z]\w*(?:Error|Exception|Warning|Fault)|Traceback|(?:error|fatal|panic)(?=:))"
    r"(?::[^\n]{0,160})?"
)


def structure_anchors(text: str, segments: tuple[Segment, ...]) -> list[Signal]:
    """Hard anchors of a turn: prose anchors plus those of its code and markup segments.

    Identifiers, file paths, ``package@version``, commands, numbers with units and error
    messages; values are ``type:normalized`` and spans point into ``text``.
    """
    found = anchor_signals(text)
    for piece in segments:
        if piece.kind not in PROSE_KINDS:
            found += _segment_anchors(text, piece)
    packages = _rule_anchors(text, "package", _PACKAGE, _package_value, (0, len(text)))
    found += [s for s in packages if _package_name(s) not in FUNCTION_WORDS | CALENDAR_WORDS]
    found += _rule_anchors(text, "measure", _MEASURE, _spaced, (0, len(text)))
    found += _rule_anchors(text, "path", _FILE_PATH, str, (0, len(text)))
    found += _rule_anchors(text, "error", _ERROR, _spaced, (0, len(text)))
    unique = {(s.start, s.end, s.value): s for s in found}
    return sorted(unique.values(), key=lambda s: (s.start, s.end, s.value or ""))


def anchor_terms(text: str, segments: tuple[Segment, ...] | None = None) -> tuple[str, ...]:
    """The exact-match terms of a turn's (or a query's) hard anchors, lower case, in order:
    ``flask@2.3``, ``src/app.py``, ``git add .``, ``250ms``, ``modulenotfounderror: ...``.

    >>> anchor_terms("Bumped flask==2.3.1 in `requirements.txt`; p95 is 250ms.")
    ('flask@2.3.1', '2.3.1', 'requirements.txt', '250ms')
    """
    found = structure_anchors(text, segment(text) if segments is None else segments)
    values = [s.value.split(":", 1)[1].lower() for s in found if s.value]
    return tuple(dict.fromkeys(v for v in values if v))


#: Names whose shape is code's even in prose: dotted (``app.config``), snake_case,
#: camelCase, CONSTANT_CASE and calls (``load()``). CamelCase is left out: in prose it is
#: as often a product's or project's name ("TrailMap"), which the other routes handle.
_CODE_SHAPED = re.compile(
    r"(?<![\w.])(?:[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+|[a-z]+(?:_[a-z0-9]+)+|[a-z]+[A-Z]\w*"
    r"|[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Za-z_]\w*(?=\())(?![\w])"
)


def indexed_anchor_terms(text: str, segments: tuple[Segment, ...] | None = None) -> tuple[str, ...]:
    """The anchor terms a turn is indexed by: :func:`anchor_terms` and the file name of
    each path (``src/app.py`` is also found as ``app.py``)."""
    return _with_file_names(anchor_terms(text, segments))


def query_anchor_terms(query: str) -> tuple[str, ...]:
    """The anchor terms a query asks for: those of :func:`anchor_terms` (inline code is
    code) and the code-shaped names of its prose, with file names as indexed."""
    shaped = [m.group(0).lower() for m in _CODE_SHAPED.finditer(query)]
    named = [name for name in shaped if name not in _CODE_KEYWORDS and len(name) > 2]
    return _with_file_names((*anchor_terms(query), *named))


def _with_file_names(terms: tuple[str, ...]) -> tuple[str, ...]:
    names = [t.rsplit("/", 1)[1] for t in terms if "/" in t and _FILE_PATH.fullmatch(t)]
    return tuple(dict.fromkeys((*terms, *(n for n in names if n))))


def _segment_anchors(text: str, piece: Segment) -> list[Signal]:
    span = (piece.start, piece.end)
    found = []
    if piece.kind in CODE_KINDS:
        found += [s for s in _rule_anchors(text, "identifier", _IDENTIFIER, str, span) if _named(s)]
        found += _declared_names(text, piece)
        found += _commands(text, piece)
    return found


def _declared_names(text: str, piece: Segment) -> list[Signal]:
    """Imported and assigned names (``import jsonify``, ``app = ...``)."""
    found = []
    for line in _DECLARATION.finditer(text, piece.start, piece.end):
        group = "imported" if line.group("imported") else "assigned"
        names = re.finditer(r"[A-Za-z_]\w*", line.group(group))
        at = line.start(group)
        found += [_anchor("identifier", n.group(0), at + n.start(), n.group(0)) for n in names]
    return [s for s in found if _named(s)]


def _anchor(name: str, raw: str, start: int, value: str) -> Signal:
    return Signal(SignalKind.ANCHOR, raw, start, start + len(raw), f"{name}:{value}")


def _named(signal: Signal) -> bool:
    return signal.text.lower() not in _CODE_KEYWORDS and len(signal.text) > 2


def _commands(text: str, piece: Segment) -> list[Signal]:
    shell = piece.info in _SHELL_INFO
    found = []
    for line in re.finditer(r"[^\n]+", text[piece.start : piece.end]):
        if line.group(0).lstrip().startswith(("```", "~~~")):
            continue
        body = line.group(0).strip().strip("`").strip()
        prompt = re.match(r"^[$>]\s+", body)
        if prompt or (shell and not body.startswith(("#", "```"))) or _looks_like_command(body):
            command = body[prompt.end() :] if prompt else body
            at = piece.start + line.start() + line.group(0).index(command)
            found.append(
                Signal(SignalKind.ANCHOR, command, at, at + len(command), f"command:{command}")
            )
    return found


def _looks_like_command(body: str) -> bool:
    return SHELL_LINE.fullmatch(body) is not None


def _rule_anchors(
    text: str,
    name: str,
    pattern: re.Pattern[str],
    form: Callable[[str], str],
    span: tuple[int, int],
) -> list[Signal]:
    return [
        _anchor(name, m.group(0), m.start(), form(m.group(0)))
        for m in pattern.finditer(text, *span)
    ]


def _package_value(raw: str) -> str:
    match = _PACKAGE.fullmatch(raw)
    if match is None:
        return raw
    return f"{match.group('name').lower()}@{match.group('version')}"


def _package_name(signal: Signal) -> str:
    return (signal.value or "").removeprefix("package:").split("@")[0]


def _spaced(raw: str) -> str:
    return " ".join(raw.split())
