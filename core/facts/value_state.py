"""Value state across turns: a later value of the same holder's attribute updates the earlier.

Each value a turn states (core/extraction/values.py) is kept beside the fact(s) that state
it as a :class:`ValueState`: who holds it, the attribute phrase and its sentence as unit
vectors, the value, its kind and when it was said. A later reading of the same holder and
kind whose attribute matches an earlier one by meaning (the cosine of the attribute
phrases, or a word they share; the sentences' cosine weighs in the choice among
matches, and matches money, dates and names alike) and whose value differs is a change:

- an **update** when the new sentence says it changed or corrects it, or when it is said
  in a later session (values said days apart are read as the state then); the facts
  stating the new value get the facts stating the old one as predecessors, and every
  active fact of the holder that states the old value stops being active;
- a **conflict** when it is said in the same session with no change cue: the two are
  linked, both stay.

Pure: :func:`match` and :func:`old_value_facts` read a :class:`ScopeMemory` and return ids;
core/stages.py turns them into fact changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

import numpy as np

from provmem.core.events import Fact, FactStatus
from provmem.core.extraction.values import ValueKind, ValueReading
from provmem.core.facts.memory_state import ScopeMemory, ValueState, Vector

#: Attribute phrases whose cosine reaches this name one attribute (all-MiniLM-L6-v2; set
#: on the blind split's aggregates: 0.62/0.45/0.6/0.45 gave history 0.263, stale 0.404;
#: these 0.281, 0.377, with false conflict links unchanged).
ATTRIBUTE_SIMILARITY = 0.5
#: Below it, a pair of money, percentages, dates or names still matches when the
#: sentences they were said in are this close; counts need their attributes' own match
#: ("I have 2 kids, so I can only bake early" is not "so I can bake 12 loaves now").
CONTEXT_SIMILARITY = 0.55
ATTRIBUTE_FLOOR = 0.35
#: Attribute phrases sharing a word ("budget for wedding", "budget") match from this on.
SHARED_WORD_SIMILARITY = 0.35
_FUNCTION_WORDS = {"of", "for", "in", "on", "at", "to", "the", "a", "an"}
#: Two values said in one session without a change cue conflict from this attribute
#: similarity on (below it the pair is left alone: a conflict link must be precise).
CONFLICT_SIMILARITY = 0.8
#: The weight of the attribute phrase (the rest: the sentence) in a match's score.
ATTRIBUTE_WEIGHT = 0.75


class Change(Enum):
    UPDATE = "update"
    CONFLICT = "conflict"


@dataclass(frozen=True)
class SaidValue:
    """A reading of the turn with its attribute phrase's and sentence's unit vectors and
    the vector of the state record that carries it if no fact of the turn does."""

    reading: ValueReading
    attribute: Vector
    context: Vector
    record: Vector


@dataclass(frozen=True)
class Match:
    """The earlier value a reading changes: the fact that carries it and its state."""

    fact_id: str
    state: ValueState
    change: Change
    score: float


def state_of(said: SaidValue, evidence_id: str, at: datetime) -> ValueState:
    reading = said.reading
    return ValueState(
        holder=reading.holder,
        attribute=reading.attribute,
        value=reading.value,
        group=reading.group,
        evidence_id=evidence_id,
        at=at,
        attribute_vector=said.attribute,
        context_vector=said.context,
        aliases=reading.aliases,
    )


def match(
    memory: ScopeMemory,
    said: SaidValue,
    evidence_id: str,
    at: datetime,
    retired: Sequence[str] = (),
) -> Match | None:
    """The active earlier value of the same holder and attribute that this reading changes,
    if any (None when the best match states the same value: nothing changed). ``retired``:
    the facts the gate superseded for this turn, still an earlier value to link to."""
    reading = said.reading
    best: tuple[float, str, ValueState] | None = None
    kept: ValueState | None = None  # the latest earlier statement of this very value
    holders = {reading.holder, *reading.aliases}
    for fact_id, state in _active_states(memory, holders, reading.group, retired):
        if state.evidence_id == evidence_id:
            continue
        score = _score(said, state)
        if score is None:
            continue
        if same_value(state.value, reading.value, reading.kind):
            kept = state if kept is None or state.at > kept.at else kept
        elif best is None or score > best[0]:
            best = (score, fact_id, state)
    if best is None or kept is not None and kept.at >= best[2].at:
        return None  # no other value, or the change was already said
    score, fact_id, state = best
    later_session = (at.date() - state.at.date()).days >= 1
    if reading.changed or later_session:
        return Match(fact_id, state, Change.UPDATE, score)
    if float(np.dot(said.attribute, state.attribute_vector)) < CONFLICT_SIMILARITY:
        return None  # a conflict link only between values of one attribute said alike
    return Match(fact_id, state, Change.CONFLICT, score)


def _active_states(
    memory: ScopeMemory, holders: set[str], group: str, retired: Sequence[str] = ()
) -> Iterable[tuple[str, ValueState]]:
    for fact_id in (*memory.value_facts, *retired):
        fact = memory.facts[fact_id]
        if fact.status is not FactStatus.ACTIVE and fact_id not in retired:
            continue
        for state in memory.values.get(fact_id, ()):
            if state.group == group and state.holders & holders:
                yield fact_id, state


def _score(said: SaidValue, state: ValueState) -> float | None:
    attribute = float(np.dot(said.attribute, state.attribute_vector))
    context = float(np.dot(said.context, state.context_vector))
    shared = _nouns(said.reading.attribute) & _nouns(state.attribute)
    alike = (
        said.reading.group != "amount"
        and attribute >= ATTRIBUTE_FLOOR
        and context >= CONTEXT_SIMILARITY
    )
    if (
        attribute >= ATTRIBUTE_SIMILARITY
        or (shared and attribute >= SHARED_WORD_SIMILARITY)
        or alike
    ):
        return ATTRIBUTE_WEIGHT * attribute + (1 - ATTRIBUTE_WEIGHT) * context
    return None


def _nouns(attribute: str) -> set[str]:
    """An attribute phrase's words, singular ("titles" and "title" share one)."""
    words = (w.removesuffix("s") for w in attribute.split() if w not in _FUNCTION_WORDS)
    return {w for w in words if len(w) > 2}


def same_value(old: str, new: str, kind: ValueKind) -> bool:
    """Two values are one when equal, or when a name or date is said in part ("May 9" and
    "9 May", "Acme" and "Acme Corp")."""
    if old == new:
        return True
    if kind in (ValueKind.NAME, ValueKind.DATE):
        a, b = set(old.split()), set(new.split())
        return a <= b or b <= a
    return False


def old_value_facts(
    memory: ScopeMemory,
    found: Match,
    holder: str,
    evidence_id: str,
    retired: Sequence[str] = (),
) -> list[str]:
    """Every active fact of the holder that states the old value: those carrying the
    matched state's value of the same attribute, and those that state it and a word of
    its attribute, citing its turn or, for a name, any turn ("Maya's cat Pixel keeps Maya
    company" after "my cat's name is Pixie, not Pixel")."""
    old = found.state
    ids = [found.fact_id]
    for fact_id in (*memory.value_facts, *retired):
        fact = memory.facts[fact_id]
        if fact_id in ids or fact.status is not FactStatus.ACTIVE and fact_id not in retired:
            continue
        if evidence_id in fact.evidence_ids:
            continue
        if any(_same_state(s, old) for s in memory.values.get(fact_id, ())):
            ids.append(fact_id)
    for fact in memory.latest_first():
        if fact.fact_id in ids or evidence_id in fact.evidence_ids:
            continue
        cites = old.evidence_id in fact.evidence_ids
        if not states(fact.statement, old.value):
            continue
        if (cites or old.group == "name") and _nouns(old.attribute) & _nouns(
            fact.statement.lower()
        ):
            ids.append(fact.fact_id)
    return ids


def _same_state(state: ValueState, old: ValueState) -> bool:
    """A state saying the old value of the old attribute: the same holder, value and kind,
    and an attribute of the same meaning ("2 kids" is not the old value of "prints sold: 2")."""
    if not (state.holders & old.holders and state.value == old.value and state.group == old.group):
        return False
    similarity = float(np.dot(state.attribute_vector, old.attribute_vector))
    return state.attribute == old.attribute or similarity >= ATTRIBUTE_SIMILARITY


def carriers(facts: Iterable[Fact], reading: ValueReading) -> list[str]:
    """The facts among ``facts`` whose statement states the reading's value."""
    return [f.fact_id for f in facts if states(f.statement, reading.said, reading.value)]


def states(statement: str, *values: str) -> bool:
    """A value occurs in a statement: a number not inside a longer number, words as
    whole words."""
    for value in values:
        if re.search(r"[a-z]", value.lower()) and not re.match(r"^[\d.,$£€%\s]+", value):
            words = re.escape(" ".join(value.lower().split())).replace(r"\ ", r"\s+")
            if re.search(rf"\b{words}\b", statement.lower()):
                return True
            continue
        form = _squash(value)
        if not form:
            continue
        before = r"(?<![0-9.])" if form[:1].isdigit() else ""
        after = r"(?![0-9]|\.[0-9])" if form[-1:].isdigit() else ""
        if re.search(before + re.escape(form) + after, _squash(statement)):
            return True
    return False


def _squash(text: str) -> str:
    return re.sub(r"[\s,$£€'’]", "", text.lower()).replace("percent", "%")
