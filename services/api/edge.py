"""The API's edge: what a request body must pass before any route reads it.

In order, for every request that carries a body to ``/v1/...``:

1. authentication, from the headers alone: a request without a usable API key is
   answered 401 and its body is never read;
2. the size: a declared ``Content-Length`` over the limit is answered 413 at once, and a
   body that grows past it while being read is cut off with 413;
3. the content: a JSON body nested too deeply, or holding a string that is not valid
   Unicode (a lone UTF-16 surrogate, which ``\\udc80`` in JSON produces), is answered
   422 naming the field. Everything after this point can encode what it received.

Error bodies are rendered ASCII-escaped, so a handler never fails on its own echo.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from provmem.services.api.auth import Unauthenticated, grant_for

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class AsciiJSONResponse(JSONResponse):
    """JSON with every non-ASCII character escaped: lone surrogates render too."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


async def validation_failed(request: Request, error: Exception) -> AsciiJSONResponse:
    assert isinstance(error, RequestValidationError)  # noqa: S101 - registered for it
    return AsciiJSONResponse({"detail": _jsonable(error.errors())}, status_code=422)


async def http_failed(request: Request, error: Exception) -> AsciiJSONResponse:
    assert isinstance(error, StarletteHTTPException)  # noqa: S101 - registered for it
    headers = getattr(error, "headers", None)
    return AsciiJSONResponse({"detail": error.detail}, error.status_code, headers=headers)


def _jsonable(value: Any) -> Any:
    """Validation errors as JSON values (inputs may be bytes or exceptions)."""
    return json.loads(json.dumps(value, default=repr, ensure_ascii=True))


class EdgeGuard:
    """ASGI middleware: authentication before the body, a body-size limit, and 422 for
    bodies that are too deep or not valid Unicode (see the module docstring)."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self._app = app
        self._max = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _guarded(scope):
            await self._app(scope, receive, send)
            return
        refusal = await _unauthenticated(scope) or self._declared_too_large(scope)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        body = await self._read(receive)
        if body is None:
            await self._too_large()(scope, receive, send)
            return
        problem = undecodable(body)
        if problem is not None:
            await problem(scope, receive, send)
            return
        await self._app(scope, _replaying(body, receive), send)

    def _declared_too_large(self, scope: Scope) -> AsciiJSONResponse | None:
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self._max:
            return self._too_large()
        return None

    def _too_large(self) -> AsciiJSONResponse:
        detail = f"request body: larger than the limit of {self._max} bytes"
        return AsciiJSONResponse({"detail": detail}, status_code=413)

    async def _read(self, receive: Receive) -> bytes | None:
        """The whole body, or None once it passes the limit (the rest is not read)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self._max:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _guarded(scope: Scope) -> bool:
    path = str(scope.get("path", ""))
    return scope["type"] == "http" and scope["method"] in _BODY_METHODS and path.startswith("/v1/")


async def _unauthenticated(scope: Scope) -> AsciiJSONResponse | None:
    state = scope["app"].state.provmem
    authorization = _header(scope, b"authorization") or ""
    kind, _, token = authorization.partition(" ")
    try:
        await grant_for(
            token.strip() if kind.lower() == "bearer" else None, state.keys, state.settings.api_auth
        )
    except Unauthenticated as error:
        headers = {"WWW-Authenticate": "Bearer"}
        return AsciiJSONResponse({"detail": str(error)}, status_code=401, headers=headers)
    return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def undecodable(body: bytes) -> AsciiJSONResponse | None:
    """422 for a JSON body too deep to parse or with a string that is not valid Unicode;
    None for anything else (including invalid JSON, which the route reports)."""
    try:
        value = json.loads(body) if body.strip() else None
    except RecursionError:
        return _unprocessable([], "json_invalid", "nested too deeply")
    except ValueError:
        return None
    for location in _lone_surrogates(value):
        return _unprocessable(location, "string_unicode", "not valid Unicode (a lone surrogate)")
    return None


def _unprocessable(location: list[str | int], kind: str, message: str) -> AsciiJSONResponse:
    error = {"type": kind, "loc": ["body", *location], "msg": f"{message}", "input": None}
    return AsciiJSONResponse({"detail": [error]}, status_code=422)


def _lone_surrogates(value: Any) -> Iterator[list[str | int]]:
    """Paths (as validation ``loc``) of strings that cannot be encoded, keys included;
    iterative, so any depth the parser accepted is walked. The values of a turn batch's
    turns are left to the per-turn validation: one bad turn must not cost the others."""
    stack: list[tuple[list[str | int], Any]] = [([], value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str) and not _encodable(item) and not _in_a_turn(path):
            yield path
        elif isinstance(item, dict):
            for key, child in item.items():
                if not _encodable(key):
                    yield [*path, key]
                stack.append(([*path, key], child))
        elif isinstance(item, list):
            stack.extend(([*path, index], child) for index, child in enumerate(item))


def _in_a_turn(path: list[str | int]) -> bool:
    return len(path) >= 3 and path[0] == "turns" and isinstance(path[1], int)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A receive that hands the already-read body to the app, then defers to ``receive``."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


__all__ = ["AsciiJSONResponse", "EdgeGuard", "http_failed", "undecodable", "validation_failed"]
