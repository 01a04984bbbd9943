"""What the service layer returns: typed, JSON-ready results."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from provmem.core.events import ErasureCompleted, Fact

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


class PublishResult(BaseModel):
    model_config = _FROZEN

    index: int
    evidence_id: str | None = None
    status: str  # "accepted" | "duplicate" | "conflict" | "rejected"
    error: str | None = None


class FactDetail(BaseModel):
    """A fact with its provenance chain and its version history."""

    model_config = _FROZEN

    fact: Fact
    evidence: tuple[EvidenceQuote, ...]
    history: tuple[Fact, ...]
    supersedes: tuple[Fact, ...] = ()  # the facts this one replaced, newest first

    def __str__(self) -> str:
        lines = [str(self.fact)]
        for quote in self.evidence:
            when = f"{quote.captured_at:%Y-%m-%d %H:%M}"
            lines.append(
                f'  evidence {quote.evidence_id} ({quote.speaker}, {when}): "{quote.quote}"'
            )
        lines += [f"  was: {old.statement} ({old.fact_id})" for old in self.supersedes]
        return "\n".join(lines)


class EvidenceItem(BaseModel):
    """Evidence in a bundle: ``direct`` supports the fact, ``support`` is context read
    while escalating (neighbouring turns)."""

    model_config = _FROZEN

    evidence_id: str
    role: str
    source_uri: str
    source_turn_id: str
    speaker: str
    captured_at: datetime
    quote: str
    speaker_role: str = Field(default="user", description="user, assistant, system or tool")


class BundleView(BaseModel):
    """A fact-centred bundle (or a raw evidence turn no fact covers) with provenance."""

    model_config = _FROZEN

    fact: Fact | None
    score: float
    routes: tuple[str, ...]
    evidence: tuple[EvidenceItem, ...]
    similarity: float = Field(default=0.0, description="Cosine similarity to the query, 0-1")
    history: tuple[Fact, ...] = ()
    conflicts: tuple[str, ...] = Field(
        default=(), description="Facts returned beside this one that contradict it"
    )
    tokens: int

    @property
    def evidence_ids(self) -> tuple[str, ...]:
        """The bundle's provenance: the fact's evidence, or the raw turn itself."""
        if self.fact is not None:
            return self.fact.evidence_ids
        return tuple(e.evidence_id for e in self.evidence if e.role == "direct")


class RouteDiagnostic(BaseModel):
    model_config = _FROZEN

    route: str
    hits: int
    note: str = ""


class Recollection(BaseModel):
    """What memory returns for a query: bundles, the router's path and route diagnostics.
    It holds retrieved memory only, never answer instructions."""

    model_config = _FROZEN

    scope: str
    query: str
    bundles: tuple[BundleView, ...]
    path: str
    path_reasons: tuple[str, ...]
    routes: tuple[RouteDiagnostic, ...]
    tokens: int


class ActionResult(BaseModel):
    """A correction or review decision recorded as evidence of its own."""

    model_config = _FROZEN

    action: str  # "correct" | "retract" | "approve" | "reject"
    fact_id: str
    evidence_id: str
    scope: str
    speaker: str


class ScopeErasure(BaseModel):
    """An erasure of every subject of an organisation or a project: one subject erasure per
    user scope found on the log, each with its own receipt. Holds no personal data: the
    scope erased, counts, receipts and request ids."""

    model_config = _FROZEN

    scope: str
    subjects: int = Field(ge=0)
    completed: list[ErasureCompleted]
    queued: list[str] = Field(description="request ids still running (distributed runtime)")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def residue_found(self) -> int:
        """Traces the verification scans of the completed erasures found."""
        return sum(receipt.residue_found for receipt in self.completed)


class ErasureQueued(BaseModel):
    """An erasure filed but not completed yet (the distributed runtime runs it in the
    worker that owns the scope); its receipt follows at ``GET /v1/erasures/{request_id}``."""

    model_config = _FROZEN

    request_id: str
    status: Literal["queued"] = "queued"


class ClauseExplained(BaseModel):
    """One clause of a turn: kept as a claim (and the facts it became), or why it was dropped
    (core/extraction/outcomes.py: ``why`` names a ``Dropped`` kind, ``reason`` says it)."""

    model_config = _FROZEN

    text: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    kept: bool
    statement: str | None = Field(default=None, description="The claim written from it")
    why: str | None = Field(default=None, description="The drop kind, when dropped")
    reason: str | None = None
    detail: str = ""
    review_reason: str | None = Field(default=None, description="A kept claim held for review")
    fact_ids: tuple[str, ...] = Field(default=(), description="Facts whose support it is")


class TurnExplained(BaseModel):
    """What the rules extractor made of each clause of one recorded turn."""

    model_config = _FROZEN

    evidence_id: str
    source_turn_id: str
    speaker: str
    role: str
    action: str
    captured_at: datetime
    extraction_version: str
    clauses: tuple[ClauseExplained, ...]
