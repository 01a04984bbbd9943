"""Why each clause of a recorded turn became a claim or not (``provmem facts --explain``).

The turn is read as ``evidence`` reads it (opened under its subject's key); the rules
extractor's :func:`~provmem.core.extraction.claims.explain_turn` runs on it with the
participants the pipeline gives it; each kept claim names the facts whose support is its
span in this turn. An action turn (correct, retract, approve) is no statement: no clauses.
"""

from __future__ import annotations

from collections.abc import Sequence

from provmem.core.events import Fact, TurnRecorded
from provmem.core.extraction.claims import explain_turn, extraction_version
from provmem.core.extraction.outcomes import ClauseOutcome
from provmem.core.ports import ClauseParser, EvidenceSealing, EvidenceStore, FactViews
from provmem.services.memory.results import ClauseExplained, TurnExplained
from provmem.streams.pipeline import participants_before


async def explain_evidence(
    evidence: EvidenceStore,
    sealer: EvidenceSealing,
    views: FactViews,
    evidence_id: str,
    clauses: ClauseParser | None = None,
) -> TurnExplained | None:
    """The clauses of the turn recorded as ``evidence_id``, or None when there is none."""
    turn = await evidence.get(evidence_id)
    if turn is None:
        return None
    outcomes = await _outcomes(evidence, sealer, turn, clauses) if turn.action == "say" else []
    citing = await views.get_many(await views.facts_for_evidence(evidence_id))
    explained = [_explained(o, evidence_id, list(citing.values())) for o in outcomes]
    return TurnExplained(
        evidence_id=evidence_id,
        source_turn_id=turn.turn_id,
        speaker=turn.speaker,
        role=turn.role,
        action=turn.action,
        captured_at=turn.captured_at,
        extraction_version=extraction_version(clauses),
        clauses=tuple(sorted(explained, key=lambda c: (c.start, c.end))),
    )


async def _outcomes(
    evidence: EvidenceStore,
    sealer: EvidenceSealing,
    turn: TurnRecorded,
    clauses: ClauseParser | None,
) -> list[ClauseOutcome]:
    return explain_turn(
        await sealer.open(turn.text),
        speaker=turn.speaker,
        captured_at=turn.captured_at,
        role=turn.role,
        participants=await participants_before(evidence, turn),
        clauses=clauses,
    )


def _explained(outcome: ClauseOutcome, evidence_id: str, citing: Sequence[Fact]) -> ClauseExplained:
    claim, why = outcome.claim, outcome.why
    spans = {(evidence_id, s, e) for s, e in claim.spans} if claim and outcome.kept else set()
    return ClauseExplained(
        text=outcome.text,
        start=outcome.span[0],
        end=outcome.span[1],
        kept=outcome.kept,
        statement=claim.statement if claim else None,
        why=why.name.lower() if why else None,
        reason=why.value if why else None,
        detail=outcome.detail,
        review_reason=outcome.review,
        fact_ids=tuple(f.fact_id for f in citing if _supports(f, spans)),
    )


def _supports(fact: Fact, spans: set[tuple[str, int, int]]) -> bool:
    return any((s.evidence_id, s.start, s.end) in spans for s in fact.support)
