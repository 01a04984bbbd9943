"""Erasure, pure part: which evidence a request targets and how the views must change.

provmem erases by re-derivation: the scope's memory is rebuilt from its remaining
evidence (the same deterministic stages a fresh replay runs), and the difference between
the old and the rebuilt memory becomes fact changes. So after an erasure every view
equals a fresh replay of the log without the erased evidence, by construction: facts
supported elsewhere survive (re-validated), facts only the erased evidence supported are
erased, and facts superseded only by erased evidence come back.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from provmem.core import ids
from provmem.core.events import (
    ErasureRequested,
    ErasureTarget,
    Fact,
    FactChanged,
    FactOp,
    TurnRecorded,
)
from provmem.core.facts.memory_state import ScopeMemory
from provmem.core.scope import Scope
from provmem.core.stages import fact_changed

VIEW_FIELDS_IGNORED = {"version"}


def targeted(request: ErasureRequested, turns: Iterable[TurnRecorded]) -> list[str]:
    """Evidence ids of the request's scope that the request erases."""
    scope_key = request.scope.key
    chosen = []
    for turn in turns:
        if turn.scope.key != scope_key:
            continue
        if _matches(request, turn):
            chosen.append(turn.evidence_id)
    return chosen


#: Above the index any claim of one turn can have (core/extraction/salience.py ``CLAIM_BUDGET`` and
#: what relations add): the fact ids an erased turn may have made.
_CLAIM_INDEXES = 64


def erased_by(request: ErasureRequested, turns: Sequence[TurnRecorded]) -> list[str]:
    """What the request erases: the turns it targets, then every action turn (a
    correction, a retraction, a review decision) whose target fact goes with them.

    A fact's id follows from the turn that first stated it (core/ids.py), so a fact an
    erased turn made is gone after the erasure (re-derivation makes what other turns
    support under their own ids). An action on it acts on nothing, and its record names
    the erased fact's id: it goes too, and so, in turn, do actions on what it made."""
    chosen = list(dict.fromkeys(targeted(request, turns)))
    if request.target is ErasureTarget.SUBJECT:
        return chosen
    scope_key, gone = request.scope.key, set(chosen)
    made = {fact for evidence_id in gone for fact in _made_by(scope_key, evidence_id)}
    orphaned = True
    while orphaned:
        orphaned = False
        for turn in turns:
            if turn.evidence_id not in gone and turn.target_fact_id in made:
                gone.add(turn.evidence_id)
                chosen.append(turn.evidence_id)
                made.update(_made_by(scope_key, turn.evidence_id))
                orphaned = True
    return chosen


def _made_by(scope_key: str, evidence_id: str) -> list[str]:
    """The ids of the facts a turn may have first stated."""
    return [ids.fact_id(scope_key, evidence_id, i) for i in range(_CLAIM_INDEXES)]


def successor(request: ErasureRequested, evidence_ids: Iterable[str]) -> ErasureRequested:
    """The request filed again once it completed and ``evidence_ids`` (what it targets,
    on the log again) came back: the same target under an id that follows from the
    request before it and those ids, so filing it twice is still one erasure."""
    seed = "\x1f".join([request.request_id, *sorted(evidence_ids)])
    request_id = "er_" + hashlib.sha256(seed.encode()).hexdigest()[:24]
    return request.model_copy(update={"request_id": request_id, "requested_at": datetime.now(UTC)})


def _matches(request: ErasureRequested, turn: TurnRecorded) -> bool:
    if request.target is ErasureTarget.EVIDENCE:
        return turn.evidence_id in request.ids
    if request.target is ErasureTarget.SESSION:
        return turn.scope.session in request.ids or turn.source_uri in request.ids
    return True  # subject: everything of the scope (project/organization fan out per scope)


def same_view(left: Fact, right: Fact) -> bool:
    """Whether two facts show the same in the views (their version counters aside)."""
    ignore = VIEW_FIELDS_IGNORED
    return left.model_dump(exclude=ignore) == right.model_dump(exclude=ignore)


def changes_between(old: ScopeMemory, new: ScopeMemory, cause: str) -> list[FactChanged]:
    """The fact changes that turn the old memory's views into the rebuilt memory's views."""
    changes: list[FactChanged] = []
    for fact_id in sorted(set(old.facts) | set(new.facts)):
        before, after = old.facts.get(fact_id), new.facts.get(fact_id)
        if after is None and before is not None:
            changes.append(erased(before, cause))
        elif after is not None and (before is None or not same_view(before, after)):
            version = max(after.version, (before.version + 1) if before else 1)
            fact = after.model_copy(update={"version": version})
            op = FactOp.ADD if before is None else FactOp.UPDATE
            changes.append(fact_changed(op, fact, "re-derived after erasure", cause))
    return changes


def erased(fact: Fact, cause: str) -> FactChanged:
    """The ERASE change of a fact."""
    return erasure_of(fact.fact_id, fact.scope, fact.version, cause)


def erasure_of(fact_id: str, scope: Scope, version: int, cause: str) -> FactChanged:
    """The ERASE change of a fact known by its id, scope and current version (built from
    valid parts, so not validated again: a subject erasure builds one per fact)."""
    return FactChanged.model_construct(
        change_id=f"{fact_id}@{version + 1}",
        op=FactOp.ERASE,
        fact_id=fact_id,
        scope=scope,
        version=version + 1,
        fact=None,
        reason="no live evidence supports it",
        caused_by=cause,
    )


def fingerprint(secret: bytes, value: str) -> str:
    """A keyed hash that lets an audit recognise an erased id without keeping the id."""
    return hmac.digest(secret, value.encode("utf-8"), "sha256").hex()[:32]


def shingles(text: str, size: int = 4) -> list[str]:
    """Distinctive word runs of erased text, to find plaintext fragments left anywhere."""
    words = [w.lower() for w in text.split() if w.strip()]
    if len(words) < size:
        return [" ".join(words)] if len(words) >= 2 else []
    return [" ".join(words[i : i + size]) for i in range(len(words) - size + 1)]


def fragments_in(text: str, fingerprints: set[str], secret: bytes) -> int:
    """How many of the erased text's shingles appear in ``text``."""
    return sum(fingerprint(secret, s) in fingerprints for s in shingles(text))


def remaining(turns: Sequence[TurnRecorded], erased_ids: set[str]) -> list[TurnRecorded]:
    """The scope's turns a fresh replay would see: first copy of each, minus the erased."""
    seen: set[str] = set()
    kept = []
    for turn in turns:
        if turn.evidence_id in erased_ids or turn.evidence_id in seen:
            continue
        seen.add(turn.evidence_id)
        kept.append(turn)
    return kept
