"""The Python SDK against the HTTP API (sync over the app and over a real server, async
over a mock transport; the async subscription runs in tests/e2e/test_subscriptions.py)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from provmem.config import Settings
from provmem.core.events import FactStatus
from provmem.services.api.app import create_api
from provmem.services.sdk.client import AsyncMemoryClient, MemoryApiError, MemoryClient
from tests.e2e.test_api import issue

SCOPE = "acme/app/u1"
TURN = {
    "scope": SCOPE,
    "speaker": "Ann",
    "turn_id": "t1",
    "captured_at": "2026-05-01T10:00:00+00:00",
    "text": "I live in Paris.",
}


def test_corrections_and_review_over_the_sync_client(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    token = issue(settings, "acme")["Authorization"].removeprefix("Bearer ")
    with TestClient(create_api(settings)) as http:
        client = MemoryClient("http://testserver", api_key=token, client=http)
        assert client.publish([TURN])[0].status == "accepted"
        client.query(SCOPE, "where does Ann live")  # syncs the views
        (paris,) = client.facts(SCOPE)
        done = client.correct(paris.fact_id, "Ann lives in Rome.", by="Ann", scope=SCOPE)
        assert done.action == "correct" and done.scope == SCOPE
        current = {f.status: f for f in client.facts(SCOPE)}
        assert current[FactStatus.ACTIVE].statement == "Ann lives in Rome."
        assert client.review(SCOPE) == []
        with pytest.raises(MemoryApiError) as refused:
            client.retract(current[FactStatus.ACTIVE].fact_id, reason="x", scope="other/a/b")
        assert refused.value.status == 403
        with pytest.raises(MemoryApiError) as missing:
            client.reject("fact_missing", reason="x")
        assert missing.value.status == 404
        with pytest.raises(MemoryApiError) as wrong:
            client.approve(current[FactStatus.ACTIVE].fact_id)
        assert wrong.value.status == 422


async def test_the_async_client_sends_the_same_calls() -> None:
    seen: list[tuple[str, str, dict[str, object]]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        assert request.headers["authorization"] == "Bearer pmk_k"
        seen.append((request.method, request.url.path, json.loads(request.content or b"{}")))
        action = {"action": "reject", "fact_id": "fact_1", "evidence_id": "ev_1"}
        return httpx.Response(200, json={**action, "scope": SCOPE, "speaker": "ops"})

    http = httpx.AsyncClient(base_url="http://x", transport=httpx.MockTransport(answer))
    client = AsyncMemoryClient("http://x", api_key="pmk_k", client=http)
    result = await client.reject("fact_1", by="ops", reason="wrong")
    await client.aclose()
    assert result.action == "reject" and result.speaker == "ops"
    assert seen == [("POST", "/v1/facts/fact_1/reject", {"by": "ops", "reason": "wrong"})]


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """uvicorn on loopback in a thread; yields its base URL."""
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=0, log_level="warning", timeout_graceful_shutdown=1
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(30)


def test_the_sync_client_subscribes_and_resumes_from_its_last_event(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    token = issue(settings, "acme/app")["Authorization"].removeprefix("Bearer ")
    with serving(create_api(settings)) as url:
        client = MemoryClient(url, api_key=token)
        second = {**TURN, "turn_id": "t2", "text": "I have a cat named Tom."}
        client.publish([TURN, second])
        facts = client.facts(SCOPE)
        assert len(facts) >= 2
        subscription = client.subscribe("acme/app")
        changes = iter(subscription)
        first = next(changes)
        assert first.scope.key == SCOPE and subscription.last_event_id
        resumed = client.subscribe("acme/app", last_event_id=subscription.last_event_id)
        seen, wanted = {first.fact_id}, {f.fact_id for f in facts}
        for change in resumed:
            assert change.change_id != first.change_id
            seen.add(change.fact_id)
            if seen >= wanted:
                break
        assert seen == wanted
        with pytest.raises(MemoryApiError) as refused:
            next(iter(client.subscribe("globex")))
        assert refused.value.status == 403
        client.close()
