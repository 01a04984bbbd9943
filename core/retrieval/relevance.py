"""Results fit for a prompt: the first person resolved to the scope's user, each result's
similarity to the query, the relevance floor, and raw turns of other roles kept out.

Pure: no I/O.

>>> first_person("Where do I work?", "Ann")
'Where does Ann work?'
>>> first_person("What is my cat's name?", "Ann")
"What is Ann's cat's name?"
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from provmem.core.language.names import proper_name

USER_ROLES = frozenset({"user"})
SPEAKER_ROLES = frozenset({"user", "assistant", "system", "tool"})
# Measured (docs/benchmarks.md, bench/unanswerable): a one-word query ("job") is ~0.20 from
# the fact that answers it, off-topic queries ("x", "What's the weather in Porto?") 0.09-0.15
# from the user's facts; LoCoMo dev R@10 is unchanged at 0.3 and below.
DEFAULT_THRESHOLD = 0.18

_SWAPS = (
    (r"\bdo I\b", "does {name}"),
    (r"\bhave I\b", "has {name}"),
    (r"\b(did|can|will|would|should) I\b", r"\1 {name}"),
    (r"\bAm I\b", "Is {name}"),
    (r"\bam I\b", "is {name}"),
    (r"\bI am\b|\bI'm\b|\bI’m\b", "{name} is"),
    (r"\bI(?:'ve|’ve)\b", "{name} has"),
    (r"\b[Mm]y\b", "{name}'s"),
    (r"\b(?:me|myself|I)\b", "{name}"),
)
_FIRST_PERSON = re.compile(r"\b(?:I|me|my|myself|mine)\b|\bI['’](?:m|ve)\b", re.I)


def first_person(query: str, name: str) -> str:
    """The query with the first person made the user's ``name`` (facts say "Ann works
    at ...", never "I work at ..."). A query without a first person is returned as is."""
    if not _FIRST_PERSON.search(query):
        return query
    text = query
    for pattern, replacement in _SWAPS:
        text = re.sub(pattern, replacement.replace("{name}", name), text)
    return text


def user_name(scope_key: str) -> str:
    """The name facts give the scope's user: its user id written as a name ("ann" ->
    "Ann"), or "User" for an id that is no name ("u_1042")."""
    name = proper_name(scope_key.rsplit("/", 1)[-1])
    return "User" if name == "the user" else name


@dataclass(frozen=True)
class Similarity:
    """Cosine similarities to the query of the items the dense searches returned; an item
    they did not return scores at most the lowest they did (``bound``: 0 when they
    returned every item)."""

    scores: Mapping[str, float]
    bound: float = 0.0

    def of(self, ids: Iterable[str]) -> float:
        """The best similarity among ``ids`` (a fact and its evidence), clipped to 0-1."""
        best = max((self.scores.get(i, self.bound) for i in ids), default=0.0)
        return min(max(best, 0.0), 1.0)


def similarity_of(hits: Sequence[Sequence[tuple[str, float]]], depth: int) -> Similarity:
    """The similarities of several dense searches (each ``(item, score)`` best first, at
    most ``depth`` long)."""
    scores: dict[str, float] = {}
    bound = 0.0
    for found in hits:
        for item, score in found:
            scores[item] = max(score, scores.get(item, score))
        if len(found) >= depth:
            bound = max(bound, found[-1][1])
    return Similarity(scores, bound)


def raw_roles(raw_turns_of: str | Iterable[str] | None) -> frozenset[str]:
    """The roles whose raw turns a search returns: ``"user"`` (default), ``"all"``, or
    some of user, assistant, system, tool. ValueError names ``raw_turns_of``."""
    if raw_turns_of is None:
        return USER_ROLES
    if isinstance(raw_turns_of, str):
        raw_turns_of = SPEAKER_ROLES if raw_turns_of == "all" else [raw_turns_of]
    roles = frozenset(raw_turns_of)
    unknown = sorted(roles - SPEAKER_ROLES)
    if unknown or not roles:
        known = ", ".join(sorted(SPEAKER_ROLES))
        raise ValueError(f"raw_turns_of: {unknown or 'nothing'} given; use 'all' or of {known}")
    return roles


def checked_threshold(threshold: float | None) -> float:
    """The relevance floor, a similarity in 0-1 (None: the default)."""
    if threshold is None:
        return DEFAULT_THRESHOLD
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold: {threshold} is not a similarity between 0 and 1")
    return float(threshold)
