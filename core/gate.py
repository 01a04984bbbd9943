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
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

import numpy as np

from .events import Fact
from .extraction import Claim
from .memory_state import ScopeMemory, Vector, slot_key


@dataclass(frozen=True)
class GateConfig:
    """Calibrated by ``provmem calibrate``; defaults fit all-MiniLM-L6-v2."""

    kappa: float = 20.0
    threshold: float = 0.12
    margin: float = 0.13
    density_factor: float = 0.6
    density_min_facts: int = 8


class Verdict(StrEnum):
    ADD = "ADD"
    NOOP = "NOOP"
    UPDATE = "UPDATE"
    MERGE = "MERGE"
    REVIEW = "REVIEW"


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
    reason: str
    novelty: Novelty | None = None
    advised: bool = False  # the merge advisor was consulted (an LLM call, if it is one)


class MergeAdvisor(Protocol):
    """Optional (e.g. an LLM): resolves candidates in the uncertain band only."""

    def advise(self, claim: Claim, neighbour: Fact) -> Verdict | None: ...


def novelty(memory: ScopeMemory, vector: Vector, config: GateConfig) -> Novelty:
    """The candidate's novelty against the scope's active facts, with the adaptive threshold."""
    sims = memory.matrix @ vector
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
    distances = list(memory.nearest_distance.values())
    if len(distances) < config.density_min_facts:
        return config.threshold
    return min(config.threshold, config.density_factor * float(np.median(distances)))


def decide(
    memory: ScopeMemory,
    claim: Claim,
    vector: Vector,
    config: GateConfig,
    advisor: MergeAdvisor | None = None,
) -> Decision:
    """The gate's verdict for one candidate claim."""
    if claim.review_reason:
        return Decision(Verdict.REVIEW, None, f"needs review: {claim.review_reason}")
    superseded = _slot_conflict(memory, claim)
    if superseded is not None and claim.hedge:
        why = f"tentative ({claim.hedge!r}) value would supersede {superseded.fact_id}"
        return Decision(Verdict.REVIEW, superseded, f"needs review: {why}")
    if superseded is not None:
        return Decision(Verdict.UPDATE, superseded, "new value for a single-valued slot")
    if len(memory) == 0:
        return Decision(Verdict.ADD, None, "store empty")
    found = novelty(memory, vector, config)
    nearest = memory.facts[found.nearest] if found.nearest else None
    if found.score < found.threshold and nearest and compatible(claim, nearest):
        return Decision(Verdict.NOOP, nearest, "already known (corroborates)", found)
    if found.score >= found.threshold + config.margin:
        return Decision(Verdict.ADD, None, "novel", found)
    return _uncertain(claim, nearest, found, advisor)


def _slot_conflict(memory: ScopeMemory, claim: Claim) -> Fact | None:
    """The active fact a slotted claim supersedes: another value, or flipped polarity."""
    slot = claim.slot
    if slot is None:
        return None
    key = slot_key(slot.subject, slot.attribute, slot.value)
    current = memory.fact_in_slot(key)
    if current is None:
        return None
    if "=" not in key and current.slot_value != slot.value and not claim.negated:
        return current
    return current if current.negated != claim.negated else None


def _uncertain(
    claim: Claim, nearest: Fact | None, found: Novelty, advisor: MergeAdvisor | None
) -> Decision:
    """The uncertain band: the advisor if any (every call is counted), else the rules."""
    consulted = nearest is not None and advisor is not None
    if consulted:
        assert advisor is not None and nearest is not None  # noqa: S101 - just checked
        advised = advisor.advise(claim, nearest)
        if advised is not None:
            return Decision(advised, nearest, "resolved by merge advisor", found, advised=True)
    return replace(_band_rules(claim, nearest, found), advised=consulted)


def _band_rules(claim: Claim, nearest: Fact | None, found: Novelty) -> Decision:
    if nearest is not None and claim.slot and claim.slot.key == nearest.slot:
        if claim.slot.value == nearest.slot_value and compatible(claim, nearest):
            return Decision(Verdict.MERGE, nearest, "same slot and value, new detail", found)
    if nearest is not None and claim.correction:
        return Decision(Verdict.UPDATE, nearest, "correction of a close fact", found)
    return Decision(Verdict.ADD, None, "uncertain band, no slot match: kept apart", found)


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
    return "=" in slot_key(slot.subject, slot.attribute, slot.value)  # many values may coexist
