"""Replay jobs over HTTP: start, follow, the report, the switch, and tenant scope."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient

from provmem.config import Settings
from provmem.core.events import Fact
from provmem.services.api.app import create_api
from tests.e2e.test_api import TURN, issue
from tests.e2e.test_subscriptions import served
from tests.harness import SCOPE, Runtime, said

DEADLINE_S = 120.0
MOVED = {**TURN, "turn_id": "t2", "text": "I work at Initech now."}
MOVED["captured_at"] = "2026-06-01T10:00:00+00:00"
OTHER = {**TURN, "scope": "acme/web/u2", "turn_id": "o1", "text": "I have two cats."}


def _api(settings: Settings, runtime: Runtime | None = None) -> FastAPI:
    return create_api(settings, memory=None if runtime is None else runtime.memory)


def _finished(client: TestClient, job_id: str) -> dict[str, Any]:
    """Poll the job until it leaves ``running``."""
    deadline = time.monotonic() + DEADLINE_S
    while True:
        job = client.get(f"/v1/replays/{job_id}")
        assert job.status_code == 200, job.text
        if job.json()["status"] != "running":
            return job.json()  # type: ignore[no-any-return]
        assert time.monotonic() < deadline, job.json()
        time.sleep(0.2)


def _facts(client: TestClient, scope: str) -> list[dict[str, Any]]:
    listed = client.get("/v1/facts", params={"scope": scope})
    assert listed.status_code == 200, listed.text
    return listed.json()  # type: ignore[no-any-return]


def test_an_operator_replays_both_ways_over_http(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2, api_auth="off")
    with TestClient(_api(settings)) as client:
        client.post("/v1/turns", json={"turns": [TURN, MOVED, OTHER]})
        before = _facts(client, "acme/app/u1")
        assert any(f["status"] == "superseded" for f in before)
        for mode, generation in (("fact-changes", 1), ("turns", 2)):
            started = client.post("/v1/replays", json={"mode": mode})
            assert started.status_code == 202, started.text
            job = _finished(client, started.json()["job_id"])
            assert job["status"] == "done", job
            assert job["records_done"] == job["records_total"] > 0
            result = job["result"]
            assert result["report"]["equal"] and result["switched"]
            assert result["generation"] == generation
            assert {s["scope"] for s in result["report"]["scopes"]} == {
                "acme/app/u1",
                "acme/web/u2",
            }
            assert _facts(client, "acme/app/u1") == before  # served from the new generation
        later = {**TURN, "turn_id": "t3", "text": "I love jazz."}
        later["captured_at"] = "2026-07-01T10:00:00+00:00"
        client.post("/v1/turns", json={"turns": [later]})
        answer = client.post("/v1/query", json={"scope": "acme/app/u1", "query": "jazz"})
        assert "jazz" in answer.json()["bundles"][0]["fact"]["statement"]
    assert not (tmp_path / "d" / "vectors-g1").exists()  # the switched-out generation


def test_a_tenant_key_may_only_check_its_own_scopes(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    mine, theirs = issue(settings, "acme/app"), issue(settings, "globex")
    with TestClient(_api(settings), headers=mine) as client:
        client.post("/v1/turns", json={"turns": [TURN, MOVED]})
        everything = client.post("/v1/replays", json={"mode": "fact-changes"})
        assert everything.status_code == 403 and "every tenant" in everything.text
        foreign = client.post("/v1/replays", json={"scopes": ["acme/web/u2"]})
        assert foreign.status_code == 403
        bad = client.post("/v1/replays", json={"mode": "facts", "scopes": ["acme/app/u1"]})
        assert bad.status_code == 422
        bad_scope = client.post("/v1/replays", json={"scopes": ["acme/app"]})
        assert bad_scope.status_code == 422 and "scope" in bad_scope.text
        started = client.post("/v1/replays", json={"mode": "turns", "scopes": ["acme/app/u1"]})
        assert started.status_code == 202, started.text
        job = _finished(client, started.json()["job_id"])
        assert job["status"] == "done" and job["result"]["report"]["equal"]
        assert not job["result"]["switched"]  # a check of chosen scopes
        hidden = client.get(f"/v1/replays/{job['job_id']}", headers=theirs)
        assert hidden.status_code == 404
        assert client.get("/v1/replays/rp_missing").status_code == 404


async def test_a_replay_job_over_real_http_on_both_runtimes(runtime: Runtime) -> None:
    """On Kafka the workers keep writing, after the switch, into the new generation."""
    settings = runtime.settings.model_copy(update={"api_auth": "off"})
    await runtime.memory.publish([said("t1", "I live in Paris."), said("t2", "I love jazz.", 1)])

    async def two_facts() -> bool:
        return await runtime.caught_up() and len(await runtime.memory.facts(SCOPE)) == 2

    await runtime.settle(two_facts)
    before = await runtime.memory.facts(SCOPE)
    async with served(_api(settings, runtime)) as url:
        async with httpx.AsyncClient(base_url=url, timeout=60) as client:
            started = await client.post("/v1/replays", json={"mode": "fact-changes"})
            assert started.status_code == 202, started.text
            job = await _followed(client, started.json()["job_id"])
            assert job["status"] == "done" and job["result"]["report"]["equal"], job
            assert job["result"]["switched"]
            listed = await client.get("/v1/facts", params={"scope": SCOPE})
            assert [Fact.model_validate(f) for f in listed.json()] == before
            later = said("t3", "I moved to Lisbon.", 2)
            assert (await client.post("/v1/turns", json={"turns": [later]})).status_code == 200
            await _until_listed(client, "Lisbon")


async def _followed(client: httpx.AsyncClient, job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + DEADLINE_S
    while True:
        job = (await client.get(f"/v1/replays/{job_id}")).json()
        if job["status"] != "running":
            return job  # type: ignore[no-any-return]
        assert time.monotonic() < deadline, job
        await asyncio.sleep(0.2)


async def _until_listed(client: httpx.AsyncClient, word: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while True:
        listed = (await client.get("/v1/facts", params={"scope": SCOPE})).json()
        if any(word in f["statement"] for f in listed):
            return
        assert time.monotonic() < deadline, listed
        await asyncio.sleep(0.2)
