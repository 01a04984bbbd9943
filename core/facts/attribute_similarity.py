"""When two attribute phrases worded apart name one thing ("worker RAM" / "worker memory"):
a similarity of their embedded phrases, compared where they differ.

The lexical match (core/facts/attribute_match.py) equates phrases that share their head word;
synonyms share none. Their embeddings do: each open reading's attribute phrase is embedded
with its contiguous parts (the phrase, its words, its word pairs; see
:func:`attribute_parts`), and two phrases are compared on what differs between them, so
the words they share do not make near misses look alike ("memory usage" / "memory leak"
compares "usage" with "leak"). Two phrases with one head and different modifiers name two
kinds of one thing ("staging latency" / "production latency"), and words opposed by their
first part ("uptime" / "downtime") name opposites: neither is similar.

    >>> attribute_parts("worker ram")
    ['worker ram', 'worker', 'ram']
    >>> calibrated_threshold([0.7, 0.55, 0.6], [0.3, 0.5])
    0.525

The embedding is the adapter's (streams/pipeline.py); this module takes the vectors.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from provmem.core.claim import Slot
from provmem.core.events import Fact
from provmem.core.extraction.slot_rules import is_open_attribute
from provmem.core.facts.attribute_match import comparable, same_attribute, value_shape
from provmem.core.facts.memory_state import AttributeVectors, ScopeMemory, Vector, open_owner
from provmem.core.language.appositions import RELATION_NOUNS

__all__ = [
    "AttributeVectors",
    "attribute_parts",
    "attribute_similarity",
    "calibrated_threshold",
    "similar_attribute_fact",
]


def attribute_parts(phrase: str) -> list[str]:
    """The texts to embed for a phrase: itself, then its shorter contiguous runs of words."""
    words = phrase.split()
    runs = [
        " ".join(words[start : start + size])
        for size in range(len(words), 0, -1)
        for start in range(len(words) - size + 1)
    ]
    return list(dict.fromkeys(runs))


# First parts that turn a word into its opposite ("upload" / "download"): two words that
# differ only there measure opposite things.
_OPPOSED = (("up", "down"), ("in", "out"), ("on", "off"), ("over", "under"), ("min", "max"))


def _opposed(first: list[str], second: list[str]) -> bool:
    if len(first) != 1 or len(second) != 1:
        return False
    one, other = first[0], second[0]
    for a, b in _OPPOSED:
        for x, y in ((a, b), (b, a)):
            if one.startswith(x) and other.startswith(y) and one[len(x) :] == other[len(y) :]:
                return True
    return False


def _relations(first: list[str], second: list[str]) -> bool:
    """Two words naming how people (or pets) are related to someone ("sister", "partner"):
    each is a relation of its own, however alike in meaning (core/language/appositions.py)."""
    return any(w in RELATION_NOUNS for w in first) or any(w in RELATION_NOUNS for w in second)


def attribute_similarity(first: AttributeVectors, second: AttributeVectors) -> float:
    """How alike two attribute phrases are in meaning, in [-1, 1], compared on the words
    one has and the other lacks: 1 when one phrase is the other with more words (it
    refines it), 0 for one head with different modifiers or opposed words."""
    mine, theirs = first.phrase.split(), second.phrase.split()
    if not (mine and theirs):
        return 0.0
    shared = set(mine) & set(theirs)
    own = [w for w in mine if w not in shared]
    other = [w for w in theirs if w not in shared]
    if not own or not other:
        return 1.0
    if mine[-1] == theirs[-1] or _opposed(own, other) or _relations(own, other):
        return 0.0
    mine_vector, their_vector = _part_vector(first, own), _part_vector(second, other)
    if mine_vector is None or their_vector is None:
        return 0.0
    return float(mine_vector @ their_vector)


def _part_vector(attribute: AttributeVectors, words: list[str]) -> Vector | None:
    """The vector of some of a phrase's words: their run's own vector when they are
    contiguous, else the normalized mean of the words' (None when none was embedded)."""
    run = " ".join(words)
    if run in attribute.parts:
        return attribute.parts[run]
    found = [attribute.parts[w] for w in words if w in attribute.parts]
    if not found:
        return None
    total = np.sum(found, axis=0).astype(np.float32)
    norm = float(np.linalg.norm(total))
    return total / norm if norm > 0 else None


def calibrated_threshold(matching: Sequence[float], distinct: Sequence[float]) -> float:
    """The similarity from which two phrases count as one attribute, calibrated on
    labelled pairs: the midpoint between two neighbouring scores that classifies most
    pairs right (``matching`` at or above it, ``distinct`` below); of equally good ones,
    the highest (a missed update costs less than a false one)."""
    scores = sorted({float(s) for s in (*matching, *distinct)})
    cuts: list[float] = [(a + b) / 2 for a, b in zip(scores, scores[1:], strict=False)]

    def rank(cut: float) -> tuple[int, float]:
        return sum(s >= cut for s in matching) + sum(s < cut for s in distinct), cut

    best: float = max(cuts or scores, key=rank)
    return round(best, 4)


def similar_attribute_fact(
    memory: ScopeMemory,
    slot: Slot | None,
    role: str,
    attribute: AttributeVectors | None,
    threshold: float,
) -> Fact | None:
    """The subject's active open fact a slotted claim gives another value, when their
    attribute phrases are worded apart but similar (at least ``threshold``) and their
    values are of one kind (a count, a version, a quantity of one unit class, a date, a
    name): of several, the most similar. None when a fact names the attribute in the
    claim's own words (the lexical match decides) or already has the claim's value."""
    if slot is None or attribute is None or not is_open_attribute(slot.attribute):
        return None
    owned = memory.open_facts(open_owner(slot.subject, slot.attribute, role))
    if any(_worded_alike(fact, slot) for fact in owned):
        return None
    shape = value_shape(slot.value)
    scored = [
        (attribute_similarity(attribute, memory.attributes[fact.fact_id]), fact)
        for fact in owned
        if fact.fact_id in memory.attributes and fact.slot_value is not None
        and value_shape(fact.slot_value) == shape
    ]  # fmt: skip
    similar = [pair for pair in scored if pair[0] >= threshold]
    if not similar:
        return None
    best = max(similar, key=lambda pair: pair[0])[1]  # ties: the latest
    return best if best.slot_value != slot.value else None


def _worded_alike(fact: Fact, slot: Slot) -> bool:
    attribute = (fact.slot or "").partition("|")[2]
    value = fact.slot_value
    return (
        value is not None
        and same_attribute(attribute, slot.attribute)
        and comparable(value, slot.value)
    )
