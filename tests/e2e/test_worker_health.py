"""A worker's health endpoint: ``GET /health`` on ``PROVMEM_WORKER_WEB_PORT`` says whether
it holds partitions and reaches the broker and Redis (200), or what it cannot reach (503).

On 96a0921 the worker had no web server at all (``web_enabled`` was off): nothing to ask."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from provmem.config import Settings
from provmem.infra.log.kafka import KafkaEventLog
from provmem.streams.faust.health import Assignment, health
from provmem.streams.topics import TopicNames
from tests.harness import settings_env

COMMAND = [sys.executable, "-m", "provmem.services.cli", "worker"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _health_once_ready(port: int, worker: subprocess.Popen[bytes], log: Path) -> httpx.Response:
    """``/health`` once the worker logged ``worker.ready``."""
    deadline = time.monotonic() + 120
    while "worker.ready" not in log.read_text(errors="replace"):
        assert worker.poll() is None, log.read_text(errors="replace")[-3000:]
        assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
        time.sleep(0.2)
    return httpx.get(f"http://127.0.0.1:{port}/health", timeout=30)


def test_a_ready_worker_answers_health_with_its_partitions_and_dependencies(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    port = _free_port()
    env = {**settings_env(kafka_settings), "PROVMEM_WORKER_WEB_PORT": str(port)}
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        worker = subprocess.Popen(COMMAND, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        answer = _health_once_ready(port, worker, log)
    finally:
        worker.kill()
        worker.wait(30)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["ready"] is True and body["problems"] == []
    assert body["partitions"] == list(range(kafka_settings.partitions))
    assert body["dependencies"] == {"kafka": "reachable", "redis": "reachable"}


async def test_health_names_what_it_cannot_reach(kafka_settings: Settings) -> None:
    """Redis at an address nothing listens on (a real refused connection): 503 naming it."""
    log = KafkaEventLog(kafka_settings.broker_url)  # the topics a worker creates at start
    try:
        await log.ensure_topics(TopicNames(kafka_settings.topic_prefix).configs(4))
    finally:
        await log.close()
    down = kafka_settings.model_copy(update={"redis_url": "redis://127.0.0.1:1/0"})
    assignment = Assignment()
    assignment.hold([0, 1])
    status, body = await health(down, assignment)
    assert status == 503 and body["status"] == "unavailable"
    assert body["dependencies"] == {"kafka": "reachable", "redis": "unreachable"}
    (problem,) = body["problems"]
    assert problem.startswith("Redis redis://127.0.0.1:1/0: unreachable"), problem
    status, body = await health(kafka_settings, Assignment())  # not yet assigned
    assert status == 503 and body["ready"] is False
    assert body["dependencies"] == {"kafka": "reachable", "redis": "reachable"}
