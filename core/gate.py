"""The write gate: decide ADD or NOOP for each candidate against a scope's facts.

This is the skeleton gate (exact match on the normalized statement); the
novelty gate replaces :func:`decide` and keeps :class:`GateState`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from .claims import normalize
from .events import Fact, FactOp


class GateState(BaseModel):
    """What the gate remembers about one scope: its facts and the evidence it has seen."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    facts: dict[str, Fact] = {}
    by_statement: dict[str, str] = {}
    seen_evidence: frozenset[str] = frozenset()

    def to_bytes(self) -> bytes:
        return self.model_dump_json().encode("utf-8")

    @classmethod
    def from_bytes(cls, raw: bytes | None) -> GateState:
        return cls() if raw is None else cls.model_validate_json(raw)


@dataclass(frozen=True)
class Decision:
    op: FactOp
    existing: Fact | None
    reason: str


def decide(state: GateState, statement: str) -> Decision:
    """ADD when the scope has no fact with this statement, else NOOP (corroboration)."""
    if not state.facts:
        return Decision(FactOp.ADD, None, "store empty")
    fact_id = state.by_statement.get(normalize(statement))
    if fact_id is None:
        return Decision(FactOp.ADD, None, "novel statement")
    return Decision(FactOp.NOOP, state.facts[fact_id], "same statement already known")
