"""An erasure's own verification is the byte audit: a trace it cannot remove fails it.

On 814c57e the receipt's verification scanned the stores by id and by word runs only;
only ``provmem audit erasure`` read the bytes, and its number marks of 3+ digits were
met by the stores' own numbers (a vector size of 384 in the vector config, a revision
in the views), so the audit never read 0 after an erasure that left nothing.

Both runtimes, the runtime's processes holding their files: a copy of the subject's
numbers that no store knows of (embedded: an export left in the data folder; Kafka: a
key left in Redis, what the worker's verification scans with the log: the data folder
there holds each process's local replica, scanned by the audit where it runs) makes the
receipt say what was found and where, the ledger keep it, and the audit agree; once the
copy is gone the audit reads 0."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial

from provmem.infra.stores.redis_client import redis_client
from provmem.services.erasure.subject import eraser_for, erasure_request
from tests.harness import Runtime, said
from tests.integration.test_residue import ALICE

SAYS = "My phone is 555-0142, my account 40817810, and I live at number 384 on Elm Row."
LEFTOVER = "exported: 555 0142 / 40817810\n"  # two numbers, spelled otherwise


async def test_a_trace_the_erasure_cannot_remove_fails_its_verification(
    runtime: Runtime,
) -> None:
    memory, settings = runtime.memory, runtime.settings
    await memory.publish([said("a0", SAYS, 0, ALICE)])

    async def derived() -> bool:
        return await runtime.caught_up() and bool(await memory.facts(ALICE))

    await runtime.settle(derived)
    remove = await _leave_a_copy(runtime)
    where = "bytes_files" if settings.runtime == "embedded" else "bytes_redis"

    request = erasure_request(ALICE, [], None, True)
    receipt = await runtime.erase(request)
    assert receipt.residue_found == 2 and receipt.verified_by == "provmem-audit/2"
    eraser = eraser_for(memory.components)
    recorded = await eraser.ledger.recorded(request.request_id)
    assert recorded is not None and recorded.fields["verification"] == {where: 2}

    audit = await eraser.audit(request.request_id)
    assert {k: v for k, v in audit.found.items() if v} == {where: 2}
    await remove()
    assert (await eraser.audit(request.request_id)).total == 0  # 384 is no mark


async def _leave_a_copy(runtime: Runtime) -> Callable[[], Awaitable[object]]:
    """Leave the subject's numbers where no store knows of them; how to remove them."""
    settings = runtime.settings
    if settings.runtime == "embedded":
        leftover = settings.data_dir / "exports" / "alice.txt"
        leftover.parent.mkdir()
        leftover.write_text(LEFTOVER)
        return partial(asyncio.to_thread, leftover.unlink)
    client = redis_client(settings.redis_url)
    key = f"{settings.redis_prefix}:exports:alice"
    await client.set(key, LEFTOVER)

    async def remove() -> None:
        await client.delete(key)
        await client.aclose()

    return remove
