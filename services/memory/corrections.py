"""Corrections and the review queue at the service edge: check, then record the action.

An action is a turn of its own on the scope's turns topic (sealed like any turn, ordered
with the scope's turns, re-derived by a replay); the derive stage applies it
(``core/facts/corrections.py``). Here we only refuse what can never apply.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from provmem.core.capture import TurnInput, check_limits, record_turn
from provmem.core.events import Fact, FactStatus, TurnAction, TurnRecorded
from provmem.core.scope import Scope

if TYPE_CHECKING:  # the facade imports the refusal; the runtime loads only when used
    from provmem.streams.runtime.components import Components

OPEN = (FactStatus.ACTIVE, FactStatus.NEEDS_REVIEW)
IN_REVIEW = (FactStatus.NEEDS_REVIEW,)
MAX_REASON = 1000


class CorrectionRefusedError(ValueError):
    """The action cannot apply to this fact (its status, an empty statement...)."""


class ForeignScopeError(CorrectionRefusedError):
    """The fact belongs to another scope than the caller's: never touched."""


async def target_fact(
    components: Components,
    fact_id: str,
    scope: str | None,
    statuses: tuple[FactStatus, ...],
    action: str,
) -> Fact:
    """The fact an action may act on, or a clear refusal."""
    fact = await components.views.get(fact_id)
    if fact is not None and scope is not None and Scope.parse(scope).key != fact.scope.key:
        raise ForeignScopeError(
            f"fact {fact_id} is not in scope {scope}: a correction cannot touch another "
            "tenant's facts"
        )
    if fact is None:
        raise LookupError(f"fact {fact_id}: not found")
    if fact.status not in statuses:
        allowed = " or ".join(s.value for s in statuses)
        raise CorrectionRefusedError(
            f"fact {fact_id} is {fact.status.value}: {action} needs a fact that is {allowed}"
        )
    return fact


async def action_turn(
    components: Components,
    fact: Fact,
    action: TurnAction,
    text: str,
    speaker: str,
    reason: str,
) -> TurnRecorded:
    """The sealed turn that records ``speaker`` acting on ``fact`` now."""
    if not text.strip():
        raise CorrectionRefusedError(f"{action}: the statement or reason must not be empty")
    if len(reason) > MAX_REASON:
        raise CorrectionRefusedError(f"reason: at most {MAX_REASON} characters")
    now = datetime.now(UTC)
    seed = "\x1f".join([action, fact.fact_id, text, reason, speaker, now.isoformat()])
    turn = TurnInput(
        scope=fact.scope.key,
        text=text,
        speaker=speaker,
        captured_at=now,
        turn_id="act_" + hashlib.sha256(seed.encode()).hexdigest()[:24],
        source_uri=f"provmem:{action}",
    )
    settings = components.settings
    check_limits(turn, now, settings.max_text_bytes, settings.max_future_skew_s)
    sealed, content_hash = await components.sealer.seal(fact.scope.key, text)
    recorded = record_turn(turn, sealed, content_hash)
    update = {"action": action, "target_fact_id": fact.fact_id, "reason": reason}
    return TurnRecorded.model_validate({**recorded.model_dump(), **update})
