"""Deterministic identifiers: the same input always yields the same id."""

from __future__ import annotations

import hashlib


def _digest(*parts: str) -> str:
    joined = "\x1f".join(parts).encode("utf-8")
    return hashlib.sha256(joined).hexdigest()[:32]


def evidence_id(scope_key: str, source: str, turn_id: str) -> str:
    """Evidence id from (scope, source uri or session, turn id): re-publishing is recognised."""
    return "ev_" + _digest("evidence", scope_key, source, turn_id)


def fact_id(scope_key: str, origin_evidence_id: str, claim_index: int) -> str:
    """Fact id from the evidence that first stated it and the claim's position there."""
    return "fact_" + _digest("fact", scope_key, origin_evidence_id, str(claim_index))
