"""What the service layer returns: typed, JSON-ready results."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from ..core.events import Fact

_FROZEN = ConfigDict(frozen=True)


class EvidenceQuote(BaseModel):
    """One piece of evidence, decrypted, with where it came from."""

    model_config = _FROZEN

    evidence_id: str
    source_uri: str
    source_turn_id: str
    speaker: str
    captured_at: datetime
    quote: str


class FactHit(BaseModel):
    """A retrieved fact with its score and its provenance."""

    model_config = _FROZEN

    fact: Fact
    score: float
    evidence: tuple[EvidenceQuote, ...]
    history: tuple[Fact, ...] = ()


class QueryResult(BaseModel):
    model_config = _FROZEN

    scope: str
    query: str
    hits: tuple[FactHit, ...]


class PublishResult(BaseModel):
    model_config = _FROZEN

    index: int
    evidence_id: str | None = None
    status: str  # "accepted" | "duplicate" | "rejected"
    error: str | None = None


class FactDetail(BaseModel):
    """A fact with its provenance chain and its version history."""

    model_config = _FROZEN

    fact: Fact
    evidence: tuple[EvidenceQuote, ...]
    history: tuple[Fact, ...]
