"""The HTTP API (versioned under /v1). Retrieval only: it never generates answers.

Every /v1 route but health and readiness needs an API key (``Authorization: Bearer
pmk_...``) and reaches only the key's scope: another tenant's scope is refused with 403,
another tenant's fact, evidence or erasure receipt is answered 404 (its existence is not
confirmed). ``/metrics`` (Prometheus) and ``/openapi.json`` are open. See docs/api.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import structlog
from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from provmem.config import Settings
from provmem.core.events import ErasureCompleted, Fact
from provmem.core.scope import Scope
from provmem.services.api.auth import ApiKeys, ApiKeyStore, Grant, GrantDep, open_key_store
from provmem.services.api.changes import changes_router
from provmem.services.api.edge import EdgeGuard, http_failed, validation_failed
from provmem.services.api.failures import FailureGuard
from provmem.services.api.inspector import mount_inspector
from provmem.services.api.metrics import CONTENT_TYPE, ApiMetrics, MetricsMiddleware
from provmem.services.api.pump import StagePump
from provmem.services.api.replay import replay_router
from provmem.services.erasure.scope import erase_scope, organisation_or_project
from provmem.services.erasure.subject import erasure_request
from provmem.services.memory.corrections import ForeignScopeError
from provmem.services.memory.memory import MAX_BATCH, MemoryService
from provmem.services.memory.results import (
    ActionResult,
    ErasureQueued,
    EvidenceQuote,
    FactDetail,
    PublishResult,
    Recollection,
    ScopeErasure,
)
from provmem.streams.erasure.requests import erasure_request_in
from provmem.streams.runtime.components import build
from provmem.streams.topics import ERASURE_REQUESTS

log = structlog.get_logger(__name__)


class QueryRequest(BaseModel):
    scope: str = Field(description="org/project/user")
    query: str = Field(min_length=1)
    limit: int = Field(5, ge=1, le=100)
    budget: int | None = Field(None, ge=1, description="Cap on the context tokens returned")
    threshold: float | None = Field(
        None, ge=0, le=1, description="Similarity floor (0-1); results below are dropped"
    )
    raw_turns_of: list[str] | None = Field(
        None, description="Roles whose raw turns are returned (default: user; 'all')"
    )


class ErasureBody(BaseModel):
    """What to erase: exactly one of evidence ids, a session, or the whole subject."""

    scope: str = Field(description="org/project/user; with subject also org or org/project")
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


@dataclass
class ApiState:
    settings: Settings
    pipeline: StagePump
    keys: ApiKeys
    metrics: ApiMetrics

    @property
    def memory(self) -> MemoryService:
        return self.pipeline.memory


#: The import string of :func:`api_from_environment`, for uvicorn's worker processes.
WORKER_FACTORY = "provmem.services.api.app:api_from_environment"


def api_from_environment() -> FastAPI:
    """The API app of one of several worker processes (``provmem api --workers N``: uvicorn
    calls this factory in each): settings from the environment, which the command set
    from its options. Each worker opens the data folder as any process does: the first
    owns its index and derives, the others take reader slots (docs/ARCHITECTURE.md)."""
    from provmem.services.memory.logs import configure_logging

    settings = Settings()
    configure_logging(settings.log_level)
    return create_api(settings)


def create_api(settings: Settings, memory: MemoryService | None = None) -> FastAPI:
    """The API app. Components are built when it starts and closed when it stops; pass
    ``memory`` to serve components someone else owns (tests, benchmarks)."""
    metrics = ApiMetrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        served = memory if memory is not None else MemoryService(await build(settings))
        if memory is None and settings.qdrant_url is None:
            # open the local index now: the folder is held, and a CLI on it sees this API
            await served.components.vectors.open()  # issue 17 E3b
        store: ApiKeyStore = open_key_store(settings)
        pumped = not served.components.runtime.derives_in_workers  # derives here
        follows = not pumped and settings.qdrant_url is None  # keeps a local index
        pipeline = StagePump(served, pumped=pumped, follows=follows)
        state = ApiState(settings, pipeline, ApiKeys(store), metrics)
        app.state.provmem = state
        if not await state.keys.any():
            log.warning("api.no_api_keys", hint="provmem keys create --scope ORG[/PROJECT]")
        pump = asyncio.create_task(pipeline.pump()) if pipeline.runs else None
        try:
            yield
        finally:
            if pump is not None:
                pump.cancel()
                await asyncio.gather(pump, return_exceptions=True)  # stopped before closing
            if follows:
                await pipeline.last_sync()
            await store.close()
            if memory is None:
                await served.components.close()

    api = FastAPI(
        title="provmem",
        version="0.1.0",
        lifespan=lifespan,
        description="Provenance-grounded long-term memory. Authenticate with an API key.",
    )
    api.add_middleware(FailureGuard)  # innermost: the others see its 500
    api.add_middleware(EdgeGuard, max_body_bytes=settings.api_max_body_bytes)
    api.add_middleware(MetricsMiddleware, metrics=metrics)  # outermost: counts refusals too
    api.add_exception_handler(RequestValidationError, validation_failed)
    api.add_exception_handler(StarletteHTTPException, http_failed)
    _open_routes(api)
    _memory_routes(api)
    _fact_routes(api)
    _erasure_routes(api)
    _review_routes(api)
    api.include_router(changes_router())
    api.include_router(replay_router())
    mount_inspector(api)
    return api


def _state(request: Request) -> ApiState:
    state: ApiState = request.app.state.provmem
    return state


def _scope_key(scope: str, grant: Grant) -> str:
    """A user scope's key, refused (403) outside the grant; 422 when malformed."""
    try:
        key = Scope.parse(scope).key
    except ValueError as error:
        raise HTTPException(422, str(error)) from error
    grant.require(key)
    return key


def _foreign_scope(grant: Grant, turns: Sequence[Mapping[str, Any]]) -> str | None:
    """The first well-formed turn scope the grant does not reach (malformed ones are left
    for the per-turn validation to report)."""
    for turn in turns:
        scope = turn.get("scope")
        if not isinstance(scope, str):
            continue
        try:
            key = Scope.parse(scope).key
        except ValueError:
            continue
        if not grant.allows(key):
            return key
    return None


def _open_routes(api: FastAPI) -> None:
    @api.get("/v1/health")
    async def health() -> dict[str, str]:
        """Liveness: the process answers."""
        return {"status": "ok"}

    @api.get("/v1/ready", responses={503: {"description": "A dependency is failing"}})
    async def ready(request: Request) -> JSONResponse:
        """Readiness: the log, the views and the key store answer."""
        state = _state(request)
        c = state.memory.components
        probes: dict[str, Callable[[], Awaitable[object]]] = {
            "log": lambda: c.log.end_offset(c.names.turns, 0),  # a broker round trip
            "views": lambda: c.views.get("fact_readiness_probe"),
            "api_keys": state.keys.any,
        }
        checks = {name: await _probe(probe) for name, probe in probes.items()}
        ok = all(v == "ok" for v in checks.values())
        body = {"status": "ready" if ok else "not ready", "checks": checks}
        return JSONResponse(body, status_code=200 if ok else 503)

    @api.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        state = _state(request)
        c = state.memory.components
        text = await state.metrics.render(c.log, c.pipeline_groups())
        return Response(text, media_type=CONTENT_TYPE)


async def _probe(probe: Callable[[], Awaitable[object]]) -> str:
    try:
        await asyncio.wait_for(probe(), 5.0)
    except Exception as error:  # noqa: BLE001 - a readiness probe reports any failure
        return f"failing: {type(error).__name__}"
    return "ok"


def _memory_routes(api: FastAPI) -> None:
    @api.post("/v1/turns", response_model=list[PublishResult])
    async def publish(request: Request, batch: TurnBatch, grant: GrantDep) -> list[PublishResult]:
        """Publish up to 1,000 turns; bad ones are reported, good ones still recorded.
        A turn of a scope the key does not reach refuses the whole batch (403)."""
        foreign = _foreign_scope(grant, batch.turns)
        if foreign is not None:
            grant.require(foreign)
        state = _state(request)
        results = await state.memory.publish(batch.turns)
        state.metrics.published(results)
        state.pipeline.kick()
        return results

    @api.post("/v1/query", response_model=Recollection)
    async def query(request: Request, body: QueryRequest, grant: GrantDep) -> Recollection:
        """Fact-centred bundles for the query, each with its evidence."""
        key = _scope_key(body.scope, grant)
        state = _state(request)
        await state.pipeline.sync()
        state.metrics.queries.inc()
        try:
            return await state.memory.query(
                key,
                body.query,
                body.limit,
                budget=body.budget,
                threshold=body.threshold,
                raw_turns_of=body.raw_turns_of,
            )
        except ValueError as error:
            raise HTTPException(422, str(error)) from error

    @api.get("/v1/evidence/{evidence_id}", response_model=EvidenceQuote)
    async def evidence(request: Request, evidence_id: str, grant: GrantDep) -> EvidenceQuote:
        """One evidence turn, decrypted (a turn accepted before this request is found)."""
        state = _state(request)
        await state.pipeline.sync()
        memory = state.memory
        turn = await memory.components.evidence.get(evidence_id)
        quote = None
        if turn is not None and grant.allows(turn.scope.key):
            quote = await memory.evidence(evidence_id, turn.scope.key)
        if quote is None:
            raise HTTPException(404, f"evidence {evidence_id} not found")
        return quote


def _fact_routes(api: FastAPI) -> None:
    @api.get("/v1/facts", response_model=list[Fact])
    async def facts(request: Request, scope: str, grant: GrantDep) -> list[Fact]:
        """Every fact of a scope, whatever its status."""
        key = _scope_key(scope, grant)
        state = _state(request)
        await state.pipeline.sync()
        return await state.memory.facts(key)

    @api.get("/v1/facts/{fact_id}", response_model=FactDetail)
    async def fact(request: Request, fact_id: str, grant: GrantDep) -> FactDetail:
        """One fact with the evidence that supports it, its versions and what it superseded."""
        state = _state(request)
        await state.pipeline.sync()
        await _visible_fact(state.memory, fact_id, grant)
        detail = await state.memory.fact(fact_id)
        if detail is None:
            raise HTTPException(404, f"fact {fact_id} not found")
        return detail


async def _visible_fact(memory: MemoryService, fact_id: str, grant: Grant) -> Fact:
    """The fact, if the grant reaches it; 404 otherwise (another tenant's or none)."""
    fact = await memory.components.views.get(fact_id)
    if fact is None or not grant.allows(fact.scope.key):
        raise HTTPException(404, f"fact {fact_id} not found")
    return fact


async def _erase_every_subject(request: Request, body: ErasureBody, grant: Grant) -> Any:
    try:
        prefix = organisation_or_project(body.scope)
    except ValueError as error:
        raise HTTPException(422, str(error)) from error
    grant.require(prefix)
    state = _state(request)
    return await state.pipeline.exclusive(erase_scope(state.memory, prefix, body.reason))


def _erasure_routes(api: FastAPI) -> None:
    @api.post(
        "/v1/erasures",
        response_model=ErasureCompleted | ErasureQueued | ScopeErasure,
        status_code=202,
    )
    async def erase(request: Request, body: ErasureBody, grant: GrantDep) -> Any:
        """File a compliance erasure: its receipt when it ran at once (embedded runtime),
        else its request id to follow (distributed runtime). With ``subject`` and an
        ``org`` or ``org/project`` scope: one subject erasure per subject in it."""
        chosen = [bool(body.evidence_ids), body.session is not None, body.subject]
        if sum(chosen) != 1:
            raise HTTPException(422, "choose exactly one of evidence_ids, session or subject")
        if body.subject and body.scope.count("/") < 2:
            return await _erase_every_subject(request, body, grant)
        _scope_key(body.scope, grant)
        try:
            erasure = erasure_request(
                body.scope, body.evidence_ids, body.session, body.subject, body.reason
            )
        except ValueError as error:
            raise HTTPException(422, str(error)) from error
        state = _state(request)
        return await state.pipeline.exclusive(state.memory.file_erasure(erasure))

    @api.get(
        "/v1/erasures/{request_id}",
        response_model=ErasureCompleted | ErasureQueued,
        responses={202: {"model": ErasureQueued, "description": "Filed, not completed yet"}},
    )
    async def erasure_receipt(
        request: Request, response: Response, request_id: str, grant: GrantDep
    ) -> Any:
        """The receipt of an erasure filed in the key's scope (no personal data); 202 while
        it has not completed."""
        memory = _state(request).memory
        scope_key = await _erasure_scope(memory, request_id)
        if scope_key is None or not grant.allows(scope_key):
            raise HTTPException(404, f"erasure {request_id} not found")
        receipt = await memory.erasure_receipt(request_id)
        if receipt is None:
            response.status_code = 202
            return ErasureQueued(request_id=request_id)
        return receipt


async def _erasure_scope(memory: MemoryService, request_id: str) -> str | None:
    """The scope an erasure request was filed for, read from the erasure-requests topic."""
    c, key, offset = memory.components, ERASURE_REQUESTS.key_for(request_id), 0
    while batch := await c.log.read(c.names.erasure_requests, 0, offset, 500):
        for record in batch:
            if record.key == key and record.value is not None:
                request = erasure_request_in(record)
                if request is not None:
                    return request.scope.key
        offset = batch[-1].offset + 1
    return None


async def _acting(state: ApiState, work: Awaitable[ActionResult]) -> ActionResult:
    """Run a correction or review decision; refusals become 403, 404 or 422."""
    try:
        result: ActionResult = await state.pipeline.exclusive(work)
    except ForeignScopeError as error:
        raise HTTPException(403, str(error)) from error
    except LookupError as error:
        raise HTTPException(404, str(error)) from error
    except ValueError as error:
        raise HTTPException(422, str(error)) from error
    return result


def _review_routes(api: FastAPI) -> None:
    @api.post("/v1/facts/{fact_id}/correct", response_model=ActionResult)
    async def correct(
        request: Request, fact_id: str, body: CorrectBody, grant: GrantDep
    ) -> ActionResult:
        """Correct a fact: a new fact with the statement supersedes it (history kept)."""
        state = _state(request)
        await _visible_fact(state.memory, fact_id, grant)
        work = state.memory.correct(
            fact_id, body.statement, by=body.by, reason=body.reason, scope=body.scope
        )
        return await _acting(state, work)

    @api.post("/v1/facts/{fact_id}/retract", response_model=ActionResult)
    async def retract(
        request: Request, fact_id: str, body: ActionBody, grant: GrantDep
    ) -> ActionResult:
        state = _state(request)
        await _visible_fact(state.memory, fact_id, grant)
        work = state.memory.retract(fact_id, by=body.by, reason=body.reason, scope=body.scope)
        return await _acting(state, work)

    @api.get("/v1/review", response_model=list[FactDetail])
    async def review(request: Request, scope: str, grant: GrantDep) -> list[FactDetail]:
        """Facts of a scope waiting for review, with their reason and evidence."""
        key = _scope_key(scope, grant)
        state = _state(request)
        await state.pipeline.sync()
        return await state.memory.review_queue(key)

    @api.post("/v1/facts/{fact_id}/approve", response_model=ActionResult)
    async def approve(
        request: Request, fact_id: str, body: ApproveBody, grant: GrantDep
    ) -> ActionResult:
        state = _state(request)
        await _visible_fact(state.memory, fact_id, grant)
        work = state.memory.approve(
            fact_id, by=body.by, statement=body.statement, reason=body.reason, scope=body.scope
        )
        return await _acting(state, work)

    @api.post("/v1/facts/{fact_id}/reject", response_model=ActionResult)
    async def reject(
        request: Request, fact_id: str, body: ActionBody, grant: GrantDep
    ) -> ActionResult:
        state = _state(request)
        await _visible_fact(state.memory, fact_id, grant)
        work = state.memory.reject(fact_id, by=body.by, reason=body.reason, scope=body.scope)
        return await _acting(state, work)


__all__ = ["GrantDep", "create_api"]
