"""What the write gate remembers about one scope: its facts and their vectors.

Immutable: every change returns a new :class:`ScopeMemory`. The adapter that
persists it stores one record per fact (see ``streams/gate_store.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import Enum
from functools import cached_property

import numpy as np
import numpy.typing as npt

from provmem.core.events import Fact, FactStatus
from provmem.core.extraction.categories import named_members
from provmem.core.extraction.slot_rules import is_open_attribute
from provmem.core.language.lexicon import SINGLE_VALUED_ATTRIBUTES

Vector = npt.NDArray[np.float32]

# Attributes a subject has one value of at a time; a new value supersedes the old.
SINGLE_VALUED = SINGLE_VALUED_ATTRIBUTES


# Attributes that say the same thing about a subject share one slot ("moved to X" says
# where the subject lives now).
SAME_SLOT_AS = {"moved_to": "lives_in"}


class Cardinality(Enum):
    """How many values of an attribute a subject holds at a time."""

    ONE = "one"  # a new value supersedes the old ("lives in", an open reading)
    MANY = "many"  # values coexist ("likes", "hobby")


def cardinality(attribute: str) -> Cardinality:
    """One value at a time for a rule's single-valued attribute or an open reading,
    else many."""
    attribute = SAME_SLOT_AS.get(attribute, attribute)
    if attribute in SINGLE_VALUED or is_open_attribute(attribute):
        return Cardinality.ONE
    return Cardinality.MANY


def slot_key(subject: str, attribute: str, value: str | None, role: str = "user") -> str:
    """Where a (subject, attribute, value) sits in the slot index: per attribute if the
    attribute holds one value at a time, else per value. What an assistant asserted has
    slots of its own."""
    attribute = SAME_SLOT_AS.get(attribute, attribute)
    owner = "" if role == "user" else f"{role}:"
    if cardinality(attribute) is Cardinality.ONE:
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
class ValueState:
    """A value a fact states (core/facts/value_state.py): whose, of what attribute (the
    phrase and its sentence as unit vectors), the value and its kind group, the turn that
    said it and when."""

    holder: str
    attribute: str
    value: str
    group: str
    evidence_id: str
    at: datetime
    attribute_vector: Vector
    context_vector: Vector
    aliases: tuple[str, ...] = ()

    @property
    def holders(self) -> set[str]:
        """The holder and its other names ("brother", "Tom")."""
        return {self.holder, *self.aliases}


class RowBuffer:
    """Fact vectors as rows of one float32 buffer that grows by appends (its capacity
    doubles), shared by the memory versions that descend from one another: a version
    reads its first ``length`` rows only, so a later version's appends never change what
    an earlier one sees. Appending after a shorter version's end copies its rows first."""

    def __init__(self, dim: int, rows: Vector | None = None) -> None:
        given = rows if rows is not None else np.zeros((0, dim), dtype=np.float32)
        self._data = np.zeros((max(len(given), 16), dim), dtype=np.float32)
        self._data[: len(given)] = given
        self.length = len(given)

    def rows(self, length: int) -> Vector:
        return self._data[:length]

    def appended(self, length: int, vector: Vector) -> RowBuffer:
        """The buffer holding the first ``length`` rows and then ``vector`` (this one, if
        no version has appended past ``length`` yet)."""
        if length != self.length:
            return RowBuffer(self._data.shape[1], self._data[:length]).appended(length, vector)
        if length == len(self._data):
            grown = np.zeros((2 * length, self._data.shape[1]), dtype=np.float32)
            grown[:length] = self._data
            self._data = grown
        self._data[length] = vector
        self.length = length + 1
        return self


class Journal:
    """The ids of the facts each change touched (put, or given a lower distance), in
    order, shared like a :class:`RowBuffer`: what an adapter saves between two versions."""

    def __init__(self, ids: list[str] | None = None) -> None:
        self.ids = ids or []

    def appended(self, length: int, ids: Iterable[str]) -> Journal:
        journal = self if length == len(self.ids) else Journal(self.ids[:length])
        journal.ids.extend(ids)
        return journal


@dataclass(frozen=True)
class ScopeMemory:
    """Active facts in row order (``active``) plus every fact ever known, by id.

    Each active fact has a row in a shared :class:`RowBuffer`: a fact that joins (or
    changes while active) appends one and leaves its old row dead, so the live rows in
    buffer order are the active facts in order; dead rows are dropped when they outnumber
    the live ones. Each row also holds its fact's distance to its nearest other active
    fact (NaN when it never had one). A change costs the fact's own rows and slots plus
    copies of flat arrays, never a pass over the scope in Python."""

    facts: Mapping[str, Fact] = field(default_factory=dict)
    vectors: Mapping[str, Vector] = field(default_factory=dict)
    active: tuple[str, ...] = ()
    slots: Mapping[str, str] = field(default_factory=dict)
    open_slots: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    attributes: Mapping[str, AttributeVectors] = field(default_factory=dict)
    values: Mapping[str, tuple[ValueState, ...]] = field(default_factory=dict)
    # how the above is kept (rows, distances, order numbers, indexes): not compared
    buffer: RowBuffer | None = field(default=None, compare=False, repr=False)
    row_of: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)
    live: npt.NDArray[np.bool_] = field(
        default_factory=lambda: np.zeros(0, dtype=np.bool_), compare=False, repr=False
    )
    distances: npt.NDArray[np.float64] = field(
        default_factory=lambda: np.zeros(0), compare=False, repr=False
    )
    orders: npt.NDArray[np.int64] = field(
        default_factory=lambda: np.zeros(0, dtype=np.int64), compare=False, repr=False
    )
    next_order: int = field(default=0, compare=False, repr=False)
    journal: Journal | None = field(default=None, compare=False, repr=False)
    journal_length: int = field(default=0, compare=False, repr=False)
    slot_members: Mapping[str, tuple[str, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    named: tuple[str, ...] = field(default=(), compare=False, repr=False)
    negations: tuple[str, ...] = field(default=(), compare=False, repr=False)
    value_facts: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.active)

    @cached_property
    def matrix(self) -> Vector:
        """Active fact vectors as rows (a copy; :meth:`similarities` reads the buffer)."""
        dim = next(iter(self.vectors.values())).shape[0] if self.vectors else 0
        if self.buffer is None:
            return np.zeros((0, dim), dtype=np.float32)
        return self.buffer.rows(len(self.live))[self.live]

    def similarities(self, vector: Vector) -> Vector:
        """The cosine similarity of each active fact (in ``active`` order) to ``vector``:
        one pass over the scope's rows per vector (the gate's novelty, its contradiction
        check and the new fact's distances ask for the same one; a read-only array)."""
        if self.buffer is None:
            return np.zeros(0, dtype=np.float32)
        key = vector.dtype.str.encode() + vector.tobytes()
        found = self._similarities.get(key)
        if found is None:
            sims = self.buffer.rows(len(self.live)) @ vector
            found = sims if len(self.active) == len(self.live) else sims[self.live]
            found.flags.writeable = False
            self._similarities.clear()  # the latest vector only
            self._similarities[key] = found
        return found

    @cached_property
    def _similarities(self) -> dict[bytes, Vector]:
        return {}

    @property
    def nearest_distance(self) -> dict[str, float]:
        """Each active fact's distance to its nearest other active fact, where it has one."""
        found = self.distances[: len(self.live)]
        return {i: float(found[row]) for i, row in self.row_of.items() if not np.isnan(found[row])}

    @cached_property
    def nearest_distances(self) -> npt.NDArray[np.float64]:
        """The values of :attr:`nearest_distance`, in no particular order."""
        found = self.distances[self.live]
        return found[~np.isnan(found)]

    def fact_in_slot(self, key: str | None) -> Fact | None:
        fact_id = self.slots.get(key) if key else None
        return self.facts[fact_id] if fact_id else None

    def open_facts(self, owner: str | None) -> list[Fact]:
        """The active facts of an owner's open attributes, latest first."""
        ids = self.open_slots.get(owner, ()) if owner else ()
        return [self.facts[i] for i in reversed(ids)]

    def naming_members(self) -> list[Fact]:
        """The active facts that name a member of an exclusive category, latest first."""
        return [self.facts[i] for i in reversed(self.named)]

    def negated_facts(self) -> list[Fact]:
        """The active negated facts, latest first."""
        return [self.facts[i] for i in reversed(self.negations)]

    def latest_first(self) -> list[Fact]:
        """Every active fact, latest first."""
        return [self.facts[i] for i in reversed(self.active)]

    def put(
        self,
        fact: Fact,
        vector: Vector,
        attribute: AttributeVectors | None = None,
        values: tuple[ValueState, ...] | None = None,
    ) -> ScopeMemory:
        """Record a fact's new state; it joins or leaves the active set by its status. Its
        attribute's vectors and its values, if given, are added (else it keeps them)."""
        attributes = self.attributes
        if attribute is not None:
            attributes = {**self.attributes, fact.fact_id: attribute}
        kept = self.values
        if values:
            kept = {**self.values, fact.fact_id: (*self.values.get(fact.fact_id, ()), *values)}
        was = self.facts.get(fact.fact_id) if fact.fact_id in self.row_of else None
        joins = fact.status is FactStatus.ACTIVE
        changed = replace(
            self._rows_with(fact.fact_id, vector, joins)._journaled([fact.fact_id]),
            facts={**self.facts, fact.fact_id: fact},
            vectors={**self.vectors, fact.fact_id: vector},
            attributes=attributes,
            values=kept,
        )
        now = fact if joins else None
        return changed._indexes_with(was, now)._valued(fact.fact_id, joins)._compacted()

    def _valued(self, fact_id: str, joins: bool) -> ScopeMemory:
        """The active facts that state values, once this fact joins or leaves them."""
        kept = _without(self.value_facts, fact_id)
        if joins and fact_id in self.values:
            kept = (*kept, fact_id)
        return replace(self, value_facts=kept)

    def _rows_with(self, fact_id: str, vector: Vector, joins: bool) -> ScopeMemory:
        """Rows, order and distances once the fact leaves its row and, if active, takes a
        new last one (a new fact's distance found against the rows before it; a fact that
        leaves does not raise its neighbours' distances: slightly stricter)."""
        n = len(self.live)
        live, distances = self.live, self.distances[:n]
        row_of, active = dict(self.row_of), self.active
        carried = float("nan")
        old = row_of.pop(fact_id, None)
        if old is not None:
            live, carried = live.copy(), float(distances[old])
            live[old] = False
            active = _without(active, fact_id)
        if not joins:
            return replace(self, live=live, distances=distances, row_of=row_of, active=active)
        lowered: list[str] = []
        if fact_id not in self.facts and self.active:
            gaps = 1.0 - self.similarities(vector)
            carried = float(np.min(gaps))
            distances = distances.copy()
            were = distances[self.live]
            now = np.minimum(np.where(np.isnan(were), 2.0, were), gaps)
            distances[self.live] = now
            lowered = [self.active[k] for k in np.flatnonzero(~(were == now))]
        buffer = (self.buffer or RowBuffer(len(vector))).appended(n, vector)
        row_of[fact_id] = n
        return replace(
            self,
            buffer=buffer,
            live=np.append(live, True),
            distances=np.append(distances, carried),
            orders=np.append(self.orders[:n], self.next_order),
            next_order=self.next_order + 1,
            row_of=row_of,
            active=(*active, fact_id),
        )._journaled(lowered)

    def _journaled(self, ids: Iterable[str]) -> ScopeMemory:
        journal = (self.journal or Journal()).appended(self.journal_length, ids)
        return replace(self, journal=journal, journal_length=len(journal.ids))

    def changed_since(self, before: ScopeMemory) -> list[str] | None:
        """The ids of the facts put or given a lower distance since ``before`` (an earlier
        version of this one), or None if this memory does not descend from it."""
        if self.journal is None or before.journal is not self.journal:
            return None if before.facts else list(self.facts)
        if before.journal_length > self.journal_length:
            return None
        return list(dict.fromkeys(self.journal.ids[before.journal_length : self.journal_length]))

    def row_state(self, fact_id: str) -> tuple[int | None, float | None]:
        """An active fact's place in the active order (a number that only grows) and its
        distance to its nearest other active fact, if it has one; (None, None) else."""
        row = self.row_of.get(fact_id)
        if row is None:
            return None, None
        distance = float(self.distances[row])
        return int(self.orders[row]), None if np.isnan(distance) else distance

    def _indexes_with(self, was: Fact | None, now: Fact | None) -> ScopeMemory:
        """Slots, open slots and the exclusive-category index once the fact's old active
        version ``was`` leaves them and its new one ``now`` (if active) joins at the end."""
        old_key = slot_index_key(was) if was is not None else None
        members = _moved(self.slot_members, was, old_key, now, slot_index_key)
        slots = dict(self.slots)
        for key in {old_key, slot_index_key(now) if now is not None else None} - {None}:
            assert key is not None  # noqa: S101 - None was just removed
            slots.pop(key, None)
            if key in members:
                slots[key] = _latest_in_slot(self.facts, members[key])
        old_owner = _open_owner_of(was) if was is not None else None
        owners = _moved(self.open_slots, was, old_owner, now, _open_owner_of)
        return replace(
            self,
            slot_members=members,
            slots=slots,
            open_slots=owners,
            named=_listed(self.named, was, now, _names_members),
            negations=_listed(self.negations, was, now, _is_negated),
        )

    def _compacted(self) -> ScopeMemory:
        """This memory with its dead rows dropped, once they outnumber the live ones."""
        n, kept = len(self.live), len(self.active)
        if self.buffer is None or n - kept <= max(kept, 64):
            return self
        rows = np.flatnonzero(self.live)
        buffer = RowBuffer(self.buffer.rows(n).shape[1], self.buffer.rows(n)[rows])
        return replace(
            self,
            buffer=buffer,
            live=np.ones(kept, dtype=np.bool_),
            distances=self.distances[rows],
            orders=self.orders[rows],
            row_of={fact_id: row for row, fact_id in enumerate(self.active)},
        )

    @classmethod
    def restore(
        cls,
        entries: Sequence[tuple[Fact, Vector]],
        active: Iterable[str],
        distances: Mapping[str, float],
        attributes: Mapping[str, AttributeVectors] | None = None,
        orders: Sequence[int] | None = None,
        values: Mapping[str, tuple[ValueState, ...]] | None = None,
    ) -> ScopeMemory:
        """Rebuild exactly the memory that was saved (row order, distances and attribute
        vectors included; ``orders``, the active facts' order numbers, if saved)."""
        facts = {fact.fact_id: fact for fact, _ in entries}
        vectors = {fact.fact_id: vector for fact, vector in entries}
        order = tuple(active)
        dim = next(iter(vectors.values())).shape[0] if vectors else 0
        rows = _stack([vectors[i] for i in order], dim)
        members = _members(facts, order, slot_index_key)
        return cls(
            facts=facts,
            vectors=vectors,
            active=order,
            slots={key: _latest_in_slot(facts, ids) for key, ids in members.items()},
            open_slots=_members(facts, order, _open_owner_of),
            attributes=dict(attributes or {}),
            values=dict(values or {}),
            buffer=RowBuffer(dim, rows) if order else None,
            row_of={fact_id: row for row, fact_id in enumerate(order)},
            live=np.ones(len(order), dtype=np.bool_),
            distances=np.array([distances.get(i, np.nan) for i in order], dtype=np.float64),
            orders=np.array(range(len(order)) if orders is None else orders, dtype=np.int64),
            next_order=max(orders, default=-1) + 1 if orders is not None else len(order),
            slot_members=members,
            journal=Journal(),
            named=tuple(i for i in order if _names_members(facts[i])),
            negations=tuple(i for i in order if facts[i].negated),
            value_facts=tuple(i for i in order if values and i in values),
        )


def _stack(rows: list[Vector], dim: int) -> Vector:
    if not rows:
        return np.zeros((0, dim), dtype=np.float32)
    return np.vstack(rows).astype(np.float32)


def _latest_in_slot(facts: Mapping[str, Fact], ids: Sequence[str]) -> str:
    """A slot's latest active fact; a value that still holds before one that ended ("I
    used to live in X", kept as history, never hides where the subject lives now)."""
    current = [i for i in ids if facts[i].valid_to is None]
    return (current or list(ids))[-1]


def _without(ids: tuple[str, ...], fact_id: str) -> tuple[str, ...]:
    if fact_id not in ids:
        return ids
    at = ids.index(fact_id)
    return ids[:at] + ids[at + 1 :]


def _listed(
    ids: tuple[str, ...], was: Fact | None, now: Fact | None, wanted: Callable[[Fact], bool]
) -> tuple[str, ...]:
    """A list of active fact ids (in active order) once the fact's old version leaves it
    and its new one, if active and wanted, joins its end."""
    kept = _without(ids, was.fact_id) if was is not None else ids
    return (*kept, now.fact_id) if now is not None and wanted(now) else kept


def _names_members(fact: Fact) -> bool:
    return bool(named_members(fact.statement))


def _is_negated(fact: Fact) -> bool:
    return fact.negated


def _moved(
    groups: Mapping[str, tuple[str, ...]],
    was: Fact | None,
    old_key: str | None,
    now: Fact | None,
    key_of: Callable[[Fact], str | None],
) -> dict[str, tuple[str, ...]]:
    """Groups of active fact ids (in active order) once a fact's old version ``was``
    leaves ``old_key``'s group and its new version, if active, joins the end of its own."""
    moved = dict(groups)
    if was is not None and old_key is not None and old_key in moved:
        kept = _without(moved[old_key], was.fact_id)
        moved[old_key] = kept
        if not kept:
            del moved[old_key]
    new_key = key_of(now) if now is not None else None
    if now is not None and new_key is not None:
        moved[new_key] = (*moved.get(new_key, ()), now.fact_id)
    return moved


def _members(
    facts: Mapping[str, Fact], active: tuple[str, ...], key_of: Callable[[Fact], str | None]
) -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = {}
    for fact_id in active:
        key = key_of(facts[fact_id])
        if key is not None:
            groups.setdefault(key, []).append(fact_id)
    return {key: tuple(ids) for key, ids in groups.items()}
