"""Byte-level residue: what an erasure removed is gone from every byte, and the scanner
that says so finds it where it is.

The scanner (infra/residue.py) works from keyed fingerprints only. The first test shows
it finds planted words, numbers and ids in a qdrant-edge folder after a plain delete
(the residue the old code left: WAL and payload pages), and nothing after ``purge``.
A process killed between a delete and the end of its purge leaves the deleted ids in the
folder; the next open of the folder purges them (the third). The last runs the embedded
runtime end to end: publish, erase a subject, audit.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from provmem.config import Settings
from provmem.core.ports import Append, VectorPoint
from provmem.core.scope import partition_for
from provmem.infra.log.sealed import raw_log
from provmem.infra.residue import ErasedMarks, Hit, ResidueScanner, audit_key, log_records, marks_of
from provmem.infra.vectors import edge as edge_module
from provmem.infra.vectors.edge import EdgeVectorIndex
from provmem.services.erasure.subject import eraser_for, erasure_request
from tests.harness import Runtime, said

KEY = audit_key(os.urandom(32))
PLANTED = "quetzalbrook 5550142 zanzibarite"
ALICE = "acme/support/alice"
BOB = "acme/support/bob"
ALICE_SAYS = [
    "My phone number is 5550142 and I live in Quetzalbrook.",
    "My cat Zanzibarite loves the Vorpalfield bakery.",
]
BOB_SAYS = ["I work at Initech in Springfield."]


def _point(item_id: str, entities: tuple[str, ...]) -> VectorPoint:
    return VectorPoint(item_id, [1.0, 0.0, 0.5, 0.25], "o/p/a", "active", "", None, entities)


async def test_scanner_finds_deleted_points_in_vector_files_until_purged(tmp_path: Path) -> None:
    folder = tmp_path / "vectors"
    index = EdgeVectorIndex(folder, 4)
    await index.upsert([_point("fact_" + "a" * 32, tuple(PLANTED.split())), _point("kept", ())])
    await index.delete(["fact_" + "a" * 32])
    await index.close()
    scanner = ResidueScanner(KEY, marks_of(KEY, ["fact_" + "a" * 32], [PLANTED], []))

    before = scanner.scan_folder(folder)  # what a delete alone leaves
    assert {h.kind for h in before} == {"id", "word", "span"}  # the entities stand in a row
    assert any("wal" in h.location for h in before)
    assert any("payload_storage" in h.location for h in before)

    index = EdgeVectorIndex(folder, 4)
    await index.open()  # the bucket owes a purge: the open did it
    assert await index.purge() == 0  # no bucket owes one now
    assert scanner.scan_folder(folder) == []
    assert await index.count("o/p/a") == 1  # the live point is kept
    await index.close()


ERASED_ID = "fact_" + "b" * 32


@pytest.mark.parametrize("dies", ["after the delete", "inside the purge"])
async def test_a_delete_whose_process_died_before_its_purge_is_purged_at_the_next_open(
    tmp_path: Path, dies: str
) -> None:
    folder = tmp_path / "vectors"
    code = "import sys; from tests.integration.test_residue import erasing; erasing(*sys.argv[1:])"
    child = subprocess.run([sys.executable, "-c", code, str(folder), dies], check=False)
    assert child.returncode == -signal.SIGKILL
    scanner = ResidueScanner(KEY, marks_of(KEY, [ERASED_ID], [PLANTED], []))
    assert any(h.kind == "id" for h in scanner.scan_folder(tmp_path))  # what the kill left

    index = EdgeVectorIndex(folder, 4)
    await index.open()
    assert scanner.scan_folder(tmp_path) == []
    assert await index.count("o/p/a") == 1  # the live point is kept
    await index.close()


def erasing(folder: str, dies: str) -> None:
    """(A child process) index two points and erase one, SIGKILLed ``dies``."""

    def killed(*_: object) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    def copied_then_killed(source: object, target: object) -> None:
        copy_live(source, target)  # the fresh shard is built, not swapped in
        killed()

    async def run() -> None:
        index = EdgeVectorIndex(Path(folder), 4)
        await index.upsert([_point(ERASED_ID, tuple(PLANTED.split())), _point("kept", ())])
        await index.delete([ERASED_ID])
        if dies == "after the delete":
            killed()
        await index.purge()

    copy_live = edge_module._copy_live
    edge_module._copy_live = copied_then_killed  # type: ignore[assignment]  # a stand-in
    asyncio.run(run())


async def test_after_a_subject_erasure_no_byte_under_the_data_folder_holds_it(
    runtime: Runtime,
) -> None:
    """Both runtimes; on Kafka the worker erases, Redis is scanned, and the log counts what
    compaction keeps (Tansu, like a broker before its log cleaner ran, keeps all)."""
    memory, settings = runtime.memory, runtime.settings
    turns = [said(f"a{i}", t, i, ALICE) for i, t in enumerate(ALICE_SAYS)]
    turns += [said("b0", BOB_SAYS[0], 5, BOB) | {"speaker": "Bob"}]
    await memory.publish(turns)

    async def both_have_facts() -> bool:
        return await runtime.caught_up() and bool(await memory.facts(ALICE))

    await runtime.settle(both_have_facts)
    alice_facts = await memory.facts(ALICE)
    ids = [t.evidence_id for t in await _evidence(runtime, ALICE)]
    planted = marks_of(KEY, [*ids, *(f.fact_id for f in alice_facts)], ALICE_SAYS, [])
    before = ResidueScanner(KEY, planted).scan_folder(settings.data_dir)
    if settings.runtime == "embedded":
        assert any(h.kind == "id" for h in before)  # the scanner sees what is there

    request = erasure_request(ALICE, [], None, True)
    receipt = await runtime.erase(request)
    assert receipt is not None and receipt.residue_found == 0

    audit = await eraser_for(memory.components).audit(request.request_id)
    assert {k: v for k, v in audit.found.items() if k.startswith("bytes_")} == {
        "bytes_log": 0,
        "bytes_files": 0,
        "bytes_redis": 0,
        "bytes_qdrant": 0,
    }
    assert audit.total == 0
    after = ResidueScanner(KEY, planted).scan_folder(settings.data_dir)
    # nothing, the log's record keys included: a tombstone's key is a keyed fingerprint
    assert after == []
    assert await log_residue(runtime, planted) == []  # the broker's records too (Kafka)
    assert await memory.facts(BOB)  # the other subject is untouched

    # the audit reads the keys: an erased id as a tombstone's raw key is residue
    partition = partition_for(ALICE, settings.partitions)
    at_rest = raw_log(memory.components.log)
    await at_rest.append(memory.components.names.turns, [Append(partition, ids[0].encode(), None)])
    audit = await eraser_for(memory.components).audit(request.request_id)
    assert audit.found["bytes_log"] >= 1


async def test_a_kafka_local_index_restarted_before_an_erasure_drops_the_erased_turns(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    """A reading process on Kafka indexes the turns into its local index. Restarted, it
    no longer remembers which turn a tombstone's keyed key names, and after a subject
    erasure the subject's turns no longer open on the log (their key is shredded): it
    names them among the points it holds, and deletes them."""
    runtime = await Runtime(kafka_settings, tmp_path).start()
    try:
        memory = runtime.memory
        await memory.publish([said(f"a{i}", t, i, ALICE) for i, t in enumerate(ALICE_SAYS)])

        async def indexed() -> bool:
            return await runtime.caught_up() and bool(await memory.facts(ALICE))

        await runtime.settle(indexed)
        ids = [t.evidence_id for t in await _evidence(runtime, ALICE)]
        scanner = ResidueScanner(KEY, marks_of(KEY, ids, [], []))
        assert scanner.scan_folder(kafka_settings.data_dir)  # the local index holds them
        await runtime.restart()
        await runtime.erase(erasure_request(ALICE, [], None, True))
        assert scanner.scan_folder(kafka_settings.data_dir) == []
    finally:
        await runtime.stop()


async def log_residue(runtime: Runtime, planted: ErasedMarks) -> list[Hit]:
    """Hits in every record the log retains, keys included, read raw (not opened)."""
    components = runtime.memory.components
    topics = [config.name for config in components.names.configs(key_ring=False)]
    records = [record async for record in log_records(components.log, topics)]
    return ResidueScanner(KEY, planted).scan_records(records)


async def _evidence(runtime: Runtime, scope: str) -> list:  # type: ignore[type-arg]
    store = runtime.memory.components.evidence
    found = [await store.get(i) for i in await store.ids_in_scope(scope)]
    return [turn for turn in found if turn is not None]
