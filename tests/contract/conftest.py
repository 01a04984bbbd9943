"""Both event-log adapters behind one fixture: every contract test runs on each."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from provmem.core.ports import EventLog
from provmem.infra.log.embedded import EmbeddedEventLog
from provmem.infra.log.kafka import KafkaEventLog

OpenLog = Callable[[], EventLog]


@pytest.fixture(params=["embedded", "kafka"])
def open_log(request: pytest.FixtureRequest, tmp_path: Path) -> OpenLog:
    """Opens a client of one log; calling it again is a process restart on the same log."""
    if request.param == "embedded":
        return lambda: EmbeddedEventLog(tmp_path / "log.db")
    bootstrap = request.getfixturevalue("broker")
    return lambda: KafkaEventLog(bootstrap, max_batch_size=1)


@pytest.fixture
async def event_log(open_log: OpenLog) -> AsyncIterator[EventLog]:
    log = open_log()
    yield log
    await log.close()


@pytest.fixture
def topic() -> str:
    return f"contract-{uuid.uuid4().hex[:10]}"
