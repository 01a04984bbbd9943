"""Corrections and review decisions: pure functions from an action turn to fact changes.

A person (or an agent) acts on one fact of the turn's scope. The action turn is evidence
of its own; what it changes reaches subscribers as ordinary fact changes:

- ``correct``: a new fact with the corrected statement (evidence: the correction turn)
  supersedes the target; the target's history is kept.
- ``retract``: the fact is deleted; the evidence it came from is left untouched.
- ``approve``: a needs-review fact passes through the write gate (a duplicate of an active
  fact corroborates it instead); an edited statement must be traceable to the fact's
  original evidence, else the fact stays in review with the refusal recorded.
- ``reject``: a needs-review fact is deleted.

An action on a fact outside the turn's scope, or in the wrong status, changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from provmem.core.claim import Claim, Slot
from provmem.core.events import Fact, FactOp, FactStatus, SupportSpan, TurnRecorded
from provmem.core.extraction.validation import validate_claim
from provmem.core.facts.gate import GateConfig, Verdict, decide
from provmem.core.facts.memory_state import ScopeMemory, Vector
from provmem.core.ids import fact_id
from provmem.core.stages import GateResult, confidence, fact_changed

_NEGATION = re.compile(r"\b(?:not|no|never|cannot|nobody|none|neither|nor)\b|n't\b", re.I)
_OPEN = (FactStatus.ACTIVE, FactStatus.NEEDS_REVIEW)


@dataclass(frozen=True)
class Original:
    """Decrypted evidence a fact came from (to validate an edited statement against)."""

    turn: TurnRecorded
    text: str


@dataclass(frozen=True)
class ActionInput:
    """An action turn with what the runtime gathered for it."""

    turn: TurnRecorded
    text: str
    vector: Vector | None = None
    originals: Sequence[Original] = ()
    extraction_version: str = ""


def target_of(turn: TurnRecorded, memory: ScopeMemory) -> Fact | None:
    """The fact an action turn acts on, if it belongs to the turn's scope."""
    fact = memory.facts.get(turn.target_fact_id or "")
    return fact if fact is not None and fact.scope.key == turn.scope.key else None


def apply_action(action: ActionInput, memory: ScopeMemory, config: GateConfig) -> GateResult:
    """The memory and fact changes an action turn leads to (none when it does not apply)."""
    target = target_of(action.turn, memory)
    kind = action.turn.action
    if target is None or target.status not in _OPEN:
        return GateResult(memory)
    if kind == "correct" and action.text.strip() and action.vector is not None:
        return correct(action, target, memory)
    if kind == "retract":
        return _delete(action, target, memory, "retracted")
    if target.status is not FactStatus.NEEDS_REVIEW:
        return GateResult(memory)
    if kind == "reject":
        return _delete(action, target, memory, "rejected")
    if kind == "approve":
        return approve(action, target, memory, config)
    return GateResult(memory)


def correct(action: ActionInput, target: Fact, memory: ScopeMemory) -> GateResult:
    """A new fact stating the corrected text supersedes ``target``."""
    turn, statement = action.turn, action.text.strip()
    fresh = Fact(
        fact_id=fact_id(turn.scope.key, turn.evidence_id, 0),
        scope=target.scope,
        statement=statement,
        evidence_ids=(turn.evidence_id,),
        support=(SupportSpan(evidence_id=turn.evidence_id, start=0, end=len(action.text)),),
        entities=target.entities,
        slot=target.slot,
        negated=bool(_NEGATION.search(statement.replace("’", "'"))),
        signals=("correction",),
        confidence=confidence(1),
        supersedes=target.fact_id,
        extraction_version=action.extraction_version or target.extraction_version,
        last_verified_at=turn.captured_at,
        version=1,
    )
    old = _next(target, status=FactStatus.SUPERSEDED, superseded_by=fresh.fact_id)
    assert action.vector is not None  # noqa: S101 - checked by apply_action
    entries = [(old, memory.vectors[target.fact_id]), (fresh, action.vector)]
    return _emit(memory, entries, FactOp.UPDATE, _why(turn, "corrected"), turn)


def approve(
    action: ActionInput, target: Fact, memory: ScopeMemory, config: GateConfig
) -> GateResult:
    """Promote a needs-review fact through the gate, with its statement as approved."""
    turn, statement = action.turn, action.text.strip() or target.statement
    edited = statement != target.statement
    if edited:
        refusal = edit_refusal(statement, target, action.originals)
        if refusal is not None:
            kept = _next(target, review_reason=f"edit refused by {turn.speaker}: {refusal}")
            return _emit(
                memory, [(kept, memory.vectors[target.fact_id])], FactOp.UPDATE, refusal, turn
            )
    vector = (
        action.vector if edited and action.vector is not None else memory.vectors[target.fact_id]
    )
    decision = decide(memory, _claim(target, statement), vector, config)
    reason = _why(turn, "approved")
    if decision.verdict in (Verdict.NOOP, Verdict.MERGE) and decision.target is not None:
        return _merge_into(decision.target, target, memory, reason, turn)
    approved = _next(target, status=FactStatus.ACTIVE, statement=statement, review_reason=None)
    entries = [(approved, vector)]
    if decision.verdict is Verdict.UPDATE and decision.target is not None:
        older = decision.target
        approved = approved.model_copy(update={"supersedes": older.fact_id})
        superseded = _next(older, status=FactStatus.SUPERSEDED, superseded_by=target.fact_id)
        entries = [(superseded, memory.vectors[older.fact_id]), (approved, vector)]
    return _emit(memory, entries, FactOp.UPDATE, reason, turn)


def edit_refusal(statement: str, target: Fact, originals: Sequence[Original]) -> str | None:
    """Why an edited statement cannot stand on the fact's evidence (None when it can)."""
    if not originals:
        return "its original evidence is not available"
    reasons = []
    for original in originals:
        spans = tuple(
            (s.start, s.end) for s in target.support if s.evidence_id == original.turn.evidence_id
        )
        claim = Claim(statement=statement, spans=spans or ((0, len(original.text)),))
        checked = validate_claim(
            claim,
            original.text,
            speaker=original.turn.speaker,
            captured_at=original.turn.captured_at,
        )
        if checked.review_reason is None:
            return None
        reasons.append(checked.review_reason)
    return "; ".join(dict.fromkeys(reasons))


def _merge_into(
    keeper: Fact, reviewed: Fact, memory: ScopeMemory, reason: str, turn: TurnRecorded
) -> GateResult:
    """An approved duplicate corroborates the active fact it repeats and leaves review."""
    evidence = tuple(dict.fromkeys((*keeper.evidence_ids, *reviewed.evidence_ids)))
    joined = _next(
        keeper,
        evidence_ids=evidence,
        support=(*keeper.support, *reviewed.support),
        confidence=confidence(len(evidence)),
        last_verified_at=max(keeper.last_verified_at, reviewed.last_verified_at),
    )
    merged = _next(
        reviewed,
        status=FactStatus.DELETED,
        superseded_by=keeper.fact_id,
        review_reason=f"approved as a duplicate of {keeper.fact_id}",
    )
    entries = [(joined, memory.vectors[keeper.fact_id])]
    result = _emit(memory, entries, FactOp.NOOP, reason, turn)
    more = _emit(
        result.memory, [(merged, memory.vectors[reviewed.fact_id])], FactOp.UPDATE, reason, turn
    )
    return GateResult(more.memory, [*result.changes, *more.changes])


def _delete(action: ActionInput, target: Fact, memory: ScopeMemory, verb: str) -> GateResult:
    turn = action.turn
    why = _why(turn, verb, turn.reason or action.text.strip())
    deleted = _next(target, status=FactStatus.DELETED, review_reason=why)
    return _emit(memory, [(deleted, memory.vectors[target.fact_id])], FactOp.UPDATE, why, turn)


def _claim(fact: Fact, statement: str) -> Claim:
    slot = None
    if fact.slot is not None:
        subject, _, attribute = fact.slot.partition("|")
        slot = Slot(subject, attribute, fact.slot_value or "")
    spans = tuple((s.start, s.end) for s in fact.support) or ((0, len(statement)),)
    return Claim(statement=statement, spans=spans, slot=slot, negated=fact.negated)


def _next(fact: Fact, **update: object) -> Fact:
    return fact.model_copy(update={**update, "version": fact.version + 1})


def _why(turn: TurnRecorded, verb: str, reason: str | None = None) -> str:
    said = turn.reason if reason is None else reason
    return f"{verb} by {turn.speaker}" + (f": {said}" if said else "")


def _emit(
    memory: ScopeMemory,
    entries: list[tuple[Fact, Vector]],
    op: FactOp,
    reason: str,
    turn: TurnRecorded,
) -> GateResult:
    changes = []
    for fact, vector in entries:
        memory = memory.put(fact, vector)
        changes.append(fact_changed(op, fact, reason, turn.evidence_id))
    return GateResult(memory, changes)
