"""A running API's own vector index on Kafka (no Qdrant server) follows the log: an
erasure the workers ran leaves it whether or not anyone reads through the API, and a
stopping API applies what it has not yet read (services/api/pump.py). The Kafka fault
matrix once found an erased subject's facts live in a stopped API's index. Real parts:
a Tansu broker, Redis, a faust worker process and ``provmem api`` processes."""

from __future__ import annotations

from pathlib import Path

from provmem.config import Settings
from tests.integration.test_fault_matrix import quote
from tests.integration.test_fault_matrix_kafka import (
    TURNS,
    Deployment,
    add,
    deployment_settings,
    erased,
    scope,
)
from tests.integration.test_findings_live_api import LiveApi, audited, until


async def test_a_stopped_api_keeps_no_point_of_an_erasure_it_did_not_read_after(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    """The API read once (its index holds the subject's facts), then nobody read through
    it: after the worker's erasure and the API's stop, the audit finds nothing."""
    settings = deployment_settings(kafka_settings)
    deployment = Deployment(settings, tmp_path)
    await deployment.start_worker()
    try:
        async with deployment.api() as live:
            for index in range(TURNS):
                await add(live, "victim", quote("victim", index))
            await until(lambda: has_facts(live, "victim"), "derived")  # the API indexed them
            receipt = await erased(live, "victim")
        assert audited(settings, receipt["request_id"])["total"] == 0
    finally:
        await deployment.worker.stop(kill=True)


async def has_facts(live: LiveApi, user: str) -> bool:
    """A read (the API syncs its own index first): some fact of ``user``'s is there."""
    async with live.client() as client:
        answer = await client.get("/v1/facts", params={"scope": scope(user)})
    assert answer.status_code == 200, answer.text
    return len(answer.json()) > 0
