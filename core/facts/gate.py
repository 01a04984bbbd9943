"""The novelty write gate: ADD, NOOP, UPDATE (supersede) or MERGE for each candidate.

Novelty is the negative log of a von Mises-Fisher kernel density over the scope's
active fact vectors, in units of cosine distance:

    novelty(x) = -(1/κ) · log Σ_i exp(κ (μ_i · x - 1))

With one close neighbour it equals the cosine distance to it; many moderately
close neighbours lower it (a dense region is less novel). The NOOP threshold
follows the store's density: it never exceeds a fraction of the typical
nearest-neighbour distance between the scope's own facts, so a dense store needs
a closer match before a candidate counts as known.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

import numpy as np

from provmem.core.claim import Claim, Slot
from provmem.core.events import Fact
from provmem.core.extraction.attributes import (
    change_cue,
    read_attribute,
    read_attributes,
    value_change_cue,
)
from provmem.core.extraction.polarity import denies_for_all_time, polarity_change_cue
from provmem.core.extraction.slot_rules import is_open_attribute
from provmem.core.facts.attribute_match import (
    comparable,
    same_attribute,
    value_kind,
    value_shape,
)
from provmem.core.facts.attribute_similarity import similar_attribute_fact
from provmem.core.facts.contradictions import (
    claim_role,
    claim_speaker,
    contradicted,
    exclusive_rival_fact,
)
from provmem.core.facts.decision_reason import DecisionReason, ReasonKind
from provmem.core.facts.memory_state import (
    AttributeVectors,
    Cardinality,
    ScopeMemory,
    Vector,
    cardinality,
    open_owner,
    slot_key,
)
from provmem.core.language.lexicon import IRREGULAR_PAST
from provmem.core.language.temporal import Tense, tense_at


@dataclass(frozen=True)
class GateConfig:
    """Calibrated by ``provmem calibrate``; defaults fit all-MiniLM-L6-v2."""

    kappa: float = 20.0
    threshold: float = 0.12
    margin: float = 0.13
    density_factor: float = 0.6
    density_min_facts: int = 8
    contradiction_similarity: float = 0.3
    contradiction_neighbours: int = 16
    # a said change whose attribute is worded differently ("the pipeline" / "a CI run")
    # updates the one fact of its subject and kind of value it is this close to
    # two attribute phrases worded apart name one thing from this similarity on
    # (core/facts/attribute_similarity.py; calibrated on labelled general pairs in
    # tests/integration/test_attribute_calibration.py)
    attribute_similarity: float = 0.42


class Verdict(StrEnum):
    ADD = "ADD"
    NOOP = "NOOP"
    UPDATE = "UPDATE"
    MERGE = "MERGE"
    REVIEW = "REVIEW"
    CONFLICT = "CONFLICT"


@dataclass(frozen=True)
class Novelty:
    score: float
    threshold: float
    nearest: str | None
    similarity: float


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    target: Fact | None
    reason: DecisionReason
    novelty: Novelty | None = None
    advised: bool = False  # the merge advisor was consulted (an LLM call, if it is one)


class MergeAdvisor(Protocol):
    """Optional (e.g. an LLM): resolves candidates in the uncertain band only."""

    def advise(self, claim: Claim, neighbour: Fact) -> Verdict | None: ...


def novelty(memory: ScopeMemory, vector: Vector, config: GateConfig) -> Novelty:
    """The candidate's novelty against the scope's active facts, with the adaptive threshold."""
    sims = memory.similarities(vector)
    best = int(np.argmax(sims))
    log_density = _logsumexp(config.kappa * (sims - 1.0))
    score = max(0.0, -log_density / config.kappa)
    return Novelty(
        score, adaptive_threshold(memory, config), memory.active[best], float(sims[best])
    )


def _logsumexp(values: Vector) -> float:
    top = float(np.max(values))
    return top + float(np.log(np.sum(np.exp(values - top))))


def adaptive_threshold(memory: ScopeMemory, config: GateConfig) -> float:
    """The base threshold, lowered when the scope's facts sit close to one another."""
    distances = memory.nearest_distances
    if len(distances) < config.density_min_facts:
        return config.threshold
    return min(config.threshold, config.density_factor * float(np.median(distances)))


def slotted(claim: Claim, speaker: str) -> Claim:
    """The claim keyed by its open (subject, attribute, value) reading when no slot rule
    keyed it, or only a many-valued one and the reading gives a measure
    (core/extraction/attributes.py), so a later value of the same attribute meets it."""
    if claim.negated or (claim.slot is not None and not _many_valued(claim.slot)):
        return claim
    reading = read_attribute(claim.statement, speaker)
    if reading is None or (claim.slot is not None and value_kind(reading.value) == "text"):
        return claim
    return replace(claim, slot=Slot(reading.subject, reading.attribute, reading.value))


def _many_valued(slot: Slot) -> bool:
    """A rule's slot that holds many values at once ("likes", "hobby"): a measure the
    statement gives ("a run is 8 minutes now") says more about what can change."""
    return cardinality(slot.attribute) is Cardinality.MANY


def decide(
    memory: ScopeMemory,
    claim: Claim,
    vector: Vector,
    config: GateConfig,
    advisor: MergeAdvisor | None = None,
    speaker: str = "",
    attribute: AttributeVectors | None = None,
) -> Decision:
    """The gate's verdict for one candidate claim (said by ``speaker``, if known; its
    attribute phrase embedded as ``attribute``, if it has an open reading)."""
    if claim.review_reason:
        held = DecisionReason(ReasonKind.HELD_FOR_REVIEW, detail=claim.review_reason)
        return Decision(Verdict.REVIEW, None, held)
    ended = _ended_value(memory, claim)
    if ended is not None:
        return ended
    current = (
        _slot_conflict(memory, claim)
        or similar_attribute_fact(
            memory, claim.slot, claim_role(claim), attribute, config.attribute_similarity
        )
        or _implied_subject_change(memory, claim, speaker or claim_speaker(claim))
    )
    if current is not None:
        return _value_change(claim, current)
    rival = exclusive_rival_fact(memory, claim)
    if rival is not None:
        return _rival_change(claim, *rival)
    if len(memory) == 0:
        return Decision(Verdict.ADD, None, DecisionReason(ReasonKind.STORE_EMPTY))
    found = novelty(memory, vector, config)
    contradicting = contradicted(
        memory, claim, vector, config.contradiction_similarity, config.contradiction_neighbours
    )
    if contradicting is not None:
        return replace(_polarity_change(claim, contradicting), novelty=found)
    nearest = memory.facts[found.nearest] if found.nearest else None
    if found.score < found.threshold and nearest and compatible(claim, nearest):
        return Decision(Verdict.NOOP, nearest, DecisionReason(ReasonKind.KNOWN), found)
    if found.score >= found.threshold + config.margin:
        return Decision(Verdict.ADD, None, DecisionReason(ReasonKind.NOVEL), found)
    return _uncertain(claim, nearest, found, advisor)


def _slot_conflict(memory: ScopeMemory, claim: Claim) -> Fact | None:
    """The active fact a slotted claim supersedes or contradicts: another value, or
    flipped polarity."""
    slot = claim.slot
    if slot is None:
        return None
    if is_open_attribute(slot.attribute):
        return _open_conflict(memory, slot, claim_role(claim))
    key = slot_key(slot.subject, slot.attribute, slot.value, claim_role(claim))
    current = memory.fact_in_slot(key)
    if current is None:
        return None
    one = cardinality(slot.attribute) is Cardinality.ONE
    if one and current.slot_value != slot.value and not claim.negated:
        # a corrected fact keeps its slot but no parsed value: any new value changes it
        if current.slot_value is None or comparable(current.slot_value, slot.value):
            return current
        return None
    return current if current.negated != claim.negated else None


def _ended_value(memory: ScopeMemory, claim: Claim) -> Decision | None:
    """A slot value said to have ended ("I used to live in X", "I worked as R") is
    history: beside a current different value it is added, never a replacement; of the
    current value itself it ends it (an update). Other cases take the usual way."""
    slot = claim.slot
    if slot is None or claim.valid_to is None or claim.negated or is_open_attribute(slot.attribute):
        return None
    key = slot_key(slot.subject, slot.attribute, slot.value, claim_role(claim))
    current = memory.fact_in_slot(key)
    if current is None or current.valid_to is not None:
        return None
    if current.slot_value == slot.value:
        ended = DecisionReason(ReasonKind.ENDED, attribute=slot.attribute, value=slot.value)
        return Decision(Verdict.UPDATE, current, ended)
    history = DecisionReason(ReasonKind.ENDED_BESIDE_CURRENT, attribute=slot.attribute)
    return Decision(Verdict.ADD, None, history)


def _open_conflict(memory: ScopeMemory, slot: Slot, role: str) -> Fact | None:
    """The latest active fact giving the same attribute (matched loosely: "image size" ~
    "docker image") a different value of the same kind, if any."""
    for fact in memory.open_facts(open_owner(slot.subject, slot.attribute, role)):
        attribute = (fact.slot or "").partition("|")[2]
        if fact.slot_value is None or not same_attribute(attribute, slot.attribute):
            continue
        if comparable(fact.slot_value, slot.value):
            return fact if fact.slot_value != slot.value else None
    return None


def _implied_subject_change(memory: ScopeMemory, claim: Claim, speaker: str) -> Fact | None:
    """The fact a said change updates when one of the two readings names its subject and
    the other leaves it to the speaker ("Tidepool has 2,100 MAU" ... "the monthly user
    count has climbed to 2,500", "we have 2,500 monthly users now"): the one active fact of
    the same attribute and kind of value across those subjects. Two named subjects never
    meet, and without a change cue nothing is inferred."""
    slot = claim.slot
    if slot is None or not is_open_attribute(slot.attribute) or claim.hedge:
        return None
    if not (claim.correction or value_change_cue(claim.statement)):
        return None
    speaker, role = speaker.lower(), claim_role(claim)
    found = [
        fact
        for fact in _open_facts_of_role(memory, role)
        if _implied_pair(fact, slot, speaker) and fact.slot_value is not None
        and fact.slot_value != slot.value and comparable(fact.slot_value, slot.value)
    ]  # fmt: skip
    return found[0] if len(found) == 1 else None


def _open_facts_of_role(memory: ScopeMemory, role: str) -> list[Fact]:
    ids = (i for owner, held in memory.open_slots.items() for i in held)
    return [memory.facts[i] for i in ids if memory.facts[i].asserted_by == role]


def _implied_pair(fact: Fact, slot: Slot, speaker: str) -> bool:
    subject, _, attribute = (fact.slot or "").partition("|")
    if subject == slot.subject or speaker not in (subject, slot.subject):
        return False
    return same_attribute(attribute, slot.attribute)


def _said_change(claim: Claim) -> bool:
    """The statement's own reading says the value changed ("relocating the database to
    eu-central-1", "postponed the beta to July 23": a verb that takes a thing to a value)."""
    return any(reading.changed for reading in read_attributes(claim.statement, ""))


def _past_tense(statement: str) -> bool:
    """Whether the statement tells what happened (a past-tense verb), not what is."""
    if tense_at(statement, len(statement)) is Tense.PAST:
        return True
    return any(w in IRREGULAR_PAST for w in statement.lower().split()) and not _PRESENT.search(
        statement
    )


_PRESENT = re.compile(r"\b(?:is|are|am|has|have|now|currently)\b", re.I)


def _rival_change(claim: Claim, fact: Fact, category: str) -> Decision:
    """Another member of an exclusive category: a change when the claim says so
    ("we switched to MongoDB"), else a contradiction (both stay, linked)."""
    if claim.correction or change_cue(claim.statement):
        changed = DecisionReason(ReasonKind.RIVAL_CHANGED, category=category)
        return Decision(Verdict.UPDATE, fact, changed)
    why = DecisionReason(ReasonKind.RIVAL_CONFLICT, fact_id=fact.fact_id, category=category)
    return Decision(Verdict.CONFLICT, fact, why)


def _value_change(claim: Claim, current: Fact) -> Decision:
    """A new value of a known attribute: an update when the claim says it changed (or
    the attribute is a rule's single-valued slot), else a conflict; tentative: review."""
    if claim.hedge:
        why = DecisionReason(ReasonKind.TENTATIVE, hedge=claim.hedge, fact_id=current.fact_id)
        return Decision(Verdict.REVIEW, current, why)
    slot = claim.slot
    assert slot is not None  # noqa: S101 - only slotted claims conflict on a slot
    if not is_open_attribute(slot.attribute):
        return Decision(Verdict.UPDATE, current, DecisionReason(ReasonKind.SINGLE_VALUED_CHANGE))
    change = _change(slot, current)
    if claim.correction or change_cue(claim.statement) or _said_change(claim):
        return Decision(Verdict.UPDATE, current, change(ReasonKind.VALUE_CHANGED))
    if current.slot_value is not None and value_shape(slot.value) not in IDENTITIES:
        if _past_tense(claim.statement):
            return Decision(Verdict.ADD, None, change(ReasonKind.PAST_MEASURE))
        return Decision(Verdict.UPDATE, current, change(ReasonKind.LATER_MEASURE))
    why = replace(change(ReasonKind.VALUE_CONFLICT), fact_id=current.fact_id)
    return Decision(Verdict.CONFLICT, current, why)


def _change(slot: Slot, current: Fact) -> Callable[[ReasonKind], DecisionReason]:
    """A reason of a kind that names the attribute's old value and its new one."""
    old = str(current.slot_value)  # "None" for a corrected fact without a parsed value
    return lambda kind: DecisionReason(kind, attribute=slot.attribute, old=old, new=slot.value)


# A measure (a count, a version, a quantity) changes over time: a later one in the present
# tense replaces the earlier, said with a change cue or not (in the past tense, without a
# cue, it is another event: "I ran 5 miles" ... "I ran 10 miles"). A different name or
# date (``IDENTITIES``) without a change cue contradicts the earlier one instead.
IDENTITIES = frozenset({"text", "date"})


def _polarity_change(claim: Claim, fact: Fact) -> Decision:
    """ "No longer X" after "X" (or "now X" after "not X") supersedes; otherwise, and
    always after "never X" (a denial for all time), the two contradict each other and
    both stay, linked."""
    ever = fact.negated and denies_for_all_time(fact.statement)
    if not ever and (claim.correction or polarity_change_cue(claim.statement)):
        return Decision(Verdict.UPDATE, fact, DecisionReason(ReasonKind.POLARITY_CHANGED))
    which = ReasonKind.NEGATES if claim.negated else ReasonKind.CONTRADICTS_NEGATION
    return Decision(Verdict.CONFLICT, fact, DecisionReason(which, fact_id=fact.fact_id))


def _uncertain(
    claim: Claim, nearest: Fact | None, found: Novelty, advisor: MergeAdvisor | None
) -> Decision:
    """The uncertain band: the advisor if any (every call is counted), else the rules."""
    consulted = nearest is not None and advisor is not None
    if consulted:
        assert advisor is not None and nearest is not None  # noqa: S101 - just checked
        advised = advisor.advise(claim, nearest)
        if advised is not None:
            why = DecisionReason(ReasonKind.ADVISED)
            return Decision(advised, nearest, why, found, advised=True)
    return replace(_band_rules(claim, nearest, found), advised=consulted)


def _band_rules(claim: Claim, nearest: Fact | None, found: Novelty) -> Decision:
    if nearest is not None and claim.slot and claim.slot.key == nearest.slot:
        if claim.slot.value == nearest.slot_value and compatible(claim, nearest):
            merged = DecisionReason(ReasonKind.SAME_SLOT_AND_VALUE)
            return Decision(Verdict.MERGE, nearest, merged, found)
    if nearest is not None and claim.correction:
        return Decision(Verdict.UPDATE, nearest, DecisionReason(ReasonKind.CORRECTION), found)
    return Decision(Verdict.ADD, None, DecisionReason(ReasonKind.UNCERTAIN), found)


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def compatible(claim: Claim, fact: Fact) -> bool:
    """Whether a near-duplicate may count as the same fact: same polarity, numbers, anchors."""
    if claim.negated != fact.negated:
        return False
    if set(_NUMBER.findall(claim.statement)) != set(_NUMBER.findall(fact.statement)):
        return False
    slot = claim.slot
    if slot is None or fact.slot != slot.key or fact.slot_value == slot.value:
        return True
    return cardinality(slot.attribute) is Cardinality.MANY  # many values may coexist
