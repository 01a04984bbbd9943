"""Byte-level residue of the partial erasures (one evidence item, one session), on both
runtimes while the runtime's process holds its files open (the views' and the log's
SQLite connections, the vector index): after each, no byte under the data folder holds
the erased turn's distinctive words and numbers or the erased evidence and fact ids
(not even as the log's record keys: a tombstone's key is a keyed fingerprint of the id
since issue 17), and the audit agrees.

On 96a0921 erasing one evidence item left the same trace a subject erasure left: the
qdrant-edge WAL and payload pages, and the SQLite WALs of the running process."""

from __future__ import annotations

from provmem.core.events import Fact
from provmem.infra.residue import ResidueScanner, marks_of
from provmem.services.erasure.subject import eraser_for, erasure_request
from tests.harness import Runtime, said
from tests.integration.test_residue import ALICE, KEY, log_residue

PHONE = "My phone number is 5550142 and I live in Quetzalbrook."
CAT = "My cat Zanzibarite loves the Vorpalfield bakery."
KEPT = "I work at Initech in Springfield."


async def _erased_leaves_no_byte(
    runtime: Runtime, ids: list[str], session: str | None, text: str, kept: list[str]
) -> None:
    """Erase ``ids`` (by their ids, or as the ``session`` they are all of)."""
    memory, settings = runtime.memory, runtime.settings
    facts: list[Fact] = await memory.facts(ALICE)
    gone = [f.fact_id for f in facts if set(f.evidence_ids) <= set(ids)]
    assert gone, "the erased turn supports no fact of its own"
    planted = marks_of(KEY, [*ids, *gone], [text], kept)
    if settings.runtime == "embedded":
        before = ResidueScanner(KEY, planted).scan_folder(settings.data_dir)
        assert any(
            h.kind == "id" for h in before
        )  # the scanner sees what is there (no word: sealed)
    request = erasure_request(ALICE, [] if session else ids, session, False)
    receipt = await runtime.erase(request)
    assert receipt is not None and receipt.residue_found == 0
    assert (await eraser_for(memory.components).audit(request.request_id)).total == 0
    after = ResidueScanner(KEY, planted).scan_folder(settings.data_dir)
    assert after == []
    assert await log_residue(runtime, planted) == []  # keys included, the broker's too
    remaining = [f.fact_id for f in await memory.facts(ALICE)]
    assert remaining and not set(gone) & set(remaining)  # the kept turn's facts stay


async def test_an_evidence_and_a_session_erasure_leave_no_byte_of_what_they_erased(
    runtime: Runtime,
) -> None:
    memory = runtime.memory
    turns = [said("a0", PHONE, 0), said("a2", KEPT, 2)]
    turns += [said("a1", CAT, 1) | {"session": "s2"}]
    published = await memory.publish(turns)

    async def derived() -> bool:
        return await runtime.caught_up() and len(await memory.facts(ALICE)) >= 3

    await runtime.settle(derived)
    phone, _, cat = (p.evidence_id for p in published)
    await _erased_leaves_no_byte(runtime, [phone], None, PHONE, [KEPT, CAT])
    await _erased_leaves_no_byte(runtime, [cat], "s2", CAT, [KEPT])
