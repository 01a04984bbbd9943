"""A subscriber connected at the end of the stream (``start=latest``) receives the ERASE
of facts erased while it is connected, though it never saw them change.

On 96a0921 it received nothing: the embedded log compacts an erasure's records at once,
so the stream met only a tombstone, of a fact it did not know."""

from __future__ import annotations

import asyncio
from pathlib import Path

from provmem.core.events import FactChanged, FactOp
from provmem.infra.settings import Settings
from provmem.services.api.app import create_api
from provmem.services.sdk.client import AsyncMemoryClient
from tests.e2e.test_subscriptions import ALICE, issue_key, served, until, until_async
from tests.harness import Runtime, said


async def test_a_subscriber_from_latest_receives_the_erase_of_an_older_fact(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=tmp_path / "data", partitions=2)
    runtime = await Runtime(settings, tmp_path).start()
    token = await issue_key(settings, "acme")
    received: list[FactChanged] = []
    try:
        async with served(create_api(settings, memory=runtime.memory)) as url:
            client = AsyncMemoryClient(url, api_key=token)
            (published,) = await client.publish([said("a1", "I live in Paris.")])
            (fact,) = await client.facts(ALICE)
            subscription = client.subscribe(ALICE, start="latest")

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
            await client.erase(ALICE, evidence_ids=[published.evidence_id], reason="asked")
            await until(lambda: any(c.op is FactOp.ERASE for c in received), "no ERASE")
            erased = [c for c in received if c.op is FactOp.ERASE]
            assert fact.fact_id in [c.fact_id for c in erased]
            listening.cancel()
    finally:
        await runtime.stop()
