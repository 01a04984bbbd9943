"""The API's last word on a failure: one structured line, a short traceback, a 500.

An exception no route handles would reach uvicorn, which logs the whole chained
traceback; with structlog's rich renderer a traceback also printed every frame's local
variables, and they held what users said (issue 30: a 4,438-line traceback wrote a kept
fact into the server's log 12 times, where no erasure reaches it). This middleware,
inside the others, catches it first: it logs ``api.failed`` (method, path, the error's
type) with the innermost frames and no locals (services/memory/logs.py), and answers
``500 {"detail": "internal error"}`` when no response has started.
"""

from __future__ import annotations

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from provmem.services.api.edge import AsciiJSONResponse

log = structlog.get_logger(__name__)


class FailureGuard:
    """ASGI middleware: an unhandled exception is logged once, briefly, and answered 500."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self._app(scope, receive, sending)
        except Exception as error:
            method, path = scope.get("method"), scope.get("path")
            log.error("api.failed", method=method, path=path, error=type(error).__name__,
                      exc_info=error)  # fmt: skip
            if not started:  # else the client sees the response cut short
                await AsciiJSONResponse({"detail": "internal error"}, 500)(scope, receive, send)
