"""Pure processing stages: ``(event, state) -> (new state, events out)``.

Runtimes decode records, extract and embed candidate claims (adapters), call
:func:`derive_fact_changes`, then send the changes and save the new state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from provmem.core.claim import Claim
from provmem.core.events import (
    VALUE_STATE,
    Fact,
    FactChanged,
    FactOp,
    FactStatus,
    SupportSpan,
    TurnRecorded,
)
from provmem.core.extraction.slot_rules import is_open_attribute
from provmem.core.extraction.values import ValueReading
from provmem.core.facts.contradictions import claim_role
from provmem.core.facts.gate import Decision, GateConfig, MergeAdvisor, Verdict, decide, slotted
from provmem.core.facts.memory_state import AttributeVectors, ScopeMemory, Vector
from provmem.core.facts.old_values import stating_old_value
from provmem.core.facts.value_state import (
    Change,
    Match,
    SaidValue,
    carriers,
    match,
    old_value_facts,
    state_of,
)
from provmem.core.ids import fact_id


@dataclass(frozen=True)
class Candidate:
    """A claim extracted from the turn, with its unit-length embedding and, when it has
    an open (subject, attribute, value) reading, its attribute phrase's vectors."""

    claim: Claim
    vector: Vector
    attribute: AttributeVectors | None = None


def attribute_phrase(claim: Claim, speaker: str) -> str | None:
    """The attribute phrase of the claim's open reading, as the gate will key it (None
    for a claim without one or with a rule's slot): what the adapter embeds beside the
    statement."""
    slot = slotted(claim, speaker).slot
    return slot.attribute if slot is not None and is_open_attribute(slot.attribute) else None


@dataclass(frozen=True)
class GateResult:
    memory: ScopeMemory
    changes: list[FactChanged] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)


def derive_fact_changes(
    turn: TurnRecorded,
    candidates: Sequence[Candidate],
    memory: ScopeMemory,
    config: GateConfig,
    extraction_version: str,
    advisor: MergeAdvisor | None = None,
    said: Sequence[SaidValue] = (),
) -> GateResult:
    """Pass each candidate of one turn through the gate; later ones see earlier decisions.
    Then each value the turn states (``said``) is kept as state and changes what an
    earlier value of the same holder and attribute left (core/facts/value_state.py)."""
    result = GateResult(memory)
    for index, given in enumerate(candidates):
        candidate = replace(given, claim=slotted(given.claim, turn.speaker))
        decision = decide(
            result.memory,
            candidate.claim,
            candidate.vector,
            config,
            advisor,
            turn.speaker,
            candidate.attribute,
        )
        step = _apply(decision, _Context(turn, index, candidate, extraction_version), result.memory)
        result = GateResult(
            step.memory, [*result.changes, *step.changes], [*result.decisions, decision]
        )
    retired = [
        c.fact_id for c in result.changes if c.fact and c.fact.status is FactStatus.SUPERSEDED
    ]
    tentative = [c.claim for c in candidates if c.claim.hedge or c.claim.review_reason]
    said = [v for v in said if not any(_inside(v.reading, claim) for claim in tentative)]
    for number, value in enumerate(said):
        index = len(candidates) + number
        result = _said_value(
            value, turn, index, extraction_version, result, retired, not candidates
        )
    return result


def _inside(reading: ValueReading, claim: Claim) -> bool:
    """The value is said inside the claim's support: a value of a tentative or held claim
    ("I think I live in Berlin now") waits with it for review, it changes nothing."""
    return any(start < reading.end and reading.start < end for start, end in claim.spans)


def _said_value(
    said: SaidValue,
    turn: TurnRecorded,
    index: int,
    version: str,
    result: GateResult,
    retired: Sequence[str] = (),
    unclaimed: bool = True,
) -> GateResult:
    """One value of the turn: kept on the turn's facts that state it, or on a state record
    of its own when none does and the turn yielded no claim (a value inside a question)
    or the value changes an earlier one; then an update or a conflict with that one."""
    memory = result.memory
    found = match(memory, said, turn.evidence_id, turn.captured_at, retired)
    state = state_of(said, turn.evidence_id, turn.captured_at)
    mine = [f for f in memory.latest_first() if turn.evidence_id in f.evidence_ids]
    carrying = carriers(mine, said.reading)
    changes: list[FactChanged] = []
    if not carrying and not unclaimed and found is None:
        return result  # the turn's claims say what it says: no record beside them
    if not carrying:
        record = _state_record(turn, index, said, version)
        memory = memory.put(record, said.record, values=(state,))
        changes.append(fact_changed(FactOp.ADD, record, "value stated", turn.evidence_id))
        carrying = [record.fact_id]
    else:
        for carrier in carrying:
            memory = memory.put(memory.facts[carrier], memory.vectors[carrier], values=(state,))
    if found is not None:
        memory, more = _value_change(memory, found, carrying, said, turn, retired)
        changes += more
    return GateResult(memory, [*result.changes, *changes], result.decisions)


def _value_change(
    memory: ScopeMemory,
    found: Match,
    carrying: list[str],
    said: SaidValue,
    turn: TurnRecorded,
    retired: Sequence[str],
) -> tuple[ScopeMemory, list[FactChanged]]:
    """The facts stating the new value take the first fact that stated the old one as
    predecessor and every fact stating the old value is retired, each taking the next
    older one as predecessor if it had none (an update); or the first of each is linked
    to the other (a conflict)."""
    reading = said.reading
    why = f"value of {reading.holder}'s {reading.attribute}: {found.state.value} -> {reading.value}"
    fresh = memory.facts[carrying[0]]
    if found.change is Change.CONFLICT:
        old = memory.facts[found.fact_id]
        linked = [
            _linked(fresh, old.fact_id),
            _linked(old, fresh.fact_id),
        ]
        return _put_all(memory, linked, f"conflict: {why}", turn.evidence_id)
    olds = sorted(
        (
            memory.facts[i]
            for i in old_value_facts(memory, found, reading.holder, turn.evidence_id, retired)
        ),
        key=lambda f: f.last_verified_at,
        reverse=True,
    )
    updated = [
        _retired(old, fresh, olds[k + 1].fact_id if k + 1 < len(olds) else None)
        for k, old in enumerate(olds)
    ]
    for carrier in carrying:
        fact = memory.facts[carrier]
        if fact.supersedes is None:
            update = {"supersedes": olds[-1].fact_id, "version": fact.version + 1}
            updated.append(fact.model_copy(update=update))
        else:
            updated += _joined(memory, fact, olds)
    return _put_all(memory, updated, f"update: {why}", turn.evidence_id)


def _retired(old: Fact, fresh: Fact, older: str | None = None) -> Fact:
    """The old fact superseded by ``fresh``; the next older fact stating the same old value
    becomes its predecessor if it had none (so the history runs back to the first)."""
    update: dict[str, object] = {
        "status": FactStatus.SUPERSEDED,
        "superseded_by": fresh.fact_id,
        "version": old.version + 1,
    }
    if old.supersedes is None and older is not None:
        update["supersedes"] = older
    return old.model_copy(update=update)


def _joined(memory: ScopeMemory, fact: Fact, olds: list[Fact]) -> list[Fact]:
    """A fact the gate already gave a predecessor: the end of that history takes the
    first fact of the old value as its own predecessor (unless the history holds one)."""
    ids = {old.fact_id for old in olds}
    tail, seen = fact, {fact.fact_id}
    while tail.supersedes is not None and tail.supersedes in memory.facts and len(seen) < 10:
        if tail.supersedes in ids:
            return []
        tail = memory.facts[tail.supersedes]
        if tail.fact_id in seen:
            return []
        seen.add(tail.fact_id)
    if tail.fact_id == fact.fact_id or tail.supersedes is not None:
        return []
    return [tail.model_copy(update={"supersedes": olds[-1].fact_id, "version": tail.version + 1})]


def _linked(fact: Fact, other: str) -> Fact:
    if other in fact.conflicts_with:
        return fact
    update = {"conflicts_with": (*fact.conflicts_with, other), "version": fact.version + 1}
    return fact.model_copy(update=update)


def _put_all(
    memory: ScopeMemory, facts: list[Fact], reason: str, caused_by: str
) -> tuple[ScopeMemory, list[FactChanged]]:
    changes = []
    for fact in facts:
        memory = memory.put(fact, memory.vectors[fact.fact_id])
        changes.append(fact_changed(FactOp.UPDATE, fact, reason, caused_by))
    return memory, changes


def record_statement(turn: TurnRecorded, reading: ValueReading) -> str:
    """The statement of a value's state record: "Maya's sister's rent is $1,900."."""
    holder = reading.holder
    if holder != turn.speaker and not holder[:1].isupper():
        holder = f"{turn.speaker}'s {holder}"
    return f"{holder}'s {reading.attribute} is {reading.said}."


def _state_record(turn: TurnRecorded, index: int, said: SaidValue, version: str) -> Fact:
    """A value said with no fact around it ("I've only sold 4 of the prints so far, is
    that normal?"): "Maya's prints sold is 4.", citing the value in the turn."""
    reading = said.reading
    statement = record_statement(turn, reading)
    claim = Claim(statement, ((reading.start, reading.end),), entities=(turn.speaker,))
    fact = new_fact(turn, index, claim, version)
    return fact.model_copy(update={"signals": (*fact.signals, VALUE_STATE)})


@dataclass(frozen=True)
class _Context:
    turn: TurnRecorded
    index: int
    candidate: Candidate
    extraction_version: str


def _apply(decision: Decision, ctx: _Context, memory: ScopeMemory) -> GateResult:
    target, verdict = decision.target, decision.verdict
    if verdict in (Verdict.NOOP, Verdict.MERGE) and target is not None:
        return _corroborate(decision, ctx, memory, target)
    if verdict is Verdict.UPDATE and target is not None:
        return _supersede(decision, ctx, memory, target)
    if verdict is Verdict.CONFLICT and target is not None:
        return _contradict(decision, ctx, memory, target)
    claim = ctx.candidate.claim
    if verdict is Verdict.REVIEW and claim.review_reason is None:
        claim = replace(claim, review_reason=decision.reason.review_text)
    fact = new_fact(ctx.turn, ctx.index, claim, ctx.extraction_version)
    return _emit(memory, [(fact, ctx.candidate.vector, FactOp.ADD)], decision.reason.text, ctx)


def _corroborate(
    decision: Decision, ctx: _Context, memory: ScopeMemory, target: Fact
) -> GateResult:
    claim = ctx.candidate.claim
    merged = decision.verdict is Verdict.MERGE and len(claim.statement) > len(target.statement)
    fact = with_support(target, ctx.turn, claim, statement=claim.statement if merged else None)
    vector = ctx.candidate.vector if merged else memory.vectors[target.fact_id]
    op = FactOp.UPDATE if decision.verdict is Verdict.MERGE else FactOp.NOOP
    return _emit(memory, [(fact, vector, op)], decision.reason.text, ctx)


def _supersede(decision: Decision, ctx: _Context, memory: ScopeMemory, target: Fact) -> GateResult:
    fresh = new_fact(ctx.turn, ctx.index, ctx.candidate.claim, ctx.extraction_version)
    fresh = fresh.model_copy(update={"supersedes": target.fact_id})
    also = stating_old_value(memory, target, fresh)  # the old value said in other words
    entries = [(_superseded(old, fresh), memory.vectors[old.fact_id], FactOp.UPDATE)
               for old in (target, *also)]  # fmt: skip
    entries.append((fresh, ctx.candidate.vector, FactOp.UPDATE))
    return _emit(memory, entries, decision.reason.text, ctx)


def _superseded(old: Fact, fresh: Fact) -> Fact:
    update = {"status": FactStatus.SUPERSEDED, "superseded_by": fresh.fact_id}
    return old.model_copy(update={**update, "version": old.version + 1})


def _contradict(decision: Decision, ctx: _Context, memory: ScopeMemory, target: Fact) -> GateResult:
    """Both facts stay active, each naming the other in ``conflicts_with``."""
    fresh = new_fact(ctx.turn, ctx.index, ctx.candidate.claim, ctx.extraction_version)
    fresh = fresh.model_copy(update={"conflicts_with": (target.fact_id,)})
    old = target.model_copy(
        update={
            "conflicts_with": (*target.conflicts_with, fresh.fact_id),
            "version": target.version + 1,
        }
    )
    reason = decision.reason.text
    added = _emit(memory, [(fresh, ctx.candidate.vector, FactOp.ADD)], reason, ctx)
    why = f"conflict with {fresh.fact_id}: {reason}"
    linked = _emit(added.memory, [(old, memory.vectors[target.fact_id], FactOp.UPDATE)], why, ctx)
    return GateResult(linked.memory, [*added.changes, *linked.changes])


def _emit(
    memory: ScopeMemory, entries: list[tuple[Fact, Vector, FactOp]], reason: str, ctx: _Context
) -> GateResult:
    changes = []
    fresh = fact_id(ctx.turn.scope.key, ctx.turn.evidence_id, ctx.index)
    for fact, vector, op in entries:
        attribute = ctx.candidate.attribute if fact.fact_id == fresh else None
        memory = memory.put(fact, vector, attribute)
        changes.append(fact_changed(op, fact, reason, ctx.turn.evidence_id))
    return GateResult(memory, changes)


def new_fact(turn: TurnRecorded, index: int, claim: Claim, extraction_version: str) -> Fact:
    """A fact first stated by ``turn``; needs-review when its claim failed validation."""
    status = FactStatus.NEEDS_REVIEW if claim.review_reason else FactStatus.ACTIVE
    return Fact(
        fact_id=fact_id(turn.scope.key, turn.evidence_id, index),
        scope=turn.scope,
        statement=claim.statement,
        evidence_ids=(turn.evidence_id,),
        support=_spans(turn, claim),
        entities=_with_speaker(claim.entities, turn.speaker),
        slot=claim.slot.key if claim.slot else None,
        slot_value=claim.slot.value if claim.slot else None,
        negated=claim.negated,
        valid_from=claim.valid_from,
        valid_to=claim.valid_to,
        signals=tuple(sorted({s.kind.value for s in claim.signals})),
        status=status,
        confidence=confidence(1),
        review_reason=claim.review_reason,
        asserted_by=claim_role(claim),
        time_expressions=claim.time_expressions,
        extraction_version=extraction_version,
        last_verified_at=turn.captured_at,
        version=1,
    )


def _with_speaker(entities: tuple[str, ...], speaker: str) -> tuple[str, ...]:
    """A speaker's claims are in the speaker's entity scope, named or not."""
    return entities if speaker in entities else (*entities, speaker)


def with_support(
    fact: Fact, turn: TurnRecorded, claim: Claim, statement: str | None = None
) -> Fact:
    """The fact corroborated by ``turn``: its evidence and spans joined, version + 1."""
    evidence = fact.evidence_ids
    if turn.evidence_id not in evidence:
        evidence = (*evidence, turn.evidence_id)
    return fact.model_copy(
        update={
            "statement": statement or fact.statement,
            "evidence_ids": evidence,
            "support": (*fact.support, *_spans(turn, claim)),
            "confidence": confidence(len(evidence)),
            "last_verified_at": max(fact.last_verified_at, turn.captured_at),
            "version": fact.version + 1,
        }
    )


def confidence(supporting_evidence: int) -> float:
    """Support, not truth: each independent piece of evidence halves the doubt."""
    return round(1.0 - 0.5 ** max(1, supporting_evidence), 4)


def _spans(turn: TurnRecorded, claim: Claim) -> tuple[SupportSpan, ...]:
    return tuple(
        SupportSpan(evidence_id=turn.evidence_id, start=start, end=end)
        for start, end in claim.spans
    )


def fact_changed(op: FactOp, fact: Fact, reason: str, caused_by: str) -> FactChanged:
    return FactChanged(
        change_id=f"{fact.fact_id}@{fact.version}",
        op=op,
        fact_id=fact.fact_id,
        scope=fact.scope,
        version=fact.version,
        fact=fact,
        reason=reason,
        caused_by=caused_by,
    )
