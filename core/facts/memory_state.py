"""What the write gate remembers about one scope: its facts and their vectors.

Immutable: every change returns a new :class:`ScopeMemory`. The adapter that
persists it stores one record per fact (see ``streams/gate_store.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np
import numpy.typing as npt

from provmem.core.events import Fact, FactStatus
from provmem.core.extraction.slot_rules import is_open_attribute
from provmem.core.language.lexicon import SINGLE_VALUED_ATTRIBUTES

Vector = npt.NDArray[np.float32]

# Attributes a subject has one value of at a time; a new value supersedes the old.
SINGLE_VALUED = SINGLE_VALUED_ATTRIBUTES


# Attributes that say the same thing about a subject share one slot ("moved to X" says
# where the subject lives now).
SAME_SLOT_AS = {"moved_to": "lives_in"}


def slot_key(subject: str, attribute: str, value: str | None, role: str = "user") -> str:
    """Where a (subject, attribute, value) sits in the slot index: per attribute if the
    attribute is single-valued (a rule's single-valued attribute, or an open reading: a new
    value supersedes), else per value. What an assistant asserted has slots of its own."""
    attribute = SAME_SLOT_AS.get(attribute, attribute)
    owner = "" if role == "user" else f"{role}:"
    if attribute in SINGLE_VALUED or is_open_attribute(attribute):
        return f"{owner}{subject}|{attribute}"
    return f"{owner}{subject}|{attribute}={value or ''}"


def open_owner(subject: str, attribute: str, role: str = "user") -> str | None:
    """Where an open reading's fact sits in the open-attribute index (by subject and role;
    its attribute is matched loosely), or None for a rule's attribute."""
    if not is_open_attribute(attribute):
        return None
    return subject if role == "user" else f"{role}:{subject}"


def _open_owner_of(fact: Fact) -> str | None:
    if fact.slot is None:
        return None
    subject, _, attribute = fact.slot.partition("|")
    return open_owner(subject, attribute, fact.asserted_by)


def slot_index_key(fact: Fact) -> str | None:
    if fact.slot is None:
        return None
    subject, _, attribute = fact.slot.partition("|")
    return slot_key(subject, attribute, fact.slot_value, fact.asserted_by)


def as_unit(values: Iterable[float]) -> Vector:
    vector = np.asarray(list(values), dtype=np.float32)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


@dataclass(frozen=True)
class AttributeVectors:
    """An open reading's attribute phrase and the unit vectors of its parts (the phrase,
    its words and word runs: core/facts/attribute_similarity.py)."""

    phrase: str
    parts: Mapping[str, Vector]


@dataclass(frozen=True)
class ScopeMemory:
    """Active facts in row order of ``matrix`` plus every fact ever known, by id."""

    facts: Mapping[str, Fact] = field(default_factory=dict)
    vectors: Mapping[str, Vector] = field(default_factory=dict)
    active: tuple[str, ...] = ()
    slots: Mapping[str, str] = field(default_factory=dict)
    open_slots: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    nearest_distance: Mapping[str, float] = field(default_factory=dict)
    attributes: Mapping[str, AttributeVectors] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.active)

    @cached_property
    def matrix(self) -> Vector:
        """Active fact vectors as rows, built once per memory value when first needed."""
        dim = next(iter(self.vectors.values())).shape[0] if self.vectors else 0
        return _stack([self.vectors[i] for i in self.active], dim)

    def fact_in_slot(self, key: str | None) -> Fact | None:
        fact_id = self.slots.get(key) if key else None
        return self.facts[fact_id] if fact_id else None

    def open_facts(self, owner: str | None) -> list[Fact]:
        """The active facts of an owner's open attributes, latest first."""
        ids = self.open_slots.get(owner, ()) if owner else ()
        return [self.facts[i] for i in reversed(ids)]

    def put(
        self, fact: Fact, vector: Vector, attribute: AttributeVectors | None = None
    ) -> ScopeMemory:
        """Record a fact's new state; it joins or leaves the active set by its status. Its
        attribute's vectors, if given, replace those it had (else it keeps them)."""
        facts = {**self.facts, fact.fact_id: fact}
        attributes = dict(self.attributes)
        if attribute is not None:
            attributes[fact.fact_id] = attribute
        vectors = {**self.vectors, fact.fact_id: vector}
        active = tuple(i for i in self.active if i != fact.fact_id)
        if fact.status is FactStatus.ACTIVE:
            active = (*active, fact.fact_id)
        slots = _slots(facts, active)
        distances = self._distances_with(fact.fact_id, vector, active)
        return replace(
            self,
            facts=facts,
            vectors=vectors,
            active=active,
            slots=slots,
            open_slots=_open_slots(facts, active),
            nearest_distance=distances,
            attributes=attributes,
        )

    def _distances_with(
        self, fact_id: str, vector: Vector, active: tuple[str, ...]
    ) -> dict[str, float]:
        """Each active fact's distance to its nearest other active fact (kept incrementally;
        a fact that leaves does not raise its neighbours' distances: slightly stricter)."""
        kept = set(active)
        distances = {i: d for i, d in self.nearest_distance.items() if i in kept}
        if fact_id not in kept or fact_id in self.facts or not self.active:
            return distances
        gaps = 1.0 - (self.matrix @ vector)
        distances[fact_id] = float(np.min(gaps))
        for other, gap in zip(self.active, gaps, strict=True):
            distances[other] = min(distances.get(other, 2.0), float(gap))
        return distances

    @classmethod
    def restore(
        cls,
        entries: Sequence[tuple[Fact, Vector]],
        active: Iterable[str],
        distances: Mapping[str, float],
        attributes: Mapping[str, AttributeVectors] | None = None,
    ) -> ScopeMemory:
        """Rebuild exactly the memory that was saved (row order, distances and attribute
        vectors included)."""
        facts = {fact.fact_id: fact for fact, _ in entries}
        vectors = {fact.fact_id: vector for fact, vector in entries}
        order = tuple(active)
        return cls(
            facts=facts,
            vectors=vectors,
            active=order,
            slots=_slots(facts, order),
            open_slots=_open_slots(facts, order),
            nearest_distance=dict(distances),
            attributes=dict(attributes or {}),
        )


def _stack(rows: list[Vector], dim: int) -> Vector:
    if not rows:
        return np.zeros((0, dim), dtype=np.float32)
    return np.vstack(rows).astype(np.float32)


def _slots(facts: Mapping[str, Fact], active: tuple[str, ...]) -> dict[str, str]:
    """Each slot's latest active fact; a value that still holds before one that ended
    ("I used to live in X", kept as history, never hides where the subject lives now)."""
    slots: dict[str, str] = {}
    for fact_id in sorted(active, key=lambda i: facts[i].valid_to is None):
        key = slot_index_key(facts[fact_id])
        if key is not None:
            slots[key] = fact_id
    return slots


def _open_slots(facts: Mapping[str, Fact], active: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    owners: dict[str, list[str]] = {}
    for fact_id in active:
        owner = _open_owner_of(facts[fact_id])
        if owner is not None:
            owners.setdefault(owner, []).append(fact_id)
    return {owner: tuple(ids) for owner, ids in owners.items()}
