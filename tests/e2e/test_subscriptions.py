"""A user drives the API over real HTTP on both runtimes: publish, subscribe, query, erase.

The API runs in a uvicorn server on loopback, in this process, over the runtime's own
components. The subscription is cut by stopping the server while turns keep arriving;
the SDK reconnects with Last-Event-ID and must receive every change on the log for the
scope, once, and nothing of other scopes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from provmem.config import Settings
from provmem.core.events import ErasureCompleted, FactChanged, FactOp
from provmem.services.api.app import create_api
from provmem.services.api.auth import ApiKeys, open_key_store
from provmem.services.memory.results import ErasureQueued
from provmem.services.sdk.client import AsyncMemoryClient
from provmem.streams.runtime.components import Components
from provmem.streams.topics import FACT_CHANGES
from tests.harness import Runtime, said

DEADLINE_S = 90.0
ORG_PROJECT = "acme/support"
ALICE, BOB, STRANGER = "acme/support/alice", "acme/support/bob", "globex/hr/carol"


async def issue_key(settings: Settings, scope: str) -> str:
    """A fresh API key's token for ``scope``, stored where the API will look."""
    store = open_key_store(settings)
    try:
        return (await ApiKeys(store).create(scope, name="test")).token
    finally:
        await store.close()


@asynccontextmanager
async def served(app: FastAPI, port: int = 0) -> AsyncIterator[str]:
    """Serve ``app`` with uvicorn on loopback in this event loop; yields its base URL."""
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.02)
    bound = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{bound}"
    finally:
        server.should_exit = True
        await task


async def logged_changes(components: Components, prefix: str) -> list[FactChanged]:
    """Every change of the scope on the fact-changes topic: what a subscriber must see."""
    log, topic = components.log, components.names.fact_changes
    found: list[FactChanged] = []
    for partition in range(await log.partitions(topic)):
        offset = 0
        while batch := await log.read(topic, partition, offset, 500):
            offset = batch[-1].offset + 1
            changes = [FACT_CHANGES.decode(r.value) for r in batch if r.value is not None]
            found += [c for c in changes if isinstance(c, FactChanged)]
    return [c for c in found if c.scope.key.startswith(prefix + "/")]


async def settled(runtime: Runtime, client: AsyncMemoryClient) -> None:
    """Everything published is processed: the API syncs on reads (embedded); the
    workers' group has caught up (Kafka)."""
    await client.facts(ALICE)
    deadline = time.monotonic() + DEADLINE_S
    while not await runtime.memory.workers_caught_up():
        assert time.monotonic() < deadline, runtime.worker_log()[-3000:]
        await asyncio.sleep(0.2)
    await client.facts(ALICE)


async def until_async(condition: Any, what: str) -> None:
    """Wait (bounded) until an async ``condition()`` holds."""
    deadline = time.monotonic() + DEADLINE_S
    while not await condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.1)


async def until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def test_publish_subscribe_query_erase_over_http(runtime: Runtime) -> None:
    settings = runtime.settings
    token = await issue_key(settings, ORG_PROJECT)
    app = create_api(settings, memory=runtime.memory)
    received: list[FactChanged] = []
    async with served(app) as url:
        client = AsyncMemoryClient(url, api_key=token)
        assert (await client.ready())["status"] == "ready"
        first = [said("a1", "I live in Paris."), said("b1", "I work at Globex.", scope=BOB)]
        assert [r.status for r in await client.publish(first)] == ["accepted"] * 2
        await settled(runtime, client)
        subscription = client.subscribe(ORG_PROJECT)
        subscription._stream.retry_s = 0.2  # reconnect quickly in the test
        subscription._stream.max_failures = 500

        async def collect() -> None:
            async for change in subscription:
                received.append(change)

        listening = asyncio.create_task(collect())
        before = await logged_changes(runtime.memory.components, ORG_PROJECT)
        assert before, "the first turns produced no fact change"
        await until(lambda: len(received) >= len(before), "first changes not streamed")
    # The server is down: the stream is cut. Turns keep arriving meanwhile.
    later = [said("a2", "I moved to Lisbon.", minute=5), said("b2", "Bob has a dog.", scope=BOB)]
    await runtime.memory.publish([*later, said("c1", "I own a boat.", scope=STRANGER)])
    port = int(url.rsplit(":", 1)[1])
    async with served(app, port) as url:
        await settled(runtime, client)
        after = await logged_changes(runtime.memory.components, ORG_PROJECT)
        assert len(after) > len(before)
        await until(lambda: len(received) >= len(after), "resumed stream lost changes")
        assert sorted(c.change_id for c in received) == sorted(c.change_id for c in after)
        assert {c.scope.key for c in received} <= {ALICE, BOB}

        answer = await client.query(ALICE, "where does Alice live")
        assert answer.bundles and answer.bundles[0].evidence
        lisbon = [f for f in await client.facts(ALICE) if "Lisbon" in f.statement]
        detail = await client.fact(lisbon[0].fact_id)
        assert detail.evidence[0].quote == "I moved to Lisbon."

        evidence_id = detail.fact.evidence_ids[0]
        filed = await client.erase(ALICE, evidence_ids=[evidence_id], reason="asked")
        receipt = await _receipt(client, filed)
        assert receipt.evidence_erased == 1 and receipt.residue_found == 0
        assert await client.erasure_receipt(receipt.request_id) == receipt
        await until(lambda: any(c.op is FactOp.ERASE for c in received), "erasure not streamed")
        async with httpx.AsyncClient(base_url=url) as http:
            metrics = (await http.get("/metrics")).text
        assert 'provmem_turns_published_total{status="accepted"} 2.0' in metrics
        assert f'provmem_pipeline_lag_records{{topic="{settings.topic_prefix}.turns"}}' in metrics
        listening.cancel()


async def _receipt(
    client: AsyncMemoryClient, filed: ErasureCompleted | ErasureQueued
) -> ErasureCompleted:
    """The receipt: at once (embedded), or once a worker ran the cascade (Kafka)."""
    deadline = time.monotonic() + DEADLINE_S
    while isinstance(filed, ErasureQueued):
        assert time.monotonic() < deadline, f"no receipt for {filed.request_id}"
        await asyncio.sleep(0.2)
        filed = await client.erasure_receipt(filed.request_id)
    return filed


async def test_heartbeats_and_resume_from_an_event_id(runtime: Runtime) -> None:
    """Raw SSE: comment-line heartbeats while idle; Last-Event-ID resumes after it."""
    settings = runtime.settings.model_copy(update={"api_heartbeat_s": 0.3})
    token = await issue_key(settings, "acme")
    app = create_api(settings, memory=runtime.memory)
    async with served(app) as url:
        client = AsyncMemoryClient(url, api_key=token)
        await client.publish([said("a1", "I live in Paris."), said("a2", "I have a cat.", 1)])
        await settled(runtime, client)
        logged = await logged_changes(runtime.memory.components, "acme")
        headers = {"Authorization": f"Bearer {token}"}
        lines = await _read_stream(url, headers, len(logged), heartbeats=1)
        ids = [line[4:] for line in lines if line.startswith("id: ")]
        assert len(ids) == len(logged) and ": heartbeat" in lines
        resumed = await _read_stream(url, {**headers, "Last-Event-ID": ids[0]}, len(logged) - 1)
        assert [x for x in resumed if x.startswith("id: ")] == [f"id: {i}" for i in ids[1:]]
        bad = {**headers, "Last-Event-ID": "0:x"}
        async with httpx.AsyncClient(base_url=url) as http:
            refused = await http.get("/v1/scopes/acme/changes", headers=bad)
        assert refused.status_code == 422 and "Last-Event-ID" in refused.text


async def _read_stream(
    url: str, headers: dict[str, str], events: int, heartbeats: int = 0
) -> list[str]:
    """Lines of the acme stream until ``events`` events and ``heartbeats`` beats came."""
    lines: list[str] = []
    async with (
        httpx.AsyncClient(base_url=url, timeout=DEADLINE_S) as http,
        http.stream("GET", "/v1/scopes/acme/changes", headers=headers) as response,
    ):
        assert response.headers["content-type"].startswith("text/event-stream")
        async for line in response.aiter_lines():
            lines.append(line)
            got = sum(x.startswith("id: ") for x in lines)
            beats = lines.count(": heartbeat")
            if got >= events and beats >= heartbeats:
                break
    return lines
