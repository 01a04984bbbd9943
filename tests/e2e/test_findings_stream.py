"""Live SSE subscribers of a real ``provmem api`` process receive the ERASE of facts
erased while they are connected (issue 17, findings R5 and R5b), read as a browser reads
``GET /v1/scopes/{scope}/changes?start=latest``, so the same test runs on every version.

On 96a0921 a subscriber from ``latest`` got no ERASE for a fact from before it connected:
on a user scope after an evidence erasure, and on an organisation or project scope after
a subject erasure."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tests.integration.test_findings_live_api import LiveApi, facts_of, until
from tests.integration.test_findings_live_api import embedded_api as embedded_api  # fixture

ALICE, BOB = "acme/support/alice", "acme/support/bob"


def said(scope: str, turn_id: str, text: str, minute: int = 0) -> dict[str, str]:
    return {
        "scope": scope,
        "speaker": "Ann",
        "session": "s1",
        "turn_id": turn_id,
        "text": text,
        "captured_at": f"2026-05-08T13:{minute:02d}:00+00:00",
    }


async def published(live: LiveApi, *turns: dict[str, str]) -> list[str]:
    """Publish ``turns``; their evidence ids once each supports a fact."""
    async with live.client() as client:
        answer = await client.post("/v1/turns", json={"turns": list(turns)})
        ids = [str(r["evidence_id"]) for r in answer.json()]

        async def derived() -> bool:
            scopes = {t["scope"] for t in turns}
            found = [
                e for s in scopes for f in await facts_of(client, s) for e in f["evidence_ids"]
            ]
            return set(ids) <= set(found)

        await until(derived, "derived")
    return ids


@asynccontextmanager
async def listening(live: LiveApi, scope: str) -> AsyncIterator[list[dict[str, Any]]]:
    """The changes a ``start=latest`` subscriber of ``scope`` receives, once a new fact
    of Alice's has reached it (it is connected)."""
    received: list[dict[str, Any]] = []

    async def read() -> None:
        async with live.client() as client:
            url, params = f"/v1/scopes/{scope}/changes", {"start": "latest"}
            async with client.stream("GET", url, params=params) as stream:
                async for line in stream.aiter_lines():
                    if line.startswith("data:"):
                        received.append(json.loads(line.removeprefix("data:")))

    reader, minutes = asyncio.create_task(read()), iter(range(10, 60))

    async def connected() -> bool:
        minute = next(minutes)
        await published(live, said(ALICE, f"p{minute}", f"I visited museum {minute}.", minute))
        await asyncio.sleep(0.5)
        return bool(received)

    try:
        await until(connected, "a connected stream")
        yield received
    finally:
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)


def erased_ids(received: list[dict[str, Any]]) -> set[str]:
    return {c["fact_id"] for c in received if c["op"] == "ERASE"}


async def test_a_user_subscriber_receives_the_erase_of_an_older_fact(
    embedded_api: LiveApi,
) -> None:
    """R5: an evidence erasure of a fact from before the stream connected."""
    (evidence,) = await published(embedded_api, said(ALICE, "a1", "I live in Paris."))
    async with embedded_api.client() as client:
        (older,) = [f["fact_id"] for f in await facts_of(client, ALICE)]
        async with listening(embedded_api, ALICE) as received:
            erase = {"scope": ALICE, "evidence_ids": [evidence]}
            assert (await client.post("/v1/erasures", json=erase)).status_code in (200, 202)

            async def reached() -> bool:
                return older in erased_ids(received)

            await until(reached, "the ERASE on the stream")


@pytest.mark.parametrize("wider", ["acme", "acme/support"])
async def test_a_wider_subscriber_receives_a_subject_s_erase(
    embedded_api: LiveApi, wider: str
) -> None:
    """R5b: every one of Alice's facts (also those from before the stream connected)
    arrives as ERASE on an organisation or project stream, none of Bob's."""
    await published(
        embedded_api, said(ALICE, "a1", "I live in Paris."), said(BOB, "b1", "I live in Rome.")
    )
    async with embedded_api.client() as client, listening(embedded_api, wider) as received:
        alices = {f["fact_id"] for f in await facts_of(client, ALICE)}
        bobs = {f["fact_id"] for f in await facts_of(client, BOB)}
        erase = {"scope": ALICE, "subject": True}
        assert (await client.post("/v1/erasures", json=erase)).status_code in (200, 202)

        async def reached() -> bool:
            return alices <= erased_ids(received)

        await until(reached, f"every ERASE of Alice's facts on {wider}")
        assert not bobs & erased_ids(received)
