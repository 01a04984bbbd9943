"""The provenance inspector at ``/ui``: one plain HTML + JS page (no build step) over the
API's own routes, plus two reads of its own (scopes, erasure receipts) under ``/ui/api``.

The page asks for an API key (kept in the browser's localStorage) and sends it as a
bearer token, so it reaches exactly what the key reaches; with ``PROVMEM_API_AUTH=off``
and no key in the store it needs none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from provmem.core.events import ErasureRequested
from provmem.services.api.auth import GrantDep, within
from provmem.services.memory.memory import Memory
from provmem.streams.erasure.requests import erasure_request_in

UI = Path(__file__).parent / "ui"


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
    async def erasures(request: Request, scope: str, grant: GrantDep) -> dict[str, Any]:
        """Erasures filed in ``scope`` (any depth), newest first, with their receipts."""
        prefix = grant.prefix(scope)
        memory: Memory = request.app.state.provmem.memory
        filed = [r for r in await erasure_requests(memory) if within(r.scope.key, prefix)]
        return {"erasures": [await _with_receipt(memory, r) for r in reversed(filed)]}

    return router


async def erasure_requests(memory: Memory) -> list[ErasureRequested]:
    """Every erasure request on the (single-partition) erasure-requests topic, in order."""
    c, offset, found = memory.components, 0, []
    while batch := await c.log.read(c.names.erasure_requests, 0, offset, 500):
        offset = batch[-1].offset + 1
        for record in batch:
            request = erasure_request_in(record)
            if isinstance(request, ErasureRequested):
                found.append(request)
    return found


async def _with_receipt(memory: Memory, request: ErasureRequested) -> dict[str, Any]:
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
