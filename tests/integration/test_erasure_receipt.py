"""An erasure's receipt is right after a crash at its last step, and keeps no raw ids.

On 96a0921 a subject erasure killed after it had erased everything but before its
receipt re-ran to a receipt of 0 evidence, 0 facts and 0 keys erased (the turns were
compacted away and the key destroyed), and the ledger kept the raw evidence ids."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

from provmem.config import Settings
from provmem.services.erasure.subject import erasure_request
from provmem.services.memory.memory import MemoryService
from provmem.streams.erasure.ledger import LEDGER
from provmem.streams.runtime.components import build
from tests.harness import SCOPE, said

MASTER_KEY = base64.b64encode(bytes(range(32))).decode()  # one deployment, two folders
TURNS = [
    said(f"t{n}", f"I moved to city number {n} and my cat is called Tom{n}.", minute=n)
    for n in range(6)
]


async def _published(folder: Path) -> MemoryService:
    memory = MemoryService(
        await build(Settings(data_dir=folder, partitions=2, master_key=MASTER_KEY))
    )
    await memory.publish(TURNS)
    await memory.sync()
    return memory


async def test_a_subject_erasure_killed_before_its_receipt_resumes_to_the_right_receipt(
    tmp_path: Path,
) -> None:
    request = erasure_request(SCOPE, [], None, True)
    clean = await _published(tmp_path / "clean")
    expected = await clean.request_erasure(request)
    await clean.components.close()
    assert expected is not None and expected.evidence_erased == len(TURNS)
    assert expected.facts_erased > 0 and expected.removed_per_store["data_keys"] == 1

    live = tmp_path / "live"
    await (await _published(live)).components.close()
    env = {
        **os.environ,
        "PROVMEM_PARTITIONS": "2",
        "PROVMEM_MASTER_KEY": MASTER_KEY,
        "PROVMEM_FAULT": "erasure.before_receipt",
    }
    command = [sys.executable, "-m", "provmem.services.cli", "erase", SCOPE, "--subject"]
    killed = subprocess.run([*command, "--data-dir", str(live)], env=env, check=False)
    assert killed.returncode == -9  # everything erased, no receipt written

    memory = MemoryService(
        await build(Settings(data_dir=live, partitions=2, master_key=MASTER_KEY))
    )
    try:
        await memory.sync()  # the request is still unhandled on its topic: it resumes
        receipt = await memory.erasure_receipt(request.request_id)
        assert receipt is not None and receipt.residue_found == 0
        assert receipt.evidence_erased == expected.evidence_erased
        assert receipt.facts_erased == expected.facts_erased
        assert receipt.removed_per_store["data_keys"] == 1
        assert receipt.scope_key_hash == expected.scope_key_hash  # keyed, per deployment
        state = memory.components.state
        assert state is not None
        entry = (await state.load(LEDGER + request.request_id) or b"").decode()
        assert "ev_" not in entry and "fact_" not in entry, entry
        assert json.loads(entry)["evidence_ids"].startswith("sealed:"), entry  # audit key
    finally:
        await memory.components.close()
