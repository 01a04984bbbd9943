"""The HTTP API (versioned under /v1). Retrieval only: it never generates answers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, Field

from ..core.events import ErasureCompleted, Fact
from ..infra.settings import Settings
from .bootstrap import build
from .corrections import ForeignScopeError
from .erasure import erasure_request
from .memory import MAX_BATCH, Memory
from .results import ActionResult, EvidenceQuote, FactDetail, PublishResult, Recollection


class QueryRequest(BaseModel):
    scope: str = Field(description="org/project/user")
    query: str = Field(min_length=1)
    limit: int = Field(5, ge=1, le=100)


class ErasureBody(BaseModel):
    """What to erase: exactly one of evidence ids, a session, or the whole subject."""

    scope: str = Field(description="org/project/user")
    evidence_ids: list[str] = Field(default_factory=list, max_length=10_000)
    session: str | None = None
    subject: bool = False
    reason: str = Field("", max_length=1000)


class ActionBody(BaseModel):
    """Who acts on a fact and why; ``scope`` (the caller's) refuses other tenants' facts."""

    by: str = Field("user", min_length=1, max_length=256)
    reason: str = Field("", max_length=1000)
    scope: str | None = None


class CorrectBody(ActionBody):
    statement: str = Field(min_length=1)


class ApproveBody(ActionBody):
    statement: str | None = Field(None, description="An edited statement to approve instead")


class TurnBatch(BaseModel):
    turns: list[dict[str, Any]] = Field(min_length=1, max_length=MAX_BATCH)


def create_api(settings: Settings) -> FastAPI:
    """The API app; components are built when it starts and closed when it stops."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        components = await build(settings)
        app.state.memory = Memory(components)
        yield
        await components.close()

    api = FastAPI(title="provmem", version="0.1.0", lifespan=lifespan)
    _routes(api)
    return api


def _memory(request: Request) -> Memory:
    memory: Memory = request.app.state.memory
    return memory


async def _acting(work: Any) -> ActionResult:
    """Run a correction or review decision; refusals become 403, 404 or 422."""
    try:
        result: ActionResult = await work
    except ForeignScopeError as error:
        raise HTTPException(403, str(error)) from error
    except LookupError as error:
        raise HTTPException(404, str(error)) from error
    except ValueError as error:
        raise HTTPException(422, str(error)) from error
    return result


def _routes(api: FastAPI) -> None:
    _review_routes(api)

    @api.get("/v1/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @api.post("/v1/turns", response_model=list[PublishResult])
    async def publish(request: Request, batch: TurnBatch) -> list[PublishResult]:
        """Publish up to 1,000 turns; bad ones are reported, good ones still recorded."""
        return await _memory(request).publish(batch.turns)

    @api.post("/v1/query", response_model=Recollection)
    async def query(request: Request, body: QueryRequest) -> Recollection:
        memory = _memory(request)
        await memory.sync()
        try:
            return await memory.query(body.scope, body.query, body.limit)
        except ValueError as error:
            raise HTTPException(422, str(error)) from error

    @api.get("/v1/facts", response_model=list[Fact])
    async def facts(request: Request, scope: str) -> list[Fact]:
        memory = _memory(request)
        await memory.sync()
        try:
            return await memory.facts(scope)
        except ValueError as error:
            raise HTTPException(422, str(error)) from error

    @api.post("/v1/erasures", response_model=ErasureCompleted | None, status_code=202)
    async def erase(request: Request, body: ErasureBody) -> ErasureCompleted | None:
        """File a compliance erasure; on the embedded runtime its receipt comes back."""
        chosen = [bool(body.evidence_ids), body.session is not None, body.subject]
        if sum(chosen) != 1:
            raise HTTPException(422, "choose exactly one of evidence_ids, session or subject")
        try:
            erasure = erasure_request(
                body.scope, body.evidence_ids, body.session, body.subject, body.reason
            )
        except ValueError as error:
            raise HTTPException(422, str(error)) from error
        return await _memory(request).request_erasure(erasure)

    @api.get("/v1/erasures/{request_id}", response_model=ErasureCompleted)
    async def erasure_receipt(request: Request, request_id: str) -> ErasureCompleted:
        receipt = await _memory(request).erasure_receipt(request_id)
        if receipt is None:
            raise HTTPException(404, f"erasure {request_id}: no receipt")
        return receipt

    @api.get("/v1/evidence/{evidence_id}", response_model=EvidenceQuote)
    async def evidence(request: Request, evidence_id: str) -> EvidenceQuote:
        quote = await _memory(request).evidence(evidence_id)
        if quote is None:
            raise HTTPException(404, f"evidence {evidence_id} not found")
        return quote


def _review_routes(api: FastAPI) -> None:
    @api.post("/v1/facts/{fact_id}/correct", response_model=ActionResult)
    async def correct(request: Request, fact_id: str, body: CorrectBody) -> ActionResult:
        """Correct a fact: a new fact with the statement supersedes it (history kept)."""
        memory = _memory(request)
        return await _acting(
            memory.correct(
                fact_id, body.statement, by=body.by, reason=body.reason, scope=body.scope
            )
        )

    @api.post("/v1/facts/{fact_id}/retract", response_model=ActionResult)
    async def retract(request: Request, fact_id: str, body: ActionBody) -> ActionResult:
        memory = _memory(request)
        return await _acting(
            memory.retract(fact_id, by=body.by, reason=body.reason, scope=body.scope)
        )

    @api.get("/v1/review", response_model=list[FactDetail])
    async def review(request: Request, scope: str) -> list[FactDetail]:
        """Facts of a scope waiting for review, with their reason and evidence."""
        memory = _memory(request)
        await memory.sync()
        try:
            return await memory.review_queue(scope)
        except ValueError as error:
            raise HTTPException(422, str(error)) from error

    @api.post("/v1/facts/{fact_id}/approve", response_model=ActionResult)
    async def approve(request: Request, fact_id: str, body: ApproveBody) -> ActionResult:
        memory = _memory(request)
        return await _acting(
            memory.approve(
                fact_id, by=body.by, statement=body.statement, reason=body.reason, scope=body.scope
            )
        )

    @api.post("/v1/facts/{fact_id}/reject", response_model=ActionResult)
    async def reject(request: Request, fact_id: str, body: ActionBody) -> ActionResult:
        memory = _memory(request)
        return await _acting(
            memory.reject(fact_id, by=body.by, reason=body.reason, scope=body.scope)
        )


__all__ = ["create_api"]
