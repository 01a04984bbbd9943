"""A subscriber connected at the end of the stream (``start=latest``) receives the ERASE
of facts erased while it is connected, though it never saw them change: on a user scope,
and on an organisation or project scope over the user scopes under it.

On 96a0921 it received nothing: the embedded log compacts an erasure's records at once,
so the stream met only a tombstone, of a fact it did not know. A wider scope knew only the
facts it had delivered until the stream preloaded them (now from the views' index of fact
versions by scope, ``versions_under``); a subject erasure on the embedded log appends the
tombstones alone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from provmem.config import Settings
from provmem.core.events import FactChanged, FactOp
from provmem.services.api.app import create_api
from provmem.services.sdk.client import AsyncMemoryClient
from tests.e2e.test_subscriptions import ALICE, BOB, issue_key, served, until, until_async
from tests.harness import Runtime, said


async def _listening(client: AsyncMemoryClient, scope: str) -> tuple[list[FactChanged], Any]:
    """A subscriber of ``scope`` from the end, once a new fact of Alice reached it."""
    received: list[FactChanged] = []
    subscription = client.subscribe(scope, start="latest")

    async def collect() -> None:
        async for change in subscription:
            received.append(change)

    listening = asyncio.create_task(collect())
    turns = iter(range(1, 1000))

    async def connected() -> bool:  # a new fact reaches it: it is listening
        n = next(turns)
        await client.publish([said(f"p{n}", f"I visited museum {n}.", minute=n)])
        await client.facts(ALICE)
        await asyncio.sleep(0.2)
        return bool(received)

    await until_async(connected, "the stream is not connected")
    return received, listening


async def test_a_subscriber_from_latest_receives_the_erase_of_an_older_fact(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=tmp_path / "data", partitions=2)
    runtime = await Runtime(settings, tmp_path).start()
    token = await issue_key(settings, "acme")
    try:
        async with served(create_api(settings, memory=runtime.memory)) as url:
            client = AsyncMemoryClient(url, api_key=token)
            (published,) = await client.publish([said("a1", "I live in Paris.")])
            (fact,) = await client.facts(ALICE)
            received, listening = await _listening(client, ALICE)
            await client.erase(ALICE, evidence_ids=[published.evidence_id], reason="asked")
            await until(lambda: any(c.op is FactOp.ERASE for c in received), "no ERASE")
            erased = [c for c in received if c.op is FactOp.ERASE]
            assert fact.fact_id in [c.fact_id for c in erased]
            listening.cancel()
    finally:
        await runtime.stop()


@pytest.mark.parametrize("wider", ["acme", "acme/support"])
async def test_an_organisation_or_project_subscriber_receives_a_subject_s_erase(
    tmp_path: Path, wider: str
) -> None:
    """Alice's subject erasure (the embedded log gets the tombstones only) while an
    ``acme`` or ``acme/support`` stream listens: an ERASE for each of Alice's facts,
    also those from before it connected, and none for Bob's."""
    settings = Settings(data_dir=tmp_path / "data", partitions=2)
    runtime = await Runtime(settings, tmp_path).start()
    token = await issue_key(settings, "acme")
    try:
        async with served(create_api(settings, memory=runtime.memory)) as url:
            client = AsyncMemoryClient(url, api_key=token)
            await client.publish([said("a1", "I live in Paris.")])
            await client.publish([said("b1", "I live in Rome.", scope=BOB)])
            (older,) = await client.facts(ALICE)
            (bobs,) = await client.facts(BOB)
            received, listening = await _listening(client, wider)
            alices = {f.fact_id for f in await client.facts(ALICE)}
            assert older.fact_id in alices and len(alices) > 1
            await client.erase(ALICE, subject=True, reason="asked")

            def all_erased() -> bool:
                return alices <= {c.fact_id for c in received if c.op is FactOp.ERASE}

            await until(all_erased, f"not every ERASE of Alice's facts reached {wider}")
            assert bobs.fact_id not in {c.fact_id for c in received if c.op is FactOp.ERASE}
            assert await client.facts(BOB)
            listening.cancel()
    finally:
        await runtime.stop()
