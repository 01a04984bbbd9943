"""The Kafka fault matrix's case ``erasure`` (test_fault_matrix_kafka.py says what it
does; a module of its own so that the two long cases share the suite's processes)."""

from __future__ import annotations

from pathlib import Path

from provmem.config import Settings
from tests.integration.test_fault_matrix_kafka import fault_matrix


async def test_no_accepted_write_is_lost_and_no_erased_byte_stays_on_kafka_erasure(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    await fault_matrix("erasure", kafka_settings, tmp_path)
