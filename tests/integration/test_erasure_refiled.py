"""An erasure filed again after its target came back, on both runtimes: a user who returns
after their subject erasure, a session written to again after its erasure. Filing the
same erasure again must erase what came back, not answer with the first receipt and
leave it; filing it again with nothing new stays one erasure."""

from __future__ import annotations

import asyncio

import pytest

from provmem.core.events import ErasureRequested
from provmem.services.api.inspector import erasure_requests
from provmem.services.erasure.subject import eraser_for, erasure_request
from tests.harness import SCOPE, Runtime, said

PLACE = said("t1", "I moved to Quetzalbrook in May.", 0)
DOG = said("t2", "I adopted a dog named Brumbleton.", 1)


async def _publish(runtime: Runtime, *turns: dict[str, object]) -> None:
    results = await runtime.memory.publish(list(turns))
    assert [r.status for r in results] == ["accepted"] * len(turns), results

    async def derived() -> bool:
        return await runtime.caught_up() and len(await runtime.memory.facts(SCOPE)) >= len(turns)

    await runtime.settle(derived)


async def _erase(runtime: Runtime, request: ErasureRequested) -> str:
    """File ``request`` as the CLI, the API and the SDK do; wait until the scope is empty
    and the erasure last filed has its receipt; its request id."""
    await runtime.memory.request_erasure(request)

    async def erased() -> bool:
        last = (await erasure_requests(runtime.memory))[-1].request_id
        done = await runtime.memory.erasure_receipt(last) is not None
        return done and await runtime.caught_up() and not await runtime.memory.facts(SCOPE)

    await runtime.settle(erased)
    return (await erasure_requests(runtime.memory))[-1].request_id


@pytest.mark.parametrize("session", [None, "s1"], ids=["subject", "session"])
async def test_an_erasure_filed_again_erases_what_came_back(
    runtime: Runtime, session: str | None
) -> None:
    request = erasure_request(SCOPE, [], session, session is None)
    await _publish(runtime, PLACE)
    assert await _erase(runtime, request) == request.request_id

    await _publish(runtime, PLACE, DOG)  # the same turn again, and a new one
    filed = await _erase(runtime, request)
    assert filed != request.request_id
    receipt = await runtime.memory.erasure_receipt(filed)
    assert receipt is not None and receipt.evidence_erased == 2, receipt
    assert receipt.residue_found == 0 and receipt.facts_erased == 2, receipt
    assert (await eraser_for(runtime.memory.components).audit(filed)).total == 0

    again = await runtime.memory.erasure_to_file(request)  # nothing came back: one erasure
    assert again.request_id == request.request_id


async def test_a_turn_published_again_after_its_erasure_survives_the_next_erasure(
    runtime: Runtime,
) -> None:
    await _publish(runtime, PLACE, DOG)
    place, dog = (await runtime.memory.publish([PLACE, DOG]))[0:2]
    await runtime.erase(erasure_request(SCOPE, [place.evidence_id], None, False))
    await _publish(runtime, PLACE)  # accepted again: on the log and derivable

    await runtime.erase(erasure_request(SCOPE, [dog.evidence_id], None, False))
    statements = [f.statement for f in await runtime.memory.facts(SCOPE)]
    assert statements == ["Alice moved to Quetzalbrook in May 2026."]


@pytest.mark.parametrize("runtime", ["kafka"], indirect=True)
async def test_a_turn_published_right_after_a_subject_erasure_becomes_a_fact(
    runtime: Runtime,
) -> None:
    """The worker shreds the subject's data key; this process had read it less than
    ``KEY_CACHE_S`` before. A turn it accepts after the receipt must be sealed under the
    subject's new key, not the shredded one (under which it reads as erased: accepted,
    never a fact)."""
    await _publish(runtime, PLACE)
    request = erasure_request(SCOPE, [], None, True)
    await runtime.memory.publish([PLACE])  # this process reads the key again
    await runtime.memory.request_erasure(request)
    while await runtime.memory.erasure_receipt(request.request_id) is None:
        await asyncio.sleep(0.05)
    await _publish(runtime, DOG)
