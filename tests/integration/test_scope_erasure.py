"""Erasing an organisation or a project, on both runtimes: every subject in it goes (facts,
evidence, data key; the audit finds nothing), every subject outside it stays."""

from __future__ import annotations

import asyncio
import time

import pytest

from provmem.core.events import ErasureCompleted
from provmem.services.erasure.scope import erase_scope, organisation_or_project
from provmem.services.erasure.subject import eraser_for
from tests.harness import Runtime, said

SUBJECTS = {
    "acme/support/alice": "I live in Paris.",
    "acme/support/bob": "I work at Globex as a nurse.",
    "acme/sales/carol": "I have two cats.",
    "globex/support/dan": "My favourite colour is green.",
}


async def _ingest(runtime: Runtime) -> None:
    await runtime.memory.publish(
        [said(f"t{n}", text, n, scope=scope) for n, (scope, text) in enumerate(SUBJECTS.items())]
    )

    async def every_subject_has_a_fact() -> bool:
        facts = [await runtime.memory.facts(scope) for scope in SUBJECTS]
        return await runtime.caught_up() and all(facts)

    await runtime.settle(every_subject_has_a_fact)


async def _receipts(runtime: Runtime, request_ids: list[str]) -> list[ErasureCompleted]:
    """The receipts of queued erasures (Kafka: the workers run them)."""
    deadline = time.monotonic() + 120
    while True:
        receipts = [await runtime.memory.erasure_receipt(i) for i in request_ids]
        if all(receipts):
            return [r for r in receipts if r is not None]
        assert time.monotonic() < deadline, "erasures not completed in 120 s"
        await asyncio.sleep(0.5)


async def _erase(runtime: Runtime, prefix: str) -> list[ErasureCompleted]:
    filed = await erase_scope(runtime.memory, prefix, reason="contract ended")
    return [*filed.completed, *await _receipts(runtime, filed.queued)]


async def _remaining(runtime: Runtime) -> set[str]:
    await runtime.memory.sync()
    return {scope for scope in SUBJECTS if await runtime.memory.facts(scope)}


async def test_a_project_then_an_organisation_is_erased_subject_by_subject(
    runtime: Runtime,
) -> None:
    await _ingest(runtime)
    receipts = await _erase(runtime, "acme/support")
    assert len(receipts) == 2
    assert all(r.residue_found == 0 and r.removed_per_store["data_keys"] == 1 for r in receipts)
    assert await _remaining(runtime) == {"acme/sales/carol", "globex/support/dan"}

    receipts = await _erase(runtime, "acme")
    # carol, and on Kafka (no compaction yet) the support subjects again: idempotent
    assert 1 <= len(receipts) <= 3
    assert await _remaining(runtime) == {"globex/support/dan"}
    eraser = eraser_for(runtime.memory.components)
    for receipt in receipts:
        assert (await eraser.audit(receipt.request_id)).total == 0


@pytest.mark.parametrize("bad", ["acme/support/alice", "acme/sup port", "a/b/c/d", ""])
def test_only_an_organisation_or_a_project_is_a_prefix(bad: str) -> None:
    with pytest.raises(ValueError, match="scope"):
        organisation_or_project(bad)
