"""An erasure while other processes have the folder open (issue 30, items 1 and 2).

A reader process (a second ``AsyncMemory``) keeps its own vector index slot, filled from
the log (streams/runtime/index_slots.py). Before, an erasure in the owner while a reader
was open said "unverified": its byte audit met the erased facts' point ids in the
reader's slot, which the reader empties and rebuilds from the compacted log at its next
sync. Now the receipt is verified, the reader finds nothing erased at its next search,
and ``provmem audit erasure`` after the reader closed finds nothing either. A crashed
reader's slot, which nobody would rebuild, is removed by the next erasure. A copy of an
erased quote elsewhere in the folder is still found while a reader is open.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

from provmem import AsyncMemory
from tests.integration.test_many_processes import _answer, _ask, script
from tests.integration.test_residue_precision import provmem

AT = "2026-05-08T13:00:00+00:00"
SAID = ["I moved to Quetzalbrook in May 2021.", "My phone number is 555-0142-77."]


async def remembered(owner: AsyncMemory) -> None:
    for text in SAID:
        await owner.add(text, user_id="ana", session_id="s", at=AT)
    await owner.add("Bob drinks green tea.", user_id="bob", session_id="s", at=AT)
    await owner.search("where does ana live", user_id="ana")  # a library owner derives at a read


def reader_that_searched(folder: Path) -> subprocess.Popen[str]:
    """A reader process whose slot holds the facts of ana (it searched them)."""
    reader = subprocess.Popen(
        script("search", str(folder)), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert _answer(reader) == "ready"
    assert any("Quetzalbrook" in s for s in _ask(reader, "ana where does ana live"))
    return reader


def closed(reader: subprocess.Popen[str]) -> int:
    reader.stdin.close()  # type: ignore[union-attr]
    return reader.wait(60)


async def test_an_erasure_beside_an_open_reader_is_verified(tmp_path: Path) -> None:
    async with AsyncMemory(str(tmp_path)) as owner:
        await remembered(owner)
        reader = reader_that_searched(tmp_path)
        try:
            receipt = await owner.erase(user_id="ana", reason="asked to forget")
            assert receipt.residue_found == 0, receipt
            assert receipt.evidence_erased == 2
            assert not any("Quetzalbrook" in s for s in _ask(reader, "ana Quetzalbrook"))
            assert any("tea" in s for s in _ask(reader, "bob what does bob drink"))
        finally:
            assert closed(reader) == 0
        audit = provmem(tmp_path, "audit", "erasure", receipt.request_id)
        assert audit.returncode == 0, audit.stdout + audit.stderr
        assert json.loads(audit.stdout)["total"] == 0


async def test_a_crashed_readers_slot_is_removed_by_the_next_erasure(tmp_path: Path) -> None:
    async with AsyncMemory(str(tmp_path)) as owner:
        await remembered(owner)
        reader = reader_that_searched(tmp_path)
        os.kill(reader.pid, signal.SIGKILL)
        reader.wait(60)
        assert (tmp_path / "vectors-r1").is_dir()  # left behind, holding ana's point ids
        receipt = await owner.erase(user_id="ana", reason="asked to forget")
        assert receipt.residue_found == 0, receipt
        assert not (tmp_path / "vectors-r1").exists()


async def test_a_copy_of_an_erased_quote_is_found_while_a_reader_is_open(tmp_path: Path) -> None:
    async with AsyncMemory(str(tmp_path)) as owner:
        await remembered(owner)
        planted = tmp_path / "exports" / "notes.txt"
        planted.parent.mkdir()
        planted.write_text(f"copied by hand: {SAID[0]}\n")
        reader = reader_that_searched(tmp_path)
        try:
            receipt = await owner.erase(user_id="ana", reason="asked to forget")
            assert receipt.residue_found > 0, receipt
        finally:
            assert closed(reader) == 0
