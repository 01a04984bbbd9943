"""A small Python SDK for the HTTP API: :class:`MemoryClient` (sync) and
:class:`AsyncMemoryClient`. Both return the service's own result models.

    client = MemoryClient("http://localhost:8080", api_key="pmk_...")
    client.publish([{"scope": "acme/app/u1", "speaker": "Ann", "text": "...", ...}])
    client.correct(fact_id, "Ann lives in Lisbon.", by="Ann", scope="acme/app/u1")

    async for change in AsyncMemoryClient(url, api_key=key).subscribe("acme/app"):
        ...  # FactChanged events; the subscription resumes by itself after a disconnect
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx
from pydantic import TypeAdapter

from provmem.core.events import ErasureCompleted, Fact, FactChanged
from provmem.services.memory.results import (
    ActionResult,
    ErasureQueued,
    EvidenceQuote,
    FactDetail,
    PublishResult,
    Recollection,
    ScopeErasure,
)


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
    def query(scope: str, text: str, limit: int, budget: int | None = None, **fit: Any) -> _Call:
        body: dict[str, Any] = {"scope": scope, "query": text, "limit": limit}
        if budget is not None:
            body["budget"] = budget
        body.update({name: value for name, value in fit.items() if value is not None})
        return _Call("POST", "/v1/query", Recollection.model_validate, body)

    @staticmethod
    def facts(scope: str) -> _Call:
        return _Call("GET", "/v1/facts", _list_of(Fact), params={"scope": scope})

    @staticmethod
    def review(scope: str) -> _Call:
        return _Call("GET", "/v1/review", _list_of(FactDetail), params={"scope": scope})

    @staticmethod
    def fact(fact_id: str) -> _Call:
        return _Call("GET", f"/v1/facts/{fact_id}", FactDetail.model_validate)

    @staticmethod
    def evidence(evidence_id: str) -> _Call:
        return _Call("GET", f"/v1/evidence/{evidence_id}", EvidenceQuote.model_validate)

    @staticmethod
    def erase(scope: str, what: Mapping[str, Any]) -> _Call:
        """``what``: ``evidence_ids``, ``session`` or ``subject=True``; and ``reason``."""
        return _Call("POST", "/v1/erasures", _receipt_or_queued, {"scope": scope, **what})

    @staticmethod
    def erasure_receipt(request_id: str) -> _Call:
        return _Call("GET", f"/v1/erasures/{request_id}", _receipt_or_queued)

    @staticmethod
    def ready() -> _Call:
        return _Call("GET", "/v1/ready", dict)


def _receipt_or_queued(body: Any) -> ErasureCompleted | ErasureQueued | ScopeErasure:
    """The receipt, or the request id of an erasure not completed yet (Kafka), or for an
    organisation or project, the erasures of its subjects."""
    if isinstance(body, dict) and body.get("status") == "queued":
        return ErasureQueued.model_validate(body)
    if isinstance(body, dict) and "subjects" in body:
        return ScopeErasure.model_validate(body)
    return ErasureCompleted.model_validate(body)


def _auth(api_key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def _read(response: httpx.Response, call: _Call) -> Any:
    if response.is_error:
        raise _refusal(response)
    return call.parse(response.json())


def _refusal(response: httpx.Response) -> MemoryApiError:
    try:
        detail = str(response.json().get("detail", response.text))
    except ValueError:
        detail = response.text
    return MemoryApiError(response.status_code, detail)


Start = Literal["earliest", "latest"]


class _EventReader:
    """Server-Sent Events line by line: returns (id, data) when an event is complete;
    comment lines (heartbeats) and other fields are skipped."""

    def __init__(self) -> None:
        self._id: str | None = None
        self._data: list[str] = []

    def feed(self, line: str) -> tuple[str | None, str] | None:
        if not line:
            event = (self._id, "\n".join(self._data)) if self._data else None
            self._data = []
            return event
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "id":
            self._id = value
        elif name == "data":
            self._data.append(value)
        return None


@dataclass
class _Stream:
    """One subscription's request and its resume point (``last_event_id``)."""

    scope: str
    start: Start
    headers: dict[str, str]
    last_event_id: str | None = None
    retry_s: float = 1.0
    max_failures: int = 10
    failures: int = 0

    def request(self) -> dict[str, Any]:
        headers = {**self.headers, "Accept": "text/event-stream"}
        if self.last_event_id:
            headers["Last-Event-ID"] = self.last_event_id
        params = {} if self.last_event_id else {"start": self.start}
        return {"url": f"/v1/scopes/{self.scope}/changes", "headers": headers, "params": params}

    def check(self, response: httpx.Response) -> None:
        """Refusals (4xx) end the subscription; server errors are retried. The body of an
        error must have been read."""
        if not response.is_error:
            return
        error = _refusal(response)
        if response.status_code < 500:
            raise error
        raise httpx.TransportError(str(error))

    def received(self, event: tuple[str | None, str]) -> FactChanged:
        self.failures = 0
        if event[0]:
            self.last_event_id = event[0]
        return FactChanged.model_validate_json(event[1])

    def failed(self) -> None:
        """Count a disconnect; past ``max_failures`` in a row, give up."""
        self.failures += 1
        if self.failures > self.max_failures:
            raise MemoryApiError(503, f"subscription to {self.scope}: gave up reconnecting")


_STREAM_TIMEOUT = httpx.Timeout(10.0, read=60.0)


class Subscription:
    """Fact changes of a scope as an iterator (sync client); see :class:`AsyncSubscription`."""

    def __init__(self, http: httpx.Client, stream: _Stream) -> None:
        self._http = http
        self._stream = stream

    @property
    def last_event_id(self) -> str | None:
        return self._stream.last_event_id

    def __iter__(self) -> Iterator[FactChanged]:
        while True:
            try:
                yield from self._connected()
            except httpx.TransportError:
                pass
            self._stream.failed()
            time.sleep(self._stream.retry_s)

    def _connected(self) -> Iterator[FactChanged]:
        request = self._stream.request()
        with self._http.stream("GET", timeout=_STREAM_TIMEOUT, **request) as response:
            if response.is_error:
                response.read()
            self._stream.check(response)
            reader = _EventReader()
            for line in response.iter_lines():
                event = reader.feed(line)
                if event is not None:
                    yield self._stream.received(event)


class AsyncSubscription:
    """``async for change in client.subscribe(scope)``: every FactChanged of the scope, in
    log order per partition. After a disconnect it reconnects with ``Last-Event-ID``, so
    no change is lost; ``last_event_id`` is where a new subscription would resume."""

    def __init__(self, http: httpx.AsyncClient, stream: _Stream) -> None:
        self._http = http
        self._stream = stream

    @property
    def last_event_id(self) -> str | None:
        return self._stream.last_event_id

    async def __aiter__(self) -> AsyncIterator[FactChanged]:
        while True:
            try:
                async for change in self._connected():
                    yield change
            except httpx.TransportError:
                pass
            self._stream.failed()
            await asyncio.sleep(self._stream.retry_s)

    async def _connected(self) -> AsyncIterator[FactChanged]:
        request = self._stream.request()
        async with self._http.stream("GET", timeout=_STREAM_TIMEOUT, **request) as response:
            if response.is_error:
                await response.aread()
            self._stream.check(response)
            reader = _EventReader()
            async for line in response.aiter_lines():
                event = reader.feed(line)
                if event is not None:
                    yield self._stream.received(event)


class MemoryClient:
    """Synchronous client; pass ``client`` to reuse an ``httpx.Client`` (or a test client)."""

    def __init__(
        self, base_url: str, *, api_key: str | None = None, client: httpx.Client | None = None
    ) -> None:
        self._http = client or httpx.Client(base_url=base_url, timeout=60.0)
        self._headers = _auth(api_key)

    def _do(self, call: _Call) -> Any:
        response = self._http.request(
            call.method, call.path, json=call.body, params=call.params, headers=self._headers
        )
        return _read(response, call)

    def close(self) -> None:
        self._http.close()

    def publish(self, turns: Sequence[Mapping[str, Any]]) -> list[PublishResult]:
        return self._do(_Calls.publish(turns))  # type: ignore[no-any-return]

    def query(
        self, scope: str, text: str, limit: int = 5, *, budget: int | None = None, **fit: Any
    ) -> Recollection:
        """``fit``: ``threshold`` (a 0-1 similarity floor), ``raw_turns_of`` (roles)."""
        return self._do(_Calls.query(scope, text, limit, budget, **fit))  # type: ignore[no-any-return]

    def facts(self, scope: str) -> list[Fact]:
        return self._do(_Calls.facts(scope))  # type: ignore[no-any-return]

    def fact(self, fact_id: str) -> FactDetail:
        """A fact with its evidence, history and what it superseded."""
        return self._do(_Calls.fact(fact_id))  # type: ignore[no-any-return]

    def evidence(self, evidence_id: str) -> EvidenceQuote:
        return self._do(_Calls.evidence(evidence_id))  # type: ignore[no-any-return]

    def erase(self, scope: str, **what: Any) -> ErasureCompleted | ErasureQueued | ScopeErasure:
        """``evidence_ids=[...]``, ``session=...`` or ``subject=True`` (and ``reason``):
        the receipt, or (distributed runtime) the request id to follow. ``subject=True``
        with an ``org`` or ``org/project`` scope erases every subject in it."""
        return self._do(_Calls.erase(scope, what))  # type: ignore[no-any-return]

    def erasure_receipt(self, request_id: str) -> ErasureCompleted | ErasureQueued:
        return self._do(_Calls.erasure_receipt(request_id))  # type: ignore[no-any-return]

    def ready(self) -> dict[str, Any]:
        return self._do(_Calls.ready())  # type: ignore[no-any-return]

    def review(self, scope: str) -> list[FactDetail]:
        return self._do(_Calls.review(scope))  # type: ignore[no-any-return]

    def subscribe(
        self, scope: str, *, last_event_id: str | None = None, start: Start = "earliest"
    ) -> Subscription:
        """Iterate over the scope's fact changes (``org``, ``org/project`` or a user scope)."""
        stream = _Stream(scope, start, self._headers, last_event_id)
        return Subscription(self._http, stream)

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

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self._http = client or httpx.AsyncClient(base_url=base_url, timeout=60.0)
        self._headers = _auth(api_key)

    async def _do(self, call: _Call) -> Any:
        response = await self._http.request(
            call.method, call.path, json=call.body, params=call.params, headers=self._headers
        )
        return _read(response, call)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def publish(self, turns: Sequence[Mapping[str, Any]]) -> list[PublishResult]:
        return await self._do(_Calls.publish(turns))  # type: ignore[no-any-return]

    async def query(
        self, scope: str, text: str, limit: int = 5, *, budget: int | None = None, **fit: Any
    ) -> Recollection:
        """``fit``: ``threshold`` (a 0-1 similarity floor), ``raw_turns_of`` (roles)."""
        return await self._do(_Calls.query(scope, text, limit, budget, **fit))  # type: ignore[no-any-return]

    async def facts(self, scope: str) -> list[Fact]:
        return await self._do(_Calls.facts(scope))  # type: ignore[no-any-return]

    async def fact(self, fact_id: str) -> FactDetail:
        return await self._do(_Calls.fact(fact_id))  # type: ignore[no-any-return]

    async def evidence(self, evidence_id: str) -> EvidenceQuote:
        return await self._do(_Calls.evidence(evidence_id))  # type: ignore[no-any-return]

    async def erase(
        self, scope: str, **what: Any
    ) -> ErasureCompleted | ErasureQueued | ScopeErasure:
        return await self._do(_Calls.erase(scope, what))  # type: ignore[no-any-return]

    async def erasure_receipt(self, request_id: str) -> ErasureCompleted | ErasureQueued:
        return await self._do(_Calls.erasure_receipt(request_id))  # type: ignore[no-any-return]

    async def ready(self) -> dict[str, Any]:
        return await self._do(_Calls.ready())  # type: ignore[no-any-return]

    async def review(self, scope: str) -> list[FactDetail]:
        return await self._do(_Calls.review(scope))  # type: ignore[no-any-return]

    def subscribe(
        self, scope: str, *, last_event_id: str | None = None, start: Start = "earliest"
    ) -> AsyncSubscription:
        """``async for change in client.subscribe(scope)``; resumes after disconnects."""
        stream = _Stream(scope, start, self._headers, last_event_id)
        return AsyncSubscription(self._http, stream)

    async def correct(self, fact_id: str, statement: str, **who: Any) -> ActionResult:
        return await self._do(_action(fact_id, "correct", statement=statement, **who))  # type: ignore[no-any-return]

    async def retract(self, fact_id: str, **who: Any) -> ActionResult:
        return await self._do(_action(fact_id, "retract", **who))  # type: ignore[no-any-return]

    async def approve(self, fact_id: str, **who: Any) -> ActionResult:
        return await self._do(_action(fact_id, "approve", **who))  # type: ignore[no-any-return]

    async def reject(self, fact_id: str, **who: Any) -> ActionResult:
        return await self._do(_action(fact_id, "reject", **who))  # type: ignore[no-any-return]
