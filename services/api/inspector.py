"""The provenance inspector at ``/ui``: one plain HTML + JS page (no build step) over the
API's own routes, plus three reads of its own under ``/ui/api``: the scopes on the log,
the erasures filed with their receipts (those of fully erased subjects too, whose scope
is gone from the log), and the statements or quotes behind ids named in reasons and
diagnostics.

The page asks for an API key (kept in the browser's localStorage) and sends it as a
bearer token, so it reaches exactly what the key reaches; with ``PROVMEM_API_AUTH=off``
and no key in the store it needs none. Its actions (correct, retract, approve, reject,
erase) go through the API's own routes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from provmem.core.events import ErasureRequested
from provmem.services.api.auth import Grant, GrantDep, within
from provmem.services.memory.memory import MemoryService
from provmem.streams.erasure.requests import erasure_request_in

UI = Path(__file__).parent / "ui"
MAX_IDS = 100
QUOTE_CHARS = 160
_REF_RE = re.compile(r"(fact|ev)_[0-9a-f]{32}")


def mount_inspector(api: FastAPI) -> None:
    """Serve the page at ``/ui`` and its assets at ``/ui/assets``."""
    api.include_router(inspector_router())
    api.mount("/ui/assets", StaticFiles(directory=UI), name="inspector-assets")


def inspector_router() -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/ui")
    async def page() -> FileResponse:
        return FileResponse(UI / "index.html", media_type="text/html")

    @router.get("/ui/api/scopes")
    async def scopes(request: Request, grant: GrantDep) -> dict[str, list[str]]:
        """The user scopes on the log that the key reaches."""
        from provmem.services.replay.checksum import scopes_on_log

        state = request.app.state.provmem
        await state.pipeline.sync()
        c = state.memory.components
        found = await scopes_on_log(c.log, [c.names.turns, c.names.fact_changes])
        return {"scopes": [scope for scope in found if grant.allows(scope)]}

    @router.get("/ui/api/erasures")
    async def erasures(
        request: Request, grant: GrantDep, scope: str | None = None
    ) -> dict[str, Any]:
        """Erasures filed in ``scope`` (any depth; default: all the key reaches), newest
        first, with their receipts: a fully erased subject's receipt stays reachable."""
        prefix = grant.prefix(scope) if scope else None
        memory: MemoryService = request.app.state.provmem.memory
        filed = [r for r in await erasure_requests(memory) if _reached(r, grant, prefix)]
        return {"erasures": [await _with_receipt(memory, r) for r in reversed(filed)]}

    @router.get("/ui/api/statements")
    async def statements(
        request: Request, grant: GrantDep, ids: Annotated[list[str], Query()]
    ) -> dict[str, dict[str, dict[str, str]]]:
        """The statement of each fact id and the quote of each evidence id the key
        reaches; an id erased, unknown or another tenant's is left out."""
        if len(ids) > MAX_IDS:
            raise HTTPException(422, f"ids: at most {MAX_IDS}")
        memory: MemoryService = request.app.state.provmem.memory
        found = {i: await _statement(memory, grant, i) for i in set(ids) if _REF_RE.fullmatch(i)}
        return {"statements": {i: named for i, named in found.items() if named is not None}}

    return router


def _reached(request: ErasureRequested, grant: Grant, prefix: str | None) -> bool:
    key = request.scope.key
    return grant.allows(key) and (prefix is None or within(key, prefix))


async def _statement(memory: MemoryService, grant: Grant, ref: str) -> dict[str, str] | None:
    """What an id names, if the grant reaches it: a fact's statement or a turn's quote."""
    c = memory.components
    if ref.startswith("fact_"):
        fact = await c.views.get(ref)
        if fact is None or not grant.allows(fact.scope.key):
            return None
        return {"kind": "fact", "text": fact.statement, "status": fact.status.value}
    turn = await c.evidence.get(ref)
    if turn is None or not grant.allows(turn.scope.key):
        return None
    quote = await memory.evidence(ref, turn.scope.key)
    if quote is None:
        return None
    text = quote.quote if len(quote.quote) <= QUOTE_CHARS else quote.quote[:QUOTE_CHARS] + "…"
    return {"kind": "evidence", "text": text, "speaker": quote.speaker}


async def erasure_requests(memory: MemoryService) -> list[ErasureRequested]:
    """Every erasure request on the (single-partition) erasure-requests topic, in order."""
    c, offset, found = memory.components, 0, []
    while batch := await c.log.read(c.names.erasure_requests, 0, offset, 500):
        offset = batch[-1].offset + 1
        for record in batch:
            request = erasure_request_in(record)
            if request is not None:
                found.append(request)
    return found


async def _with_receipt(memory: MemoryService, request: ErasureRequested) -> dict[str, Any]:
    receipt = await memory.erasure_receipt(request.request_id)
    return {
        "request_id": request.request_id,
        "scope": request.scope.key,
        "target": request.target.value,
        "requested_at": request.requested_at.isoformat(),
        "reason": await memory.erasure_reason(request),
        "receipt": receipt.model_dump(mode="json") if receipt is not None else None,
    }


__all__ = ["erasure_requests", "inspector_router", "mount_inspector"]
