"""Erasure equals a fresh replay, on the Kafka runtime (the embedded case and the
scenario: ``test_erasure.py``; a module of its own so that the two long property runs
share the suite's processes)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings

from provmem.config import Settings
from tests.harness import Runtime
from tests.integration.test_erasure import EXAMPLES, SHARED_RUNTIME, _scenario


@pytest.fixture
async def kafka_runtime(kafka_settings: Settings, tmp_path: Path) -> AsyncIterator[Runtime]:
    started = await Runtime(kafka_settings, tmp_path).start()
    yield started
    await started.stop()


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=SHARED_RUNTIME,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # shrinking on a broker is slow
)
@given(example=EXAMPLES)
async def test_erasure_equals_a_fresh_replay_kafka(
    kafka_runtime: Runtime, example: dict[str, list[object] | bool]
) -> None:
    await _scenario(kafka_runtime, example)
