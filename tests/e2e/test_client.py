"""The Python SDK against the HTTP API (sync over the app, async over a mock transport)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from provmem.core.events import FactStatus
from provmem.infra.settings import Settings
from provmem.services.api import create_api
from provmem.services.client import AsyncMemoryClient, MemoryApiError, MemoryClient

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
    with TestClient(create_api(settings)) as http:
        client = MemoryClient("http://testserver", client=http)
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
        seen.append((request.method, request.url.path, json.loads(request.content or b"{}")))
        action = {"action": "reject", "fact_id": "fact_1", "evidence_id": "ev_1"}
        return httpx.Response(200, json={**action, "scope": SCOPE, "speaker": "ops"})

    http = httpx.AsyncClient(base_url="http://x", transport=httpx.MockTransport(answer))
    client = AsyncMemoryClient("http://x", client=http)
    result = await client.reject("fact_1", by="ops", reason="wrong")
    await client.aclose()
    assert result.action == "reject" and result.speaker == "ops"
    assert seen == [("POST", "/v1/facts/fact_1/reject", {"by": "ops", "reason": "wrong"})]
