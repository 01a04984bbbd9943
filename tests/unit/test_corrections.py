"""Corrections and review decisions as pure functions on hand-built scope memories."""

from __future__ import annotations

import numpy as np

from provmem.core.claim import Claim
from provmem.core.events import FactOp, FactStatus, TurnRecorded
from provmem.core.facts.corrections import ActionInput, Original, apply_action
from provmem.core.facts.gate import GateConfig
from provmem.core.facts.memory_state import ScopeMemory, as_unit
from provmem.core.stages import Candidate, GateResult, derive_fact_changes
from tests.factories import turn

CONFIG = GateConfig()
SAID = "I live in Paris."


def vec(*weights: float) -> np.ndarray:
    return as_unit([*weights, *[0.0] * (8 - len(weights))])


def _claim(statement: str, review: str | None = None) -> Claim:
    return Claim(statement=statement, spans=((0, len(SAID)),), review_reason=review)


def _memory(*candidates: tuple[str, str | None, np.ndarray]) -> tuple[ScopeMemory, list[str]]:
    """One turn per candidate; returns the memory and the fact ids in order."""
    memory, ids = ScopeMemory(), []
    for index, (statement, review, vector) in enumerate(candidates):
        result = derive_fact_changes(
            turn(f"t{index}", minute=index),
            [Candidate(_claim(statement, review), vector)],
            memory,
            CONFIG,
            "test/1",
        )
        memory, ids = result.memory, [*ids, result.changes[-1].fact_id]
    return memory, ids


def _act(kind: str, target: str, text: str, memory: ScopeMemory, **extra: object) -> GateResult:
    action_turn = turn("act", speaker="ops", minute=30).model_copy(
        update={"action": kind, "target_fact_id": target, "reason": "checked"}
    )
    originals = [Original(turn("t0"), SAID)]
    action = ActionInput(action_turn, text, extraction_version="test/1", originals=originals)
    return apply_action(
        ActionInput(**{**action.__dict__, **extra}),  # type: ignore[arg-type]
        memory,
        CONFIG,
    )


def test_approving_a_novel_fact_makes_it_active() -> None:
    memory, (fact_id,) = _memory(("Alice lives in Paris.", "untraceable: x", vec(1)))
    assert memory.facts[fact_id].status is FactStatus.NEEDS_REVIEW
    result = _act("approve", fact_id, "Alice lives in Paris.", memory)
    (change,) = result.changes
    assert change.op is FactOp.UPDATE and change.fact is not None
    assert change.fact.status is FactStatus.ACTIVE and change.fact.review_reason is None
    assert change.caused_by.startswith("ev_") and change.reason == "approved by ops: checked"
    assert result.memory.active == (fact_id,)


def test_approving_a_duplicate_corroborates_the_active_fact() -> None:
    memory, (active, review) = _memory(
        ("Alice lives in Paris.", None, vec(1)), ("Alice lives in Paris!", "untraceable: x", vec(1))
    )
    result = _act("approve", review, "Alice lives in Paris!", memory)
    noop, merged = result.changes
    assert noop.op is FactOp.NOOP and noop.fact_id == active and noop.fact is not None
    assert len(noop.fact.evidence_ids) == 2
    assert merged.fact is not None and merged.fact.status is FactStatus.DELETED
    assert merged.fact.superseded_by == active
    assert result.memory.active == (active,)


def test_rejecting_deletes_with_the_reason() -> None:
    memory, (fact_id,) = _memory(("Alice lives in Paris.", "untraceable: x", vec(1)))
    (change,) = _act("reject", fact_id, "checked", memory).changes
    assert change.fact is not None and change.fact.status is FactStatus.DELETED
    assert change.fact.review_reason == "rejected by ops: checked"


def test_an_edit_traceable_to_the_evidence_is_approved() -> None:
    memory, (fact_id,) = _memory(("Alice resides in Paris.", "untraceable: resides", vec(1)))
    result = _act("approve", fact_id, "Alice lives in Paris.", memory, vector=vec(0, 1))
    (change,) = result.changes
    assert change.fact is not None and change.fact.status is FactStatus.ACTIVE
    assert change.fact.statement == "Alice lives in Paris."


def test_an_edit_the_evidence_does_not_support_is_refused_and_stays_in_review() -> None:
    memory, (fact_id,) = _memory(("Alice resides in Paris.", "untraceable: resides", vec(1)))
    result = _act("approve", fact_id, "Alice lives in Rome.", memory, vector=vec(0, 1))
    (change,) = result.changes
    assert change.fact is not None and change.fact.status is FactStatus.NEEDS_REVIEW
    assert change.fact.statement == "Alice resides in Paris."
    assert "edit refused by ops" in (change.fact.review_reason or "")
    assert "rome" in (change.fact.review_reason or "")


def test_correcting_supersedes_with_a_fact_from_the_correction() -> None:
    memory, (fact_id,) = _memory(("Alice lives in Paris.", None, vec(1)))
    result = _act("correct", fact_id, "Alice lives in Lisbon.", memory, vector=vec(0, 1))
    old, new = result.changes
    assert old.fact is not None and old.fact.status is FactStatus.SUPERSEDED
    assert new.fact is not None and new.fact.supersedes == fact_id
    assert new.fact.evidence_ids == (new.caused_by,) and old.fact.superseded_by == new.fact_id
    assert result.memory.active == (new.fact_id,)


def test_actions_that_do_not_apply_change_nothing() -> None:
    memory, (fact_id,) = _memory(("Alice lives in Paris.", None, vec(1)))
    assert _act("approve", fact_id, "Alice lives in Paris.", memory).changes == []
    assert _act("reject", fact_id, "no", memory).changes == []
    assert _act("retract", "fact_unknown", "no", memory).changes == []


def test_an_action_from_another_scope_is_ignored() -> None:
    memory, (fact_id,) = _memory(("Alice lives in Paris.", None, vec(1)))
    foreign: TurnRecorded = turn("act", scope="globex/app/bob").model_copy(
        update={"action": "retract", "target_fact_id": fact_id, "reason": "mine now"}
    )
    result = apply_action(ActionInput(foreign, "mine now"), memory, CONFIG)
    assert result.changes == [] and result.memory is memory
