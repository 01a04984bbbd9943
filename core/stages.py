"""Pure processing stages: ``(event, state) -> (new state, events out)``.

Runtimes (the embedded runner and the faust workers) decode records, load
state, call these functions, write the state and send the events out.
"""

from __future__ import annotations

from .claims import EXTRACTION_VERSION, Claim, normalize, sentence_claims
from .events import Fact, FactChanged, FactOp, SupportSpan, TurnRecorded
from .gate import GateState, decide
from .ids import fact_id


def derive_fact_changes(
    turn: TurnRecorded, text: str, state: GateState
) -> tuple[GateState, list[FactChanged]]:
    """Extract claims from one turn and pass each through the write gate.

    A turn the gate has already seen yields nothing, so redelivery changes nothing.
    """
    if turn.evidence_id in state.seen_evidence:
        return state, []
    changes: list[FactChanged] = []
    for index, claim in enumerate(sentence_claims(text)):
        state, change = _gate_claim(state, turn, index, claim)
        changes.append(change)
    seen = state.seen_evidence | {turn.evidence_id}
    return state.model_copy(update={"seen_evidence": seen}), changes


def _gate_claim(
    state: GateState, turn: TurnRecorded, index: int, claim: Claim
) -> tuple[GateState, FactChanged]:
    decision = decide(state, claim.statement)
    if decision.existing is None:
        fact = _new_fact(turn, index, claim)
    else:
        fact = _corroborate(decision.existing, turn, claim)
    return _remember(state, fact), _change(decision.op, fact, decision.reason, turn)


def _new_fact(turn: TurnRecorded, index: int, claim: Claim) -> Fact:
    return Fact(
        fact_id=fact_id(turn.scope.key, turn.evidence_id, index),
        scope=turn.scope,
        statement=claim.statement,
        evidence_ids=(turn.evidence_id,),
        support=(_span(turn, claim),),
        entities=(turn.speaker,),
        extraction_version=EXTRACTION_VERSION,
        last_verified_at=turn.captured_at,
        version=1,
    )


def _corroborate(fact: Fact, turn: TurnRecorded, claim: Claim) -> Fact:
    evidence = fact.evidence_ids
    if turn.evidence_id not in evidence:
        evidence = (*evidence, turn.evidence_id)
    return fact.model_copy(
        update={
            "evidence_ids": evidence,
            "support": (*fact.support, _span(turn, claim)),
            "last_verified_at": turn.captured_at,
            "version": fact.version + 1,
        }
    )


def _span(turn: TurnRecorded, claim: Claim) -> SupportSpan:
    return SupportSpan(evidence_id=turn.evidence_id, start=claim.start, end=claim.end)


def _remember(state: GateState, fact: Fact) -> GateState:
    facts = {**state.facts, fact.fact_id: fact}
    by_statement = {**state.by_statement, normalize(fact.statement): fact.fact_id}
    return state.model_copy(update={"facts": facts, "by_statement": by_statement})


def _change(op: FactOp, fact: Fact, reason: str, turn: TurnRecorded) -> FactChanged:
    return FactChanged(
        change_id=f"{fact.fact_id}@{fact.version}",
        op=op,
        fact_id=fact.fact_id,
        scope=fact.scope,
        version=fact.version,
        fact=fact,
        reason=reason,
        caused_by=turn.evidence_id,
    )
