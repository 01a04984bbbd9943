"""What the MCP tools return: typed models, so each tool's ``outputSchema`` tells the
agent the fields it gets (a fact's id, status and evidence ids; a bundle's evidence
quotes; an erasure's receipt) instead of an untyped object."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from provmem.core.events import ErasureCompleted, Fact, FactStatus
from provmem.services.memory.results import (
    ErasureQueued,
    EvidenceItem,
    EvidenceQuote,
    FactDetail,
    PublishResult,
)
from provmem.services.sdk.facade import Bundle, SearchResult


class FactView(BaseModel):
    """A fact as an agent needs it: what it says, whether it holds, and its evidence."""

    fact_id: str
    scope: str = Field(description="org/project/user")
    statement: str
    status: FactStatus = Field(description="only active facts hold; the others are history")
    version: int
    evidence_ids: list[str]
    supersedes: str | None = Field(None, description="the fact this one replaced")

    @classmethod
    def of(cls, fact: Fact) -> FactView:
        return cls(
            fact_id=fact.fact_id,
            scope=fact.scope.key,
            statement=fact.statement,
            status=fact.status,
            version=fact.version,
            evidence_ids=list(fact.evidence_ids),
            supersedes=fact.supersedes,
        )


class Added(BaseModel):
    """Each message's outcome, in order."""

    results: list[PublishResult]


class BundleView(BaseModel):
    """A fact (or a raw turn no fact covers: ``fact`` null) with the evidence behind it."""

    fact: FactView | None
    statement: str
    score: float
    evidence: list[EvidenceItem]

    @classmethod
    def of(cls, bundle: Bundle) -> BundleView:
        fact = FactView.of(bundle.fact) if bundle.fact is not None else None
        return cls(
            fact=fact,
            statement=bundle.statement,
            score=round(bundle.score, 4),
            evidence=list(bundle.evidence),
        )


class Found(BaseModel):
    """The bundles that answer a query, best first, and the router's path (ANSWER: the
    facts suffice; ESCALATE: raw evidence had to be read)."""

    query: str
    path: str
    bundles: list[BundleView]

    @classmethod
    def of(cls, found: SearchResult) -> Found:
        return cls(query=found.query, path=found.path, bundles=[BundleView.of(b) for b in found])


class Facts(BaseModel):
    """A user's facts."""

    facts: list[FactView]

    @classmethod
    def of(cls, facts: list[Fact]) -> Facts:
        return cls(facts=[FactView.of(fact) for fact in facts])


class History(BaseModel):
    """One fact with its evidence quotes, its earlier versions and the facts it replaced."""

    fact: FactView
    evidence: list[EvidenceQuote]
    history: list[FactView]
    supersedes: list[FactView]

    @classmethod
    def of(cls, detail: FactDetail) -> History:
        return cls(
            fact=FactView.of(detail.fact),
            evidence=list(detail.evidence),
            history=[FactView.of(f) for f in detail.history],
            supersedes=[FactView.of(f) for f in detail.supersedes],
        )


class Erased(BaseModel):
    """An erasure: its receipt when done here; on a Kafka server only the queued request
    (its receipt follows)."""

    status: Literal["completed", "queued"]
    request_id: str
    receipt: ErasureCompleted | None = None

    @classmethod
    def of(cls, done: ErasureCompleted | ErasureQueued) -> Erased:
        if isinstance(done, ErasureQueued):
            return cls(status="queued", request_id=done.request_id)
        return cls(status="completed", request_id=done.request_id, receipt=done)


__all__ = ["Added", "BundleView", "Erased", "FactView", "Facts", "Found", "History"]
