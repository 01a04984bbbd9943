"""Provenance validation: every content word of a claim must come from its evidence.

A content word (any word outside the closed function-word list) or number in a claim's
statement is *traceable* when its stem occurs in the evidence text, in the speaker's
name, in the closed set of template words the claim writer introduces, or in the
rendering of a date that the evidence's own temporal expressions resolve to against the
capture time. A claim with untraceable words, or with spans outside the evidence, is
returned with ``review_reason`` set and is not promoted.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from functools import lru_cache

from provmem.core.claim import Claim, SignalKind
from provmem.core.language.assertions import ROLE_WORDS
from provmem.core.language.lexicon import FUNCTION_WORDS, TEMPLATE_WORDS, VERBS_ENDING_IN_ED_OR_ING
from provmem.core.language.temporal import find_temporal, render

_TOKEN = re.compile(r"[a-z0-9]+")
_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|nothing|nobody|none|neither|nor|without)\b|n't\b", re.I
)


def validate_claim(
    claim: Claim, text: str, *, speaker: str, captured_at: datetime, role: str = "user"
) -> Claim:
    """``claim`` unchanged when fully traceable, else with ``review_reason`` set.

    An assistant's statement may also use the words naming its role ("The assistant
    recommended that the user ...").
    """
    reasons = []
    if not claim.spans or any(not 0 <= s < e <= len(text) for s, e in claim.spans):
        reasons.append("support span outside the evidence")
    if role == "assistant":
        speaker = " ".join([speaker, *sorted(ROLE_WORDS)])
    missing = untraceable_words(claim.statement, text, speaker=speaker, captured_at=captured_at)
    missing += _invented_negation(claim, text)
    if missing:
        reasons.append("untraceable: " + ", ".join(missing))
    if not reasons:
        return claim
    return replace(claim, review_reason="; ".join(reasons))


def untraceable_words(
    statement: str, text: str, *, speaker: str, captured_at: datetime
) -> list[str]:
    """The statement's content words and numbers that no source accounts for, in order."""
    known = _known_stems(text, speaker, captured_at)
    missing = [w for w in _tokens(statement) if _is_content(w) and stem(w) not in known]
    return list(dict.fromkeys(missing))


def _invented_negation(claim: Claim, text: str) -> list[str]:
    """A negation in the statement needs one in its support: polarity is never invented."""
    said = _NEGATION.search(claim.statement.replace("’", "'"))
    if said is None:
        return []
    support = " ".join(text[start:end] for start, end in claim.spans)
    return [] if _NEGATION.search(support.replace("’", "'")) else [said.group(0).lower()]


@lru_cache(maxsize=64)
def _known_stems(text: str, speaker: str, captured_at: datetime) -> frozenset[str]:
    sources = [text, speaker, *_resolved_dates(text, captured_at)]
    stems = {stem(word) for source in sources for word in _tokens(source)}
    return frozenset(stems | _TEMPLATE_STEMS)


def _resolved_dates(text: str, captured_at: datetime) -> list[str]:
    """Renderings of the evidence's dates; a yearless one may also be given the year
    before, of or after the capture (as a rewrite that assumes one would)."""
    year = captured_at.year
    renderings = [render(captured_at.date().isoformat())]
    for signal in find_temporal(text, captured_at, assume_year=False):
        if signal.kind is SignalKind.DATE and signal.value:
            renderings += [render(signal.value), signal.value.replace("-", " ")]
            if signal.value.startswith("--"):
                renderings += [str(year - 1), str(year), str(year + 1)]
    return renderings


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower().replace("’", "'"))


def _is_content(word: str) -> bool:
    return word not in FUNCTION_WORDS and (len(word) > 1 or word.isdigit())


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A light suffix stripper; both sides go through it, so it only has to be consistent.

    >>> [stem(w) for w in ("loves", "loved", "loving", "tries", "tried", "goes", "moved")]
    ['lov', 'lov', 'lov', 'tri', 'tri', 'go', 'mov']
    """
    if word.isdigit() or len(word) <= 3:
        return word[:-1] + "i" if word.endswith("y") and len(word) == 3 else word
    if word in VERBS_ENDING_IN_ED_OR_ING or word[:-1] in VERBS_ENDING_IN_ED_OR_ING:
        return word.removesuffix("s")
    for suffix, keep in (("ies", "i"), ("ied", "i"), ("sses", "ss"), ("ing", ""), ("ed", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            return _tidy(word[: -len(suffix)] + keep)
    if word.endswith(("ches", "shes", "sses")) or (word.endswith("es") and word[-3] in "xzo"):
        return _tidy(word[:-2])
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return _tidy(word[:-1])
    return _tidy(word)


def _tidy(root: str) -> str:
    if len(root) > 3 and root[-1] == root[-2] and root[-1] not in "lsz":
        root = root[:-1]
    if root.endswith("y") and len(root) > 2:
        root = root[:-1] + "i"
    return root[:-1] if root.endswith("e") and len(root) > 3 else root


_TEMPLATE_STEMS = frozenset(stem(word) for word in TEMPLATE_WORDS)
