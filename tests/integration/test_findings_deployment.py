"""The distributed runtime as an operator runs it (issue 17, findings D1 and D3c), through
the CLI, a real worker process and the broker only, so the same test runs on every
version.

On 96a0921 each data folder generated its own master key when PROVMEM_MASTER_KEY was
unset: a publish from another folder was accepted, and from then on the deployment's own
publishes failed ("wrapped by another master key"); and a worker had no web server, so
nothing answered a health check."""

from __future__ import annotations

import base64
import os
import time
from pathlib import Path

import httpx

from provmem.config import Settings
from tests.integration.test_findings_live_api import cli, log_records
from tests.support.tansu import free_port
from tests.support.worker_process import WorkerProcess


def publish(settings: Settings, scope: str, turn_id: str) -> tuple[int, str]:
    args = ["--scope", scope, "--speaker", "Ann", "--text", "I live in Paris."]
    run = cli(settings, "publish", "--runtime", "kafka", *args, "--turn-id", turn_id)
    return run.returncode, " ".join((run.stdout + run.stderr).split())


async def test_a_folder_with_another_master_key_cannot_publish_nor_poison(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    """D1: the second folder's publish is refused in one line and appends nothing; the
    deployment goes on publishing."""
    assert publish(kafka_settings, "acme/support/alice", "t1")[0] == 0
    before = len(await log_records(kafka_settings))
    elsewhere = kafka_settings.model_copy(update={"data_dir": tmp_path / "elsewhere"})
    code, said = publish(elsewhere, "globex/support/bob", "t1")  # a tenant with no key yet
    assert code != 0 and "master key" in said.lower() and "Traceback" not in said, said
    assert len(await log_records(kafka_settings)) == before  # nothing appended
    code, said = publish(kafka_settings, "acme/support/alice", "t2")
    assert code == 0, said


async def test_a_worker_given_a_folder_that_does_not_exist_creates_it_and_derives(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    """D2 (docker-compose's PROVMEM_DATA_DIR did not exist in the image): the worker
    creates the folder and turns published to the deployment become facts."""
    key = base64.b64encode(os.urandom(32)).decode()  # one master key for the deployment
    shared = {**kafka_settings.model_dump(), "master_key": key}
    folder = tmp_path / "not" / "there" / "yet"
    worker = WorkerProcess(
        Settings.model_validate({**shared, "data_dir": folder}), tmp_path / "w.log"
    )
    await worker.start().ready()
    client = Settings.model_validate(shared)
    try:
        assert publish(client, "acme/support/alice", "t1")[0] == 0
        deadline = time.monotonic() + 120
        while "Paris" not in cli(client, "facts", "acme/support/alice", "--json").stdout:
            assert worker.alive, worker.log_text()[-3000:]
            assert time.monotonic() < deadline, worker.log_text()[-3000:]
            time.sleep(1)
    finally:
        await worker.stop()
    assert folder.is_dir()


async def test_a_ready_worker_answers_its_health_check(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    """D3c: with a web port set, a ready worker answers ``GET /health`` (200)."""
    port = free_port()
    served = Settings.model_validate({**kafka_settings.model_dump(), "worker_web_port": port})
    worker = WorkerProcess(served, tmp_path / "worker.log")
    await worker.start().ready()
    try:
        answer = healthy(f"http://127.0.0.1:{port}/health")
    finally:
        await worker.stop()
    assert answer is not None and answer.status_code == 200, answer
    assert answer.json()["partitions"] == list(range(kafka_settings.partitions))


def healthy(url: str) -> httpx.Response | None:
    """The first answer to ``url`` within a minute (the web server starts beside the
    worker's ready line), or None if nothing listens."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            answer = httpx.get(url, timeout=10)
        except httpx.TransportError:
            time.sleep(0.5)
            continue
        if answer.status_code == 200:
            return answer
        time.sleep(0.5)
    return None
