"""One master key per deployment, on both runtimes: a process started with another master
key (another data folder's generated key, or a wrong PROVMEM_MASTER_KEY) refuses to start
with a clear error, and the deployment's processes go on reading and publishing."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from provmem.config import Settings
from provmem.infra.crypto.envelope import ForeignMasterKeyError
from provmem.streams.runtime.components import build
from tests.harness import SCOPE, Runtime, said


async def test_a_foreign_master_key_refuses_to_start_and_appends_nothing(
    runtime: Runtime, tmp_path: Path
) -> None:
    await runtime.memory.publish([said("t1", "I live in Paris.")])
    log, names = runtime.memory.components.log, runtime.memory.components.names
    ends = [await log.end_offset(names.turns, p) for p in range(runtime.settings.partitions)]
    foreign = runtime.settings.model_copy(
        update={"master_key": base64.b64encode(os.urandom(32)).decode()}
    )
    if runtime.settings.runtime == "kafka":  # another folder: it would generate its own key
        foreign = runtime.settings.model_copy(update={"data_dir": tmp_path / "elsewhere"})
    with pytest.raises(ForeignMasterKeyError, match="PROVMEM_MASTER_KEY"):
        await build(Settings.model_validate(foreign.model_dump()))
    partitions = range(runtime.settings.partitions)
    assert [await log.end_offset(names.turns, p) for p in partitions] == ends
    await runtime.memory.publish([said("t2", "I work at Globex.", 1)])  # the deployment goes on
    await runtime.settle(runtime.caught_up)
    assert await runtime.memory.facts(SCOPE)
