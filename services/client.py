"""A small Python SDK for the HTTP API: :class:`MemoryClient` (sync) and
:class:`AsyncMemoryClient`. Both return the service's own result models.

    client = MemoryClient("http://localhost:8000")
    client.publish([{"scope": "acme/app/u1", "speaker": "Ann", "text": "...", ...}])
    client.correct(fact_id, "Ann lives in Lisbon.", by="Ann", scope="acme/app/u1")
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from pydantic import TypeAdapter

from ..core.events import Fact
from .results import ActionResult, FactDetail, PublishResult, Recollection


class MemoryApiError(RuntimeError):
    """The API refused a call (``status`` 403: another tenant's fact, 404, 422...)."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


@dataclass(frozen=True)
class _Call:
    method: str
    path: str
    parse: Callable[[Any], Any]
    body: Mapping[str, Any] | None = None
    params: Mapping[str, str] = field(default_factory=dict)


def _list_of(model: type[Any]) -> Callable[[Any], Any]:
    return TypeAdapter(list[model]).validate_python  # type: ignore[valid-type]


def _action(fact_id: str, verb: str, **body: Any) -> _Call:
    return _Call("POST", f"/v1/facts/{fact_id}/{verb}", ActionResult.model_validate, body)


class _Calls:
    """What each method sends and how its answer is read (shared by both clients)."""

    @staticmethod
    def publish(turns: Sequence[Mapping[str, Any]]) -> _Call:
        return _Call("POST", "/v1/turns", _list_of(PublishResult), {"turns": list(turns)})

    @staticmethod
    def query(scope: str, text: str, limit: int) -> _Call:
        body = {"scope": scope, "query": text, "limit": limit}
        return _Call("POST", "/v1/query", Recollection.model_validate, body)

    @staticmethod
    def facts(scope: str) -> _Call:
        return _Call("GET", "/v1/facts", _list_of(Fact), params={"scope": scope})

    @staticmethod
    def review(scope: str) -> _Call:
        return _Call("GET", "/v1/review", _list_of(FactDetail), params={"scope": scope})


def _read(response: httpx.Response, call: _Call) -> Any:
    if response.is_error:
        try:
            detail = str(response.json().get("detail", response.text))
        except ValueError:
            detail = response.text
        raise MemoryApiError(response.status_code, detail)
    return call.parse(response.json())


class MemoryClient:
    """Synchronous client; pass ``client`` to reuse an ``httpx.Client`` (or a test client)."""

    def __init__(self, base_url: str, *, client: httpx.Client | None = None) -> None:
        self._http = client or httpx.Client(base_url=base_url, timeout=60.0)

    def _do(self, call: _Call) -> Any:
        response = self._http.request(call.method, call.path, json=call.body, params=call.params)
        return _read(response, call)

    def close(self) -> None:
        self._http.close()

    def publish(self, turns: Sequence[Mapping[str, Any]]) -> list[PublishResult]:
        return self._do(_Calls.publish(turns))  # type: ignore[no-any-return]

    def query(self, scope: str, text: str, limit: int = 5) -> Recollection:
        return self._do(_Calls.query(scope, text, limit))  # type: ignore[no-any-return]

    def facts(self, scope: str) -> list[Fact]:
        return self._do(_Calls.facts(scope))  # type: ignore[no-any-return]

    def review(self, scope: str) -> list[FactDetail]:
        return self._do(_Calls.review(scope))  # type: ignore[no-any-return]

    def correct(self, fact_id: str, statement: str, **who: Any) -> ActionResult:
        """``who``: ``by``, ``reason``, ``scope``."""
        return self._do(_action(fact_id, "correct", statement=statement, **who))  # type: ignore[no-any-return]

    def retract(self, fact_id: str, **who: Any) -> ActionResult:
        return self._do(_action(fact_id, "retract", **who))  # type: ignore[no-any-return]

    def approve(self, fact_id: str, **who: Any) -> ActionResult:
        """``who`` may carry an edited ``statement``."""
        return self._do(_action(fact_id, "approve", **who))  # type: ignore[no-any-return]

    def reject(self, fact_id: str, **who: Any) -> ActionResult:
        return self._do(_action(fact_id, "reject", **who))  # type: ignore[no-any-return]


class AsyncMemoryClient:
    """The same calls for asyncio; pass ``client`` to reuse an ``httpx.AsyncClient``."""

    def __init__(self, base_url: str, *, client: httpx.AsyncClient | None = None) -> None:
        self._http = client or httpx.AsyncClient(base_url=base_url, timeout=60.0)

    async def _do(self, call: _Call) -> Any:
        response = await self._http.request(
            call.method, call.path, json=call.body, params=call.params
        )
        return _read(response, call)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def publish(self, turns: Sequence[Mapping[str, Any]]) -> list[PublishResult]:
        return await self._do(_Calls.publish(turns))  # type: ignore[no-any-return]

    async def query(self, scope: str, text: str, limit: int = 5) -> Recollection:
        return await self._do(_Calls.query(scope, text, limit))  # type: ignore[no-any-return]

    async def facts(self, scope: str) -> list[Fact]:
        return await self._do(_Calls.facts(scope))  # type: ignore[no-any-return]

    async def review(self, scope: str) -> list[FactDetail]:
        return await self._do(_Calls.review(scope))  # type: ignore[no-any-return]

    async def correct(self, fact_id: str, statement: str, **who: Any) -> ActionResult:
        return await self._do(_action(fact_id, "correct", statement=statement, **who))  # type: ignore[no-any-return]

    async def retract(self, fact_id: str, **who: Any) -> ActionResult:
        return await self._do(_action(fact_id, "retract", **who))  # type: ignore[no-any-return]

    async def approve(self, fact_id: str, **who: Any) -> ActionResult:
        return await self._do(_action(fact_id, "approve", **who))  # type: ignore[no-any-return]

    async def reject(self, fact_id: str, **who: Any) -> ActionResult:
        return await self._do(_action(fact_id, "reject", **who))  # type: ignore[no-any-return]
